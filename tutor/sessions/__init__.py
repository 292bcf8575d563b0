"""Headless sessions: one per activity, actions in, events out (see ``docs/api.md``).

* :class:`~tutor.sessions.game.GameSession` — a coached game against two bots;
* :class:`~tutor.sessions.lesson.LessonSession` — a lesson of the course, step by step;
* :class:`~tutor.sessions.puzzle.PuzzleSession` — one attempt at a puzzle;
* :class:`~tutor.sessions.mistakes.MistakesSession` — learn from your mistakes in a stored game.

Front ends (the terminal in ``tutor/cli``, a web page) only read input and
render :mod:`tutor.sessions.events`; every rule, every decision and what is
stored live here and below.  Submodules are imported on use, so importing this
package stays cheap.
"""

from tutor.judgement import provide

provide("tutor.bots.players")  # the composition root: the coach borrows the bots' judgement (issue 31)
