"""Has a seat's public play ruled out the habits of a lowest-answer rule player (issue 33, round 18)?

Rounds 9, 10 and 17 measured the landlord's play-outs with the "agent" model (:data:`tutor.solver.playout.VARIANTS`:
RLCard's rule agent as its code plays) from the first decision: a real gain against the rule agent, a loss
against RHCP-v2 that a sharper *soft* read did not remove — a posterior over sampled hands keeps the "agent" model
weighted as long as its predictions happen to agree with the farmers' plays.  This module asks a harder question
whose answer needs no sampled hand: is there **any** hand on which the seat's plays so far are the habits'?

The habits (those of ``DouDizhuRuleAgentV1``, and of any player who plays that simply):

* a lead is a group without attached cards (a single, a pair, a bare trio, a straight, a pair chain, a bare
  airplane, a bomb or the rocket) and holds the hand's lowest card; a single or a pair is led only when no
  other card of its rank is held (else the rank would be a pair, a trio or part of a chain);
* an answer is the lowest combination of the table's kind and length that beats it, whenever the hand holds one
  (the partner's play is beaten too); with none a farmer passes after its partner's turn, and otherwise passes or
  bombs.

A card a seat plays later was in its hand at every earlier turn, so its later plays are a part of each earlier
hand that the view knows for certain.  A habit is *refuted* when that known part shows it broken: a lead with a
kicker, a later card lower than a lead's lowest, a pass while the seat held (as it later showed) an answer of the
kind, an answer above one it held, a bomb over another kind while it held an answer of that kind or right after
its partner.  No sampled hand, no budget, no error rate: the same view gives the same answer, and against a player
with these habits it is never refuted (tests/bots/test_rule_habits.py replays the compiled agent; RLCard's own in
60 arena games, docs/bots.md round 18).  Proof needs the later cards, so it comes late; the optional sampled test
(``samples``) also refutes a decision that no drawn hand would make under the habits — wrong about a player with
them about as rarely as the decision is for them (14 of 100 of the rule agent's games, at a median 31 cards), and it finds
RHCP-v2's farmers out at a median 43 cards in play.  Many strong players keep the habits for a trick or two: the
gate of the hard bot's play-outs (:attr:`tutor.bots.hard.HardBot.gate_evidence`) also waits for a telling answer.
"""

from __future__ import annotations

import random

from tutor.engine.cards import CHAIN_TOP, DECK_COUNTS, NUM_RANKS, pack, packed_count, unpack
from tutor.engine.combos import Combo, Kind
from tutor.engine.moves import follow_moves_packed
from tutor.engine.trick import Turn, tables_faced
from tutor.engine.view import PlayerView

#: The kinds a lead of these habits may have: the groups of RLCard's rule agent's split, no kicker attached.
LEAD_KINDS = frozenset(
    {Kind.SINGLE, Kind.PAIR, Kind.TRIO, Kind.STRAIGHT, Kind.PAIR_CHAIN, Kind.AIRPLANE, Kind.BOMB, Kind.ROCKET}
)


def lowest_rank(cards: int) -> int:
    """The lowest rank present in a packed set of cards (``NUM_RANKS`` for none)."""
    for rank in range(NUM_RANKS):
        if packed_count(cards, rank):
            return rank
    return NUM_RANKS


def _lead_refuted(play: Combo, later: int) -> bool:
    """A lead the habits never make, given ``later``: the cards the seat played after it (held then too)."""
    if play.kind not in LEAD_KINDS:
        return True
    low = lowest_rank(play.cards)
    if lowest_rank(later) < low:
        return True
    held = packed_count(play.cards + later, low)
    return (play.kind == Kind.SINGLE and held >= 2) or (play.kind == Kind.PAIR and held >= 3)


