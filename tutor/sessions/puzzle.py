"""One attempt at a puzzle, headless: moves in, events out.

:class:`tutor.puzzles.solving.Attempt` judges every move (the model all
sessions follow); this session adds the flow around it — reading the
learner's selection into a legal move (with the "which reading?" choice as
data), when an attempt is recorded (not when nothing was tried), the rating
and streak it earns, and how a random puzzle is picked.

Example (also in ``docs/api.md``)::

    session = PuzzleSession(puzzle, solver)
    events = session.start()
    while not session.finished:
        events = session.play(session.attempt.expected_move())
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING

from tutor.engine.combos import Combo
from tutor.i18n import Phrase
from tutor.puzzles.model import GoalType, Puzzle
from tutor.puzzles.solving import INTERACTIVE_NODES, Attempt, Outcome, Played
from tutor.sessions.events import Options, StatusLine
from tutor.solver.position import Position, Role

if TYPE_CHECKING:
    from tutor.coach.status import PlayStatus
    from tutor.puzzles.generate import SolverLike
    from tutor.puzzles.library import Library
    from tutor.puzzles.progress import AttemptRecord, PuzzleProgress



def seat_phrase(puzzle: Puzzle, player: int) -> Phrase:
    """A seat named from the learner's chair ("You", "Your partner", "Landlord", "Farmer (right)").

    Data, not text, so the terminal and the web page name seats alike, each in
    the learner's language.
    """
    pos = puzzle.position
    learner = pos.to_move
    if player == learner:
        return Phrase("puzzles.you")
    if pos.roles[player] is pos.roles[learner]:
        return Phrase("puzzles.partner")
    if pos.roles[player] is Role.LANDLORD:
        return Phrase("puzzles.landlord")
    if pos.players == 2:
        return Phrase("puzzles.farmer")
    return Phrase("puzzles.farmer_right" if (player - learner) % pos.players == 1 else "puzzles.farmer_left")


def goal_phrase(puzzle: Puzzle) -> Phrase:
    """The goal shown before solving ("Landlord to move: win in 3"): it names no theme, and says how many
    first plays win ("only one", or for a personal puzzle with several "2 of 5")."""
    side = Phrase("puzzles.side_landlord" if puzzle.solver_side is Role.LANDLORD else "puzzles.side_farmers")
    if puzzle.goal.type is GoalType.WIN_IN:
        return plural("puzzles.goal_win_in", puzzle.goal.plays or 0, side=side)
    if puzzle.goal.type is GoalType.WIN_WITH_BOMB:
        return Phrase("puzzles.goal_win_with_bomb", {"side": side})
    if puzzle.goal.type is GoalType.WIN_BOMBS:  # a personal puzzle's bigger win
        return _bombs_goal(puzzle, side)
    from tutor.puzzles.personal import FOUND, SEVERAL, moment_of

    moment = moment_of(puzzle)
    if moment is not None and moment.kind in (SEVERAL, FOUND):  # a personal puzzle with several winning plays says so
        return plural("puzzles.goal_win_several", moment.plays, side=side, wins=moment.wins)
    return Phrase("puzzles.goal_win", {"side": side})


def _bombs_goal(puzzle: Puzzle, side: Phrase) -> Phrase:
    """"Win with N bombs or rockets played (the stake ×2**N)", and how many first plays keep it (issue 30,
    eighth pass: the score search proves both)."""
    from tutor.puzzles.personal import moment_of

    bombs = puzzle.goal.bombs or 0
    moment = moment_of(puzzle)
    values: dict[str, object] = {"side": side, "x": 2 ** bombs}
    if moment is not None and moment.wins > 1:
        return plural("puzzles.goal_win_bombs_several", bombs, wins=moment.wins, plays=moment.plays, **values)
    return plural("puzzles.goal_win_bombs", bombs, **values)


def plural(key: str, n: int, **values: object) -> Phrase:
    """``key_one``/``key_few``/``key_many`` by the count's grammatical number, rendered late.

    English has two forms (1 puzzle, 2 puzzles: ``_one`` and ``_many``), Russian
    three (1 задача, 2 задачи, 5 задач; 21 takes the first); the form is picked
    when the phrase is rendered, in the language it is rendered in.  A ``key_1``
    entry, when a catalogue has one, words exactly one without the number.
    """
    return _Plural(key, {"n": n, **values})


class _Plural(Phrase):
    __slots__ = ()

    def render(self, lang: str | None = None) -> str:
        from tutor.i18n import language

        from tutor.i18n import lookup

        chosen = lang or language()
        n = int(str(self.values["n"]))
        if n == 1 and lookup(f"{self.key}_1", chosen):  # "a missed win" rather than "1 missed win"
            return Phrase(f"{self.key}_1", self.values).render(chosen)
        return Phrase(f"{self.key}_{plural_form(n, chosen)}", self.values).render(chosen)


def plural_form(n: int, lang: str) -> str:
    """The plural form of ``n`` in ``lang``: "one", "few" or "many" (English: "one" or "many")."""
    n = abs(n)
    if lang == "ru":
        if n % 10 == 1 and n % 100 != 11:
            return "one"
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            return "few"
        return "many"
    return "one" if n == 1 else "many"


def moment_phrase(puzzle: Puzzle, counts: bool = True) -> Phrase | None:
    """Which moment of the learner's games a personal puzzle is, or None for any other puzzle: a win
    missed, an only move found, a win missed where several plays win ("3 of 9 plays win"), or the
    partner's turn ("your side could have won here").  Shown with the goal and in the lists, so the
    learner knows what to look for — it names no move (issue 30, sixth pass).  Beside the goal line
    (``counts=False``) the several kinds leave out "3 of 9 plays win": the goal already says it."""
    from tutor.puzzles.personal import FASTEST, FOUND, ONLY_MOVE, SEVERAL, STAKE, moment_of

    moment = moment_of(puzzle)
    if moment is None:
        return None
    where = {"game": moment.game, "turn": moment.turn}
    if moment.kind == FASTEST:  # one play at the fastest pace of a kept win (issue 30, round 15), whoever's seat
        key = (f"mine.kind_opponent_{moment.opponent}" if moment.opponent
               else "mine.kind_partner" if moment.partner else "mine.kind") + "_fastest"
        return plural(key, moment.pace, **where)
    if moment.kind == FOUND:  # a win kept with one of a few winning plays (issue 30, round 14), whoever's seat
        key = (f"mine.kind_opponent_{moment.opponent}" if moment.opponent
               else "mine.kind_partner" if moment.partner else "mine.kind") + "_found"
        return plural(key + "_several", moment.plays, wins=moment.wins, **where) if counts else Phrase(key, where)
    if moment.kind == STAKE:  # the win was kept, a higher stake was not: "×4 was proven"
        return plural("mine.kind_partner_stake" if moment.partner else "mine.kind_stake", moment.bombs,
                      x=2 ** moment.bombs, **where)
    if moment.opponent:  # an opponent's win thrown away, set from their seat
        key = f"mine.kind_opponent_{moment.opponent}"
        if moment.kind == SEVERAL and counts:
            return plural(key + "_several", moment.plays, wins=moment.wins, **where)
        if moment.kind == ONLY_MOVE:  # the only winning move, found by the opponent (issue 30, ninth pass)
            return Phrase(key + "_only_move", where)
        return Phrase(key, where)
    key = "mine.kind_partner" if moment.partner else "mine.kind_missed"
    if moment.kind == SEVERAL and counts:
        return plural(("mine.kind_partner" if moment.partner else "mine.kind") + "_several", moment.plays,
                      wins=moment.wins, **where)
    if moment.kind == ONLY_MOVE:  # the learner's find, or the partner's (issue 30, tenth pass)
        key = "mine.kind_partner_only_move" if moment.partner else "mine.kind_only_move"
    return Phrase(key, where)


def moment_data(puzzle: Puzzle) -> dict[str, object]:
    """A personal puzzle's moment as data (``ddz puzzle mine --json``, ``GET /api/puzzle/mine``): its kind
    (missed, only_move, several, stake, partner, partner_several, partner_stake, partner_only_move, opponent,
    opponent_several, opponent_only_move, found_several, partner_found_several, opponent_found_several, fastest,
    partner_fastest, opponent_fastest), game,
    turn, for several
    winning plays how many of how many (for a stake, the plays that keep it and its bombs; for the fastest, its
    pace), and the words
    (:func:`moment_phrase`); empty for any other puzzle."""
    from tutor.puzzles.personal import FASTEST, FOUND, SEVERAL, STAKE, moment_of

    moment, phrase = moment_of(puzzle), moment_phrase(puzzle)
    if moment is None or phrase is None:
        return {}
    data: dict[str, object] = {"kind": moment.label, "game": moment.game, "turn": moment.turn}
    if moment.kind in (SEVERAL, FOUND):
        data.update(winning_plays=moment.wins, plays=moment.plays)
    if moment.kind == STAKE:
        data.update(bombs=moment.bombs, winning_plays=moment.wins, plays=moment.plays)
    if moment.kind == FASTEST:
        data.update(pace=moment.pace)
    data["moment"] = phrase.render()
    return data


def idle_phrase(puzzle: Puzzle) -> Phrase | None:
    """Why a duel has a third hand that does not matter (shown with the goal), or None.

    A real game always has three hands; in a duel the third player holds
    cards that can beat nothing any other hand can ever play
    (:func:`tutor.puzzles.realism.out_of_it`), so it only ever passes.
    """
    from tutor.puzzles.realism import out_of_it

    idle = out_of_it(puzzle.position)
    if idle is None:
        return None
    return Phrase("puzzles.idle_note", {"who": seat_phrase(puzzle, idle),
                                        "cards": str(puzzle.position.hands[idle])})


def display_title(puzzle: Puzzle) -> str:
    """The title in the current language: generated titles are rebuilt from the themes.

    Shown only once the puzzle is over: a title names the idea ("bomb finish")
    and would give the answer away.
    """
    from tutor.i18n import t
    from tutor.puzzles.themes import TITLE_ORDER

    if puzzle.source.kind == "composed":
        return puzzle.title
    who = t("puzzles.title_landlord") if puzzle.solver_side is Role.LANDLORD else t("puzzles.title_farmer")
    main = next((theme.value for theme in TITLE_ORDER if theme.value in puzzle.themes), None)
    return f"{who}: {t(f'puzzles.theme_{main}') if main else t('puzzles.title_only_win')}"


@dataclass(frozen=True, slots=True)
class PuzzleStarted:
    puzzle: Puzzle
    #: The puzzle's rating for this learner (None: the puzzle's own).
    rating: float | None
    daily: date | None


@dataclass(frozen=True, slots=True)
class MovesMade:
    """Moves made by the position's script or the other side (shown in order)."""

    played: tuple[Played, ...]


