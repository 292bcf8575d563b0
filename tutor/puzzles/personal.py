"""Puzzles from your own games (as lichess makes them): a proven win you missed, to find again.

After a game, every turn of the learner is looked at from the end of the game
backwards while the position is small enough for an exact proof (at most
:data:`MAX_CARDS` cards in the three hands together).  A turn becomes a
*personal puzzle* when

* the solver proves that the learner's side had a forced win there (all hands
  open, as every puzzle is), and
* the move the learner made loses: the solver proves the other side wins
  after it.

Only positions the real game reached are used — nothing is cut or changed —
so they are three-player positions with a real history.  The solution is the
solver's fastest win (with the toughest defence), the rating comes from the
same measured signals as the library's (:mod:`tutor.puzzles.difficulty`), and
Glicko-2 refines it as the learner tries it, like any other puzzle.  Several
first moves may win here (a real game does not pick only-move positions); any
winning move is accepted when solving, as in every puzzle.

The budget is counted in solver nodes, never in seconds: the same game gives
the same puzzles on any machine.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from tutor.engine.combos import Combo
from tutor.puzzles.difficulty import measure
from tutor.puzzles.generate import Generator, Limits, SolverLike, rotate_to_mover
from tutor.puzzles.model import Goal, Puzzle, Source, puzzle_id
from tutor.puzzles.themes import tag, title_for
from tutor.engine.rules import STANDARD
from tutor.solver.position import Position

if TYPE_CHECKING:
    from tutor.puzzles.progress import PuzzleProgress
    from tutor.store import Store

#: Most cards in the three hands together for a position to be proven (keeps a scan quick).
MAX_CARDS = 26
#: Solver budget per proof, in nodes (a position beyond it is skipped, never guessed).
MAX_NODES = 250_000
#: Most puzzles taken from one game (the earliest missed wins first).
PER_GAME = 3


@dataclass(frozen=True, slots=True)
class Missed:
    """A turn where the learner had a proven win and played a losing move."""

    #: The learner's turn number in the game (plays and passes, 1-based, as the coach counts).
    moment: int
    position: Position
    played: Combo | None


def game_position(game: Any) -> Position | None:
    """The open-hand solver position of a game in progress (None for other rules than the solver's)."""
    if game.landlord is None or game.is_over:
        return None
    try:
        # The one converter (Position.from_game); solved under the standard play rules, which the
        # auction variants play like (RULES §12: only the auction and the stake differ).
        return replace(Position.from_game(game), rules=STANDARD)
    except ValueError:
        return None


def learner_turns(record: Any, seat: int = 0) -> Iterator[tuple[int, Position, Combo | None]]:
    """(moment, position before, move made) for each play-phase turn of ``seat``."""
    from tutor.engine.game import replay
    from tutor.engine.record import GameRecord
    from tutor.engine.view import Turn

    start = GameRecord(record.deal_number, [], record.rules, record.landlord, record.bid, record.start)
    game = replay(start)
    moment = 0
    for action in record.actions:
        if isinstance(action, Turn) and action.seat == seat:
            moment += 1
            pos = game_position(game)
            if pos is not None:
                yield moment, pos, action.play
        game.apply_recorded(action)  # bids, robs, a shown hand and plays alike (the engine's one replay step)


#: The fields of the rules that change which plays are legal: the solver knows the standard ones.
PLAY_RULES = ("players", "min_straight", "min_pair_chain", "min_airplane", "chain_top")


def solver_rules(rules: Any) -> bool:
    """Whether a game's rules play like the solver's (variants that change only bidding or scoring do)."""
    from tutor.engine.rules import STANDARD

    return all(getattr(rules, name, None) == getattr(STANDARD, name) for name in PLAY_RULES)


def missed_wins(record: Any, solver_factory: Callable[[], SolverLike], seat: int = 0) -> list[Missed]:
    """Every small-enough turn where ``seat`` threw away a proven win (earliest first)."""
    if not solver_rules(record.rules):
        return []  # another game (four players, other chains): the solver would prove the wrong thing
    found = []
    for moment, pos, played in learner_turns(record, seat):
        if sum(len(h) for h in pos.hands) > MAX_CARDS or len(pos.legal_moves()) < 2:
            continue
        solver = solver_factory()
        result = solver.solve(pos, "win", all_moves=False)
        if result.mover_wins is not True:
            continue
        if solver.is_winning_move(pos, played) is False:
            found.append(Missed(moment, pos, played))
    return found


def make_puzzle(missed: Missed, game_id: int, solver: SolverLike) -> Puzzle | None:
    """The personal puzzle of a missed win (None when the proof does not fit the budget)."""
    pos = rotate_to_mover(missed.position)
    fastest = solver.solve(pos, "fastest", all_moves=False)
    if not fastest.complete or fastest.win_in is None or not fastest.line:
        return None
    generator = Generator(lambda: solver, Limits(extra_defences=1))
    tree = generator.build_tree(solver, pos, fastest.line)
    if tree is None:
        return None
    answer = fastest.line[0][1]
    root = solver.solve(pos, "win", all_moves=True)
    difficulty = measure(pos, answer, root.nodes, fastest.win_in)
    source = Source("game", note=f"game {game_id}, turn {missed.moment}")
    draft = Puzzle(f"my-{puzzle_id(pos)}", "", (), pos, Goal(), tree, difficulty.rating, source, difficulty)
    themes = tag(draft)
    return Puzzle(draft.id, title_for(themes, draft), tuple(themes), pos, Goal(), tree, difficulty.rating,
                  source, difficulty)


def puzzles_of_game(record: Any, game_id: int, solver_factory: Callable[[], SolverLike],
                    seat: int = 0) -> list[tuple[int, Puzzle]]:
    """(moment, puzzle) for the personal puzzles of one finished game (at most :data:`PER_GAME`)."""
    made: list[tuple[int, Puzzle]] = []
    for missed in missed_wins(record, solver_factory, seat):
        puzzle = make_puzzle(missed, game_id, solver_factory())
        if puzzle is not None and all(p.id != puzzle.id for _, p in made):
            made.append((missed.moment, puzzle))
        if len(made) >= PER_GAME:
            break
    return made


#: Finished games looked at per scan (the newest; older ones were scanned when they were new).
SCAN_GAMES = 20


def scan(store: Store, game_id: int | None = None,
         solver_factory: Callable[[], SolverLike] | None = None) -> int:
    """Look at finished games not yet scanned (or just ``game_id``); returns the new puzzles.

    Abandoned games and records that cannot be replayed are marked scanned with
    no puzzle (they are never looked at again).
    """
    from tutor.engine.record import GameRecord, RecordError
    from tutor.puzzles.progress import PuzzleProgress
    from tutor.store.games import GameStore

    factory = solver_factory or default_factory
    progress = PuzzleProgress(store)
    games = GameStore(store)
    chosen = [games.get(game_id)] if game_id is not None else list(reversed(games.history(SCAN_GAMES)))
    new = 0
    for game in chosen:
        if game is None or game.id is None or progress.scanned(game.id):
            continue
        made: list[tuple[int, Puzzle]] = []
        if not game.abandoned:
            try:
                made = puzzles_of_game(GameRecord.from_dict(game.record), game.id, factory)
            except (RecordError, ValueError):
                made = []
        new += progress.save_personal(game.id, [m for m, _ in made], [p for _, p in made])
    return new


def waiting(progress: PuzzleProgress) -> list[Puzzle]:
    """The learner's own puzzles not yet solved cleanly, oldest first."""
    last = progress.last_outcomes()
    return [p for p in progress.personal() if last.get(p.id) != "solved"]


def default_factory() -> SolverLike:
    from tutor.solver.solver import Solver

    return Solver(max_nodes=MAX_NODES)
