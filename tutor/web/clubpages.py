"""What the club's pages share (tutor/web/club.py, tutor/web/teacher.py): the page frame, the sign-out button,
the course's lesson titles and the library's themes, a learner's assignments in words, mistake names."""

from __future__ import annotations

from html import escape
from typing import Any

from tutor.i18n import t

#: What a teacher assigns (the store's kinds) and the page's name for each.
KINDS = {"lesson": "lesson", "puzzle_theme": "theme"}


#: The club's own pages (sign-in, class): the table's style sheet plus the club's, the club's script; no inline code.
PAGE = """<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<link rel="stylesheet" href="{static}/app.css">
<link rel="stylesheet" href="{static}/club.css">
<script type="module" src="{static}/club.js"></script>
</head>
<body class="club">
{body}
</body>
</html>
"""
def _page(lang: str, title: str, body: str, version: str) -> str:
    static = f"/static/v{version}" if version else "/static"
    return PAGE.format(lang=lang, title=escape(title), static=static, body=body)


def sign_out_button() -> str:
    return f'<button type="button" id="sign-out" class="small">{escape(t("club.sign_out"))}</button>'


def _lesson_titles() -> dict[str, tuple[int, str]]:
    from tutor.i18n import language
    from tutor.web.lessons import course

    return {lesson.id: (number, lesson.title.get(language())) for number, lesson in enumerate(course(), 1)}


def _themes() -> list[str]:
    from tutor.puzzles.library import load_library

    return sorted({theme for puzzle in load_library() for theme in puzzle.themes})


def _assignments(club: Any, learner_id: int | None, by: int = 0) -> list[dict[str, Any]]:
    """The learner's assignments (their own and the class's), or (``learner_id`` None) those teacher ``by``
    gave, worded in the current language."""
    titles = _lesson_titles()
    out = []
    for item in club.users.assignments_for(learner_id) if learner_id is not None else club.users.assignments_by(by):
        if item.kind == "lesson" and item.ref in titles:
            number, title = titles[item.ref]
            label = t("club.assigned_lesson", number=number, title=title)
        elif item.kind == "puzzle_theme":
            label = t("club.assigned_theme", theme=t(f"puzzles.theme_{item.ref}"))
        else:
            continue  # a lesson no longer shipped: nothing to open
        out.append({"id": item.id, "kind": item.kind, "ref": item.ref, "label": label,
                    "learner": item.learner_id, "class_name": item.class_name})
    return out


def mistake_name(code: str) -> str:
    """A mistake code as a short name (``club.mistake_<code>``), the code itself when it has none."""
    key = f"club.mistake_{code}"
    text = t(key)
    return code if text == key else text
