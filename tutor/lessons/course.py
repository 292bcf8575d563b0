"""The shipped course: every lesson of ``lessons/`` in order, loaded for the runner.

Loading checks the schema and the solver-free meaning checks; a broken file is
an error that points at ``ddz lessons validate`` (which lists everything).
"""

from __future__ import annotations

from pathlib import Path

from tutor.files import ascii_int
from tutor.i18n import t
from tutor.lessons.loader import lesson_files, load_lesson_file
from tutor.lessons.model import Lesson, build_lesson
from tutor.lessons.schema import schema_problems
from tutor.paths import lessons_dir


class LessonNotFoundError(ValueError):
    """No lesson with that id or number."""


class BrokenLessonError(ValueError):
    """A lesson file that does not pass validation."""


#: Lessons this process has loaded, by file, size and modification time.  ``ddz learn`` and the web table load
#: the whole course for every listing and every lesson, and the schema check alone costs ~0.3 s of CPU a
#: course; a file changed on disk has another key and is read again.  Bounded: an editor saving one lesson
#: all day does not grow it past :data:`MAX_LOADED`.  (Lessons are frozen: one object may serve every caller.)
_LOADED: dict[tuple[str, int, int], Lesson] = {}
MAX_LOADED = 512


def load_lesson(path: Path) -> Lesson:
    """One lesson file → :class:`Lesson` (raises :class:`BrokenLessonError`); a file unchanged since this
    process last loaded it is not parsed again."""
    try:
        info = path.stat()
        key: tuple[str, int, int] | None = (str(path.resolve()), info.st_size, info.st_mtime_ns)
    except OSError:
        key = None  # load_lesson_file names the problem
    if key is not None and (known := _LOADED.get(key)) is not None:
        return known
    lesson = _read_lesson(path)
    if key is not None:
        if len(_LOADED) >= MAX_LOADED:
            _LOADED.clear()
        _LOADED[key] = lesson
    return lesson


def _read_lesson(path: Path) -> Lesson:
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
        raise LessonNotFoundError(t("lessons.several_match", key=key, ids=", ".join(m.id for m in matches)))
    raise LessonNotFoundError(t("lessons.no_such", key=key))
