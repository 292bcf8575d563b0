"""Making puzzles: candidate positions in, solver-checked puzzles with one solution out.

The pipeline follows lichess-puzzler: produce many candidate positions, let an
exact engine keep only those where the side to move has a forced win with
exactly ONE winning first move (every other move loses), drop the trivial ones,
build the solution tree, tag the themes and estimate the difficulty.

Candidates come from two places (both fully determined by the seed):

* ``bot_game`` — a game between two medium bots from a deal, stopped at its
  late stage; the position at each late turn is a candidate (three players,
  real-looking endgames);
* ``random_deal`` — a few cards drawn from each hand of a deal (two or three
  players, sometimes with a play on the table), which reaches corners that
  games seldom do.

Candidates no real game reaches (a seat "passed" although its whole hand beat
the table) and "win with a bomb" puzzles that some bomb-free line also wins are
dropped (:mod:`tutor.puzzles.realism`).

The solver is injected as a factory (dependency injection): tests pass a fake
or cached one, the CLI passes the real :class:`tutor.solver.Solver` with a
time budget.  A fresh solver per candidate keeps the search-effort figure, and
so the rating, independent of what a worker happened to solve before.
"""

from __future__ import annotations

import random
import signal
import sys
import threading
from contextlib import contextmanager
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol

from tutor.engine.cards import DECK_COUNTS, Cards, packed_contains, packed_count
from tutor.engine.combos import Combo
from tutor.engine.deal import deal
from tutor.engine.moves import lead_moves_packed
from tutor.engine.rules import STANDARD
from tutor.puzzles.difficulty import measure, plausible_losing_moves
from tutor.puzzles.library import reads_back
from tutor.puzzles.model import Goal, GoalType, Node, Puzzle, Source, find_move, move_text, puzzle_id
from tutor.puzzles.realism import (
    SearchTooBig,
    impossible_passes,
    out_of_it,
    player_count_problems,
    thrown_wins,
    wins_without_bombs,
)
from tutor.puzzles.themes import tag, title_for
from tutor.solver.parallel import ignore_interrupts, interrupts_held
from tutor.solver.position import Position, Role

Move = Combo | None


class SolveResultLike(Protocol):
    mover_wins: bool | None
    winning_moves: list[Move]
    line: list[tuple[int, Move]]
    win_in: int | None
    nodes: int
    complete: bool


class SolverLike(Protocol):
    """What the puzzles area needs from a solver (``tutor.solver.Solver`` has it)."""

    def solve(self, pos: Position, objective: Any = "win", all_moves: bool = True) -> Any: ...

    def is_winning_move(self, pos: Position, move: Move) -> bool | None: ...


SolverFactory = Callable[[], SolverLike]


@dataclass(frozen=True, slots=True)
class Candidate:
    """A position to examine and where it came from."""

    position: Position
    source: Source


@dataclass(frozen=True, slots=True)
class Limits:
    """What makes a position good puzzle material (and small enough to verify fast)."""

    #: Largest hand in a two-player position.
    max_cards_two: int = 9
    #: Largest hand in a three-player position.
    max_cards_three: int = 6
    #: Fewest plausible losing first moves (an only move must have rivals).
    min_plausible_losing: int = 2
    #: Fewest plays of the solving side in the fastest win (1 would be "play your hand").
    min_win_in: int = 2
    #: Extra defences shown at the first reply of the defending side.
    extra_defences: int = 2
    #: Most search nodes the proof of the first move may take: keeps CI verification fast.
    max_root_nodes: int = 40_000


def rotate_to_mover(pos: Position) -> Position:
    """The same position with the player to move listed first (as ``ddz solve`` lists it)."""
    k = pos.to_move
    if k == 0:
        return pos
    n = pos.players
    hands = pos.hands[k:] + pos.hands[:k]
    roles = pos.roles[k:] + pos.roles[:k]
    by = None if pos.table_by is None else (pos.table_by - k) % n
    return Position(hands, roles, 0, pos.table, by, rules=pos.rules)


