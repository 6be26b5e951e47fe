"""Card pictures in the bot: the hand (ephemeral) and the table (public), per server.

Text only is the default; a server manager turns pictures on (``/admin pictures on``) and picks
the theme (``/admin theme light|dark|fourcolour``) and the faces (``/admin faces``: each game's
own, German or French), stored per server. The harness notes every
picture the bot draws with the cards on it, and counts a message's files as part of what its
audience sees: the hidden-card check covers pictures, and a hand picture in a public message is
a leak.
"""

from __future__ import annotations

import io
from typing import Any

import discord
import pytest
from fake_discord import CHANNEL_ID, GUILD_ID, Harness, Message, User
from standin.schema import SchemaCheck

from bot import cardart, present
from bot.pictures import HAND_FILE, TABLE_FILE, digest, table_trick, trick_winner
from bot.session import TableSession
from bot.texts import t
from engine import Match, make_rules, public_view


async def start(h: Harness, ana: User) -> TableSession:
    await h.command(ana, "table new", game="filicau")
    await h.press(ana, t("btn.join_a"))
    session = h.session()
    while not session.full:
        await h.add_computer(ana, "easy")
    await h.press(ana, t("btn.start"))
    return session


async def pictures_on(h: Harness, mia: User, theme: str | None = None) -> None:
    r = await h.command(mia, "admin pictures", mode="on")
    assert r.rejected_with(t("ok.pictures_on"))
    if theme is not None:
        r = await h.command(mia, "admin theme", theme=theme)
        assert r.rejected_with(t("ok.theme", theme=t(f"choice.{theme}")))


def picture(h: Harness, msg: Message, name: str) -> tuple[bytes, str, frozenset[int]]:
    """The message's one picture: bytes, and what the harness noted it shows."""
    files = [data for fname, data in msg.files if fname == name]
    assert len(files) == 1, [fname for fname, _ in msg.files]
    noted = h.pictures[digest(files[0])]
    return files[0], noted.kind, noted.cards


async def test_text_only_is_the_default(h: Harness) -> None:
    ana = h.user("ana")
    await start(h, ana)
    view = (await h.press(ana, t("btn.my_hand"))).message
    assert view.files == [] and h.table_message().files == []
    assert h.pictures == {}  # nothing drawn at all


async def test_the_hand_picture_goes_to_its_holder_only(h: Harness) -> None:
    ana, mia = h.user("ana"), h.user("mia", manager=True)
    await pictures_on(h, mia)
    session = await start(h, ana)
    assert session.hand is not None
    view = (await h.press(ana, t("btn.my_hand"))).message
    assert view.audience == ana.id
    _, kind, cards = picture(h, view, HAND_FILE)
    seat = session.seat_of(ana.id)
    assert seat is not None
    assert kind == "hand" and cards == frozenset(session.hand.hands[seat])
    # Playing a card redraws the picture in the same (ephemeral) message.
    card_id = view.enabled("card")[0]
    await h.click(ana, card_id, message=view)
    view = h.hand_view(ana)
    _, _, cards = picture(h, view, HAND_FILE)
    assert cards == frozenset(session.hand.hands[seat]) and len(cards) == 7
    # No public message carries a hand picture; every picture was drawn off the event loop.
    assert all(h.pictures[digest(d)].kind == "table"
               for m in h.public() for _, d in m.files)
    assert all(p.in_worker for p in h.pictures.values())


@pytest.mark.slow
async def test_the_table_picture_shows_the_trick_and_follows_the_play(h: Harness) -> None:
    ana, mia = h.user("ana"), h.user("mia", manager=True)
    await pictures_on(h, mia, theme="light")
    session = await start(h, ana)
    hand = session.hand
    assert hand is not None
    table = h.table_message()
    _, kind, cards = picture(h, table, TABLE_FILE)
    view = public_view(hand)
    assert kind == "table"
    assert cards == frozenset(view.trick) | frozenset(view.shown)
    assert {p.theme for p in h.pictures.values()} == {"light"}
    # Play the whole hand: after each click the table picture is the public view's.
    while not hand.finished:
        mine = h.hand_view(ana) if any(
            m.audience == ana.id for m in h.discord.messages.values()) else None
        if mine is None or not (mine.enabled("card") or mine.enabled("act")):
            mine = (await h.press(ana, t("btn.my_hand"))).message
        choices = mine.enabled("card") or mine.enabled("act")
        await h.click(ana, choices[0], message=mine)
        _, _, cards = picture(h, h.table_message(), TABLE_FILE)
        v = public_view(hand)
        shown = v.trick or (v.last_trick.cards if v.last_trick else ())
        assert cards == frozenset(shown) | frozenset(v.shown)
    assert h.checked > 10  # the hidden-card check looked at the messages, pictures included
    # Every request with a picture (interaction callbacks, follow-up edits, channel message
    # edits) is valid under Discord's OpenAPI schema.
    check = SchemaCheck()
    assert check.available, f"{check.path} is needed to check the uploads"
    uploads = [c for c in h.discord.calls if c.files]
    assert {name for c in uploads for name, _ in c.files} == {HAND_FILE, TABLE_FILE}
    for call in h.discord.calls:
        if call.method != "GET":
            assert check.validate(call.method, call.path, upload_ids(call.body)) is None


