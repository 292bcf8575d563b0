"""Rollouts: try each sensible move on sampled deals and see how the game ends.

Before the endgame is small enough to solve exactly, the hard bot still looks
ahead.  For a few candidate moves (its own heuristic choice, pass, the best
other answers or leads of its plan) it samples hidden hands consistent with its
view (:mod:`tutor.bots.sampling`), plays each candidate, and lets medium-level
players finish the game from there — everyone deciding from their own view of
the sampled deal.  The candidate whose games end best for its side is played.

Trying moves against a decent default policy and keeping the best one is the
classic *rollout* (policy-improvement) method of game programs: it is reliably
stronger than the policy it rolls out with, which is exactly the gap between
the medium and the hard level.  Every candidate is tried on the same samples
(common random numbers), so the comparison is not swamped by the luck of the
deal.

Every rollout steps the engine's own game (:class:`tutor.engine.game.Game`,
built from the view and a sample by ``Game.from_view(..., checked=False)``):
there is no second simulator, and every simulated decision gets the view the
game gives, exactly as in a real game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tutor.bots.base import Bot, turn_rng
from tutor.bots.counting import PassLimit, pass_limits
from tutor.bots.effort import Effort
from tutor.bots.robust import deal_families, holds_under_every_family, paired_statistic, robust_choice
from tutor.bots.sampling import Filter, Weighting, filtered_samples, likely_samples, nudged_samples, sampler
from tutor.engine.combos import Combo
from tutor.engine.game import Game
from tutor.engine.rules import Rules
from tutor.engine.view import PlayerView

if TYPE_CHECKING:
    import random

    from tutor.bots.medium import MediumBot
    from tutor.solver.team_native import NativeTeamSearch

Move = Combo | None

#: Told of every played-out decision (:func:`best_by_playouts`): the view, the candidates, each
#: candidate's play-outs (won or not, deal by deal) and the index of the one played.  Only benchmarks
#: listen (benchmarks/playout_calibration.py); the decision does not depend on it.
PlayoutObserver = Callable[[PlayerView, list[Move], list[list[bool]], int], None]

#: A rollout that has not ended after this many turns is scored as a loss for
#: the side to move (it cannot happen with legal play, but guards the loop).
MAX_TURNS = 400


def quick_available(rules: Rules) -> bool:
    """Is the compiled play-out (:mod:`tutor.solver.playout`) usable for ``rules``?"""
    from tutor.solver import playout as quick  # lazily: a rollout with a Python policy needs no solver

    return quick.available(rules)


def playout(hands: Sequence[int], landlord: int, to_move: int, table: Combo | None, table_seat: int | None) -> int:
    """:func:`tutor.solver.playout.playout` (its public home; this name stays for old callers)."""
    from tutor.solver import playout as quick

    return quick.playout(hands, landlord, to_move, table, table_seat)


def playout_line(
    hands: Sequence[int], landlord: int, to_move: int, table: Combo | None, table_seat: int | None
) -> tuple[int, list[Combo | None]]:
    """:func:`tutor.solver.playout.playout_line` (its public home; this name stays for old callers)."""
    from tutor.solver import playout as quick

    return quick.playout_line(hands, landlord, to_move, table, table_seat)


class QuickBot:
    """The compiled play-out policy as a bot: a seat's move from its view (hand, counts, table).

    The coach's samples are nudged towards deals in which the others' past plays
    are what this policy would have played (:func:`tutor.bots.sampling.likely_samples`),
    the same players its play-outs then assume.  Standard rules, three seats.
    """

    level = "quick"

    def bid(self, view: PlayerView) -> int:
        """Bids as the medium level does (the hand evaluation): the play-out policy does not bid."""
        from tutor.bots.medium import MediumBot

        return MediumBot(0).bid(view)

    def show_hand(self, view: PlayerView) -> bool:
        """Never shows its hand (the open hand is not a standard rule; the quick policy plays standard rules only)."""
        return False

    def play(self, view: PlayerView) -> Combo | None:
        from tutor.solver import playout as quick

        return quick.choose(view)


def rollout(
    view: PlayerView, hidden: dict[int, int], first: Move, policy: MediumBot, effort: Effort | None = None
) -> bool:
    """Play ``first`` for the viewer, let ``policy`` play everyone after it; True if the viewer's side wins.

    Each of ``policy``'s decisions is counted in ``effort`` when given.
    """
    assert view.landlord is not None
    game = Game.from_view(view, hidden, checked=False)
    game.push(first)
    turns = 0
    while not game.is_over and turns < MAX_TURNS:
        game.push(policy.play(game.view(game.to_move)))
        turns += 1
    winner = game.winner
    if effort is not None:
        effort.spend(turns)
    if winner is None:
        return False
    return (winner == view.landlord) == (view.seat == view.landlord)


def best_by_rollouts(
    view: PlayerView,
    candidates: list[Move],
    samples: int,
    seed: int,
    policy: MediumBot,
    margin: int = 0,
    steps: int = 0,
    recent: int | None = None,
    max_effort: int | None = None,
    weighting: Weighting | None = None,
) -> Move:
    """The candidate that wins most rollouts.

    The first candidate is the heuristic's choice; another one replaces it only
    when it wins at least ``margin`` more of the same samples — with a handful
    of samples, smaller differences are mostly noise, and chasing noise is
    worse than trusting judgement.  Ties go to the earlier candidate.

    With ``steps``, each sampled deal is nudged by up to that many card swaps
    towards one that explains the others' past plays as ``policy`` would have
    made them (over the last ``recent`` turns;
    :func:`tutor.bots.sampling.likely_samples`), after being drawn weighted by
    ``weighting`` when given (:func:`tutor.bots.sampling.sampler`).

    The work is bounded by counts, never by the clock (the same view gives the
    same move on an idle and on a busy machine): ``samples * (steps + 1)``
    replays of the history for the swaps, ``samples * len(candidates)`` games,
    and — the safety stop of a decision whose history is unusually long — at
    most ``max_effort`` model decisions (None: no limit) for the swaps and the
    games together (:class:`~tutor.bots.effort.Effort`).  The swaps may use
    half of it; once it is spent, the samples not yet rolled out are dropped:
    every candidate has seen the same samples, so the comparison stays fair,
    and at least one sample is always played.
    """
    rng = turn_rng(seed, view)
    limits = pass_limits(view)
    wins = [0] * len(candidates)
    sampling = Effort(None if max_effort is None else max_effort // 2)
    deals = likely_samples(view, rng, samples, policy, steps, limits, recent, effort=sampling, weighting=weighting)
    effort = Effort(max_effort)
    effort.spend(sampling.spent)
    for hidden in deals:
        for i, move in enumerate(candidates):
            wins[i] += rollout(view, hidden, move, policy, effort)
        if effort.exhausted:
            break  # the safety stop
    best = max(range(len(candidates)), key=lambda i: (wins[i], -i))
    if wins[best] - wins[0] < margin:
        return candidates[0]
    return candidates[best]


def best_by_playouts(
    view: PlayerView,
    candidates: list[Move],
    samples: int,
    seed: int,
    z: float = 1.0,
    limits: list[PassLimit] | None = None,
    steps: int = 0,
    recent: int | None = None,
    more: int = 0,
    close: float = 2.0,
    weighting: Weighting | None = None,
    opponents: str = "quick",
    observe: PlayoutObserver | None = None,
    nudge: str = "quick",
    filtering: Filter | None = None,
    tail: int = 0,
    tail_nodes: int = 0,
    mixture: Mixture | None = None,
    robust: float | None = None,
    families: tuple[str, ...] = (),
    policy: str = "quick",
) -> Move:
    """The candidate whose compiled play-outs win clearly more than the heuristic's choice's.

    Many cheap rollouts instead of a few dear ones: each of ``samples`` hidden
    deals drawn to fit the view (with what the passes revealed,
    :func:`tutor.bots.sampling.sample_hidden`) is played out from every
    candidate by the compiled quick policy (:func:`tutor.solver.playout.playout`,
    some hundred times cheaper a game than the medium policy in Python), so the
    early game, where a handful of medium rollouts says little, gets enough
    games to beat their noise.  Every candidate meets the same deals (common
    random numbers), and the comparison with the first candidate — the
    heuristic's choice — is paired: an alternative replaces it only when it
    wins on ``b`` deals where the choice loses and loses on ``c`` where it wins
    with ``b − c > z·√(b + c)`` (a sign test at about ``z`` standard errors);
    among those, the most wins (ties: the earlier candidate).

    With ``steps``, each deal is first nudged by up to that many card swaps
    towards one in which the others' last ``recent`` plays are what the quick
    policy would have made (:func:`tutor.bots.sampling.likely_samples` with
    :class:`QuickBot`: the players the play-outs then assume).  ``weighting``
    weights the deals by the others' answers and passes
    (:func:`tutor.bots.sampling.sampler`).

    With ``more``, a close decision gets ``more`` further deals before it is
    made: when the best alternative's paired statistic ``(b − c)/√(b + c)`` is
    above 0 but at most ``close`` — the sign test could go either way — the
    budget goes where it can change the move, and the test is made again on all
    the deals; a clear decision (no alternative ahead, or one far ahead) costs
    no more.

    ``opponents`` names how the viewer's opponents play in the play-outs: the quick policy itself
    ("quick") or one of its variants (:data:`tutor.solver.playout.VARIANTS`: e.g. "lowest", always
    beating with the lowest answer as RLCard's rule agent does); the viewer's own side plays the quick
    policy.  ``observe``, when given, is told of the decision (:data:`PlayoutObserver`).

    With ``filtering`` (round 8) the deals are not nudged but filtered: ``pool`` times as many are drawn and
    those the filter's model explains best are kept (:func:`tutor.bots.sampling.filtered_samples`).

    With ``tail``, a play-out's end (at most ``tail`` cards in play) is solved with open hands in at most
    ``tail_nodes`` nodes instead of played by the quick policy (:func:`tutor.solver.playout.solved_playout`;
    one fresh search for the decision).

    With ``mixture`` (round 9) the deals are split among several models of the opponents by their weights
    (:class:`Mixture`, :func:`mixture_deals`): each model's share is drawn (and nudged) under that model and
    played out with the opponents playing it; ``opponents`` is then not used.

    With ``robust`` (round 11) a change must also hold under every model family of the deals: an alternative
    whose paired statistic on one family's deals is below ``−robust`` is not chosen, whatever the pooled test
    says (:func:`tutor.bots.robust.holds_under_every_family`; with one family it changes nothing).

    With two or more ``families`` (round 11) every deal is played out once under each family of the
    opponents' models (common deals: only the opponents differ), and :func:`tutor.bots.robust.robust_choice`
    decides: an alternative clearly better (above ``z``) under some family and not worse than ``−robust``
    (0 when None) under any.  ``opponents`` and ``mixture`` are then not used, and the play-outs are
    ``len(families)`` times as many.

    ``policy`` (round 12) is the compiled policy every seat plays in the play-outs where the above name the
    quick policy: the viewer's side, and opponents played as "quick" ("plan": quick with a sense of control,
    :data:`tutor.solver.playout.VARIANTS`); opponents given another variant still play that variant.

    The work is ``samples`` draws (``samples + more`` for a close decision; and
    ``samples · (steps + 1)`` replays) and one play-out per candidate a deal:
    counted, never timed.  Needs the compiled play-out for ``view.rules``
    (:func:`quick_available`).
    """
    assert view.landlord is not None
    rng = turn_rng(seed, view)
    if limits is None:
        limits = pass_limits(view)
    results: list[list[bool]] = [[] for _ in candidates]
    ending = Ending.fresh(view.landlord, view.players, tail, tail_nodes)
    if len(families) > 1:
        return robust_playouts(view, candidates, draw_deals(
            view, rng, samples, limits, steps, recent, weighting, nudge=nudge, filtering=filtering,
        ), families, z, 0.0 if robust is None else robust, ending, observe, policy)
    labels: list[str] = []  # each deal's model of the opponents, for the robust rule
    if mixture is not None:
        deals, opponents = mixture_deals(view, rng, mixture, samples, limits, weighting)
    else:
        deals = draw_deals(view, rng, samples, limits, steps, recent, weighting, nudge=nudge, filtering=filtering)
    play_deals(view, candidates, deals, results, opponents, ending, policy=policy)
    labels += deal_families(opponents, len(deals))
    if more > 0 and 0.0 < best_statistic(results) <= close:
        if mixture is not None:
            deals, opponents = mixture_deals(view, rng, mixture, more, limits, weighting)
        else:
            deals = draw_deals(view, rng, more, limits, steps, recent, weighting, nudge=nudge, filtering=filtering)
        play_deals(view, candidates, deals, results, opponents, ending, policy=policy)
        labels += deal_families(opponents, len(deals))
    base = results[0]
    best, best_wins = 0, sum(base)
    for i in range(1, len(candidates)):
        won, lost = paired_counts(base, results[i])
        wins = sum(results[i])
        if won - lost > z * (won + lost) ** 0.5 and wins > best_wins:
            if robust is not None and not holds_under_every_family(base, results[i], labels, robust):
                continue  # a family's deals clearly contradict the change
            best, best_wins = i, wins
    if observe is not None:
        observe(view, candidates, results, best)
    return candidates[best]


def robust_playouts(
    view: PlayerView, candidates: list[Move], deals: list[dict[int, int]], families: tuple[str, ...], z: float,
    veto: float, ending: Ending | None = None, observe: PlayoutObserver | None = None, policy: str = "quick",
) -> Move:
    """Every candidate played out on ``deals`` under each of ``families`` (:func:`play_deals`), decided by
    :func:`tutor.bots.robust.robust_choice`; the observer sees each candidate's verdicts family after family."""
    per: dict[str, list[list[bool]]] = {}
    for family in families:
        per[family] = [[] for _ in candidates]
        play_deals(view, candidates, deals, per[family], family, ending, policy=policy)
    best = robust_choice(per, z, veto)
    if observe is not None:
        observe(view, candidates, [[won for f in families for won in per[f][i]] for i in range(len(candidates))], best)
    return candidates[best]


