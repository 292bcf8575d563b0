"""Puzzle themes: one small predicate per theme, and the aggregator that tags a puzzle.

As in lichess-puzzler, each theme is a plain function of the puzzle that reads
like its definition, so a theme is easy to check, test and explain.  The
predicates look only at the puzzle's position and its solution's main line
(the toughest defence at every branch); they need no solver.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from functools import cached_property

from tutor.engine.cards import packed_count, unpack
from tutor.engine.combos import Combo, Kind
from tutor.engine.moves import follow_moves_packed
from tutor.puzzles.model import Puzzle, find_move
from tutor.puzzles.realism import out_of_it
from tutor.solver.position import Position, Role


class Theme(Enum):
    """The closed list of themes (the JSON Schema lists the same names)."""

    HEADS_UP = "heads_up"
    TEAM_ENDGAME = "team_endgame"
    AS_LANDLORD = "as_landlord"
    AS_FARMER = "as_farmer"
    BOMB_FINISH = "bomb_finish"
    ROCKET = "rocket"
    TWO_PLAY_WIN = "two_play_win"
    LONG_ENDGAME = "long_endgame"
    BOSS_MOVES_FIRST = "boss_moves_first"
    FEED_THE_PARTNER = "feed_the_partner"
    LANDLORD_ONE_CARD = "landlord_one_card"
    BEAT_OR_PASS = "beat_or_pass"
    PASS_TO_WIN = "pass_to_win"
    SPLIT_COMBINATION = "split_combination"
    WING_CHOICE = "wing_choice"
    CHAIN_PLAY = "chain_play"

    @classmethod
    def parse(cls, text: str) -> Theme:
        try:
            return cls(text.strip().lower().replace("-", "_").replace(" ", "_"))
        except ValueError:
            names = ", ".join(t.value for t in cls)
            raise ValueError(f"unknown theme {text!r} (one of: {names})") from None


@dataclass(frozen=True, slots=True)
class Step:
    """One move of the main line: the position before it, who moved, what was played."""

    before: Position
    player: int
    move: Combo | None


class MainLine:
    """The puzzle's main line replayed move by move (built once, shared by the predicates)."""

    def __init__(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle
        self.side = puzzle.solver_side
        self.steps: list[Step] = []
        pos = puzzle.position
        for text in puzzle.solution.main_line():
            move = find_move(pos, text)
            self.steps.append(Step(pos, pos.to_move, move))
            pos = pos.after(move)
        self.final = pos

    def solver_plays(self) -> list[Combo]:
        """The solving side's plays (passes left out), in order."""
        return [s.move for s in self.steps if s.move is not None and s.before.roles[s.player] is self.side]

    @cached_property
    def first(self) -> Step:
        return self.steps[0]

    def winner_player(self) -> int | None:
        """The index of the player who emptied their hand at the end of the main line."""
        for i, hand in enumerate(self.final.hands):
            if not hand:
                return i
        return None


Predicate = Callable[[MainLine], bool]


def heads_up(line: MainLine) -> bool:
    """A duel: the landlord against one farmer, the other farmer out of it (can beat nothing)."""
    return line.puzzle.players == 2 or out_of_it(line.puzzle.position) is not None


def team_endgame(line: MainLine) -> bool:
    """Three players: the landlord against two farmers who play as one team."""
    return line.puzzle.players == 3 and out_of_it(line.puzzle.position) is None


def as_landlord(line: MainLine) -> bool:
    return line.side is Role.LANDLORD


def as_farmer(line: MainLine) -> bool:
    return line.side is Role.FARMER


def bomb_finish(line: MainLine) -> bool:
    """The solving side wins the lead with a bomb and goes out with at most one more play."""
    plays = line.solver_plays()
    return any(p.kind == Kind.BOMB for p in plays[-2:])


def rocket(line: MainLine) -> bool:
    """The rocket is part of the solution."""
    return any(p.kind == Kind.ROCKET for p in line.solver_plays())


def two_play_win(line: MainLine) -> bool:
    """The solving side goes out in exactly two plays."""
    return len(line.solver_plays()) == 2


def long_endgame(line: MainLine) -> bool:
    """Four or more plays of the solving side: a plan, not a trick."""
    return len(line.solver_plays()) >= 4


def boss_moves_first(line: MainLine) -> bool:
    """The first play is a 'boss': no opponent can beat it, and it does not end the game."""
    first = line.first
    if first.move is None or len(first.before.hands[first.player]) == first.move.size:
        return False
    pos = first.before
    return all(
        not follow_moves_packed(hand.packed, first.move)
        for i, hand in enumerate(pos.hands)
        if pos.roles[i] is not line.side
    )


def feed_the_partner(line: MainLine) -> bool:
    """Three players: the farmer to move wins by letting the partner go out."""
    winner = line.winner_player()
    return (
        line.puzzle.players == 3
        and line.side is Role.FARMER
        and winner is not None
        and winner != line.first.player
    )


def landlord_one_card(line: MainLine) -> bool:
    """The farmers face a landlord with a single card left: no single may get past."""
    pos = line.puzzle.position
    return line.side is Role.FARMER and any(
        len(h) == 1 for h, r in zip(pos.hands, pos.roles) if r is Role.LANDLORD
    )


def beat_or_pass(line: MainLine) -> bool:
    """There is a play on the table: beat it (with the right cards) or pass."""
    return line.puzzle.position.table is not None


def pass_to_win(line: MainLine) -> bool:
    """The only winning first move is to pass."""
    return line.first.move is None and line.puzzle.position.table is not None


def split_combination(line: MainLine) -> bool:
    """The winning first play breaks a pair, trio or four of the hand."""
    first = line.first
    if first.move is None:
        return False
    hand = first.before.hands[first.player].packed
    return any(0 < n < packed_count(hand, r) for r, n in enumerate(unpack(first.move.cards)))


_WINGED = {Kind.TRIO_SINGLE, Kind.TRIO_PAIR, Kind.AIRPLANE_SINGLES, Kind.AIRPLANE_PAIRS,
           Kind.FOUR_TWO_SINGLES, Kind.FOUR_TWO_PAIRS}


def wing_choice(line: MainLine) -> bool:
    """The first play carries wings, and other wings with the same body would lose."""
    first = line.first
    if first.move is None or first.move.kind not in _WINGED:
        return False
    twins = [
        m
        for m in first.before.legal_moves()
        if m is not None
        and m.cards != first.move.cards
        and (m.kind, m.length, m.main) == (first.move.kind, first.move.length, first.move.main)
    ]
    return bool(twins)


_CHAINS = {Kind.STRAIGHT, Kind.PAIR_CHAIN, Kind.AIRPLANE, Kind.AIRPLANE_SINGLES, Kind.AIRPLANE_PAIRS}


def chain_play(line: MainLine) -> bool:
    """The winning first play is a straight, a pair chain or an airplane."""
    return line.first.move is not None and line.first.move.kind in _CHAINS


PREDICATES: dict[Theme, Predicate] = {
    Theme.HEADS_UP: heads_up,
    Theme.TEAM_ENDGAME: team_endgame,
    Theme.AS_LANDLORD: as_landlord,
    Theme.AS_FARMER: as_farmer,
    Theme.BOMB_FINISH: bomb_finish,
    Theme.ROCKET: rocket,
    Theme.TWO_PLAY_WIN: two_play_win,
    Theme.LONG_ENDGAME: long_endgame,
    Theme.BOSS_MOVES_FIRST: boss_moves_first,
    Theme.FEED_THE_PARTNER: feed_the_partner,
    Theme.LANDLORD_ONE_CARD: landlord_one_card,
    Theme.BEAT_OR_PASS: beat_or_pass,
    Theme.PASS_TO_WIN: pass_to_win,
    Theme.SPLIT_COMBINATION: split_combination,
    Theme.WING_CHOICE: wing_choice,
    Theme.CHAIN_PLAY: chain_play,
}


def tag(puzzle: Puzzle) -> list[str]:
    """Every theme whose predicate holds, in the order of :class:`Theme`."""
    line = MainLine(puzzle)
    return [theme.value for theme, predicate in PREDICATES.items() if predicate(line)]


#: A short English title per theme, most telling first (used for generated puzzles).
TITLE_ORDER = (
    Theme.PASS_TO_WIN,
    Theme.FEED_THE_PARTNER,
    Theme.ROCKET,
    Theme.BOMB_FINISH,
    Theme.WING_CHOICE,
    Theme.LANDLORD_ONE_CARD,
    Theme.BOSS_MOVES_FIRST,
    Theme.SPLIT_COMBINATION,
    Theme.CHAIN_PLAY,
    Theme.TWO_PLAY_WIN,
    Theme.LONG_ENDGAME,
    Theme.BEAT_OR_PASS,
)


def title_for(themes: list[str], puzzle: Puzzle) -> str:
    """A plain title from the most telling theme, e.g. ``Landlord to move: bomb finish``."""
    who = "Landlord" if puzzle.solver_side is Role.LANDLORD else "Farmer"
    for theme in TITLE_ORDER:
        if theme.value in themes:
            return f"{who} to move: {theme.value.replace('_', ' ')}"
    return f"{who} to move: find the only win"