def _answer_refuted(play: Combo | None, table: Combo, later: int, after_partner: bool) -> bool:
    """An answer (None: a pass) the habits never give to ``table``, given the seat's later cards ``later``.

    ``after_partner``: the seat is a farmer and the turn before it was its partner's (the agent then passes when
    it holds no answer of the table's kind, as its code reads the last actor)."""
    known = later + (play.cards if play is not None else 0)
    same = [m for m in follow_moves_packed(known, table) if m.kind == table.kind and m.length == table.length]
    if play is None:
        return bool(same)
    if play.kind == table.kind and play.length == table.length:
        return any(m.main < play.main for m in same)
    return bool(same) or after_partner


#: The standard deck, packed (the habits are RLCard's standard game's).
FULL_DECK = pack(DECK_COUNTS)
#: Cards of one rank each unit of a kind needs (the chains' and the kicked kinds' body).
_BODY = {
    Kind.SINGLE: 1, Kind.PAIR: 2, Kind.TRIO: 3, Kind.TRIO_SINGLE: 3, Kind.TRIO_PAIR: 3, Kind.STRAIGHT: 1,
    Kind.PAIR_CHAIN: 2, Kind.AIRPLANE: 3, Kind.AIRPLANE_SINGLES: 3, Kind.AIRPLANE_PAIRS: 3,
    Kind.FOUR_TWO_SINGLES: 4, Kind.FOUR_TWO_PAIRS: 4, Kind.BOMB: 4,
}


def answer_exists(counts: list[int], kind: Kind, length: int, above: int, below: int) -> bool:
    """Does a hand of rank ``counts`` hold a combination of ``kind`` and ``length`` whose main rank is strictly
    between ``above`` and ``below``?  (Kickers counted loosely: enough other cards, or other pairs.)"""
    need = _BODY.get(kind)
    if need is None:
        return False
    chain = kind.is_chain
    top = min(below, CHAIN_TOP + 1 if chain else NUM_RANKS)
    for main in range(max(above + 1, length - 1 if chain else 0), top):
        body = range(main - length + 1, main + 1) if chain else range(main, main + 1)
        if any(counts[r] < need for r in body):
            continue
        wings = length * (2 if kind in (Kind.FOUR_TWO_SINGLES, Kind.FOUR_TWO_PAIRS) else 1)
        if kind in (Kind.TRIO_SINGLE, Kind.AIRPLANE_SINGLES, Kind.FOUR_TWO_SINGLES):
            if sum(counts) - need * len(body) < wings:
                continue
        elif kind in (Kind.TRIO_PAIR, Kind.AIRPLANE_PAIRS, Kind.FOUR_TWO_PAIRS):
            if sum(1 for r in range(NUM_RANKS) if r not in body and counts[r] >= 2) < wings:
                continue
        return True
    return False


def _unlikely(play: Combo | None, table: Combo | None, known: int, fill: int, pool: list[int],
              rng: random.Random, samples: int) -> bool:
    """Is this decision kept by the habits on none of ``samples`` hands drawn as the seat's: ``known``
    (packed) plus ``fill`` cards from ``pool`` (ranks)?  A test that is wrong about a player with the habits at
    most as often as the decision itself is that rare for them (round 18)."""
    if fill < 0 or fill > len(pool):
        return False
    if table is not None and table.kind == Kind.ROCKET:
        return False
    base = list(unpack(known))
    for _ in range(samples):
        counts = base[:]
        for rank in rng.sample(pool, fill):
            counts[rank] += 1
        if _kept(play, table, counts):
            return False
    return True


def _kept(play: Combo | None, table: Combo | None, counts: list[int]) -> bool:
    """Do the habits make this decision (up to the kickers and the draw between a pass and a bomb) from a hand of
    rank ``counts``?  A lead: it holds the hand's lowest card, and a single or pair is all of its rank.  An answer
    or a pass: no answer of the table's kind below the one played (any, for a pass or a bomb)."""
    if table is None:
        assert play is not None
        low = lowest_rank(play.cards)
        need = 2 if play.kind == Kind.SINGLE else 3 if play.kind == Kind.PAIR else 0
        return not any(counts[r] for r in range(low)) and not (need and counts[low] >= need)
    below = play.main if play is not None and play.kind == table.kind else NUM_RANKS
    return not answer_exists(counts, table.kind, table.length, table.main, below)


