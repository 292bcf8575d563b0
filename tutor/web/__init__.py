"""The web table: ``ddz serve``, a local page over the same headless sessions as the terminal.

The server (:mod:`tutor.web.app`) is a thin adapter: each route reads a small
JSON body, calls a session (:mod:`tutor.sessions`) in a worker thread under
that session's lock, and returns the session's events rendered into plain
JSON in the learner's language.  The page (``static/``) only selects and
draws; every rule, status line and remark comes from the server.

Starlette and uvicorn are imported only here and below, and only when the
server is built, so ``ddz --help`` and the terminal commands never load them.
"""

from tutor.judgement import provide

provide("tutor.bots.players")  # the composition root: the coach borrows the bots' judgement (issue 31)
