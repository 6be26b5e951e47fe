"""Clicks and commands the bot must refuse: from another server, channel or a DM, out of the
ranges Discord declares, values not in the choices, options missing, buttons of the lobby
used by somebody who may not. Each is answered in the user's language, changes nothing and
logs no traceback (the harness fails a test on any logged error)."""

from __future__ import annotations

import contextlib
import copy
import inspect
import logging
import random
from collections.abc import Iterator
from typing import Any

import pytest
from fake_discord import (
    CHANNEL_ID,
    CHANNEL_MESSAGE,
    OTHER_CHANNEL_ID,
    UPDATE_MESSAGE,
    Harness,
    HTTPError,
    Sent,
    Thread,
)
from test_cogs import acting, card_id, four_players, hand_of, one_human, play_until, state

from bot.texts import speaking, t
from engine import Action

OTHER_GUILD_ID = 810_000_000_000_000_777


def elsewhere(payload: dict[str, Any], *, guild: int | None = None,
              channel: int | None = None) -> dict[str, Any]:
    """The same click, arriving from another server, another channel, or a DM (guild None
    and channel given)."""
    payload = copy.deepcopy(payload)
    if channel is not None:
        payload["channel_id"] = str(channel)
        payload["channel"]["id"] = str(channel)
        payload["message"]["channel_id"] = str(channel)
    if guild is not None:
        payload["guild_id"] = str(guild)
        payload["channel"]["guild_id"] = str(guild)
        payload["message"]["guild_id"] = str(guild)
        payload["authorizing_integration_owners"] = {"0": str(guild)}
    return payload


def as_dm(payload: dict[str, Any]) -> dict[str, Any]:
    """The same interaction from a direct message: no server, the user instead of a
    member."""
    payload = copy.deepcopy(payload)
    for key in ("guild_id", "guild_locale"):
        payload.pop(key, None)
    if "message" in payload:
        payload["message"].pop("guild_id", None)
    payload["user"] = payload.pop("member")["user"]
    payload["channel"] = {"id": payload["channel_id"], "type": 1}
    payload["context"] = 1
    return payload


async def test_a_lobby_button_from_another_server_channel_or_dm_changes_nothing(
        h: Harness) -> None:
    ana, eve = h.user("ana"), h.user("eve", manager=True)
    await h.command(ana, "table new", game="filicau")
    session = h.session()
    lobby = h.table_message()
    for button, who in ((t("btn.join_a"), eve), (t("btn.cancel"), eve)):
        custom_id = lobby.button_by_label(button)["custom_id"]
        for make in (lambda p: elsewhere(p, guild=OTHER_GUILD_ID),
                     lambda p: elsewhere(p, channel=OTHER_CHANNEL_ID), as_dm):
            payload, sent = h.click_payload(who, custom_id, message=lobby)
            mark = h.mark()
            await h.dispatch(make(payload))
            sent.calls = h.calls_since(mark)
            assert sent.rejected_with(t("err.elsewhere")), (button, sent.message.content)
            assert session.seats == [None] * 4 and session.state == "lobby"
    # The same buttons where the table is: they work.
    r = await h.press(eve, t("btn.join_a"))
    assert r.type == UPDATE_MESSAGE and session.seats[0] == eve.member


async def test_a_card_from_another_server_is_refused_and_the_hand_unchanged(
        h: Harness) -> None:
    session, users = await four_players(h)
    hand = session.hand
    assert hand is not None and hand.to_move is not None
    mover = users[hand.to_move]
    view = h.hand_view(mover)
    before = state(h, session)
    payload, sent = h.click_payload(mover, view.enabled()[0], message=view)
    mark = h.mark()
    await h.dispatch(elsewhere(payload, guild=OTHER_GUILD_ID))
    sent.calls = h.calls_since(mark)
    assert sent.rejected_with(t("err.elsewhere"))
    assert state(h, session) == before


