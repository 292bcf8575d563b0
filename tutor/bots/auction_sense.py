"""The hard level's call, rob and open-hand decisions by expected score (RULES §12.1, §12.2).

Medium calls, robs and shows by thresholds on its hand evaluation
(:func:`tutor.bots.base.auction_choice`, ``SHOW_HAND_POINTS``).  The hard level
asks the question the score asks: over sampled deals, which choice leaves its
seat with the higher **expected score** (the stake and the role included)?

* **Samples**: the hidden hands and the kitty are drawn from the cards it does
  not hold, redrawn (at most :attr:`SenseBudget.tries` times) until medium's
  auction policy would have made the others' moves so far with them.
* **The rest of the auction**: every seat after the candidate (this one's rob
  back included) follows medium's thresholds, through :mod:`tutor.engine.auction`.
* **The game**: a rob decision plays each sample once per possible landlord
  with the compiled quick play-out (:func:`tutor.solver.playout.playout_line`,
  stepped on the engine's :class:`~tutor.engine.game.Game` so the score sees bombs and
  spring) — or medium's play in Python where the C core is not built; the
  open hand plays both choices with the hard policy without look-ahead, whose
  farmers count a shown hand exactly (:meth:`tutor.bots.hard.HardBot.hidden`).
* **Score**: the engine's scoring of the finished game, times the auction's
  stake (:func:`tutor.engine.auction.stake_factor`); a redeal scores 0.

Every count is fixed (:class:`SenseBudget`) and the generator is seeded from the
game seed and the view, so a decision is the same on any machine (given the
same build: the compiled play-out and its Python fallback play differently).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from tutor.bots.base import turn_rng
from tutor.bots.rollout import MAX_TURNS
from tutor.engine.auction import Auction, stake_factor, view_auction
from tutor.engine.cards import Cards, packed_size
from tutor.engine.combos import Combo
from tutor.engine.game import Game
from tutor.engine.rules import Rules
from tutor.engine.scoring import score_game
from tutor.engine.trick import Turn
from tutor.engine.view import PlayerView, bidding_view, view_from_public

#: A seat's auction policy: the code it says from a view (medium's thresholds).
Bidder = Callable[[PlayerView], int]
#: A seat's play policy in the Python play-out.
Player = Callable[[PlayerView], "Combo | None"]


@dataclass(frozen=True, slots=True)
class SenseBudget:
    """How much one decision may cost — counts, never seconds."""

    #: Sampled deals per auction decision (each candidate's auction and game on every one).
    samples: int = 24
    #: Draws per sample looking for hands that explain the others' auction moves.
    tries: int = 8
    #: Sampled deals per open-hand decision (two Python games each).
    show_samples: int = 8


DEFAULT_SENSE = SenseBudget()


def _quick(rules: Rules) -> bool:
    from tutor.solver.playout import plays  # lazily, as the solver is only needed when it plays

    return plays(rules)


class _Samples:
    """The sampled deals of one decision, each explaining the others' auction moves."""

    def __init__(self, view: PlayerView, rng: random.Random, count: int, tries: int, bidder: Bidder) -> None:
        self.view = view
        self.bidder = bidder
        self.deals = [self._draw(rng, tries) for _ in range(count)]

    def _draw(self, rng: random.Random, tries: int) -> tuple[dict[int, int], int]:
        view = self.view
        seat, rules = view.seat, view.rules
        mine = view.hand.packed - (view.kitty.packed if view.landlord == seat and view.kitty is not None else 0)
        pool = Cards(rules.deck_packed - mine - (view.kitty.packed if view.kitty is not None else 0)).ranks()
        others = [s for s in range(rules.players) if s != seat]
        size = rules.hand_size
        best: tuple[int, dict[int, int], int] | None = None
        for _ in range(max(1, tries)):
            rng.shuffle(pool)
            hands = {s: Cards.from_ranks(pool[i * size : (i + 1) * size], rules.deck).packed for i, s in enumerate(others)}
            kitty = view.kitty.packed if view.kitty is not None else Cards.from_ranks(pool[len(others) * size :], rules.deck).packed
            wrong = sum(1 for i, (s, code) in enumerate(view.bids) if s != seat and self.said(s, hands[s], view.bids[:i]) != code)
            if best is None or wrong < best[0]:
                best = (wrong, hands, kitty)
            if not wrong:
                break
        assert best is not None
        return best[1], best[2]

    def said(self, seat: int, hand: int, bids: tuple[tuple[int, int], ...]) -> int:
        """What the auction policy says for ``seat`` holding ``hand`` (dealt cards) after ``bids``."""
        rules = self.view.rules
        return self.bidder(bidding_view(seat, Cards(hand), bids, rules))


