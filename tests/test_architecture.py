"""The layering of the package: arrows point one way (engine → solver, bots → coach → lessons,
puzzles → sessions → cli), and only ``tutor.cli`` talks to the screen."""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "tutor"

#: What each layer may import from the project (besides itself and the layer-neutral modules
#: ``tutor`` (version), ``tutor.i18n``, ``tutor.paths``, ``tutor.files`` and ``tutor.judgement``).
ALLOWED = {
    "engine": set(),
    "solver": {"engine"},
    "bots": {"engine", "solver"},
    # The coach borrows the bots' judgement through tutor.judgement, provided by the roots (issue 31).
    "coach": {"engine", "solver"},
    "store": {"engine"},
    "lessons": {"engine", "solver", "bots", "coach", "store"},
    "puzzles": {"engine", "solver", "bots", "coach", "store"},
    "bench": {"engine", "solver", "bots", "coach"},
    "sessions": {"engine", "solver", "bots", "coach", "store", "lessons", "puzzles"},
    "cli": {"engine", "solver", "bots", "coach", "store", "lessons", "puzzles", "bench", "sessions", "web"},
    "web": {"engine", "solver", "bots", "coach", "store", "lessons", "puzzles", "sessions"},
}
NEUTRAL = {"tutor", "tutor.i18n", "tutor.paths", "tutor.files", "tutor.judgement"}
SCREEN_LIBRARIES = {"click", "rich"}


@functools.cache
def _nodes(path: Path) -> tuple[ast.AST, ...]:
    """Every node of the module at ``path``, parsed once for all the checks of this file (each check walks
    the whole package: parsing it again for each cost most of this file's 12 s CPU)."""
    return tuple(ast.walk(ast.parse(path.read_text(encoding="utf-8"))))


def _imports(path: Path, text: str | None = None) -> set[str]:
    """Every module ``path`` (or ``text`` read as that module) imports, at the top or inside a
    function, relative imports resolved (``from ..bots import x`` in tutor/coach is ``tutor.bots``)."""
    names: set[str] = set()
    for node in _nodes(path) if text is None else ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
        elif isinstance(node, ast.ImportFrom) and node.level:
            here = _module_name(path).split(".") if path.is_relative_to(PACKAGE) else ["tutor", "x", "y"]
            anchor = here[: len(here) - node.level] if path.name != "__init__.py" else here[: len(here) - node.level + 1]
            names.add(".".join(anchor + ([node.module] if node.module else [])))
    return names


def _layer_files(layer: str) -> list[Path]:
    return sorted((PACKAGE / layer).rglob("*.py"))


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_layer_imports_only_the_layers_below_it(layer: str) -> None:
    assert _layer_files(layer), f"tutor/{layer} has no modules"
    for path in _layer_files(layer):
        for name in _imports(path):
            if not name.startswith("tutor") or name in NEUTRAL or name.startswith("tutor.i18n"):
                continue
            other = name.split(".")[1]
            assert other == layer or other in ALLOWED[layer], f"{path.relative_to(PACKAGE)} imports {name}"


def test_the_layer_guard_sees_a_lazy_import_of_the_bots(tmp_path: Path) -> None:
    """A function-level ``from tutor.bots… import`` is an import of the coach too (issue 31)."""
    lazy = tmp_path / "lazy.py"
    lazy.write_text("def f():\n    from tutor.bots.counting import is_boss\n    from ..bots import planner\n", encoding="utf-8")
    assert {"tutor.bots.counting", "tutor.bots"} <= _imports(lazy)  # a file outside tutor/ reads as tutor/x/y.py
    assert "bots" not in ALLOWED["coach"]
    # A module of the coach: ``from ..bots`` is the bots package, ``from .advice`` the coach's own.
    probe = "from ..bots import make_bot\nfrom .advice import judge\n"
    assert {"tutor.bots", "tutor.coach.advice"} <= _imports(PACKAGE / "coach" / "probe.py", probe)


