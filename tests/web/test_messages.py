"""Every line the web shows comes from the catalogues, in the learner's language.

Two guards: a scan of tutor/web (Python and the page's files) for English text
written into the code, so hard-coded lines cannot come back; and a Russian
learner's requests that go wrong (bad JSON, no game, a stale tab, an illegal
move, another origin, no such page) answered in Russian.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import pytest

from tutor.i18n import catalogue

WEB = Path(__file__).resolve().parents[2] / "tutor" / "web"
#: Two words of prose: what a sentence for a person looks like (identifiers and keys have no spaces).
PROSE = re.compile(r"[A-Za-z]{2,}[ ,;:!?'’]+[A-Za-z]{2,}")
CYRILLIC = re.compile(r"[а-яё]", re.IGNORECASE)
#: Words a page may hold as they are: key names, a language's own name, the strict-mode pragma.
VERBATIM = {"use strict", "English", "Русский", "Enter", "Escape", "Backspace", "JOKER"}


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _logged(tree: ast.AST) -> set[int]:
    """String arguments of ``log.…(…)`` calls: for the server's log, not for the learner."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "log":
            found.update(id(arg) for arg in node.args)
    return found


def _markup(tree: ast.AST) -> set[int]:
    """The pieces of an f-string that starts as HTML markup (``f'<li class="{x}">…'``): markup throughout."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant) \
                and str(node.values[0].value).startswith("<"):
            found.update(id(part) for part in node.values if isinstance(part, ast.Constant))
    return found


def _start_up_errors(tree: ast.AST) -> set[int]:
    """Messages of ``raise BundleError(…)``: the app refuses to start over a programming error in its own
    page scripts (a developer reads it, never a learner), so it is not a catalogue line."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) \
                and isinstance(node.exc.func, ast.Name) and node.exc.func.id == "BundleError":
            found.update(id(part) for part in ast.walk(node.exc) if isinstance(part, ast.Constant))
    return found