async def test_only_the_opener_or_a_manager_adds_or_removes_computers(h: Harness) -> None:
    ana, bob, mia = h.user("ana"), h.user("bob"), h.user("mia", manager=True)
    await h.command(ana, "table new", game="filicau")
    session = h.session()
    await h.press(bob, t("btn.join_a"))
    for level in ("easy", "normal", "hard"):
        r = await h.add_computer(bob, level)
        assert r.rejected_with(t("err.not_manager")), level
    r = await h.click(bob, f"fc:uncpu:{session.id}", message=h.table_message(), forge=True)
    assert r.rejected_with(t("err.not_manager"))
    assert session.seats == [bob.member, None, None, None]
    r = await h.add_computer(mia, "easy")
    assert r.type == UPDATE_MESSAGE
    r = await h.add_computer(ana)
    assert r.type == UPDATE_MESSAGE
    # The button names the computer it removes: the last one seated.
    last = max(seat for seat, m in enumerate(session.seats) if m and m.startswith("cpu:"))
    r = await h.press(ana, t("btn.remove_cpu_seat", seat=last + 1))
    assert r.type == UPDATE_MESSAGE
    assert sum(m is not None for m in session.seats) == 2


@pytest.mark.parametrize(("options", "key", "params"), [
    ({"game": "filicau", "turn_seconds": -5}, "err.bad_setting", ("turn_seconds", 20, 900)),
    ({"game": "filicau", "turn_seconds": 10**15}, "err.bad_setting", ("turn_seconds", 20, 900)),
    ({"game": "filicau", "turn_seconds": "abc"}, "err.bad_setting", ("turn_seconds", 20, 900)),
    ({"game": "filicau", "window_seconds": 0}, "err.bad_setting", ("window_seconds", 5, 120)),
    ({"game": "bogus"}, "err.bad_command_input", None),
    ({}, "err.bad_command_input", None),
])
async def test_table_new_with_values_discord_would_not_send(
        h: Harness, caplog: pytest.LogCaptureFixture, options: dict[str, Any], key: str,
        params: tuple[str, int, int] | None) -> None:
    """A client (or anybody with the bot's interaction endpoint) may send any value: out of
    range, of the wrong type, not among the choices, or missing. Each is a clear answer in
    the user's language; no table opens and the channel stays free."""
    ana = h.user("ana", locale="de")
    with caplog.at_level(logging.INFO):
        r = await h.command(ana, "table new", **options)
    with speaking("de"):
        text = t(key) if params is None else t(
            key, option=t(f"optname.{params[0]}"), low=params[1], high=params[2])
    assert r.rejected_with(text)
    assert h.tables.session_in(r.channel_id) is None
    assert not [rec for rec in caplog.records if rec.exc_info]
    # The channel is free: a table opens there now.
    r = await h.command(ana, "table new", game="filicau")
    assert not r.ephemeral


@pytest.mark.parametrize("command", ["standings", "status", "table new", "admin end",
                                     "history"])
async def test_server_commands_from_a_dm_are_refused(h: Harness, command: str) -> None:
    ana = h.user("ana", locale="ro")
    options = {"game": "filicau"} if command == "table new" else {}
    payload, sent = h.command_payload(ana, command, **options)
    mark = h.mark()
    await h.dispatch(as_dm(payload))
    sent.calls = h.calls_since(mark)
    with speaking("ro"):
        assert sent.rejected_with(t("err.guild_only"))


async def test_admin_commands_tell_a_table_opener_they_need_manage_server(h: Harness) -> None:
    ana = h.user("ana")
    await h.command(ana, "table new", game="filicau")
    r = await h.command(ana, "admin end")
    assert r.rejected_with(t("err.need_manage_server"))
    assert t("err.need_manage_server") != t("err.not_manager")
    assert h.session().state == "lobby"


async def test_a_menu_without_a_hand_number_or_value_is_a_bad_button(h: Harness) -> None:
    session, users = await four_players(h)
    view = h.hand_view(users[0])
    before = state(h, session)
    for custom_id, values in ((f"fs:act:{session.id}", ["card:\"EO\""]),
                              (f"fs:act:{session.id}:1", []),
                              (f"fs:together:{session.id}:1", ["EO"]),
                              (f"fs:opt:{session.id}", ["early_end"])):
        data = {"custom_id": custom_id, "component_type": 3, "values": values}
        payload, sent = h._interaction(users[0], 3, data, view.payload(), view.channel_id)
        mark = h.mark()
        await h.dispatch(payload)
        sent.calls = h.calls_since(mark)
        assert sent.rejected_with(t("err.bad_button")), custom_id
    assert state(h, session) == before


