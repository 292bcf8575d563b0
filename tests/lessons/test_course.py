"""tutor/lessons/course.py: a lesson file is parsed once per process until it changes on disk."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tutor.lessons import course
from tutor.paths import lessons_dir


def test_an_unchanged_lesson_is_not_parsed_again_and_a_changed_one_is(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    source = min(lessons_dir().glob("*.yaml"))
    path = tmp_path / source.name
    shutil.copyfile(source, path)
    reads: list[Path] = []
    real = course._read_lesson

    def counted(where: Path) -> course.Lesson:
        reads.append(where)
        return real(where)

    monkeypatch.setattr(course, "_read_lesson", counted)
    first = course.load_lesson(path)
    assert course.load_lesson(path) is first and len(reads) == 1
    text = path.read_text(encoding="utf-8")
    assert text.count("title: {en: \"") == 1
    path.write_text(text.replace("title: {en: \"", "title: {en: \"Changed ", 1), encoding="utf-8")
    stamp = os.stat(path).st_mtime_ns + 1_000_000_000  # a new time even on a coarse clock
    os.utime(path, ns=(stamp, stamp))
    changed = course.load_lesson(path)
    assert len(reads) == 2 and changed.title != first.title


def test_a_broken_lesson_is_refused_every_time(tmp_path: Path) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text("id: x\n", encoding="utf-8")
    for _ in range(2):
        with pytest.raises(course.BrokenLessonError):
            course.load_lesson(path)
