"""RLCard's rule agent as the farmers of the landlord's play-outs: a diagnostic of the opponent model (issue 33).

The hard landlord judges its early candidates by play-outs in which the
compiled quick policy plays every seat (:func:`tutor.bots.rollout.play_deals`).
The farmers it meets in the arena are RLCard's ``DouDizhuRuleAgentV1``, which
plays differently (it leads the first of its combinations that holds its lowest
card, follows with the lowest of the same type, and otherwise passes for a
partner or plays at random).  Swapping the play-outs' farmers for that very
agent says how much a better model of the opponents would be worth — with
sampled deals (the model alone) or with the true ones (tutor/bench/oracle.py:
the model and the cards, the most the play-out procedure could know).

A diagnostic for benchmarks/landlord_ceiling.py only: a bot may not assume whom
it plays, and nothing the game, the coach or the web use imports this module.
The agent's own code decides (it needs the optional ``rlcard`` package); only
its random choice, when it cannot follow and will not pass, draws from a
:class:`random.Random` seeded by the deal, not numpy's global generator, so the
real game's agents draw exactly as without the play-outs.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tutor.bots import rollout
from tutor.bots.rollout import Ending
from tutor.bots.base import Bot
from tutor.bots.counting import PassLimit
from tutor.bots.sampling import Filter, Weighting
from tutor.engine.combos import Combo
from tutor.engine.game import Game
from tutor.engine.cards import Cards
from tutor.engine.moves import follow_moves_packed, lead_moves_packed
from tutor.engine.rules import Rules
from tutor.engine.view import PlayerView

#: RLCard's ranks in its order (its card strings are sorted by it; B and R are the jokers).
RLCARD_RANKS = "3456789TJQKA2BR"

Move = Combo | None


def rlcard_text(packed: int) -> str:
    """Packed cards as RLCard writes them (sorted by rank, ``B``/``R`` for the jokers)."""
    return "".join(RLCARD_RANKS[r] * ((packed >> (4 * r)) & 0xF) for r in range(len(RLCARD_RANKS)))


def rule_agent_move(game: Game, agent: Any, rng: random.Random) -> Move:
    """The rule agent's move for the seat to move in ``game`` (its hand, the table, the last turn)."""
    last = game.history[-1].seat if game.history else None
    assert game.landlord is not None
    return rule_agent_choice(
        game.hands_packed[game.to_move], game.table, last, game.to_move, game.landlord, game.rules, agent, rng
    )


def rule_agent_choice(
    hand_packed: int,
    table: Combo | None,
    last_seat: int | None,
    seat: int,
    landlord: int,
    rules: Rules,
    agent: Any,
    rng: random.Random,
) -> Move:
    """The rule agent's move holding ``hand_packed`` in ``seat`` (``last_seat``: who made the last turn)."""
    from rlcard.games.doudizhu.utils import CARD_TYPE

    hand = rlcard_text(hand_packed)
    if table is None:
        for actions in agent.combine_cards(hand).values():
            for action in actions:
                if hand[0] in action:
                    packed = Cards.parse(action).packed
                    # As the arena reads an action RLCard does not name the kind of: the highest main.
                    return max(
                        (m for m in lead_moves_packed(hand_packed, rules) if m.cards == packed),
                        key=lambda m: (m.main, m.kind, m.length),
                    )
        raise ValueError(f"the rule agent found no lead in {hand[:40]!r}")
    # As the agent reads its trace: the player of the last turn, even when that turn was a pass.
    target_player = last_seat
    kind = CARD_TYPE[0][rlcard_text(table.cards)][0][0]
    moves = follow_moves_packed(hand_packed, table, rules)
    same = [m for m in moves if CARD_TYPE[0].get(rlcard_text(m.cards), [["", ""]])[0][0] == kind]
    if same:
        return min(same, key=lambda m: int(CARD_TYPE[0][rlcard_text(m.cards)][0][1]))
    if target_player != landlord and seat != landlord:
        return None
    choices: list[Move] = [*moves, None]
    return choices[rng.randrange(len(choices))]


