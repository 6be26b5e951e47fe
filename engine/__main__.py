"""``python -m engine replay|verify|bench|play|arena|ai-timing|analysis-timing``: the engine's
command line (the only place in ``engine/`` that reads files or a terminal)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from engine.ai import ARENA_LEVELS
from engine.errors import RecordError
from engine.record import ReplayError, replay, report
from engine.rules import GAMES
from engine.tools.arena import arena, format_arena
from engine.tools.bench import bench, compare_openspiel, floor
from engine.tools.terminal import play_terminal
from engine.tools.timing import analysis_timing, decision_timing
from engine.verify import failure, verdict, verify

# The help text is plain words: the module docstring above is reStructuredText for readers
# of the code, and ``--help`` would print its backticks as they are.
DESCRIPTION = ("The Filicău rules engine from the command line: replay a game record, play a "
               "match in the terminal against computer players, measure speed and strength.")


def _replay_one(line: str) -> tuple[dict[str, Any], bool]:
    """The answer to one record: the report, or the error object; never an exception, so
    that with ``--jsonl`` every line is answered."""
    try:
        return _replay_text(line)
    except RecursionError:
        # Python's JSON reader (and repr, and the validation) recurse once per level: a
        # record nested about a thousand deep exhausts the stack. No record nests deeper
        # than a few levels, so this one is refused as a whole.
        return ReplayError(None, "not a game record: nested too deeply to read",
                           "not_a_record").to_json(), False


def _replay_text(line: str) -> tuple[dict[str, Any], bool]:
    try:
        record = json.loads(line)
    except json.JSONDecodeError as e:
        return ReplayError(None, f"not JSON: {e}", "not_json").to_json(), False
    if not isinstance(record, dict):
        return ReplayError(None, "a record must be a JSON object", "not_a_record").to_json(), False
    record = _unwrap(record)
    try:
        return report(replay(record)), True
    except ReplayError as e:
        return e.to_json(), False


def _unwrap(obj: dict[str, Any]) -> dict[str, Any]:
    """A record, or a file that holds one under ``"record"`` beside notes about it (the golden
    files of ``tests/golden``: ``why``, ``expected``...): either is replayed."""
    inner = obj.get("record")
    if "game" not in obj and isinstance(inner, dict):
        return inner
    return obj


def cmd_replay(args: argparse.Namespace, out: TextIO) -> int:
    source = sys.stdin if args.file == "-" else open(args.file, encoding="utf-8")  # noqa: SIM115
    with source:
        if not args.jsonl:
            result, ok = _replay_one(source.read())
            print(json.dumps(result, ensure_ascii=False), file=out)
            return 0 if ok else 1
        all_ok = True
        for line in source:
            if not line.strip():
                continue
            result, ok = _replay_one(line)
            all_ok &= ok
            print(json.dumps(result, ensure_ascii=False), file=out)
        return 0 if all_ok else 1


def cmd_bench(args: argparse.Namespace, out: TextIO) -> int:
    games = sorted(GAMES) if args.game == "all" else [args.game]
    if args.compare_openspiel:
        try:
            import pyspiel  # type: ignore[import-not-found,unused-ignore]  # noqa: F401
        except ImportError:
            print("error: open_spiel is not installed (pip install -e '.[openspiel]')",
                  file=sys.stderr)
            return 2
        for game in games:
            print(json.dumps(compare_openspiel(game, args.hands, args.seed, args.rounds)),
                  file=out)
        return 0
    for game in games:
        print(json.dumps(bench(game, args.hands, args.seed)), file=out)
        if args.floor:
            print(json.dumps(floor(game, args.hands, args.seed)), file=out)
    return 0


def cmd_play(args: argparse.Namespace, out: TextIO) -> int:
    return play_terminal(args.game, seed=args.seed, seat=args.seat - 1, out=out,
                         level=args.level, hands=args.hands)


def cmd_arena(args: argparse.Namespace, out: TextIO) -> int:
    log = None if args.log is None else open(args.log, "w", encoding="utf-8")  # noqa: SIM115
    try:
        result = arena(args.game, args.a, args.b, args.deals, seed=args.seed,
                       workers=args.workers, err=None if args.quiet else sys.stderr, log=log,
                       first=args.first)
    finally:
        if log is not None:
            log.close()
    print(json.dumps(result) if args.json else format_arena(result), file=out)
    return 0


def cmd_timing(args: argparse.Namespace, out: TextIO) -> int:
    try:
        options = json.loads(args.options) if args.options else None
    except json.JSONDecodeError as e:
        print(f"--options: not JSON: {e}", file=sys.stderr)
        return 2
    if options is not None and not isinstance(options, dict):
        print("--options: a JSON object of the table's options, e.g. '{\"hochzeit\": true}'",
              file=sys.stderr)
        return 2
    try:
        result = decision_timing(args.game, args.levels.split(","), args.hands, seed=args.seed,
                        err=None if args.quiet else sys.stderr, cpu=args.cpu, options=options)
    except RecordError as e:
        print(f"--options: {e}", file=sys.stderr)
        return 2
    print(json.dumps(result), file=out)
    return 0


def _games_help() -> str:
    return "the game: " + ", ".join(f"{key} ({cls.title}, {cls.players} players)"
                                    for key, cls in sorted(GAMES.items()))


def cmd_analysis_timing(args: argparse.Namespace, out: TextIO) -> int:
    def progress(line: str) -> None:
        sys.stderr.write(f"\r{line}")
        sys.stderr.flush()

    for game in args.games.split(","):
        result = analysis_timing(game, args.hands, seed=args.seed,
                        progress=None if args.quiet else progress)
        if not args.quiet:
            sys.stderr.write("\n")
        result["loadavg"] = [round(x, 2) for x in os.getloadavg()]
        print(json.dumps(result), file=out)
    return 0


def _verify_one(text: str) -> dict[str, Any]:
    """The verdict on one record (``engine.verify``); never an exception, so that with
    ``--jsonl`` every line is answered."""
    try:
        record = json.loads(text)
    except json.JSONDecodeError as e:
        return verdict([failure("not_json", f"not JSON: {e}")])
    except RecursionError:
        return verdict([failure("bad_record", "not a game record: nested too deeply to read")])
    if not isinstance(record, dict):
        return verdict([failure("bad_record", "a record must be a JSON object")])
    try:
        return verify(_unwrap(record))
    except RecursionError:
        return verdict([failure("bad_record", "not a game record: nested too deeply to read")])


def cmd_verify(args: argparse.Namespace, out: TextIO) -> int:
    source = sys.stdin if args.file == "-" else open(args.file, encoding="utf-8")  # noqa: SIM115
    all_ok = True
    with source:
        texts = (line for line in source if line.strip()) if args.jsonl else [source.read()]
        for text in texts:
            result = _verify_one(text)
            all_ok &= result["verified"]
            print(json.dumps(result, ensure_ascii=False), file=out)
    return 0 if all_ok else 1


def main(argv: Sequence[str] | None = None, out: TextIO = sys.stdout) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine", description=DESCRIPTION)
    games = sorted(GAMES)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("replay", help="replay a game record and print the resulting state")
    p.add_argument("file", help="a record file (or a file holding one under \"record\", as "
                   "tests/golden/*.json do), or - for standard input")
    p.add_argument("--jsonl", action="store_true", help="one record per line, one answer each")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("bench", help="play random hands through the public API, report speed")
    p.add_argument("--game", default="filicau", choices=[*games, "all"], metavar="GAME",
                   help=_games_help() + "; all: every game")
    p.add_argument("--hands", type=int, default=20000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--compare-openspiel", action="store_true",
                   help="alternate with OpenSpiel's Skat in this process and print the ratio")
    p.add_argument("--rounds", type=int, default=5, help="runs of each with --compare-openspiel")
    p.add_argument("--floor", action="store_true",
                   help="also time the same loop with the rules taken out (what the calls "
                        "alone cost; --compare-openspiel always does)")
    p.set_defaults(func=cmd_bench)

    play = p = sub.add_parser("play",
                              help="play a match in the terminal against computer players")
    p.add_argument("--game", default="filicau", choices=games, metavar="GAME",
                   help=_games_help())
    p.add_argument("--seed", type=int, default=None, help="the same seed deals the same cards")
    p.add_argument("--seat", type=int, default=1,
                   help="your seat, from 1 to the game's number of players (default 1)")
    p.add_argument("--hands", type=int, default=None,
                   help="play this many hands (default: a game with a match to its end, any "
                        "other as long as you answer yes to another hand)")
    p.add_argument("--level", default="normal", choices=("random", "easy", "normal", "hard"),
                   help="the computer players' level")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("arena", help="duplicate matches between two computer levels")
    p.add_argument("--a", default="hard", choices=ARENA_LEVELS)
    p.add_argument("--b", default="easy", choices=ARENA_LEVELS)
    p.add_argument("--deals", type=int, default=100)
    p.add_argument("--game", default="filicau", choices=games, metavar="GAME",
                   help=_games_help())
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=int, default=1, help="processes (deals in parallel)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--log", default=None, help="write each deal's result to this file (JSONL)")
    p.add_argument("--first", type=int, default=0, metavar="N",
                   help="start at deal N of the seed: go on where a logged run stopped")
    p.set_defaults(func=cmd_arena)

    p = sub.add_parser("ai-timing", help="decision times of the computer levels")
    p.add_argument("--game", default="filicau", choices=games, metavar="GAME",
                   help=_games_help())
    p.add_argument("--levels", default="easy,normal,hard")
    p.add_argument("--hands", type=int, default=20)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--quiet", action="store_true", help="no progress line")
    p.add_argument("--cpu", action="store_true",
                   help="CPU time with the time caps off (a busy machine's figures)")
    p.add_argument("--options", default=None, metavar="JSON",
                   help='the table\'s options as a JSON object, e.g. \'{"all_pass": "ramsch", '
                        '"hochzeit": true}\' (default: the game\'s own)')
    p.set_defaults(func=cmd_timing)

    p = sub.add_parser("analysis-timing", help="time hints (per decision) and reviews (per hand)")
    p.add_argument("--games", default="filicau,schafkopf3", help="games, comma-separated")
    p.add_argument("--hands", type=int, default=10)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--quiet", action="store_true", help="no progress line")
    p.set_defaults(func=cmd_analysis_timing)

    p = sub.add_parser("verify", help="check that a record's pack is the fair shuffle its "
                       "table committed to (docs/fair-deals.md)")
    p.add_argument("file", help="a record file (or a file holding one under \"record\"), or - "
                   "for standard input")
    p.add_argument("--jsonl", action="store_true", help="one record per line, one verdict each")
    p.set_defaults(func=cmd_verify)

    args = parser.parse_args(argv)
    if args.command == "play":
        players = GAMES[args.game].players
        if not 1 <= args.seat <= players:
            play.error(f"--seat must be 1 to {players}: {GAMES[args.game].title} has "
                       f"{players} players")
        if args.hands is not None and args.hands < 1:
            play.error("--hands must be 1 or more")
    try:
        return int(args.func(args, out))
    except OSError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
