"""The page's script is ES modules served from the package (tutor/web/static): no build step, no CDN.

Every relative import of every module names a file that exists, each module is
served with a JavaScript content type (a browser refuses a module otherwise),
and nothing is fetched from another site.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tutor.web.app import STATIC

IMPORT = re.compile(r"""^\s*(?:import|export)\s[^;]*?\sfrom\s+["']([^"']+)["']""", re.M)


def modules() -> list[Path]:
    return [STATIC / "app.js", *sorted((STATIC / "js").glob("*.js"))]


def test_the_page_loads_its_script_as_a_module() -> None:
    page = (STATIC / "index.html").read_text(encoding="utf-8")
    assert '<script type="module" src="/static/app.js">' in page


def test_the_page_preloads_every_module() -> None:
    """Fetched together, instead of one level of imports after another (each a round trip)."""
    page = (STATIC / "index.html").read_text(encoding="utf-8")
    preloaded = set(re.findall(r'<link rel="modulepreload" href="/static/(js/[\w-]+\.js)">', page))
    assert preloaded == {m.relative_to(STATIC).as_posix() for m in modules()[1:]}


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
