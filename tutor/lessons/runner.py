"""Running a lesson: judging answers, giving hints, counting stars — without any I/O.

The CLI (``ddz learn``) shows the steps and reads what the learner types; this
module decides what that input means.  Keeping the decisions here means the
whole course can be played through by tests, and another front end could
reuse it.

Judging follows the lesson's ``accept`` rules (a list of moves, any legal move
of some kinds, any move the solver proves winning).  An answer that cannot be
played at all (not your cards, not a combination, does not beat the table)
is *invalid*: it is explained and not counted, just as ``ddz play``'s status
line catches it before anything is committed.  A legal answer that the step
does not accept is *wrong*: it gets the author's feedback for that answer (and
the beginner mistake it shows), or the solver's refutation, and another try.

Stars: three for a lesson without wrong answers or hints, two for at most two
of them together, one otherwise — a lesson finished is never worth zero.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from functools import lru_cache

from tutor.engine.actions import Play
from tutor.engine.auction import Auction
from tutor.engine.game import Game
from tutor.engine.rules import Rules
from tutor.engine.cards import Cards
from tutor.engine.combos import Combo, Kind, readings
from tutor.engine.moves import legal_moves
from tutor.files import ascii_int
from tutor.i18n import LANGUAGES, catalogue, t
from tutor.lessons.claims import is_open
from tutor.lessons.explain import accepted_moves, explain_move, explain_name
from tutor.lessons.model import YOU, Feedback, Lesson, Mistake, Setup, Step, Task, TaskType, Text
from tutor.solver import Position
from tutor.lessons.moves import LessonMoveError, MoveSpec, format_move, illegal_reason, parse_move, resolve
from tutor.lessons.oracle import Oracle
from tutor.lessons.table import play_script, setup_game, shown_hands, solver_position, you_won
from tutor.lessons.scoring import score_answer

KIND_LABELS = tuple(k.label for k in Kind)


class Verdict(str, Enum):
    CORRECT = "correct"
    WRONG = "wrong"
    INVALID = "invalid"


@dataclass
class Outcome:
    """What became of one answer.

    Attributes:
        verdict: correct, wrong (counted, try again) or invalid (not counted).
        text: the author's feedback or success text, if any.
        reason: an explanation from the engine or the solver (English), if any.
        mistake: the beginner mistake the answer shows (RULES §11).
        replies: what the other players did after a correct move, in order.
        step_done: the step is finished (the runner may advance).
        won: a line task ended with your side out of cards.
    """

    verdict: Verdict
    text: Text | None = None
    reason: str | None = None
    mistake: Mistake | None = None
    replies: list[tuple[int, Combo | None]] = field(default_factory=list)
    step_done: bool = False
    won: bool = False


@dataclass(frozen=True)
class Hint:
    """A hint: the author's next one, or — when those are used up — the answer itself."""

    text: Text | None = None
    answer: str | None = None


def stars_for(wrong: int, hints: int) -> int:
    """Three stars for a clean lesson, two for at most two slips, one otherwise."""
    slips = wrong + hints
    return 3 if slips == 0 else 2 if slips <= 2 else 1


def parse_kind_answer(text: str) -> str:
    """A learner's name for a combination → its label (or ``none``).

    Accepts the label (``trio_single``, ``trio single``, ``trio-single``), the
    number 1–14 of RULES §5, or ``none``/``0`` for "not a combination".
    """
    raw = " ".join(text.strip().lower().replace("ё", "е").split())
    if raw in ("none", "0", "no", "нет"):
        return "none"
    number = ascii_int(raw, 6)
    if number is not None and 1 <= number <= len(KIND_LABELS):
        return KIND_LABELS[number - 1]
    shown = _shown_kind_names().get(raw)
    if shown is not None:
        return shown
    try:
        return Kind.from_label(raw).label
    except ValueError:
        raise ValueError(t("lessons.reason_kind_unknown", text=repr(text))) from None


@lru_cache(maxsize=1)
def _shown_kind_names() -> dict[str, str]:
    """The kind names of every language's numbered list (``lessons.kinds_list``) → labels.

    The prompt shows «1 одиночная · 2 пара · …»; a learner who types a name from
    that list (in any language) must be understood, not told the label is unknown.
    """
    names: dict[str, str] = {}
    for lang in LANGUAGES:
        listing = catalogue(lang).get("lessons.kinds_list", "")
        for item in listing.split("·"):
            number, _, name = item.strip().partition(" ")
            index = ascii_int(number, 2)
            if index is not None and 1 <= index <= len(KIND_LABELS) and name:
                names[" ".join(name.lower().replace("ё", "е").split())] = KIND_LABELS[index - 1]
    return names