def draw_deals(
    view: PlayerView,
    rng: random.Random,
    samples: int,
    limits: list[PassLimit],
    steps: int,
    recent: int | None,
    weighting: Weighting | None = None,
    model: Bot | None = None,
    nudge: str = "quick",
    filtering: Filter | None = None,
) -> list[dict[int, int]]:
    """``samples`` hidden deals fitting the view, nudged by ``steps`` swaps towards the plays of ``model``
    (a bot — a diagnostic may pass another model of the others' play); when None, towards the plays of the
    compiled play-out variant ``nudge`` (:func:`tutor.bots.sampling.nudged_samples`), or of the quick
    policy asked from Python when ``nudge`` is "python".  With ``filtering`` (and no ``steps``) the deals are
    filtered by its model instead (:func:`tutor.bots.sampling.filtered_samples`)."""
    if filtering is not None and steps <= 0 and model is None:
        return filtered_samples(view, rng, samples, filtering, limits, weighting)
    if steps > 0 and model is None and nudge != "python":
        return nudged_samples(view, rng, samples, nudge, steps, limits, recent, weighting)
    if steps > 0:
        return likely_samples(view, rng, samples, model or QuickBot(), steps, limits, recent, weighting=weighting)
    draw = sampler(view, limits, weighting)
    return [draw(rng) for _ in range(samples)]


