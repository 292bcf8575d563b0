"""Reading lesson files with the line number of every field.

A lesson author who gets "steps[4].task.accept.moves[1]: 5566 is not in your
hand" also needs to know *where* that is in the file, so the loader keeps, for
every path in the document, the line it starts on.  PyYAML gives positions
only on its node tree, so we compose the nodes once, build the Python data
from them, and record each node's line on the way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

#: A path inside a lesson document: mapping keys and list indexes, from the root.
FieldPath = tuple[str | int, ...]


class LessonFileError(ValueError):
    """A lesson file that cannot be read as YAML at all (the message has the line)."""


@dataclass(frozen=True)
class LessonDocument:
    """The raw data of one lesson file, with the line of every field.

    Attributes:
        path: where it came from (used in every problem report).
        data: the parsed YAML (dicts, lists, scalars).
        lines: 1-based line of each field path; the root is ``()``.
    """

    path: Path
    data: Any
    lines: dict[FieldPath, int] = field(default_factory=dict)

    def line(self, where: FieldPath) -> int:
        """The line of ``where``, or of its closest ancestor that has one."""
        probe = tuple(where)
        while probe:
            if probe in self.lines:
                return self.lines[probe]
            probe = probe[:-1]
        return self.lines.get((), 1)


def format_path(where: FieldPath) -> str:
    """``("steps", 3, "task")`` → ``steps[3].task`` (the form problem reports use)."""
    out = ""
    for part in where:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out or "(top)"


def _build(
    node: yaml.Node, where: FieldPath, lines: dict[FieldPath, int], loader: yaml.SafeLoader, line: int | None = None
) -> Any:
    # A field is reported on the line of its key (``task:``), not of a block value below it.
    lines[where] = line if line is not None else node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        result: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            if isinstance(key, (list, dict)):
                raise LessonFileError(f"line {key_node.start_mark.line + 1}: a mapping key must be a plain value")
            if key == "<<":
                raise LessonFileError(f"line {key_node.start_mark.line + 1}: YAML merge keys are not supported")
            result[key] = _build(value_node, (*where, key), lines, loader, key_node.start_mark.line + 1)
        return result
    if isinstance(node, yaml.SequenceNode):
        return [_build(item, (*where, i), lines, loader) for i, item in enumerate(node.value)]
    return loader.construct_object(node, deep=True)


def parse_lesson_text(text: str, path: Path | str = "<text>") -> LessonDocument:
    """Parse YAML text into a :class:`LessonDocument` (raises :class:`LessonFileError`)."""
    loader = yaml.SafeLoader(text)
    try:
        root = loader.get_single_node()
        lines: dict[FieldPath, int] = {}
        data = None if root is None else _build(root, (), lines, loader)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f"line {mark.line + 1}: " if mark is not None else ""
        problem = getattr(error, "problem", None) or str(error)
        raise LessonFileError(f"{where}not valid YAML ({problem})") from None
    finally:
        loader.dispose()
    return LessonDocument(Path(path), data, lines)


def load_lesson_file(path: Path | str) -> LessonDocument:
    """Read one lesson file (``LessonFileError`` for unreadable YAML, ``OSError`` for I/O)."""
    path = Path(path)
    return parse_lesson_text(path.read_text(encoding="utf-8"), path)


def lesson_files(folder: Path) -> list[Path]:
    """The lesson files of a folder in course order (file names start with their number)."""
    return sorted(p for p in folder.glob("*.yaml") if p.is_file())