@dataclass(frozen=True, slots=True)
class PositionShown:
    """The position now (all hands face up): draw it."""

    attempt: Attempt


@dataclass(frozen=True, slots=True)
class NotLegal:
    """The selection can be played in general but is not a legal move here."""


@dataclass(frozen=True, slots=True)
class Correct:
    replies: tuple[Played, ...]


@dataclass(frozen=True, slots=True)
class LineStep:
    """One move of a line shown to the learner, with the positions around it.

    A front end steps through a line with these (previous / next move, each
    position drawn), instead of listing the moves.
    """

    played: Played
    before: Position
    after: Position
    #: The moves of the trick so far, this one last (a lead starts a new trick): what lies on the table.
    trick: tuple[Played, ...]


def line_steps(start: Position, played: Sequence[Played]) -> tuple[LineStep, ...]:
    """The positions along ``played`` from ``start`` (the moves are the line's, already legal)."""
    steps = []
    position = start
    trick: tuple[Played, ...] = ()
    for item in played:
        after = position.after(item.move)
        trick = (item,) if position.table is None else (*trick, item)
        steps.append(LineStep(item, position, after, trick))
        position = after
    return tuple(steps)


@dataclass(frozen=True, slots=True)
class Unclear:
    """A move the solver could not settle within its budget: neither played nor counted as a mistake.

    Saying "that loses" would be unproven (the numbers decide the words); the learner tries another move.
    """


