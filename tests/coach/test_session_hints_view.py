"""Hints depend on the learner's view only — checked through the real game session (issue 20, item 8).

A :class:`~tutor.sessions.game.GameSession` at the learner's turn is built
twice: once on the real deal, once with the hidden cards permuted between the
two other seats (the view is the same).  Every hint the session shows must be
the same, word for word.  A session whose hint peeked at a hidden hand would
differ — the last test builds exactly such a session and watches the check
catch it.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from tutor.bots.counting import landlord_known
from tutor.bots.medium import MediumBot
from tutor.coach import Coach
from tutor.coach.evaluation import Budget
from tutor.engine.cards import Cards
from tutor.engine.game import Game
from tutor.sessions.game import GameSession, HintShown

SMALL = Budget(samples=8, width=3, policy="quick")


def _twins(deal: int, plays: int) -> tuple[Game, Game]:
    """The same learner's view on two deals: the real one, and the hidden cards permuted."""
    game = Game.with_landlord(deal, 1)
    bots = [MediumBot(s) for s in range(3)]
    while len(game.history) < plays or game.to_move != 0:
        game.play(bots[game.to_move].play(game.view(game.to_move)))
    view = game.view(0)
    known = Cards(landlord_known(view)).ranks()  # kitty cards the landlord must still hold
    pool = game.hand(1).ranks() + game.hand(2).ranks()
    for r in known:
        pool.remove(r)
    random.Random(deal).shuffle(pool)
    n1 = len(game.hand(1)) - len(known)
    hands = [game.hand(0), Cards.from_ranks(known + pool[:n1]), Cards.from_ranks(pool[n1:])]
    assert hands[1] != game.hand(1)
    original = Game.from_hands(game.hands, 1, game.bid or 1, game.kitty, history=game.history)
    other = Game.from_hands(hands, 1, game.bid or 1, game.kitty, history=game.history)
    assert original.view(0) == other.view(0)
    return original, other


def _hint_lines(game: Game, patch: Callable[[GameSession], None] | None = None) -> list[str]:
    session = GameSession(game, "medium", Coach(True, budget=SMALL, rules=game.rules))
    session.start()
    if patch is not None:
        patch(session)
    lines: list[str] = []
    while True:
        shown = [e for e in session.hint() if isinstance(e, HintShown)]
        if shown and shown[-1].wrapped:
            return lines
        lines += [e.phrase.render() for e in shown]


@pytest.mark.parametrize("deal", [6, 11])
def test_a_sessions_hints_are_the_same_when_the_hidden_cards_are_permuted(deal: int) -> None:
    original, other = _twins(deal, 8)
    first = _hint_lines(original)
    assert len(first) >= 2
    assert first == _hint_lines(other)


def test_the_check_catches_a_session_whose_hint_peeks_at_a_hidden_hand() -> None:
    """Make the hint wrong on purpose (it reads the next seat's hand): the comparison must differ."""
    original, other = _twins(6, 8)
    real = original.hand(1).packed

    def peek(session: GameSession) -> None:
        honest = session.coach.hints

        def peeking(view: object) -> list[object]:
            found = honest(view)  # type: ignore[arg-type]
            hidden = session._game.hand(1).packed  # what no learner sees
            return found if hidden == real else found[::-1]  # the hint order now depends on it

        session.coach.hints = peeking  # type: ignore[method-assign,assignment]

    honest_a, honest_b = _hint_lines(original), _hint_lines(other)
    assert honest_a == honest_b
    assert _hint_lines(original, peek) != _hint_lines(other, peek)
