"""Beginner mistakes of RULES §11, one small predicate each.

Every detector looks at what the player knew (their :class:`PlayerView`
*before* the move) and the move they made, and returns a :class:`Finding`
when the move matches the mistake — or None.  They are deliberately narrow:
the coach speaks only when it is sure the advice applies, because a coach
that nags about every play is a coach nobody reads.

The four classic mistakes of the primary source, and the advice around them:

1. :func:`breaks_bomb_for_straight` / :func:`breaks_bomb` / :func:`breaks_rocket`
2. :func:`spends_high_cards_early` / :func:`overkill`
3. :func:`beats_partner` (a farmer smothering their partner)
4. :func:`throws_top_single_while_rocket_out` (not counting cards)

plus :func:`leads_single_when_landlord_has_one` and :func:`not_feeding_partner`.
:func:`detect` runs them all in order and returns the first finding.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tutor import judgement
from tutor.coach.seats import seat_phrase
from tutor.engine.cards import BIG_JOKER, R2, R9, SMALL_JOKER, Cards, format_packed, packed_count, rank_char
from tutor.engine.combos import Combo, Kind
from tutor.engine.facts import is_boss
from tutor.engine.moves import legal_moves
from tutor.engine.view import PlayerView
from tutor.i18n import Phrase

HIGH_RANKS = (R2, SMALL_JOKER, BIG_JOKER)
#: "Early": the player still holds at least this many cards after the play.
EARLY_CARDS_LEFT = 10
#: Opponents this close to going out make spending high cards reasonable.
DANGER_CARDS = 5


@dataclass(frozen=True, slots=True)
class Finding:
    """One coaching remark: a mistake code (also its i18n key) and the values of its text."""

    code: str
    values: Mapping[str, object] = field(default_factory=dict)

    @property
    def phrase(self) -> Phrase:
        """The remark as data, rendered late in the learner's language (and kept so by the store)."""
        return Phrase(f"coach.{self.code}", self.values)

    @property
    def text(self) -> str:
        return self.phrase.render()

    def to_data(self) -> dict[str, Any]:
        """JSON-ready: ``{"code": …, "values": {…}}`` (nested phrases as data), what the store keeps."""
        return {"code": self.code, "values": self.phrase.to_data()["values"]}

    @classmethod
    def from_data(cls, data: Any) -> Finding:
        """Read :meth:`to_data` back (ValueError on anything else)."""
        if not isinstance(data, Mapping) or not isinstance(data.get("code"), str):
            raise ValueError(f"not a stored finding: {str(data)[:40]!r}")
        phrase = Phrase.from_data({"key": f"coach.{data['code']}", "values": data.get("values") or {}})
        return cls(data["code"], dict(phrase.values))


Detector = Callable[[PlayerView, Combo | None], Finding | None]


def _opponents(view: PlayerView) -> list[int]:
    return [s for s in range(view.players) if not view.is_partner(s)]


def _partner(view: PlayerView) -> int | None:
    if view.landlord is None or view.is_landlord:
        return None
    return next(s for s in range(view.players) if s != view.seat and s != view.landlord)


def _goes_out(view: PlayerView, move: Combo) -> bool:
    return move.cards == view.hand.packed


# ------------------------------------------------------------- mistake 1: bombs
def breaks_bomb_for_straight(view: PlayerView, move: Combo | None) -> Finding | None:
    """A straight or pair chain that takes cards out of a four of a kind (mistake 1)."""
    if move is None or move.kind not in (Kind.STRAIGHT, Kind.PAIR_CHAIN) or _goes_out(view, move):
        return None
    for rank in range(R2):
        if view.hand.count(rank) == 4 and 0 < packed_count(move.cards, rank) < 4:
            kind = Phrase(f"coach.kind_{Kind(move.kind).label}", {"n": move.length}, lower=True)
            return Finding("breaks_bomb_for_straight", {"bomb": rank_char(rank) * 4, "kind": kind})
    return None


