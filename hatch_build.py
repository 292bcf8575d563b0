"""Build hook: compile the optional C core of the endgame solver (and its three-player search, ``_team.c``).

``tutor/solver/_native.c`` is the two-player search of
``tutor/solver/search.py`` in C (same algorithm, same answers, many times the
speed).  It needs only a C compiler and the Python headers; when either is
missing the build says so in one line and goes on, and the package runs the
pure-Python search instead (``tutor.solver.native.available()`` tells which).
For an editable install the library is built next to its source, which the
editable install points at; a normal wheel carries it (and is then tagged for
this platform).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

SOURCE = Path("tutor") / "solver" / "_native.c"
#: The three-player search (issue 30), built the same way; it includes _native.c (one move generator).
TEAM_SOURCE = Path("tutor") / "solver" / "_team.c"


def compile_native(root: Path, relative: Path = SOURCE) -> Path | None:
    """Compile the extension in place; its path, or None when it could not be built."""
    if os.environ.get("DDZ_NO_NATIVE"):
        return None
    source = root / relative
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    target = source.with_name(source.stem + suffix)
    if os.environ.get("DDZ_REUSE_NATIVE") and _up_to_date(target, source, root / "hatch_build.py"):
        return target
    compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    include = sysconfig.get_paths().get("include")
    if not compiler or not include or not (Path(include) / "Python.h").exists():
        print("ddz-tutor: no C compiler or Python headers: the solver will run in pure Python", file=sys.stderr)
        return None
    tmp = target.with_name(target.name + ".tmp")
    command = [compiler, "-O2", "-shared", "-fPIC", f"-I{include}", str(source), "-o", str(tmp)]
    try:
        subprocess.run(command, check=True, capture_output=True, text=True, timeout=300)
    except (OSError, subprocess.SubprocessError) as exc:
        detail = getattr(exc, "stderr", "") or str(exc)
        first = detail.strip().splitlines()[0] if detail.strip() else type(exc).__name__
        print(f"ddz-tutor: the C solver core did not build ({first}): pure Python it is", file=sys.stderr)
        tmp.unlink(missing_ok=True)
        return None
    os.replace(tmp, target)  # atomic: a running interpreter never sees half a library
    return target


def _up_to_date(target: Path, source: Path, hook: Path) -> bool:
    """The library beside ``source`` is newer than every C file of its folder (the sources include each other)
    and than this hook (its flags).

    Asked only with ``DDZ_REUSE_NATIVE`` set: the packaging test (tests/test_packaging.py) builds a wheel of a
    checkout whose editable install has just compiled both libraries in place with the same interpreter (the
    suffix names it) and the same flags; compiling them again cost 5.4 s of its 13 s CPU.  A build for anyone
    else always compiles.
    """
    try:
        built = target.stat().st_mtime
        inputs = [p.stat().st_mtime for p in source.parent.glob("*.c")] + [hook.stat().st_mtime]
    except OSError:
        return False
    return built > max(inputs)


class NativeBuildHook(BuildHookInterface):  # type: ignore[misc]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        for source in (SOURCE, TEAM_SOURCE):
            built = compile_native(Path(self.root), source)
            if built is None:
                continue
            build_data["pure_python"] = False
            build_data["infer_tag"] = True
            if version != "editable":
                build_data["force_include"][str(built)] = f"tutor/solver/{built.name}"