@dataclass(frozen=True, slots=True)
class Wrong:
    """A wrong move, not played: how the other side wins after it."""

    refutation: tuple[Played, ...]
    #: The position the wrong move was tried in (the refutation starts there).
    start: Position | None = None
    #: The move keeps the win but not the stake the goal asks for (a "win with N bombs" goal): the line shows
    #: the defence holding the bombs down, and the words say the win was kept.
    keeps_win: bool = False

    @property
    def steps(self) -> tuple[LineStep, ...]:
        return line_steps(self.start, self.refutation) if self.start is not None else ()


@dataclass(frozen=True, slots=True)
class PuzzleHint:
    """Hint ``level`` 1 names the kind of the winning move, level 2 the move."""

    level: int
    move: Combo | None


@dataclass(frozen=True, slots=True)
class SolutionShown:
    played: tuple[Played, ...]
    #: The position the solution was played out from.
    start: Position | None = None

    @property
    def steps(self) -> tuple[LineStep, ...]:
        return line_steps(self.start, self.played) if self.start is not None else ()


@dataclass(frozen=True, slots=True)
class PuzzleOver:
    """The end of the attempt: solved or not, the themes, and what was recorded."""

    solved: bool
    themes: tuple[str, ...]
    #: None when nothing was recorded (no move, no hint) or there is no store.
    record: AttemptRecord | None
    #: The daily streak after this attempt (None when not the daily puzzle).
    streak: int | None


