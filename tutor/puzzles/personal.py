"""Puzzles from your own games (as lichess makes them): a proven win you missed, to find again.

After a game, every turn of the learner is looked at from the end of the game
backwards while the position is small enough for an exact proof (at most
:data:`MAX_CARDS` cards in the three hands together) and the game's budget of
solver nodes lasts (:data:`SCAN_NODES`).  A turn becomes a *personal puzzle*
when the solver proves that the learner's side had a forced win there (all
hands open, as every puzzle is), and either

* the move the learner made loses — a **missed win** — or
* it was the **only winning move** among at least :data:`ONLY_MOVE_CHOICES`
  legal ones (kicker choices aside: "the trio of 6s with a 7 or a 9" is one
  play), it does not simply play out the hand, and the learner found it:
  a hard position worth finding again;

and in both, only one play wins there (kickers aside).  More kinds came with issue 30's sixth and
eighth passes, where a beginner's games gave too few of those:

* a **missed win with several winning plays** (:data:`SEVERAL`): the move played loses, two or more
  plays win but at most :data:`SEVERAL_SHARE` of the legal ones (a real choice); the puzzle says how
  many of how many win ("3 of 9 plays win"), accepts each (solving asks the solver off the tree), and
  shows the fastest;
* the **partner's missed win** (the learner a farmer, :data:`PARTNER_TURNS`): the side had a proven win
  and the partner's move threw it away (one winning play, or several as above); the puzzle is set from
  the partner's seat and labelled as the partner's turn;
* a **bigger win let go** (:data:`STAKE`, eighth pass): the move played keeps the side's win, but the score
  search proves the side could have forced more bombs and rockets into the rest of the game (each doubles
  the stake) — a bomb kept in hand; the goal is "win with N more bombs or rockets played", and solving holds
  the learner to it;
* an **opponent's thrown win** (:data:`OPPONENT_TURNS`, eighth pass): set from the opponent's seat ("the
  landlord's turn 6: he could have won here"); deals 11-30 of benchmarks/personal_puzzles.py gave 6 puzzles
  with it instead of 2, losing none;
* an **opponent's only winning move, found** (:data:`OPPONENT_FINDS`, ninth pass): the move that beat the
  learner, with the bar of the learner's own only move, set from the opponent's seat ("the landlord's turn 8:
  the only winning move — he found it"); proven after the scan within :data:`FIND_NODES` of its own;
* the **partner's only winning move, found** (:data:`PARTNER_FINDS`, tenth pass): the same, from the partner's
  seat (the learner a farmer) — a hard move of the learner's own side — within :data:`FIND_NODES` of its own.
* a **win kept with one of a few winning plays** (:data:`FOUND`, round 14): the move played keeps the side's win,
  two plays or more win but at most :data:`SEVERAL_SHARE` of the legal ones — the bar of :data:`SEVERAL`, for a
  move that was found — the learner's, the partner's or an opponent's, set from the mover's seat ("you kept the win
  — 2 of 5 plays win"); every winning play must be accepted by solving (:func:`_accepts_every`); made last.
* the **fastest win** (:data:`FASTEST`, round 15): a kept win where more plays win than any other kind allows, but
  one play only wins at the fastest pace the side can force — the goal "win in N", as the library's; from any seat,
  proven after every other find within :data:`FASTEST_NODES`, made last.

The score search of the bigger wins asks "can the side force k more bombs?" since the ninth pass (docs/solver.md):
the same answers, in far fewer nodes, so it now finishes at the bomb-holding turns of real games.

Issue 30: the first version looked only at positions of at most 26 cards and
only at missed wins, and three games of a beginner (the easy bot in the
learner's seat) gave nothing: a beginner's decisive mistakes come earlier, at
30-36 cards (measured: ``benchmarks/personal_puzzles.py``), where the old
window never looked.

Only positions the real game reached are used — nothing is cut or changed —
so they are three-player positions with a real history.  The solution is the
solver's fastest win (with the toughest defence), the rating comes from the
same measured signals as the library's (:mod:`tutor.puzzles.difficulty`), and
Glicko-2 refines it as the learner tries it, like any other puzzle.  As every
puzzle, it has one winning first play — every legal first move is proven, and
the winning ones are one play up to its kickers ("the trio of 6s with the 7 or
the 9"), any of which is accepted when solving — and its fastest win needs
:data:`MIN_PLAYS` plays at least (issue 30, fifth pass: before, a missed win
became a puzzle however many first moves won; deal 5's had five).

The budget is counted in solver nodes, never in seconds: the same game gives
the same puzzles on any machine (with the same build).  The scan's solver (:func:`scan_factory`) settles
the positions where one farmer beats the landlord alone with the compiled
two-player core (:mod:`tutor.solver.lone_farmer`: the same verdicts; deals 11-20 of
benchmarks/personal_puzzles.py took 0.2 s of CPU a game instead of 1.1); the puzzle
is made with the plain search.  With the compiled three-player search (:mod:`tutor.solver.team_native`,
issue 30's fourth pass) both run in C, and the scan looks at every turn of the game with ten times the
node budgets (:data:`COMPILED`; figures in docs/puzzles.md).  The puzzle's solution, the fastest line, is
searched with the lean fastest search (:data:`LEAN_FASTEST`, issue 30, round 7): the plain one's line in far
fewer nodes, so the solutions of 33-39-card moments fit the proof's budget (deal 1's took 58 million nodes
of the plain search, 1.9 million of the lean one).  Since issue 30's eleventh pass the scan gives a game up after
:data:`UNPROVEN_RUN` turns in a row whose side stays unproven (the earlier turns, larger still, held no moment in
sixty beginner games and took half the nodes), and a proven moment whose fastest line does not fit a proof's budget
gets a second try within the game's :data:`MAKE_PROOFS` (docs/puzzles.md, "Eleventh pass").  Since the twelfth
pass the scan's compiled search tries every play by the plays its hand needs after it (:data:`ORDER`): the same
verdicts, more of the 37-54-card turns settled within the same budgets.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Protocol

from tutor.engine.combos import Combo
from tutor.puzzles.difficulty import measure
from tutor.puzzles.generate import Generator, Limits, SolverLike, rotate_to_mover
from tutor.puzzles.model import PERSONAL_PREFIX, Goal, GoalType, Puzzle, Source, find_move, puzzle_id
from tutor.puzzles.themes import tag, title_for
from tutor.engine.rules import STANDARD
from tutor.solver.position import Position, Role
from tutor.solver.team_native import ORDER_MERGED, available as team_native_available

if TYPE_CHECKING:
    from tutor.puzzles.progress import PuzzleProgress
    from tutor.store import Store

#: Is the three-player search compiled (tutor/solver/_team.c)?  It expands the same nodes as the Python one
#: about 25 times faster, so the scan's budgets below are larger with it; without it (no C compiler, or
#: ``DDZ_PURE_PYTHON=1``) the scan keeps the budgets it always had.
COMPILED = team_native_available()
#: Most cards in the three hands together for a position to be proven (every turn, with the compiled search).
MAX_CARDS = 54 if COMPILED else 36
#: Solver budget per proof, in nodes (a position beyond it is skipped, never guessed).
MAX_NODES = 3_000_000 if COMPILED else 300_000
#: Solver budget of one game's scan, in nodes: the turns nearest the end are proven first, and the scan
#: stops when it is spent (the same game gives the same puzzles on any machine with the same build —
#: compiled or not — in bounded work).
SCAN_NODES = 30_000_000 if COMPILED else 2_000_000
#: Legal moves a position needs for its only winning move, found by the learner, to count as hard.
ONLY_MOVE_CHOICES = 3
#: Settle positions where one farmer beats the landlord alone with the compiled two-player core
#: (:mod:`tutor.solver.lone_farmer`): the same verdicts, reached in far fewer nodes.
LONE_FARMER = True
#: Fewest plays of the learner's side in the fastest forced win of a puzzle (as every puzzle of the library).
MIN_PLAYS = 2
#: The scan's solver keeps the half of its three-player table with the most cards when the table is full,
#: instead of clearing it (``Solver(thin=True)``): its proofs of the later turns keep serving the earlier ones.
THIN = True
#: Make the puzzle's solution with the lean fastest search (``Solver.lean_fastest``; issue 30, round 7): the same
#: fastest line and win_in as the plain search, in a small share of its nodes, so the solutions of big
#: positions (33-39 cards) fit :data:`MAX_NODES`.
LEAN_FASTEST = True
#: Most puzzles taken from one game (the earliest first).
PER_GAME = 3

#: The kinds of moment (:attr:`Missed.kind`): a win missed with one winning play, a hard only move found,
#: a win missed where several plays win (issue 30, sixth pass: "3 of 9 plays win").
MISSED, ONLY_MOVE, SEVERAL = "missed", "only_move", "several"
#: A bigger win thrown away (issue 30, eighth pass): the move played keeps the side's win, but the side could
#: have forced more bombs and rockets into the rest of the game (each doubles the stake): a bomb kept in hand.
STAKE = "stake"
#: Look for :data:`STAKE` moments (the score search, within :data:`STAKE_NODES` a turn).
STAKE_TURNS = True
#: Solver budget of the score search at one turn, in nodes.  The score search walks the side's winning moves in
#: Python (each of its nodes asks the compiled win search), so a node costs far more CPU than a proof's: with
#: the whole :data:`MAX_NODES`, one 25-card turn took minutes of CPU on a loaded machine (issue 30, eighth pass);
#: a tenth keeps a game's scan within the CPU of the seventh pass.  Beyond it a turn is skipped, never guessed.
STAKE_NODES = MAX_NODES // 10
#: Scan the partner's turns too when the learner is a farmer (issue 30, sixth pass): the side's win thrown
#: away by the partner's move is set from the partner's seat ("your partner's turn").
PARTNER_TURNS = True
#: Scan the opponents' turns too (issue 30, eighth pass): an opponent's move that threw a proven win of theirs
#: away, set from the opponent's seat ("the landlord's turn 6: he could have won here").  The game's budget
#: (:data:`SCAN_NODES`) is shared with the side's own turns; measured, none of their puzzles was lost.
OPPONENT_TURNS = True
#: Also the opponents' **only winning moves found** (issue 30, ninth pass; with :data:`OPPONENT_TURNS`): where an
#: opponent kept their proven win with the one winning play among :data:`ONLY_MOVE_CHOICES` legal ones at least
#: (not going out), the position is set from their seat — the move that beat the learner, to find again.  The
#: bar of the learner's own only move; proven after the scan, within :data:`FIND_NODES` of its own, and made
#: after the game's other moments (:data:`PER_GAME`), so it takes no budget or place from them.
OPPONENT_FINDS = True
#: Solver budget, in nodes, of one game's opponents' only moves (:data:`OPPONENT_FINDS`): apart from
#: :data:`SCAN_NODES`, so a game's scan is bounded by the sum.
FIND_NODES = SCAN_NODES // 3
#: Also the **partner's only winning moves found** (issue 30, tenth pass; the learner a farmer, with
#: :data:`PARTNER_TURNS`): where the partner kept the side's proven win with the one winning play among
#: :data:`ONLY_MOVE_CHOICES` legal moves at least (not going out) — the bar of the learner's own only move — the
#: position is set from the partner's seat ("your partner's turn 9: the only winning move — your partner found
#: it"), a hard move of the learner's own side to find again.  Proven after the scan and the opponents' finds,
#: within :data:`FIND_NODES` of its own (so it takes no budget from either), and made after the game's other
#: moments (:data:`PER_GAME`).
PARTNER_FINDS = True
#: The scan gives up a game when this many turns in a row (going back from the end, all seats) leave the mover's
#: side unproven within :data:`MAX_NODES` (issue 30, eleventh pass).  Going back, the positions only grow, and a
#: side unproven at two turns in a row stayed unproven at almost every earlier turn: over deals 1-60 of
#: benchmarks/personal_puzzles.py those earlier turns spent 52 % of the scan's nodes (3.1 M each, the whole
#: proof's budget) and held no moment.  None: never give up (the scan runs until :data:`SCAN_NODES` is spent).
UNPROVEN_RUN: int | None = 2
#: Solver budget of one game's second tries at a puzzle's fastest line (issue 30, eleventh pass), in
#: :data:`MAX_NODES` (read when the game is scanned, so a test's smaller proofs shrink it too): a moment proven by
#: the scan whose fastest line does not fit a proof's budget is tried once more with what is left of it (deal 37's
#: 41-card moment needs 23 million nodes).  A game's scan is bounded by :data:`SCAN_NODES` + 2 × :data:`FIND_NODES`
#: + the making (each puzzle's solves within :data:`MAX_NODES`; a second try's two searches, the win proof and the
#: fastest line, each within what is left: a game's second tries within twice this).
MAKE_PROOFS = 10
#: The move order of the scan's compiled three-player search (issue 30, round 12; ``Solver(order=...)``, the bits of
#: :mod:`tutor.solver.team_native`): the same verdicts as the plain order, which proves the 37-54-card positions of a
#: beginner's game more slowly (docs/puzzles.md, "Twelfth pass").  The puzzle itself is made with the plain order
#: (:func:`default_factory`: its node count rates the puzzle).  0: the plain order.
ORDER = ORDER_MERGED
#: The proof-number search's second try (issue 30, round 13; ``Solver.prove``, the compiled df-pn): where the scan
#: has proven one winning play and the others stay unproven within their budgets — the only move still open —
#: each open first move is tried once more by the proof-number search, within this many expanded positions a move
#: (counted, no clock), stopping at the first that stays open or wins (then no only move: the rest need no proof).
#: Proving "this move loses" is the other side's search for one refutation at each of its turns, which the
#: proof-number search finds by expanding the position whose proof needs the fewest positions still open.
#: 0: no second try — the default since round 13's merge: on 110 beginner games it settled 9 open first moves as
#: second winners and made no puzzle, for +1.8 s of scan CPU a game (docs/puzzles.md, "Thirteenth pass").
#: :data:`PNS_TRY_NODES` is the setting measured there (``benchmarks/personal_puzzles.py --pns-move-nodes``).
PNS_MOVE_NODES = 0
#: The second try's budget a move when it is switched on (round 13's measured setting).
PNS_TRY_NODES = 2 * MAX_NODES if COMPILED else 0
#: Most positions the proof-number search expands in one game's scan (all its second tries): bounded by nodes.
PNS_NODES = 4 * MAX_NODES
#: A win **kept with one of a few winning plays** (issue 30, round 14): the move played keeps the side's proven win,
#: two or more plays win but at most :data:`SEVERAL_SHARE` of the legal ones — the bar of a :data:`SEVERAL` missed
#: win, for a move that was found.  The learner's own such turns cost nothing more (their every first move is already
#: proven for the only move); the opponents' and the partner's kept wins, whose proof stops at a second winning play,
#: are proven on after every other find, within :data:`FOUND_NODES` of their own, so no earlier kind loses a node or
#: a puzzle, and they are made last (:data:`PER_GAME`): they never displace one.
FOUND = "found"
#: Look for :data:`FOUND` moments (round 14; ``benchmarks/personal_puzzles.py --no-found``).
FOUND_SEVERAL = True
#: Solver budget, in nodes, of one game's proofs of the others' kept wins with several winning plays (:data:`FOUND`):
#: apart from :data:`SCAN_NODES` and :data:`FIND_NODES`, so a game's scan is bounded by the sum.
FOUND_NODES = FIND_NODES
#: The **fastest win** (issue 30, round 15): a kept win where many plays win (no other kind), but one play only
#: (kickers aside) wins in the fewest plays the side can force against every defence — the puzzle's goal is "win in
#: N" (:attr:`GoalType.WIN_IN`, as the library's), and solving holds the learner to that pace, as lichess's "mate in
#: N" accepts only the shortest mate.  Any seat (the learner's, the partner's, an opponent's), set from the mover's;
#: proven after every other find, latest turn first, within :data:`FASTEST_NODES` of its own, and made last.
FASTEST = "fastest"
#: Look for :data:`FASTEST` moments (round 15; ``benchmarks/personal_puzzles.py --no-fastest``).
FASTEST_TURNS = True
#: Solver budget, in nodes, of one game's :data:`FASTEST` proofs (the pace, then one "within N - 1 more plays?"
#: question a first move): apart from the other budgets, so a game's scan is bounded by the sum.  One proof's: the
#: moments are small positions (deal 84's three, 30-38 cards, took 4 000 nodes in all; a 44-card one 3.5 million,
#: and its line did not fit the making's budget).
FASTEST_NODES = MAX_NODES
#: Fewest plays in a :data:`FASTEST` puzzle's pace: a win in two is one play and going out — seen, not found.
FASTEST_PLAYS = 3
#: Most plays of a :data:`FASTEST` puzzle's pace looked for (the deepening stops there: no puzzle beyond).
FASTEST_MOST = 12


@dataclass(frozen=True, slots=True)
class Missed:
    """A turn where the learner had a proven win: a losing move played, or the only winning one found."""

    #: The learner's turn number in the game (plays and passes, 1-based, as the coach counts).
    moment: int
    position: Position
    played: Combo | None
    #: :data:`MISSED` (the move played loses, one play wins), :data:`ONLY_MOVE` (the only winning move,
    #: found) or :data:`SEVERAL` (the move played loses, ``wins`` of the ``plays`` win).
    kind: str = MISSED
    #: The move was the learner's partner's (the learner a farmer): the side's win, thrown away by the partner.
    partner: bool = False
    #: Winning plays and legal plays of the position, kickers aside (a :data:`SEVERAL` moment's count).
    wins: int = 1
    plays: int = 0
    #: The turn's index among all the game's play-phase turns (orders the learner's and the partner's).
    index: int = 0
    #: A :data:`STAKE` moment's bombs and rockets the side could force into the rest of the game (the stake
    #: doubled that many times more), where the move played keeps fewer.
    bombs: int = 0
    #: The move was an opponent's (:data:`OPPONENT_TURNS`): their win, thrown away; set from their seat.
    opponent: bool = False
    #: A :data:`SEVERAL` moment's first moves proven to win (kickers included): solving must accept each,
    #: so the puzzle is made only when every one is provable within the interactive budget (:func:`_accepts_every`).
    winners: tuple[Combo | None, ...] = ()
    #: A :data:`FASTEST` moment's pace: the side's plays in its fastest forced win (the goal "win in N").
    pace: int = 0


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


def play_turns(record: Any) -> Iterator[tuple[int, Position | None, Combo | None]]:
    """(seat, position before, move made) for every play-phase turn of the game, in order (the
    position None where the solver cannot read it)."""
    from tutor.engine.game import replay
    from tutor.engine.record import GameRecord
    from tutor.engine.view import Turn

    start = GameRecord(record.deal_number, [], record.rules, record.landlord, record.bid, record.start)
    game = replay(start)
    for action in record.actions:
        if isinstance(action, Turn):
            yield action.seat, game_position(game), action.play
        game.apply_recorded(action)  # bids, robs, a shown hand and plays alike (the engine's one replay step)


def learner_turns(record: Any, seat: int = 0) -> Iterator[tuple[int, Position, Combo | None]]:
    """(moment, position before, move made) for each play-phase turn of ``seat``."""
    moment = 0
    for who, pos, played in play_turns(record):
        if who == seat:
            moment += 1
            if pos is not None:
                yield moment, pos, played


#: The fields of the rules that change which plays are legal: the solver knows the standard ones.
PLAY_RULES = ("players", "decks", "wild_rank", "min_straight", "min_pair_chain", "min_airplane", "chain_top")


def solver_rules(rules: Any) -> bool:
    """Whether a game's rules play like the solver's (variants that change only bidding or scoring do)."""
    from tutor.engine.rules import STANDARD

    return all(getattr(rules, name, None) == getattr(STANDARD, name) for name in PLAY_RULES)


def _same(a: Combo | None, b: Combo | None) -> bool:
    return (a is None and b is None) or (a is not None and b is not None and a.cards == b.cards
                                         and a.kind == b.kind)


def _move_wins(solver: ScanSolver, pos: Position, move: Combo | None) -> tuple[bool | None, int]:
    """Whether ``move`` wins for the side to move in ``pos`` (None: beyond the budget), and the nodes spent:
    the position after it, solved for whoever moves next (a partner's win is the mover's)."""
    after = pos.after(move)
    if after.is_over:
        return after.winner == pos.side(pos.to_move), 0
    result = solver.solve(after, "win", all_moves=False, line=False)
    if result.mover_wins is None:
        return None, int(result.nodes)
    same_side = after.side(after.to_move) == pos.side(pos.to_move)
    return bool(result.mover_wins) == same_side, int(result.nodes)


def _play_of(move: Combo | None) -> tuple[int, int, int] | None:
    """A move up to its kickers (kind, length, main rank): "the trio of 8s with a single" is one play,
    whichever single goes with it — the idea found is the same."""
    return None if move is None else (int(move.kind), move.length, move.main)


def _goes_out(pos: Position, move: Combo | None) -> bool:
    """The move empties the mover's hand: winning with it is seeing it, not finding it."""
    return move is not None and move.size == len(pos.hands[pos.to_move])


