"""``ddz solve`` starts light (issue 33): a small solve loaded rich and multiprocessing and built
every move table (0.7 s of its 1 s).  What keeps it light is checked here — the modules it imports
and the table entries it builds — never its time (``ddz bench startup`` and callgrind measure that)."""

from __future__ import annotations

import json
import subprocess
import sys

CODE = """
import json, sys
from tutor.cli.main import main
try:
    main(["solve", "L:33 F:4"])
except SystemExit:
    pass
import tutor.engine.moves as moves
tables = moves._STANDARD_TABLES
print(json.dumps([sorted(sys.modules), len(tables.lead1), len(tables.straights)]), file=sys.stderr)
"""


def test_a_small_solve_imports_no_rich_nor_multiprocessing_nor_yaml_and_builds_few_move_tables() -> None:
    done = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True, check=True,
                          env={"PATH": "/usr/bin:/bin", "NO_COLOR": "1", "DDZ_LANG": "en"})  # fmt: skip
    assert "The landlord wins" in done.stdout
    modules, lead1, straights = json.loads(done.stderr.strip().splitlines()[-1])
    # yaml: the solver's strings are a flat catalogue, read without PyYAML (tutor.i18n.flat_strings)
    assert not [m for m in modules if m.split(".")[0] in ("rich", "multiprocessing", "yaml")]
    assert "tutor.engine.moves" in modules and "tutor.solver.native" in modules
    assert 1 <= lead1 <= 4 and 1 <= straights <= 4  # the hands' own masks, not all 32,768