PuzzleEvent = (
    PuzzleStarted | MovesMade | PositionShown | StatusLine | Options | NotLegal | Correct | Wrong | Unclear
    | PuzzleHint | SolutionShown | PuzzleOver
)


def default_solver() -> SolverLike:
    """The exact solver with the interactive budget (imported on use: it is heavy)."""
    from tutor.engine.rules import STANDARD
    from tutor.solver.solver import Solver

    return Solver(max_nodes=INTERACTIVE_NODES, rules=STANDARD)  # puzzles are classic endgames


def pick_random(library: Library, theme: str | None, rating: float, rng: random.Random,
                exclude: set[str] | None = None) -> Puzzle:
    """A random puzzle of ``theme`` near ``rating`` (the 30 closest, unseen ones first)."""
    from tutor.puzzles.themes import Theme

    pool = library.with_theme(Theme.parse(theme).value) if theme else list(library)
    if not pool:
        raise ValueError(f"no puzzle with theme {theme!r}")
    fresh = [p for p in pool if p.id not in (exclude or set())] or pool
    fresh.sort(key=lambda p: (abs(p.rating - rating), p.id))
    return rng.choice(fresh[:30])


def with_personal(library: Library, progress: PuzzleProgress) -> Library:
    """The shipped library and the learner's own puzzles (from their games) as one library."""
    from tutor.puzzles.library import Library as Whole

    return Whole([*library, *progress.personal()])


def replay_queue(library: Library, progress: PuzzleProgress, theme: str | None = None) -> list[str]:
    """The failed puzzles waiting for another try (``ddz puzzle replay``), oldest first.

    Only those still in the library; ``theme`` narrows the queue to one theme.
    """
    from tutor.puzzles.themes import Theme

    wanted = Theme.parse(theme).value if theme else None
    return [ident for ident in progress.to_replay(wanted) if ident in library]


