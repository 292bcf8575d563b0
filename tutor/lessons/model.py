"""The lesson model: what a validated lesson file means.

The YAML (checked first against ``lesson.schema.json``) is turned into these
frozen objects by :func:`build_lesson`.  Building also does the checks that
need no search — cards that exist, no card twice, hand sizes a real game can
have, positions that can arise — and reports each with the field path it
came from, so one run of ``ddz lessons validate`` lists every problem.
The checks that need the solver live in :mod:`tutor.lessons.validate`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

from tutor.engine.auction import Auction, ends_at_once
from tutor.engine.cards import NUM_RANKS, Cards, InvalidCardsError, rank_char
from tutor.engine.combos import Combo, Kind, best_beating_reading, readings, why_not_beats
from tutor.engine.rules import STANDARD, Rules, named_rules
from tutor.engine.trick import Trick as EngineTrick
from tutor.engine.view import Turn
from tutor.files import clip_quotes
from tutor.i18n import language
from tutor.lessons.loader import FieldPath, LessonDocument, format_path
from tutor.lessons.moves import LessonMoveError, MoveSpec, illegal_reason, parse_move, resolve

#: Seat names of lesson files, by seat number (RULES §2: 0 you, 1 right, 2 left).
SEATS = ("you", "right", "left")
YOU, RIGHT, LEFT = 0, 1, 2

#: The words of a bid task's answers under the rob auction (RULES §12.1), by code (engine/auction.py).
ROB_WORDS = {"pass": 0, "call": 1, "rob": 2}
#: The two answers of a ``show`` task (RULES §12.2): keep the hand closed (0) or show it (1).
SHOW_WORDS = {"keep": 0, "show": 1}


class Mistake(str, Enum):
    """The four classic beginner mistakes of RULES §11 (tags on feedback)."""

    BREAK_BOMB_FOR_STRAIGHT = "break_bomb_for_straight"
    HIGH_CARDS_EARLY = "high_cards_early"
    BEAT_PARTNER = "beat_partner"
    NOT_COUNTING = "not_counting"


#: The front ends a lesson is shown in: the terminal's wording is the default.
TERMINAL, WEB = "terminal", "web"

#: Card letters that stand alone in a sentence, and what the browser says instead (RULES §1).
_CARD_WORDS = {
    "en": {"X": "small joker", "D": "big joker"},
    "ru": {"X": "малый джокер", "D": "большой джокер"},
}
_LONE_CARD = re.compile(r"(?<![\w`])([XD])(?![\w`])")
#: A card run with a ten in it (``T``, ``TT``, ``9TJQK``): the page writes the ten as 10, card by card.
_TEN_RUN = re.compile(r"(?<![\w`])[3-9JQKA2]*T[3-9TJQKA2]*(?![\w`])")


@dataclass(frozen=True, slots=True)
class Text:
    """Lesson text in English with an optional Russian version, and an optional browser wording.

    ``web`` is the wording for the browser when the text speaks of the terminal (typing cards,
    ``ddz play``, the keys c/h/u); the session picks it for the web front end (:meth:`for_front`).
    """

    en: str
    ru: str | None = None
    web: Text | None = None

    def get(self, lang: str) -> str:
        """The text in ``lang``, falling back to English."""
        return self.ru if lang == "ru" and self.ru else self.en

    def render(self, lang: str | None = None) -> str:
        """The text in ``lang`` (default: the current language): a phrase can hold it, rendered late."""
        return self.get(lang or language())

    def for_front(self, front: str) -> Text:
        """The wording for a front end: the terminal's as written; the browser's ``web`` wording when
        there is one, else the text with its tens spelled 10 and lone joker letters by name."""
        if front != WEB:
            return self
        if self.web is not None:
            return self.web
        return Text(_card_words(self.en, "en"), _card_words(self.ru, "ru") if self.ru else None)

    @classmethod
    def of(cls, raw: Any) -> Text:
        if isinstance(raw, dict):
            web = raw.get("web")
            return cls(str(raw["en"]), raw.get("ru"), cls.of(web) if isinstance(web, dict) else None)
        return cls(str(raw))


def _card_words(text: str, lang: str) -> str:
    """Tens as the page writes them («a T» → «a 10», «TT» → «10 10», «9TJQK» → «9 10 J Q K»), and a
    lone joker letter by its name (a fallback: tutor/lessons/wording.py asks authors to name jokers,
    which Russian declines)."""
    words = _CARD_WORDS[lang]
    tens = _TEN_RUN.sub(lambda m: " ".join("10" if c == "T" else c for c in m.group(0)), text)
    return _LONE_CARD.sub(lambda m: words[m.group(1)], tens)


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a lesson file: where it is and what it is.

    ``code`` is a stable name of the kind of problem (``schema``, ``bad_cards``,
    ``duplicate_card``, ``hand_size``, ``unreachable``, ``illegal_answer``,
    ``refuted``, …) so tools and tests can tell them apart.
    """

    file: str
    line: int
    path: str
    code: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.path}: {clip_quotes(self.message)} [{self.code}]"