def _game(
    hands: list[int], landlord: int, kitty: int, rules: Rules, shown: bool, player: Player | None
) -> tuple[int, list[Turn]]:
    """Play from the landlord's first lead: (winner, history); ``player`` None = the compiled play-out."""
    counts = tuple(packed_size(h) for h in hands)
    base = view_from_public(landlord, Cards(hands[landlord]), landlord, (), counts, bids=((landlord, 1),),
                            kitty=Cards(kitty), bid=1, rules=rules, shown=Cards(hands[landlord]) if shown else None)
    game = Game.from_view(base, dict(enumerate(hands)), checked=False)
    if player is None:
        from tutor.solver.playout import playout_line

        found, line = playout_line(hands, landlord, landlord, None, None)
        for move in line:
            game.push(move)
        if found < 0:  # cannot happen with legal play
            return next(s for s in range(rules.players) if s != landlord), list(game.history)
    turns = 0
    while not game.is_over and turns < MAX_TURNS:
        assert player is not None  # the compiled play-out ends every game it starts
        game.push(player(game.view(game.to_move)))
        turns += 1
    winner = game.winner
    if winner is None:
        winner = next(s for s in range(rules.players) if s != landlord)
    return winner, list(game.history)


def _fallback() -> Player:
    """Medium's play, where the compiled play-out is not built (or the rules are not its)."""
    from tutor.bots.medium import MediumBot

    return MediumBot(0).play


def auction_scores(view: PlayerView, seed: int, bidder: Bidder, budget: SenseBudget = DEFAULT_SENSE) -> dict[int, float]:
    """Every legal auction code's expected score for ``view.seat`` (base stakes), on the same samples."""
    rules, me = view.rules, view.seat
    rng = random.Random(f"sense:{seed}:{turn_rng(seed, view).random()}")
    samples = _Samples(view, rng, budget.samples, budget.tries, bidder)
    player = None if _quick(rules) else _fallback()
    games: dict[tuple[int, int], float] = {}
    totals: dict[int, float] = {}
    for code in view_auction(view).legal(rules):
        total = 0.0
        for index, (hidden, kitty) in enumerate(samples.deals):
            hands = [view.hand.packed if s == me else hidden[s] for s in range(rules.players)]
            auction, out = view_auction(view).after(me, code, rules)
            while out.to_move is not None:
                seat = out.to_move
                auction, out = auction.after(seat, samples.said(seat, hands[seat], auction.moves), rules)
            if out.landlord is None:
                continue  # redealt: this deal scores nothing
            key = (index, out.landlord)
            if key not in games:
                dealt = list(hands)
                dealt[out.landlord] += kitty
                winner, history = _game(dealt, out.landlord, kitty, rules, False, player)
                games[key] = score_game(history, out.landlord, 1, winner, rules).deltas[me] / rules.base
            total += games[key] * stake_factor(out, rules)
        totals[code] = total / len(samples.deals)
    return totals


def open_scores(view: PlayerView, seed: int, bidder: Bidder, player: Player,
                budget: SenseBudget = DEFAULT_SENSE) -> dict[bool, list[float]]:  # fmt: skip
    """The landlord's score per sampled deal keeping the hand closed (False) and showing it (True), RULES §12.2.

    Per sample, so that the caller can weigh the paired difference against its noise.
    """
    rules, me = view.rules, view.seat
    assert view.kitty is not None
    rng = random.Random(f"sense-open:{seed}:{turn_rng(seed, view).random()}")
    samples = _Samples(view, rng, budget.show_samples, budget.tries, bidder)
    stake = (view.bid or 1) * rules.rob_factor ** Auction.of(view.bids).outcome(rules).robs
    scores: dict[bool, list[float]] = {False: [], True: []}
    for hidden, kitty in samples.deals:
        hands = [view.hand.packed if s == me else hidden[s] for s in range(rules.players)]
        for shown, got in scores.items():
            winner, history = _game(hands, me, kitty, rules, shown, player)
            got.append(score_game(history, me, 1, winner, rules, opened=shown).deltas[me] * stake / rules.base)
    return scores


def clearly_better(gain: list[float], sigmas: float = 2.0) -> bool:
    """The mean of the paired gains is above ``sigmas`` standard errors (and above 0)."""
    n = len(gain)
    mean = sum(gain) / n
    if n < 2:
        return mean > 0
    spread = (sum((g - mean) ** 2 for g in gain) / (n - 1) / n) ** 0.5
    return mean > sigmas * spread and mean > 0


def best_code(scores: dict[int, float]) -> int:
    """The code with the highest expected score; ties to the lower code (pass before call before rob)."""
    return min(scores, key=lambda code: (-round(scores[code], 9), code))
