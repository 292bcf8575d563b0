"""The shape of a lesson file: its JSON Schema and the one check against it.

Both the course loader (:mod:`tutor.lessons.course`, which refuses a broken
file) and ``ddz lessons validate`` (:mod:`tutor.lessons.validate`, which lists
every problem) use this module, so the schema is read and checked in one place.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from itertools import islice
from typing import Any

import jsonschema

from tutor.files import shorten
from tutor.lessons.loader import FieldPath, LessonDocument, format_path
from tutor.lessons.model import Problem

#: Most schema problems listed for one file.
MAX_SCHEMA_ERRORS = 50


@lru_cache(maxsize=1)
def lesson_schema() -> dict[str, Any]:
    """The JSON Schema of lesson files (shipped inside the package)."""
    text = resources.files("tutor.lessons").joinpath("lesson.schema.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def schema_problems(doc: LessonDocument) -> tuple[list[Problem], set[FieldPath] | None]:
    """The schema problems of one file, and the steps they break (None: too broken to build at all)."""
    validator = jsonschema.Draft202012Validator(lesson_schema())
    problems: list[Problem] = []
    broken_steps: set[FieldPath] = set()
    # At most MAX_SCHEMA_ERRORS are collected: a huge broken file must not cost minutes and gigabytes.
    found = list(islice(validator.iter_errors(doc.data), MAX_SCHEMA_ERRORS + 1))
    more = len(found) > MAX_SCHEMA_ERRORS
    for error in sorted(found[:MAX_SCHEMA_ERRORS], key=lambda e: list(map(str, e.absolute_path))):
        where: FieldPath = tuple(error.absolute_path)
        # oneOf/allOf errors are vague at the top; the most specific sub-error says more.
        best = jsonschema.exceptions.best_match([error])
        message = shorten(best.message)
        if best.absolute_path and tuple(best.absolute_path) != where:
            where = tuple(best.absolute_path)
        problems.append(Problem(str(doc.path), doc.line(where), format_path(where), "schema", message))
        if len(where) >= 2 and where[0] == "steps" and isinstance(where[1], int):
            broken_steps.add(where[:2])
    if more:
        problems.append(Problem(str(doc.path), doc.line(()), "(top)", "schema",
                                f"and more schema problems (only the first {MAX_SCHEMA_ERRORS} are listed)"))
        return problems, None  # too broken to build: the listed problems come first
    return problems, broken_steps


