"""Benchmarks behind ``ddz bench``: plain functions that time the engine.

No click, no printing: :mod:`tutor.cli.bench` turns the results into output.
Targets are checked here (medians of several runs), never by timed unit tests.
"""

from tutor.judgement import provide

provide("tutor.bots.players")  # the composition root: the coach borrows the bots' judgement (issue 31)
