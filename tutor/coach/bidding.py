"""Bids judged by expected score, from the learner's view of the auction.

A win chance cannot compare a bid with a pass: the stakes differ by role (the
landlord wins or loses twice the cost, against two farmers, RULES §7) and a
higher bid raises the cost.  So a bid is judged by the **expected score** of
the learner — in units of the base stake (``Rules.base``), the same units for
every candidate — estimated the way the play evaluation estimates a win chance
(:mod:`tutor.coach.evaluation`):

1. **Samples.**  The learner sees their 17 cards and the bids made so far
   (RULES §8).  The other two hands and the kitty are drawn from the unseen
   cards, uniformly, then *rejected* when the bots' bid policy
   (:attr:`BidBudget.bidder`, the table's level; medium and hard bid alike by
   :meth:`~tutor.bots.medium.MediumBot.bid`) would not have made
   the bids already on the table with the drawn hand — up to
   :attr:`BidBudget.tries` draws a sample; when none fits, the draw that
   explains the most bids is kept (counted in :attr:`BidEvaluation.misfits`).
   The generator is seeded from the view's public facts only.
2. **The rest of the auction.**  For each candidate (pass, or each legal bid)
   the other seats bid after it with the same policy, on the drawn hands.  When
   all three pass the cards are redealt: that deal scores **0** — the learner
   neither wins nor loses anything on it, and the next deal is a new, unrelated
   game (RULES §3).
3. **The game.**  The landlord takes the kitty and the policy plays every seat
   to the end (:class:`tutor.engine.game.Game`, the state the play
   evaluation uses; the policy is :attr:`BidBudget.policy`).  The finished game
   is scored by the engine's scoring (:func:`tutor.engine.scoring.score_game`:
   bid, bombs, rocket, spring and anti-spring), and the learner's change is
   divided by the base stake.  The game after the auction depends on the bid
   only through the stake, so each sample plays at most one game per possible
   landlord, shared by every candidate that ends with that landlord.

Every candidate uses the same samples (common random numbers): the noise of a
loss is the standard error of the paired per-sample differences.  Budgets are
counts — samples, draws per sample, played decisions — never seconds.

Why the rollouts play the whole game with the policy and not hand over to the
exact solver near the end, as the play evaluation does: the score needs the
bombs and springs of the whole game, which a win/loss solve does not tell, and
from the auction the solver's refinement of a late endgame changes little
while costing most of the time.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from tutor import judgement
from tutor.coach.evaluation import MAX_TURNS, make_policy, view_seed
from tutor.engine.auction import CALL, stake_factor, view_auction
from tutor.engine.cards import Cards, packed_size
from tutor.engine.game import Game
from tutor.engine.rules import Rules
from tutor.engine.scoring import score_game
from tutor.engine.view import PlayerView, bidding_view, view_from_public
from tutor.i18n import Phrase
from tutor.solver.playout import available as quick_available
from tutor.solver.playout import playout_line

if TYPE_CHECKING:
    from tutor.coach.status import BidStatus

PASS = 0


@dataclass(frozen=True, slots=True)
class BidBudget:
    """How much work one bid decision may cost — counted, never timed.

    Sized by ``ddz bench coach`` (bid decisions: median under 0.3 s, worst under
    1.5 s on the 2-core machine); see docs/coach.md.
    """

    #: Hidden deals (two hands and the kitty) per step of the sequential sampling; every candidate plays on each.
    samples: int = 16
    #: Draws per sample looking for hands that explain the bids already made.
    tries: int = 32
    #: Whose bid policy the other seats follow: the level of the bots at the table
    #: ("medium" and "hard" bid alike, by the hand evaluation; "easy" on raw high
    #: cards with a coin, tossed with another seed in each sample).
    bidder: str = "medium"
    #: Who plays the games: "hard" (the hard level's judgement without look-ahead; it plays bombs
    #: to finish, which a hand with bombs is worth), "medium" (it sits on its bombs: a rocket and
    #: two bombs then look barely worth a bid) or "quick" (the compiled play-out,
    #: :func:`tutor.bots.rollout.playout_line`: cheap, but its farmers play too loosely as a
    #: team — a hopeless hand won 45% as landlord — so the auction keeps "hard"; docs/coach.md).
    policy: str = "hard"
    #: At most this many samples in all: steps of :attr:`samples` are added while a candidate's loss
    #: against the best is not settled (issue 20).  ``max_samples <= samples`` (a hand-made budget's
    #: default) gives one fixed step, the behaviour before.
    max_samples: int = 0
    #: A loss (base stakes) whose standard error is at most this is settled.
    target_noise: float = 0.25


#: The coach's: 16 samples of the hard policy, and 8 more while a verdict is unsettled
#: (sized by ``ddz bench coach``'s bid decisions: the hard policy costs ~10 ms of CPU a sample, and
#: the compiled quick play-out does not rank bids like it — ``benchmarks/bid_policy.py``; docs/coach.md).
DEFAULT_BID_BUDGET = BidBudget(max_samples=24)


@dataclass(frozen=True, slots=True)
class BidValue:
    """One candidate over the samples: ``scores[i]`` is the learner's score on sample ``i`` (base stakes)."""

    bid: int
    scores: tuple[float, ...]
    #: Per sample: 1 when the learner ended as landlord.
    landlord: tuple[int, ...]
    #: Per sample: 1 when the learner's side won the game (0 for a redeal).
    won: tuple[int, ...]

    @property
    def expected(self) -> float:
        return sum(self.scores) / len(self.scores) if self.scores else 0.0

    @property
    def stderr(self) -> float:
        """Standard error of :attr:`expected`."""
        return _stderr(self.scores)

    @property
    def landlord_share(self) -> float:
        return sum(self.landlord) / len(self.landlord) if self.landlord else 0.0

    @property
    def side_wins(self) -> float:
        """Win chance of the learner's side over the samples that were played (not redealt)."""
        games = [w for w, sc, ll in zip(self.won, self.scores, self.landlord) if sc or ll or w]
        return sum(games) / len(games) if games else 0.0

    @property
    def landlord_wins(self) -> float:
        """Win chance in the samples where the learner is the landlord (0 when never)."""
        games = [w for w, ll in zip(self.won, self.landlord) if ll]
        return sum(games) / len(games) if games else 0.0