def refuted(view: PlayerView, seat: int, samples: int = 0) -> bool:
    """Has ``seat``'s play in this game (public: ``view.history``) broken the habits on every possible hand?

    With ``samples`` > 0 also on all but a rare few: a count-shaped decision (a lead's lowest card, a pass or an
    answer to a single, pair or trio) that none of ``samples`` hands drawn for the seat from the cards it may hold
    would make under the habits (seeded by the view: the same view, the same answer).
    Only where the play is the standard game's, one deck and three seats (:attr:`tutor.engine.rules.Rules.native_play`:
    the habits are RLCard's game's, and the "agent" model the compiled play-out's); elsewhere every seat counts as
    refuted, so that nothing assumes them.
    """
    if not view.rules.native_play or view.landlord is None:
        return True
    turns = list(tables_faced(view.history, view.rules.players))
    later = 0
    suspects: list[tuple[int, int]] = []
    for i in range(len(turns) - 1, -1, -1):
        turn, table, _ = turns[i]
        if turn.seat != seat:
            continue
        if table is None:
            if turn.play is None or _lead_refuted(turn.play, later):
                return True
        else:
            farmer = seat != view.landlord
            after_partner = farmer and i > 0 and turns[i - 1][0].seat != view.landlord
            if _answer_refuted(turn.play, table, later, after_partner):
                return True
        suspects.append((i, later))
        if turn.play is not None:
            later += turn.play.cards
    if samples <= 0:
        return False
    return _practically_refuted(view, seat, turns, suspects, samples)


def _practically_refuted(view: PlayerView, seat: int, turns: list[tuple[Turn, Combo | None, int | None]],
                         suspects: list[tuple[int, int]], samples: int) -> bool:
    """The sampled test of :func:`refuted` over the seat's decisions ``suspects`` (turn index, later cards)."""
    rng = random.Random(f"habits:{seat}:" + ",".join(
        f"{t.seat}.{-1 if t.play is None else t.play.cards}" for t, _, _ in turns))
    played_before = 0
    mine_later = 0
    for t, _, _ in turns:
        if t.seat == view.seat and t.play is not None:
            mine_later += t.play.cards
    own_now = view.hand.packed
    checked = dict(suspects)
    # At turn i the seat held what it played from then on (``known``) and the cards it still hides now.
    hidden_now = view.card_counts[seat]
    for i, (turn, table, _) in enumerate(turns):
        if turn.seat == view.seat and turn.play is not None:
            mine_later -= turn.play.cards
        if i in checked:
            later = checked[i]
            known = later + (turn.play.cards if turn.play is not None else 0)
            unseen = [r for r, n in enumerate(unpack(FULL_DECK - own_now - mine_later - played_before - known))
                      for _ in range(n)]
            if _unlikely(turn.play, table, known, hidden_now, unseen, rng, samples):
                return True
        if turn.play is not None:
            played_before += turn.play.cards
    return False


def opponents_keep_habits(view: PlayerView, samples: int = 0) -> bool:
    """Has no opponent of the viewer refuted the habits yet (the farmers for the landlord, the landlord for a farmer)?"""
    if view.landlord is None:
        return False
    if view.seat == view.landlord:
        seats = [s for s in range(view.rules.players) if s != view.landlord]
    else:
        seats = [view.landlord]
    return not any(refuted(view, s, samples) for s in seats)


def partner_answers(view: PlayerView, lowest: int = 0) -> int:
    """How often a farmer has answered its partner's play (of main rank ``lowest`` or above) in this game: what the
    habits do whenever they can (the agent beats whatever table it holds an answer of the kind to) and a player
    who plays with its partner rarely does, the less so the higher the partner's play (round 18: the gate's
    positive evidence)."""
    if view.landlord is None:
        return 0
    found = 0
    for turn, table, table_seat in tables_faced(view.history, view.rules.players):
        if (table is not None and turn.play is not None and table_seat is not None
                and turn.seat != view.landlord and table_seat != view.landlord and table.main >= lowest):
            found += 1
    return found