@dataclass(frozen=True)
class Setup:
    """A position as a lesson shows it (RULES §8 plus what the author chooses to reveal)."""

    landlord: int | None
    bid: int | None
    hands: dict[int, Cards]
    show: frozenset[int]
    counts: dict[int, int]
    kitty: Cards | None
    bids: tuple[tuple[int, int], ...]
    history: tuple[Turn, ...]
    history_complete: bool
    table: Combo | None
    table_by: int | None
    to_move: int
    #: Cards played before the history, known to the learner (the card counter shows them); with
    #: them every card is accounted for, so the hidden hands are exactly the cards left unseen.
    gone: Cards | None = None
    #: The rule set of the lesson (its ``rules`` field): the auction a bid task is judged under, whether
    #: the landlord may show the hand — what the validator proves and the runner accepts (RULES §12).
    rules: Rules = field(kw_only=True)

    def still_out(self) -> Cards | None:
        """What the card counter shows when the lesson says which cards are gone: every card not in
        your hand and not played (the other two hands together); None when the lesson does not say."""
        if self.gone is None or YOU not in self.hands:
            return None
        return Cards(self.rules.deck_packed - self.hands[YOU].packed - self.gone.packed - self.played().packed)

    def count(self, seat: int) -> int | None:
        """Cards held by ``seat``: its hand's size, else the stated count."""
        if seat in self.hands:
            return len(self.hands[seat])
        return self.counts.get(seat)

    @property
    def fully_known(self) -> bool:
        """Every hand and the landlord given: the solver can search it."""
        return self.landlord is not None and all(s in self.hands for s in range(self.rules.players))

    def played(self) -> Cards:
        """Every card the history and the table show as played."""
        total = 0
        for turn in self.history:
            if turn.play is not None:
                total += turn.play.cards
        if self.table is not None and not self._table_in_history():
            total += self.table.cards
        return Cards(total)

    def _table_in_history(self) -> bool:
        last = next((t for t in reversed(self.history) if t.play is not None), None)
        return last is not None and last.play == self.table and last.seat == self.table_by


class TaskType(str, Enum):
    PLAY = "play"
    LINE = "line"
    BID = "bid"
    #: The open hand (RULES §12.2): the landlord shows the hand (1) or keeps it closed (0) — ``Task.bids``.
    SHOW = "show"
    NAME = "name"
    SCORE = "score"


@dataclass(frozen=True)
class Feedback:
    """Feedback on a specific wrong answer (``answer``) or any wrong move of a ``kind``."""

    text: Text
    answer: str | int | None = None
    kind: Kind | None = None
    mistake: Mistake | None = None