def parse_bid_answer(text: str, rules: Rules) -> int:
    """A typed bid → its code: 0-3 (RULES §3), or pass/call/rob under the rob auction (RULES §12.1)."""
    raw = text.strip().lower()
    if raw in ("pass", "p", "пас", "0"):
        return 0
    if rules.robs:
        for code, words in _ROB_ANSWERS.items():
            if raw in words:
                return code
        raise ValueError(t("course.reason_rob_format", text=repr(text)))
    if raw in ("1", "2", "3"):
        return int(raw)
    raise ValueError(t("lessons.reason_bid_format", text=repr(text)))


#: What a learner may type for a call or a rob (and the codes the browser's buttons send).
_ROB_ANSWERS = {1: ("call", "c", "1", "заявить", "заявка", "заявляю"),
                2: ("rob", "r", "2", "перехват", "перехватить", "перехватываю")}
#: What a learner may type to show the hand (1) or keep it closed (0): the game's own words too.
_SHOW_ANSWERS = {1: ("show", "open", "yes", "y", "1", "открыть", "открываю", "да"),
                 0: ("keep", "pass", "no", "n", "0", "closed", "пас", "нет", "не открывать", "оставить")}


def bid_choices(setup: Setup) -> list[int]:
    """The bids (or, in a rob auction, pass/call/rob codes) open to the learner at a bid task's turn."""
    return Auction.of(setup.bids).legal(setup.rules)  # engine/auction.py (RULES §3, §12.1)


def parse_show_answer(text: str) -> int:
    """A typed open-hand decision (RULES §12.2) → 1 show, 0 keep closed."""
    raw = " ".join(text.strip().lower().split())
    for code, words in _SHOW_ANSWERS.items():
        if raw in words:
            return code
    raise ValueError(t("course.reason_show_format", text=repr(text)))


def parse_number_answer(text: str) -> int:
    raw = text.strip().replace(" ", "").replace("−", "-")
    number = ascii_int(raw.removeprefix("+"), 20, signed=True)
    if number is None:
        raise ValueError(t("lessons.reason_number_format", text=repr(text[:40])))
    return number


