"""The shipped course: every lesson of ``lessons/`` in order, loaded for the runner.

Loading checks the schema and the solver-free meaning checks; a broken file is
an error that points at ``ddz lessons validate`` (which lists everything).
"""

from __future__ import annotations

from pathlib import Path

from tutor.files import ascii_int
from tutor.lessons.loader import lesson_files, load_lesson_file
from tutor.lessons.model import Lesson, build_lesson
from tutor.lessons.schema import schema_problems
from tutor.paths import lessons_dir


class LessonNotFoundError(ValueError):
    """No lesson with that id or number."""


class BrokenLessonError(ValueError):
    """A lesson file that does not pass validation."""


def load_lesson(path: Path) -> Lesson:
    """One lesson file → :class:`Lesson` (raises :class:`BrokenLessonError`)."""
    doc = load_lesson_file(path)
    shape, _ = schema_problems(doc)
    if shape:
        raise BrokenLessonError(f"{shape[0]} (run 'ddz lessons validate {path}')")
    lesson, problems = build_lesson(doc)
    if problems or lesson is None:
        raise BrokenLessonError(f"{problems[0]} (run 'ddz lessons validate {path}')")
    return lesson


def load_course(folder: Path | None = None) -> list[Lesson]:
    """Every lesson of the course, in course order (the file names' order)."""
    return [load_lesson(p) for p in lesson_files(folder or lessons_dir())]


def find_lesson(course: list[Lesson], key: str) -> Lesson:
    """A lesson by id, by its number in the course (1-based), or by a unique id prefix."""
    key = key.strip()
    number = ascii_int(key, 6)
    if number is not None and 1 <= number <= len(course):
        return course[number - 1]
    for lesson in course:
        if lesson.id == key:
            return lesson
    matches = [lesson for lesson in course if lesson.id.startswith(key)]
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise LessonNotFoundError(f"{key!r} matches several lessons: {', '.join(m.id for m in matches)}")
    raise LessonNotFoundError(f"no lesson {key!r} (see 'ddz learn' for the list)")
