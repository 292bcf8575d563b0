"""rich told that a no-break space is no place to break a line.

Russian groups a number's digits with a no-break space (U+00A0: «12 345»; tutor.i18n.SEPARATORS),
as the browser does.  The terminal's plain sentences (tutor/cli/say.py, textwrap) never break there,
but rich's wrapping splits words at any Unicode space (its word pattern is ``\\s*\\S+\\s*``, and
``\\s`` matches U+00A0), so a table cell or a panel could end a line with «12» and start the next with
«345».  :func:`keep_numbers_whole` gives rich a word pattern whose gaps are every space but the
no-break ones (U+00A0, U+2007 figure space, U+202F narrow no-break space): a number breaks as a
whole, or not at all.  A command named in a sentence («ddz play --resume») is one word too.  rich has no option for it, so its module's pattern is replaced; a test at
narrow widths (tests/cli/test_nobreak.py) fails if a rich release stops reading it.

Every module that prints through rich calls :func:`keep_numbers_whole` at its import (render, which
play, learn, puzzle, stats and mistakes import; arena; rules_commands).
"""

from __future__ import annotations

import re

from rich import _wrap

from tutor.cli.say import COMMAND

#: The spaces a line must not break at.
NO_BREAK = "\u00a0\u2007\u202f"
#: rich's ``\s*\S+\s*`` with the no-break spaces moved from the gaps into the words, and a ``ddz`` command line
#: («ddz play --resume», tutor/cli/say.py) one word: 40 columns had put «--resume» on a line of its own.
WORD = re.compile(rf"[^\S{NO_BREAK}]*(?:{COMMAND}[\S{NO_BREAK}]*|[\S{NO_BREAK}]+)[^\S{NO_BREAK}]*")


def keep_numbers_whole() -> None:
    """Make rich's line breaking skip the no-break spaces (idempotent)."""
    _wrap.re_word = WORD