def breaks_bomb(view: PlayerView, move: Combo | None) -> Finding | None:
    """Any other play that uses part of a bomb (a single, pair or trio out of 7777)."""
    if move is None or move.kind in (Kind.STRAIGHT, Kind.PAIR_CHAIN) or _goes_out(view, move):
        return None
    for rank in range(R2 + 1):
        if view.hand.count(rank) == 4 and 0 < packed_count(move.cards, rank) < 4:
            return Finding("breaks_bomb", {"bomb": rank_char(rank) * 4})
    return None


def breaks_rocket(view: PlayerView, move: Combo | None) -> Finding | None:
    """Playing one joker while holding both: the rocket is gone."""
    if move is None or _goes_out(view, move):
        return None
    if not (view.hand.count(SMALL_JOKER) and view.hand.count(BIG_JOKER)):
        return None
    jokers = packed_count(move.cards, SMALL_JOKER) + packed_count(move.cards, BIG_JOKER)
    return Finding("breaks_rocket") if jokers == 1 else None


# --------------------------------------------------------- mistake 2: high cards
def _high_in(move: Combo) -> int:
    return sum(packed_count(move.cards, r) for r in HIGH_RANKS)


def _high_text(move: Combo) -> str:
    return "".join(rank_char(r) * packed_count(move.cards, r) for r in HIGH_RANKS)


def spends_high_cards_early(view: PlayerView, move: Combo | None) -> Finding | None:
    """Leading twos or jokers (not as a bomb or rocket) while the hand is still long.

    Only when no opponent is close to going out: then spending control cards
    to hold the lead is right, not a beginner's habit.
    """
    if move is None or view.table is not None or move.is_bomb:
        return None
    if not _high_in(move):
        return None
    left = len(view.hand) - move.size
    if left < EARLY_CARDS_LEFT:
        return None
    if any(view.card_counts[s] <= DANGER_CARDS for s in _opponents(view)):
        return None
    return Finding("spends_high_cards_early", {"cards": _high_text(move), "left": left})


def overkill(view: PlayerView, move: Combo | None) -> Finding | None:
    """Beating with a two or joker when a lower play of the same kind would have done.

    "Would have done" means it takes the trick as surely: it breaks no pair,
    trio or bomb of the hand (a lone K, not one K of a pair) and no opponent
    can beat it, counting from what the player has seen.  Otherwise the lower
    card may lose the trick and the high one was the price of keeping it.
    """
    if move is None or view.table is None or move.is_bomb:
        return None
    if not _high_in(move) or _goes_out(view, move):
        return None
    if view.table_seat is not None and view.is_partner(view.table_seat):
        return None  # beats_partner speaks about that
    lower = [
        m
        for m in legal_moves(view.hand, view.table, view.rules)
        if m.kind == move.kind and m.length == move.length and not _high_in(m) and not _breaks_group(view, m)
    ]
    if not lower:
        return None
    lower = [m for m in lower if _boss_combo(view, m)]
    if not lower:
        return None
    cheapest = min(lower, key=lambda m: (m.main, m.cards))
    return Finding("overkill", {"cards": move.text, "lower": cheapest.text})


def _breaks_group(view: PlayerView, move: Combo) -> bool:
    """Does ``move`` take only part of a rank the hand holds several of?"""
    for rank in range(BIG_JOKER + 1):
        used = packed_count(move.cards, rank)
        if used and used < view.hand.count(rank):
            return True
    return False


def _boss_combo(view: PlayerView, move: Combo) -> bool:
    opponents = _opponents(view)
    # Bombs are left out: a bomb beats the high card and the lower one alike.
    return is_boss(move, view.unseen().packed, max(view.card_counts[s] for s in opponents), bombs=False, rules=view.rules)