def upload_ids(body: Any) -> Any:
    """The body with each new upload's attachment ``id`` as a string. discord.py sends the
    file's index as a number (``{"id": 0, "filename": "table.png"}``), as Discord's own
    "Uploading Files" example does; the OpenAPI description types every attachment id as a
    snowflake string. Only that difference is bridged: everything else is checked as sent."""
    if isinstance(body, dict):
        return {k: ([{**a, "id": str(a["id"])} if isinstance(a.get("id"), int) else a
                     for a in v] if k == "attachments" and isinstance(v, list)
                    else upload_ids(v)) for k, v in body.items()}
    return body


async def test_an_unchanged_picture_is_not_uploaded_again(h: Harness) -> None:
    ana, mia = h.user("ana"), h.user("mia", manager=True)
    await pictures_on(h, mia)
    session = await start(h, ana)
    surface = h.table(session).discord
    assert session.hand is not None
    view = public_view(session.hand)
    table = h.table_message()
    before = picture(h, table, TABLE_FILE)[0]
    for content in ("one", "two"):
        mark = h.mark()
        message = await present.table_message(session, view, None, h.bot.config(GUILD_ID))
        message.content = content
        await surface._edit_table(message)
        [edit] = [c for c in h.calls_since(mark) if c.method == "PATCH"]
        assert edit.files == [] and "attachments" not in edit.body
        assert table.content == content and picture(h, table, TABLE_FILE)[0] == before


async def test_text_only_again_removes_the_pictures(h: Harness) -> None:
    ana, mia = h.user("ana"), h.user("mia", manager=True)
    await pictures_on(h, mia)
    await start(h, ana)
    assert h.table_message().files
    view = (await h.press(ana, t("btn.my_hand"))).message
    assert view.files
    r = await h.command(mia, "admin pictures", mode="off")
    assert r.ephemeral and r.message.content == t("ok.pictures_off")
    assert h.table_message().files == []
    await h.click(ana, view.enabled("card")[0], message=view)
    assert h.hand_view(ana).files == []


async def test_the_server_setting_survives_a_restart(h: Harness) -> None:
    mia = h.user("mia", manager=True)
    await pictures_on(h, mia, theme="light")
    await h.restart()
    assert h.bot is not None
    config = h.bot.config(GUILD_ID)
    assert config.pictures and config.theme == "light"


async def test_only_managers_change_the_pictures(h: Harness) -> None:
    ana = h.user("ana")
    r = await h.command(ana, "admin pictures", mode="on")
    assert r.rejected_with(t("err.need_manage_server"))
    assert h.bot is not None and not any(c.pictures for c in h.bot.guild_config.values())


async def test_the_harness_catches_a_hand_picture_in_public(h: Harness) -> None:
    """The check itself: a hand's picture sent to the channel is reported as a leak."""
    ana = h.user("ana")
    session = await start(h, ana)
    assert session.hand is not None and h.bot is not None
    other = next(s for s in range(4) if s != session.seat_of(ana.id))
    data = cardart.hand_png(session.hand.hands[other])
    channel = h.bot.get_partial_messageable(CHANNEL_ID)
    await channel.send(file=discord.File(io.BytesIO(data), filename="x.png"))
    assert any("posted publicly" in leak for leak in h.leaks)
    assert any("shown to everybody" in leak for leak in h.leaks)
    h.leaks.clear()


async def test_text_only_after_a_restart_removes_the_picture_from_before(h: Harness) -> None:
    ana, mia = h.user("ana"), h.user("mia", manager=True)
    await pictures_on(h, mia)
    await start(h, ana)
    assert h.table_message().files
    await h.restart()
    r = await h.command(mia, "admin pictures", mode="off")
    assert r.ephemeral and r.message.content == t("ok.pictures_off")
    assert h.table_message().files == []