async def test_an_option_the_game_refuses_is_worded_in_the_users_language(h: Harness) -> None:
    """Filicău has no top-trumps option: the opener is told so in their language, with the
    option's name in words (not the engine's English message)."""
    ana = h.user("ana", locale="de")
    r = await h.command(ana, "table new", game="filicau", top_trumps="hearts_seven")
    with speaking("de"):
        expected = t("err.bad_options", problem=t("opterr.unknown", option="top_trumps"))
        assert r.rejected_with(expected), r.message.content
        assert "extra" not in r.message.content.lower()
    assert h.tables.session_in(r.channel_id) is None


async def test_an_answer_discord_no_longer_takes_is_a_warning_not_a_traceback(
        h: Harness, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """A bot too busy to answer within Discord's 3 s gets 404/10062: nothing can be sent,
    so it is one warning line; the table the command was opening does not stay behind."""
    ana = h.user("ana")

    def too_late(*args: Any) -> Any:
        raise HTTPError(404, 10062, "Unknown interaction")

    with monkeypatch.context() as patch:
        patch.setattr(h.discord, "_callback", too_late)
        with caplog.at_level(logging.WARNING):
            payload, _ = h.command_payload(ana, "table new", game="filicau")
            await h.dispatch(payload)
    assert any("too late" in r.getMessage() for r in caplog.records)
    assert not [r for r in caplog.records if r.exc_info]
    assert h.tables.session_in(CHANNEL_ID) is None and h.tables.open == {}
    # Answered in time, the same command opens the table.
    r = await h.command(ana, "table new", game="filicau")
    assert not r.ephemeral and h.tables.session_in(CHANNEL_ID) is not None


@pytest.mark.parametrize("locale", ["en-US", "ro", "hu", "de"])
async def test_help_is_in_the_askers_language_and_works_in_a_dm(h: Harness, locale: str) -> None:
    ana = h.user("ana", locale=locale)
    lang = locale.split("-")[0]
    for dm in (False, True):
        payload, sent = h.command_payload(ana, "help")
        mark = h.mark()
        await h.dispatch(as_dm(payload) if dm else payload)
        sent.calls = h.calls_since(mark)
        assert sent.ephemeral
        [embed] = sent.message.embeds
        with speaking(lang):
            assert embed["title"] == t("help.title")
            assert t("btn.my_hand") in embed["fields"][1]["value"]
        assert "oauth2/authorize" in embed["fields"][-1]["value"]


async def test_ids_and_locales_discord_would_not_send_are_refused_without_a_traceback(
        h: Harness, caplog: pytest.LogCaptureFixture) -> None:
    """Found by the front-door fuzz: a guild id beyond 64 bits, or a guild locale that is
    not a string, reached the store and ended in a traceback with no answer."""
    ana = h.user("ana")
    with caplog.at_level(logging.INFO):
        payload, sent = h.command_payload(ana, "table new", game="filicau")
        payload["guild_id"] = str(2**64 + 5)
        mark = h.mark()
        await h.dispatch(payload)
        sent.calls = h.calls_since(mark)
        assert sent.rejected_with(t("err.bad_command_input"))
        # A locale that is no locale is ignored; the command itself works.
        payload, sent = h.command_payload(ana, "table new", game="filicau")
        payload["guild_locale"] = 12345
        await h.dispatch(payload)
        assert not sent.ephemeral and h.tables.session_in(CHANNEL_ID) is not None
        lobby = h.table_message()
        payload, sent = h.click_payload(ana, lobby.button_by_label(t("btn.join_a"))[
            "custom_id"], message=lobby)
        payload["guild_id"] = str(2**64 + 5)
        mark = h.mark()
        await h.dispatch(payload)
        sent.calls = h.calls_since(mark)
        assert sent.rejected_with(t("err.bad_button"))
    assert h.session().seats == [None] * 4
    assert not [r for r in caplog.records if r.exc_info]


# -- a click answered on the message it came from (issue 32) ------------------------------------


async def test_a_card_click_forged_onto_the_table_message_changes_nothing(h: Harness) -> None:
    """The player whose turn it is puts a legal card's id on the public table message: the
    move is not made, and the table message never becomes that player's hand."""
    from test_cogs import card_id, hand_of

    from bot.texts import card_label

    session, users = await four_players(h)
    hand = hand_of(session)
    seat = hand.to_move
    assert seat is not None
    mover = users[seat]
    legal = hand.legal_actions(seat)[0].value
    table = h.table_message()
    before, shown = state(h, session), table.text
    r = await h.click(mover, card_id(session, legal), message=table, forge=True)
    assert r.rejected_with(t("err.bad_button"))
    assert state(h, session) == before
    assert table.text == shown
    assert not any(card_label(c) in table.text for c in hand.hands[seat])


async def test_a_card_click_whose_message_has_no_components_is_refused(
        h: Harness, caplog: pytest.LogCaptureFixture) -> None:
    """A hand-made click whose message carries no ``components`` key at all (discord.py then
    leaves the attribute unset): the player is told the button is not valid, the card is not
    played, and nothing is logged as an error."""
    session, users = await four_players(h)
    hand = hand_of(session)
    seat = hand.to_move
    assert seat is not None
    mover = users[seat]
    view = h.hand_view(mover)
    before = state(h, session)
    payload, sent = h.click_payload(mover, card_id(session, hand.legal_actions(seat)[0].value),
                                    message=view)
    del payload["message"]["components"]
    mark = h.mark()
    with caplog.at_level(logging.WARNING):
        await h.dispatch(payload)
    sent.calls = h.calls_since(mark)
    assert sent.rejected_with(t("err.bad_button"))
    assert state(h, session) == before
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


async def test_a_review_forged_onto_the_result_changes_nothing(h: Harness) -> None:
    """The review's step button (private: every hand open) put on the public result: not
    drawn there, and the result keeps its buttons for everybody."""
    import random

    from test_cogs import one_human, play_until

    session, ana = await one_human(h)
    await play_until(h, session, [ana], random.Random(4))
    await h.settle()
    result = h.result_post()
    shown, buttons = result.text, list(result.buttons)
    r = await h.click(ana, f"fc:review:{session.id}:1:1", message=result, forge=True)
    assert r.rejected_with(t("err.bad_button"))
    assert result.text == shown and result.buttons == buttons
    # The result's own Review button still answers, privately.
    r = await h.press(ana, t("btn.review"), message=result)
    assert r.ephemeral and result.buttons == buttons


# -- values out of their declared range (issue 32, item 3) --------------------------------------


@contextlib.contextmanager
def queries(store: Any) -> Iterator[list[str]]:
    """Every call of the store's methods meanwhile, by name."""
    calls: list[str] = []
    originals = {}
    for name in dir(type(store)):
        method = getattr(store, name, None)
        if name.startswith("_") or not inspect.iscoroutinefunction(method):
            continue

        def recording(*args: Any, _name: str = name, _method: Any = method,
                      **kwargs: Any) -> Any:
            calls.append(_name)
            return _method(*args, **kwargs)

        originals[name] = method
        setattr(store, name, recording)
    try:
        yield calls
    finally:
        for name in originals:
            delattr(store, name)


async def refused_unread(h: Harness, payload: dict[str, Any], sent: Sent, text: str,
                         caplog: pytest.LogCaptureFixture) -> None:
    """The interaction is answered with exactly ``text``, privately, and the store is not
    asked anything; nothing is logged above INFO and no traceback."""
    assert h.bot is not None
    with caplog.at_level(logging.INFO), queries(h.bot.store) as calls:
        mark = h.mark()
        await h.dispatch(payload)
        sent.calls = h.calls_since(mark)
    assert sent.rejected_with(text), sent.message.content if sent.answered else "no answer"
    assert calls == []
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.WARNING]