# ------------------------------------------------------- mistake 3: the partner
def beats_partner(view: PlayerView, move: Combo | None) -> Finding | None:
    """A farmer beating the other farmer's play (RULES §11: do not beat your partner).

    Only when passing surely left the trick to the partner: the landlord has
    already passed on the partner's play.  When the landlord still plays after
    you, beating may be the only way to stop it (RULES §11's own exception).
    Fine when it empties your hand.
    """
    if move is None or view.table is None or view.table_seat is None:
        return None
    partner = _partner(view)
    if partner is None or view.table_seat != partner or _goes_out(view, move):
        return None
    if not _landlord_passed_since(view, partner):
        return None
    if move.is_bomb:
        return Finding("smothers_partner_with_bomb")
    return Finding("beats_partner", {"partner": seat_phrase(partner, view.rules)})


def _landlord_passed_since(view: PlayerView, seat: int) -> bool:
    """Has the landlord passed since ``seat``'s last play (on this trick)?"""
    for turn in reversed(view.history):
        if turn.seat == seat and turn.play is not None:
            return False
        if turn.seat == view.landlord and turn.play is None:
            return True
    return False


# ---------------------------------------------------- mistake 4: not counting
def throws_top_single_while_rocket_out(view: PlayerView, move: Combo | None) -> Finding | None:
    """Throwing your highest single while a higher joker is still unseen (mistake 4).

    A 2 is not the top card while either joker is out; a small joker is not
    while the big one is.  Counted from what the player has seen (RULES §9).
    """
    if move is None or move.kind != Kind.SINGLE or _goes_out(view, move):
        return None
    rank = move.main
    if rank not in (R2, SMALL_JOKER):
        return None
    if any(view.hand.count(r) for r in range(rank + 1, BIG_JOKER + 1)):
        return None  # it is not your highest single
    if view.table is not None and not any(
        m.kind == Kind.SINGLE and m.main < rank for m in legal_moves(view.hand, view.table, view.rules)
    ):
        return None  # the only single that beats the table: no choice to count for
    unseen = view.unseen()
    if rank == R2 and unseen.count(SMALL_JOKER) and unseen.count(BIG_JOKER):
        if view.is_landlord:
            return Finding("throws_top_single_while_rocket_out_landlord", {"card": rank_char(rank)})
        return Finding("throws_top_single_while_rocket_out", {"card": rank_char(rank)})
    if rank == SMALL_JOKER and unseen.count(BIG_JOKER):
        return Finding("throws_top_single_while_joker_out", {"card": rank_char(rank)})
    return None


# ------------------------------------------------- an opponent with one card left
def _boss_single(view: PlayerView, rank: int) -> bool:
    """No unseen card is higher than ``rank``: nobody can beat this single."""
    unseen = view.unseen()
    return not any(unseen.count(r) for r in range(rank + 1, BIG_JOKER + 1))


def leads_single_when_landlord_has_one(view: PlayerView, move: Combo | None) -> Finding | None:
    """Leading a beatable single while an opponent holds one card (and you had another lead)."""
    if move is None or view.table is not None or move.kind != Kind.SINGLE or _goes_out(view, move):
        return None
    waiting = [s for s in _opponents(view) if view.card_counts[s] == 1]
    if not waiting or _boss_single(view, move.main):
        return None
    if not any(m.kind != Kind.SINGLE for m in legal_moves(view.hand, None, view.rules)):
        return None  # only singles left: nothing better to lead
    if view.landlord in waiting:
        return Finding("leads_single_when_landlord_has_one")
    return Finding("leads_single_when_farmer_has_one", {"seat": seat_phrase(waiting[0], view.rules)})


def not_feeding_partner(view: PlayerView, move: Combo | None) -> Finding | None:
    """Your partner plays next with one card, and you lead something other than a low single."""
    if move is None or view.table is not None:
        return None
    partner = _partner(view)
    if partner is None or view.card_counts[partner] != 1 or partner != (view.seat + 1) % view.players:
        return None
    if _goes_out(view, move):
        return None
    singles = [r for r in range(BIG_JOKER + 1) if view.hand.count(r)]
    if not singles:
        return None
    lowest = singles[0]
    if move.kind == Kind.SINGLE and move.main <= lowest + 2:
        return None
    return Finding("not_feeding_partner", {"partner": seat_phrase(partner, view.rules)})


