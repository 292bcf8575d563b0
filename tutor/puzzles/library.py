"""Loading the puzzle library: the JSON Schema, the structural checks, lookups.

Loading is strict but needs no solver: every file is checked against the
schema shipped in this package (``puzzle.schema.json``), ids must be unique
across files, and every solution tree is replayed on its position (each move
legal, the solving side with exactly one move at each of its turns, every
branch ending with the solving side out of cards).  Whether the solution is
*right* — the first move the only win, the goal true — is the solver's job:
:mod:`tutor.puzzles.verify`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from tutor.paths import puzzles_dir
from tutor.puzzles.model import Node, Puzzle, PuzzleFormatError, find_move
from tutor.solver.position import Position

SCHEMA_PATH = Path(__file__).resolve().with_name("puzzle.schema.json")


class UnknownPuzzleError(ValueError):
    """A puzzle id that is not in the library."""


@lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    """The JSON Schema of a puzzle file (shipped inside the package)."""
    loaded: dict[str, Any] = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return loaded


def _validator() -> jsonschema.protocols.Validator:
    cls = jsonschema.validators.validator_for(schema())
    return cls(schema())


def check_schema(data: Any, where: str) -> None:
    """Raise :class:`PuzzleFormatError` naming the file and the field at fault."""
    errors = sorted(_validator().iter_errors(data), key=lambda e: list(e.absolute_path))
    if errors:
        error = errors[0]
        path = "/".join(str(p) for p in error.absolute_path) or "(top)"
        raise PuzzleFormatError(f"{where}: {path}: {error.message}")


def check_tree(puzzle: Puzzle) -> None:
    """Replay the solution tree: legal moves, one move per solving turn, wins at the leaves."""
    side = puzzle.solver_side

    def walk(pos: Position, node: Node, depth: int) -> None:
        try:
            move = find_move(pos, node.move)
        except ValueError as error:
            raise PuzzleFormatError(f"puzzle {puzzle.id!r}, move {depth + 1}: {error}") from None
        after = pos.after(move)
        if after.is_over:
            if after.winner is not side:
                raise PuzzleFormatError(f"puzzle {puzzle.id!r}: a branch ends with the other side out")
            if node.replies:
                raise PuzzleFormatError(f"puzzle {puzzle.id!r}: moves after the game is over")
            return
        if not node.replies:
            raise PuzzleFormatError(f"puzzle {puzzle.id!r}: a branch stops before the game is over")
        if after.roles[after.to_move] is side and len(node.replies) != 1:
            raise PuzzleFormatError(
                f"puzzle {puzzle.id!r}, move {depth + 2}: the solving side needs exactly one move, "
                f"got {len(node.replies)}"
            )
        seen = set()
        for child in node.replies:
            if child.move in seen:
                raise PuzzleFormatError(f"puzzle {puzzle.id!r}: reply {child.move!r} listed twice")
            seen.add(child.move)
            walk(after, child, depth + 1)

    walk(puzzle.position, puzzle.solution, 0)


def parse_file_data(data: Any, where: str) -> list[Puzzle]:
    """Schema-check a loaded YAML document and build its puzzles (with the tree check)."""
    check_schema(data, where)
    puzzles = []
    for raw in data["puzzles"]:
        puzzle = Puzzle.from_data(raw)
        check_tree(puzzle)
        puzzles.append(puzzle)
    return puzzles


_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read_yaml(path: Path) -> Any:
    """Parse a puzzle file (with libyaml's C loader when present: the library is large)."""
    try:
        return yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)  # noqa: S506 - a safe loader
    except yaml.YAMLError as error:
        raise PuzzleFormatError(f"{path.name}: not valid YAML ({error})") from None


def load_file(path: Path) -> list[Puzzle]:
    """Load and fully check one puzzle file (schema and solution trees)."""
    return parse_file_data(read_yaml(path), path.name)


def dump_file(puzzles: Iterable[Puzzle], path: Path, description: str | None = None) -> None:
    """Write puzzles to ``path`` atomically (write a temporary file, then rename)."""
    data: dict[str, Any] = {}
    if description:
        data["description"] = description
    data["puzzles"] = [p.to_data() for p in puzzles]
    check_schema(data, path.name)
    text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100, default_flow_style=None)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


class Library:
    """All puzzles, sorted by id, with lookups by id, theme and rating."""

    def __init__(self, puzzles: Iterable[Puzzle]) -> None:
        self.puzzles = sorted(puzzles, key=lambda p: p.id)
        self._by_id: dict[str, Puzzle] = {}
        for puzzle in self.puzzles:
            if puzzle.id in self._by_id:
                raise PuzzleFormatError(f"puzzle id {puzzle.id!r} is used twice")
            self._by_id[puzzle.id] = puzzle

    def __len__(self) -> int:
        return len(self.puzzles)

    def __iter__(self) -> Iterator[Puzzle]:
        return iter(self.puzzles)

    def __contains__(self, ident: object) -> bool:
        return ident in self._by_id

    @property
    def ids(self) -> list[str]:
        return [p.id for p in self.puzzles]

    def get(self, ident: str) -> Puzzle:
        try:
            return self._by_id[ident.strip().lower()]
        except KeyError:
            raise UnknownPuzzleError(f"no puzzle with id {ident!r} (try `ddz puzzle random`)") from None

    def with_theme(self, theme: str) -> list[Puzzle]:
        return [p for p in self.puzzles if theme in p.themes]

    def themes(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for puzzle in self.puzzles:
            for theme in puzzle.themes:
                counts[theme] = counts.get(theme, 0) + 1
        return counts


def load_library(folder: Path | None = None, check: bool = False) -> Library:
    """Every ``*.yaml`` file of the puzzles folder (the shipped library by default).

    Args:
        folder: another folder of puzzle files.
        check: run the schema and tree checks (``ddz puzzles validate`` and the
            tests do; the shipped files are checked in CI, so everyday commands
            skip it and read a JSON cache of the parsed files instead — parsing
            hundreds of puzzles of YAML costs seconds, JSON milliseconds).
    """
    folder = puzzles_dir() if folder is None else folder
    return _load_cached(str(folder), check)


@lru_cache(maxsize=4)
def _load_cached(folder: str, check: bool) -> Library:
    paths = sorted(Path(folder).glob("*.yaml"))
    if check:
        return Library(p for path in paths for p in load_file(path))
    return Library(Puzzle.from_data(raw) for raw in _cached_raw(paths))


def _cached_raw(paths: list[Path]) -> list[dict[str, Any]]:
    """The raw puzzles of ``paths``, from a JSON cache keyed on the files' names, sizes and times."""
    stamp = hashlib.sha1()
    for path in paths:
        info = path.stat()
        stamp.update(f"{path.resolve()}|{info.st_size}|{info.st_mtime_ns};".encode())
    cache = _cache_dir() / f"puzzles-{stamp.hexdigest()[:20]}.json"
    try:
        loaded: list[dict[str, Any]] = json.loads(cache.read_text(encoding="utf-8"))
        return loaded
    except (OSError, ValueError):
        pass
    raw: list[dict[str, Any]] = []
    for path in paths:
        data = read_yaml(path)
        check_schema(data, path.name)
        raw.extend(data["puzzles"])
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        for old in cache.parent.glob("puzzles-*.json"):
            old.unlink(missing_ok=True)
        tmp = cache.with_name(cache.name + ".tmp")
        tmp.write_text(json.dumps(raw), encoding="utf-8")
        tmp.replace(cache)
    except OSError:
        pass  # a read-only home: no cache, still correct
    return raw


def _cache_dir() -> Path:
    from tutor.store import data_home

    return data_home() / "cache"