def _stderr(xs: Sequence[float]) -> float:
    n = len(xs)
    if n < 2:
        return 0.0
    mean = sum(xs) / n
    return math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1) / n)


@dataclass(slots=True)
class BidEvaluation:
    """Every candidate bid's expected score for one auction decision, best first."""

    view: PlayerView
    candidates: list[BidValue]
    samples: int
    #: Samples in which no draw explained every bid already made (the closest draw was kept).
    misfits: int
    #: Games played out (one per sample and possible landlord).
    games: int
    #: Decisions the policy made in those games (the work, counted).
    decisions: int
    budget: BidBudget = field(default=DEFAULT_BID_BUDGET)

    @property
    def best(self) -> BidValue:
        return self.candidates[0]

    def value(self, bid: int) -> BidValue:
        for c in self.candidates:
            if c.bid == bid:
                return c
        raise KeyError(f"bid {bid} was not evaluated")

    def loss(self, bid: int) -> float:
        """Expected score lost by ``bid`` against the best candidate (base stakes, never negative)."""
        return max(0.0, self.best.expected - self.value(bid).expected)

    def loss_noise(self, bid: int) -> float:
        """Standard error of :meth:`loss`: the spread of the paired per-sample differences."""
        got = self.value(bid)
        return _stderr([a - b for a, b in zip(self.best.scores, got.scores)])