@dataclass(frozen=True)
class Task:
    """What the learner must do in a step, and how answers are judged."""

    type: TaskType
    prompt: Text | None = None
    hints: tuple[Text, ...] = ()
    feedback: tuple[Feedback, ...] = ()
    success: Text | None = None
    #: play: accepted moves as written, kinds of which any legal move is accepted,
    #: and whether any move the solver proves winning is accepted.
    moves: tuple[MoveSpec, ...] = ()
    kinds: tuple[Kind, ...] = ()
    winning: bool = False
    #: play: what the accepted answers are best for — ``win`` (the default), ``fastest``
    #: (the quickest forced win, open hands) or ``fewest_plays`` (your hand alone: the
    #: first play of a plan that empties it in the fewest plays) — and, for
    #: ``fewest_plays``, cards the answer must hold (the question is about them).
    goal: str = "win"
    goal_holding: Cards | None = None
    #: play: opponent replies after a correct move: scripted moves, "solver", or none.
    replies: tuple[MoveSpec, ...] | str | None = None
    #: bid: accepted bids (0 = pass).
    bids: tuple[int, ...] = ()
    #: name: the cards to name, and the accepted kind labels ("none" = not a combination).
    cards: Cards | None = None
    names: tuple[str, ...] = ()
    #: score: the game to score and what to ask.
    ask: str | None = None
    game: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Step:
    text: Text
    setup: Setup | None = None
    task: Task | None = None
    #: Field path of this step in its file (for messages).
    where: FieldPath = ()
    #: The position or task could not be built (its problems are reported); later checks skip it.
    broken: bool = False
    #: The rule set the step is played, answered and proven under: its lesson's (RULES §12).  A step keeps
    #: it when it travels alone (the review of missed tasks mixes steps of lessons with different rules).
    rules: Rules = field(kw_only=True)


@dataclass(frozen=True)
class Lesson:
    id: str
    title: Text
    level: int
    prerequisites: tuple[str, ...]
    steps: tuple[Step, ...]
    summary: Text | None = None
    path: Path | None = None
    #: The rule set every position and task of the lesson is played and proven under (RULES §12).
    rules: Rules = field(kw_only=True)

    @property
    def tasks(self) -> int:
        return sum(1 for s in self.steps if s.task is not None)


# ---------------------------------------------------------------------------- building


class _Collector:
    """Collects problems of one file with their lines."""

    def __init__(self, doc: LessonDocument) -> None:
        self.doc = doc
        self.problems: list[Problem] = []

    def add(self, where: FieldPath, code: str, message: str) -> None:
        self.problems.append(Problem(str(self.doc.path), self.doc.line(where), format_path(where), code, message))


def _seat(name: str) -> int:
    return SEATS.index(name)


def _cards(raw: Any, where: FieldPath, out: _Collector) -> Cards | None:
    try:
        return Cards.parse(str(raw))
    except InvalidCardsError as error:
        out.add(where, "bad_cards", str(error))
        return None


def _table_combo(raw: dict[str, Any], where: FieldPath, out: _Collector) -> Combo | None:
    cards = _cards(raw["cards"], (*where, "cards"), out)
    if cards is None:
        return None
    options = readings(cards)
    if "kind" in raw:
        options = [r for r in options if r.kind.label == raw["kind"]]
    if not options:
        out.add((*where, "cards"), "bad_table", f"table {str(cards)!r} is not a {raw.get('kind', 'combination')}")
        return None
    kinds = {r.kind for r in options}
    if len(options) > 1 and len(kinds) > 1 and "kind" not in raw:
        names = ", ".join(sorted(k.label for k in kinds))
        out.add((*where, "cards"), "ambiguous_table", f"table {str(cards)!r} reads as {names}: add 'kind'")
        return None
    return min(options, key=lambda c: (int(c.kind), -c.length, -c.main))


def _build_setup(raw: dict[str, Any], where: FieldPath, out: _Collector, rules: Rules) -> Setup | None:
    ok = True
    hands: dict[int, Cards] = {}
    for name, text in (raw.get("hands") or {}).items():
        cards = _cards(text, (*where, "hands", name), out)
        if cards is None:
            ok = False
        else:
            hands[_seat(name)] = cards
    kitty = None
    if "kitty" in raw:
        kitty = _cards(raw["kitty"], (*where, "kitty"), out)
        ok = ok and kitty is not None
    gone = None
    if "gone" in raw:
        gone = _cards(raw["gone"], (*where, "gone"), out)
        ok = ok and gone is not None
    history: list[Turn] = []
    for i, item in enumerate(raw.get("history") or []):
        try:
            spec = parse_move(item["play"])
        except (LessonMoveError, ValueError) as error:
            out.add((*where, "history", i, "play"), "bad_cards", str(error))
            ok = False
            continue
        if spec.cards is None:
            history.append(Turn(_seat(item["by"]), None))
            continue
        options = [r for r in readings(spec.cards) if spec.kind is None or r.kind == spec.kind]
        if not options:
            out.add((*where, "history", i, "play"), "illegal_history", f"{spec} is not a combination")
            ok = False
            continue
        history.append(Turn(_seat(item["by"]), min(options, key=lambda c: (int(c.kind), -c.length, -c.main))))
    table = table_by = None
    if "table" in raw:
        table = _table_combo(raw["table"], (*where, "table"), out)
        table_by = _seat(raw["table"]["by"])
        ok = ok and table is not None
    if not ok:
        return None
    landlord = _seat(raw["landlord"]) if "landlord" in raw else None
    to_move = _seat(raw.get("to_move", "you"))
    setup = Setup(
        landlord=landlord,
        bid=raw.get("bid"),
        hands=hands,
        show=frozenset(_seat(s) for s in raw.get("show", ["you"])),
        counts={_seat(k): int(v) for k, v in (raw.get("counts") or {}).items()},
        kitty=kitty,
        bids=tuple((_seat(b["by"]), bid_code(b["bid"])) for b in raw.get("bids") or []),
        history=tuple(history),
        history_complete=bool(raw.get("history_complete", False)),
        table=table,
        table_by=table_by,
        to_move=to_move,
        gone=gone,
        rules=rules,
    )
    _check_setup(setup, raw, where, out)
    return setup


