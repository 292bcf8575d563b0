"""A puzzle as data: the position, the goal, the solution tree, the rating, the source.

A puzzle file (``puzzles/*.yaml``) holds many puzzles; one puzzle reads::

    - id: 3f9a1c
      title: Bomb finish
      themes: [bomb_finish, heads_up]
      position:
        players: "L:AAAA3366 F:2QQT33"   # turn order, as `ddz solve` reads it
        to_move: 0
        table: {cards: "3", by: 1}       # optional: the play the mover must beat or pass on
      goal: {type: win}                  # or {type: win_in, plays: 3} or {type: win_with_bomb}
                                         # (a personal puzzle may say {type: win_bombs, bombs: 1})
      rating: 1350
      source: {kind: generated, method: random_deal, deal: 1234}
      solution:                          # one node: the only winning first move
        move: "33"
        replies:                         # the next player's moves (toughest defence first)
          - move: pass
            replies: [...]

A node is one move — cards in the notation of RULES §1, or ``pass`` — by the
player whose turn it is; who that is follows from the position, so the tree
does not repeat it.  At the solving side's turns a node has exactly one child
(the move the learner is to find); at the other side's turns it lists the
defences, the toughest first.  The tree ends when the solving side empties a
hand.  A card set with several readings names the one meant as
``cards:kind:length`` (``333444555666:airplane:4``).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from tutor.engine.cards import Cards
from tutor.engine.combos import Combo, Kind
from tutor.engine.notation import MoveTextError, move_notation, resolve
from tutor.puzzles.difficulty import Difficulty
from tutor.solver.position import Position, Role, table_reading

PASS = "pass"


class PuzzleFormatError(ValueError):
    """A puzzle that does not follow the format; the message names the puzzle and the field."""


class GoalType(Enum):
    """What the learner must achieve (the goal line of the puzzle)."""

    WIN = "win"
    WIN_IN = "win_in"
    WIN_WITH_BOMB = "win_with_bomb"
    #: Win with at least ``bombs`` bombs and rockets played from here on (the stake doubled that many times
    #: more), by either side: a personal puzzle's missed bigger win (issue 30, eighth pass); the score search
    #: proves the most the side can force, and solving holds the learner to it.
    WIN_BOMBS = "win_bombs"


@dataclass(frozen=True, slots=True)
class Goal:
    """The stated result the solver re-checks: a win, a win in N plays, a win with a bomb."""

    type: GoalType = GoalType.WIN
    #: For ``win_in``: the solving side's plays in the fastest forced win.
    plays: int | None = None
    #: For ``win_bombs``: the bombs and rockets (either side's) to be played before the end, at least.
    bombs: int | None = None

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.type.value}
        if self.plays is not None:
            data["plays"] = self.plays
        if self.bombs is not None:
            data["bombs"] = self.bombs
        return data

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Goal:
        goal_type = GoalType(data["type"])
        plays = data.get("plays")
        if goal_type is GoalType.WIN_IN and not isinstance(plays, int):
            raise PuzzleFormatError(f"goal win_in needs 'plays', got {data!r}")
        bombs = data.get("bombs")
        if goal_type is GoalType.WIN_BOMBS and not (isinstance(bombs, int) and bombs >= 1):
            raise PuzzleFormatError(f"goal win_bombs needs 'bombs' (1 or more), got {data!r}")
        return cls(goal_type, plays if goal_type is GoalType.WIN_IN else None,
                   bombs if goal_type is GoalType.WIN_BOMBS else None)


@dataclass(frozen=True, slots=True)
class Node:
    """One move of the solution tree and the moves that can follow it."""

    move: str
    replies: tuple[Node, ...] = ()

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"move": self.move}
        if self.replies:
            data["replies"] = [child.to_data() for child in self.replies]
        return data

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Node:
        return cls(str(data["move"]), tuple(cls.from_data(c) for c in data.get("replies", ())))

    def main_line(self) -> list[str]:
        """This move and, at every branch, the first child (the toughest defence)."""
        line = [self.move]
        node = self
        while node.replies:
            node = node.replies[0]
            line.append(node.move)
        return line

    def size(self) -> int:
        return 1 + sum(child.size() for child in self.replies)


@dataclass(frozen=True, slots=True)
class Source:
    """Where a puzzle comes from: generated (method, deal number, seed) or composed."""

    kind: str = "composed"
    method: str | None = None
    deal: int | None = None
    seed: int | None = None
    note: str | None = None

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind}
        for key in ("method", "deal", "seed", "note"):
            value = getattr(self, key)
            if value is not None:
                data[key] = value
        return data

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Source:
        return cls(data["kind"], data.get("method"), data.get("deal"), data.get("seed"), data.get("note"))

    def describe(self) -> str:
        if self.kind == "generated":
            parts = [self.method or "generated"]
            if self.deal is not None:
                parts.append(f"deal {self.deal}")
            return ", ".join(parts)
        return self.note or "composed"


@dataclass(frozen=True, slots=True)
class Puzzle:
    """One puzzle of the library (see the module docstring for the YAML form)."""

    id: str
    title: str
    themes: tuple[str, ...]
    position: Position
    goal: Goal
    solution: Node
    rating: float
    source: Source = field(default_factory=Source)
    #: The measured signals behind ``rating`` (None for a puzzle rated by hand).
    difficulty: Difficulty | None = None

    @property
    def solver_side(self) -> Role:
        """The side that is to find the win (the side of the player to move)."""
        return self.position.roles[self.position.to_move]

    @property
    def players(self) -> int:
        return self.position.players

    @property
    def first_move(self) -> str:
        return self.solution.move

    def to_data(self, with_solution: bool = True) -> dict[str, Any]:
        """The YAML/JSON form; ``with_solution=False`` is what ``ddz puzzle --json`` prints."""
        data: dict[str, Any] = {
            "id": self.id,
            "title": self.title,
            "themes": list(self.themes),
            "position": position_to_data(self.position),
            "goal": self.goal.to_data(),
            "rating": round(self.rating),
            "source": self.source.to_data(),
        }
        if self.difficulty is not None:
            data["difficulty"] = self.difficulty.to_data()
        if with_solution:
            data["solution"] = self.solution.to_data()
        return data

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Puzzle:
        """Build from already schema-validated data; position errors name the puzzle."""
        ident = str(data.get("id", "?"))
        try:
            position = position_from_data(data["position"])
        except ValueError as error:
            raise PuzzleFormatError(f"puzzle {ident!r}: {error}") from None
        return cls(
            id=ident,
            title=str(data["title"]),
            themes=tuple(data.get("themes", ())),
            position=position,
            goal=Goal.from_data(data["goal"]),
            solution=Node.from_data(data["solution"]),
            rating=float(data["rating"]),
            source=Source.from_data(data.get("source", {"kind": "composed"})),
            difficulty=Difficulty.from_data(data["difficulty"], position.players) if "difficulty" in data else None,
        )


# --------------------------------------------------------------------- positions
def position_to_data(pos: Position) -> dict[str, Any]:
    """A solver position in the puzzle format."""
    data: dict[str, Any] = {"players": pos.format(), "to_move": pos.to_move}
    if pos.table is not None:
        table: dict[str, Any] = {"cards": pos.table.text, "by": pos.table_by}
        if pos.table != table_reading(pos.table.cards):
            table["kind"] = Kind(pos.table.kind).label
            table["length"] = pos.table.length
        data["table"] = table
    return data


def position_from_data(data: dict[str, Any]) -> Position:
    """The puzzle format's position as a solver position."""
    base = Position.parse(str(data["players"]))
    table: Combo | None = None
    by: int | None = None
    raw = data.get("table")
    if raw:
        cards = Cards.parse(str(raw["cards"]))
        table = table_reading(cards)
        if "kind" in raw:
            from tutor.engine.combos import readings

            kind = Kind.from_label(str(raw["kind"]))
            options = [r for r in readings(cards) if r.kind == kind and r.length == raw.get("length", r.length)]
            if not options:
                raise PuzzleFormatError(f"table {raw['cards']!r} cannot be read as {raw['kind']!r}")
            table = max(options, key=lambda c: c.main)
        by = int(raw["by"])
    return Position(base.hands, base.roles, int(data.get("to_move", 0)), table, by, rules=base.rules)


