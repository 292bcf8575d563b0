"""A teacher's pages in club mode: the class, one learner, one of their games (server-rendered, no script needed).

A teacher in classes (``ddz users add NAME --teacher --class 7b``) sees the learners of those classes only,
and assigns to them and to those classes; a teacher in no class sees every learner (a club of one class
need not name it).  Per learner: classes, last active, each assignment done or not, lessons, puzzle rating
and daily streak, games by level, mistakes (how many, how many practised, the most frequent kinds), and
their games, each with its replay (every action and what the coach said) and its mistakes.

Everything is read through the club's store layer: the class summary (tutor/store/summary.py), the accounts
(tutor/store/users.py) and, for one learner's games, that learner's own store (``club.store_for(id)``).
"""

from __future__ import annotations

from html import escape
from typing import Any

from tutor.i18n import speaking, t

#: How many of a learner's games their page lists (newest first).
GAMES_SHOWN = 30


def visible_rows(club: Any, teacher: Any) -> list[Any]:
    """The class summary rows this teacher may see."""
    rows = club.class_summary()
    allowed = club.users.learners_of(teacher.id)
    return rows if allowed is None else [row for row in rows if row.id in allowed]


def when(stamp: str | None) -> str:
    """A stored UTC stamp as the page shows it (to the minute), or the "none" mark."""
    return stamp.replace("T", " ")[:16] + " UTC" if stamp else t("club.none")


def assignment_done(item: Any, row: Any) -> bool:
    """A lesson assigned is done when the learner has finished it (before or after); a theme, when they solved
    a puzzle of it since it was assigned."""
    if item.kind == "lesson":
        return bool(item.ref in row.lessons)
    solved = row.themes_solved.get(item.ref)
    return solved is not None and solved[:19] >= item.created_at[:19]


def assignments_cell(club: Any, row: Any, teacher: Any, labels: dict[int, str]) -> str:
    """Each of this teacher's assignments that reach the learner, ✓ done or ○ not yet (a word for screen readers)."""
    items = [item for item in club.users.assignments_for(row.id) if item.teacher_id == teacher.id and item.id in labels]
    if not items:
        return escape(t("club.none"))
    parts = []
    for item in items:
        done = assignment_done(item, row)
        mark = "✓" if done else "○"
        state = t("club.task_done" if done else "club.task_open")
        parts.append(f'<li class="{"done" if done else "open"}"><span aria-hidden="true">{mark}</span> '
                     f'<span class="sr">{escape(state)}:</span> {escape(labels[item.id])}</li>')
    return f'<ul class="tasks">{"".join(parts)}</ul>'


def mistakes_cell(row: Any) -> str:
    from tutor.web.clubpages import mistake_name

    if not row.mistakes:
        return escape(t("club.none"))
    top = ", ".join(t("club.mistake_cell", name=mistake_name(code), n=n) for code, n in row.top_mistakes)
    return escape(t("club.mistakes_cell", n=row.mistakes, solved=row.mistakes_solved, top=top))


def learner_rows(club: Any, teacher: Any, rows: list[Any], labels: dict[int, str], total_lessons: int) -> str:
    seen = club.users.last_active()
    classes = club.users.classes()
    head = "".join(f"<th scope=\"col\">{escape(t(f'club.col_{c}'))}</th>" for c in
                   ("learner", "classes_col", "last_active", "tasks", "lessons", "rating", "streak", "games", "mistakes"))
    body = []
    for row in rows:
        games = "; ".join(t("club.games_cell", level=t(f"play.level_{level}"), won=result.wins,
                            lost=result.games - result.wins)
                          for level, result in sorted(row.games_by_level.items())) or t("club.none")
        rating = t("club.none") if row.puzzle_rating is None else str(round(row.puzzle_rating))
        body.append(f'<tr><th scope="row"><a href="/class/learner/{row.id}">{escape(row.name)}</a></th>'
                    f"<td>{escape(', '.join(classes.get(row.id, [])) or t('club.none'))}</td>"
                    f"<td>{escape(when(seen.get(row.id)))}</td>"
                    f"<td>{assignments_cell(club, row, teacher, labels)}</td>"
                    f"<td>{escape(t('club.lessons_cell', n=row.lessons_done, total=total_lessons))}</td>"
                    f"<td>{escape(rating)}</td><td>{escape(t('club.streak_cell', n=row.puzzle_streak))}</td>"
                    f"<td>{escape(games)}</td><td>{mistakes_cell(row)}</td></tr>")
    return f'<table class="panel class-table"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>'