@dataclass(frozen=True, slots=True)
class Mixture:
    """The play-outs' opponents as a mixture of models (round 9): each model's weight (how likely it is to be
    the opponents' way of playing, :func:`tutor.bots.opponent_model.posterior`), and how its deals are guessed:
    nudged by ``steps`` card swaps over the others' last ``recent`` plays (None: all) under that same model
    when it is one of ``nudged``."""

    weights: tuple[tuple[str, float], ...]
    steps: int = 0
    recent: int | None = None
    nudged: tuple[str, ...] = ()


def mixture_deals(
    view: PlayerView, rng: random.Random, mixture: Mixture, count: int, limits: list[PassLimit],
    weighting: Weighting | None = None,
) -> tuple[list[dict[int, int]], str]:
    """``count`` deals split among ``mixture``'s models (:func:`tutor.bots.opponent_model.allocation`), each
    share drawn by :func:`draw_deals` and nudged under its own model (:attr:`Mixture.nudged`), and the
    opponents' model of each deal as :func:`play_deals` reads it (one ``+``-joined name a deal, in order).
    The work is the draws and, for the nudged shares, their ``steps`` replays: counted, never timed."""
    from tutor.bots.opponent_model import allocation

    deals: list[dict[int, int]] = []
    kinds: list[str] = []
    for model, n in allocation(dict(mixture.weights), count):
        steps = mixture.steps if model in mixture.nudged else 0
        deals += draw_deals(view, rng, n, limits, steps, mixture.recent, weighting, nudge=model)
        kinds += [model] * n
    return deals, "+".join(kinds)