def legal_bids(view: PlayerView) -> list[int]:
    """Pass, then the legal codes of the auction (RULES §3 or §12.1: :mod:`tutor.engine.auction`'s)."""
    return view_auction(view).legal(view.rules)


def _bid_model(level: str, rules: Rules) -> str:
    """The level whose auction policy stands for ``level``'s in the samples.

    The hard level calls, robs and shows the hand by its own sampled expected score
    (RULES §12; :mod:`tutor.bots.auction_sense`, ~0.1 s a decision): asked thousands
    of times by the rejection sampling, it would cost minutes, so medium's thresholds —
    the model hard's own evaluation makes of the others — stand for it under the variants.
    Its classic 1-2-3 bid is medium's anyway.
    """
    return "medium" if level == "hard" and (rules.robs or rules.can_open) else level


class _BidEvaluator:
    """One bid evaluation's working state: the samples, the bid model and the games played."""

    def __init__(self, view: PlayerView, budget: BidBudget, salt: str = "bid") -> None:
        self.view = view
        self.budget = budget
        self.rules = view.rules
        self.n = view.players
        # The bots' own bid policy, one seed a sample: a level that tosses a coin (easy)
        # tosses a different one in each sample, never the table's (which follows the deal).
        self.bidders: list[judgement.Player] = []
        self.salt = salt
        self.policy = make_policy(budget.policy)
        self.quick = budget.policy == "quick" and quick_available(view.rules)
        self.misfits = 0
        self.decisions = 0
        self._games: dict[tuple[int, int], tuple[bool, int, int]] = {}
        #: Per candidate: the scores, landlord flags and win flags of the samples played so far.
        self._values: dict[int, tuple[list[float], list[int], list[int]]] = {}
        self.deals: list[tuple[dict[int, int], int]] = []
        self.steps = 0
        self.draw()

    def draw(self) -> bool:
        """Add one step of samples (False at the cap).  Step ``k``'s generator is seeded from the
        view's public facts and ``k`` (the first step from the facts alone, as before issue 20)."""
        room = max(self.budget.max_samples, self.budget.samples) - len(self.deals)
        if room <= 0:
            return False
        seed = view_seed(self.view, self.salt) + ("" if self.steps == 0 else f":{self.steps}")
        rng = random.Random(seed)
        for _ in range(min(self.budget.samples, room)):
            index = len(self.deals)
            self.bidders.append(judgement.players().bidder(_bid_model(self.budget.bidder, self.rules), index + 1))
            self.deals.append(self._sample(rng, index))
        self.steps += 1
        return True

    # ------------------------------------------------------------- sampling
    def _sample(self, rng: random.Random, index: int) -> tuple[dict[int, int], int]:
        """(hands of the other seats, kitty), drawn until the bids made so far are explained."""
        pool = Cards(self.rules.deck_packed - self.view.hand.packed).ranks()
        others = [s for s in range(self.n) if s != self.view.seat]
        size = self.rules.hand_size
        best: tuple[int, tuple[dict[int, int], int]] | None = None
        for _ in range(max(1, self.budget.tries)):
            rng.shuffle(pool)
            hands = {s: Cards.from_ranks(pool[i * size : (i + 1) * size], self.rules.deck).packed for i, s in enumerate(others)}
            kitty = Cards.from_ranks(pool[len(others) * size :], self.rules.deck).packed
            wrong = self._unexplained(hands, index)
            if best is None or wrong < best[0]:
                best = (wrong, (hands, kitty))
            if not wrong:
                break
        assert best is not None
        if best[0]:
            self.misfits += 1
        return best[1]

    def _unexplained(self, hands: dict[int, int], index: int) -> int:
        """How many of the bids already made the bid policy would not have made with ``hands``."""
        wrong = 0
        for i, (seat, made) in enumerate(self.view.bids):
            if seat == self.view.seat:
                continue
            if self._bot_bid(index, seat, hands[seat], self.view.bids[:i]) != made:
                wrong += 1
        return wrong

    def _bot_bid(self, index: int, seat: int, hand: int, bids: tuple[tuple[int, int], ...]) -> int:
        """What the bid policy bids for ``seat`` holding ``hand`` after ``bids``, in sample ``index``."""
        seen = bidding_view(seat, Cards(hand), bids, self.rules)
        return self.bidders[index].bid(seen)

    # ------------------------------------------------------------- auction
    def auction(
        self, index: int, hands: dict[int, int], candidate: int
    ) -> tuple[tuple[tuple[int, int], ...], int | None, int]:
        """The moves after the learner's ``candidate`` in sample ``index``: (all moves, landlord or None, stake).

        The stake is the bid (RULES §3), or rob_factor**robs in a rob auction
        (RULES §12.1); the rest of the auction is :mod:`tutor.engine.auction`'s,
        the learner's later turns (a rob back) decided by the bid policy too.
        """
        me = self.view.seat
        auction, out = view_auction(self.view).after(me, candidate, self.rules)
        while out.to_move is not None:
            seat = out.to_move
            hand = self.view.hand.packed if seat == me else hands[seat]
            auction, out = auction.after(seat, self._bot_bid(index, seat, hand, auction.moves), self.rules)
        if out.landlord is None or out.bid is None:
            return auction.moves, None, 0
        return auction.moves, out.landlord, stake_factor(out, self.rules)

    # ---------------------------------------------------------------- game
    def game(self, index: int, landlord: int) -> tuple[bool, int, int]:
        """Sample ``index`` played out with ``landlord``: (learner's side won, multiplier, learner's delta at bid 1).

        Played once per sample and landlord, at bid 1 (the players see an auction
        of one bid 1): the bid only scales the stake, so every candidate that
        ends with this landlord shares the game.  Under an open-hand rule the
        landlord shows the hand when the bid policy would (RULES §12.2): the
        learner's later decision, like a rob back, is the policy's too.
        """
        key = (index, landlord)
        got = self._games.get(key)
        if got is not None:
            return got
        hidden, kitty = self.deals[index]
        me = self.view.seat
        hands = [self.view.hand.packed if s == me else hidden[s] for s in range(self.n)]
        hands[landlord] += kitty
        shown = self.rules.can_open and self.bidders[index].show_hand(self._lead_view(hands, landlord, kitty))
        got = self.play_out(hands, landlord, kitty, shown)
        self._games[key] = got
        return got

    def _lead_view(self, hands: list[int], landlord: int, kitty: int, shown: bool = False) -> PlayerView:
        """The landlord's view at the first lead of a sampled game (the auction seen as one bid 1)."""
        counts = tuple(packed_size(h) for h in hands)
        return view_from_public(landlord, Cards(hands[landlord]), landlord, (), counts, bids=((landlord, 1),),
                                kitty=Cards(kitty), bid=1, rules=self.rules,
                                shown=Cards(hands[landlord]) if shown else None)

    def play_out(self, hands: list[int], landlord: int, kitty: int, shown: bool) -> tuple[bool, int, int]:
        """One game from the landlord's first lead, every seat by the policy: (learner's side won,
        multiplier, learner's delta at a stake of 1); ``shown``: the landlord showed the hand (×open_factor,
        and every simulated seat sees it, RULES §12.2)."""
        me = self.view.seat
        base = self._lead_view(hands, landlord, kitty, shown)
        game = Game.from_view(base, dict(enumerate(hands)), checked=False)
        turns = 0
        if self.quick and not shown:
            # The compiled play-out's line, stepped on the game so the score sees every play
            # (it plays from the card counts only: an open hand goes to the Python policy, which sees it).
            _, line = playout_line(hands, landlord, landlord, None, None)
            for move in line:
                game.push(move)
                turns += 1
        while not game.is_over and turns < MAX_TURNS:
            game.push(self.policy.play(game.view(game.to_move)))
            turns += 1
        winner = game.winner
        self.decisions += turns
        if winner is None:  # cannot happen with legal play; counted as a loss of the landlord's side
            winner = next(s for s in range(self.n) if s != landlord)
        score = score_game(game.history, landlord, 1, winner, self.rules, opened=shown)
        won = (winner == landlord) == (me == landlord)
        return won, score.multiplier, score.deltas[me]

    def value(self, candidate: int) -> BidValue:
        """``candidate`` over every sample drawn so far (a later step plays only its own samples)."""
        scores, landlord_flags, won_flags = self._values.setdefault(candidate, ([], [], []))
        for i in range(len(scores), len(self.deals)):
            hidden, _ = self.deals[i]
            _, landlord, bid = self.auction(i, hidden, candidate)
            if landlord is None:
                scores.append(0.0)  # all passed: redealt, this deal scores nothing
                landlord_flags.append(0)
                won_flags.append(0)
                continue
            won, _, delta = self.game(i, landlord)
            scores.append(delta * bid / self.rules.base)
            landlord_flags.append(int(landlord == self.view.seat))
            won_flags.append(int(won))
        return BidValue(candidate, tuple(scores), tuple(landlord_flags), tuple(won_flags))


