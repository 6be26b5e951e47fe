"""What a Bavarian Schafkopf player reads at the table and after it (issue 44): the goal said
once, the parties' points, the trumps in full, the game's value while it is played, the
tariff's sum in the result, the clarification's words, the claim button."""

from __future__ import annotations

from bot_fixtures import FixedDeal
from deal import pack_for
from fake_discord import Harness, Message, User
from test_games_bot import hand_of
from test_schafkopf_bot import BASE, seated

from bot.session import TableSession
from bot.texts import speaking, t
from engine.cards import card


async def play_out(h: Harness, ana: User, session: TableSession, game: str | None = None,
                   *, stoss: bool = False) -> Message:
    """Ana says I dad and names ``game`` (else Weiter), then plays her first legal card
    (Kontra when offered and ``stoss``) to the end; the result post."""
    await h.press(ana, t("btn.my_hand"))
    view = h.hand_view(ana)
    if game is None:
        await h.press(ana, t("act.weiter.True"), message=view)
    else:
        await h.press(ana, t("act.dad.True"), message=view)
        await h.until(lambda: hand_of(session).phase == "game")
        view = h.hand_view(ana)
        [menu] = view.selects
        value = next(o["value"] for o in menu["options"] if o["label"] == t(f"word.{game}"))
        await h.choose(ana, menu["custom_id"], [value], message=view)
    for _ in range(80):
        await h.until(lambda: hand_of(session).finished or bool(session.waiting_for_human()))
        if hand_of(session).finished:
            break
        view = h.hand_view(ana)
        moves = sorted(view.moves())
        if stoss:
            moves = sorted(moves, key=lambda m: ":stoss:" not in m)
        await h.click(ana, moves[0], message=view)
    await h.until(lambda: any(m.embeds and m.embeds[0].get("title", "").startswith("Hand 1")
                              for m in h.public()))
    return next(m for m in h.public() if m.embeds and m.embeds[0].get("title", "")
                .startswith("Hand 1"))


# -- the goal, once ----------------------------------------------------------------------------


async def test_the_goal_is_said_in_the_lobby_and_help_not_on_every_table_message(
        h: Harness) -> None:
    ana = h.user("ana")
    await h.command(ana, "table new", game="schafkopf")
    assert t("goal.schafkopf") in h.table_message().text
    session = await seated_again(h, ana)
    assert t("goal.schafkopf") not in h.table_message().text
    r = await h.command(ana, "help", game="schafkopf")
    assert t("goal.schafkopf") in r.message.embeds[0]["description"]
    assert session.hand_number == 1


async def seated_again(h: Harness, ana: User) -> TableSession:
    """The table opened already: Ana sits, computers fill it, the fixed deal starts."""
    await h.press(ana, t("btn.sit"))
    session = h.session()
    while not session.full:
        await h.add_computer(ana, "easy")
    session.rng = FixedDeal([card(c) for c in pack_for("schafkopf", BASE, 3)], 3)  # type: ignore[assignment]
    await h.press(ana, t("btn.start"))
    return session