def learner_page(club: Any, teacher: Any, learner_id: int, lang: str, version: str) -> str | None:
    """One learner: the summary, the assignments, and their games with links to each replay; None when the
    teacher may not see this learner (or there is none)."""
    from tutor.store.games import GameStore
    from tutor.store.mistakes import MistakeStore
    from tutor.web import clubpages as club_pages

    with speaking(lang):
        row = next((row for row in visible_rows(club, teacher) if row.id == learner_id), None)
        if row is None:
            return None
        titles = club_pages._lesson_titles()
        labels = {item["id"]: item["label"] for item in club_pages._assignments(club, None, by=teacher.id)}
        with club.store_for(learner_id) as store:
            games = GameStore(store).history(GAMES_SHOWN)
            counts = {game.id: len(MistakeStore(store).for_game(game.id)) for game in games if game.id is not None}
            habits = _habits(store, learner_id)
        lessons = [f"{titles[ident][0]}. {titles[ident][1]}" for ident in titles if ident in row.lessons]
        facts = [(t("club.col_classes_col"), ", ".join(club.users.classes_of(learner_id)) or t("club.none")),
                 (t("club.col_last_active"), when(club.users.last_active().get(learner_id))),
                 (t("club.col_rating"), t("club.none") if row.puzzle_rating is None else str(round(row.puzzle_rating))),
                 (t("club.col_streak"), t("club.streak_cell", n=row.puzzle_streak)),
                 (t("club.col_mistakes"), t("club.none") if not row.mistakes else
                  t("club.mistakes_cell", n=row.mistakes, solved=row.mistakes_solved,
                    top=", ".join(t("club.mistake_cell", name=club_pages.mistake_name(c), n=n)
                                  for c, n in row.top_mistakes)))]
        summary = "".join(f"<dt>{escape(k)}</dt><dd>{escape(v)}</dd>" for k, v in facts)
        tasks = assignments_cell(club, row, teacher, labels)
        done = "".join(f"<li>{escape(line)}</li>" for line in lessons) or escape(t("club.none"))
        game_rows = "".join(
            f'<tr><td>{escape(when(game.finished_at))}</td><td>{game.deal}</td>'
            f'<td>{escape(t(f"play.level_{game.level}"))}</td><td>{escape(t(f"play.role_{game.role}"))}</td>'
            f'<td>{escape(t("play.result_won") if game.won else t("play.result_lost"))}</td>'
            f'<td>{counts.get(game.id or 0, 0)}</td>'
            f'<td><a href="/class/learner/{learner_id}/game/{game.id}">{escape(t("club.open_replay"))}</a></td></tr>'
            for game in games)
        head = "".join(f"<th scope=\"col\">{escape(t(key))}</th>" for key in (
            "play.col_when", "play.col_deal", "play.col_level", "play.col_role", "play.col_result", "club.col_mistakes",
            "club.col_replay"))
        table = (f'<table class="class-table"><thead><tr>{head}</tr></thead><tbody>{game_rows}</tbody></table>'
                 if games else f"<p>{escape(t('club.no_games'))}</p>")
        main = (f'<main class="class-page"><p><a href="/class">{escape(t("club.back_to_class"))}</a></p>'
                f'<h1>{escape(row.name)}</h1><section class="panel"><dl class="facts">{summary}</dl></section>'
                f'<section class="panel"><h2>{escape(t("insights.web_teacher_title"))}</h2>{habits}</section>'
                f'<section class="panel"><h2>{escape(t("club.col_tasks"))}</h2>{tasks}</section>'
                f'<section class="panel"><h2>{escape(t("club.lessons_done_title"))}</h2><ul>{done}</ul></section>'
                f'<section class="panel"><h2>{escape(t("club.games_title"))}</h2>{table}</section></main>')
        return club_pages._page(lang, row.name, _top(lang) + main, version)


