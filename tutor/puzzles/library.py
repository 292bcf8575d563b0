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
from itertools import islice
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from tutor.files import MAX_BYTES, FieldPath, FileProblem, atomic_write_text, load_yaml_file, one_line, read_bytes, shown

from tutor.i18n import t
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


#: Most schema problems looked at in one file (a 5 MB file of bad entries must not take minutes).
MAX_SCHEMA_ERRORS = 20


def check_schema(data: Any, where: str, lines: dict[FieldPath, int] | None = None) -> None:
    """Raise :class:`PuzzleFormatError` naming the file and the field at fault.

    Only the first :data:`MAX_SCHEMA_ERRORS` problems are collected; the
    message names the first of them (by field) and how many more there are,
    and never prints a whole structure.
    """
    found = list(islice(_validator().iter_errors(data), MAX_SCHEMA_ERRORS + 1))
    if not found:
        return
    errors = sorted(found[:MAX_SCHEMA_ERRORS], key=lambda e: [str(p) for p in e.absolute_path])
    error = errors[0]
    path = "/".join(str(p) for p in error.absolute_path) or "(top)"
    more = len(found) - 1
    tail = "" if not more else f" (and {more}{'+' if len(found) > MAX_SCHEMA_ERRORS else ''} more)"
    line = (lines or {}).get(tuple(error.absolute_path))
    at = f"line {line}: " if line else ""  # issue 32: the line too, not only the field's path
    raise PuzzleFormatError(f"{where}: {at}{path}: {one_line(error.message)}{tail}")


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


def parse_file_data(data: Any, where: str, lines: dict[FieldPath, int] | None = None) -> list[Puzzle]:
    """Schema-check a loaded YAML document and build its puzzles (with the tree check).

    A puzzle that cannot be built is named with the file and the puzzle's line, every quoted
    value cut to 40 characters (issue 32: a bad ``players:`` value was quoted whole, 100,067
    characters on one line, with no file).
    """
    check_schema(data, where, lines)
    puzzles = []
    for index, raw in enumerate(data["puzzles"]):
        try:
            puzzle = Puzzle.from_data(raw)
            check_tree(puzzle)
        except PuzzleFormatError as error:
            line = (lines or {}).get(("puzzles", index))
            at = f"line {line}: " if line else ""
            raise PuzzleFormatError(f"{where}: {at}{one_line(str(error), 300)}") from None
        puzzles.append(puzzle)
    return puzzles


def read_yaml(path: Path) -> Any:
    """Parse a puzzle file within the bounds of :mod:`tutor.files` (size, aliases, depth).

    Raises:
        InvalidFile: not UTF-8, not valid YAML, or over a limit (a :class:`ValueError`).
        UnreadableFile: missing, not a regular file, over 5 MB.
    """
    return load_yaml_file(path)


def load_file(path: Path) -> list[Puzzle]:
    """Load and fully check one puzzle file (schema and solution trees)."""
    lines: dict[FieldPath, int] = {}
    return parse_file_data(load_yaml_file(path, lines), shown(path), lines)


def dump_file(puzzles: Iterable[Puzzle], path: Path, description: str | None = None) -> None:
    """Write puzzles to ``path`` atomically (a safe temporary file in its folder, then rename)."""
    data: dict[str, Any] = {}
    if description:
        data["description"] = description
    data["puzzles"] = [p.to_data() for p in puzzles]
    check_schema(data, path.name)
    atomic_write_text(path, _yaml_text(data))


def _yaml_text(data: dict[str, Any]) -> str:
    text: str = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100, default_flow_style=None)
    return text


def reads_back(puzzle: Puzzle) -> bool:
    """The puzzle, written as a file holds it, is read back by the loader: a long main line nests its
    tree deeper than the loader's bound (``tutor.files.MAX_DEPTH``; 1 of 371 untrimmed daily puzzles, a
    37-move line), and a file the library cannot load costs more than a puzzle fewer."""
    from tutor.files import parse_yaml

    try:
        parse_yaml(_yaml_text({"puzzles": [puzzle.to_data()]}))
    except FileProblem:
        return False
    return True


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
            raise UnknownPuzzleError(t("puzzles.no_such", ident=ident)) from None

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
    key = _cache_key(paths)
    cached = _read_cache(key)
    if cached is not None:
        try:
            return Library(Puzzle.from_data(raw) for raw in cached)
        except (KeyError, TypeError, AttributeError, ValueError, IndexError):
            pass  # a damaged cache: rebuilt from the files below
    raw = _parse_files(paths)
    _write_cache(key, raw)
    return Library(Puzzle.from_data(item) for item in raw)


#: Version of the cache file's layout; a cache of another version is rebuilt.
CACHE_FORMAT = 2


def _cache_key(paths: list[Path]) -> str:
    """The files' names, sizes and times: a cache made from other files is never used."""
    stamp = hashlib.sha256(f"format {CACHE_FORMAT};".encode())
    for path in paths:
        info = path.stat()
        stamp.update(f"{path.resolve()}|{info.st_size}|{info.st_mtime_ns};".encode())
    return stamp.hexdigest()[:32]


def _cache_path() -> Path:
    from tutor.store import data_home

    return data_home() / "cache" / "puzzles.json"


def _read_cache(key: str) -> list[dict[str, Any]] | None:
    """The cached raw puzzles, or None when the cache is missing, stale or damaged.

    The cache is checked like data: its key must match the files, a checksum
    covers the puzzles, and an empty list is never trusted (the shipped
    library is not empty; an empty cache is a broken one).
    """
    try:
        data = json.loads(read_bytes(_cache_path(), limit=8 * MAX_BYTES))
    except (FileProblem, ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or data.get("format") != CACHE_FORMAT or data.get("key") != key:
        return None
    puzzles = data.get("puzzles")
    if not isinstance(puzzles, list) or not puzzles or not all(isinstance(p, dict) for p in puzzles):
        return None
    if data.get("sha256") != _checksum(puzzles):
        return None
    return puzzles


def _checksum(puzzles: list[dict[str, Any]]) -> str:
    return hashlib.sha256(json.dumps(puzzles, sort_keys=True).encode()).hexdigest()


def _parse_files(paths: list[Path]) -> list[dict[str, Any]]:
    raw: list[dict[str, Any]] = []
    for path in paths:
        data = read_yaml(path)
        check_schema(data, shown(path))
        raw.extend(data["puzzles"])
    return raw


def _write_cache(key: str, raw: list[dict[str, Any]]) -> None:
    if not raw:
        return
    path = _cache_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        for old in path.parent.glob("puzzles-*.json"):  # the cache files of earlier versions
            old.unlink(missing_ok=True)
        payload = {"format": CACHE_FORMAT, "key": key, "sha256": _checksum(raw), "puzzles": raw}
        atomic_write_text(path, json.dumps(payload))
    except OSError:
        pass  # a read-only home: no cache, still correct