def position_key(pos: Position) -> str:
    """A canonical text of the position (hands, roles, mover, table): identity of a puzzle."""
    text = f"{pos.format()}|{pos.to_move}"
    if pos.table is not None:
        text += f"|{pos.table.text}:{int(pos.table.kind)}:{pos.table.length}|{pos.table_by}"
    return text


#: The id of a puzzle made from the learner's own games (tutor/puzzles/personal.py) starts so: the CLI looks such
#: an id up in the learner's store, where those puzzles live, as well as in the shipped library.
PERSONAL_PREFIX = "my-"


def puzzle_id(pos: Position) -> str:
    """A short, stable id derived from the position, so regenerated puzzles keep their ids."""
    return hashlib.sha1(position_key(pos).encode()).hexdigest()[:6]


# ------------------------------------------------------------------------- moves
def move_text(move: Combo | None, legal: list[Combo | None] | None = None) -> str:
    """A move in the solution notation: ``pass``, cards, or ``cards:kind:length`` when
    the same cards have another legal reading here (:func:`tutor.engine.notation.move_notation`)."""
    return move_notation(move, legal)


class MoveNotInPositionError(ValueError):
    """A move of a solution (or typed by the learner) that is not legal in the position."""


def find_move(pos: Position, text: str) -> Combo | None:
    """The legal move of ``pos`` that ``text`` names (``None`` for pass).

    Raises:
        MoveNotInPositionError: the move is not legal, or its cards have several
            readings here and the text does not say which.
    """
    legal = pos.legal_moves()
    try:
        found = resolve(text, legal)
    except MoveTextError as error:
        raise MoveNotInPositionError(f"{text!r} is not a move: {error}") from None
    if found.text.is_pass and not found.options:
        raise MoveNotInPositionError(f"cannot pass in {pos}: the player leads")
    if not found.options:
        raise MoveNotInPositionError(f"{text!r} is not a legal move in {pos}")
    if found.ambiguous:
        options = ", ".join(move_text(m, legal) for m in found.options)
        raise MoveNotInPositionError(f"{text!r} has several readings here: {options}")
    return found.move
