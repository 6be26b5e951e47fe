"""The replay page's analysis board (``POST /hand/TOKEN/analysis``, issue 46): another card at
a position of a finished hand, and the computers play the hand out from there, the same way
each time; a hand still in play is refused before anything of it is read, and so is a card
its player could not play there."""

from __future__ import annotations

import aiohttp
from web_helpers import hidden_cards_in, path_of, serve

from bot.store import Store
from bot.web import demo
from engine import replay
from engine.cards import code
from engine.record import start

GUILD = 1


async def test_the_board_plays_another_card_out_and_refuses_a_hand_in_play(store: Store
                                                                           ) -> None:
    server, base = await serve(store)
    try:
        session = await demo.open_table(store, guild_id=GUILD, seed=9)
        hand_id = session.hand_id
        assert hand_id is not None
        for _ in range(5):
            await demo.move(session)
        link = path_of(await server.hand_link(GUILD, hand_id)) + "/analysis"
        async with aiohttp.ClientSession(base) as client:

            async def ask(body: object) -> tuple[int, dict[str, object]]:
                async with client.post(link, json=body) as r:
                    return r.status, await r.json()

            # In play: refused, and the answer holds no card.
            status, answer = await ask({"at": 4, "action": {"card": "EO"}})
            assert (status, answer) == (409, {"refused": "hand_in_play"})
            hand = session.hand
            assert hand is not None
            assert hidden_cards_in(str(answer), hand) == []
            while await demo.move(session):
                pass
            row = await store.hand(hand_id)
            assert row is not None
            record = row.record()
            played = replay(record)
            # The first position where the player to move had another card to play.
            again = start(record)
            for at, (seat, action) in enumerate(played.actions):  # noqa: B007 (the position)
                others = [a for a in again.legal_actions(seat)
                          if a.kind == "card" and a != action]
                if action.kind == "card" and others:
                    break
                again.apply(seat, action)
            else:
                raise AssertionError("no position with a choice of cards")
            other = code(others[0].value)
            status, answer = await ask({"at": at, "action": {"card": other}})
            assert status == 200, answer
            steps = answer["steps"]
            assert isinstance(steps, list)
            # The position, then the card asked for, then the computers on to a result.
            assert seat in steps[0]["turn"]
            assert steps[1]["moves"] and any(
                isinstance(s, dict) and s.get("card") == other for s in steps[1]["moves"][0])
            assert steps[-1]["result"]
            # The same question, the same line.
            assert await ask({"at": at, "action": {"card": other}}) == (200, answer)
            # What its player could not play there, or no such position: refused.
            held_elsewhere = next(code(c) for s in range(again.n) if s != seat
                                  for c in again.hands[s])
            for body, reason in (({"at": at, "action": {"card": held_elsewhere}}, "illegal"),
                                 ({"at": at, "action": {"card": "XX"}}, "illegal"),
                                 ({"at": 10_000, "action": {"card": other}}, "bad_position"),
                                 ({"at": -1, "action": {"card": other}}, "bad_position"),
                                 ({"at": "1", "action": {"card": other}}, "bad_request"),
                                 ({"action": {"card": other}}, "bad_request")):
                assert await ask(body) == (400, {"refused": reason}), body
    finally:
        await server.stop()