#: How many of a learner's habits the teacher's view shows (issue 29).
HABITS_SHOWN = 3


def _habits(store: Any, learner_id: int) -> str:
    """The learner's top habits over their last games (``ddz insights``), each moment a link to its game."""
    from tutor.i18n import Phrase
    from tutor.sessions.insights import insights

    found = insights(store).habits[:HABITS_SHOWN]
    if not found:
        return f"<p>{escape(t('club.none'))}</p>"
    items = []
    for habit in found:
        low, high = habit.each
        each = Phrase("insights.each_one" if low == high else "insights.each", {"low": low, "high": high}).render()
        text = t("insights.web_pattern", n=habit.count, each=each, points=habit.points,
                 trend=t(f"insights.trend_{habit.trend}"))  # fmt: skip
        links = ", ".join(f'<a href="/class/learner/{learner_id}/game/{m.game_id}">'
                          f'{escape(t("insights.where", game=m.game_id, move=m.number))}</a>' for m in habit.worst())
        items.append(f"<li><strong>{escape(t(f'club.mistake_{habit.code}'))}</strong>: {escape(text)} — {links}</li>")
    return f'<ul class="habits">{"".join(items)}</ul>'


def game_page(club: Any, teacher: Any, learner_id: int, game_id: int, lang: str, version: str) -> str | None:
    """One of a learner's games: every action with what the coach said, then its mistakes and the better move."""
    from tutor.coach.mistakes import Finding
    from tutor.i18n import Phrase
    from tutor.sessions.replay import replay_steps
    from tutor.store.games import GameStore
    from tutor.store.mistakes import MistakeStore
    from tutor.web import clubpages as club_pages
    from tutor.web import render
    from tutor.web.history import _action

    with speaking(lang):
        row = next((row for row in visible_rows(club, teacher) if row.id == learner_id), None)
        if row is None:
            return None
        with club.store_for(learner_id) as store:
            game = GameStore(store).get(game_id)
            mistakes = MistakeStore(store).for_game(game_id) if game is not None else []
        if game is None:
            return None
        try:
            steps = replay_steps(game.record)
        except ValueError:
            steps = []
        lines = []
        if steps:
            hand = " ".join(render.cards(steps[0].hands[0]) or [])
            lines.append(f"<li>{escape(t('club.replay_hand', cards=hand))}</li>")
        for step in steps[1:]:
            action = _action(step)
            remarks = "".join(
                f'<p class="remark">{escape(t("play.coach_prefix"))}: '
                f"{escape(render.said(remark) if isinstance(remark, Phrase) else remark.render())}</p>"
                for remark in step.remarks)
            if action or remarks:
                lines.append(f"<li>{escape(action or '')}{remarks}</li>")
        found = []
        for mistake in mistakes:
            why = ""
            if mistake.explanation:
                try:
                    why = Finding.from_data(mistake.explanation).text
                except ValueError:
                    why = ""
            line = t("club.mistake_line", move=mistake.move, best=mistake.best)
            found.append(f"<li>{escape(line)}{(' — ' + escape(why)) if why else ''}</li>")
        title = t("club.game_title", name=row.name, id=game_id)
        main = (f'<main class="class-page"><p><a href="/class/learner/{learner_id}">'
                f'{escape(t("club.back_to_learner", name=row.name))}</a></p><h1>{escape(title)}</h1>'
                f'<section class="panel"><h2>{escape(t("club.col_mistakes"))}</h2>'
                f'<ul>{"".join(found) or escape(t("club.none"))}</ul></section>'
                f'<section class="panel"><h2>{escape(t("club.col_replay"))}</h2><ol class="replay">{"".join(lines)}</ol>'
                "</section></main>")
        return club_pages._page(lang, title, _top(lang) + main, version)


def _top(lang: str) -> str:
    from tutor.web.clubpages import sign_out_button

    return (f'<header class="top"><nav><a href="/">{escape(t("web.nav_play"))}</a>'
            f'<a href="/class">{escape(t("club.nav_class"))}</a>{sign_out_button()}</nav></header>')