def out_of_range(option: str, low: int, high: int) -> str:
    return t("err.bad_setting", option=t(f"optname.{option}"), low=low, high=high)


@pytest.mark.parametrize("season", [-1, 0, "x", 10_001, True, 2**70])
async def test_a_leaderboard_season_out_of_range_is_refused_before_any_query(
        hs: Harness, caplog: pytest.LogCaptureFixture, season: Any) -> None:
    """``/leaderboard season:-1`` posted a public board of "season -1", ``season:0`` showed
    season 1, ``season:'x'`` ended in a traceback: a season is a whole number from 1 on."""
    ana = hs.user("ana", locale="ro")
    r = await hs.command(ana, "leaderboard", game="filicau", season=1)
    assert not r.ephemeral  # season 1 is the current one: the board is posted
    payload, sent = hs.command_payload(ana, "leaderboard", game="filicau", season=season)
    with speaking("ro"):
        await refused_unread(hs, payload, sent, out_of_range("season", 1, 10_000), caplog)


@pytest.mark.parametrize("hand", [2**70, 2**31, 0, -3, "1", 1.5])
async def test_a_history_hand_out_of_range_is_refused_before_any_query(
        hs: Harness, caplog: pytest.LogCaptureFixture, hand: Any) -> None:
    """``/history hand:2**70`` was an OverflowError on SQLite and a DataError on
    PostgreSQL, answered "Something went wrong"."""
    ana = hs.user("ana", locale="hu")
    await hs.command(ana, "table new", game="filicau")
    payload, sent = hs.command_payload(ana, "history", hand=hand)
    with speaking("hu"):
        await refused_unread(hs, payload, sent, out_of_range("hand", 1, 2**31 - 1), caplog)
    # A hand within the range is looked up.
    r = await hs.command(ana, "history", hand=2**31 - 1)
    with speaking("hu"):
        assert r.rejected_with(t("err.no_record"))