class ScanSolver(SolverLike, Protocol):
    """A solver that can skip the principal line (a scan wants verdicts only: the line can cost more)."""

    #: Its node budget a call (the scan sets it for each round of :func:`first_moves`).
    max_nodes: int | None

    def solve(self, pos: Position, objective: Any = "win", all_moves: bool = True,
              line: bool = True) -> Any: ...


#: Most nodes for proving that only one play wins in a position where a win is proven (the moves still
#: open, one by one in :data:`ROUNDS`), in :data:`MAX_NODES`; whether the side to move wins at all takes
#: at most :data:`MAX_NODES`.
ONE_PLAY_PROOFS = 2
#: Whether each first move wins (None: not proven within the budgets).
Verdicts = dict[Combo | None, bool | None]
#: The rounds in which a position's first moves are proven one by one, each move's budget a share of
#: :data:`MAX_NODES` (the last the whole): a hard first move no longer spends the position's budget
#: before an easy winning one is tried, and what a round proved stays in the solver's tables for the next.
ROUNDS = (0.01, 0.1, 1.0)


def first_moves(solver: ScanSolver, pos: Position, every: bool, known: Verdicts | None = None,
                last: Combo | None = None, cap: int | None = None,
                enough: Callable[[Verdicts], bool] | None = None) -> tuple[Verdicts, int]:
    """Whether each legal first move of ``pos`` wins (None: beyond the budgets), and the nodes spent.

    The moves are proven in :data:`ROUNDS` of rising node budgets, each move on its own budget; with
    ``every`` False the proof stops at the first winning move (the side to move wins).  At most ``cap``
    nodes in all (default :data:`MAX_NODES`, a proof's budget), never more than :data:`MAX_NODES` a move:
    bounded by nodes, never by a clock.  ``known``: verdicts already proven (kept); ``last``: the move
    tried last in each round (the move played: the game's own continuation may show it lost for
    nothing, :func:`_refuted_in_game`); ``enough``: stop as soon as it holds of the verdicts so far (an only
    move's proof ends at a second winning play)."""
    moves = sorted(pos.legal_moves(), key=lambda move: _same(move, last))  # a stable sort: ``last`` last
    verdicts: Verdicts = {move: None for move in moves}
    verdicts.update({move: v for move, v in (known or {}).items() if v is not None})
    cap = MAX_NODES if cap is None else cap
    shipped = solver.max_nodes
    spent = 0
    try:
        for share in ROUNDS:
            for move, verdict in verdicts.items():
                if verdict is None and spent < cap:
                    solver.max_nodes = max(1, min(int(MAX_NODES * share), cap - spent))
                    verdicts[move], nodes = _move_wins(solver, pos, move)
                    spent += nodes
                if verdicts[move] and (not every or enough is not None and enough(verdicts)):
                    return verdicts, spent
            if None not in verdicts.values() or spent >= cap:
                break
    finally:
        solver.max_nodes = shipped
    return verdicts, spent