# ------------------------------------------- issue 29: what a strong player would say
def passes_to_opponent(view: PlayerView, move: Combo | None) -> Finding | None:
    """A pass that leaves the trick (and the next lead) to an opponent, when you could answer."""
    if move is not None or view.table is None or view.table_seat is None or view.is_partner(view.table_seat):
        return None
    if not legal_moves(view.hand, view.table, view.rules):
        return None  # nothing beats it: the pass was forced
    n = view.card_counts[view.table_seat]
    return Finding("passes_to_opponent", {"seat": seat_phrase(view.table_seat, view.rules), "n": n})


def overtakes_partner(view: PlayerView, move: Combo | None) -> Finding | None:
    """Beating the partner's play that nobody still to play could beat (the landlord has not passed yet)."""
    if move is None or view.table is None or view.table_seat is None or _goes_out(view, move):
        return None
    partner = _partner(view)
    if partner is None or view.table_seat != partner or _landlord_passed_since(view, partner):
        return None
    assert view.landlord is not None
    if not is_boss(view.table, view.unseen().packed, view.card_counts[view.landlord], rules=view.rules):
        return None
    return Finding("overtakes_partner", {"partner": seat_phrase(partner, view.rules), "cards": view.table.text})


def plays_over_partner(view: PlayerView, move: Combo | None) -> Finding | None:
    """Playing over the partner's play (not going out) where letting it stand was better."""
    if move is None or view.table_seat is None or _goes_out(view, move):
        return None
    partner = _partner(view)
    if partner is None or view.table_seat != partner:
        return None
    return Finding("plays_over_partner", {"partner": seat_phrase(partner, view.rules), "cards": move.text})


def passes_partner_beatable(view: PlayerView, move: Combo | None) -> Finding | None:
    """Passing on the partner's play that the landlord, still to play after you, may beat."""
    if move is not None or view.table is None or view.table_seat is None:
        return None
    partner = _partner(view)
    if partner is None or view.table_seat != partner or _landlord_passed_since(view, partner):
        return None
    if not legal_moves(view.hand, view.table, view.rules):
        return None
    assert view.landlord is not None
    if is_boss(view.table, view.unseen().packed, view.card_counts[view.landlord], rules=view.rules):
        return None
    return Finding("passes_partner_beatable", {"partner": seat_phrase(partner, view.rules), "cards": view.table.text})


def beatable_answer(view: PlayerView, move: Combo | None) -> Finding | None:
    """Answering an opponent with a play a higher unseen card can still beat (bombs aside)."""
    if move is None or view.table is None or view.table_seat is None or view.is_partner(view.table_seat):
        return None
    if _goes_out(view, move) or move.is_bomb or _boss_combo(view, move):
        return None
    return Finding("beatable_answer", {"cards": move.text})


def beaters(view: PlayerView, move: Combo) -> int | None:
    """How many unseen cards could beat a single (a pair, a trio: how many unseen pairs, trios) — bombs aside.

    None for the other kinds (their answers are not counted this simply).
    """
    need = {Kind.SINGLE: 1, Kind.PAIR: 2, Kind.TRIO: 3}.get(Kind(move.kind))
    if need is None:
        return None
    unseen = view.unseen()
    higher = [unseen.count(r) for r in range(move.main + 1, BIG_JOKER + 1)]
    return sum(higher) if need == 1 else sum(1 for n in higher if n >= need)