def _check_setup(setup: Setup, raw: dict[str, Any], where: FieldPath, out: _Collector) -> None:
    """Cards that appear twice, hand sizes and whether the position can arise (RULES §2–§4)."""
    rules = setup.rules
    # The same card in two places: sum every visible card and compare with the deck.
    total = [0] * NUM_RANKS
    parts: list[Cards] = [*setup.hands.values(), setup.played(), *([setup.gone] if setup.gone is not None else [])]
    for part in parts:
        for r, n in enumerate(part.counts):
            total[r] += n
    for r, n in enumerate(total):
        if n > rules.deck[r]:
            out.add(
                (*where, "hands"),
                "duplicate_card",
                f"{n} cards {rank_char(r)!r} in the hands, the history and the table; the deck has {rules.deck[r]}",
            )
    if setup.gone is not None and all(setup.count(s) is not None for s in range(rules.players)):
        # Every card accounted for: the hands, the cards gone, the history and the table make the deck.
        in_hands = sum(int(setup.count(s) or 0) for s in range(rules.players))
        deck = in_hands + len(setup.gone) + len(setup.played())
        if deck != rules.deck_size:
            out.add((*where, "gone"), "hand_size",
                    f"with 'gone' every card is accounted for: {in_hands} held + {len(setup.gone)} gone +"
                    f" {len(setup.played())} in the history make {deck}, not {rules.deck_size}")
    if setup.kitty is not None and len(setup.kitty) != rules.kitty_size:
        out.add((*where, "kitty"), "hand_size", f"the kitty has {rules.kitty_size} cards, not {len(setup.kitty)}")
    # Hand sizes: cards held + cards already played by that seat ≤ the deal (17, landlord 20).
    played_by = [0] * rules.players
    for turn in setup.history:
        if turn.play is not None:
            played_by[turn.seat] += turn.play.size
    if setup.table is not None and not setup._table_in_history() and setup.table_by is not None:
        played_by[setup.table_by] += setup.table.size
    for seat in range(rules.players):
        held = setup.count(seat)
        if held is None:
            continue
        if seat in setup.hands and seat in setup.counts and setup.counts[seat] != len(setup.hands[seat]):
            out.add((*where, "counts", SEATS[seat]), "hand_size",
                    f"{SEATS[seat]} holds {len(setup.hands[seat])} cards but counts says {setup.counts[seat]}")
        limit = rules.hand_size + (rules.kitty_size if setup.landlord in (seat, None) else 0)
        if setup.landlord is None:
            limit = rules.hand_size
        key = "hands" if seat in setup.hands else "counts"
        if held + played_by[seat] > limit:
            role = "the landlord" if setup.landlord == seat else ("a farmer" if setup.landlord is not None else "a player")
            out.add((*where, key, SEATS[seat]), "hand_size",
                    f"{SEATS[seat]} has held {held + played_by[seat]} cards ({held} in hand, {played_by[seat]} played);"
                    f" {role} is dealt {limit}")
        elif setup.history_complete and held + played_by[seat] != limit:
            out.add((*where, key, SEATS[seat]), "hand_size",
                    f"with the whole history given, {SEATS[seat]} must have held {limit} cards, not "
                    f"{held + played_by[seat]}")
        if held == 0:
            out.add((*where, key, SEATS[seat]), "unreachable", f"{SEATS[seat]} has no cards: the game would be over")
    # Can the position arise?  The table was played by someone else than the mover …
    if setup.table is not None and setup.table_by == setup.to_move:
        out.add((*where, "table", "by"), "unreachable",
                f"{SEATS[setup.to_move]} is to move and cannot be asked to beat their own play")
    # … the landlord opens the play, so a landlord with all 20 cards means nobody has played yet …
    if setup.landlord is not None:
        full = rules.hand_size + rules.kitty_size
        if setup.count(setup.landlord) == full and (setup.to_move != setup.landlord or setup.table is not None
                                                    or setup.history):
            out.add((*where, "to_move"), "unreachable",
                    f"the landlord ({SEATS[setup.landlord]}) still holds {full} cards, so nobody has played yet;"
                    " the landlord leads first (RULES §3)")
        if setup.kitty is not None and setup.landlord in setup.hands and setup.count(setup.landlord) == full:
            if not setup.kitty.issubset(setup.hands[setup.landlord]):
                out.add((*where, "kitty"), "unreachable", "the landlord took the kitty, so it must be in their hand")
    elif setup.table is not None or setup.history:
        out.add((*where,), "unreachable", "plays on the table need a landlord: add 'landlord'")
    # … and the history alternates seats in turn order, each play beating the one before (RULES §4, §6).
    # The turn order and the table are the engine's trick rule (RULES §4), never counted here.
    previous: int | None = None
    expected: int | None = None
    trick = EngineTrick()
    for i, turn in enumerate(setup.history):
        if previous is not None and turn.seat != expected:
            out.add((*where, "history", i, "by"), "unreachable",
                    f"{SEATS[turn.seat]} cannot play right after {SEATS[previous]}: play goes you → right → left")
        previous = turn.seat
        if turn.play is None and trick.table is None and i > 0:
            out.add((*where, "history", i, "play"), "unreachable", f"{SEATS[turn.seat]} leads here and cannot pass")
        elif turn.play is not None and trick.table is not None:
            beating = best_beating_reading(turn.play.cards, trick.table)
            if beating is None:
                out.add((*where, "history", i, "play"), "unreachable",
                        f"{turn.play.text} cannot follow {trick.table.text}: {why_not_beats(turn.play, trick.table)}")
            else:
                turn = Turn(turn.seat, beating)
        trick, expected = trick.after(turn.seat, turn.play, rules.players)
    if previous is not None and expected is not None and (setup.table is None or setup._table_in_history()) and \
            setup.to_move != expected:
        out.add((*where, "to_move"), "unreachable", f"after {SEATS[previous]}'s turn it is {SEATS[expected]} to move")
    if setup.bids:
        # The bids before the task's turn, judged by engine/auction.py (RULES §3).
        auction = Auction.of(())
        for i, (seat, bid) in enumerate(setup.bids):
            highest = auction.outcome(rules).stake
            if bid and bid not in auction.legal(rules):
                why = "a call comes first, then robs (RULES §12.1)" if rules.robs else \
                    f"a bid must be higher than {highest} (RULES §3)"
                out.add((*where, "bids", i, "bid"), "unreachable", why)
            auction = Auction.of(auction.moves + ((seat, bid),))
            if ends_at_once(bid, rules):
                out.add((*where, "bids", i, "bid"), "unreachable", "a bid of 3 ends the auction at once (RULES §3)")


