"""Arena runs of Hard with other search settings: ``python -m benchmarks.hard_variants
samples=350 deep_nodes=200 -- --a hard --b hard_baseline --deals 300 --workers 2 --seed 0``
sets Hard's search settings (``engine.ai.SEARCH["hard"]``: a playout by its name in
``engine.ai.search``, ``reading`` as a JSON object of ``engine.ai.Reading``'s fields, e.g.
``reading='{"power": 2.5, "pool": 4}'``, other values as JSON), then runs ``python -m engine
arena`` with the arguments after ``--``. The options tried for issue 21 (``reading``, ``paired``,
``tail_cards``, ``playout=leading_playout``) are in commit c640258, not kept: none played
measurably stronger (docs/computer-players.md).
"""

from __future__ import annotations

import json
import sys

import engine.ai as ai
import engine.ai.search as search
from engine.__main__ import main as engine_main


def main(argv: list[str]) -> int:
    if "--" not in argv:
        print(__doc__, file=sys.stderr)
        return 2
    cut = argv.index("--")
    settings = ai.SEARCH["hard"]
    for pair in argv[:cut]:
        key, _, value = pair.partition("=")
        if key not in settings:
            print(f"Hard has no setting {key!r}; its settings: {', '.join(settings)}",
                  file=sys.stderr)
            return 2
        try:
            if key == "playout":
                settings[key] = getattr(search, value)
            elif key == "reading":
                settings[key] = search.Reading(**json.loads(value))
            else:
                settings[key] = json.loads(value)
        except (AttributeError, ValueError, TypeError):
            print(f"{pair!r}: not a playout of engine.ai.search, Reading's fields or a JSON "
                  "value",
                  file=sys.stderr)
            return 2
    print({k: getattr(v, "__name__", v) for k, v in settings.items()}, flush=True)
    return engine_main(["arena", *argv[cut + 1:]])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