def python_literals() -> list[str]:
    """English-looking strings in tutor/web/*.py that are not docstrings, log lines, HTML markup or routes."""
    bad = []
    for path in sorted(WEB.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _docstrings(tree) | _logged(tree) | _markup(tree) | _start_up_errors(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip \
                    and not node.value.startswith(("<", "/")) and PROSE.search(node.value):
                bad.append(f"{path.name}:{node.lineno}: {node.value[:50]!r}")
    return bad


def _css_classes() -> set[str]:
    text = "\n".join(p.read_text(encoding="utf-8") for p in WEB.joinpath("static").rglob("*.css"))
    return set(re.findall(r"\.([a-z][a-z0-9-]*)", text))


_JS_LITERAL = re.compile(r'''"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`''')


def script_literals() -> list[str]:
    """English-looking string literals in the page's scripts (class lists and selectors are not prose)."""
    classes = _css_classes()
    bad = []
    for path in sorted(WEB.joinpath("static").rglob("*.js")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = "" if line.lstrip().startswith(("//", "*", "/*")) else re.sub(r"\s//\s.*$", "", line)
            for match in _JS_LITERAL.finditer(code):
                text = re.sub(r"\$\{[^}]*\}", " ", match.group(0)[1:-1]).strip()
                if text in VERBATIM or all(word in classes for word in text.split()):
                    continue
                if re.search(r"(\bclass\s*:\s*|className\s*=\s*)$", code[:match.start()]):
                    continue  # a class list
                if ":not(" in text or text.startswith(("#", ".", "[")):
                    continue  # a selector
                if text.startswith("/api/"):
                    continue  # a route with its query (the Python side skips routes too)
                if PROSE.search(text) or re.fullmatch(r"[A-Z][a-z]{2,}[.!…]?", text):
                    bad.append(f"{path.name}:{number}: {text[:50]!r}")
    return bad


def page_text() -> list[str]:
    """Text written into index.html itself (the server fills every label in the learner's language)."""
    html = WEB.joinpath("static", "index.html").read_text(encoding="utf-8")
    html = re.sub(r"<(script|style)\b.*?</\1>", "", html, flags=re.S)
    texts = [text.strip() for text in re.findall(r">([^<]+)<", html)]
    labels = re.findall(r'(?:aria-label|title|placeholder|alt)="([^"]+)"', html)
    return [text for text in texts + labels if re.search(r"[A-Za-z]{2,}", text)]


def test_no_english_line_is_written_into_the_web_code() -> None:
    assert python_literals() == []
    assert script_literals() == []
    assert page_text() == []


def test_the_scan_would_see_a_hard_coded_line(tmp_path: Path) -> None:
    """The guard itself can fail: the lines this file once held are caught."""
    assert PROSE.search("no finished game to play again") and PROSE.search("malformed JSON: x")
    tree = ast.parse("x = f'<p>{a}</p>' + f'{a} no finished game {b}'")
    markup = _markup(tree)
    pieces = [(node.value, id(node) in markup) for node in ast.walk(tree) if isinstance(node, ast.Constant)]
    assert sorted(pieces) == [(" no finished game ", False), ("</p>", True), ("<p>", True)]
    assert re.fullmatch(r"[A-Z][a-z]{2,}[.!…]?", "Error")


def test_every_refusal_key_exists_in_both_languages() -> None:
    from tutor.sessions.game import Waiting

    used = set()
    for path in WEB.glob("*.py"):
        used.update(re.findall(r'refuse\(\d{3}, "(\w+)"', path.read_text(encoding="utf-8")))
    used.update(f"err_none_{name}" for name in ("game", "puzzle", "lesson", "mistakes"))
    used.update(f"err_waiting_{w.value}" for w in Waiting)
    assert len(used) > 30
    for lang in ("en", "ru"):
        missing = sorted(key for key in used if f"web.{key}" not in catalogue(lang))
        assert not missing, f"{lang} lacks {missing}"
    russian = catalogue("ru")
    assert all(CYRILLIC.search(russian[f"web.{key}"]) for key in used)


def _russian(client: Any) -> None:
    assert client.post("/api/settings", json={"lang": "ru"}).status_code == 200


def _error(answer: Any, status: int) -> str:
    assert answer.status_code == status, answer.text
    text = str(answer.json()["error"])
    assert CYRILLIC.search(text), text
    assert "Traceback" not in text and len(text.splitlines()) == 1
    return text


def test_a_russian_learner_reads_every_refusal_in_russian(client: Any) -> None:
    _russian(client)
    _error(client.post("/api/game/hint", json={"rev": 0}), 404)  # no game yet
    _error(client.post("/api/settings", content=b"{", headers={"content-type": "application/json"}), 400)
    _error(client.post("/api/settings", content=b"\xff", headers={"content-type": "application/json"}), 400)
    _error(client.post("/api/settings", json={"volume": 11}), 400)
    _error(client.post("/api/settings", json={"coach": "yes"}), 400)
    _error(client.get("/api/nothing"), 404)
    _error(client.put("/api/settings", json={}), 405)
    _error(client.post("/api/settings", json={"level": "hard"}, headers={"origin": "http://evil.example"}), 403)
    _error(client.post("/api/settings", content=b"lang=en",
                       headers={"content-type": "application/x-www-form-urlencoded"}), 403)
    _error(client.post("/api/puzzle/start", json={"kind": "weekly"}), 400)
    _error(client.post("/api/lesson/start", json={"id": "no-such-lesson"}), 404)
    _error(client.get("/api/history/abc"), 400)

    game = client.post("/api/game/new", json={"deal": 42, "level": "easy"}).json()
    _error(client.post("/api/game/play", json={"rev": game["rev"], "cards": "3"}), 422)  # the auction is on
    _error(client.post("/api/game/bid", json={"rev": game["rev"] + 5, "bid": 1}), 409)  # a stale tab
    legal = game["game"]["bids"]["legal"]
    if 1 not in legal:
        _error(client.post("/api/game/bid", json={"rev": game["rev"], "bid": 1}), 422)
    while game["game"]["waiting"] == "bid":
        game = client.post("/api/game/bid", json={"rev": game["rev"], "bid": 0 if 0 in legal else legal[0]}).json()
        legal = (game["game"].get("bids") or {}).get("legal", [0])
    if game["game"]["waiting"] == "play":
        hand = game["game"]["hand"]
        missing = next(rank for rank in "3456789TJQKA2XD" if rank not in hand)
        _error(client.post("/api/game/play", json={"rev": game["rev"], "cards": missing}), 422)  # not in the hand


def test_the_page_comes_in_the_learners_language_with_its_words(client: Any) -> None:
    _russian(client)
    page = client.get("/play").text
    assert '<html lang="ru">' in page and ">Подсказка</button>" in page and ">Ставка 2</button>" in page
    assert 'aria-pressed="false" data-t="counter_short" data-label="card_counter" aria-label="Счётчик карт">Счётчик</button>' in page  # the table's own toggle
    words = re.search(r'<script id="ddz-strings" type="application/json">(.*?)</script>', page, re.S)
    assert words is not None
    import json

    strings = json.loads(words.group(1))["strings"]
    assert CYRILLIC.search(strings["network_error"])
    english = client.get("/play?lang=en").text
    assert '<html lang="en">' in english and ">Hint</button>" in english


@pytest.mark.parametrize("lang, word", [("en", "Refused"), ("ru", "Отказано")])
def test_a_refusal_follows_the_lang_asked(client: Any, lang: str, word: str) -> None:
    answer = client.get(f"/api/settings?lang={lang}", headers={"origin": "http://evil.example"})
    assert answer.status_code == 403 and answer.json()["error"].startswith(word)


def _calls(text: str, name: str) -> list[str]:
    """The argument lists of every ``name(…)`` call in a script (parentheses balanced)."""
    found = []
    for match in re.finditer(re.escape(name) + r"\(", text):
        depth, at = 1, match.end()
        while depth and at < len(text):
            depth += {"(": 1, ")": -1}.get(text[at], 0)
            at += 1
        found.append(text[match.end():at - 1])
    return found


def _top_level(args: str) -> str:
    """``args`` with every nested (…), […] and {…} taken out: what the call itself receives."""
    out, depth = [], 0
    for char in args:
        depth += char in "([{"
        if not depth:
            out.append(char)
        depth -= char in ")]}"
    return "".join(out)


def test_no_null_is_written_as_text_into_the_page() -> None:
    """DOM append()/replaceChildren() write a null child as the word "null" (el() skips it; they do not)."""
    bad = []
    for path in sorted(WEB.joinpath("static").rglob("*.js")):
        text = path.read_text(encoding="utf-8")
        for name in (".append", ".replaceChildren", ".prepend"):
            bad += [f"{path.name}: {name}({args[:60]}…)" for args in _calls(text, name)
                    if re.search(r":\s*null\b", _top_level(args))]
    assert not bad, bad