def evaluate_bid(view: PlayerView, budget: BidBudget = DEFAULT_BID_BUDGET) -> BidEvaluation:
    """Every legal bid's expected score (base stakes) for the learner's auction decision, best first.

    Ties go to the lower bid (pass first): the cheaper of two equal choices.

    Raises:
        ValueError: When the view is not the learner's turn in the auction.
    """
    if view.landlord is not None or view.to_move != view.seat or view.kitty is not None:
        raise ValueError("the coach evaluates a bid of the player to bid")
    if view.rules.decks != 1:  # two decks (RULES §12.4): 25-card games in Python; medium plays them
        budget = replace(budget, samples=min(budget.samples, 8), max_samples=min(budget.max_samples, 16), policy="medium")
    ev = _BidEvaluator(view, budget)
    bids = legal_bids(view)
    while True:
        values = [ev.value(b) for b in bids]
        values.sort(key=lambda v: (-round(v.expected, 9), v.bid))
        found = BidEvaluation(view, values, len(ev.deals), ev.misfits, len(ev._games), ev.decisions, budget)
        if bids_settled(found) or not ev.draw():
            return found


def bids_settled(ev: BidEvaluation) -> bool:
    """Is every candidate's verdict known well enough to say?  Its loss against the best has a
    noise of at most :attr:`BidBudget.target_noise`, or stays in one verdict band within twice
    its noise — the sequential sampling of the auction stops then (or at the cap)."""
    from tutor.coach.evaluation import settled

    thresholds = (BID_INACCURACY, BID_MISTAKE, BID_BLUNDER)
    target = ev.budget.target_noise
    return all(settled(ev.loss(c.bid), ev.loss_noise(c.bid), target, thresholds) for c in ev.candidates[1:])


