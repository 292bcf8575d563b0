"""``ddz lessons validate``: every problem of every lesson file, in one run.

Three layers, each reported with file, line and field path:

1. the JSON Schema shipped with the package (``lesson.schema.json``) — the
   shape of the file;
2. meaning without search (:func:`tutor.lessons.model.build_lesson`) — cards
   that exist, no card twice, hand sizes, positions that can arise;
3. meaning with the engine and the solver (this module) — every accepted
   answer legal, every "winning" claim proven, every scripted reply legal,
   prerequisites that exist and come earlier in the course.

Nothing stops at the first problem: a step with a broken shape is skipped by
the later layers, the rest of the file is still checked.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tutor.engine.auction import Auction
from tutor.engine.rules import STANDARD, Rules
from tutor.engine.cards import Cards
from tutor.engine.combos import Combo, Kind, readings
from tutor.engine.moves import legal_moves
from tutor.files import UnreadableFile, ascii_int, shown
from tutor.lessons.claims import ClaimProver, Tally, Weigher
from tutor.lessons.claims import Report as ClaimReport
from tutor.lessons.loader import FieldPath, LessonDocument, LessonFileError, format_path, lesson_files, load_lesson_file
from tutor.lessons.model import ROB_WORDS, SEATS, SHOW_WORDS, YOU, Lesson, Problem, Step, TaskType, Text, build_lesson
from tutor.lessons.moves import LessonMoveError, MoveSpec, illegal_reason, parse_move, resolve
from tutor.lessons.oracle import Oracle, SolverUnsureError
from tutor.lessons.table import play_script, solver_position
from tutor.lessons.reachability import proven_reachable
from tutor.lessons.schema import lesson_schema, schema_problems  # noqa: F401 - lesson_schema: re-exported
from tutor.lessons.scoring import score_answer
from tutor.lessons.wording import browser_problems, lesson_texts
from tutor.paths import lessons_dir


#: How a hint that gives the answer begins (only the last may, after two real hints).
ANSWER_EN, ANSWER_RU = "Answer:", "Ответ:"
#: Words a hint that gives the answer needs after «Answer:»: the answer and why (a bare «Answer: pass.» is no step).
REASON_WORDS = 7


def gives_answer(hint: Text) -> bool:
    """The hint shows the answer («Answer: …» / «Ответ: …»)."""
    return hint.en.startswith(ANSWER_EN) or (hint.ru is not None and hint.ru.startswith(ANSWER_RU))


def real_hint(hint: Text) -> bool:
    """A hint that is a step of reasoning: a clue, or the answer together with why — not the answer alone."""
    return not gives_answer(hint) or len(hint.en[len(ANSWER_EN):].split()) >= REASON_WORDS


@dataclass
class Report:
    """The result of validating some lesson files."""

    lessons: list[Lesson] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    files: int = 0
    #: Claims of play and line tasks proven (and those on hidden hands not checked yet).
    claims: Tally = field(default_factory=Tally)

    @property
    def ok(self) -> bool:
        return not self.problems

    def figures(self) -> dict[str, int]:
        """What the course holds, for the closing note of an issue and the author: tasks (and those on
        hidden hands, decided from the learner's view), hints, wrong answers with the author's reason,
        tasks whose other wrong answers get a derived one, texts with a browser wording."""
        from tutor.lessons.claims import is_open

        tasks = [step for lesson in self.lessons for step in lesson.steps if step.task is not None]
        return {
            "tasks": len(tasks),
            "hidden": sum(1 for step in tasks if step.setup is not None and step.setup.landlord is not None
                          and not is_open(step.setup)),
            "hints": sum(len(step.task.hints) for step in tasks if step.task is not None),
            "real_hints": sum(real_hint(h) for step in tasks if step.task is not None for h in step.task.hints),
            "feedback": self.claims.by_kind.get("explained_feedback", 0),
            "derived": self.claims.by_kind.get("explained_auto", 0),
            "web": sum(1 for lesson in self.lessons for _, text in lesson_texts(lesson) if text.web is not None),
        }


def _view_prover(report: ClaimReport, tally: Tally) -> Weigher:
    """The coach's view-based weighing of hidden-hand claims (imported on use: it is heavy)."""
    from tutor.lessons.view_claims import ViewProver

    return ViewProver(report, tally)


class _Checker:
    """Engine and solver checks of one lesson."""

    def __init__(self, doc: LessonDocument, oracle: Oracle, view: bool, rules: Rules) -> None:
        self.doc = doc
        #: The lesson's rule set: what its names and scores are proven under (RULES §12; §12.4: the landlord's share 3).
        self.rules = rules
        self.oracle = oracle
        self.problems: list[Problem] = []
        #: Every move a play or line step accepts (first moves), for the feedback checks.
        self._accepted: dict[FieldPath, list[Combo | None]] = {}
        #: Positions proven reachable by a witness game.
        self.reachable = 0
        #: Feedback entries written by authors, and tasks whose other wrong answers get a derived reason.
        self.explained_feedback = 0
        self.explained_auto = 0
        self.prover = ClaimProver(oracle, self.add, view, weigher=_view_prover if view else None)

    def add(self, where: FieldPath, code: str, message: str) -> None:
        self.problems.append(Problem(str(self.doc.path), self.doc.line(where), format_path(where), code, message))

    # ----------------------------------------------------------------- steps
    def check_reachable(self, step: Step, flagged: set[str]) -> None:
        """A position in the play is proven reachable by a whole game replayed to it (:mod:`.reachability`).

        Skipped when building the step already reported its position (the witness would say the same).
        """
        setup = step.setup
        if setup is None or step.broken or setup.landlord is None:
            return
        here = format_path((*step.where, "position"))
        if any(path == here or path.startswith(here + ".") for path in flagged):
            return
        why = proven_reachable(setup)
        if why is None:
            self.reachable += 1
        else:
            self.add((*step.where, "position"), "unreachable", f"no real game reaches this position: {why}")

    def check_step(self, step: Step) -> None:
        task = step.task
        if task is None or step.broken:
            return
        where: FieldPath = (*step.where, "task")
        check = {
            TaskType.PLAY: self._play,
            TaskType.LINE: self._line,
            TaskType.BID: self._bid,
            TaskType.SHOW: self._show,
            TaskType.NAME: self._name,
            TaskType.SCORE: self._score,
        }[task.type]
        check(step, where)
        self._feedback(step, where)
        self._hints(step, where)
        self._explained(step, where)

    def _explained(self, step: Step, where: FieldPath) -> None:
        """Every wrong answer gets a reason (issue 21): the author's feedback, or one the runner can derive.

        Derived (:mod:`tutor.lessons.explain`): a drill's other kinds, a plan's play counts, the
        solver's line on open hands, the coach's figures on hidden ones, what named cards read as,
        the scoring formula. Bids have no derived reason: every bid the task calls wrong needs feedback.
        """
        task = step.task
        setup = step.setup
        assert task is not None
        self.explained_feedback += len(task.feedback)
        if task.type in (TaskType.BID, TaskType.SHOW):
            rules = setup.rules if setup is not None else STANDARD
            codes = _bid_codes(task.type, rules)
            given = {codes[str(f.answer)] for f in task.feedback if f.answer is not None and str(f.answer) in codes}
            if task.type == TaskType.SHOW:
                open_now = [0, 1]
            else:  # the bids open at the task's turn (engine/auction.py)
                open_now = Auction.of(setup.bids if setup is not None else ()).legal(rules)
            names = {code: word for word, code in codes.items() if not word.isdigit()}
            for bid in open_now:
                if bid not in task.bids and bid not in given:
                    self.add((*where, "feedback"), "unexplained",
                             f"{'bid ' if task.type == TaskType.BID else ''}{names.get(bid, bid)!s} is called wrong "
                             "without a word: give it feedback")
            return
        if task.type in (TaskType.PLAY, TaskType.LINE) and setup is not None:
            from tutor.lessons.claims import is_open
            from tutor.lessons.view_claims import lesson_view

            if not (task.kinds or task.goal in ("thrift", "fewest_plays") or is_open(setup)
                    or lesson_view(setup) is not None):
                self.add(where, "unexplained", "wrong moves here get no reason: give feedback, or a position the"
                         " coach can weigh (landlord and card counts) or the solver can show (every hand face up)")
                return
        self.explained_auto += 1

    def _hints(self, step: Step, where: FieldPath) -> None:
        """Hints are real steps (issue 30): the first names what to look at, the second narrows it, and
        only the last may show the answer — after two real hints, and with why, never «Answer: X» alone
        (the learner who still needs it gets the bare answer from the runner after the last hint)."""
        task = step.task
        assert task is not None
        if not task.hints:
            self.add((*where, "type"), "no_hints",
                     "every task needs hints: what to look at, then a narrower clue (issue 21, 30)")
            return
        last = task.hints[-1]
        at = (*where, "hints", len(task.hints) - 1)
        real = [h for h in task.hints if not gives_answer(h)]
        if len(real) < 2:
            self.add((*where, "hints"), "hint_order",
                     "give at least two real hints before any answer: what to look at, then a narrower clue")
        for i, hint in enumerate(task.hints[:-1]):
            if gives_answer(hint):
                self.add((*where, "hints", i), "hint_order", "only the last hint may give the answer")
        if gives_answer(last):
            if not last.en.startswith(ANSWER_EN) or (last.ru is not None and not last.ru.startswith(ANSWER_RU)):
                self.add(at, "hint_order", f"a hint that gives the answer starts with {ANSWER_EN!r} / {ANSWER_RU!r}"
                         " in every language")
            if not real_hint(last):
                self.add(at, "bare_answer", f"the last hint shows the answer without why: add the reason"
                         f" (at least {REASON_WORDS} words after {ANSWER_EN!r})")

    def _needs_position(self, step: Step, where: FieldPath) -> bool:
        setup = step.setup
        if setup is None or YOU not in setup.hands:
            self.add((*step.where, "position"), "missing_position", "this task needs a position with your hand")
            return False
        if setup.to_move != YOU:
            self.add((*step.where, "position", "to_move"), "unreachable",
                     f"the task asks you to play but it is {SEATS[setup.to_move]}'s turn")
            return False
        return True

    def _needs_solver(self, step: Step, where: FieldPath, why: str) -> bool:
        setup = step.setup
        assert setup is not None
        if not setup.fully_known:
            self.add(where, "missing_hands", f"{why} needs the landlord and all three hands in the position")
            return False
        return True

    def _winning(self, step: Step, where: FieldPath) -> list[Combo | None] | None:
        setup = step.setup
        assert setup is not None and setup.landlord is not None
        try:
            return self.oracle.winning_moves(solver_position(setup))
        except SolverUnsureError as error:
            self.add(where, "solver_budget", str(error))
        except ValueError as error:
            self.add((*step.where, "position"), "unreachable", str(error))
        return None

    def _play(self, step: Step, where: FieldPath) -> None:
        task = step.task
        assert task is not None
        if not self._needs_position(step, where):
            return
        setup = step.setup
        assert setup is not None
        hand = setup.hands[YOU]
        accepted: list[Combo | None] = []
        for i, spec in enumerate(task.moves):
            reason = illegal_reason(hand, setup.table, spec)
            if reason is not None:
                self.add((*where, "accept", "moves", i), "illegal_answer", f"accepted answer {str(spec)!r} is illegal: {reason}")
            else:
                accepted.append(resolve(hand, setup.table, spec))
        moves = legal_moves(hand, setup.table)
        for i, kind in enumerate(task.kinds):
            of_kind = [m for m in moves if m.kind == kind]
            if not of_kind:
                self.add((*where, "accept", "kinds", i), "illegal_answer",
                         f"no legal move of kind {kind.label!r} here, so nothing can be accepted by it")
            accepted.extend(of_kind)
        if task.winning:
            if self._needs_solver(step, (*where, "accept", "winning"), "'winning'"):
                wins = self._winning(step, (*where, "accept", "winning"))
                if wins is not None:
                    if not wins:
                        self.add((*where, "accept", "winning"), "refuted",
                                 "the solver proves that no move wins here")
                    for i, (spec, move) in enumerate(zip(task.moves, accepted)):
                        if illegal_reason(hand, setup.table, spec) is None and not self._wins_as(spec, setup, wins):
                            self.add((*where, "accept", "moves", i), "refuted",
                                     f"the lesson says {str(spec)!r} wins, but the solver refutes it")
                    accepted.extend(wins)
        self._accepted[step.where] = accepted
        self._replies(step, where, accepted)
        self._claims(lambda: self.prover.play(task, setup, where, listed_only=not task.winning), step)

    def _claims(self, check: Any, step: Step) -> None:
        """Run a claim check; a position too big for the solver's budget is reported, not fatal."""
        try:
            check()
        except SolverUnsureError as error:
            self.add((*step.where, "task"), "solver_budget", str(error))
        except ValueError as error:
            self.add((*step.where, "position"), "unreachable", str(error))

    @staticmethod
    def _wins_as(spec: MoveSpec, setup: Any, wins: Sequence[Combo | None]) -> bool:
        if spec.cards is None:
            return None in wins
        return any(w is not None and w.cards == spec.cards.packed and (spec.kind is None or w.kind == spec.kind)
                   for w in wins)

    def _replies(self, step: Step, where: FieldPath, accepted: list[Combo | None]) -> None:
        task = step.task
        setup = step.setup
        assert task is not None and setup is not None
        if task.replies is None:
            return
        if task.replies == "solver":
            self._needs_solver(step, (*where, "replies"), "'replies: solver'")
            return
        assert isinstance(task.replies, tuple)
        for move in dict.fromkeys(accepted):
            try:
                fault = play_script(setup, move, task.replies).fault
            except ValueError as error:  # the position itself (reported by the setup's checks too)
                self.add((*step.where, "position"), "unreachable", str(error))
                return
            if fault is None:
                continue
            spec = task.replies[fault.index]
            if fault.kind == "over":
                self.add((*where, "replies", fault.index), "illegal_reply",
                         f"after {_name(move)} the game is over; reply {str(spec)!r} cannot be played")
            elif fault.kind == "own_turn":
                self.add((*where, "replies", fault.index), "illegal_reply",
                         f"after {_name(move)} the replies reach your own turn again at {str(spec)!r}")
            else:
                self.add((*where, "replies", fault.index), "illegal_reply",
                         f"after {_name(move)}, {SEATS[fault.seat]} cannot play {str(spec)!r}: {fault.reason}")

    def _line(self, step: Step, where: FieldPath) -> None:
        if not self._needs_position(step, where) or not self._needs_solver(step, where, "a 'line' task"):
            return
        wins = self._winning(step, where)
        if wins is not None and not wins:
            self.add(where, "refuted", "the task asks for a winning line, but the solver proves you lose here")
        if wins is not None:
            self._accepted[step.where] = list(wins)
            setup = step.setup
            task = step.task
            assert setup is not None and task is not None
            self._claims(lambda: self.prover.line(task, setup, where), step)

    def _bid(self, step: Step, where: FieldPath) -> None:
        task = step.task
        setup = step.setup
        assert task is not None
        if setup is None or YOU not in setup.hands:
            self.add((*step.where, "position"), "missing_position", "a bid task needs a position with your hand")
            return
        if setup.landlord is not None:
            self.add((*step.where, "position", "landlord"), "unreachable", "bidding happens before there is a landlord")
        if len(setup.hands[YOU]) != 17:
            self.add((*step.where, "position", "hands", "you"), "hand_size",
                     f"you bid on the 17 cards dealt to you, not {len(setup.hands[YOU])}")
        rules = setup.rules
        auction = Auction.of(setup.bids)  # engine/auction.py judges the bids (RULES §3, §12.1)
        highest = auction.outcome(rules).stake
        for i, bid in enumerate(task.bids):
            if bid not in auction.legal(rules):
                why = "a call comes first, then robs (RULES §12.1)" if rules.robs else \
                    f"a bid must be higher than {highest} (RULES §3)"
                self.add((*where, "accept", "bids", i), "illegal_answer", f"accepted bid {bid} is illegal: {why}")
        if setup.landlord is None and len(setup.hands[YOU]) == 17:
            self.prover.bid(task, setup, where)

    def _show(self, step: Step, where: FieldPath) -> None:
        """The open hand (RULES §12.2): the landlord's decision before the first play, under rules that
        allow it, weighed by the coach's expected score of both choices (as a bid is)."""
        from tutor.lessons.view_claims import show_view

        task = step.task
        setup = step.setup
        assert task is not None
        if setup is None or YOU not in setup.hands:
            self.add((*step.where, "position"), "missing_position", "a show task needs a position with your hand")
            return
        if not setup.rules.can_open:
            self.add((*where, "type"), "illegal_answer",
                     f"the lesson's rules ({setup.rules.name}) do not let the landlord show the hand: add 'rules: open'")
            return
        if show_view(setup) is None:
            self.add((*step.where, "position"), "unreachable",
                     "the landlord shows the hand before the first play: give 'landlord: you', 'bid', your 20 cards"
                     " with the 'kitty', and no plays yet")
            return
        self.prover.show(task, setup, where)

    def _name(self, step: Step, where: FieldPath) -> None:
        task = step.task
        assert task is not None and task.cards is not None
        kinds = {r.kind.label for r in readings(task.cards, self.rules)}
        for i, name in enumerate(task.names):
            if name == "none":
                if kinds:
                    self.add((*where, "accept", "kinds", i), "illegal_answer",
                             f"{task.cards} is a combination ({', '.join(sorted(kinds))}), not 'none'")
            elif name not in kinds:
                real = ", ".join(sorted(kinds)) or "no combination at all"
                self.add((*where, "accept", "kinds", i), "illegal_answer",
                         f"{task.cards} does not read as {name} (it reads as: {real})")

    def _score(self, step: Step, where: FieldPath) -> None:
        task = step.task
        assert task is not None
        try:
            score_answer(task.game, str(task.ask), self.rules)
        except ValueError as error:
            self.add((*where, "game"), "illegal_answer", str(error))

    def _feedback(self, step: Step, where: FieldPath) -> None:
        """Feedback on an answer the task accepts, or on a move that cannot be played, is never seen."""
        task = step.task
        assert task is not None
        for i, fb in enumerate(task.feedback):
            at = (*where, "feedback", i, "answer")
            if fb.answer is None:
                continue
            if task.type in (TaskType.PLAY, TaskType.LINE):
                try:
                    spec = parse_move(str(fb.answer))
                except (LessonMoveError, ValueError) as error:
                    self.add(at, "bad_cards", str(error))
                    continue
                setup = step.setup
                if setup is None or YOU not in setup.hands:
                    continue
                reason = illegal_reason(setup.hands[YOU], setup.table, spec)
                if reason is not None:
                    self.add(at, "illegal_feedback", f"feedback for {str(spec)!r} is never shown: {reason}")
                elif any(
                    (m is None and spec.cards is None)
                    or (m is not None and spec.cards is not None and m.cards == spec.cards.packed
                        and (spec.kind is None or m.kind == spec.kind))
                    for m in self._accepted.get(step.where, [])
                ):
                    self.add(at, "contradiction", f"{str(spec)!r} is an accepted answer, not a wrong one")
            elif task.type in (TaskType.BID, TaskType.SHOW):
                codes = _bid_codes(task.type, step.setup.rules if step.setup is not None else STANDARD)
                if str(fb.answer) not in codes:
                    self.add(at, "bad_answer", f"the answer is one of {', '.join(codes)}, not {fb.answer!r}")
                elif codes[str(fb.answer)] in task.bids:
                    self.add(at, "contradiction", f"{fb.answer!r} is an accepted answer, not a wrong one")
            elif task.type == TaskType.NAME:
                if str(fb.answer) != "none":
                    try:
                        Kind.from_label(str(fb.answer))
                    except ValueError as error:
                        self.add(at, "bad_answer", str(error))
            elif task.type == TaskType.SCORE and not isinstance(fb.answer, int):
                self.add(at, "bad_answer", f"a score answer is a whole number, not {fb.answer!r}")


def _bid_codes(kind: TaskType, rules: Rules) -> dict[str, int]:
    """How feedback may name a bid task's answers (RULES §3; §12.1 under the rob auction; §12.2 show)."""
    if kind == TaskType.SHOW:
        return {**SHOW_WORDS, "0": 0, "1": 1}
    if rules.robs:
        return {**ROB_WORDS, "0": 0, "1": 1, "2": 2}
    return {"pass": 0, "0": 0, "1": 1, "2": 2, "3": 3}


def _name(move: Combo | None) -> str:
    return "pass" if move is None else repr(move.text)


def validate_document(
    doc: LessonDocument, oracle: Oracle, tally: Tally | None = None, view: bool = False
) -> tuple[Lesson | None, list[Problem]]:
    """Every problem of one loaded lesson file (claims proven are added to ``tally``)."""
    if not isinstance(doc.data, dict):
        return None, [Problem(str(doc.path), 1, "(top)", "schema", "a lesson file is a mapping (id, title, …)")]
    problems, broken = schema_problems(doc)
    if broken is None or not isinstance(doc.data.get("steps"), list):
        return None, problems
    lesson, built = build_lesson(doc, frozenset(broken))
    problems.extend(built)
    if lesson is not None:
        checker = _Checker(doc, oracle, view, lesson.rules)
        flagged = {p.path for p in built}
        for step in lesson.steps:
            checker.check_reachable(step, flagged)
            checker.check_step(step)
        for where, text in lesson_texts(lesson):  # the browser's wording (tutor/lessons/wording.py)
            for message in browser_problems(text):
                checker.add(where, "terminal_wording", message)
        problems.extend(checker.problems)
        if tally is not None:
            tally.reachable += checker.reachable
            tally.by_kind["explained_feedback"] = tally.by_kind.get("explained_feedback", 0) + checker.explained_feedback
            tally.by_kind["explained_auto"] = tally.by_kind.get("explained_auto", 0) + checker.explained_auto
            tally.proven += checker.prover.tally.proven
            tally.unchecked += checker.prover.tally.unchecked
            for kind, n in checker.prover.tally.by_kind.items():
                tally.by_kind[kind] = tally.by_kind.get(kind, 0) + n
            tally.unclear.extend(f"{doc.path.name}: {item}" for item in checker.prover.tally.unclear)
    return lesson, problems


def _course_checks(docs: dict[str, tuple[LessonDocument, Lesson]], known: dict[str, int], report: Report) -> None:
    """Ids unique, prerequisites that exist and come earlier in the course."""
    seen: dict[str, str] = {}
    for lesson_id, (doc, lesson) in docs.items():
        del lesson_id
        if lesson.id in seen and seen[lesson.id] != str(doc.path):
            report.problems.append(Problem(str(doc.path), doc.line(("id",)), "id", "duplicate_id",
                                           f"id {lesson.id!r} is also used by {seen[lesson.id]}"))
        seen.setdefault(lesson.id, str(doc.path))
        for i, pre in enumerate(lesson.prerequisites):
            where = ("prerequisites", i)
            if pre == lesson.id:
                report.problems.append(Problem(str(doc.path), doc.line(where), format_path(where), "prerequisite",
                                               "a lesson cannot require itself"))
            elif pre not in known:
                report.problems.append(Problem(str(doc.path), doc.line(where), format_path(where), "prerequisite",
                                               f"unknown prerequisite {pre!r}"))
            elif lesson.id in known and known[pre] > known[lesson.id]:
                report.problems.append(Problem(str(doc.path), doc.line(where), format_path(where), "prerequisite",
                                               f"prerequisite {pre!r} comes later in the course"))


def expand_paths(paths: Iterable[Path | str]) -> list[Path]:
    """Files and folders → lesson files (folders contribute their ``*.yaml`` in order)."""
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        try:
            folder = path.is_dir()
        except (OSError, ValueError):  # a name too long: reading it reports the problem
            folder = False
        files.extend(lesson_files(path) if folder else [path])
    return files


def validate_paths(
    paths: Sequence[Path | str] | None = None, oracle: Oracle | None = None, view: bool = False
) -> Report:
    """Validate lesson files (default: the shipped course) and report every problem.

    Prerequisites may name lessons of the shipped course as well as the files given.
    ``view``: also weigh the claims of hidden-hand tasks with the coach's view-based
    evaluation (:mod:`tutor.lessons.view_claims`; a few seconds a task).
    """
    oracle = oracle or Oracle()
    files = expand_paths(paths if paths else [lessons_dir()])
    report = Report(files=len(files))
    loaded: dict[str, tuple[LessonDocument, Lesson]] = {}
    order: dict[str, int] = {}
    for path in files:
        try:
            doc = load_lesson_file(path)
        except LessonFileError as error:
            report.problems.append(Problem(str(path), _line_of(str(error)), "(file)", "yaml", str(error)))
            continue
        except UnreadableFile as error:
            report.problems.append(Problem(shown(path), 0, "(file)", "io", error.what))
            continue
        lesson, problems = validate_document(doc, oracle, report.claims, view)
        report.problems.extend(problems)
        if lesson is not None:
            report.lessons.append(lesson)
            loaded[f"{path}"] = (doc, lesson)
    known = {lesson.id: i for i, lesson in enumerate(_shipped_ids_in_order())}
    base = len(known)
    for i, (_, lesson) in enumerate(loaded.values()):
        known.setdefault(lesson.id, base + i)
    _course_checks(loaded, known, report)
    report.problems.sort(key=lambda p: (p.file, p.line, p.path))
    return report


def _shipped_ids_in_order() -> list[Lesson]:
    """Ids of the shipped course (light load: no solver) for prerequisite checks."""
    from tutor.lessons.course import load_course

    try:
        return load_course()
    except (LessonFileError, ValueError, OSError):
        return []


def _line_of(message: str) -> int:
    if message.startswith("line "):
        head = message[5:].split(":", 1)[0]
        number = ascii_int(head, 9)
        if number is not None:
            return number
    return 0