def _refuted_in_game(solver: ScanSolver, turns: list[tuple[int, Position | None, Combo | None]],
                     index: int) -> tuple[bool, int]:
    """The game itself shows that the move of turn ``index`` lost: the first later position where the
    mover's side is to move again is proven lost for it — the opponents' moves in between are the
    refutation (each side's choice exists, so the game's choice is a witness).  False: not shown."""
    mover = turns[index][1]
    assert mover is not None
    side = mover.side(mover.to_move)
    for _, pos, _ in turns[index + 1:]:
        if pos is None:
            return False, 0
        if pos.side(pos.to_move) == side:
            result = solver.solve(pos, "win", all_moves=False, line=False)
            return result.mover_wins is False, int(result.nodes)
    return False, 0


#: Most winning plays of a :data:`SEVERAL` moment, as a share of its legal plays (kickers aside): finding one
#: of them must be a real choice, not any move.
SEVERAL_SHARE = 0.5


def partner_seat(pos: Position, seat: int) -> int | None:
    """The learner's partner in ``pos`` (the other farmer), or None when the learner is the landlord."""
    if pos.roles[seat] is Role.LANDLORD:
        return None
    return next((s for s in range(pos.players) if s != seat and pos.roles[s] is pos.roles[seat]), None)


#: Whose move a scanned turn is: the learner's, the partner's, an opponent's (:data:`OPPONENT_TURNS`).
OWN, PARTNER, OPPONENT = "own", "partner", "opponent"