async def test_a_profile_of_a_user_discord_did_not_resolve_is_refused(
        hs: Harness, caplog: pytest.LogCaptureFixture) -> None:
    """A user option names a user Discord resolved (picked in the client); one that is not
    in ``resolved`` was an AttributeError."""
    ana, bob = hs.user("ana", locale="de"), hs.user("bob")
    r = await hs.command(ana, "profile", user=bob)
    assert r.ephemeral and r.message.embeds
    for value in (str(bob.id), "0", "x", str(2**64)):
        payload, sent = hs.command_payload(ana, "profile", user=value)
        with speaking("de"):
            await refused_unread(hs, payload, sent, t("err.bad_command_input"), caplog)


def with_button(message: dict[str, Any], custom_id: str) -> dict[str, Any]:
    """A message as a forger sends it along: with one more button, carrying ``custom_id``."""
    message = copy.deepcopy(message)
    message.setdefault("components", []).append({"type": 1, "components": [
        {"type": 2, "style": 2, "label": "▶", "custom_id": custom_id}]})
    return message


@pytest.mark.parametrize("args", ["filicau:2147483648:2", "filicau:1:2147483648",
                                  f"filicau:{2**64}:1", "filicau:-1:1", "filicau:1:-2",
                                  "bogus:1:2", "filicau:1", "filicau:1:2:3", "filicau:1:٣"])
async def test_a_leaderboard_page_out_of_range_is_refused_before_any_query(
        hs: Harness, caplog: pytest.LogCaptureFixture, args: str) -> None:
    """A page button's season and page are whole numbers the store holds (32 bits): one
    beyond was a DataError on PostgreSQL."""
    ana = hs.user("ana", locale="ro")
    board = (await hs.command(ana, "leaderboard", game="filicau")).message
    custom_id = f"fc:board:0:{args}"
    data = {"custom_id": custom_id, "component_type": 2}
    payload, sent = hs._interaction(ana, 3, data, with_button(board.payload(), custom_id),
                                    board.channel_id)
    with speaking("ro"):
        await refused_unread(hs, payload, sent, t("err.bad_button"), caplog)
    # The same message's own page button (were there two pages) is read.
    good = "fc:board:0:filicau:1:2"
    payload, sent = hs._interaction(ana, 3, {"custom_id": good, "component_type": 2},
                                    with_button(board.payload(), good), board.channel_id)
    await hs.dispatch(payload)
    assert sent.type == UPDATE_MESSAGE


# -- answers that come too late (issue 32, item 4) -----------------------------------------------


@contextlib.contextmanager
def too_late_for(h: Harness, sent: Sent) -> Iterator[None]:
    """Discord no longer takes an answer to ``sent`` (its 3 s passed): 404, code 10062."""
    callback = h.discord._callback

    def late(s: Sent, body: dict[str, Any], files: list[tuple[str, bytes]]) -> Any:
        if s is sent:
            raise HTTPError(404, 10062, "Unknown interaction")
        return callback(s, body, files)

    h.discord._callback = late  # type: ignore[method-assign]
    try:
        yield
    finally:
        del h.discord._callback


