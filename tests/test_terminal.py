"""``python -m engine play``: the terminal game as a newcomer meets it.

Some tests drive the real command through a pipe; others play in-process with an answering
machine that looks at the hand before each answer (to type a card the rules forbid, or to
bury), so that they do not depend on how the computer players happen to play.
"""

from __future__ import annotations

import io
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from engine.actions import Action
from engine.cards import SUIT_NAMES, TRUMP, card, code
from engine.match import Match
from engine.rules import GAMES, make_rules
from engine.terminal import TerminalGame

ROOT = Path(__file__).resolve().parent.parent


def engine_play(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine", "play", *args], cwd=ROOT,
                          input=stdin, capture_output=True, text=True, timeout=120)


class Answers(io.TextIOBase):
    """Standard input that answers each prompt from the game's current state."""

    def __init__(self, answer: Callable[[TerminalGame], str]) -> None:
        self.answer = answer
        self.game: TerminalGame | None = None

    def readline(self, size: int | None = -1) -> str:
        assert self.game is not None
        return self.answer(self.game) + "\n"


def play_in_process(game: str, seed: int, answer: Callable[[TerminalGame], str],
                    seat: int = 0) -> tuple[TerminalGame, str]:
    out = io.StringIO()
    inp = Answers(answer)
    hand = Match(make_rules(game), seed=seed).deal()
    g = TerminalGame(hand, seat, "random", seed, out, inp)
    inp.game = g
    assert g.play() == 0
    return g, out.getvalue()


def first_legal(g: TerminalGame) -> str:
    return "1"


def test_a_whole_hand_reads_as_sentences() -> None:
    run = engine_play("--seed", "3", stdin="1\n" * 8)
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "you are seat 0" in out and "Your partner is seat 2" in out
    # The card codes are explained once, at the start.
    assert out.count("E acorns, G leaves, H hearts, S bells") == 1
    assert "so EO is the Over of acorns" in out
    m = re.search(r"Points: your team (\d), the other team (\d)\.\n(.*)\n", out)
    assert m, out
    mine, theirs, sentence = int(m[1]), int(m[2]), m[3]
    # Filicău from all even: 8-0 the 0 team ran away, 6 or more makes masters, else nothing.
    if 8 in (mine, theirs):
        assert "ran away" in sentence
    elif mine >= 6:
        assert sentence == "You and seat 2 are masters now."
    elif theirs >= 6:
        assert sentence == "Seats 1 and 3 are masters now."
    else:
        assert sentence == "No change: everybody is still even."
    assert run.stdout == engine_play("--seed", "3", stdin="1\n" * 8).stdout  # seeded


def test_tricks_are_numbered_and_an_early_end_is_explained() -> None:
    early = 0
    for seed in range(8):
        g, out = play_in_process("filicau", seed, first_legal)
        tricks = re.findall(r"^Trick (\d+): .* (?:wins|win) it\.$", out, re.M)
        assert tricks == [str(i) for i in range(1, len(g.hand.tricks) + 1)]
        result = g.hand.result
        assert result is not None
        stopped = f"The hand stopped after trick {len(g.hand.tricks)}: no card still in"
        assert (stopped in out) == result.early
        assert result.early == (len(g.hand.tricks) < 8)
        early += result.early
    assert early  # with early_end on, some of these hands stop before the eighth trick


def test_a_refused_card_names_the_rule() -> None:
    seen: list[tuple[str, str]] = []

    def answer(g: TerminalGame) -> str:
        hand = g.hand
        order = hand.order
        if not hand.trick or order is None:
            return "1"
        legal = {a.value for a in hand.legal_actions(g.seat) if a.kind == "card"}
        illegal = [c for c in hand.hands[g.seat] if c not in legal]
        if not illegal or len(seen) > 6 or (seen and seen[-1][0] == code(illegal[0])):
            return "1"
        # Which duty forbids it, worked out here from the rules text: follow the led suit
        # (trumps count as one suit), else trump.
        led = order.suit[hand.trick[0]]
        mine = [order.suit[c] for c in hand.hands[g.seat]]
        if led in mine:
            why = f"you must follow {'trumps' if led == TRUMP else SUIT_NAMES[led]}"
        else:
            assert TRUMP in mine
            why = "you cannot follow suit, so you must play a trump"
        seen.append((code(illegal[0]), why))
        return code(illegal[0]).lower()

    outs = [play_in_process("filicau", seed, answer)[1] for seed in range(4)]
    assert seen
    text = "".join(outs)
    for card_code, why in seen:
        assert f"{card_code} is refused: {why}." in text
    assert any("you must follow" in why for _, why in seen)