def _scanned_turns(every_turn: list[tuple[int, Position | None, Combo | None]], seat: int,
                   max_cards: int) -> list[tuple[int, int, Position, Combo | None, str]]:
    """(index, moment, position, move made, whose) for the turns worth proving: the learner's and (with
    :data:`PARTNER_TURNS`) the partner's, (with :data:`OPPONENT_TURNS`) the opponents', each with a choice and
    within ``max_cards``; ``moment`` counts that seat's own turns."""
    first = next((pos for _, pos, _ in every_turn if pos is not None), None)
    partner = partner_seat(first, seat) if PARTNER_TURNS and first is not None else None
    opponents = () if first is None or not OPPONENT_TURNS else tuple(
        s for s in range(first.players) if first.roles[s] is not first.roles[seat])
    moments = {s: 0 for s in (seat, partner, *opponents)}
    turns = []
    for index, (who, pos, played) in enumerate(every_turn):
        if who not in moments:
            continue
        moments[who] += 1
        if pos is not None and sum(len(h) for h in pos.hands) <= max_cards and len(pos.legal_moves()) >= 2:
            whose = OWN if who == seat else PARTNER if who == partner else OPPONENT
            turns.append((index, moments[who], pos, played, whose))
    return turns


def _kind(pos: Position, every: Verdicts, lost: bool) -> tuple[str, int, int] | None:
    """(kind, winning plays, legal plays) of a position whose first moves are all proven, or None when it
    is no puzzle: one winning play (kickers aside) is :data:`MISSED` or :data:`ONLY_MOVE`; after a losing
    move, two or more winning plays, at most :data:`SEVERAL_SHARE` of the legal ones, are :data:`SEVERAL`."""
    wins = len({_play_of(m) for m, v in every.items() if v})
    plays = len({_play_of(m) for m in pos.legal_moves()})
    if wins == 1:
        return (MISSED if lost else ONLY_MOVE), wins, plays
    if lost and 2 <= wins <= SEVERAL_SHARE * plays:
        return SEVERAL, wins, plays
    return None


def _holds_bomb(pos: Position, side: Role) -> bool:
    """Whether a hand of ``side`` holds a bomb or the rocket: without one, the side cannot force the stake up
    (the score search counts the losers' bombs too, but they play the fewest)."""
    for hand, role in zip(pos.hands, pos.roles):
        counts = hand.counts
        if role is side and (any(n == 4 for n in counts[:13]) or (counts[13] and counts[14])):
            return True
    return False


def _stake(solver: ScanSolver, pos: Position, played: Combo | None) -> tuple[dict[str, Any], int]:
    """Whether the move played, which keeps the side's win, gives up a higher stake: (what the score search
    proved, nodes).  The dict holds ``bombs`` (the most bombs and rockets the side can force into the rest
    of the game, None beyond the budget), ``kept`` ("fewer" when the move played keeps fewer),
    ``wins``/``plays`` (the plays reaching ``bombs``, the legal plays, kickers aside) and ``win_in`` (the
    side's plays in the score line).  Every first move is proven by the score search (it values each)."""
    if not _holds_bomb(pos, pos.roles[pos.to_move]):
        return {"bombs": 0}, 0
    shipped = solver.max_nodes
    solver.max_nodes = STAKE_NODES
    try:
        result = solver.solve(pos, "score")
    finally:
        solver.max_nodes = shipped
    nodes = int(result.nodes)
    if not result.complete or result.bombs is None or not result.mover_wins:
        return {"bombs": None}, nodes
    info: dict[str, Any] = {"bombs": int(result.bombs)}
    if result.bombs == 0 or any(_same(m, played) for m in result.best_moves):
        info["kept"] = info["bombs"]
        return info, nodes
    # The score search valued every winning first move exactly: the move played, not the best, keeps fewer.
    info["kept"] = "fewer"
    info["wins"] = len({_play_of(m) for m in result.best_moves})
    info["plays"] = len({_play_of(m) for m in pos.legal_moves()})
    side = pos.roles[pos.to_move]
    info["win_in"] = sum(1 for who, m in result.line if m is not None and pos.roles[who] is side)
    return info, nodes