def test_the_neutral_judgement_slot_loads_nothing_of_the_project() -> None:
    """tutor/judgement.py imports project types only for the type checker: a root provides the
    judgement without loading it, and the coach reaches the bots only through it."""
    tree = ast.parse((PACKAGE / "judgement.py").read_text(encoding="utf-8"))
    guarded = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
               for n in ast.walk(node)}
    loaded = [node.module for node in ast.walk(tree)
              if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("tutor") and id(node) not in guarded]
    assert loaded == []


def test_only_the_cli_imports_click_or_rich() -> None:
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.is_relative_to(PACKAGE / "cli"):
            continue
        screen = {name.split(".")[0] for name in _imports(path)} & SCREEN_LIBRARIES
        assert not screen, f"{path.relative_to(PACKAGE)} imports {sorted(screen)}"


def test_every_package_folder_is_placed_in_the_layering() -> None:
    folders = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert folders - {"i18n"} == set(ALLOWED)


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _project_imports(path: Path, modules: set[str]) -> set[str]:
    """Every project module ``path`` imports, at the top or lazily inside functions.

    ``from tutor.x import name`` counts as importing ``tutor.x.name`` when that
    is a module, else ``tutor.x``; relative imports are resolved.
    """
    found: set[str] = set()
    here = _module_name(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    for node in _nodes(path):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
        else:
            continue
        found.update(t for t in targets if t in modules and t != here)
    return found


def test_no_module_imports_another_that_imports_it_back() -> None:
    """No import cycles under tutor/, lazy (in-function) imports included: arrows point one way."""
    files = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    modules = set(files)
    graph = {name: _project_imports(path, modules) for name, path in files.items()}
    # A package's __init__ that re-exports its own submodules is not a design cycle.
    for name in graph:
        graph[name] = {t for t in graph[name] if not (name.startswith(t + ".") and files[t].name == "__init__.py")}
    cycles: list[list[str]] = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name)
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(c) for c in cycles)


def test_front_ends_never_build_or_change_a_game_themselves() -> None:
    """Only sessions drive a Game: tutor/cli and tutor/web import neither the game nor its replay."""
    for front in ("cli", "web"):
        for path in _layer_files(front):
            names = _imports(path)
            assert "tutor.engine.game" not in names, f"{path.relative_to(PACKAGE)} imports the game"
            source = path.read_text(encoding="utf-8")
            assert not re.search(r"\bGame(\(|\.from_hands|\.with_landlord)", source), f"{path.relative_to(PACKAGE)} builds a Game"


#: SQL as the store writes it: a statement's keywords in upper case, in a string of the code.
_SQL = re.compile(r"\b(SELECT\s[\s\S]*?\bFROM|INSERT\s+(OR\s+\w+\s+)?INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM"
                  r"|CREATE\s+(TABLE|INDEX|UNIQUE)|ALTER\s+TABLE|DROP\s+(TABLE|INDEX)|PRAGMA\s+\w+)\b")
DATABASE_DRIVERS = {"sqlite3", "psycopg", "psycopg_pool", "psycopg2", "sqlalchemy", "procrastinate"}


def test_only_the_store_talks_to_a_database() -> None:
    """No module outside tutor/store imports a database driver or holds SQL (issue 25: one data-access layer)."""
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.is_relative_to(PACKAGE / "store"):
            continue
        drivers = {name.split(".")[0] for name in _imports(path)} & DATABASE_DRIVERS
        if drivers:
            offenders.append(f"{path.relative_to(PACKAGE)} imports {sorted(drivers)}")
        for node in _nodes(path):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and _SQL.search(node.value):
                offenders.append(f"{path.relative_to(PACKAGE)}:{node.lineno} holds SQL: {node.value[:40]!r}")
    assert not offenders, "\n".join(offenders)


def test_the_sql_detector_sees_sql() -> None:
    """The check above can fail: each kind of statement the store writes is recognised."""
    for sql in ("SELECT a FROM t", "INSERT INTO t VALUES (1)", "INSERT OR REPLACE INTO t VALUES (1)",
                "UPDATE t SET a = 1", "DELETE FROM t", "CREATE TABLE t (a)", "PRAGMA quick_check"):
        assert _SQL.search(sql), sql
    assert not _SQL.search("Select the cards to play from your hand")
