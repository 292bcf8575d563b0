"""The page's script is ES modules served from the package (tutor/web/static): no build step, no CDN.

Every relative import of every module names a file that exists, each module is
served with a JavaScript content type (a browser refuses a module otherwise),
and nothing is fetched from another site.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tutor.web.app import STATIC

IMPORT = re.compile(r"""^\s*(?:import|export)\s[^;]*?\sfrom\s+["']([^"']+)["']""", re.M)


def modules() -> list[Path]:
    return [STATIC / "app.js", *sorted((STATIC / "js").glob("*.js"))]


def test_the_page_loads_its_script_as_a_module() -> None:
    page = (STATIC / "index.html").read_text(encoding="utf-8")
    assert '<script type="module" src="/static/app.js">' in page


def test_app_js_is_served_as_one_module_with_every_module_it_imports(client: Any) -> None:
    """One request for the script, not one per module (tutor/web/bundle.py): each module is in it once."""
    answer = client.get("/static/app.js")
    assert answer.status_code == 200 and "javascript" in answer.headers["content-type"]
    script = answer.text
    for module in modules():
        name = module.relative_to(STATIC).as_posix()
        assert script.count(f"// ---- {name}\n") == 1, name
    assert not re.search(r"^\s*import\s*\{", script, re.MULTILINE), "an import left in the bundle"
    assert script.rstrip().splitlines()[-1].startswith("export { "), "club.js imports the page's own instance"
    assert "show" in script.rstrip().splitlines()[-1] and "startLesson" in script.rstrip().splitlines()[-1]
    assert script.index("// ---- js/core.js") < script.index("// ---- js/api.js") < script.index("// ---- app.js")
    again = client.get("/static/app.js", headers={"if-none-match": answer.headers["etag"]})
    assert again.status_code == 304  # the plain path revalidates; the digest path is kept a year


def test_the_page_files_leave_their_comments_at_home(client: Any) -> None:
    """Issue 34 (cold time to interactive): the bytes before the first paint carry no comment — whole comment lines
    of the modules and every comment of the style sheet stay in the sources; code, strings and rules stay whole."""
    from tutor.web.bundle import lean_script, lean_style

    source = ('// why, at length\n/**\n * more of it\n */\nconst a = "http://x"; // kept: after code\n'
              '/* short */ const b = 1;\n  /* a whole line */\nconst c = `//${a}`;\n')
    assert lean_script(source) == 'const a = "http://x"; // kept: after code\n/* short */ const b = 1;\nconst c = `//${a}`;\n'
    assert lean_style("/* a\n b */\n.x { content: \"/\"; }\n\n/* c */ .y { color: red; }\n") == \
        '.x { content: "/"; }\n .y { color: red; }\n'
    style = client.get("/static/app.css")
    assert style.status_code == 200 and style.headers["content-type"].startswith("text/css")
    source_css = (STATIC / "app.css").read_text(encoding="utf-8")
    assert "/*" not in style.text and len(style.text) < 0.85 * len(source_css)
    in_comments = sum(comment.count("{") for comment in re.findall(r"/\*.*?\*/", source_css, re.DOTALL))
    assert style.text.count("{") == source_css.count("{") - in_comments  # every rule kept
    # compressed once when the app starts (not per request), and the same file for a client that takes no gzip
    plain = client.get("/static/app.css", headers={"accept-encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.text == style.text
    assert style.headers["content-encoding"] == "gzip" and "accept-encoding" in style.headers["vary"].lower()
    script = client.get("/static/app.js").text
    comments = [line for line in script.splitlines() if line.lstrip().startswith("//") and not line.startswith("// ---- ")]
    assert comments == [script.splitlines()[0]], comments[:3]  # the bundle's own header alone


def test_the_bundle_refuses_what_one_scope_cannot_hold(tmp_path: Path) -> None:
    from tutor.web.bundle import BundleError, bundle

    (tmp_path / "a.js").write_text('import { f } from "./b.js";\nfunction g() { return f(); }\ng();\n')
    (tmp_path / "b.js").write_text("export function f() { return 1; }\n")
    joined = bundle(tmp_path, "a.js")
    assert joined.index("function f()") < joined.index("function g()") and "export { f };" in joined
    (tmp_path / "b.js").write_text("export function f() { return 1; }\nfunction g() {}\n")
    with pytest.raises(BundleError, match="'g' is also declared"):
        bundle(tmp_path, "a.js")
    (tmp_path / "b.js").write_text("export default 1;\n")
    with pytest.raises(BundleError, match="does not handle"):
        bundle(tmp_path, "a.js")
    (tmp_path / "a.js").write_text('import { f as h } from "./b.js";\n')
    with pytest.raises(BundleError, match="renamed"):
        bundle(tmp_path, "a.js")


def test_the_table_page_carries_its_first_state(client: Any) -> None:
    """/play holds what GET /api/game answers (no request before the first draw); other views do not."""
    def first(page: str) -> Any:
        found = re.search(r'<script id="ddz-first" type="application/json">(.*?)</script>', page)
        return json.loads(found.group(1)) if found else None

    assert first(client.get("/play").text)["game"] is None  # nothing to resume: the page deals at once
    started = client.post("/api/game/new", json={"deal": 5, "level": "easy"}).json()
    carried = first(client.get("/play").text)
    assert carried["rev"] == started["rev"] and carried["game"]["hand"] == started["game"]["hand"]
    assert first(client.get("/").text)["rev"] == started["rev"]
    assert first(client.get("/learn").text) is None
    assert first(client.get("/play?deal=7").text) is None  # opening a deal is the page's POST


def test_every_import_resolves_to_a_module_in_the_package() -> None:
    seen = {STATIC / "app.js"}
    for module in modules():
        for target in IMPORT.findall(module.read_text(encoding="utf-8")):
            assert target.startswith("./"), f"{module.name}: {target} is not a relative import"
            path = (module.parent / target).resolve()
            assert path.is_file(), f"{module.name} imports {target}, which is not there"
            seen.add(path)
    unused = {m.name for m in modules()} - {p.name for p in seen}
    assert not unused, f"modules nobody imports: {sorted(unused)}"


def test_no_script_or_style_comes_from_another_site() -> None:
    for path in [*modules(), STATIC / "index.html", STATIC / "app.css"]:
        assert not re.search(r"https?://", path.read_text(encoding="utf-8")), f"{path.name} names a URL"


def test_each_module_is_served_as_javascript(client: Any) -> None:
    for module in modules():
        answer = client.get(f"/static/{module.relative_to(STATIC).as_posix()}")
        assert answer.status_code == 200, module.name
        assert "javascript" in answer.headers["content-type"], (module.name, answer.headers["content-type"])


def test_the_page_files_come_compressed_and_cached_under_their_digest(client: Any) -> None:
    """gzip for a browser that asks, a year's caching under a path that changes with any file."""
    page = client.get("/play").text
    found = re.search(r'src="/static/v(\w+)/app.js"', page)
    assert found, "the page names its files under their digest"
    version = found.group(1)
    for name in ("app.js", "app.css", "js/game.js"):
        answer = client.get(f"/static/v{version}/{name}", headers={"accept-encoding": "gzip"})
        assert answer.status_code == 200, name
        assert answer.headers["content-encoding"] == "gzip", name
        assert "immutable" in answer.headers["cache-control"], name
        assert "etag" in answer.headers, name
    plain = client.get("/static/app.js")
    assert plain.headers["cache-control"] == "no-cache"  # the undigested path is revalidated every time
    assert client.get("/static/vdeadbeef0000/app.js").status_code == 404  # an old digest is not served