# --------------------------------------------------------------------------- verdicts
#: Loss thresholds in base stakes per deal: inaccuracy, mistake, blunder (see docs/coach.md).
BID_INACCURACY = 0.5
BID_MISTAKE = 1.0
BID_BLUNDER = 2.0


@dataclass(frozen=True, slots=True)
class BidVerdict:
    """How the learner's bid compares with the best candidate, in expected score."""

    bid: int
    expected: float
    best_bid: int
    best_expected: float
    loss: float
    #: Standard error of ``loss`` (paired over the same samples).
    noise: float
    level: str

    @property
    def flagged(self) -> bool:
        """An inaccuracy or worse that the samples tell from luck (loss above twice its noise)."""
        from tutor.coach.advice import FLAGGED, NOISE_SIGMAS

        return self.level in FLAGGED and self.loss > NOISE_SIGMAS * self.noise

    @property
    def unclear(self) -> bool:
        """An inaccuracy or worse by the estimate that the samples cannot tell from luck."""
        from tutor.coach.advice import FLAGGED

        return self.level in FLAGGED and not self.flagged

    @property
    def sure(self) -> bool:
        """Would the band be the same anywhere within twice the noise?  "Good choice" is said only then:
        a loss of 0.2 ± 0.4 stakes is not known to be good (issue 20: no praise inside the noise)."""
        from tutor.coach.evaluation import settled

        return settled(self.loss, self.noise, 0.0, (BID_INACCURACY, BID_MISTAKE, BID_BLUNDER))

    def to_data(self) -> dict[str, object]:
        """JSON-ready, exactly: a saved game keeps its bid verdicts (docs/coach.md)."""
        return {"bid": self.bid, "expected": self.expected, "best_bid": self.best_bid,
                "best_expected": self.best_expected, "loss": self.loss, "noise": self.noise, "level": self.level}  # fmt: skip

    @classmethod
    def from_data(cls, data: object) -> BidVerdict:
        """Read :meth:`to_data` back (ValueError on anything else)."""
        from tutor.coach.advice import LEVELS

        if not isinstance(data, dict) or data.get("level") not in LEVELS:
            raise ValueError(f"not a stored bid verdict: {str(data)[:40]!r}")
        try:
            return cls(int(data["bid"]), float(data["expected"]), int(data["best_bid"]), float(data["best_expected"]),
                       float(data["loss"]), float(data["noise"]), str(data["level"]))  # fmt: skip
        except (KeyError, TypeError) as error:
            raise ValueError(f"not a stored bid verdict: {str(data)[:40]!r}") from error