def missed_wins(record: Any, solver_factory: Callable[[], ScanSolver], seat: int = 0,
                budget: int | None = None, max_cards: int | None = None,
                log: Callable[[dict[str, Any]], None] | None = None) -> list[Missed]:
    """The moments of ``seat``'s game worth a puzzle (earliest first): proven wins thrown away (by the
    learner, or by the partner of a farmer), higher stakes thrown away (:data:`STAKE`), and only winning
    moves found (:data:`ONLY_MOVE_CHOICES` legal moves at least).

    Turns are proven from the end of the game backwards (the small positions first) until
    ``budget`` solver nodes are spent; a position whose proof does not fit its own budget
    (the factory's solver) is skipped, never guessed.  One solver serves the whole game, so the
    proofs of the later turns (kept in its tables) shorten the proofs of the earlier ones; a move
    played is first tried against the game's own continuation (:func:`_refuted_in_game`).
    ``log``: called with what was proven at each turn looked at, and why it is or is not a puzzle (the
    measurements of docs/puzzles.md; benchmarks/personal_puzzles.py ``--log``).
    """
    if not solver_rules(record.rules):
        return []  # another game (four players, other chains): the solver would prove the wrong thing
    budget = SCAN_NODES if budget is None else budget
    max_cards = MAX_CARDS if max_cards is None else max_cards
    every_turn = list(play_turns(record))
    solver = solver_factory()
    found = []
    finds: list[tuple[Missed, Verdicts]] = []  # the opponents' kept wins with a choice: only moves? (after)
    partner_finds: list[tuple[Missed, Verdicts]] = []  # the partner's, the same question (after those)
    fast: list[Missed] = []  # the kept wins with a choice: one play at the fastest pace? (FASTEST, last of all)
    spent = 0
    pns = [PNS_NODES]  # what is left of the game's proof-number search budget (_settle_open)
    unproven = 0  # turns in a row whose side is unproven (UNPROVEN_RUN)
    for index, moment, pos, played, whose in reversed(_scanned_turns(every_turn, seat, max_cards)):
        by_partner, by_opponent = whose == PARTNER, whose == OPPONENT
        if spent >= budget:
            break
        turn_start = spent  # the turn's nodes go in its log line (where a game's budget goes)
        entry: dict[str, Any] = {"index": index, "moment": moment, "partner": by_partner, "opponent": by_opponent,
                                 "cards": sum(len(h) for h in pos.hands), "legal": len(pos.legal_moves()),
                                 "played": "pass" if played is None else played.text}
        verdicts, nodes = first_moves(solver, pos, every=False, last=played)  # one win is enough: MAX_NODES
        spent += nodes
        if not any(verdicts.values()):
            entry["side"] = "unknown" if None in verdicts.values() else "lost"
            unproven = unproven + 1 if entry["side"] == "unknown" else 0
            if log is not None:
                log({**entry, "nodes": spent - turn_start})
            if UNPROVEN_RUN is not None and unproven >= UNPROVEN_RUN:
                break  # the earlier turns are larger still: their nodes go to nothing (UNPROVEN_RUN)
            continue
        unproven = 0
        entry["side"] = "wins"
        wins = next((verdict for move, verdict in verdicts.items() if _same(move, played)), None)
        if wins is None:
            refuted, nodes = _refuted_in_game(solver, every_turn, index)
            spent += nodes
            wins = False if refuted else None
        if wins is None:
            wins, nodes = _move_wins(solver, pos, played)
            spent += nodes
        entry["move"] = {True: "keeps", False: "loses", None: "unknown"}[wins]
        if wins and FASTEST_TURNS and len({_play_of(m) for m in pos.legal_moves()}) >= ONLY_MOVE_CHOICES \
                and not _goes_out(pos, played):
            fast.append(Missed(moment, pos, played, FASTEST, by_partner, index=index, opponent=by_opponent))
        if wins and STAKE_TURNS and not by_opponent:
            stake, nodes = _stake(solver, pos, played)
            spent += nodes
            entry["stake"] = stake
            if stake.get("kept") == "fewer" \
                    and (stake["wins"] == 1 or stake["wins"] <= SEVERAL_SHARE * stake["plays"]) \
                    and stake["win_in"] >= MIN_PLAYS:
                entry["kind"] = STAKE
                found.append(Missed(moment, pos, played, STAKE, by_partner, stake["wins"], stake["plays"],
                                    index, stake["bombs"]))
                if log is not None:
                    log({**entry, "nodes": spent - turn_start})
                continue
        if wins is None or wins and (by_partner or by_opponent or len(pos.legal_moves()) < ONLY_MOVE_CHOICES
                                     or _goes_out(pos, played)):
            if wins and (by_opponent or by_partner) and len(pos.legal_moves()) >= ONLY_MOVE_CHOICES \
                    and not _goes_out(pos, played):
                (finds if by_opponent else partner_finds).append(
                    (Missed(moment, pos, played, ONLY_MOVE, by_partner, index=index, opponent=by_opponent), verdicts))
            if log is not None:
                log({**entry, "nodes": spent - turn_start})
            continue  # the partner's good moves are not the learner's finds
        known = {move: False if wins is False and _same(move, played) else v for move, v in verdicts.items()}
        # how many winning plays?  every move proven
        every, nodes = first_moves(solver, pos, every=True, known=known, cap=ONE_PLAY_PROOFS * MAX_NODES)
        spent += nodes
        every = _settle_open(solver, pos, every, pns, entry)
        entry["wins"] = len({_play_of(m) for m, v in every.items() if v})
        entry["plays"] = len({_play_of(m) for m in pos.legal_moves()})
        entry["unproven"] = sum(1 for v in every.values() if v is None)
        kind = None if None in every.values() else _kind(pos, every, lost=wins is False)
        if kind is None and wins and FOUND_SEVERAL and None not in every.values():
            kind = _found_several(pos, every)
        if kind is not None:
            entry["kind"] = kind[0]
            winners = tuple(m for m, v in every.items() if v) if kind[0] in (SEVERAL, FOUND) else ()
            found.append(Missed(moment, pos, played, kind[0], by_partner, kind[1], kind[2], index,
                                opponent=by_opponent, winners=winners))
        if log is not None:
            log({**entry, "nodes": spent - turn_start})
    several: list[tuple[Missed, Verdicts]] = []  # the others' kept wins with two winning plays (FOUND, last)
    if OPPONENT_FINDS:
        found += _finds_of_others(solver, finds, log, pns, several)
    if PARTNER_FINDS:
        found += _finds_of_others(solver, partner_finds, log, pns, several)
    if FOUND_SEVERAL:
        found += _several_found(solver, several, log)
    if FASTEST_TURNS:
        taken = {m.index for m in found}
        found += _fastest_found(solver, [m for m in fast if m.index not in taken], log)
    # the others' finds after the other moments, the kept wins with several plays last (PER_GAME takes the
    # first): they never displace one
    return sorted(found, key=lambda m: (m.kind == FASTEST, m.kind == FOUND, _found_by_other(m), m.index))


def _fastest_found(solver: ScanSolver, fast: list[Missed],
                   log: Callable[[dict[str, Any]], None] | None) -> list[Missed]:
    """The kept wins where one play only keeps the fastest pace (:data:`FASTEST`), latest turn first (the smaller
    positions), within :data:`FASTEST_NODES` in all, after every other find (so none of theirs loses a node).

    The pace N is the fastest search's (every defence, the toughest); a first move keeps it when the side can
    still win within N - 1 more plays after it (N after a pass): one question of the fastest search a move
    (``Solver.wins_within``).  A first move left unsettled, or a second play at the pace, and there is no puzzle."""
    questions = getattr(solver, "wins_within", None)
    if questions is None:
        return []  # a solver without the fastest search's questions (a test's)
    made = []
    spent = 0
    shipped = solver.max_nodes
    try:
        for missed in fast:
            if spent >= FASTEST_NODES:
                break
            pos = missed.position
            side = pos.roles[pos.to_move]
            within = questions(pos.roles, side)  # one search for the candidate's questions: its table serves all
            start = spent
            pace: int | None = None
            for plays_left in range(FASTEST_PLAYS - 1, FASTEST_MOST + 1):  # the pace, by deepening
                solver.max_nodes = max(1, min(MAX_NODES, FASTEST_NODES - spent))
                reached, nodes = within(pos, plays_left)
                spent += nodes
                if reached is not False:
                    pace = plays_left if reached else None
                    break
            entry: dict[str, Any] = {"index": missed.index, "moment": missed.moment, "partner": missed.partner,
                                     "opponent": missed.opponent, "fastest": True,
                                     "cards": sum(len(h) for h in pos.hands), "pace": pace}
            at_pace: dict[Combo | None, bool | None] = {}
            if pace is not None and pace >= FASTEST_PLAYS:
                for move in pos.legal_moves():
                    if spent >= FASTEST_NODES or len({_play_of(m) for m, v in at_pace.items() if v}) > 1:
                        break
                    solver.max_nodes = max(1, min(MAX_NODES, FASTEST_NODES - spent))
                    at_pace[move], nodes = within(pos.after(move), pace - (move is not None))
                    spent += nodes
            plays = len({_play_of(m) for m in pos.legal_moves()})
            fastest = {_play_of(m) for m, v in at_pace.items() if v}
            settled = len(at_pace) == len(pos.legal_moves()) and None not in at_pace.values()
            entry.update(at_pace=len(fastest), plays=plays, settled=settled)
            if pace is not None and pace >= FASTEST_PLAYS and settled and len(fastest) == 1:
                entry["kind"] = FASTEST
                made.append(replace(missed, wins=1, plays=plays, pace=pace,
                                    winners=tuple(m for m, v in at_pace.items() if v)))
            if log is not None:
                log({**entry, "nodes": spent - start})
    finally:
        solver.max_nodes = shipped
    return made


def _found_several(pos: Position, every: Verdicts) -> tuple[str, int, int] | None:
    """(:data:`FOUND`, winning plays, legal plays) of a kept win whose first moves are all proven, when two plays
    or more win but at most :data:`SEVERAL_SHARE` of the legal ones (a real choice, the bar of :data:`SEVERAL`);
    else None."""
    wins = len({_play_of(m) for m, v in every.items() if v})
    plays = len({_play_of(m) for m in pos.legal_moves()})
    return (FOUND, wins, plays) if 2 <= wins <= SEVERAL_SHARE * plays else None