def riskier_answer(view: PlayerView, move: Combo | None) -> Finding | None:
    """Answering an opponent with a single, pair or trio more of the unseen cards can beat than another answer."""
    if beatable_answer(view, move) is None:
        return None
    assert move is not None
    k = beaters(view, move)
    if not k:
        return None
    return Finding("riskier_answer", {"cards": move.text, "k": k})


def keeps_long_combination(view: PlayerView, move: Combo | None) -> Finding | None:
    """Leading a short play while the hand holds a long one (a straight, chain or airplane) to shed on the lead."""
    if move is None or view.table is not None or move.size >= 5 or _goes_out(view, move):
        return None
    if not any(m.size >= 5 and not m.is_bomb for m in legal_moves(view.hand, None, view.rules)):
        return None
    return Finding("keeps_long_combination", {"cards": move.text})


def leads_pair_when_opponent_has_two(view: PlayerView, move: Combo | None) -> Finding | None:
    """Leading a pair an opponent on two cards may beat (their last two cards may be a higher pair)."""
    if move is None or view.table is not None or move.kind != Kind.PAIR or _goes_out(view, move):
        return None
    waiting = [s for s in _opponents(view) if view.card_counts[s] == 2]
    if not waiting:
        return None
    if is_boss(move, view.unseen().packed, 2, bombs=False, rules=view.rules):
        return None
    return Finding("leads_pair_when_opponent_has_two", {"seat": seat_phrase(waiting[0], view.rules)})


def _controls(move: Combo) -> int:
    """The control cards ``move`` spends: twos and jokers, or a whole bomb or rocket."""
    return move.size if move.is_bomb else _high_in(move)


def spends_control(view: PlayerView, move: Combo | None) -> Finding | None:
    """Spending a 2, a joker, a bomb or the rocket (the cards that win the lead back) before the end."""
    if move is None or _goes_out(view, move) or not _controls(move):
        return None
    return Finding("spends_control", {"cards": move.text})


def plays_left(view: PlayerView, move: Combo | None) -> int:
    """How many plays the hand needs to finish after ``move`` (the hand planner's count, RULES §9)."""
    rest = view.hand.packed if move is None else view.hand.packed - move.cards
    return judgement.players().moves_to_finish(rest, view.rules.decks) if rest else 0


def breaks_combination(view: PlayerView, move: Combo | None) -> Finding | None:
    """A play that is not one of the hand's planned plays: the hand needs as many plays after it as before.

    A trio, chain or airplane broken up (or a pair split) leaves more pieces to get rid of.
    """
    if move is None or _goes_out(view, move):
        return None
    after = plays_left(view, move)
    if after < plays_left(view, None):
        return None
    return Finding("breaks_combination", {"cards": move.text, "after": after})


#: A single up to this rank (9) is a "low single": the cards a hand finds hardest to get rid of later.
LOW_SINGLE_UP_TO = R9


def low_singles(view: PlayerView) -> list[int]:
    """The ranks the hand holds exactly one of, up to 9 (no jokers, no 2): its weakest cards."""
    return [r for r in range(LOW_SINGLE_UP_TO + 1) if view.hand.count(r) == 1]


def keeps_low_singles(view: PlayerView, move: Combo | None) -> Finding | None:
    """Leading something other than a single while the hand holds two or more low singles (9 and below).

    A low single is the card a hand finds hardest to shed: nobody leads singles for you,
    and every later single you play must beat the one on the table.  With the lead in
    hand a strong player gets rid of them first (unless the lead goes out at once).
    """
    if move is None or view.table is not None or move.kind == Kind.SINGLE or move.is_bomb or _goes_out(view, move):
        return None
    low = low_singles(view)
    if len(low) < 2:
        return None
    return Finding("keeps_low_singles", {"cards": move.text, "singles": ", ".join(rank_char(r) for r in low),
                                         "n": len(low)})  # fmt: skip


