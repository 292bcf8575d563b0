"""Game records: the deal number and every action, saved as JSON and replayed exactly.

A record is all a game needs to be rebuilt, because the deal number fixes the
cards (RULES §2) and every later change is an action.  Replaying goes through
the checked :class:`~tutor.engine.game.Game` API, so a tampered or corrupted
record fails loudly instead of producing an impossible game.

JSON layout (``version`` 1)::

    {"version": 1,
     "rules": {"name": "standard", "players": 3, ...every Rules field...},
     "deal_number": 42,                       # null for a custom position
     "auction": null,                         # or {"landlord": 0, "bid": 1} when skipped
     "start": null,                           # or a custom position (from_hands)
     "actions": [{"seat": 1, "bid": 0},       # bids (0 = pass) ...
                 {"seat": 2, "play": {"cards": "33", "kind": "pair", "length": 1, "main": "3"}},
                 {"seat": 0, "open": true},           # the open hand (RULES §12.2), if shown
                 {"seat": 0, "play": null}]}  # ... then plays and passes

The rules object holds every classic field; the variant fields (``auction``,
``rob_back``, ``rob_factor``, ``open_hand``, ``open_factor``) appear only when
they differ from the classic game, so a classic record is byte-for-byte what it
was before the variants.  In a ``rob`` auction a move's ``bid`` is the code of
:mod:`tutor.engine.auction`: 0 pass, 1 call, 2 rob.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from typing import Any

from tutor.engine.cards import DECK_COUNTS, Cards, InvalidCardsError, parse_rank
from tutor.engine.combos import Combo, Kind
from tutor.engine.rules import NAMED, STANDARD, Rules
from tutor.engine.view import Turn

VERSION = 1

#: Rule sets a record may name instead of spelling out (the name → the object).
KNOWN_RULES: dict[str, Rules] = dict(NAMED)


@dataclass(frozen=True, slots=True)
class ShowHand:
    """The landlord showed the hand (RULES §12.2): one action of the record."""

    seat: int


Action = tuple[int, int] | Turn | ShowHand
"""An auction move ``(seat, code)`` with 0 = pass, the open hand, or a play-phase :class:`Turn`."""


class RecordError(ValueError):
    """A record that cannot be read or replayed; the message names the field."""


@dataclass(slots=True)
class GameRecord:
    """How a game started and every action since."""

    deal_number: int | None
    actions: list[Action] = field(default_factory=list)
    rules: Rules = STANDARD
    #: Landlord and bid when the auction was skipped (:meth:`Game.with_landlord`).
    landlord: int | None = None
    bid: int | None = None
    #: The custom position of a :meth:`Game.from_hands` game.
    start: StartPosition | None = None

    @property
    def rules_name(self) -> str:
        return self.rules.name

    # ------------------------------------------------------------------ JSON

    def to_dict(self) -> dict[str, Any]:
        rules = self.rules.to_json()
        start = None
        if self.start is not None:
            start = {
                "hands": [str(h) for h in self.start.hands],
                "landlord": self.start.landlord,
                "bid": self.start.bid,
                "kitty": None if self.start.kitty is None else str(self.start.kitty),
                "to_move": self.start.to_move,
                "history": [_turn_to_json(t) for t in self.start.history],
            }
        auction = None if self.landlord is None else {"landlord": self.landlord, "bid": self.bid}
        actions: list[dict[str, Any]] = []
        for action in self.actions:
            if isinstance(action, Turn):
                actions.append(_turn_to_json(action))
            elif isinstance(action, ShowHand):
                actions.append({"seat": action.seat, "open": True})
            else:
                actions.append({"seat": action[0], "bid": action[1]})
        return {
            "version": VERSION,
            "rules": rules,
            "deal_number": self.deal_number,
            "auction": auction,
            "start": start,
            "actions": actions,
        }

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        """Read a record.

        Raises:
            RecordError: (a ValueError) naming the bad field, e.g. ``actions[3].play.kind``.
        """
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, TypeError) as exc:
            raise RecordError(f"record is not valid JSON: {exc}") from None
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        if not isinstance(data, dict):
            raise RecordError(f"record must be a JSON object, got {type(data).__name__}")
        version = data.get("version")
        if version != VERSION:
            raise RecordError(f"record field 'version': expected {VERSION}, got {version!r}")
        rules = _rules_from_json(data.get("rules", STANDARD.name))
        deal_number = data.get("deal_number")
        if deal_number is not None and (not _is_int(deal_number) or deal_number < 0):
            raise RecordError(f"record field 'deal_number': expected a non-negative integer, got {deal_number!r}")
        landlord = bid = None
        auction = data.get("auction")
        if auction is not None:
            if not isinstance(auction, dict):
                raise RecordError(f"record field 'auction': expected an object or null, got {auction!r}")
            landlord = _int(auction, "landlord", "auction")
            bid = _int(auction, "bid", "auction")
        start = None
        if data.get("start") is not None:
            start = _start_from_json(data["start"], rules.deck)
        if deal_number is None and start is None:
            raise RecordError("record field 'deal_number': needed when there is no 'start' position")
        raw_actions = data.get("actions")
        if not isinstance(raw_actions, list):
            raise RecordError(f"record field 'actions': expected a list, got {raw_actions!r}")
        actions: list[Action] = []
        for i, item in enumerate(raw_actions):
            where = f"actions[{i}]"
            if not isinstance(item, dict):
                raise RecordError(f"record field {where!r}: expected an object, got {item!r}")
            seat = _int(item, "seat", where)
            if "bid" in item:
                actions.append((seat, _int(item, "bid", where)))
            elif "play" in item:
                actions.append(_turn_from_json(item, where, rules.deck))
            elif item.get("open") is True:
                actions.append(ShowHand(seat))
            else:
                raise RecordError(f"record field {where!r}: needs 'bid', 'open' or 'play', got {item!r}")
        return cls(deal_number, actions, rules, landlord, bid, start)


class StartPosition:
    """The start of a :meth:`Game.from_hands` game, kept so a record can rebuild it."""

    __slots__ = ("hands", "landlord", "bid", "kitty", "to_move", "history")

    def __init__(
        self,
        hands: tuple[Cards, ...],
        landlord: int,
        bid: int,
        kitty: Cards | None,
        to_move: int,
        history: tuple[Turn, ...],
    ) -> None:
        self.hands = hands
        self.landlord = landlord
        self.bid = bid
        self.kitty = kitty
        self.to_move = to_move
        self.history = history

    def __eq__(self, other: object) -> bool:
        return isinstance(other, StartPosition) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def _key(self) -> tuple[object, ...]:
        return (self.hands, self.landlord, self.bid, self.kitty, self.to_move, self.history)

    def __repr__(self) -> str:
        hands = [str(h) for h in self.hands]
        return f"StartPosition(hands={hands!r}, landlord={self.landlord}, bid={self.bid}, to_move={self.to_move})"


# ---------------------------------------------------------------- helpers


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int(obj: dict[str, Any], key: str, where: str) -> int:
    value = obj.get(key)
    if not _is_int(value):
        raise RecordError(f"record field '{where}.{key}': expected an integer, got {value!r}")
    assert isinstance(value, int)
    return value


def _turn_to_json(turn: Turn) -> dict[str, Any]:
    return {"seat": turn.seat, "play": None if turn.play is None else turn.play.to_json()}


def _turn_from_json(item: dict[str, Any], where: str, deck: tuple[int, ...] = DECK_COUNTS) -> Turn:
    seat = _int(item, "seat", where)
    play = item.get("play")
    if play is None:
        return Turn(seat, None)
    if not isinstance(play, dict):
        raise RecordError(f"record field '{where}.play': expected an object or null, got {play!r}")
    try:
        cards = Cards.parse(_str(play, "cards", f"{where}.play"), deck)
    except InvalidCardsError as exc:
        raise RecordError(f"record field '{where}.play.cards': {exc}") from None
    try:
        kind = Kind.from_label(_str(play, "kind", f"{where}.play"))
    except ValueError as exc:
        raise RecordError(f"record field '{where}.play.kind': {exc}") from None
    length = _int(play, "length", f"{where}.play")
    try:
        main = parse_rank(_str(play, "main", f"{where}.play"))
    except InvalidCardsError as exc:
        raise RecordError(f"record field '{where}.play.main': {exc}") from None
    return Turn(seat, Combo(cards.packed, kind, length, main))


def _str(obj: dict[str, Any], key: str, where: str) -> str:
    value = obj.get(key)
    if not isinstance(value, str):
        raise RecordError(f"record field '{where}.{key}': expected a string, got {value!r}")
    return value


def _start_from_json(raw: Any, deck: tuple[int, ...] = DECK_COUNTS) -> StartPosition:
    if not isinstance(raw, dict):
        raise RecordError(f"record field 'start': expected an object, got {raw!r}")
    hands_raw = raw.get("hands")
    if not isinstance(hands_raw, list):
        raise RecordError(f"record field 'start.hands': expected a list of card strings, got {hands_raw!r}")
    hands = []
    for i, text in enumerate(hands_raw):
        if not isinstance(text, str):
            raise RecordError(f"record field 'start.hands[{i}]': expected a card string, got {text!r}")
        try:
            hands.append(Cards.parse(text, deck))
        except InvalidCardsError as exc:
            raise RecordError(f"record field 'start.hands[{i}]': {exc}") from None
    kitty_raw = raw.get("kitty")
    kitty = None
    if kitty_raw is not None:
        try:
            kitty = Cards.parse(_str(raw, "kitty", "start"), deck)
        except InvalidCardsError as exc:
            raise RecordError(f"record field 'start.kitty': {exc}") from None
    history_raw = raw.get("history", [])
    if not isinstance(history_raw, list):
        raise RecordError(f"record field 'start.history': expected a list, got {history_raw!r}")
    history = []
    for i, item in enumerate(history_raw):
        if not isinstance(item, dict):
            raise RecordError(f"record field 'start.history[{i}]': expected an object, got {item!r}")
        history.append(_turn_from_json(item, f"start.history[{i}]", deck))
    return StartPosition(
        tuple(hands),
        _int(raw, "landlord", "start"),
        _int(raw, "bid", "start"),
        kitty,
        _int(raw, "to_move", "start"),
        tuple(history),
    )


def _rules_from_json(raw: Any) -> Rules:
    if isinstance(raw, str):
        if raw not in KNOWN_RULES:
            raise RecordError(f"record field 'rules': unknown rule set {raw!r} (known: {', '.join(KNOWN_RULES)})")
        return KNOWN_RULES[raw]
    if not isinstance(raw, dict):
        raise RecordError(f"record field 'rules': expected an object or a name, got {raw!r}")
    fields = {f.name: f for f in dataclasses.fields(Rules)}
    values: dict[str, Any] = {}
    for key, value in raw.items():
        if key not in fields:
            raise RecordError(f"record field 'rules.{key}': not a rules field (known: {', '.join(fields)})")
        default = getattr(STANDARD, key)
        if key == "bids":
            if not isinstance(value, list) or not value or not all(_is_int(b) and b > 0 for b in value):
                raise RecordError(f"record field 'rules.bids': expected a list of positive integers, got {value!r}")
            value = tuple(value)
        elif isinstance(default, bool):
            if not isinstance(value, bool):
                raise RecordError(f"record field 'rules.{key}': expected true or false, got {value!r}")
        elif isinstance(default, int):
            if not _is_int(value):
                raise RecordError(f"record field 'rules.{key}': expected an integer, got {value!r}")
        elif isinstance(default, str) and not isinstance(value, str):
            raise RecordError(f"record field 'rules.{key}': expected a string, got {value!r}")
        values[key] = value
    try:
        return Rules(**values)
    except ValueError as exc:
        raise RecordError(f"record field 'rules': {exc}") from None


__all__ = ["VERSION", "KNOWN_RULES", "Action", "GameRecord", "RecordError", "ShowHand", "replay"]