def bid_code(raw: str | int) -> int:
    """A bid as a lesson file writes it (0-3, ``pass``, or ``call``/``rob`` of RULES §12.1) → its code."""
    if isinstance(raw, int):
        return raw
    word = str(raw).strip().lower()
    if word in ROB_WORDS:
        return ROB_WORDS[word]
    return int(word)


def _text(raw: Any) -> Text | None:
    return None if raw is None else Text.of(raw)


def _moves(raw: list[Any], where: FieldPath, out: _Collector) -> tuple[MoveSpec, ...] | None:
    specs = []
    for i, text in enumerate(raw):
        try:
            specs.append(parse_move(str(text)))
        except (LessonMoveError, ValueError) as error:
            out.add((*where, i), "bad_cards", str(error))
            return None
    return tuple(specs)


def _build_task(raw: dict[str, Any], where: FieldPath, out: _Collector) -> Task | None:
    kind = TaskType(raw["type"])
    accept = raw.get("accept") or {}
    feedback = tuple(
        Feedback(
            text=Text.of(f["text"]),
            answer=f.get("answer"),
            kind=Kind.from_label(f["kind"]) if "kind" in f else None,
            mistake=Mistake(f["mistake"]) if "mistake" in f else None,
        )
        for f in raw.get("feedback") or []
    )
    common: dict[str, Any] = dict(
        type=kind,
        prompt=_text(raw.get("prompt")),
        hints=tuple(Text.of(h) for h in raw.get("hints") or []),
        feedback=feedback,
        success=_text(raw.get("success")),
    )
    if kind == TaskType.PLAY:
        moves = _moves(accept.get("moves") or [], (*where, "accept", "moves"), out)
        replies: tuple[MoveSpec, ...] | str | None = raw.get("replies")
        if isinstance(replies, list):
            replies = _moves(replies, (*where, "replies"), out)
            if replies is None:
                return None
        if moves is None:
            return None
        goal = raw.get("goal") or {}
        holding = None
        if "holding" in goal:
            holding = _cards(goal["holding"], (*where, "goal", "holding"), out)
            if holding is None:
                return None
        return Task(**common, moves=moves, kinds=tuple(Kind.from_label(k) for k in accept.get("kinds") or []),
                    winning=bool(accept.get("winning", False)), replies=replies,
                    goal=str(goal.get("type", "win")), goal_holding=holding)
    if kind == TaskType.LINE:
        return Task(**common, winning=True)
    if kind == TaskType.BID:
        return Task(**common, bids=tuple(bid_code(b) for b in accept["bids"]))
    if kind == TaskType.SHOW:
        return Task(**common, bids=(SHOW_WORDS["show"] if accept["show"] else SHOW_WORDS["keep"],))
    if kind == TaskType.NAME:
        cards = _cards(raw["cards"], (*where, "cards"), out)
        if cards is None:
            return None
        return Task(**common, cards=cards, names=tuple(accept.get("kinds") or ()))
    return Task(**common, ask=raw["ask"], game=dict(raw["game"]))