def test_help_and_a_wrong_answer_are_answered_and_asked_again() -> None:
    run = engine_play("--game", "filko", "--seed", "11", "--seat", "1",
                      stdin="help\nzz\n99\n" + "1\n" * 9)
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert out.count("E acorns, G leaves, H hearts, S bells") == 2  # the start and help
    assert "'zz' is neither a choice nor a card code" in out
    assert "There is no choice 99" in out
    assert "Points: your team" in out


def test_the_end_of_input_or_quit_leaves_cleanly() -> None:
    for stdin in ("", "quit\n"):
        run = engine_play("--seed", "3", stdin=stdin)
        assert run.returncode == 0
        assert run.stdout.rstrip().endswith("bye")
        assert run.stderr == ""


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_speaks_in_words(game: str) -> None:
    g, out = play_in_process(game, 2, first_legal, seat=1)
    assert g.hand.finished
    assert "{" not in out and "Action(" not in out
    # No result key (no_change, declarer_lost) nor option key reaches the player.
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", out), out
    assert not re.search(r"^Shown cards: *$", out, re.M)
    rules = GAMES[game]
    if rules.players == 2:
        assert "You play alone against seat 0." in out and "partner" not in out
    elif not rules.fixed_teams and g.hand.tricks:  # a deal thrown in forms no teams
        # Nobody has a partner before the deal; once the cards are played, the teams as far
        # as the table knows them.
        opening = out.split("help\" shows this again")[0]
        assert "partner" not in opening and "Teams are not fixed" in opening
        assert re.search(r"^(You play (alone|with .*) against .*|(Your partner is|Partners are)"
                         r" secret for now: the cards will tell)\.$", out, re.M), out
    outcome = g.outcome()
    assert outcome in out and outcome[0].isupper() and outcome.endswith(".")


def test_burying_two_cards_is_two_picks() -> None:
    buried: list[tuple[str, ...]] = []

    def answer(g: TerminalGame) -> str:
        legal = g.hand.legal_actions(g.seat)
        if any(a.kind == "take" for a in legal):
            return "take the widow"
        if any(a.kind == "bury" for a in legal):
            # Pick the last card of each list offered.
            lines = g.out.getvalue().splitlines()  # type: ignore[attr-defined]
            offered = re.findall(r"\d+\) (\w+)", next(x for x in reversed(lines)
                                                     if "card to bury" in x))
            if not buried or len(buried[-1]) == 2:
                buried.append((offered[-1],))
            else:
                buried[-1] += (offered[-1],)
            return str(len(offered))
        return "1"

    for seed in range(6):
        g, out = play_in_process("schafkopf3", seed, answer)
        if "Bury 2 cards" not in out:
            continue
        first = re.search(r"The first card to bury: (.*)", out)
        second = re.search(r"The second card to bury: (.*)", out)
        assert first and second
        firsts = re.findall(r"\d+\) (\w+)", first[1])
        seconds = re.findall(r"\d+\) (\w+)", second[1])
        # Twelve cards after taking the widow; the second list lacks the first pick.
        assert len(firsts) == 12 and len(seconds) == 11
        a, b = buried[-1]
        assert a not in seconds and set(seconds) | {a} == set(firsts)
        mine = [act for s, act in g.hand.actions if s == 0 and act.kind == "bury"]
        assert [tuple(sorted(code(c) for c in act.value)) for act in mine] == \
            [tuple(sorted((a, b)))]
        return
    pytest.fail("no seed let seat 0 take the widow")


def test_choices_are_worded() -> None:
    from engine.terminal import describe

    assert describe(Action("take", True)) == "take the widow"
    assert describe(Action("servant", 3)) == "servant: seat 3"
    assert describe(Action("trump", 2)) == "trump: hearts"
    assert describe(Action("call", card("GK"))) == "call the King of leaves (GK)"
    assert describe(Action("bury", (card("E10"), card("S7")))) == "bury E10 and S7"


def test_a_partner_signal_is_offered_beside_the_cards() -> None:
    """Filkó with Hats: a face asking the partner for a suit, at most once a trick."""
    asked: list[int] = []

    def answer(g: TerminalGame) -> str:
        text = g.out.getvalue()  # type: ignore[attr-defined]
        offer = re.findall(r"(\d+)\) glances up \(leaves\)", text.rsplit("Your hand:", 1)[-1])
        if offer and not asked:
            asked.append(len(g.hand.tricks))
            return offer[0]
        return "1"

    g, out = play_in_process("filko_hats", 4, answer)
    assert asked
    assert "Your face asks your partner for leaves." in out
    mine = [(s, a) for s, a in g.hand.actions if s == 0 and a.kind == "signal"]
    assert mine == [(0, Action("signal", 1))]  # leaves
    # Once a trick: after the signal the same turn offers only the cards.
    after = out.split("Your face asks your partner for leaves.")[1].split("Your move")[0]
    assert "make a face" not in after and "You may play:" in after