class PuzzleSession:
    """One attempt at ``puzzle``, recorded in ``progress`` (when given) at the end.

    Args:
        puzzle: the puzzle.
        solver: injected (tests pass a cached one); the exact solver by default.
        progress: the learner's puzzle progress (None: nothing recorded).
        day: the date the attempt counts for.
        daily: whether this is the daily puzzle (streaks).
    """

    def __init__(self, puzzle: Puzzle, solver: SolverLike | None = None, progress: PuzzleProgress | None = None,
                 day: date | None = None, daily: bool = False) -> None:
        self.puzzle = puzzle
        self.attempt = Attempt(puzzle, solver if solver is not None else default_solver())
        self.progress = progress
        self.day = day or date.today()
        self.daily = daily
        self.over: PuzzleOver | None = None
        self._pending: list[Combo] = []

    @property
    def finished(self) -> bool:
        return self.over is not None

    @property
    def learners_own_seat(self) -> bool:
        """True when the learner moves for their own seat (False: for their partner)."""
        pos = self.attempt.position
        return pos.to_move == self.puzzle.position.to_move

    @property
    def choosing(self) -> int:
        """How many readings wait for a choice (0: none)."""
        return len(self._pending) if len(self._pending) > 1 else 0

    def start(self) -> list[PuzzleEvent]:
        rating = self.progress.puzzle_rating(self.puzzle).rating if self.progress is not None else None
        events: list[PuzzleEvent] = [PuzzleStarted(self.puzzle, rating, self.day if self.daily else None)]
        played = self.attempt.start()
        if played:
            events.append(MovesMade(tuple(played)))
        return events + self._next()

    def _next(self) -> list[PuzzleEvent]:
        if self.attempt.finished:
            return self._finish()
        return [PositionShown(self.attempt)]

    def _status(self, text: str) -> tuple[StatusLine, PlayStatus]:
        from tutor.coach.status import play_status

        pos = self.attempt.position
        hand = pos.hands[pos.to_move]
        status = play_status(hand, pos.table, text)
        return StatusLine(hand, pos.table, text, False, status.ok), status

    def look(self, text: str) -> list[PuzzleEvent]:
        """Cards raised, not played: the status line only (nothing judged, nothing recorded)."""
        if self.finished or not text.strip():
            return []
        return [self._status(text)[0]]

    def select(self, text: str) -> list[PuzzleEvent]:
        """Cards typed: the status line, then the move if it is one legal move, or the choice."""
        line, status = self._status(text)
        events: list[PuzzleEvent] = [line]
        self._pending = []
        if not status.ok or status.cards is None:
            return events
        legal = [m for m in self.attempt.legal_moves() if m is not None]
        options = [m for m in legal if m.cards == status.cards.packed]
        if not options:
            return events + [NotLegal()]
        if len(options) == 1:
            return events + self.play(options[0])
        self._pending = options
        return events + [Options(tuple(options))]

    def choose(self, number: int) -> list[PuzzleEvent]:
        """Pick reading ``number`` (1-based) of the choice offered; anything else keeps asking."""
        if not 1 <= number <= len(self._pending):
            return []
        move, self._pending = self._pending[number - 1], []
        return self.play(move)

    def pass_(self) -> list[PuzzleEvent]:
        pos = self.attempt.position
        hand = pos.hands[pos.to_move]
        if pos.table is None:
            return [StatusLine(hand, pos.table, "pass", True, False)]
        return [StatusLine(hand, pos.table, "pass", True, True), *self.play(None)]

    def play(self, move: Combo | None) -> list[PuzzleEvent]:
        """A move for the learner's side (a legal move of the position)."""
        before = self.attempt.position
        check = self.attempt.play(move)
        if check.unclear:
            return [Unclear()]
        if not check.correct:
            return [Wrong(tuple(check.refutation), before, check.keeps_win)]
        return [Correct(tuple(check.replies)), *self._next()]

    def hint(self) -> list[PuzzleEvent]:
        level, move = self.attempt.hint()
        return [PuzzleHint(level, move)]

    def solution(self) -> list[PuzzleEvent]:
        before = self.attempt.position
        return [SolutionShown(tuple(self.attempt.show_solution()), before), *self._finish()]

    def stop(self) -> list[PuzzleEvent]:
        """Leave the puzzle; the attempt is recorded when something was tried."""
        return self._finish()

    def _finish(self) -> list[PuzzleEvent]:
        if self.over is not None:
            return []
        attempt = self.attempt
        record = None
        streak = None
        tried = not (attempt.outcome is Outcome.UNFINISHED and not attempt.history and not attempt.hints)
        if self.progress is not None and tried:
            record = self.progress.record(attempt, self.day, self.daily)
            if self.daily:
                streak = self.progress.streak(self.day)[0]
        solved = attempt.finished and not attempt.used_solution
        self.over = PuzzleOver(solved, tuple(self.puzzle.themes), record, streak)
        return [self.over]
