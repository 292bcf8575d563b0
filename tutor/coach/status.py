"""Status lines of RULES §9: the bidding estimate and the "can I play this?" line.

These are the trainer's most frequent words, so they are computed from the
engine's own definitions (readings, beats, legal moves) — never a second
opinion of the rules — and they say *why* in the player's terms: not in your
hand, not a combination, wrong size, does not beat (and what would).

Pure functions, no printing: the CLI (and later lessons and puzzles) show the
``line`` of the result however they like.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from tutor import judgement
from tutor.files import QUOTE, shorten
from tutor.engine.cards import Cards, InvalidCardsError, format_packed, packed_size, rank_char, unpack
from tutor.engine.combos import Combo, Kind, readings, strength
from tutor.engine.moves import legal_moves
from tutor.engine.rules import STANDARD, Rules
from tutor.engine.notation import MoveText, resolve
from tutor.i18n import Phrase, t


def combo_name(combo: Combo) -> str:
    """The combination's name in the current language: «Тройка + 1», "Straight of 6"."""
    return combo_phrase(combo).render()


def describe(combo: Combo) -> str:
    """Name and cards: "Trio + 1 QQQ5"."""
    cards = cards_phrase(combo)
    return f"{combo_name(combo)} {cards if isinstance(cards, str) else cards.render()}"


def combo_phrase(combo: Combo) -> Phrase:
    """:func:`combo_name` as data, for lines rendered later (a soft bomb by its name, RULES §12.3)."""
    if combo.soft:
        return Phrase("wild.kind_soft_bomb")
    return Phrase(f"coach.kind_{Kind(combo.kind).label}", {"n": combo.length})


def cards_phrase(combo: Combo) -> str | Phrase:
    """The cards of a play, and what its wild cards stand for: «7779 (9 as 7)» (RULES §12.3)."""
    if not combo.wild:
        return combo.text
    wild = rank_char(combo.wild_rank_hint())
    return Phrase("wild.cards_as", {"cards": combo.text, "wild": wild * packed_size(combo.wild), "as": format_packed(combo.wild)})


def describe_phrase(combo: Combo, lower: bool = False) -> Phrase:
    """:func:`describe` as data ("Trio + 1 QQQ5"); ``lower`` for use inside a sentence."""
    return Phrase("coach.describe", {"name": combo_phrase(combo), "cards": cards_phrase(combo)}, lower=lower)


def lower_first(text: str) -> str:
    return text[:1].lower() + text[1:] if text else text


# ---------------------------------------------------------------------------- bidding
@dataclass(frozen=True, slots=True)
class BidStatus:
    """The bidding estimate: high cards, bombs, moves to finish, suggested bid (0 = pass)."""

    high_cards: int
    bombs: int
    moves: int
    suggested: int

    @property
    def phrase(self) -> Phrase:
        """The status line as data (rendered late, in the learner's language)."""
        values = {"high": self.high_cards, "bombs": self.bombs, "moves": self.moves, "bid": self.suggested}
        return Phrase("coach.bid_status" if self.suggested else "coach.bid_status_pass", values)

    @property
    def line(self) -> str:
        """«Старших карт: 3 · бомб: 0 · ходов до конца: ~7 → прикидка по силе руки: ставка 1».

        The bid is labelled a first guess: the coach's expected-score evaluation
        (:func:`tutor.coach.bidding.bid_status_phrase`) can disagree, and where it is
        shown it replaces this one."""
        return self.phrase.render()


def bid_status(hand: Cards) -> BidStatus:
    """The bidding status line of RULES §9 for ``hand``.

    The numbers come from the bots' hand evaluation (the provided judgement's
    :meth:`~tutor.judgement.Players.hand_value`), so the coach suggests exactly
    the bid a medium bot would make with these cards, for the same reasons.
    """
    found = judgement.players().hand_value(hand)
    return BidStatus(found.high_cards, found.bombs, found.moves, found.suggested_bid)


# ------------------------------------------------------------------------------ play
@dataclass(frozen=True, slots=True)
class PlayStatus:
    """What a selection of cards would do now.

    ``options`` are the readings the player may choose between (one when the
    play is unambiguous, none when it cannot be played); ``line`` is the status
    line in the current language.
    """

    line: str
    ok: bool
    cards: Cards | None = None
    options: tuple[Combo, ...] = field(default=())

    @property
    def needs_choice(self) -> bool:
        return len(self.options) > 1