def _several_found(solver: ScanSolver, several: list[tuple[Missed, Verdicts]],
                   log: Callable[[dict[str, Any]], None] | None) -> list[Missed]:
    """The opponents' and the partner's kept wins with a few winning plays (:data:`FOUND`): each position whose
    proof stopped at a second winning play (:func:`_finds_of_others`) is proven on — every first move, stopping
    as soon as more than :data:`SEVERAL_SHARE` of the plays win — within :data:`FOUND_NODES` in all, after every
    other find (so none of theirs loses a node)."""
    made = []
    spent = 0
    for missed, verdicts in several:
        if spent >= FOUND_NODES:
            break
        pos = missed.position
        plays = len({_play_of(m) for m in pos.legal_moves()})

        def too_many(found: Verdicts, plays: int = plays) -> bool:
            return len({_play_of(m) for m, v in found.items() if v}) > SEVERAL_SHARE * plays

        every, nodes = first_moves(solver, pos, every=True, known=verdicts,
                                   cap=min(ONE_PLAY_PROOFS * MAX_NODES, FOUND_NODES - spent), enough=too_many)
        spent += nodes
        unproven = sum(1 for v in every.values() if v is None)
        kind = None if unproven else _found_several(pos, every)
        entry: dict[str, Any] = {"index": missed.index, "moment": missed.moment, "partner": missed.partner,
                                 "opponent": missed.opponent, "find": True, "several": True,
                                 "cards": sum(len(h) for h in pos.hands),
                                 "wins": len({_play_of(m) for m, v in every.items() if v}), "plays": plays,
                                 "unproven": unproven, "nodes": nodes}
        if kind is not None:
            entry["kind"] = FOUND
            made.append(replace(missed, kind=FOUND, wins=kind[1], plays=kind[2],
                                winners=tuple(m for m, v in every.items() if v)))
        if log is not None:
            log(entry)
    return made


def _found_by_other(missed: Missed) -> bool:
    """An only move found by an opponent or by the partner (:data:`OPPONENT_FINDS`, :data:`PARTNER_FINDS`): made
    after the game's other moments, so it never displaces one."""
    return missed.kind == ONLY_MOVE and (missed.opponent or missed.partner)


def _two_plays_win(verdicts: Verdicts) -> bool:
    """Two plays (kickers aside) are proven to win: no only move, the rest need no proof."""
    return len({_play_of(m) for m, v in verdicts.items() if v}) >= 2


def _settle_open(solver: ScanSolver, pos: Position, every: Verdicts, pns: list[int],
                 entry: dict[str, Any]) -> Verdicts:
    """``every`` with its open first moves tried once more by the proof-number search (:data:`PNS_MOVE_NODES` a
    move, out of what is left of the game's :data:`PNS_NODES` in ``pns[0]``), when one winning play is proven and
    moves stay open — the only move still undecided; else ``every`` as it is.  It stops at the first move left
    open or proven to win (no only move then).  ``entry`` (the turn's log line) gets ``pns``: the moves settled
    and the positions expanded.  A solver without ``prove`` (a test's) is not asked."""
    prove = getattr(solver, "prove", None)
    open_moves = [move for move, verdict in every.items() if verdict is None]
    if prove is None or not open_moves or PNS_MOVE_NODES <= 0 \
            or len({_play_of(m) for m, v in every.items() if v}) != 1:
        return every
    settled, used = 0, 0
    every = dict(every)
    for move in open_moves:
        if pns[0] <= 0:
            break
        after = pos.after(move)
        before = solver.pns_nodes()  # type: ignore[attr-defined]
        verdict = prove(after, min(PNS_MOVE_NODES, pns[0]))
        nodes = solver.pns_nodes() - before  # type: ignore[attr-defined]
        pns[0] -= nodes
        used += nodes
        if verdict is None:
            break
        wins = bool(verdict) == (after.side(after.to_move) == pos.side(pos.to_move))
        every[move] = wins
        settled += 1
        if wins:
            break
    entry["pns"] = {"settled": settled, "open": len(open_moves), "nodes": used}
    entry["unproven"] = sum(1 for v in every.values() if v is None)
    return every


def _finds_of_others(solver: ScanSolver, finds: list[tuple[Missed, Verdicts]],
                    log: Callable[[dict[str, Any]], None] | None, pns: list[int] | None = None,
                    several: list[tuple[Missed, Verdicts]] | None = None) -> list[Missed]:
    """The opponents' (or the partner's: :data:`PARTNER_FINDS`) only winning moves found
    (:data:`OPPONENT_FINDS`), latest turn first (the smaller positions), every first move proven, within
    :data:`FIND_NODES` in all (one budget for each call); the moves left open by one winning play, tried once
    more by the proof-number search within what is left of ``pns`` (:func:`_settle_open`)."""
    made = []
    spent = 0
    for missed, verdicts in finds:
        if spent >= FIND_NODES:
            break
        pos = missed.position
        every, nodes = first_moves(solver, pos, every=True, known=verdicts, cap=ONE_PLAY_PROOFS * MAX_NODES,
                                   enough=_two_plays_win)
        spent += nodes
        tried: dict[str, Any] = {}  # the second try's log ("pns"), when there is one
        if pns is not None:
            every = _settle_open(solver, pos, every, pns, tried)
            tried.pop("unproven", None)  # counted below
        wins = len({_play_of(m) for m, v in every.items() if v})
        plays = len({_play_of(m) for m in pos.legal_moves()})
        unproven = sum(1 for v in every.values() if v is None)
        entry: dict[str, Any] = {"index": missed.index, "moment": missed.moment, "partner": missed.partner,
                                 "opponent": missed.opponent, "find": True,
                                 "cards": sum(len(h) for h in pos.hands), "wins": wins, "plays": plays,
                                 "unproven": unproven, "nodes": nodes, **tried}
        if wins == 1 and not unproven:
            entry["kind"] = ONLY_MOVE
            made.append(replace(missed, plays=plays))
        elif several is not None and 2 <= wins <= SEVERAL_SHARE * plays:
            several.append((missed, every))  # a few winning plays, perhaps (FOUND): proven on after every find
        if log is not None:
            log(entry)
    return made


def make_puzzle(missed: Missed, game_id: int, solver: SolverLike) -> Puzzle | None:
    """The personal puzzle of a missed win (None when the proof does not fit the budget)."""
    return make_within(missed, game_id, solver)[0]


def _fastest(solver: SolverLike, pos: Position, extra: int) -> tuple[Any, int]:
    """The fastest search's result for ``pos`` within the solver's budget, tried once more within ``extra``
    nodes when its line does not fit (:data:`MAKE_PROOFS`); and the nodes of that second try."""
    fastest = solver.solve(pos, "fastest", all_moves=False)
    shipped = getattr(solver, "max_nodes", None)
    if fastest.line or extra <= 0 or shipped is None:
        return fastest, 0  # a line, or a solver without a node budget
    setattr(solver, "max_nodes", extra)  # the same solver: the first try's proofs stay in its tables
    try:
        again = solver.solve(pos, "fastest", all_moves=False)
    finally:
        setattr(solver, "max_nodes", shipped)
    return again, int(again.nodes)