def build_lesson(doc: LessonDocument, skip: frozenset[FieldPath] = frozenset()) -> tuple[Lesson | None, list[Problem]]:
    """Turn a schema-valid document into a :class:`Lesson`, with the problems found.

    Args:
        doc: the loaded file.
        skip: step paths that had schema errors; they are left out instead of
            being built from data of the wrong shape.
    """
    out = _Collector(doc)
    data = doc.data
    rules = named_rules(str(data.get("rules", STANDARD.name))) or STANDARD
    steps: list[Step] = []
    for i, raw in enumerate(data.get("steps") or []):
        where: FieldPath = ("steps", i)
        if where in skip:
            continue
        setup = _build_setup(raw["position"], (*where, "position"), out, rules) if "position" in raw else None
        task = _build_task(raw["task"], (*where, "task"), out) if "task" in raw else None
        broken = ("position" in raw and setup is None) or ("task" in raw and task is None)
        steps.append(Step(Text.of(raw["text"]), setup, task, where, broken, rules=rules))
    # The top-level fields may be broken (reported by the schema); build what we can.
    title = data.get("title")
    prerequisites = data.get("prerequisites")
    lesson = Lesson(
        id=str(data.get("id", "")),
        title=Text.of(title) if isinstance(title, str) or (isinstance(title, dict) and "en" in title) else Text("?"),
        level=data["level"] if isinstance(data.get("level"), int) else 0,
        prerequisites=tuple(str(p) for p in prerequisites) if isinstance(prerequisites, list) else (),
        steps=tuple(steps),
        summary=_text(data.get("summary")),
        path=doc.path,
        rules=rules,
    )
    return lesson, out.problems


__all__ = [
    "SEATS",
    "Feedback",
    "Lesson",
    "Mistake",
    "Problem",
    "Setup",
    "Step",
    "Task",
    "TaskType",
    "Text",
    "build_lesson",
    "illegal_reason",
    "resolve",
]