class Generator:
    """Turns candidates into puzzles, with the solver injected.

    Args:
        solver_factory: makes a solver; called once per candidate.
        limits: the filters (sizes, non-triviality).
    """

    def __init__(self, solver_factory: SolverFactory, limits: Limits | None = None) -> None:
        self.solver_factory = solver_factory
        self.limits = limits or Limits()

    # ---------------------------------------------------------------- filters
    def small_enough(self, pos: Position) -> bool:
        """Hands small enough to verify fast; a duel (third player out of it) may hold more."""
        idle = out_of_it(pos)
        biggest = max(len(h) for i, h in enumerate(pos.hands) if i != idle)
        cap = self.limits.max_cards_two if pos.players == 2 or idle is not None else self.limits.max_cards_three
        return biggest <= cap

    def examine(self, candidate: Candidate) -> Puzzle | None:
        """The puzzle this candidate makes, or None when it is not puzzle material."""
        pos = rotate_to_mover(candidate.position)
        if pos.is_over or not self.small_enough(pos) or impossible_passes(pos) or player_count_problems(pos):
            return None
        solver = self.solver_factory()
        root = solver.solve(pos, "win", all_moves=True)
        if not root.complete or root.mover_wins is not True or len(root.winning_moves) != 1:
            return None
        try:
            if thrown_wins(pos, solver):
                return None  # the set-up would show a side throwing a forced win away
        except SearchTooBig:
            return None
        if root.nodes > self.limits.max_root_nodes:
            return None
        only = root.winning_moves[0]
        losing = plausible_losing_moves(pos, [only])
        # "Bomb now or pass?" is a real decision even when pass is the only rival.
        bomb_now = only is not None and only.is_bomb and pos.table is not None
        if len(losing) < (1 if bomb_now else self.limits.min_plausible_losing):
            return None
        fastest = solver.solve(pos, "fastest", all_moves=False)
        if not fastest.complete or fastest.win_in is None:
            return None
        min_win_in = 1 if only is None else self.limits.min_win_in
        if fastest.win_in < min_win_in or not fastest.line or fastest.line[0][1] != only:
            return None
        tree = self.build_tree(solver, pos, fastest.line)
        if tree is None:
            return None
        difficulty = measure(pos, only, root.nodes, fastest.win_in)
        draft = Puzzle(
            id=puzzle_id(pos),
            title="",
            themes=(),
            position=pos,
            goal=Goal(),
            solution=tree,
            rating=difficulty.rating,
            source=candidate.source,
            difficulty=difficulty,
        )
        themes = tag(draft)
        goal = choose_goal(draft, themes, fastest.win_in)
        if goal.type is GoalType.WIN_WITH_BOMB:
            try:
                if wins_without_bombs(pos, solver):
                    return None  # "win with a bomb" would be false: a bomb-free win exists
            except SearchTooBig:
                return None
        made = Puzzle(
            id=draft.id,
            title=title_for(themes, draft),
            themes=tuple(themes),
            position=pos,
            goal=goal,
            solution=tree,
            rating=difficulty.rating,
            source=candidate.source,
            difficulty=difficulty,
        )
        return made if reads_back(made) else None  # never a puzzle its own file could not load

    # ------------------------------------------------------------------ trees
    def build_tree(self, solver: SolverLike, pos: Position, line: list[tuple[int, Move]]) -> Node | None:
        """The main line as a chain of nodes, plus extra defences at the first reply
        of the defending side (each followed by the solver's fastest win)."""
        side = pos.roles[pos.to_move]
        texts: list[str] = []
        positions: list[Position] = []
        walk = pos
        for _, move in line:
            positions.append(walk)
            texts.append(move_text(move, walk.legal_moves()))
            walk = walk.after(move)
        if walk.winner is not side:
            return None
        branch_at = next((i for i, p in enumerate(positions) if p.roles[p.to_move] is not side), None)
        extra: list[Node] = []
        if branch_at is not None and self.limits.extra_defences:
            extra = self._extra_defences(solver, positions[branch_at], texts[branch_at], side)
        node: Node | None = None
        for i in range(len(texts) - 1, -1, -1):
            children: tuple[Node, ...] = () if node is None else (node,)
            if i + 1 == branch_at and node is not None:
                children = (node, *extra)
            node = Node(texts[i], children)
        return node

    def _extra_defences(self, solver: SolverLike, pos: Position, main: str, side: Role) -> list[Node]:
        """Other replies of the defending side worth showing: the toughest ones after
        the main defence (real plays only), each with the winning continuation."""
        scored: list[tuple[int, str, list[tuple[int, Move]]]] = []
        legal = pos.legal_moves()
        for move in legal:
            text = move_text(move, legal)
            if move is None or text == main:
                continue
            after = pos.after(move)
            if after.is_over:
                return []  # the defender could go out: the main line would not be a forced win
            result = solver.solve(after, "fastest", all_moves=False)
            if not result.complete or result.win_in is None:
                continue
            scored.append((result.win_in, text, result.line))
        scored.sort(key=lambda item: (-item[0], item[1]))
        nodes = []
        for _, text, line in scored[: self.limits.extra_defences]:
            walk = pos.after(next(m for m in legal if move_text(m, legal) == text))
            texts = []
            for _, move in line:
                texts.append(move_text(move, walk.legal_moves()))
                walk = walk.after(move)
            if walk.winner is not side:
                continue
            node = None
            for t in reversed(texts):
                node = Node(t, () if node is None else (node,))
            nodes.append(Node(text, () if node is None else (node,)))
        return nodes