async def answered_too_late(h: Harness, payload: dict[str, Any], sent: Sent,
                            caplog: pytest.LogCaptureFixture) -> None:
    """Send the interaction, whose answer comes too late: exactly one warning, no error."""
    caplog.clear()
    with caplog.at_level(logging.INFO), too_late_for(h, sent):
        await h.dispatch(payload)
    assert not sent.answered
    loud = [(r.levelname, r.getMessage()) for r in caplog.records
            if r.levelno >= logging.WARNING]
    assert len(loud) == 1 and loud[0][0] == "WARNING" and "too late" in loud[0][1], loud
    assert not [r for r in caplog.records if r.exc_info]


async def test_a_refused_click_answered_too_late_is_one_warning(
        h: Harness, caplog: pytest.LogCaptureFixture) -> None:
    """A refusal Discord no longer takes was an unhandled NotFound: an ERROR with a
    traceback."""
    session, users = await four_players(h)
    eve = h.user("eve")
    before = state(h, session)
    for who, label in ((eve, t("btn.my_hand")), (users[0], t("btn.rules"))):
        custom_id = h.table_message().button_by_label(label)["custom_id"]
        payload, sent = h.click_payload(who, custom_id, message=h.table_message())
        await answered_too_late(h, payload, sent, caplog)
    # A forged card, a stale one: refused, too late.
    for custom_id in (f"fc:card:{session.id}:{2**40}:0:EO", f"fc:card:{session.id}:1:0:XX"):
        payload, sent = h.click_payload(users[0], custom_id, message=h.table_message(),
                                        forge=True)
        await answered_too_late(h, payload, sent, caplog)
    assert state(h, session) == before


async def test_a_refused_command_answered_too_late_is_one_warning(
        h: Harness, caplog: pytest.LogCaptureFixture) -> None:
    ana = h.user("ana")
    await h.command(ana, "table new", game="filicau")
    for name, options in (("history", {"hand": 0}), ("history", {"hand": 5}),
                          ("admin end", {}), ("table new", {"game": "filicau"})):
        payload, sent = h.command_payload(ana, name, **options)
        await answered_too_late(h, payload, sent, caplog)
    assert h.session().state == "lobby"


async def test_an_accepted_click_answered_too_late_still_counts_and_shows(
        h: Harness, caplog: pytest.LogCaptureFixture) -> None:
    """The click is stored before it is answered: an answer that comes too late is one
    warning, and the table shows the change and goes on as if it had come in time."""

    ana, bob = h.user("ana"), h.user("bob")
    await h.command(ana, "table new", game="filicau", turn_seconds=900, pings=False)
    session = h.session()
    # A seat taken in the lobby: the lobby message shows it all the same.
    custom_id = h.table_message().button_by_label(t("btn.join_a"))["custom_id"]
    payload, sent = h.click_payload(bob, custom_id, message=h.table_message())
    await answered_too_late(h, payload, sent, caplog)
    assert session.seats[0] == bob.member
    assert bob.mention in h.table_message().text
    await h.press(ana, t("btn.join_b"))
    for _ in range(2):
        await h.add_computer(ana)
    await h.press(ana, t("btn.start"))
    assert session.state == "playing"
    # A card played: stored, shown on the table, and the computers play on to the next
    # person's turn.
    for user in (ana, bob):
        await h.press(user, t("btn.my_hand"))
    hand = hand_of(session)
    seat = hand.to_move
    assert seat is not None and session.seats[seat] in (ana.member, bob.member)
    mover = ana if session.seats[seat] == ana.member else bob
    legal = hand.legal_actions(seat)[0].value
    played = len(hand.actions)
    payload, sent = h.click_payload(mover, card_id(session, legal), message=h.hand_view(mover))
    await answered_too_late(h, payload, sent, caplog)
    assert hand.actions[played] == (seat, Action("card", legal))
    to_move = hand.to_move
    assert to_move is not None and not session.seats[to_move].startswith("cpu:")
    # The table says whose turn it is now (as drawn after the move and the computers').
    assert f"<@{session.seats[to_move]}>" in acting(h.table_message())
    assert mover.mention not in acting(h.table_message()) or to_move == seat


# -- a table of another server, driven by another process (issue 32, item 5) ------------------


