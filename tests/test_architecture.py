"""The bars the code is held to, read from its own source: no part of the bot but its wiring
knows the bot, no import of the project's own modules hides inside a function, no class of
``bot/`` or ``cogs/`` outgrows 500 lines, the engine's core never imports its tools, and
Bavarian Schafkopf's helpers never import the game they serve.

``lint-imports`` checks the import graph at run time (``pyproject.toml``), but it leaves out
imports under ``TYPE_CHECKING``, and a cycle of annotations is a cycle all the same: a module
that names ``FilicauBot`` in its signatures is one that takes the whole bot. So these read
every import in the tree (``ast``), in whatever block it stands.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
OWN = ("bot", "cogs", "engine")
#: The bot's wiring and its entry point: the only modules of ``bot/`` that know the bot.
WIRING = {"bot/client.py", "bot/__main__.py"}
LONGEST_CLASS = 500


def sources(*folders: str) -> list[Path]:
    return sorted(p for folder in folders for p in (ROOT / folder).rglob("*.py"))


def name(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def module_of(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(node: ast.Import | ast.ImportFrom, module: str, package: bool) -> list[str]:
    """The modules an import statement names, relative ones made absolute.

    >>> imported(ast.parse("from ..client import X").body[0], "bot.community.x", False)
    ['bot.client', 'bot.client.X']
    """
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    base = node.module or ""
    if node.level:
        parts = module.split(".")
        parent = parts if package else parts[:-1]
        parent = parent[:len(parent) - node.level + 1]
        base = ".".join(parent + ([node.module] if node.module else []))
    return [base] + [f"{base}.{a.name}" for a in node.names]


def imports(path: Path, module: str | None = None
            ) -> Iterator[tuple[ast.Import | ast.ImportFrom, list[str]]]:
    """Every import of a file (the module ``module``), wherever it stands (``TYPE_CHECKING``
    blocks, functions)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = path.name == "__init__.py"
    module = module_of(path) if module is None else module
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node, imported(node, module, package)


def test_the_reader_sees_every_kind_of_import(tmp_path: Path) -> None:
    """The checks below can fail: an import under TYPE_CHECKING, a relative one, and one
    inside a function are all read."""
    source = tmp_path / "x.py"
    source.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                      "    from ..client import FilicauBot\n"
                      "def f():\n    import engine.cards\n", encoding="utf-8")
    found = [names for _, names in imports(source, "bot.community.x")]
    assert ["bot.client", "bot.client.FilicauBot"] in found and ["engine.cards"] in found


@pytest.mark.parametrize("path", sources("bot", "cogs"), ids=name)
def test_only_the_wiring_and_the_cogs_know_the_bot(path: Path) -> None:
    """A part of the bot is given what it uses (the store, the registry of tables, a sender,
    the servers' languages) by the bot's wiring, never the bot: none imports ``bot.client``,
    not even for an annotation. The cogs, which route and answer, may."""
    if name(path) in WIRING or name(path).startswith("cogs/"):
        return
    knows = [node.lineno for node, names in imports(path)
             if any(n == "bot.client" or n.startswith("bot.client.") for n in names)]
    assert not knows, f"{name(path)} imports bot.client (line {knows[0]})"


@pytest.mark.parametrize("path", sources("bot", "cogs", "engine"), ids=name)
def test_no_import_of_the_project_hides_in_a_function(path: Path) -> None:
    """Imports of the project's own modules stand at the top of a file: one inside a
    function hides a cycle from the reader (and from a look at the file's head)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    module, package = module_of(path), path.name == "__init__.py"
    hidden = [
        (inner.lineno, names) for outer in ast.walk(tree)
        if isinstance(outer, ast.FunctionDef | ast.AsyncFunctionDef)
        for inner in ast.walk(outer) if isinstance(inner, ast.Import | ast.ImportFrom)
        if (names := imported(inner, module, package))
        and any(n.split(".")[0] in OWN for n in names)]
    assert not hidden, f"{name(path)} imports {hidden[0][1][0]} in a function (line " \
                       f"{hidden[0][0]})"


@pytest.mark.parametrize("path", sources("bot", "cogs"), ids=name)
def test_no_class_is_longer_than_500_lines(path: Path) -> None:
    """A class that long does several things: split it by concern."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    long = [(node.name, (node.end_lineno or node.lineno) - node.lineno + 1)
            for node in ast.walk(tree) if isinstance(node, ast.ClassDef)
            and (node.end_lineno or node.lineno) - node.lineno + 1 > LONGEST_CLASS]
    assert not long, f"{name(path)}: class {long[0][0]} has {long[0][1]} lines"


@pytest.mark.parametrize("path", [p for p in sources("engine")
                                  if not name(p).startswith("engine/tools/")
                                  and name(p) != "engine/__main__.py"], ids=name)
def test_the_engine_core_never_imports_its_tools(path: Path) -> None:
    """``engine.tools`` (the terminal game, arenas, benchmarks) stands beside the core: no
    module of the core imports it, not even for an annotation."""
    uses = [node.lineno for node, names in imports(path)
            if any(n == "engine.tools" or n.startswith("engine.tools.") for n in names)]
    assert not uses, f"{name(path)} imports engine.tools (line {uses[0]})"


@pytest.mark.parametrize("path", [p for p in sources("engine/rules/bavarian")
                                  if p.name not in ("game.py", "__init__.py")], ids=name)
def test_bavarian_schafkopf_helpers_do_not_import_the_game(path: Path) -> None:
    """The game imports its rules of thumb, refusals and scoring; they read it through
    ``BavarianRules`` and never import it back (not even for an annotation)."""
    uses = [node.lineno for node, names in imports(path)
            if "engine.rules.bavarian.game" in names]
    assert not uses, f"{name(path)} imports the game (line {uses[0]})"