def bid_level(loss: float, noise: float) -> str:
    """The verdict band of a loss of ``loss`` base stakes (flagged only beyond twice ``noise``: :attr:`BidVerdict.flagged`)."""
    from tutor.coach.advice import level_for

    return level_for(loss, noise, (BID_INACCURACY, BID_MISTAKE, BID_BLUNDER))


def judge_bid(
    view: PlayerView, bid: int, budget: BidBudget = DEFAULT_BID_BUDGET, evaluation: BidEvaluation | None = None
) -> tuple[BidVerdict, BidEvaluation]:
    """The verdict on ``bid`` (0 = pass) made from ``view``, and the evaluation it came from."""
    ev = evaluation if evaluation is not None else evaluate_bid(view, budget)
    got = ev.value(bid)
    loss = ev.loss(bid)
    noise = ev.loss_noise(bid)
    verdict = BidVerdict(bid, got.expected, ev.best.bid, ev.best.expected, loss, noise, bid_level(loss, noise))
    return verdict, ev


# ------------------------------------------------------------------------- phrases
def bid_phrase(bid: int, rules: Rules) -> Phrase:
    """A bid as data: «пас» / "pass" or «ставка 2» / "bid 2"; in a rob auction "call" or "rob" (RULES §12.1)."""
    if bid == PASS:
        return Phrase("coach.bid_pass")
    if rules.robs:
        return Phrase("variants.coach_call" if bid == CALL else "variants.coach_rob")
    return Phrase("coach.bid_n", {"bid": bid})


def points(stakes: float, ev: BidEvaluation | int) -> str:
    """Base stakes shown as the points of the running score (base × stakes), signed: "+27", "−8", "0".

    ``ev``: the evaluation (its rules' base) or the base itself.
    """
    base = ev if isinstance(ev, int) else ev.view.rules.base
    value = round(stakes * base)
    if value == 0:
        return "0"
    return f"+{value}" if value > 0 else f"−{abs(value)}"


