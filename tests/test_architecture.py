"""The import graph's rules that import-linter cannot state: imports inside functions (which
hide a cycle until the function runs) and the engine's core apart from its tools, counting
imports made only for annotations too."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OWN = ("engine", "bot", "cogs")


def _modules(*packages: str) -> Iterator[tuple[Path, ast.Module]]:
    for package in packages:
        for path in sorted((ROOT / package).rglob("*.py")):
            yield path, ast.parse(path.read_text(encoding="utf-8"), str(path))


def _imported(node: ast.AST) -> list[str]:
    if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
        return [node.module]
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    return []


def test_no_module_imports_its_own_project_inside_a_function() -> None:
    """An import inside a function is a cycle nobody sees until it runs: every import of
    the project's own modules stands at the top of its module."""
    found = []
    for path, tree in _modules(*OWN):
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(fn):
                for name in _imported(node):
                    if name.split(".")[0] in OWN:
                        found.append(f"{path.relative_to(ROOT)}:{node.lineno} {name}")
    assert found == []


def test_the_engine_core_never_imports_its_tools() -> None:
    """``engine.tools`` (the terminal game, arenas, benchmarks) stands beside the core: no
    module of the core imports it, not even for an annotation."""
    found = []
    for path, tree in _modules("engine"):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith("engine/tools/") or rel == "engine/__main__.py":
            continue
        for node in ast.walk(tree):
            for name in _imported(node):
                if name == "engine.tools" or name.startswith("engine.tools."):
                    found.append(f"{rel}:{node.lineno} {name}")
    assert found == []


def test_bavarian_schafkopf_helpers_do_not_import_the_game() -> None:
    """The game imports its rules of thumb, refusals and scoring; they read it through
    ``BavarianRules`` and never import it back (not even for an annotation)."""
    found = []
    for path, tree in _modules("engine/rules/bavarian"):
        if path.name in ("game.py", "__init__.py"):  # the game, and the package's face
            continue
        for node in ast.walk(tree):
            if "engine.rules.bavarian.game" in _imported(node):
                found.append(f"{path.name}:{node.lineno}")
    assert found == []