class RuleAgentBot:
    """The rule agent as a model player from a view, for nudging sampled deals towards deals in which the
    farmers' past plays are the agent's (:func:`tutor.bots.sampling.likely_samples`).  Where the agent would
    draw at random it passes (a model answer, not the agent's)."""

    level = "rlcard-rule-model"

    def __init__(self) -> None:
        from rlcard.models.doudizhu_rule_models import DouDizhuRuleAgentV1

        self.agent = DouDizhuRuleAgentV1()

    def play(self, view: PlayerView) -> Move:
        assert view.landlord is not None
        last = view.history[-1].seat if view.history else None
        return rule_agent_choice(
            view.hand.packed, view.table, last, view.seat, view.landlord, view.rules, self.agent, _Passes()
        )


class _Passes(random.Random):
    """A generator whose every draw picks the last choice (the pass): the model's answer to the agent's random pick."""

    def randrange(self, *args: Any, **kwargs: Any) -> int:
        return int(args[0]) - 1 if len(args) == 1 else int(args[1]) - 1


def play_deals_against_rule_agent(
    view: PlayerView, candidates: list[Move], deals: list[dict[int, int]], results: list[list[bool]],
    opponents: str = "quick", ending: Ending | None = None, policy: str = "quick",
) -> None:
    """:func:`tutor.bots.rollout.play_deals` with the rule agent as the farmers (the quick policy, or
    ``policy``, stays the landlord): every candidate played out on every deal; who won appended to ``results``.  ``opponents``
    (the bot's choice of simulated opponents) is overruled: the rule agent is the opponents here, and its
    play-outs are played to the end (``ending``, the solved end of round 8, is not applied)."""
    from rlcard.models.doudizhu_rule_models import DouDizhuRuleAgentV1

    from tutor.solver import playout as quick

    assert view.landlord is not None
    agent = DouDizhuRuleAgentV1()
    mine = view.seat == view.landlord
    for index, hidden in enumerate(deals):
        for i, move in enumerate(candidates):
            rng = random.Random(index)
            game = Game.from_view(view, hidden, checked=False)
            game.push(move)
            turns = 0
            while not game.is_over and turns < rollout.MAX_TURNS:
                seat = game.to_move
                if seat == game.landlord:
                    game.push(quick.choose(game.view(seat), policy))
                else:
                    game.push(rule_agent_move(game, agent, rng))
                turns += 1
            winner = game.winner
            results[i].append(winner is not None and (winner == view.landlord) == mine)


def draw_deals_for_rule_agent(
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
    """:func:`tutor.bots.rollout.draw_deals` with the deals nudged towards the rule agent's plays (the model of
    :class:`RuleAgentBot`, whatever ``model``, ``nudge`` and ``filtering`` say) instead of the quick policy's."""
    return QUICK_DRAW_DEALS(view, rng, samples, limits, steps, recent, weighting, RuleAgentBot())  # type: ignore[arg-type]


#: The play-outs' own deal drawing, kept before :func:`rule_agent_playouts` puts the one above in its place.
QUICK_DRAW_DEALS = rollout.draw_deals


@contextmanager
def rule_agent_playouts(nudged: bool = False) -> Iterator[None]:
    """Inside the block, the play-outs' farmers are RLCard's rule agent (:func:`play_deals_against_rule_agent`);
    with ``nudged``, the play-outs' deals are nudged towards its plays (:func:`draw_deals_for_rule_agent`, with
    ``HardBot.playout_steps`` swaps)."""
    original = rollout.play_deals, rollout.draw_deals
    try:
        rollout.play_deals = play_deals_against_rule_agent
        if nudged:
            rollout.draw_deals = draw_deals_for_rule_agent
        yield
    finally:
        rollout.play_deals, rollout.draw_deals = original