def choose_goal(puzzle: Puzzle, themes: list[str], win_in: int) -> Goal:
    """The goal line: a bomb or rocket later in the solution makes it "win with a bomb", a
    short forced win is stated as "win in N plays", anything else is "win".

    A goal never names the first move: "win with a bomb" when the answer *is* the
    bomb would give it away (:func:`tutor.puzzles.verify.check_spoiler`).
    """
    first = find_move(puzzle.position, puzzle.first_move)
    bomb_first = first is not None and first.is_bomb
    if ("bomb_finish" in themes or "rocket" in themes) and not bomb_first:
        return Goal(GoalType.WIN_WITH_BOMB)
    if win_in <= 3 and int(puzzle.id, 16) % 2 == 0:
        return Goal(GoalType.WIN_IN, win_in)
    return Goal(GoalType.WIN)


# -------------------------------------------------------------------- candidates
def _subset(rng: random.Random, hand: Cards, size: int) -> Cards:
    ranks = hand.ranks()
    return Cards.from_ranks(rng.sample(ranks, min(size, len(ranks))))


def _give(rng: random.Random, hands: list[Cards], rests: list[Cards], ranks: list[int]) -> tuple[list[Cards], list[Cards]]:
    """Move the cards ``ranks`` (a bomb's four, or the two jokers) into the mover's hand.

    Bombs and the rocket are rare in a few cards cut from a deal, yet they are
    what many endgames turn on; so some cuts hand one to the player to move,
    taking those cards from everyone else.  The mover keeps at least two other cards.
    """
    gift = Cards.from_ranks(ranks)
    hands = [Cards(h.packed & ~_rank_mask(ranks)) for h in hands]
    rests = [Cards(r.packed & ~_rank_mask(ranks)) for r in rests]
    others = hands[0].ranks()
    keep = rng.sample(others, min(len(others), max(2, len(others) - len(ranks) // 2)))
    if len(keep) < 2:
        pool = rests[0].ranks()
        keep += rng.sample(pool, min(len(pool), 2 - len(keep)))
    hands[0] = gift + Cards.from_ranks(keep)
    return hands, rests


def _rank_mask(ranks: list[int]) -> int:
    mask = 0
    for r in set(ranks):
        mask |= 0xF << (4 * r)
    return mask


def random_deal_candidates(
    number: int, seed: int, cuts: int = 4, gift_rate: float = 0.3, table_rate: float = 0.45
) -> Iterator[Candidate]:
    """Endgames cut from deal ``number``: a few cards from each hand, maybe a table play.

    ``gift_rate`` of the cuts give the player to move a bomb (two thirds) or the
    rocket (one third); see :func:`_give`.
    """
    rng = random.Random(seed * 1_000_003 + number)
    d = deal(number)
    for _ in range(cuts):
        three = rng.random() < 0.45
        players = 3 if three else 2
        landlord = rng.randrange(players)
        sizes = [rng.randint(2, 6) for _ in range(players)] if three else [rng.randint(3, 9) for _ in range(2)]
        if landlord != 0 and rng.random() < 0.2:
            sizes[landlord] = rng.randint(1, 2)  # a landlord about to go out: farmers must stop him
        hands = []
        rests = []
        for i in range(players):
            full = d.hands[i] + d.kitty if i == landlord else d.hands[i]
            part = _subset(rng, full, sizes[i])
            hands.append(part)
            rests.append(full - part)
        if any(not h for h in hands):
            continue
        gift = rng.random() / gift_rate if gift_rate > 0 else 1.0
        if gift < 1.0:
            hands, rests = _give(rng, hands, rests, [rng.randrange(13)] * 4 if gift < 2 / 3 else [13, 14])
            if any(not h for h in hands):
                continue
        roles = tuple(Role.LANDLORD if i == landlord else Role.FARMER for i in range(players))
        table: Combo | None = None
        by: int | None = None
        if rng.random() < table_rate:
            by = rng.choice([i for i in range(1, players)])
            options = [m for m in lead_moves_packed(rests[by].packed) if not m.is_bomb]
            if options:
                table = rng.choice(sorted(options))
            else:
                by = None
        pos: Position | None = Position(tuple(hands), roles, 0, table, by, rules=STANDARD)  # deal(): classic
        if pos is not None and pos.players == 2:
            pos = with_idle_farmer(pos, rng)
        if pos is None:
            continue
        yield Candidate(pos, Source("generated", "random_deal", number, seed))


def with_idle_farmer(pos: Position, rng: random.Random, most: int = 4) -> Position | None:
    """A duel (landlord against one farmer) as a real game shows it: three hands, the
    third a farmer who is out of it (:func:`tutor.puzzles.realism.out_of_it`).

    The third hand takes cards nobody holds (played earlier in the game) whose
    ranks are at most the lowest rank any other hand holds or the table shows —
    such cards can beat nothing — never four of a rank (a bomb beats everything).
    It sits after or before the mover, as ``rng`` decides.  None when no such
    card is left.
    """
    if pos.players != 2:
        raise ValueError("a duel has two players")
    used = [0] * len(DECK_COUNTS)
    for hand in pos.hands:
        for rank in hand.ranks():
            used[rank] += 1
    lows = [min(h.ranks()) for h in pos.hands if h]
    if pos.table is not None:
        table_ranks = Cards(pos.table.cards).ranks()
        lows.append(min(table_ranks))
        for rank in table_ranks:
            used[rank] += 1
    ceiling = min(lows)
    pool = [r for r in range(ceiling + 1) for _ in range(DECK_COUNTS[r] - used[r])]
    if not pool:
        return None
    size = rng.randint(1, min(most, len(pool)))
    picked = sorted(rng.sample(pool, size))
    if size == 4 and picked[0] == picked[-1]:
        picked.pop()  # four of a kind would be a bomb
    idle = Cards.from_ranks(picked)
    seat = rng.choice((1, 2))
    hands = list(pos.hands)
    roles = list(pos.roles)
    hands.insert(seat, idle)
    roles.insert(seat, Role.FARMER)
    by = None if pos.table_by is None else (pos.table_by + (1 if pos.table_by >= seat else 0))
    duel = Position(tuple(hands), tuple(roles), 0, pos.table, by, rules=pos.rules)
    return duel if out_of_it(duel) == seat else None


def bot_game_candidates(number: int, seed: int, max_cards: int = 6, turns: int = 6) -> Iterator[Candidate]:
    """Late positions of a game between medium bots on deal ``number``.

    From the moment a player is down to four cards, each position is a
    candidate (at most ``turns`` of them).  Real games rarely leave every hand
    small, and a three-player position with big hands is too slow to verify in
    CI, so a hand above ``max_cards`` keeps a seeded random ``max_cards`` of its
    cards: the shape of the fight (who leads, what is on the table, who is short)
    stays that of the game.
    """
    try:
        from tutor.bots import make_bot
        from tutor.engine.game import Game
    except ImportError:  # no bots in this build: no candidates from games
        return
    seats = STANDARD.players  # the classic game's deals (Game.with_landlord)
    landlord = (number + seed) % seats
    game = Game.with_landlord(number, landlord)
    bots = [make_bot("medium", number) for _ in range(seats)]
    taken = 0
    turn = 0
    while not game.is_over and taken < turns:
        turn += 1
        if min(len(h) for h in game.hands) <= 4:
            rng = random.Random(seed * 7919 + number * 31 + turn)
            taken += 1
            yield Candidate(_position_of(game, rng, max_cards), Source("generated", "bot_game", number, seed))
        seat = game.to_move
        game.play(bots[seat].play(game.view(seat)))


def _position_of(game: Any, rng: random.Random, max_cards: int) -> Position:
    """The solver position of a game in progress, big hands trimmed to ``max_cards``."""
    from tutor.engine.game import Game

    hands = [h if len(h) <= max_cards else _subset(rng, h, max_cards) for h in game.hands]
    # The one converter: the trimmed hands and the trick as a game, then its position (Position.from_game).
    trimmed = Game.at_trick(hands, game.landlord, game.to_move, game.table, game.table_seat, game.rules)
    return Position.from_game(trimmed)


#: Themes that ordinary cuts seldom produce, and the cut settings that find them.
FOCUSED_CUTS: dict[str, dict[str, float]] = {
    "bomb_finish": {"cuts": 6, "gift_rate": 1.0, "table_rate": 0.6},
    "rocket": {"cuts": 6, "gift_rate": 1.0, "table_rate": 0.6},
}


def candidates(number: int, seed: int, theme: str | None = None) -> Iterator[Candidate]:
    """All candidates of one deal: game positions first, then cut endgames.

    With a ``theme`` that ordinary cuts rarely give (bombs, the rocket), only
    cuts that hand the mover a bomb or the rocket are made (see :data:`FOCUSED_CUTS`).
    """
    if theme in FOCUSED_CUTS:
        settings = FOCUSED_CUTS[theme]
        yield from random_deal_candidates(
            number, seed, int(settings["cuts"]), settings["gift_rate"], settings["table_rate"]
        )
        return
    yield from bot_game_candidates(number, seed)
    yield from random_deal_candidates(number, seed)


# --------------------------------------------------------------------- driving
_worker_generator: Generator | None = None


@contextmanager
def _interrupts_ignored_by_new_interpreters() -> Iterator[None]:
    """Start spawned workers with SIGINT ignored from their first instruction.

    A spawned worker is a new interpreter (an exec), which does not keep the
    parent's blocked-signal mask; it keeps an *ignored* disposition, though. So
    a Ctrl-C sent to the whole process group while a worker is still importing
    (long on a busy machine, before ``_init_worker`` runs) cannot print a
    worker traceback. Only the main thread may change handlers; elsewhere the
    initializer alone has to do.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _init_worker(factory: SolverFactory, limits: Limits) -> None:
    global _worker_generator
    ignore_interrupts()
    _worker_generator = Generator(factory, limits)


def _work(args: tuple[int, int, str | None]) -> list[dict[str, Any]]:
    number, seed, theme = args
    assert _worker_generator is not None
    return [p.to_data() for p in deal_puzzles(_worker_generator, number, seed, theme)]


def deal_puzzles(generator: Generator, number: int, seed: int, theme: str | None = None) -> list[Puzzle]:
    """Every puzzle one deal yields (at most one per distinct position; only ``theme``'s if given)."""
    found: dict[str, Puzzle] = {}
    for candidate in candidates(number, seed, theme):
        if not generator.small_enough(rotate_to_mover(candidate.position)):
            continue
        puzzle = generator.examine(candidate)
        if puzzle is None or puzzle.id in found or (theme is not None and theme not in puzzle.themes):
            continue
        found[puzzle.id] = puzzle
    return list(found.values())


def generate(
    count: int,
    seed: int,
    solver_factory: SolverFactory,
    workers: int = 1,
    limits: Limits | None = None,
    skip_ids: set[str] | None = None,
    progress: Callable[[int], None] | None = None,
    first_deal: int | None = None,
    theme: str | None = None,
) -> list[Puzzle]:
    """Generate ``count`` new puzzles (deals ``first_deal, first_deal+1, …``).

    Args:
        count: how many puzzles to return.
        seed: fixes the deals scanned and the cuts made from them.
        solver_factory: makes the solver (injected; picklable for workers > 1).
        workers: processes working in parallel.
        skip_ids: ids already in the library (never returned again).
        progress: called with the number of puzzles found so far, as they come.
        first_deal: the first deal scanned (default ``seed × 100000``).
        theme: keep only puzzles with this theme (bombs and the rocket get focused cuts).
    """
    limits = limits or Limits()
    skip = set(skip_ids or ())
    start = seed * 100_000 if first_deal is None else first_deal
    found: list[Puzzle] = []

    def accept(items: list[Puzzle]) -> bool:
        for puzzle in items:
            if puzzle.id in skip:
                continue
            skip.add(puzzle.id)
            found.append(puzzle)
            if progress:
                progress(len(found))
            if len(found) >= count:
                return True
        return False

    if workers <= 1:
        generator = Generator(solver_factory, limits)
        number = start
        while len(found) < count:
            if accept(deal_puzzles(generator, number, seed, theme)):
                break
            number += 1
        return found[:count]

    import multiprocessing

    # Forked on Linux: a forked worker runs its initializer (die with the parent) at once, where a
    # spawned one first reads its start-up data from the parent's pipe, and a parent killed during
    # that read left it printing an EOFError traceback (tests/solver/test_parent_death.py, load 25).
    ctx = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")
    batch_size = workers * 4
    number = start
    with interrupts_held(), _interrupts_ignored_by_new_interpreters():
        # workers ignore Ctrl-C (_init_worker); `with pool` terminates them on any exit
        pool = ctx.Pool(workers, initializer=_init_worker, initargs=(solver_factory, limits))
    with pool:
        while len(found) < count:
            numbers = [(n, seed, theme) for n in range(number, number + batch_size)]
            number += batch_size
            done = False
            for batch in pool.imap(_work, numbers, chunksize=1):
                if accept([Puzzle.from_data(d) for d in batch]):
                    done = True
                    break
            if done:
                pool.terminate()
                break
    return found[:count]
