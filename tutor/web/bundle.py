"""The page's ES modules as one module, made in memory when the app starts (no build step, no node).

Sixteen modules cost the page sixteen requests before its first paint (a cold load on a phone: 22
requests, the modules alone 0.4-0.7 s on a loaded machine even when preloaded together).  The server
serves ``app.js`` as this bundle instead: every module of the import graph, dependencies first, in one
module scope — its ``import {…} from "./x.js"`` lines dropped and its ``export`` keywords removed,
which is the same program because the modules share no top-level name (checked here: a clash is
refused when the app starts, never a page that breaks).  Import cycles (game.js ↔ final.js) work as they
do between modules: only functions cross them, and functions are hoisted.

The bundle exports every name a module exported, so club.js's ``import("./app.js")`` gets the page's
own instance (its state, its labels) rather than a second copy of the modules.
"""

from __future__ import annotations

import re
from pathlib import Path

#: ``import { a, b } from "./x.js";`` — the only import form the page's modules use.
IMPORT = re.compile(r'^import\s*\{([^}]*)\}\s*from\s*"(\./[\w./-]+)";[ \t]*$', re.MULTILINE)
#: A top-level declaration (a line that starts at column 0), exported or not.
DECLARED = re.compile(r"^(export\s+)?(?:async\s+)?(?:function\*?\s*|const\s+|let\s+|var\s+|class\s+)([A-Za-z_$][\w$]*)",
                      re.MULTILINE)
#: Any other module syntax, which the bundle could not keep as it is.
OTHER = re.compile(r"^\s*(?:import\b(?!\()|export\s+(?:default|\{|\*))", re.MULTILINE)


def lean_script(text: str) -> str:
    """``text`` without its comment lines: whole ``//`` lines and ``/* … */`` blocks that fill their lines.

    The sources explain why at length (a fifth of their bytes); the page needs none of it before its first
    paint.  Only comments that fill whole lines go, so a ``//`` inside a string or a regular expression, or a
    comment after code on its line, stays as it is: the program is the same.
    """
    out: list[str] = []
    inside = False
    for line in text.splitlines():
        stripped = line.strip()
        if inside:
            inside = not stripped.endswith("*/")
            continue
        if stripped.startswith("//"):
            continue
        if stripped.startswith("/*"):
            end = stripped.find("*/", 2)
            if end == -1:
                inside = True
                continue
            if end == len(stripped) - 2:
                continue
        out.append(line)
    return "\n".join(out) + "\n"


def lean_style(text: str) -> str:
    """A style sheet without its comments (a fifth of app.css; a third of it compressed) and blank lines."""
    bare = re.sub(r"/\*.*?\*/", "", text, flags=re.DOTALL)
    return "\n".join(line.rstrip() for line in bare.splitlines() if line.strip()) + "\n"


class BundleError(ValueError):
    """The modules cannot be joined into one scope (a name declared twice, an import form not handled)."""


def _module(path: Path, root: Path) -> tuple[str, list[Path], list[str]]:
    """A module's code without its imports, the modules it imports, and the names it exports."""
    text = lean_script(path.read_text(encoding="utf-8"))
    imports: list[Path] = []
    for names, target in IMPORT.findall(text):
        if " as " in names:
            raise BundleError(f"{path.relative_to(root)}: an import renamed with 'as'")
        imports.append((path.parent / target).resolve())
    body = IMPORT.sub("", text)
    if OTHER.search(body):
        raise BundleError(f"{path.relative_to(root)}: an import or export form the bundle does not handle")
    exported = [name for export, name in DECLARED.findall(body) if export]
    body = re.sub(r"^export\s+", "", body, flags=re.MULTILINE)
    return body, imports, exported


def bundle(root: Path, entry: str = "app.js") -> str:
    """``entry`` and every module it imports (transitively), as one ES module's source."""
    order: list[Path] = []
    parts: dict[Path, tuple[str, list[Path], list[str]]] = {}
    visiting: set[Path] = set()

    def visit(path: Path) -> None:
        if path in parts or path in visiting:
            return  # done, or a cycle (its functions are hoisted in the one scope)
        if not path.is_file():
            raise BundleError(f"{path.name}: imported but not there")
        visiting.add(path)
        parts[path] = _module(path, root)
        for target in parts[path][1]:
            visit(target)
        visiting.discard(path)
        order.append(path)

    visit((root / entry).resolve())
    owner: dict[str, str] = {}
    exported: list[str] = []
    chunks = ["// The page's modules joined into one by tutor/web/bundle.py (the sources: tutor/web/static).\n"]
    for path in order:
        body, _, names = parts[path]
        name = path.relative_to(root.resolve()).as_posix()
        for declared in (found for _, found in DECLARED.findall(body)):
            if declared in owner:
                raise BundleError(f"{name}: '{declared}' is also declared in {owner[declared]}")
            owner[declared] = name
        exported += names
        chunks.append(f"// ---- {name}\n{body.strip()}\n")
    chunks.append(f"export {{ {', '.join(sorted(exported))} }};\n")
    return "\n".join(chunks)
