"""The puzzle routes: a thin adapter over :class:`tutor.sessions.puzzle.PuzzleSession`.

The daily puzzle, random or themed ones, the learner's moves (chosen cards,
read by the session into a legal move), hints, the solution and refutation
lines, and the rating and streak from the same store as ``ddz puzzle``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from datetime import date
from typing import Any, cast

from tutor.coach.status import combo_name
from tutor.i18n import Phrase, speaking, t
from tutor.puzzles import personal
from tutor.sessions import scans
from tutor.puzzles.model import PERSONAL_PREFIX, Puzzle
from tutor.puzzles.progress import PuzzleProgress
from tutor.puzzles.solving import Outcome, Played
from tutor.sessions import puzzle as ps
from tutor.sessions.events import Options, StatusLine
from tutor.solver.position import Position, Role
from tutor.web import felt, render, streak
from tutor.web.context import Context, chosen_lang
from tutor.web.errors import ApiError, field_int, field_str, quoted, refuse
from tutor.web.holder import Holder, Slot



def player_name(puzzle: Puzzle, player: int) -> str:
    """"You", "Your partner", "Landlord", "Farmer (right)"… (the terminal's words)."""
    return ps.seat_phrase(puzzle, player).render()


def goal_text(puzzle: Puzzle) -> str:
    """The goal line, for a duel why the third hand does not matter (shown, never hidden), and for a
    personal puzzle which moment of the learner's games it is ("3 of 9 plays win", "your partner's turn")."""
    notes = [note.render() for note in (ps.idle_phrase(puzzle), ps.moment_phrase(puzzle, counts=False)) if note is not None]
    return " · ".join([ps.goal_phrase(puzzle).render(), *notes])


def _played(puzzle: Puzzle, items: tuple[Played, ...]) -> list[dict[str, Any]]:
    return [{"who": player_name(puzzle, p.player), "by_learner": p.by_learner, "move": render.combo(p.move),
             "text": t("play.last_pass") if p.move is None else f"{render.page_cards(p.move.text)} · {combo_name(p.move)}"}
            for p in items]


def table(puzzle: Puzzle, pos: Position, bottom: int | None = None,
          trick: tuple[Played, ...] = ()) -> dict[str, Any]:
    """A puzzle position as a table from the learner's chair, all hands face up.

    ``bottom``: whose hand is fanned at the bottom (the learner's by default; while
    solving, the hand the learner plays from, which may be the partner's).
    ``trick``: the moves on the table (each seat's last one shown in its seat).
    """
    learner = puzzle.position.to_move
    players = len(pos.hands)
    fanned = learner if bottom is None else bottom
    last = {p.player: p.move for p in trick}
    seats = []
    for player, hand in enumerate(pos.hands):
        action = None
        if pos.table is not None and pos.table_by == player:
            action = felt.play(pos.table, to_beat=not pos.is_over)
        elif player in last:
            action = felt.play(last[player])
        seats.append(felt.seat((player - learner) % players, player_name(puzzle, player),
                               "landlord" if pos.roles[player] is Role.LANDLORD else "farmer",
                               cards=hand, last=action, to_move=player == pos.to_move and not pos.is_over,
                               fanned=player == fanned))
    label = t("web.your_hand") if fanned == learner else t("web.hand_of", who=player_name(puzzle, fanned))
    return felt.felt(seats, pos.hands[fanned], hand_label=label, over=pos.is_over)


def _line(puzzle: Puzzle, steps: tuple[ps.LineStep, ...]) -> dict[str, Any] | None:
    """A line to step through: the table before it, then each move and the table after it."""
    if not steps:
        return None
    return {"start": table(puzzle, steps[0].before),
            "steps": [{**_played(puzzle, (step.played,))[0],
                       "table": table(puzzle, step.after, trick=step.trick)} for step in steps]}


def event(session: ps.PuzzleSession, item: object) -> dict[str, Any] | None:
    puzzle = session.puzzle
    own = streak.event(item)  # a streak run's own events (the next puzzle, the end)
    if own is not None:
        return own
    if isinstance(item, StatusLine):
        return {"type": "status", "text": item.render(), "ok": item.ok}
    if isinstance(item, Options):
        return {"type": "options", "options": [{"n": n, **(render.combo(o) or {})}
                                               for n, o in enumerate(item.options, 1)]}
    if isinstance(item, ps.MovesMade):
        return {"type": "moves", "moves": _played(puzzle, item.played)}
    if isinstance(item, ps.NotLegal):
        return {"type": "not_legal", "text": t("web.not_legal")}
    if isinstance(item, ps.Correct):
        return {"type": "correct", "text": t("web.correct_move"), "moves": _played(puzzle, item.replies)}
    if isinstance(item, ps.Unclear):  # neither right nor wrong: beyond the solver's budget, not counted
        return {"type": "unclear", "text": t("puzzles.unclear")}
    if isinstance(item, ps.Wrong):
        said = t("puzzles.wrong_stake" if item.keeps_win else "web.wrong_move")  # the win kept, not the stake
        return {"type": "wrong", "text": said, "moves": _played(puzzle, item.refutation),
                "line": _line(puzzle, item.steps), "line_title": t("web.refutation")}
    if isinstance(item, ps.PuzzleHint):
        if item.level == 1 and item.move is not None:
            text = combo_name(item.move)
        else:
            text = t("play.last_pass") if item.move is None else f"{render.page_cards(item.move.text)} · {combo_name(item.move)}"
        return {"type": "hint", "level": item.level, "move": render.combo(item.move) if item.level > 1 else None,
                "text": f"{t('web.hint')}: {text}"}
    if isinstance(item, ps.SolutionShown):
        return {"type": "solution", "text": t("web.solution"), "moves": _played(puzzle, item.played),
                "line": _line(puzzle, item.steps), "line_title": t("web.solution")}
    if isinstance(item, ps.PuzzleOver):
        record = item.record
        change = None
        if record is not None and record.outcome in (Outcome.SOLVED, Outcome.FAILED):
            change = t("puzzles.rating_change", before=round(record.rating_before),
                       after=round(record.rating_after), change=f"{record.change:+.0f}")
        # The words follow what was recorded (the rating, the stats and the replay queue read the
        # record): a position finished after a wrong move is a rated loss, never "Solved!".
        outcome = record.outcome if record is not None else None
        solved = item.solved and outcome in (None, Outcome.SOLVED)
        if solved:
            text = t("web.solved")
        elif item.solved and outcome is Outcome.FAILED:
            text = t("web.finished_after_wrong")
        elif item.solved and outcome is Outcome.ASSISTED:
            text = t("web.finished_with_help")
        else:
            text = t("web.not_solved")
        return {"type": "over", "solved": solved, "outcome": None if outcome is None else outcome.value,
                "text": text,
                "rating_change": change,
                "streak": None if item.streak is None else t("web.streak", n=item.streak)}
    return None


def state(slot: Slot[Any], progress: PuzzleProgress) -> dict[str, Any]:
    today = date.today()
    stats = progress.stats(today)
    out: dict[str, Any] = {
        "rev": slot.rev,
        "rating": t("web.rating", rating=round(stats.rating.rating)),
        "streak": t("web.streak", n=stats.streak),
        "themes": [{"id": theme, "name": t(f"puzzles.theme_{theme}")}
                   for theme in sorted({theme for p in _library() for theme in p.themes})],
        "to_replay": len(ps.replay_queue(ps.with_personal(_library(), progress), progress)),
        "mine": len(personal.waiting(progress)),
        "puzzle": None,
        "streak_run": streak.state(slot.session, progress),
    }
    session: ps.PuzzleSession | None = slot.session
    if session is None:
        return out
    puzzle, pos = session.puzzle, session.attempt.position
    out["puzzle"] = {
        "id": puzzle.id,
        # Before it is over only the id: the title and themes name the idea (as in the terminal).
        "title": ps.display_title(puzzle) if session.finished else t("puzzles.puzzle_id", id=puzzle.id),
        "themes_line": t("puzzles.themes", themes=", ".join(t(f"puzzles.theme_{x}") for x in puzzle.themes))
        if session.finished and puzzle.themes else None,
        "goal": goal_text(puzzle),
        "daily": session.daily,
        "finished": session.finished,
        "to_move": pos.to_move,
        "hands": [{"seat": p, "name": player_name(puzzle, p), "cards": render.cards(hand),
                   "role": "landlord" if pos.roles[p] is Role.LANDLORD else "farmer",
                   "to_move": p == pos.to_move and not pos.is_over}
                  for p, hand in enumerate(pos.hands)],
        "table": render.combo(pos.table),
        "table_by": None if pos.table_by is None else player_name(puzzle, pos.table_by),
        "can_pass": pos.table is not None,
        "felt": table(puzzle, pos, bottom=pos.to_move if not pos.is_over else None),
    }
    # whose hand is fanned at the bottom: in a team puzzle it becomes the partner's on the partner's turn
    fanned = pos.to_move if not pos.is_over else puzzle.position.to_move
    out["puzzle"]["hand_owner"] = fanned
    owner = ps.seat_phrase(puzzle, fanned)
    out["puzzle"]["hand_switch"] = (t("web.hand_switch", who=Phrase(owner.key, owner.values, True).render())
                                    if fanned != puzzle.position.to_move else t("web.hand_back"))
    return out


#: Difficulty bands of a puzzle's rating (the Glicko scale the learner's rating uses).
BANDS = ((1300, "easy"), (1700, "medium"), (float("inf"), "hard"))


def browse(context: Context, body: dict[str, Any], query: Mapping[str, str]) -> dict[str, Any]:
    """The library to browse: every puzzle with its themes, difficulty and the learner's result.

    Titles stay hidden (they name the idea, as on the puzzle itself before it is over);
    "solved" means the last attempt was a clean solve, "to try again" anything else the
    learner tried (a wrong move first, a hint, the solution).  The learner's own puzzles
    (missed wins of their games, made by :mod:`tutor.puzzles.personal`) come first.
    """
    with context.store() as store:
        progress = PuzzleProgress(store)
        with speaking(chosen_lang(store, context, query.get("lang"))):
            personal.scan(store, skip=scans.pending(store.path))  # games not looked at yet (nor being)
            own = progress.personal()
            mine_ids = {p.id for p in own}
            books = ps.with_personal(_library(), progress)
            last = progress.last_outcomes()
            rows = []
            for puzzle in [*own, *(p for p in books if p.id not in mine_ids)]:  # your own puzzles first
                rating = progress.puzzle_rating(puzzle).rating
                band = next(name for top, name in BANDS if rating < top)
                outcome = last.get(puzzle.id)
                status = "new" if outcome is None else "solved" if outcome == Outcome.SOLVED.value else "again"
                # a puzzle from your games is named by its number alone: its badge says whose it is ("my-" is the CLI's)
                shown_id = puzzle.id.removeprefix(PERSONAL_PREFIX) if puzzle.id in mine_ids else puzzle.id
                rows.append({"id": puzzle.id, "name": t("puzzles.puzzle_id", id=shown_id),
                             "themes": list(puzzle.themes), "rating": round(rating), "mine": puzzle.id in mine_ids,
                             "difficulty": band, "difficulty_text": t(f"web.difficulty_{band}"),
                             "status": status, "status_text": _status_text(puzzle, status)})
            themes = sorted({theme for p in books for theme in p.themes})
            counts = {status: sum(r["status"] == status for r in rows) for status in ("new", "solved", "again")}
            return {"puzzles": rows,
                    "themes": [{"id": theme, "name": t(f"puzzles.theme_{theme}")} for theme in themes],
                    "summary": t("web.library_summary", total=len(rows), **counts)}


def _status_text(puzzle: Puzzle, status: str) -> str:
    """A library row's status; a personal puzzle's says which moment of the learner's games it is."""
    moment = ps.moment_phrase(puzzle)
    text = t(f"web.library_{status}")
    return text if moment is None else f"{text} · {moment.render()}"


def _library() -> Any:
    from tutor.puzzles.library import load_library

    return load_library()


def route(action: Any) -> Any:
    """A puzzle route: the store open, the slot locked, the revision checked, events plus state back."""

    def work(context: Context, body: dict[str, Any], query: Mapping[str, str]) -> dict[str, Any]:
        with context.store() as store, context.puzzle.held() as slot:
            progress = PuzzleProgress(store)
            with speaking(chosen_lang(store, context, query.get("lang"))):
                items: list[Any] = []
                if action is not None:
                    if action is not start:
                        context.puzzle.current(slot)
                    if action is not start or "rev" in body:
                        Holder.check_rev(slot, body.get("rev"))
                    items = action(context, slot, progress, body)
                    if action is not look:  # a look at the raised cards changes nothing
                        slot.rev += 1
                session = slot.session
                events = [e for e in (event(session, i) for i in items) if e] if session else []
                return {"events": events, **state(slot, progress)}

    return work


def _theme(body: dict[str, Any]) -> str | None:
    return field_str(body, "theme", limit=40) if body.get("theme") else None


def start(context: Context, slot: Slot[Any], progress: PuzzleProgress, body: dict[str, Any]) -> list[Any]:
    kind = field_str(body, "kind", "daily", limit=10)
    library = _library()
    today = date.today()
    if kind == "daily":
        from tutor.puzzles.daily import daily_puzzle_id

        puzzle = library.get(daily_puzzle_id(library, today))
    elif kind == "random":
        theme = _theme(body)
        try:
            puzzle = ps.pick_random(library, theme, progress.learner_rating().rating, random.Random(),
                                    progress.attempted_ids())
        except ValueError:
            raise refuse(400, "err_theme", value=quoted(theme)) from None
    elif kind == "pick":
        ident = field_str(body, "id", limit=80)
        library = ps.with_personal(library, progress)  # the learner's own puzzles are in the library too
        if ident not in library:
            raise refuse(404, "err_no_puzzle", id=quoted(ident))
        puzzle = library.get(ident)
    elif kind == "mine":
        # A missed win of the learner's own games (the newest finished games are looked at first).
        personal.scan(progress.store, skip=scans.pending(progress.store.path))
        mine = personal.waiting(progress)
        wanted = field_str(body, "id", limit=40) if body.get("id") else None
        chosen = [p for p in progress.personal() if p.id == wanted] if wanted else mine[:1]
        if not chosen:
            raise refuse(404, "err_nothing_to_replay")
        puzzle = chosen[0]
    elif kind == "streak":  # puzzles of rising rating until the first wrong move (unrated)
        run = streak.start(list(library), context.solver(), progress)
        slot.session = run
        return list(run.start())
    elif kind == "replay":
        theme = _theme(body)
        library = ps.with_personal(library, progress)
        try:
            waiting = ps.replay_queue(library, progress, theme)
        except ValueError:
            raise refuse(400, "err_theme", value=quoted(theme)) from None
        if not waiting:
            raise refuse(404, "err_nothing_to_replay")
        puzzle = library.get(waiting[0])
    else:
        raise refuse(400, "err_puzzle_kind", value=quoted(kind))
    session = ps.PuzzleSession(puzzle, context.solver(), progress, today, daily=kind == "daily")
    slot.session = session
    return session.start()


def _with_progress(session: ps.PuzzleSession, progress: PuzzleProgress, call: Any) -> list[Any]:
    if session.finished:
        raise refuse(409, "err_puzzle_over")
    session.progress = progress
    try:
        return list(call())
    except ValueError:  # nothing to act on now (the session's words are for developers)
        raise refuse(409, "err_not_now") from None
    finally:
        session.progress = None


def move(context: Context, slot: Slot[Any], progress: PuzzleProgress, body: dict[str, Any]) -> list[Any]:
    session = cast(ps.PuzzleSession, slot.session)  # route() checked that a puzzle is in progress
    if body.get("n") is not None:
        number = field_int(body, "n", low=1, high=64)
        if number > session.choosing:
            raise refuse(400, "err_reading", n=number)
        return _with_progress(session, progress, lambda: session.choose(number))
    text = field_str(body, "cards", limit=80)
    return _with_progress(session, progress, lambda: session.select(text))


def look(context: Context, slot: Slot[Any], progress: PuzzleProgress, body: dict[str, Any]) -> list[Any]:
    session = cast(ps.PuzzleSession, slot.session)
    return list(session.look(field_str(body, "cards", limit=80)))


def mine(context: Context, body: dict[str, Any], query: Mapping[str, str]) -> dict[str, Any]:
    """The learner's own puzzles (from their games) for the library page: newest games scanned first."""
    with context.store() as store:
        progress = PuzzleProgress(store)
        with speaking(chosen_lang(store, context, query.get("lang"))):
            personal.scan(store, skip=scans.pending(store.path))
            last = progress.last_outcomes()
            return {"puzzles": [{"id": p.id, "rating": round(p.rating), "source": p.source.describe(),
                                 "kind": "missed", **ps.moment_data(p),
                                 "goal": goal_text(p), "last": last.get(p.id),
                                 "themes": [t(f"puzzles.theme_{x}") for x in p.themes]
                                 if last.get(p.id) == "solved" else []}
                                for p in progress.personal()]}


ROUTES = [
    ("/api/puzzle/mine", "GET", mine),
    ("/api/puzzle", "GET", route(None)),
    ("/api/puzzle/library", "GET", browse),
    ("/api/puzzle/select", "POST", route(look)),
    ("/api/puzzle/start", "POST", route(start)),
    ("/api/puzzle/move", "POST", route(move)),
    ("/api/puzzle/pass", "POST",
     route(lambda c, s, p, b: _with_progress(s.session, p, s.session.pass_))),
    ("/api/puzzle/hint", "POST",
     route(lambda c, s, p, b: _with_progress(s.session, p, s.session.hint))),
    ("/api/puzzle/solution", "POST",
     route(lambda c, s, p, b: _with_progress(s.session, p, s.session.solution))),
]
