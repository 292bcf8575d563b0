"""The opponent-fit diagnostic (tutor/bench/opponent_fit.py) with stand-ins: no third-party code.

RHCP-v2 is played by a stand-in that speaks its interface (its hand as cards with a ``rank``, ``choose``
answering 15 counts) and plays singles only; the variants' policy is replaced by functions whose agreement
with the stand-in is known, so the rates can be checked exactly.
"""

from __future__ import annotations

from test_rhcp_arena import StandIn
from tutor.bench import opponent_fit
from tutor.bots import make_bot
from tutor.engine.cards import Cards
from tutor.engine.combos import Combo, Kind
from tutor.engine.game import Game
from tutor.engine.view import PlayerView


# RHCP-v2's interface played simply (lead the lowest single, beat a single with the next one, else pass):
# the arena's own stand-in, so the two tests speak the interface the same way.
Singles = StandIn


def singles_policy(view: PlayerView, variant: str) -> Combo | None:
    """What :class:`Singles` plays, from a view (so every variant agrees with it)."""
    table = view.table
    if table is not None and len(Cards(table.cards)) > 1:
        return None
    above = -1 if table is None else table.main
    rank = next((r for r in view.hand.ranks() if r > above), None)
    if rank is None:
        return None
    return Combo(cards=Cards.from_ranks([rank]).packed, kind=Kind.SINGLE, length=1, main=rank)


def always_pass(view: PlayerView, variant: str) -> Combo | None:
    return None


def test_a_policy_that_plays_as_the_opponent_agrees_always_and_forced_passes_are_apart() -> None:
    decisions = opponent_fit.rhcp_decisions(range(2), Singles, level="easy", source="ours")
    assert decisions and {d.view.seat for d in decisions} == {1, 2}
    assert all(d.view.landlord == 0 for d in decisions)
    figures = opponent_fit.tally(decisions, choose=singles_policy)
    assert figures["decks"] == 2
    for variant in opponent_fit.VARIANTS:
        assert figures["rates"][variant]["all"] == [1.0, 1.0, 1.0]
    forced = [d for d in decisions if d.choices <= 1]
    assert forced
    assert all(d.move is None if d.situation == "follow" else len(d.view.hand) == 1 for d in forced)
    assert figures["forced"]["follow"] + figures["forced"]["lead"] == len(forced)
    assert figures["n"]["all"] == len(decisions) - len(forced)
    assert figures["n"]["lead"] + figures["n"]["follow"] == figures["n"]["all"]


def test_a_policy_that_always_passes_agrees_on_the_opponents_free_passes_only() -> None:
    decisions = opponent_fit.rhcp_decisions(range(3), Singles, level="easy", source="ours")
    figures = opponent_fit.tally(decisions, choose=always_pass)
    free = [d for d in decisions if d.choices > 1]
    follows = [d for d in free if d.situation == "follow"]
    rate, low, high = figures["rates"]["quick"]["follow"]
    assert rate == round(sum(d.move is None for d in follows) / len(follows), 4)
    assert low <= rate <= high
    assert figures["rates"]["quick"]["lead"][0] == 0.0  # a lead is never a pass


def test_the_interval_is_over_decks() -> None:
    """Decks that agree all or nothing spread wider than the same share within every deck."""
    split, even = opponent_fit.Tally(), opponent_fit.Tally()
    for deck in range(10):
        for i in range(10):
            split.add(deck, deck < 5)
            even.add(deck, i < 5)
    assert split.rate()[0] == even.rate()[0] == 0.5
    assert even.rate()[1:] == (0.5, 0.5)
    low, high = split.rate()[1:]
    assert 0.0 < low < 0.5 < high < 1.0


def test_a_finished_game_replays_into_the_farmers_decisions() -> None:
    """The rule agent's decisions are read from RLCard's finished game: the replay gives the same views as the
    game itself had (here our levels' game, recorded both ways)."""
    direct = opponent_fit.level_decisions([5], "easy", level="medium")
    game = Game.with_landlord(5, 0)
    bots = [make_bot("medium" if seat == 0 else "easy", 5) for seat in range(3)]
    while not game.is_over:
        game.play(bots[game.to_move].play(game.view(game.to_move)))
    again = opponent_fit.replayed(game, 5)
    assert [(d.view, d.move, d.choices) for d in again] == [(d.view, d.move, d.choices) for d in direct]


def test_the_same_move_is_the_same_cards_or_two_passes() -> None:
    game = Game.from_hands(["3345", "6", "7"], 0)
    three, four, pair = (game.resolve(Cards.parse(text)) for text in ("3", "4", "33"))
    assert opponent_fit.same(None, None) and opponent_fit.same(three, game.resolve(Cards.parse("3")))
    for a, b in ((three, four), (four, three), (three, pair), (pair, three), (three, None), (None, three)):
        assert not opponent_fit.same(a, b)


def test_the_opponent_as_the_landlord_decides_from_the_landlords_seat_only() -> None:
    decisions = opponent_fit.rhcp_decisions(range(2), Singles, level="easy", source="ours", farmers=False)
    assert decisions and {d.view.seat for d in decisions} == {0}
    figures = opponent_fit.tally(decisions, choose=singles_policy)
    assert figures["rates"]["agent"]["all"] == [1.0, 1.0, 1.0]
    direct = opponent_fit.level_decisions([4], "easy", level="medium", farmers=False)
    assert direct and {d.view.seat for d in direct} == {0}