def make_within(missed: Missed, game_id: int, solver: SolverLike, extra: int = 0) -> tuple[Puzzle | None, int]:
    """The personal puzzle of a moment (None when its proofs do not fit the budgets), and the nodes spent on a
    second try at its fastest line within ``extra`` (:data:`MAKE_PROOFS`: what is left of the game's)."""
    if missed.kind == STAKE:
        return _stake_puzzle(missed, game_id, solver), 0
    pos = rotate_to_mover(missed.position)
    fastest, again = _fastest(solver, pos, extra)
    if not fastest.complete or fastest.win_in is None or fastest.win_in < MIN_PLAYS or not fastest.line:
        return None, again
    if missed.kind == FASTEST and fastest.win_in != missed.pace:
        return None, again  # the puzzle's own search must find the pace the scan proved (never guessed)
    generator = Generator(lambda: solver, Limits(extra_defences=1))
    tree = generator.build_tree(solver, pos, fastest.line)
    if tree is None:
        return None, again
    answer = fastest.line[0][1]
    root = solver.solve(pos, "win", all_moves=True)
    difficulty = measure(pos, answer, root.nodes, fastest.win_in)
    source = Source("game", note=note_of(missed, game_id))
    goal = Goal(GoalType.WIN_IN, plays=missed.pace) if missed.kind == FASTEST else Goal()
    draft = Puzzle(f"{PERSONAL_PREFIX}{puzzle_id(pos)}", "", (), pos, goal, tree, difficulty.rating, source, difficulty)
    if not _accepts_every(draft, missed.winners):
        return None, again
    themes = tag(draft)
    return Puzzle(draft.id, title_for(themes, draft), tuple(themes), pos, goal, tree, difficulty.rating,
                  source, difficulty), again


def _accepts_every(puzzle: Puzzle, winners: tuple[Combo | None, ...]) -> bool:
    """Whether solving ``puzzle`` would accept each of ``winners`` (the first moves the scan proved to win).

    Solving judges a move off the solution tree by proving it with the interactive budget
    (:data:`tutor.puzzles.solving.INTERACTIVE_NODES`, a fresh solver per attempt); a winning play it cannot
    prove there would be called a mistake — false.  The scan may prove what that budget cannot (its own
    order and tables: issue 30, round 12, deal 25's fifth winning play), so each one is proven again as the
    attempt would, one fresh solver a move, and a puzzle with one left open is not made.  At most
    ``len(winners)`` times the interactive budget.
    """
    from tutor.puzzles import solving
    from tutor.solver.solver import Solver

    first = find_move(puzzle.position, puzzle.first_move)
    for move in winners:
        if move == first:
            continue  # the tree's own move: accepted without a proof
        judge = Solver(max_nodes=solving.INTERACTIVE_NODES, rules=STANDARD)
        if puzzle.goal.type is GoalType.WIN_IN:  # the pace too (a FASTEST puzzle's other kickers): as solving judges
            if not solving.Attempt(puzzle, judge).play(move).correct:
                return False
        elif judge.is_winning_move(puzzle.position, move) is not True:
            return False
    return True


def _stake_puzzle(missed: Missed, game_id: int, solver: SolverLike) -> Puzzle | None:
    """The puzzle of a bigger win thrown away (:data:`STAKE`): "win with N bombs or rockets played", N the
    most the score search proves the side can force.  Its solution is the score search's line (the side
    playing for the most bombs, the defence for the fewest), with no extra defences (a fastest-win branch
    need not keep the bombs); off the line, solving asks the score search (:mod:`tutor.puzzles.solving`)."""
    pos = rotate_to_mover(missed.position)
    score = solver.solve(pos, "score")
    if not score.complete or not score.mover_wins or score.bombs != missed.bombs or not score.line:
        return None
    side = pos.roles[pos.to_move]
    win_in = sum(1 for who, move in score.line if move is not None and pos.roles[who] is side)
    if win_in < MIN_PLAYS:
        return None
    tree = Generator(lambda: solver, Limits(extra_defences=0)).build_tree(solver, pos, score.line)
    if tree is None:
        return None
    answer = score.line[0][1]
    root = solver.solve(pos, "win", all_moves=True)
    difficulty = measure(pos, answer, root.nodes, win_in)
    source = Source("game", note=note_of(missed, game_id))
    goal = Goal(GoalType.WIN_BOMBS, bombs=missed.bombs)
    draft = Puzzle(f"{PERSONAL_PREFIX}{puzzle_id(pos)}", "", (), pos, goal, tree, difficulty.rating, source, difficulty)
    themes = tag(draft)
    return Puzzle(draft.id, title_for(themes, draft), tuple(themes), pos, goal, tree, difficulty.rating,
                  source, difficulty)


def puzzles_of_game(record: Any, game_id: int, solver_factory: Callable[[], ScanSolver],
                    seat: int = 0, budget: int | None = None,
                    scan_factory: Callable[[], ScanSolver] | None = None) -> list[tuple[int, Puzzle]]:
    """(moment, puzzle) for the personal puzzles of one finished game (at most :data:`PER_GAME`).

    One solver serves the game's scan (its tables keep the proofs already made; ``scan_factory``'s,
    default ``solver_factory``'s); each puzzle is made with a fresh one of ``solver_factory``, as the
    library's are, since the root proof's node count is one of its rating's signals."""
    solver = (scan_factory or solver_factory)()
    made: list[tuple[int, Puzzle]] = []
    left = MAKE_PROOFS * MAX_NODES  # the second tries at a fastest line that does not fit MAX_NODES
    for missed in missed_wins(record, lambda: solver, seat, budget):
        # a fresh solver: its node count rates the puzzle
        # a fastest win's line gets no second try: it comes last, and its moment is a kept win (round 15)
        puzzle, again = make_within(missed, game_id, solver_factory(), 0 if missed.kind == FASTEST else left)
        left = max(0, left - again)
        if puzzle is not None and all(p.id != puzzle.id for _, p in made):
            made.append((missed.moment, puzzle))
        if len(made) >= PER_GAME:
            break
    return made


#: Finished games looked at per scan (the newest; older ones were scanned when they were new).
SCAN_GAMES = 20


def scan_game(game: Any, solver_factory: Callable[[], ScanSolver] | None = None,
              budget: int | None = None) -> list[tuple[int, Puzzle]]:
    """(moment, puzzle) for a stored finished game (:class:`tutor.store.games.StoredGame`): the plain
    function a background job calls (the session's thread, a club's task queue).  An abandoned game
    or a record that cannot be replayed gives none."""
    from tutor.engine.record import GameRecord, RecordError

    if game.abandoned or game.id is None:
        return []
    try:
        return puzzles_of_game(GameRecord.from_dict(game.record), game.id, solver_factory or default_factory,
                               budget=budget, scan_factory=None if solver_factory else scan_factory)
    except (RecordError, ValueError):
        return []


def scan(store: Store, game_id: int | None = None,
         solver_factory: Callable[[], ScanSolver] | None = None, budget: int | None = None,
         skip: Collection[int] = ()) -> int:
    """Look at finished games not yet scanned (or just ``game_id``); returns the new puzzles.

    Abandoned games and records that cannot be replayed are marked scanned with
    no puzzle (they are never looked at again).  ``skip``: games a background job is scanning now.
    """
    from tutor.puzzles.progress import PuzzleProgress
    from tutor.store.games import GameStore

    progress = PuzzleProgress(store)
    games = GameStore(store)
    chosen = [games.get(game_id)] if game_id is not None else list(reversed(games.history(SCAN_GAMES)))
    new = 0
    for game in chosen:
        if game is None or game.id is None or game.id in skip or progress.scanned(game.id):
            continue
        made = scan_game(game, solver_factory, budget)
        new += progress.save_personal(game.id, [m for m, _ in made], [p for _, p in made])
    return new


#: A personal puzzle's note (:attr:`Source.note`, stored with it): the game, whose turn, and the kind —
#: «game 4, turn 12», «…, only move», «…, 3 of 9 plays win», «game 13, partner's turn 9» (the words a
#: learner reads come from the catalogues: :func:`moment_of` reads the note back).
_NOTE = re.compile(r"game (\d+), (partner's |landlord's |farmer's )?turn (\d+)"
                   r"(, only move|, (\d+) of (\d+) plays win|, bombs (\d+), (\d+) of (\d+) plays"
                   r"|, found, (\d+) of (\d+) plays win|, fastest in (\d+))?")


