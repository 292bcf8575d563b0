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

from tutor.bench.rlcard_arena import their_move
from tutor.bots import rollout
from tutor.engine.combos import Combo
from tutor.engine.game import Game
from tutor.engine.moves import follow_moves_packed
from tutor.engine.view import PlayerView

#: RLCard's ranks in its order (its card strings are sorted by it; B and R are the jokers).
RLCARD_RANKS = "3456789TJQKA2BR"

Move = Combo | None


def rlcard_text(packed: int) -> str:
    """Packed cards as RLCard writes them (sorted by rank, ``B``/``R`` for the jokers)."""
    return "".join(RLCARD_RANKS[r] * ((packed >> (4 * r)) & 0xF) for r in range(len(RLCARD_RANKS)))


def rule_agent_move(game: Game, agent: Any, rng: random.Random) -> Move:
    """The rule agent's move for the seat to move in ``game`` (its hand, the table, the last two turns)."""
    from rlcard.games.doudizhu.utils import CARD_TYPE

    seat = game.to_move
    hand = rlcard_text(game.hands_packed[seat])
    if game.table is None:
        for actions in agent.combine_cards(hand).values():
            for action in actions:
                if hand[0] in action:
                    return their_move(game, action)
        raise ValueError(f"the rule agent found no lead in {hand[:40]!r}")
    target = game.table
    # As the agent reads its trace: the player of the last turn, even when that turn was a pass.
    target_player = game.history[-1].seat
    kind = CARD_TYPE[0][rlcard_text(target.cards)][0][0]
    moves = follow_moves_packed(game.hands_packed[seat], target, game.rules)
    same = [m for m in moves if CARD_TYPE[0].get(rlcard_text(m.cards), [["", ""]])[0][0] == kind]
    if same:
        return min(same, key=lambda m: int(CARD_TYPE[0][rlcard_text(m.cards)][0][1]))
    landlord = game.landlord
    if target_player != landlord and seat != landlord:
        return None
    choices: list[Move] = [*moves, None]
    return choices[rng.randrange(len(choices))]


def play_deals_against_rule_agent(
    view: PlayerView, candidates: list[Move], deals: list[dict[int, int]], results: list[list[bool]]
) -> None:
    """:func:`tutor.bots.rollout.play_deals` with the rule agent as the farmers (the quick policy stays the
    landlord): every candidate played out on every deal; who won appended to ``results``."""
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
                    game.push(quick.choose(game.view(seat)))
                else:
                    game.push(rule_agent_move(game, agent, rng))
                turns += 1
            winner = game.winner
            results[i].append(winner is not None and (winner == view.landlord) == mine)


@contextmanager
def rule_agent_playouts() -> Iterator[None]:
    """Inside the block, the play-outs' farmers are RLCard's rule agent (:func:`play_deals_against_rule_agent`)."""
    original = rollout.play_deals
    try:
        rollout.play_deals = play_deals_against_rule_agent
        yield
    finally:
        rollout.play_deals = original