def _missing(hand: Cards, chosen: Cards) -> str:
    counts_hand, counts_chosen = hand.counts, chosen.counts
    short = [max(0, c - h) for c, h in zip(counts_chosen, counts_hand)]
    return format_packed(sum(n << (4 * r) for r, n in enumerate(short)))


def lead_options(cards: Cards, rules: Rules | None = None) -> list[Combo]:
    """Distinct ways to lead ``cards``: one per kind and length, the highest main (RULES §6).

    ``rules``: the game's (a wildcard game reads stand-ins, RULES §12.3); None for the standard game.
    """
    return _named(cards, legal_moves(cards, None, rules or STANDARD))


def _named(cards: Cards, legal: Sequence[Combo]) -> list[Combo]:
    """The legal moves the selection ``cards`` names (the engine's one resolver), by kind and length."""
    found = [m for m in resolve(MoveText(cards), legal).options if m is not None]
    return sorted(found, key=lambda c: (c.kind, c.length))


def would_beat(hand: Cards, table: Combo, limit: int = 3, rules: Rules | None = None) -> list[Combo]:
    """A few plays from ``hand`` that beat ``table``: same kind first, lowest first, bombs last."""
    moves = list(legal_moves(hand, table, rules or STANDARD))
    moves.sort(key=lambda m: (m.is_bomb, m.kind == Kind.ROCKET, m.main, m.cards))
    return moves[:limit]


def play_status(hand: Cards, table: Combo | None, text: str, rules: Rules | None = None) -> PlayStatus:
    """The status line for typed cards, before anything is committed (RULES §9).

    Args:
        hand: the player's hand.
        table: the combination to beat, or None when leading.
        text: what the player typed (``"33344"``, ``"3 3 3 4 4"``, ``"10"``, ``"xd"``).
        rules: the game's rules (the wildcard game's readings, RULES §12.3); None for the standard game.
    """
    rules = rules or STANDARD
    try:
        chosen = Cards.parse(text)
    except InvalidCardsError:
        return PlayStatus(t("coach.not_cards", text=shorten(text, QUOTE)), False)
    if not chosen:
        return PlayStatus(t("coach.not_cards", text=shorten(text, QUOTE)), False)
    if not chosen.issubset(hand):
        return PlayStatus(t("coach.not_in_hand", cards=str(chosen), missing=_missing(hand, chosen)), False, chosen)
    options = readings(chosen, rules)
    if not options:
        return PlayStatus(t("coach.not_combination", cards=str(chosen)), False, chosen)
    legal = legal_moves(hand, table, rules)
    named = _named(chosen, legal)
    if table is None or len(named) > 1:  # several readings (following too in the wildcard game: RULES §12.3)
        leads = named
        names = " / ".join(combo_name(c) for c in leads)
        tail = t("coach.choose_reading") if len(leads) > 1 else t("coach.can_play")
        return PlayStatus(f"{names} · {tail}", True, chosen, tuple(leads))
    if named:
        best = named[0]
        return PlayStatus(f"{combo_name(best)} · {t('coach.can_play')}", True, chosen, (best,))
    reading = max(options, key=strength)
    reason = _why_not(reading, table, len(chosen))
    suggestions = would_beat(hand, table, rules=rules)
    if suggestions:
        tail = t("coach.would_beat", moves=", ".join(m.text for m in suggestions))
    else:
        tail = t("coach.nothing_would_beat")
    return PlayStatus(f"{combo_name(reading)} · {reason} · {tail}", False, chosen)


def _why_not(play: Combo, table: Combo, size: int) -> str:
    if table.kind == Kind.ROCKET:
        return t("coach.nothing_beats_rocket")
    if table.kind == Kind.BOMB and play.kind != Kind.BOMB:
        return t("coach.only_bomb_beats", table=describe(table))
    table_size = sum(unpack(table.cards))
    if play.kind == table.kind and (play.length != table.length or size != table_size):
        return t("coach.wrong_size", table=lower_first(describe(table)), table_size=table_size, size=size)
    if play.kind != table.kind and size != table_size:
        return t("coach.wrong_size", table=lower_first(describe(table)), table_size=table_size, size=size)
    return t("coach.does_not_beat", play=describe(play), table=lower_first(describe(table)))


def pass_status(table: Combo | None) -> PlayStatus:
    """Status of typing ``pass``: allowed only when following (RULES §4)."""
    if table is None:
        return PlayStatus(t("coach.must_lead"), False)
    return PlayStatus(t("coach.pass_ok"), True)