def possible_bombs(view: PlayerView, seats: Sequence[int]) -> list[str]:
    """The bombs (and the rocket) that may be in the hands of ``seats``: every card of them unseen."""
    unseen = view.unseen()
    room = max((view.card_counts[s] for s in seats), default=0)
    found = [rank_char(r) * 4 for r in range(R2 + 1) if unseen.count(r) == 4 and room >= 4]
    if unseen.count(SMALL_JOKER) and unseen.count(BIG_JOKER) and room >= 2:
        found.append(rank_char(SMALL_JOKER) + rank_char(BIG_JOKER))
    return found


def _still_to_play(view: PlayerView) -> list[int]:
    """The opponents who play on this trick after the move (on a lead: both)."""
    if view.table is None or view.table_seat is None:
        return _opponents(view)
    seats = []
    seat = (view.seat + 1) % view.players
    while seat != view.table_seat:
        if not view.is_partner(seat):
            seats.append(seat)
        seat = (seat + 1) % view.players
    return seats


def plays_into_bomb(view: PlayerView, move: Combo | None) -> Finding | None:
    """Spending a 2, a joker or a long combination that only a bomb can beat, while a bomb may be out.

    The play is a winner except against a bomb, and every card of some bomb (or of the
    rocket) is unseen, so an opponent still to play may hold it: the bomb takes the trick,
    the stake doubles, and the control card or the long combination is gone for nothing.
    """
    if move is None or move.is_bomb or _goes_out(view, move):
        return None
    if not _high_in(move) and move.size < 5:
        return None
    seats = _still_to_play(view)
    bombs = possible_bombs(view, seats)
    if not seats or not bombs:
        return None
    biggest = max(view.card_counts[s] for s in seats)
    if not is_boss(move, view.unseen().packed, biggest, bombs=False, rules=view.rules):
        return None  # something else beats it too: not a bomb's play (beatable_answer speaks of that)
    return Finding("plays_into_bomb", {"cards": move.text, "bomb": bombs[0]})


def answers_needlessly(view: PlayerView, move: Combo | None) -> Finding | None:
    """Answering an opponent's play (without going out) where passing kept the cards for later."""
    if move is None or view.table is None or view.table_seat is None or view.is_partner(view.table_seat):
        return None
    if _goes_out(view, move):
        return None
    return Finding("answers_needlessly", {"cards": move.text})


#: Order matters: the most specific advice first; the coach says one line per play.
DETECTORS: tuple[Detector, ...] = (
    breaks_bomb_for_straight,
    breaks_rocket,
    breaks_bomb,
    beats_partner,
    leads_single_when_landlord_has_one,
    not_feeding_partner,
    throws_top_single_while_rocket_out,
    overkill,
    spends_high_cards_early,
)


def detect(
    view: PlayerView,
    move: Combo | None,
    detectors: Sequence[Detector] = DETECTORS,
    better: Sequence[Combo | None] = (),
) -> Finding | None:
    """The first mistake ``move`` matches that no move of ``better`` matches too, or None.

    ``better``: the moves the coach found better.  A pattern the better move
    commits as well cannot be what made ``move`` worse (issue 20: "you beat
    your partner" is no explanation when the best move beats the partner too),
    so the next pattern is tried.
    """
    for detector in detectors:
        finding = detector(view, move)
        if finding is None:
            continue
        if any(_same(detector(view, other), finding) for other in better if other != move):
            continue
        return finding
    return None


def _same(other: Finding | None, finding: Finding) -> bool:
    return other is not None and other.code == finding.code


def bid_finding(status_line: str | Phrase, suggested: int, made: int) -> Finding | None:
    """A remark on a bid far from the estimate: two or more above it, or a pass on a 3-hand."""
    if made >= suggested + 2 or (suggested == 0 and made == 3):
        return Finding("bid_too_high", {"status": status_line})
    if suggested == 3 and made == 0:
        return Finding("bid_too_low", {"status": status_line})
    return None


def cards_text(cards: Cards | int) -> str:
    return format_packed(cards.packed if isinstance(cards, Cards) else cards)
