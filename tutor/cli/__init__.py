"""The command line: the only package that imports click or rich or touches the screen."""

from tutor.judgement import provide

provide("tutor.bots.players")  # the composition root: the coach borrows the bots' judgement (issue 31)
