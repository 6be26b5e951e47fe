"""Card pictures without Discord: sample pictures, the pictures of docs/pictures.md, timing.

A developer's tool (``bot/cardart`` draws; this only calls it):

    .venv/bin/python tools/card_pictures.py --out /tmp/card-pictures   # sample pictures
    .venv/bin/python tools/card_pictures.py --docs docs/pictures       # docs/pictures.md's
    .venv/bin/python tools/card_pictures.py --bench                    # render time per image

``--out`` (the default, into ``/tmp/card-pictures`` or the system's temporary folder) writes
every card of the pack in each theme with German and with French faces, a hand with playable
cards, and a table of 2 to 6 seats with emoji and accents in the names. ``--docs`` writes the
pictures of ``docs/pictures.md`` scaled down as Discord shows them, on a desktop and on a
phone. ``--bench`` prints the CPU time per image and faces (median of ``--runs``): cold (every
card face drawn), with the faces known, and the same picture again. Each option says what it
wrote.
"""

from __future__ import annotations

import argparse
import io
import itertools
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The project (when run from a checkout that is not installed) and tests/ (the colour-blind
# simulation of the picture tests, for --docs).
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from colour_vision import VISIONS, simulate  # noqa: E402
from PIL import Image  # noqa: E402

from bot import texts  # noqa: E402
from bot.cardart import (  # noqa: E402
    FACES,
    THEMES,
    card_image,
    clear_caches,
    hand_png,
    ranking_png,
    table_png,
)
from bot.how import ranking_of, ranking_rows  # noqa: E402
from bot.pictures import table_trick, trick_winner  # noqa: E402
from engine import Match, PublicView, make_rules, public_view  # noqa: E402
from engine.cards import HEARTS, PACK_32, cards  # noqa: E402

DEFAULT_OUT = Path(tempfile.gettempdir()) / "card-pictures"

#: Discord scales an attached picture down to fit the message column: on a desktop to at most
#: about 550 x 350 px, on a phone to the chat's width, about 340 px (so a card of an 8-card hand
#: is about 50 px wide there).
DISPLAY = {"desktop": (550, 350), "phone": (340, 10_000)}


class Writer:
    """Writes pictures into one folder and says so, a line each."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.written: list[Path] = []

    def write(self, name: str, png: bytes) -> None:
        path = self.folder / name
        path.write_bytes(png)
        self.written.append(path)
        print(path)

    def at_display_sizes(self, name: str, png: bytes, where: Sequence[str] = tuple(DISPLAY)
                         ) -> None:
        """``png`` scaled down as Discord shows it: ``NAME_desktop.png``, ``NAME_phone.png``."""
        img = Image.open(io.BytesIO(png)).convert("RGB")
        for screen in where:
            w, h = DISPLAY[screen]
            f = min(1.0, w / img.width, h / img.height)
            small = img.resize((round(img.width * f), round(img.height * f)),
                               Image.Resampling.LANCZOS)
            out = io.BytesIO()
            # 256 colours: a quarter of the bytes, and no difference a player would see.
            small.quantize(256, dither=Image.Dither.NONE).save(out, "PNG", optimize=True)
            self.write(f"{name}_{screen}.png", out.getvalue())


#: Names with accents and emoji, as players' display names have them.
SAMPLE_NAMES = ("Ana 🌻", "Béla", "Ștefan", "Jürgen ⚽", "Zsófia Kovács-Nagy", "Őrs 🇭🇺")


def samples(out: Writer) -> None:
    """Every card in each theme with both faces, a hand, and tables of 2 to 6 seats (with
    French faces: the 4-seat table)."""
    for th in THEMES:
        for faces in FACES:
            deck = "" if faces == "german" else "_french"
            out.write(f"pack{deck}_{th}.png", hand_png(PACK_32, theme=th, faces=faces))
            out.write(f"hand{deck}_{th}.png", hand_png(PACK_32[3:32:4], theme=th,
                                                       playable=PACK_32[3:16:4], faces=faces))
            for n in range(2, 7) if faces == "german" else (4,):
                # Not real tricks, so no card is marked as taking it.
                trick = [(s, PACK_32[5 * s + 3]) for s in range(1, n)]
                out.write(f"table{n}{deck}_{th}.png", table_png(
                    seats=SAMPLE_NAMES[:n], trick=trick, trump=HEARTS if n % 2 else None,
                    shown=PACK_32[20:20 + n - 1], theme=th, to_move=0, faces=faces))


def docs(out: Writer) -> None:
    """The pictures of docs/pictures.md, at Discord's display sizes."""
    hand = cards(["EO", "GO", "HU", "SA", "H10", "GK", "E9", "S7"])
    ok = cards(["EO", "GO", "HU"])
    for th in THEMES:
        out.at_display_sizes(f"hand_{th}", hand_png(hand, theme=th, playable=ok, labels=False))
    out.at_display_sizes("hand_hu_dark", hand_png(hand, theme="dark", playable=ok,
                                                  labels=False, lang="hu"))
    # The same hand with French faces (the Queens of clubs and spades, the Jack of hearts
    # playable), in each theme, and for a German reader (D for Dame, B for Bube).
    for th in THEMES:
        out.at_display_sizes(f"hand_french_{th}", hand_png(hand, theme=th, playable=ok,
                                                           labels=False, faces="french"))
    out.at_display_sizes("hand_french_de_dark", hand_png(hand, theme="dark", playable=ok,
                                                         labels=False, lang="de",
                                                         faces="french"))
    # A table from a real deal: trump known, cards shown, a trick two cards in.
    for players, game, names in ((4, "filicau", ["Ana", "Béla 🌻", "Ștefan", "Őrs"]),
                                 (6, "filko6", ["Ana", "Béla 🌻", "Ștefan", "Őrs",
                                                "Zsófia Kovács-Nagy", "Jürgen"])):
        view = _two_cards_in(game, seed=3)
        assert view.players == players
        variants = ((("dark", "en"), ("light", "en"), ("fourcolour", "en"), ("dark", "hu"))
                    if players == 4 else (("dark", "en"),))
        for th, lang in variants:
            name = f"table_{lang}_{th}" if players == 4 else f"table{players}_{lang}_{th}"
            out.at_display_sizes(name, table_png(
                seats=names, trick=table_trick(view), trump=view.trump, shown=view.shown,
                theme=th, to_move=view.to_move, winner=trick_winner(view), lang=lang))
        if players == 4:  # the same table with French faces, for a German reader
            out.at_display_sizes("table_french_de_dark", table_png(
                seats=names, trick=table_trick(view), trump=view.trump, shown=view.shown,
                theme="dark", to_move=view.to_move, winner=trick_winner(view), lang="de",
                faces="french"))
    # The four Aces in each theme as colour-blind players see them (simulated), top to
    # bottom: normal vision, protanopia, deuteranopia, tritanopia, no colour at all.
    aces = cards(["EA", "GA", "HA", "SA"])
    for th, faces in itertools.product(THEMES, FACES):
        row = Image.open(io.BytesIO(hand_png(aces, theme=th, labels=False, faces=faces)))
        row = row.convert("RGB")
        column = Image.new("RGB", (row.width, row.height * len(VISIONS)))
        for i, vision in enumerate(VISIONS):
            column.paste(simulate(row, vision), (0, i * row.height))
        png = io.BytesIO()
        column.save(png, "PNG")
        deck = "" if faces == "german" else "_french"
        out.at_display_sizes(f"suits_seen{deck}_{th}", png.getvalue(), where=["phone"])
    # The card ranking of /rules and /help game: for two games (one tall column: the page
    # shows it as a phone does).
    for game, lang in (("filicau", "ro"), ("schafkopf3", "en")):
        with texts.speaking(lang):
            out.at_display_sizes(f"ranking_{game}_{lang}", ranking_png(
                ranking_rows(ranking_of(game)), theme="dark", lang=lang), where=["phone"])


def _two_cards_in(game: str, seed: int) -> PublicView:
    """The public view of a deal of ``game`` once trump is known and two cards are led."""
    match = Match(make_rules(game), seed=seed)
    hand = match.deal()
    while True:
        view = public_view(hand)
        if view.trump is not None and len(view.trick) == 2:
            return view
        seat = hand.actors()[0]
        hand.apply(seat, hand.legal_actions(seat)[0])


def bench(runs: int) -> None:
    """CPU time per image and faces, median of ``runs``: cold, with the card faces known,
    cached."""
    rng = random.Random(1)

    def hand_call(k: int, faces: str) -> Callable[[], Callable[[], bytes]]:
        def make() -> Callable[[], bytes]:
            dealt = tuple(rng.sample(PACK_32, k))
            return lambda: hand_png(dealt, playable=dealt[::2], faces=faces)
        return make

    def table_call(n: int, faces: str) -> Callable[[], Callable[[], bytes]]:
        def make() -> Callable[[], bytes]:
            c = rng.sample(PACK_32, n)
            trump = rng.randrange(4)
            trick = [(s, c[s]) for s in range(n - 1)]
            return lambda: table_png(seats=SAMPLE_NAMES[:n], trick=trick, trump=trump,
                                     shown=[c[n - 1]], faces=faces)
        return make

    cases: Sequence[tuple[str, str, Callable[[], Callable[[], bytes]]]] = [
        (name, faces, make(k, faces))
        for name, make, k in (("hand_png, 8 cards", hand_call, 8),
                              ("hand_png, 16 cards", hand_call, 16),
                              ("table_png, 4 seats", table_call, 4),
                              ("table_png, 6 seats", table_call, 6))
        for faces in FACES]

    def ms(call: Callable[[], object]) -> float:
        start = time.process_time()
        call()
        return (time.process_time() - start) * 1000

    print(f"CPU ms per image, median of {runs}")
    print(f"{'image':<20} {'faces':<7} {'cold':>8} {'cards known':>12} {'cached':>8}")
    for name, faces, make in cases:
        cold, known, cached = [], [], []
        for _ in range(runs):
            call = make()
            clear_caches()
            cold.append(ms(call))
            clear_caches(cards=False)
            known.append(ms(call))
            cached.append(ms(call))
        print(f"{name:<20} {faces:<7} {statistics.median(cold):8.1f}"
              f" {statistics.median(known):12.1f} {statistics.median(cached):8.3f}")
    for faces in FACES:
        each = []
        for _ in range(max(1, runs // 3)):
            clear_caches()
            start = time.process_time()
            for c in PACK_32:
                card_image(c, "dark", lang="en", faces=faces)
            each.append((time.process_time() - start) * 1000 / len(PACK_32))
        print(f"{'card_image':<20} {faces:<7} {statistics.median(each):8.1f}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="tools/card_pictures.py",
        description="Card pictures without Discord: samples, the docs' pictures, timing. "
                    f"With no option: samples into {DEFAULT_OUT}.")
    parser.add_argument("--out", metavar="DIR", type=Path,
                        help=f"write sample pictures to DIR (default {DEFAULT_OUT})")
    parser.add_argument("--docs", metavar="DIR", type=Path,
                        help="write the pictures of docs/pictures.md, at Discord's display "
                             "sizes, to DIR (docs/pictures)")
    parser.add_argument("--bench", action="store_true", help="time the pictures")
    parser.add_argument("--runs", type=int, default=15, help="timing runs (default 15)")
    args = parser.parse_args(argv)
    if args.out is None and args.docs is None and not args.bench:
        args.out = DEFAULT_OUT
    if args.bench:
        bench(args.runs)
    for folder, write in ((args.out, samples), (args.docs, docs)):
        if folder is not None:
            writer = Writer(folder)
            write(writer)
            print(f"{len(writer.written)} pictures in {folder}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
