"""Scripted lessons (issue 6): the YAML format, its validation and the runner logic.

* :mod:`tutor.lessons.loader` — YAML with the line number of every field;
* ``lesson.schema.json`` — the JSON Schema of a lesson file;
* :mod:`tutor.lessons.model` — what a lesson means, and the checks without search;
* :mod:`tutor.lessons.validate` — every problem of a set of files (schema, meaning, solver);
* :mod:`tutor.lessons.runner` — judging answers, hints and stars, without I/O;
* :mod:`tutor.lessons.progress` — progress and stars in the learner's store;
* :mod:`tutor.lessons.course` — the shipped course in order.

The CLI (``ddz learn``, ``ddz lessons validate``) is :mod:`tutor.cli.learn`.
"""

from tutor.judgement import provide

provide("tutor.bots.players")  # the composition root: the coach borrows the bots' judgement (issue 31)