async def test_a_click_on_a_table_of_another_server_says_so(hs: Harness) -> None:
    """With shards, a table of another server is open in another process: a click copied
    from there lands on this one, which does not have it open. It was told "This table is
    closed."; it is told that the table is not one of this server. A table of this server
    that is closed is still closed."""
    assert hs.bot is not None
    ana = hs.user("ana", locale="de")
    await hs.command(ana, "table new", game="filicau")
    lobby = hs.table_message()
    # The other process's table, as the shared store holds it (not open in this process).
    theirs = await hs.bot.store.create_table(
        guild_id=OTHER_GUILD_ID, channel_id=OTHER_CHANNEL_ID + 7, game="filicau", options={},
        opener_id=ana.id + 99, seats=[None] * 4)
    assert hs.tables.get(theirs.id) is None
    for custom_id in (f"fc:join:{theirs.id}:0", f"fc:hand:{theirs.id}",
                      f"fc:card:{theirs.id}:1:0:EO"):
        r = await hs.click(ana, custom_id, message=lobby, forge=True)
        with speaking("de"):
            assert r.rejected_with(t("err.other_server")), r.message.content
    # The same from a direct message: not this place's either.
    payload, sent = hs.click_payload(ana, f"fc:hand:{theirs.id}", message=lobby, forge=True)
    mark = hs.mark()
    await hs.dispatch(as_dm(payload))
    sent.calls = hs.calls_since(mark)
    with speaking("de"):
        assert sent.rejected_with(t("err.elsewhere")), sent.message.content
    # A closed table of this server, and a table nobody ever opened.
    boss = hs.user("boss", manager=True)
    mine = lobby.button_by_label(t("btn.join_a"))["custom_id"]
    await hs.command(boss, "admin end")
    await hs.command(ana, "table new", game="filicau")
    for custom_id in (mine, f"fc:join:{theirs.id + 1000}:0"):
        r = await hs.click(ana, custom_id, message=hs.table_message(), forge=True)
        with speaking("de"):
            assert r.rejected_with(t("err.gone")), r.message.content


# -- tables in their own thread, under hostile input (issue 32, item 7) -------------------------

QUIET: dict[str, Any] = {"turn_seconds": 900, "pings": False}


def from_channel(payload: dict[str, Any], channel: dict[str, Any]) -> dict[str, Any]:
    """The same interaction sent from ``channel`` (a thread's payload, or a channel's)."""
    payload = copy.deepcopy(payload)
    payload["channel_id"] = channel["id"]
    payload["channel"] = channel
    if "message" in payload:
        payload["message"]["channel_id"] = channel["id"]
    return payload


async def sent_from(h: Harness, user: Any, custom_id: str, message: Any,
                    channel: dict[str, Any], guild: int | None = None) -> Sent:
    payload, sent = h.click_payload(user, custom_id, message=message)
    payload = from_channel(payload, channel)
    if guild is not None:
        payload = elsewhere(payload, guild=guild)
    mark = h.mark()
    await h.dispatch(payload)
    sent.calls = h.calls_since(mark)
    return sent


def thread_warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