@dataclass(frozen=True, slots=True)
class Ending:
    """How a decision's play-outs end: solved with open hands by ``search`` once at most ``tail`` cards are
    in play, in at most ``nodes`` nodes a play-out (:func:`tutor.solver.playout.solved_playout`)."""

    search: NativeTeamSearch
    tail: int
    nodes: int

    @staticmethod
    def fresh(landlord: int, players: int, tail: int, nodes: int) -> Ending | None:
        """One decision's ending (a fresh search), or None: no tail asked, or the search is not built."""
        if tail <= 0 or nodes <= 0:
            return None
        from tutor.solver import playout as quick

        search = quick.tail_search(landlord, players)
        return None if search is None else Ending(search, tail, nodes)


#: The suffix of a play-out policy played by the viewer's side only (:func:`play_deals`).
OWN = "-own"
#: The suffix of a play-out policy played by the viewer's opponents only, where they are modelled as the quick
#: policy (round 17: the viewer's own side plays quick; the landlord's "plan-opp", spent decks: the rule agent
#: +0.006, RHCP-v2's decks 0–199 −0.065, docs/bots.md).
OPP = "-opp"


def play_deals(
    view: PlayerView, candidates: list[Move], deals: list[dict[int, int]], results: list[list[bool]],
    opponents: str = "quick", ending: Ending | None = None, policy: str = "quick",
) -> None:
    """Play every candidate out on every deal by the compiled quick policy (the viewer's opponents by its
    variant ``opponents``); append who won to ``results``.  Several variants joined by ``+`` ("quick+lowest")
    take turns deal by deal: opponents of either kind, when the bot cannot know which it meets.  With
    ``ending``, each play-out's end is solved with open hands (:class:`Ending`).  Every seat that would play
    the quick policy plays ``policy`` instead (round 12: "plan").  A policy named with ``-own`` ("plan-own",
    round 16) is played by the viewer's side only: opponents modelled as the quick policy play quick; one named
    with ``-opp`` ("plan-opp", round 17) by the opponents modelled as the quick policy only, the viewer's side
    playing quick."""
    from tutor.solver import playout as quick  # lazily, as in quick_available

    pinned = policy.endswith(OWN)
    policy = policy.removesuffix(OWN)
    theirs = policy.removesuffix(OPP) if policy.endswith(OPP) else None
    if theirs is not None:
        policy = "quick"

    assert view.landlord is not None
    mine = view.seat == view.landlord
    others = [s for s in range(len(view.card_counts)) if (s == view.landlord) != mine]
    kinds = opponents.split("+")
    for d, hidden in enumerate(deals):
        variant = kinds[d % len(kinds)]
        if theirs is not None and variant == "quick":
            variant = theirs
        for i, move in enumerate(candidates):
            game = Game.from_view(view, hidden, checked=False)
            game.push(move)
            winner = game.winner
            if winner is None and ending is not None:
                winner = quick.solved_playout(
                    ending.search, game.hands_packed, game.to_move, game.table, game.table_seat, variant, others,
                    ending.tail, ending.nodes, base=policy,
                )
            elif winner is None:
                winner = quick.playout(
                    game.hands_packed, view.landlord, game.to_move, game.table, game.table_seat, variant, others,
                    base=policy, pinned=pinned,
                )
            results[i].append(winner >= 0 and (winner == view.landlord) == mine)


def paired_counts(base: list[bool], other: list[bool]) -> tuple[int, int]:
    """Deals ``other`` wins where ``base`` loses, and loses where ``base`` wins."""
    won = sum(1 for a, b in zip(base, other) if b and not a)
    lost = sum(1 for a, b in zip(base, other) if a and not b)
    return won, lost


def best_statistic(results: list[list[bool]]) -> float:
    """The largest paired sign-test statistic ``(b − c)/√(b + c)`` of an alternative against the first (0: none)."""
    return max([0.0] + [paired_statistic(results[0], other) for other in results[1:]])