def note_of(missed: Missed, game_id: int) -> str:
    """The stored note of a moment's puzzle (read back by :func:`moment_of`)."""
    whose = "partner's turn" if missed.partner else "turn"
    if missed.opponent:  # the seat the puzzle is set from: the landlord, or one of the farmers
        mover = missed.position.roles[missed.position.to_move]
        whose = "landlord's turn" if mover is Role.LANDLORD else "farmer's turn"
    note = f"game {game_id}, {whose} {missed.moment}"
    if missed.kind == ONLY_MOVE:
        return note + ", only move"
    if missed.kind == SEVERAL:
        return note + f", {missed.wins} of {missed.plays} plays win"
    if missed.kind == STAKE:
        return note + f", bombs {missed.bombs}, {missed.wins} of {missed.plays} plays"
    if missed.kind == FOUND:
        return note + f", found, {missed.wins} of {missed.plays} plays win"
    if missed.kind == FASTEST:
        return note + f", fastest in {missed.pace}"
    return note


@dataclass(frozen=True, slots=True)
class Moment:
    """Which moment of which game a personal puzzle is (read from its note): what the list labels."""

    game: int
    turn: int
    kind: str
    #: The move was the partner's (the puzzle is set from the partner's seat).
    partner: bool = False
    wins: int = 1
    plays: int = 0
    #: A :data:`STAKE` moment's bombs and rockets the side could force (the goal's).
    bombs: int = 0
    #: The move was an opponent's: "landlord" or "farmer" (whose seat the puzzle is set from), else "".
    opponent: str = ""
    #: A :data:`FASTEST` moment's pace (the goal's "win in N").
    pace: int = 0

    @property
    def label(self) -> str:
        """The kind as ``--json`` and the web name it: missed, only_move, several, stake, partner,
        partner_several, partner_stake."""
        if self.partner:
            return {SEVERAL: "partner_several", STAKE: "partner_stake", ONLY_MOVE: "partner_only_move",
                    FOUND: "partner_found_several", FASTEST: "partner_fastest"}.get(self.kind, "partner")
        if self.opponent:
            return {SEVERAL: "opponent_several", ONLY_MOVE: "opponent_only_move",
                    FOUND: "opponent_found_several", FASTEST: "opponent_fastest"}.get(self.kind, "opponent")
        return "found_several" if self.kind == FOUND else self.kind


def moment_of(puzzle: Puzzle) -> Moment | None:
    """The moment a personal puzzle comes from (None for any other puzzle)."""
    match = _NOTE.fullmatch(puzzle.source.note or "") if puzzle.source.kind == "game" else None
    if match is None:
        return None
    partner = match[2] == "partner's "
    opponent = match[2][: -len("'s ")] if match[2] and not partner else ""
    if match[7]:
        return Moment(int(match[1]), int(match[3]), STAKE, partner, int(match[8]), int(match[9]),
                      int(match[7]))
    if match[12]:  # a kept win with one play at the fastest pace (FASTEST)
        return Moment(int(match[1]), int(match[3]), FASTEST, partner, opponent=opponent, pace=int(match[12]))
    if match[10]:  # a kept win with a few winning plays (FOUND)
        return Moment(int(match[1]), int(match[3]), FOUND, partner, int(match[10]), int(match[11]),
                      opponent=opponent)
    kind = ONLY_MOVE if match[4] == ", only move" else SEVERAL if match[5] else MISSED
    wins, plays = (int(match[5]), int(match[6])) if match[5] else (1, 0)
    return Moment(int(match[1]), int(match[3]), kind, partner, wins, plays, opponent=opponent)


def kinds_of_game(progress: PuzzleProgress, game_id: int) -> tuple[int, int, int]:
    """(the learner's missed wins, only moves found, the partner's missed wins) among the learner's
    puzzles from game ``game_id``."""
    moments = [m for m in map(moment_of, progress.personal())  # a stake's win was kept, an opponent's is theirs
               if m is not None and m.game == game_id and m.kind not in (STAKE, FOUND, FASTEST) and not m.opponent
               and not (m.partner and m.kind == ONLY_MOVE)]  # the partner's find: said apart
    partner = sum(1 for m in moments if m.partner)
    only = sum(1 for m in moments if m.kind == ONLY_MOVE)
    return len(moments) - only - partner, only, partner


def stakes_of_game(progress: PuzzleProgress, game_id: int) -> int:
    """The bigger wins thrown away (:data:`STAKE`, the learner's or the partner's) among the learner's puzzles
    from game ``game_id``: said apart after the game, since the game was won — or still winnable — there."""
    return sum(1 for m in map(moment_of, progress.personal()) if m is not None and m.game == game_id
               and m.kind == STAKE)


def opponents_of_game(progress: PuzzleProgress, game_id: int) -> int:
    """The opponents' wins thrown away (:data:`OPPONENT_TURNS`) among the learner's puzzles from game
    ``game_id``."""
    return sum(1 for m in map(moment_of, progress.personal()) if m is not None and m.game == game_id
               and bool(m.opponent) and m.kind not in (ONLY_MOVE, FOUND, FASTEST))


def opponent_finds_of_game(progress: PuzzleProgress, game_id: int) -> int:
    """The opponents' only winning moves found (:data:`OPPONENT_FINDS`) among the learner's puzzles from game
    ``game_id``: said apart after the game (they are how the learner was beaten, not a win thrown away)."""
    return sum(1 for m in map(moment_of, progress.personal()) if m is not None and m.game == game_id
               and bool(m.opponent) and m.kind == ONLY_MOVE)


def partner_finds_of_game(progress: PuzzleProgress, game_id: int) -> int:
    """The partner's only winning moves found (:data:`PARTNER_FINDS`) among the learner's puzzles from game
    ``game_id``: said apart after the game (the side's win kept, by the partner's hard move)."""
    return sum(1 for m in map(moment_of, progress.personal()) if m is not None and m.game == game_id
               and m.partner and m.kind == ONLY_MOVE)


def found_of_game(progress: PuzzleProgress, game_id: int) -> int:
    """The wins kept with one of a few winning plays (:data:`FOUND`: the learner's, the partner's or an
    opponent's) among the learner's puzzles from game ``game_id``: said apart after the game."""
    return sum(1 for m in map(moment_of, progress.personal()) if m is not None and m.game == game_id
               and m.kind == FOUND)


def fastest_of_game(progress: PuzzleProgress, game_id: int) -> int:
    """The kept wins with one play at the fastest pace (:data:`FASTEST`: the learner's, the partner's or an
    opponent's) among the learner's puzzles from game ``game_id``: said apart after the game."""
    return sum(1 for m in map(moment_of, progress.personal()) if m is not None and m.game == game_id
               and m.kind == FASTEST)


def is_only_move(puzzle: Puzzle) -> bool:
    """The puzzle is an only winning move the learner found (else a win they missed, or an opponent's or the
    partner's move)."""
    moment = moment_of(puzzle)
    return moment is not None and moment.kind == ONLY_MOVE and not moment.opponent and not moment.partner


def waiting(progress: PuzzleProgress) -> list[Puzzle]:
    """The learner's own puzzles not yet solved cleanly, oldest first."""
    last = progress.last_outcomes()
    return [p for p in progress.personal() if last.get(p.id) != "solved"]


def default_factory() -> ScanSolver:
    """The solver a personal puzzle is made with (the plain search: its node count rates the puzzle)."""
    from tutor.solver.solver import Solver

    solver = Solver(max_nodes=MAX_NODES, rules=STANDARD)  # the scan proves under the standard play rules
    # The fastest line (the puzzle's solution) with the lean search: the same line and win_in as the plain
    # one in far fewer nodes (issue 30, round 7: deal 1's partner moment, 33 cards, took 1.9 million nodes
    # instead of 58 million, so it fits MAX_NODES).  Its node counts are not rated: the root proof's are.
    solver.lean_fastest = LEAN_FASTEST
    return solver


def scan_factory() -> ScanSolver:
    """The solver of a game's scan: verdicts only, so the lone-farmer shortcut may settle positions."""
    from tutor.solver.solver import Solver

    return Solver(max_nodes=MAX_NODES, lone_farmer=LONE_FARMER, thin=THIN, rules=STANDARD, order=ORDER)