async def test_clicks_from_forged_threads_are_refused(h: Harness) -> None:
    """Only a table's own thread counts as its place, and only for what it posts there (a
    result's Next hand and Review): a card or My hand sent from the thread, a result's
    button sent from a thread that is not the table's (another table's, a made-up one) are
    refused, and change nothing."""

    session, ana = await one_human(h, thread=True, **QUIET)
    assert session.thread_id is not None
    thread = h.discord.threads[session.thread_id]
    assert thread.parent_id == CHANNEL_ID and thread.id == h.table_message().id
    made_up = Thread(thread.id + 17, CHANNEL_ID, "made up").payload()
    hand = hand_of(session)
    legal = hand.legal_actions(0)[0].value
    before = state(h, session)
    for custom_id, message in ((card_id(session, legal), h.hand_view(ana)),
                               (f"fc:hand:{session.id}", h.table_message())):
        for channel in (thread.payload(), made_up):
            r = await sent_from(h, ana, custom_id, message, channel)
            assert r.rejected_with(t("err.elsewhere")), r.message.content
    assert state(h, session) == before
    # The hand is played out: its result is posted in the thread, not in the channel.
    await play_until(h, session, [ana], random.Random(4))
    await h.settle()
    result = h.result_post(thread.id)
    assert [m.id for m in h.public(CHANNEL_ID)] == [h.table_message().id]
    # Another table in another channel, in its own thread too.
    lea = h.user("lea")
    await h.command(lea, "table new", channel_id=OTHER_CHANNEL_ID, game="filicau",
                    thread=True, **QUIET)
    other = h.tables.session_in(OTHER_CHANNEL_ID)
    assert other is not None and other.thread_id is not None
    theirs = h.discord.threads[other.thread_id].payload()
    next_id = result.button_by_label(t("btn.next_hand"))["custom_id"]
    for channel, guild in ((theirs, None), (made_up, None), (thread.payload(), OTHER_GUILD_ID)):
        r = await sent_from(h, ana, next_id, result, channel, guild)
        assert r.rejected_with(t("err.elsewhere")), r.message.content
    assert session.hand_number == 1 and hand_of(session).finished
    # From the table's own thread, the same button deals the next hand.
    r = await h.click(ana, next_id, message=result)
    assert r.type == UPDATE_MESSAGE and session.hand_number == 2


async def test_a_thread_deleted_mid_hand_the_table_plays_on_in_the_channel(
        h: Harness, caplog: pytest.LogCaptureFixture) -> None:
    """A moderator deletes the table's thread during a hand: the result comes in the channel
    (one warning says why), Next hand works there, and no card leaks."""

    session, ana = await one_human(h, thread=True, **QUIET)
    assert session.thread_id is not None
    thread = h.discord.threads[session.thread_id]
    await play_until(h, session, [ana], random.Random(4), lambda hand: len(hand.tricks) >= 2)
    assert not hand_of(session).finished
    thread.deleted = True
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        await play_until(h, session, [ana], random.Random(5))
        await h.settle()
        result = h.result_post(CHANNEL_ID)
        r = await h.press(ana, t("btn.next_hand"), message=result)
        assert r.type == CHANNEL_MESSAGE and not r.ephemeral and session.hand_number == 2
        await play_until(h, session, [ana], random.Random(6))
        await h.settle()
    assert len([m for m in h.public(CHANNEL_ID) if m.embeds and m.buttons
                and m.embeds[0].get("title", "").startswith(t("result.title", number=2, a=0,
                                                                b=0).split(":")[0])]) == 1
    warnings = thread_warnings(caplog)
    assert len(warnings) == 1 and str(thread.id) in warnings[0], warnings


async def test_a_thread_the_bot_may_not_post_in_the_table_plays_in_the_channel(
        h: Harness, caplog: pytest.LogCaptureFixture) -> None:
    """The bot's permission to post in the table's thread is taken away (or the thread is
    locked) before the first result: results come in the channel, with one warning."""

    for lock in (False, True):
        session, ana = await one_human(h, thread=True, **QUIET)
        assert session.thread_id is not None
        thread = h.discord.threads[session.thread_id]
        thread.forbidden, thread.locked = not lock, lock
        caplog.clear()
        with caplog.at_level(logging.WARNING):
            await play_until(h, session, [ana], random.Random(4))
            await h.settle()
            result = h.result_post(CHANNEL_ID)
        assert [m for m in h.public(thread.id) if m.embeds] == []
        warnings = thread_warnings(caplog)
        assert len(warnings) == 1 and str(thread.id) in warnings[0], warnings
        assert result.channel_id == CHANNEL_ID
        boss = h.user("boss", manager=True)
        await h.command(boss, "admin end")


async def test_a_thread_the_bot_may_not_open_the_table_plays_in_the_channel(
        h: Harness, caplog: pytest.LogCaptureFixture) -> None:
    """Without the permission to start threads, ``thread:True`` is one warning and the
    table plays in the channel."""
    h.discord.refuse_threads = (403, 50013)
    with caplog.at_level(logging.WARNING):
        session, ana = await one_human(h, thread=True, **QUIET)
        await play_until(h, session, [ana], random.Random(4))
        await h.settle()
        h.result_post(CHANNEL_ID)
    assert session.thread_id is None and h.discord.threads == {}
    warnings = thread_warnings(caplog)
    assert len(warnings) == 1 and "thread" in warnings[0], warnings
