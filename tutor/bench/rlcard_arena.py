"""Our bots against RLCard's rule agent, in RLCard's own environment (issue 33).

The public yardstick of the DouZero evaluation: RLCard 1.2.0's Dou Di Zhu
environment (``rlcard.make("doudizhu")``) deals, keeps the turn and decides who
went out; its ``DouDizhuRuleAgentV1`` plays the other side.  Every deck is
played twice with the seats swapped — our level as the landlord (RLCard's
seat 0, which takes the kitty) against two rule agents, then a rule agent as
the landlord against our level as both farmers — so each side gets the same
cards once.  A :class:`~tutor.engine.game.Game` follows the environment move
for move, built from the environment's hands and kitty: our bots decide from
its :meth:`~tutor.engine.game.Game.view` (they never see a hidden hand), and
it scores the game (2 points, doubled by every bomb and rocket: ADP).  The two
must agree on every legal move and on the winner; a disagreement is an error,
never a silent skip.

The figures are :class:`tutor.bench.arena.ArenaResult`'s: WP and ADP with 95 %
intervals over decks, and WP as the landlord and as the farmers.

``rlcard`` is optional (``pip install 'ddz-tutor[arena]'``: rlcard 1.2.0, which
needs numpy and termcolor, not torch); :func:`available` says whether it is
installed.  The rule agent draws at random when it cannot follow a farmer
partner's play; numpy's global generator is seeded with the deck number
before each game, so a run is reproducible.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from typing import Any

from tutor.bench.arena import ArenaResult, run_swapped
from tutor.bots import make_bot
from tutor.engine.cards import Cards
from tutor.engine.combos import Combo
from tutor.engine.game import AmbiguousPlayError, Game

#: How the report names RLCard's agent.
RULE_AGENT = "rlcard-rule-v1"
#: RLCard's seat of the landlord (its dealer always makes seat 0 the landlord).
RLCARD_LANDLORD = 0


class ProtocolError(RuntimeError):
    """RLCard's game and ours disagreed (a legal move, a reading or the winner)."""


def available() -> bool:
    """Is the optional ``rlcard`` package installed?  Also loads its Dou Di Zhu tables safely (see below)."""
    try:
        import rlcard
    except ImportError:
        return False
    _load_tables(rlcard.__path__[0])
    return True


def _load_tables(root: str) -> None:
    """Import ``rlcard.games.doudizhu.utils`` holding a lock on its package folder.

    Why: rlcard 1.2.0 unzips its card tables into its own package at the first import of that module, and a
    second process importing meanwhile reads a half-written JSON file.  Four arena runs started together on a
    fresh install crashed so (``JSONDecodeError: Unterminated string``, 2026-12-04).  ``flock`` on the folder
    itself writes no file; the lock ends with the descriptor.
    """
    import fcntl

    if "rlcard.games.doudizhu.utils" in sys.modules:
        return
    folder = os.open(os.path.join(root, "games", "doudizhu"), os.O_RDONLY)
    try:
        fcntl.flock(folder, fcntl.LOCK_EX)
        import rlcard.games.doudizhu.utils  # noqa: F401
    finally:
        os.close(folder)


def _ours(text: str) -> Cards:
    """RLCard's card string (``B``/``R`` for the jokers: our parser reads them too) as our cards."""
    return Cards.parse(text)


def _theirs(move: Combo | None, legal: list[str]) -> str:
    """Our move as the RLCard action with the same cards (``pass`` for None)."""
    if move is None:
        if "pass" not in legal:
            raise ProtocolError("our bot passed where RLCard does not allow it")
        return "pass"
    for action in legal:
        if action != "pass" and _ours(action).packed == move.cards:
            return action
    raise ProtocolError(f"our move {move.text} is not among RLCard's legal actions")


def their_move(game: Game, action: str) -> Combo | None:
    """RLCard's action as our combination (following: the reading that beats the table)."""
    if action == "pass":
        return None
    try:
        return game.resolve(_ours(action))
    except AmbiguousPlayError as exc:
        # A lead RLCard does not name the kind of (e.g. 33334444): RLCard reads it by the same
        # card types as ours; take the reading with the highest main, as our notation does.
        return max(exc.readings, key=lambda c: (c.main, c.kind))


def play_game(
    deck: int,
    level: str,
    ours_landlord: bool,
    times: list[float] | None = None,
    games: list[Game] | None = None,
    watch: Callable[[Game], None] | None = None,
) -> tuple[bool, int, tuple[int, ...]]:
    """One game of deck ``deck``: (did our side win, bombs and rockets played, RLCard's payoffs by seat).

    ``games``, when given, receives our finished :class:`Game` (its start position and every turn:
    benchmarks/hard_losses.py replays it with the exact solver).  ``watch``, when given, is shown the game
    before each of our bots' decisions (the full-information diagnostic of tutor/bench/oracle.py: never
    our bots, which get only the view).
    """
    import numpy as np
    import rlcard

    _load_tables(rlcard.__path__[0])
    from rlcard.games.doudizhu.utils import cards2str
    from rlcard.models.doudizhu_rule_models import DouDizhuRuleAgentV1

    env: Any = rlcard.make("doudizhu", config={"seed": deck})
    np.random.seed(deck % 2**32)
    state, seat = env.reset()
    rl_game = env.game
    hands = [_ours(cards2str(p.current_hand)) for p in rl_game.players]
    game = Game.from_hands(hands, RLCARD_LANDLORD, kitty=_ours(rl_game.round.seen_cards))
    ours = [(s == RLCARD_LANDLORD) == ours_landlord for s in range(len(hands))]
    bots = [make_bot(level, deck) if ours[s] else None for s in range(len(hands))]
    agent = DouDizhuRuleAgentV1()
    while not env.is_over():
        if game.to_move != seat:
            raise ProtocolError(f"deck {deck}: RLCard's turn is seat {seat}, ours {game.to_move}")
        bot = bots[seat]
        if bot is not None:
            if watch is not None:
                watch(game)
            view = game.view(seat)
            start = time.process_time()
            move = bot.play(view)
            if times is not None:
                times.append(time.process_time() - start)
            action = _theirs(move, list(state["raw_legal_actions"]))
        else:
            action = agent.step(state)
            move = their_move(game, action)
        game.play(move)
        state, seat = env.step(action, True)
    winner = rl_game.winner_id
    if game.winner is None or (winner == RLCARD_LANDLORD) != (game.winner == RLCARD_LANDLORD):
        raise ProtocolError(f"deck {deck}: RLCard's winner is seat {winner}, ours {game.winner}")
    landlord_won = winner == RLCARD_LANDLORD
    if games is not None:
        games.append(game)
    return landlord_won == ours_landlord, game.bombs_played, tuple(int(p) for p in env.get_payoffs())


def run(level: str, decks: int, seed: int = 0, progress: Callable[[int], None] | None = None) -> ArenaResult:
    """``decks`` decks (``seed`` … ``seed + decks − 1``), each played with the seats swapped.

    Raises:
        ValueError: For an unknown level or fewer than one deck.
        ImportError: When ``rlcard`` is not installed.
        ProtocolError: When RLCard's game and ours disagree.
    """
    def play(deck: int, ours_landlord: bool, times: list[float]) -> tuple[bool, int]:
        return play_game(deck, level, ours_landlord, times)[:2]

    return run_swapped(level, RULE_AGENT, decks, seed, play, None if progress is None else lambda _: progress(1))