class LessonRun:
    """One pass through a lesson by a learner.

    Args:
        lesson: the lesson.
        oracle: the solver wrapper (shared, so repeated positions are cached).
    """

    def __init__(self, lesson: Lesson, oracle: Oracle | None = None) -> None:
        self.lesson = lesson
        self._oracle = oracle
        self.index = 0
        self.wrong = 0
        self.hints_used = 0
        self.mistakes: list[Mistake] = []
        self._hint_index = 0
        #: The position of a play or line task as the engine's game, stepped by the answers and replies.
        self.game: Game | None = None
        self._enter()

    # ------------------------------------------------------------------ navigation
    @property
    def oracle(self) -> Oracle:
        if self._oracle is None:
            self._oracle = Oracle()
        return self._oracle

    @property
    def finished(self) -> bool:
        return self.index >= len(self.lesson.steps)

    @property
    def step(self) -> Step:
        return self.lesson.steps[self.index]

    @property
    def setup(self) -> Setup | None:
        return self.step.setup

    def _enter(self) -> None:
        self._hint_index = 0
        self.game = None
        task = None if self.finished else self.step.task
        if task is not None and task.type in (TaskType.PLAY, TaskType.LINE) and self.step.setup is not None:
            self.game = setup_game(self.step.setup)

    def advance(self) -> bool:
        """Go to the next step; False when the lesson is over."""
        self.index += 1
        self._enter()
        return not self.finished

    @property
    def stars(self) -> int:
        return stars_for(self.wrong, self.hints_used)

    # ------------------------------------------------------------------ hints
    def hint(self) -> Hint:
        """The next hint of this step (counted; never deducted from anything but stars)."""
        task = self.step.task
        if task is None:
            return Hint()
        self.hints_used += 1
        if self._hint_index < len(task.hints):
            self._hint_index += 1
            return Hint(text=task.hints[self._hint_index - 1])
        return Hint(answer=self.solution())

    def solution(self) -> str:
        """One accepted answer, as the learner would type it."""
        task = self.step.task
        assert task is not None
        if task.type == TaskType.BID:
            if self.step.rules.robs:
                return {0: "pass", 1: "call", 2: "rob"}[task.bids[0]]
            return "pass" if task.bids[0] == 0 else str(task.bids[0])
        if task.type == TaskType.SHOW:
            return "show" if task.bids[0] else "keep"
        if task.type == TaskType.NAME:
            return self._accepted_names(task)[0]
        if task.type == TaskType.SCORE:
            return str(score_answer(task.game, str(task.ask), self.step.rules))
        assert self.game is not None
        if task.type == TaskType.LINE or (task.winning and not task.moves):
            return format_move(self._winning_moves()[0])
        if task.moves:
            return str(task.moves[0].cards) if task.moves[0].cards is not None else "pass"
        move = next(m for m in legal_moves(self.game.hand(YOU), self.game.table) if m.kind in task.kinds)
        return move.text

    # ------------------------------------------------------------------ answers
    def answer(self, text: str) -> Outcome:
        """Judge what the learner typed for the current step's task."""
        task = self.step.task
        if task is None:
            raise ValueError("this step has no task")
        if task.type in (TaskType.PLAY, TaskType.LINE):
            return self._answer_move(task, text)
        if task.type == TaskType.BID:
            return self._answer_bid(task, text)
        if task.type == TaskType.SHOW:
            return self._answer_show(task, text)
        if task.type == TaskType.NAME:
            return self._answer_name(task, text)
        return self._answer_score(task, text)

    def _judge(self, task: Task, correct: bool, matched: Feedback | None, reason: str | None = None) -> Outcome:
        if correct:
            return Outcome(Verdict.CORRECT, task.success, step_done=True)
        self.wrong += 1
        if matched is not None and matched.mistake is not None:
            self.mistakes.append(matched.mistake)
        return Outcome(
            Verdict.WRONG,
            matched.text if matched else None,
            reason,
            matched.mistake if matched else None,
        )

    def _answer_bid(self, task: Task, text: str) -> Outcome:
        setup, rules = self.setup, self.step.rules
        try:
            bid = parse_bid_answer(text, rules)
        except ValueError as error:
            return Outcome(Verdict.INVALID, reason=str(error))
        auction = Auction.of(setup.bids if setup else ())  # engine/auction.py judges the bid (RULES §3, §12.1)
        highest = auction.outcome(rules).stake
        if bid not in auction.legal(rules):
            if rules.robs:
                return Outcome(Verdict.INVALID, reason=t("course.reason_rob_illegal"))
            return Outcome(Verdict.INVALID, reason=t("lessons.reason_bid_too_low", highest=highest))
        matched = next((f for f in task.feedback if f.answer is not None and _bid_of(f.answer, rules) == bid), None)
        return self._judge(task, bid in task.bids, matched)

    def _answer_show(self, task: Task, text: str) -> Outcome:
        try:
            choice = parse_show_answer(text)
        except ValueError as error:
            return Outcome(Verdict.INVALID, reason=str(error))
        matched = next((f for f in task.feedback if f.answer is not None and _show_of(f.answer) == choice), None)
        return self._judge(task, choice in task.bids, matched)

    def _accepted_names(self, task: Task) -> list[str]:
        if task.names:
            return list(task.names)
        assert task.cards is not None
        labels = sorted({r.kind for r in readings(task.cards, self.step.rules)})
        return [k.label for k in labels] or ["none"]

    def _answer_name(self, task: Task, text: str) -> Outcome:
        try:
            name = parse_kind_answer(text)
        except ValueError as error:
            return Outcome(Verdict.INVALID, reason=str(error))
        matched = next((f for f in task.feedback if f.answer is not None and str(f.answer) == name), None)
        right = name in self._accepted_names(task)
        reason = None if right or matched is not None or task.cards is None else explain_name(task.cards)
        return self._judge(task, right, matched, reason)

    def _answer_score(self, task: Task, text: str) -> Outcome:
        try:
            number = parse_number_answer(text)
        except ValueError as error:
            return Outcome(Verdict.INVALID, reason=str(error))
        right = score_answer(task.game, str(task.ask), self.step.rules)
        matched = next((f for f in task.feedback if f.answer is not None and f.answer == number), None)
        reason = None if matched is not None else t("lessons.explain_score")
        if number == -right and right != 0:
            reason = t("lessons.reason_wrong_sign")
        return self._judge(task, number == right, matched, reason)

    # ------------------------------------------------------------------ moves
    def _position(self) -> Position:
        setup = self.setup
        assert setup is not None and self.game is not None
        return solver_position(setup, self.game)

    def _winning_moves(self) -> list[Combo | None]:
        return self.oracle.winning_moves(self._position())

    def _answer_move(self, task: Task, text: str) -> Outcome:
        game, setup = self.game, self.setup
        assert game is not None and setup is not None
        hand = shown_hands(setup, game)[YOU]
        try:
            spec = parse_move(text)
        except (LessonMoveError, ValueError) as error:
            return Outcome(Verdict.INVALID, reason=str(error))
        reason = illegal_reason(hand, game.table, spec)
        if reason is not None:
            return Outcome(Verdict.INVALID, reason=reason)
        candidates = self._candidates(hand, game.table, spec)
        accepted = [m for m in candidates if self._accepts(task, m)]
        if not accepted:
            move = candidates[0]
            matched = _feedback_for(task.feedback, spec, move)
            refutation = None
            if (task.type == TaskType.LINE or task.winning) and is_open(setup):
                refutation = self._refutation(move)  # every hand face up: the line hides nothing
            elif matched is None:
                winning = self._winning_moves() if task.winning and setup.fully_known else []
                refutation = explain_move(task, setup, game, move, accepted_moves(task, game, winning), self.oracle)
            return self._judge(task, False, matched, refutation)
        move = accepted[0]
        outcome = Outcome(Verdict.CORRECT, task.success)
        if isinstance(task.replies, tuple):
            script = play_script(setup, move, task.replies)
            outcome.replies.extend(script.replies)
            self.game = game = script.game
        else:
            game.apply(Play(move))
        if task.type == TaskType.LINE:
            self._reply_until_you(outcome)
            outcome.step_done = game.is_over
            outcome.won = outcome.step_done and you_won(setup, game)
            if not outcome.step_done:
                outcome.text = None
            return outcome
        if task.replies == "solver":
            self._reply_until_you(outcome)
        outcome.step_done = True
        outcome.won = game.is_over and you_won(setup, game)
        return outcome

    def _candidates(self, hand: Cards | None, table: Combo | None, spec: MoveSpec) -> list[Combo | None]:
        if spec.cards is None:
            return [None]
        assert hand is not None
        moves = [m for m in legal_moves(hand, table) if m.cards == spec.cards.packed]
        if spec.kind is not None:
            moves = [m for m in moves if m.kind == spec.kind]
        return list(moves) or [resolve(hand, table, spec)]

    def _accepts(self, task: Task, move: Combo | None) -> bool:
        if task.type == TaskType.LINE:
            return move in self._winning_moves()
        for spec in task.moves:
            if spec.cards is None and move is None:
                return True
            if spec.cards is not None and move is not None and spec.cards.packed == move.cards:
                if spec.kind is None or spec.kind == move.kind:
                    return True
        if move is not None and move.kind in task.kinds:
            return True
        return task.winning and move in self._winning_moves()

    def _refutation(self, move: Combo | None) -> str | None:
        pos = self._position()
        line = self.oracle.refutation(pos, move)
        if len(line) <= 1:
            return None
        names = (t("lessons.seat_you"), t("lessons.seat_right"), t("lessons.seat_left"))
        shown = ", ".join(
            f"{names[seat]} {format_move(m) if m is not None else t('lessons.bid_pass')}" for seat, m in line
        )
        return t("lessons.reason_refutation", line=shown)

    def _reply_until_you(self, outcome: Outcome) -> None:
        """The other two seats answer (strongest play by the solver) until it is your turn."""
        game, setup = self.game, self.setup
        assert game is not None and setup is not None
        while not game.is_over and game.to_move != YOU:
            seat = game.to_move
            move = self.oracle.reply(solver_position(setup, game))
            outcome.replies.append((seat, move))
            game.apply(Play(move))

    def restart_step(self) -> None:
        """Put the step's position back (a line task after a wrong turn, or on request)."""
        self._enter()


def _bid_of(answer: str | int, rules: Rules) -> int | None:
    try:
        return parse_bid_answer(str(answer), rules)
    except ValueError:
        return None


def _show_of(answer: str | int) -> int | None:
    try:
        return parse_show_answer(str(answer))
    except ValueError:
        return None


def _feedback_for(feedback: tuple[Feedback, ...], spec: MoveSpec, move: Combo | None) -> Feedback | None:
    """The author's feedback for this wrong move: an exact answer first, then its kind."""
    for fb in feedback:
        if fb.answer is None:
            continue
        try:
            want = parse_move(str(fb.answer))
        except ValueError:
            continue
        if want.cards is None and spec.cards is None:
            return fb
        if want.cards is not None and spec.cards is not None and want.cards == spec.cards:
            if want.kind is None or move is None or want.kind == move.kind:
                return fb
    if move is not None:
        for fb in feedback:
            if fb.answer is None and fb.kind is not None and fb.kind == move.kind:
                return fb
    return None
