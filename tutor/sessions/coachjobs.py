"""The coach's thinking as jobs: judged apart from the play, from the game's record alone (issue 35, point 5).

In club mode a coached play's request makes only the move and the bots' replies: the coach's verdict on
the move (or the bid, or the open hand), the auction's expected-score status line and the post-game review
become *jobs*, run by ``ddz worker`` processes (tutor/web/coachqueue.py) and delivered to the session by a
later request.  A job carries what it needs as data — the game's record (JSON), the action it judges,
the bots' level — so any machine with the database can run it; it builds a fresh :class:`~tutor.coach.Coach`
and calls the very methods the table calls in-process, so the words are the same both ways
(``tests/sessions/test_coachjobs.py`` plays one game both ways and compares every remark and the review).

The session (:class:`tutor.sessions.game.GameSession`, ``defer = True``) keeps its jobs in an outbox until
the front end sends them, and the ones not yet answered as pending; an undo drops the pending jobs it took
back, so a late answer for a move that is no longer on the table is never said.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from tutor.coach import Coach
from tutor.engine.game import Game, replay
from tutor.engine.record import GameRecord, ShowHand
from tutor.engine.trick import Turn
from tutor.i18n import Phrase

if TYPE_CHECKING:
    from tutor.store import Store

HUMAN = 0
#: What a job judges: a move (with the open-hand decision it may carry), a bid, showing the hand, the
#: auction's status line at the learner's turn (with the bids' hints), the hints of a turn, the open-hand
#: hints (show the hand or not, RULES §12.2), and the review once the game ended.
KINDS = ("move", "bid", "open", "bid_status", "hints", "open_hints", "review")


@dataclass(frozen=True, slots=True)
class CoachJob:
    """One piece of the coach's thinking the session waits for.

    ``index``: the action judged (``bid_status``: the number of actions when the learner bids; ``review``:
    the whole game); ``number``: the learner's move number (a move); ``judge``: the move is judged (False
    when it was the coach's own hint); ``declined``: the first play without showing the hand is judged too.
    """

    id: str
    kind: str
    index: int
    number: int = 0
    judge: bool = True
    declined: bool = False
    game_id: int | None = None
    #: The review: the ids of the game's verdict jobs it waits for (the ones an undo took back are not here).
    expect: tuple[str, ...] = ()

    @classmethod
    def new(cls, kind: str, index: int, **fields: Any) -> CoachJob:
        if kind not in KINDS:
            raise ValueError(kind)
        return cls(secrets.token_hex(8), kind, index, **fields)

    def to_data(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "index": self.index, "number": self.number,
                "judge": self.judge, "declined": self.declined, "game_id": self.game_id, "expect": list(self.expect)}


def payload(job: CoachJob, record: GameRecord, level: str, *, hints: int = 0, undos: int = 0) -> dict[str, Any]:
    """What a worker needs to run ``job``: JSON only (the job queue stores it)."""
    return {"job": job.to_data(), "record": record.to_dict(), "level": level, "hints": hints, "undos": undos}


def _coach(rules: Any, level: str) -> Coach:
    """The coach a session of ``level`` has (its bid predictions use the bots' own bid policy)."""
    coach = Coach(True, rules=rules)
    coach.bid_budget = replace(coach.bid_budget, bidder=level)
    return coach


#: The turn's evaluations a worker keeps between jobs, at most (each holds its samples and the solver's state).
KEPT_MOST = 32
#: (coach's settings, evaluation's key) → the evaluation, most recently used last.
_kept: OrderedDict[tuple[str, str], Any] = OrderedDict()
_kept_lock = threading.Lock()
#: The coach's slots that keep a turn's evaluation, and the salt of each one's key (tutor/coach/__init__.py).
_SLOTS = (("_evaluation", "coach"), ("_bid_evaluation", "bid"), ("_open_evaluation", "open"))


def _settings(coach: Coach, rules: Any) -> str:
    """What an evaluation depends on besides the view: the rules and the coach's budgets (the bidder's level)."""
    return repr((rules, coach.budget, coach.bid_budget))


def _recall(coach: Coach, rules: Any, view: Any) -> None:
    """Give ``coach`` the evaluations of this turn a job on this worker already made (the auction's line and the
    bid's verdict, the hints and the move's verdict), as the table's own coach keeps them for the turn: the same
    evaluation, so the same words as in-process, for one evaluation's CPU instead of two."""
    from tutor.coach.evaluation import view_seed

    settings = _settings(coach, rules)
    with _kept_lock:
        for slot, salt in _SLOTS:
            key = view_seed(view, salt)
            found = _kept.get((settings, key))
            if found is not None:
                _kept.move_to_end((settings, key))
                setattr(coach, slot, (key, found))


def _keep(coach: Coach, rules: Any) -> None:
    """Keep the evaluations ``coach`` made or used for the next jobs of the turn (the oldest beyond :data:`KEPT_MOST`
    are dropped)."""
    settings = _settings(coach, rules)
    with _kept_lock:
        for slot, _ in _SLOTS:
            held = getattr(coach, slot)
            if held is not None:
                _kept[(settings, held[0])] = held[1]
                _kept.move_to_end((settings, held[0]))
        while len(_kept) > KEPT_MOST:
            _kept.popitem(last=False)


def forget() -> None:
    """Drop the kept evaluations (tests; a worker never needs to)."""
    with _kept_lock:
        _kept.clear()


def _before(record: GameRecord, index: int) -> Game:
    """The game as it stood before action ``index`` (the record replayed, checked)."""
    return replay(GameRecord(record.deal_number, list(record.actions[:index]), record.rules, record.landlord,
                             record.bid, record.start))


def run(data: Mapping[str, Any], earlier: Iterable[Mapping[str, Any]] = (), store: Store | None = None) -> dict[str, Any]:
    """Run one job (:func:`payload`); its answer as JSON-ready data for :meth:`GameSession.take`.

    ``earlier``: for the review, the answers of the game's other jobs (its verdicts); ``store``: where the
    review files the game's mistakes ("learn from your mistakes"), as the in-process game does.

    Raises:
        ValueError: a payload that does not describe a job of a game (RecordError is a ValueError).
    """
    job = data["job"]
    kind, index, level = str(job["kind"]), int(job["index"]), str(data.get("level", "medium"))
    record = GameRecord.from_dict(data["record"])
    answer: dict[str, Any] = {"id": str(job["id"]), "kind": kind, "index": index}
    if kind == "review":
        return answer | _review(record, level, job, data, earlier, store)
    game = _before(record, index)
    coach = _coach(game.rules, level)
    view = game.view(HUMAN)
    _recall(coach, game.rules, view)
    try:
        return _judged(answer, kind, index, job, record, game, coach, view)
    finally:
        _keep(coach, game.rules)


def _judged(answer: dict[str, Any], kind: str, index: int, job: Mapping[str, Any], record: GameRecord, game: Game,
            coach: Coach, view: Any) -> dict[str, Any]:
    """The job's answer: the coach's methods the table calls in-process, on the game before action ``index``."""
    remarks: list[Phrase | None] = []
    if kind == "hints":
        from tutor.coach.advice import hint_phrase

        answer["hints"] = [{"move": None if hint.move is None else hint.move.text,
                            "phrase": hint_phrase(n, hint).to_data()} for n, hint in enumerate(coach.hints(view), 1)]
        return answer
    if kind == "bid_status":
        evaluation = coach.bid_evaluation(view)
        answer["line"] = coach.bid_status_phrase(view).to_data()
        answer["suggested"] = evaluation.best.bid
        # the bids' hints from the same evaluation: "hint" during the auction needs no job of its own
        answer["hints"] = [{"choice": bid, "phrase": line.to_data()} for bid, line in coach.bid_hints(view)]
        return answer
    if kind == "open_hints":
        answer["hints"] = [{"choice": choice, "phrase": line.to_data()} for choice, line in coach.open_hints(view)]
        return answer
    action = record.actions[index]
    if kind == "bid":
        assert not isinstance(action, (Turn, ShowHand))
        remarks.append(coach.bid_verdict(view, int(action[1]), index))
    elif kind == "open":
        remarks.append(coach.open_verdict(view, True, index))
    elif kind == "move":
        assert isinstance(action, Turn)
        landlord = game.landlord
        assert landlord is not None
        check = coach.before_move(game.hands, landlord, HUMAN, game.table, game.table_seat)
        if job.get("declined"):
            remarks.append(coach.open_verdict(view, False, index))
        if job.get("judge", True):
            remarks.append(coach.move_remark(view, action.play, check, index, int(job.get("number", 0))))
    else:
        raise ValueError(f"unknown job kind {kind[:20]!r}")
    answer["remarks"] = [remark.to_data() for remark in remarks if remark is not None]
    answer["coach"] = coach.to_data()
    return answer


def merge(coach: Coach, answers: Iterable[Mapping[str, Any]]) -> None:
    """Add the verdicts, remarks and open-hand facts of job ``answers`` to ``coach``, in the game's order."""
    for answer in answers:
        data = answer.get("coach")
        if not isinstance(data, Mapping):
            continue
        found = Coach(True, rules=coach.rules)
        found.load_data(data)
        coach.moments += found.moments
        coach.verdicts += found.verdicts
        coach.bid_verdicts += found.bid_verdicts
        coach.open_verdicts += found.open_verdicts
        coach.open_facts += found.open_facts
        coach.judged_all = coach.judged_all and found.judged_all
    coach.moments.sort(key=lambda m: m.action_index)
    coach.verdicts.sort(key=lambda v: v[0])
    coach.bid_verdicts.sort(key=lambda v: v[0])
    coach.open_verdicts.sort(key=lambda v: v[0])
    coach.open_facts.sort(key=lambda f: f[0])


def _review(record: GameRecord, level: str, job: Mapping[str, Any], data: Mapping[str, Any],
            earlier: Iterable[Mapping[str, Any]], store: Store | None) -> dict[str, Any]:
    """The post-game review from every verdict of the game, and its mistakes filed (as the table does)."""
    game = replay(record)
    assert game.landlord is not None and game.winner is not None
    coach = _coach(game.rules, level)
    expected = {str(ident) for ident in job.get("expect") or ()}
    answers = [a for a in earlier if str(a.get("id")) in expected]
    merge(coach, answers)
    # every job of the game answered (a job that failed twice leaves the analysis incomplete: nothing filed)
    complete = expected <= {str(a.get("id")) for a in answers}
    coach.judged_all = coach.judged_all and complete
    game_id = job.get("game_id")
    if store is not None and game_id is not None and coach.judged_all:
        from tutor.sessions.mistakes import save_game_verdicts

        save_game_verdicts(store, int(game_id), coach.verdicts, choices=final_choices(record, coach),
                           rules=game.rules)
    phrases = coach.review_phrases(game.history, game.landlord, game.winner, int(data.get("hints", 0)),
                                   int(data.get("undos", 0)))
    return {"review": [p.to_data() for p in phrases], "coach": coach.to_data(), "filed": coach.judged_all}


def final_choices(record: GameRecord, coach: Coach) -> list[tuple[int, Any]]:
    """The coach's verdicts on the learner's choices before the play: (moment number, verdict).

    The words of the auction that was played (a bid; a call, rob, rob back: RULES §12.1) and the
    open hand (§12.2) — the moments of "learn from your mistakes" before the plays.
    """
    from tutor.coach.moments import OPEN_MOMENT, auction_decisions

    bids = dict(coach.bid_verdicts)
    found = [(d.number, bids[d.action_index]) for d in auction_decisions(record, HUMAN) if d.action_index in bids]
    found += [(OPEN_MOMENT, v) for _, v in coach.open_verdicts[-1:]]
    return found


def phrases(items: Sequence[Any]) -> list[Phrase]:
    """Stored phrases back (one that cannot be read is left out: a damaged answer loses a line, never the game)."""
    found = []
    for item in items:
        try:
            found.append(Phrase.from_data(item))
        except (TypeError, ValueError):
            continue
    return found
