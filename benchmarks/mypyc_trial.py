"""Would compiling the engine with mypyc make it fast enough? The measurement behind
docs/performance/speed.md, "Compiling with mypyc" (issue 21), repeatable:

    python -m benchmarks.mypyc_trial --hands 5000 --cycles 5

Nothing here is part of the build: each variant is a copy of ``engine/`` in a temporary
directory, compiled there with ``mypyc`` (the ``[dev]`` extra has it; gcc and the Python
headers are needed), and run in its own interpreter with that copy first on ``sys.path``.

- ``plain``: the engine as it is.
- ``compiled``: the same source, with ``hand``, ``cards``, ``trumps``, ``actions`` and
  ``match`` compiled. They compile unchanged and every game's records replay as before, but
  ``Hand.copy`` (built through ``Hand.__new__``) raises, so the computer players could not
  search with it.
- ``reshaped``: edits mypyc needs or rewards (``Options`` out of ``rules/base.py``, whose
  pydantic class mypyc's C output does not build; ``packets`` annotated; the trick's winner
  and points as a typed loop instead of ``max``/``sum`` over bound methods) and ``status``,
  ``rules/base`` and ``rules/filicau`` compiled too. Filicău only: the other games' rules,
  left interpreted, subclass the now native ``Rules`` and lose its class-level defaults.
- ``reshaped+loop``: also the benchmark's own loop (``engine/tools/bench.py``) compiled, as the
  computer players' playouts would be.

Variants take turns, cycle after cycle; each process times the engine and, when
``open_spiel`` is installed (``pip install -e '.[openspiel]'``), OpenSpiel's Skat
alternately, so a busy machine's drift hits both alike. Printed as JSON: per variant the
median hands per second, OpenSpiel's, and the median of the per-round ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

PLAIN_COMPILED = ["hand", "cards", "trumps", "actions", "match"]
RESHAPED_COMPILED = [*PLAIN_COMPILED, "status", "rules/base", "rules/filicau"]

#: (file, old, new): the ``reshaped`` edits. An edit whose text is gone fails loudly.
_WINNER_OLD = """\
        ranks = self.order.led_rank[self._led]  # type: ignore[union-attr]
        winner = (leader + trick.index(max(trick, key=ranks.__getitem__))) % n
        rules = self.rules
        won = sum(map(rules.points.__getitem__, trick))
"""
_WINNER_NEW = """\
        order = self.order
        assert order is not None
        ranks = order.led_rank[self._led]
        best = -1
        at = 0
        i = 0
        won = 0
        rules = self.rules
        points = rules.points
        for x in trick:
            r = ranks[x]
            if r > best:
                best = r
                at = i
            won += points[x]
            i += 1
        winner = (leader + at) % n
"""
EDITS: list[tuple[str, str, str]] = [
    ("hand.py", "        c = action[1]\n", "        c: int = action[1]\n"),
    ("hand.py", _WINNER_OLD, _WINNER_NEW),
    ("rules/base.py", "from pydantic import BaseModel, ConfigDict\n",
     "from mypy_extensions import mypyc_attr\n\nfrom engine.rules.options import Options\n"),
    ("rules/base.py", "class Rules:",
     "@mypyc_attr(allow_interpreted_subclasses=True)\nclass Rules:"),
]

WORKER = """
import json, sys
import engine.hand
from engine.tools.bench import bench
variant, game, hands, rounds, seed, compiled = sys.argv[1:7]
assert engine.hand.__file__.endswith(".py") != (compiled == "1"), engine.hand.__file__
try:
    from engine.tools.bench import bench_openspiel
    import pyspiel  # noqa: F401
except ImportError:
    bench_openspiel = None
runs = []
for r in range(int(rounds)):
    ours = bench(game, int(hands), int(seed) + r)["hands_per_second"]
    theirs = None if bench_openspiel is None else (
        bench_openspiel(int(hands), int(seed) + r)["hands_per_second"])
    runs.append([ours, theirs])
print(json.dumps(runs))
"""


def _reshape(engine: Path) -> None:
    base = engine / "rules" / "base.py"
    text = base.read_text()
    start, end = text.index("class Options(BaseModel):"), text.index("class Rules:")
    (engine / "rules" / "options.py").write_text(
        "from __future__ import annotations\n\nfrom pydantic import BaseModel, ConfigDict\n\n\n"
        + text[start:end].rstrip() + "\n"
    )
    base.write_text(text[:start] + text[end:])
    for name, old, new in EDITS:
        path = engine / name
        text = path.read_text()
        if old not in text:
            raise SystemExit(f"{name} changed since this trial was written: {old!r} not found")
        path.write_text(text.replace(old, new))
    for path in (engine / "rules").glob("*.py"):
        text = path.read_text()
        path.write_text(text.replace("\n    packets = ", "\n    packets: tuple[int, ...] = "))


def build(where: Path, modules: list[str], reshape: bool) -> Path:
    shutil.copytree(ROOT / "engine", where / "engine",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    shutil.copy(ROOT / "pyproject.toml", where)
    if reshape:
        _reshape(where / "engine")
    if modules:
        mypyc = Path(sys.executable).with_name("mypyc")
        subprocess.run([str(mypyc), *(f"engine/{m}.py" for m in modules)], cwd=where,
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return where


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="filicau")
    parser.add_argument("--hands", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=2, help="engine/OpenSpiel pairs a process")
    parser.add_argument("--cycles", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        variants = {
            "plain": (build(Path(tmp, "plain"), [], reshape=False), False),
            "compiled": (build(Path(tmp, "compiled"), PLAIN_COMPILED, reshape=False), True),
            "reshaped": (build(Path(tmp, "reshaped"), RESHAPED_COMPILED, reshape=True), True),
            "reshaped+loop": (build(Path(tmp, "loop"), [*RESHAPED_COMPILED, "tools/bench"],
                                    reshape=True), True),
        }
        runs: dict[str, list[list[Any]]] = {v: [] for v in variants}
        for cycle in range(args.cycles):
            for name, (where, compiled) in variants.items():
                env = dict(os.environ, PYTHONPATH=str(where))
                out = subprocess.run(
                    [sys.executable, "-c", WORKER, name, args.game, str(args.hands),
                     str(args.rounds), str(100 * cycle), "1" if compiled else "0"],
                    cwd=where, env=env, check=True, capture_output=True, text=True,
                ).stdout
                runs[name] += json.loads(out)
    report: dict[str, Any] = {"game": args.game, "hands": args.hands,
                              "load_average": os.getloadavg()}
    plain_ratio = plain_engine = None
    for name, pairs in runs.items():
        row: dict[str, Any] = {"engine": statistics.median(p[0] for p in pairs)}
        plain_engine = plain_engine or row["engine"]
        row["engine_vs_plain"] = round(row["engine"] / plain_engine, 2)
        if pairs[0][1] is not None:
            row["openspiel"] = statistics.median(p[1] for p in pairs)
            row["ratio"] = round(statistics.median(p[0] / p[1] for p in pairs), 2)
            plain_ratio = plain_ratio or row["ratio"]
            row["vs_plain"] = round(row["ratio"] / plain_ratio, 2)
        report[name] = row
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