def bid_reason(value: BidValue, ev: BidEvaluation) -> Phrase:
    """One short reason for a candidate: how often you would win as landlord, and what that is worth."""
    if value.bid == PASS:
        if value is not ev.best:
            return Phrase("coach.bid_reason_farmer", {"win": round(100 * value.side_wins)})
        order = view_auction(ev.view).legal(ev.view.rules)  # auction.py's order: pass, then each stronger claim
        top = max(ev.candidates, key=lambda c: order.index(c.bid))
        return Phrase("coach.bid_reason_pass", {"win": round(100 * top.landlord_wins)})
    if value.landlord_share < 0.5:
        return Phrase("coach.bid_reason_outbid", {"share": round(100 * (1 - value.landlord_share))})
    return Phrase("coach.bid_reason_landlord", {"win": round(100 * value.landlord_wins)})


def bid_hint_phrase(n: int, value: BidValue, ev: BidEvaluation) -> Phrase:
    """Bid hint number ``n``: the bid, its expected score (± error) and the reason (and, for the
    first, that the next one is as good within the noise when it is)."""
    line = Phrase(
        "coach.bid_hint",
        {
            "n": n,
            "bid": bid_phrase(value.bid, ev.view.rules),
            "score": points(value.expected, ev),
            "err": round(value.stderr * ev.view.rules.base),
            "reason": bid_reason(value, ev),
        },
    )
    close = close_call(ev) if value is ev.best else None
    return line if close is None else Phrase("coach.joined", {"first": line, "second": close})


def bid_verdict_phrase(v: BidVerdict, ev: BidEvaluation) -> Phrase:
    """The verdict on a bid as data: the bid's expected score and, when flagged, the better bid's."""
    rules = ev.view.rules
    values: dict[str, object] = {"bid": bid_phrase(v.bid, rules), "score": points(v.expected, ev)}
    if v.level == "best":
        line = Phrase("coach.bid_verdict_best", values)
        close = close_call(ev)  # the best by the estimate, but not told from the next one: said
        return line if close is None else Phrase("coach.joined", {"first": line, "second": close})
    if v.level == "good" and v.sure:
        return Phrase("coach.bid_verdict_good", values)
    base = rules.base
    values.update({"best": bid_phrase(v.best_bid, rules), "best_score": points(v.best_expected, ev),
                   "loss": round(v.loss * base), "noise": round(v.noise * base)})  # fmt: skip
    if v.unclear or v.level == "good":  # "good" only when no value within twice the noise is an inaccuracy
        return Phrase("coach.bid_verdict_unclear", values)
    return Phrase(f"coach.bid_verdict_{v.level}", values)


def close_call(ev: BidEvaluation) -> Phrase | None:
    """When the best bid is not told from the next one by the samples (its lead within twice the
    noise of the paired difference), a phrase that says so with the figures; else None.

    The coach never pushes a bid inside its own noise over a safer one without saying so.
    """
    if len(ev.candidates) < 2:
        return None
    other = ev.candidates[1]
    lead, noise = ev.loss(other.bid), ev.loss_noise(other.bid)
    from tutor.coach.advice import NOISE_SIGMAS

    if lead > NOISE_SIGMAS * noise:
        return None
    base = ev.view.rules.base
    return Phrase("coach.bid_close", {"other": bid_phrase(other.bid, ev.view.rules), "lead": round(lead * base),
                                      "noise": round(noise * base)})  # fmt: skip


def bid_status_phrase(status: BidStatus, ev: BidEvaluation) -> Phrase:
    """The bidding status line of RULES §9 with the evaluation's suggestion: the hand's facts,
    the best bid, its expected score (± error) and one reason."""
    best = ev.best
    values: dict[str, object] = {
        "high": status.high_cards,
        "bombs": status.bombs,
        "moves": status.moves,
        "bid": bid_phrase(best.bid, ev.view.rules),
        "score": points(best.expected, ev),
        "err": round(best.stderr * ev.view.rules.base),
        "reason": bid_reason(best, ev),
    }
    line = Phrase("coach.bid_status_eval", values)
    close = close_call(ev)
    return line if close is None else Phrase("coach.joined", {"first": line, "second": close})