async def test_the_four_colour_theme_is_chosen_like_the_others(h: Harness) -> None:
    ana, mia = h.user("ana"), h.user("mia", manager=True)
    await pictures_on(h, mia, theme="fourcolour")
    await start(h, ana)
    await h.press(ana, t("btn.my_hand"))
    assert {p.theme for p in h.pictures.values()} == {"fourcolour"}
    await h.restart()
    assert h.bot is not None and h.bot.config(GUILD_ID).theme == "fourcolour"


async def test_a_server_picks_french_or_german_faces(h: Harness) -> None:
    """By default the cards have the faces the game is played with (German for Filicău);
    ``/admin faces`` draws every game's pictures with French (or German) faces, from the next
    picture on, and the choice survives a restart."""
    ana, mia = h.user("ana"), h.user("mia", manager=True)
    await pictures_on(h, mia)
    await start(h, ana)
    await h.press(ana, t("btn.my_hand"))
    assert {p.faces for p in h.pictures.values()} == {"german"}
    r = await h.command(mia, "admin faces", faces="french")
    assert r.ephemeral and r.message.content == t("ok.faces", faces=t("choice.french"))
    h.pictures.clear()
    view = (await h.press(ana, t("btn.my_hand"))).message
    assert picture(h, view, HAND_FILE)[1] == "hand"
    await h.click(ana, view.enabled("card")[0], message=view)
    assert {p.kind for p in h.pictures.values()} == {"hand", "table"}
    assert {p.faces for p in h.pictures.values()} == {"french"}
    await h.restart()
    assert h.bot is not None and h.bot.config(GUILD_ID).faces == "french"
    r = await h.command(mia, "admin faces", faces="game")
    assert r.ephemeral and r.message.content == t("ok.faces", faces=t("choice.as_played"))
    assert h.bot.config(GUILD_ID).faces == "game"


async def test_a_game_played_with_french_faces_is_drawn_with_them(h: Harness,
                                                                  monkeypatch: Any) -> None:
    """A game whose rules say it is played with French faces (``Rules.faces``, Doppelkopf's)
    is drawn with them unless the server chose German faces for every game."""
    monkeypatch.setattr(type(make_rules("filicau")), "faces", "french")
    ana, mia = h.user("ana"), h.user("mia", manager=True)
    await pictures_on(h, mia)
    await start(h, ana)
    await h.press(ana, t("btn.my_hand"))
    assert {p.faces for p in h.pictures.values()} == {"french"}
    r = await h.command(mia, "admin faces", faces="german")
    assert r.ephemeral and r.message.content == t("ok.faces", faces=t("choice.german"))
    h.pictures.clear()
    await h.press(ana, t("btn.my_hand"))
    assert h.pictures and {p.faces for p in h.pictures.values()} == {"german"}


def test_the_faces_follow_the_game_unless_the_server_chose() -> None:
    french = type("Played", (), {"faces": "french"})
    assert cardart.faces_for(make_rules("filicau")) == "german"
    assert cardart.faces_for(french) == "french"
    assert cardart.faces_for(french, "german") == "german"
    assert cardart.faces_for(make_rules("schafkopf"), "french") == "french"
    with pytest.raises(ValueError):
        cardart.faces_for(french, "swiss")


@pytest.mark.parametrize("game", ["filicau", "filko", "schafkopf3", "officers"])
def test_the_table_picture_marks_the_card_that_takes_the_trick(game: str) -> None:
    """``trick_winner``: the seat of the trick's card that no other card in it beats (the card
    the table picture frames), or the last trick's winner once it is complete."""
    match = Match(make_rules(game, {}), seed=7)
    for _ in range(3):
        hand = match.deal()
        while not hand.finished:
            v = public_view(hand)
            seats_cards = table_trick(v)
            winner = trick_winner(v)
            if not seats_cards:
                assert winner is None
            elif v.trick:
                assert v.order is not None
                seats = [s for s, _ in seats_cards]
                assert winner in seats
                best = seats_cards[seats.index(winner)][1]
                # No card played after the winning one beats it.
                assert not any(v.order.beats(c, best)
                               for _, c in seats_cards[seats.index(winner) + 1:])
            else:
                assert v.last_trick is not None and winner == v.last_trick.winner
            seat = hand.actors()[0]
            hand.apply(seat, hand.legal_actions(seat)[0])
        match.record_result(hand)
