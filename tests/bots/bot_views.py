"""Hand-made positions for the bot tests: a view from text, as a player would describe it."""

from __future__ import annotations

from typing import Any

import pytest

from tutor.engine.cards import Cards
from tutor.engine.combos import Combo
from tutor.engine.view import PlayerView, Turn, view_from_public
from tutor.solver import table_reading


def combo(text: str) -> Combo:
    """The plainest reading of some cards (what a player leading them would announce)."""
    return table_reading(text)


def turns(*plays: tuple[int, str | None]) -> list[Turn]:
    """``(seat, "cards")`` / ``(seat, None)`` pairs → the history of turns."""
    return [Turn(seat, None if cards is None else combo(cards)) for seat, cards in plays]


def view(
    seat: int,
    hand: str,
    landlord: int,
    counts: tuple[int, int, int],
    history: list[Turn] | None = None,
    kitty: str | None = None,
) -> PlayerView:
    """The view of ``seat`` holding ``hand``; counts are the card counts now (own count checked)."""
    return view_from_public(
        seat,
        Cards.parse(hand),
        landlord,
        history or [],
        counts,
        kitty=kitty,
        bid=1,
    )


def dump_history(discards: dict[int, str], then: int, players: int = 3) -> list[Turn]:
    """A history in which each seat has played ``discards[seat]`` as singles, ending with ``then`` to lead.

    Hand-made endgames need the cards that left the game to be *in the history*:
    a card-counting bot knows exactly which cards are still out.  ``then``
    plays first (all but its last card), the other seats follow one card at a
    time (the seats in between pass), and ``then`` takes the last trick with
    its last card; the others pass, so ``then`` leads next.
    """
    own = Cards.parse(discards.get(then, "")).ranks()
    if not own:
        raise ValueError(f"seat {then} must play at least one card to end up with the lead")
    plays = [(then, r) for r in own[:-1]]
    for seat in range(players):
        if seat != then:
            plays += [(seat, r) for r in Cards.parse(discards.get(seat, "")).ranks()]
    plays.append((then, own[-1]))
    history: list[Turn] = []
    current: int | None = None
    for seat, rank in plays:
        if current is not None:
            if current == seat:
                history.extend(Turn((seat + k) % players, None) for k in range(1, players))
            else:
                s = (current + 1) % players
                while s != seat:
                    history.append(Turn(s, None))
                    s = (s + 1) % players
        history.append(Turn(seat, combo("3456789TJQKA2XD"[rank])))
        current = seat
    history.extend(Turn((then + k) % players, None) for k in range(1, players))
    return history


#: One played-out decision seen by :func:`playout_calls`: the positional and the keyword arguments.
Call = tuple[tuple[Any, ...], dict[str, Any]]


def playout_calls(monkeypatch: pytest.MonkeyPatch) -> list[Call]:
    """Every call of :func:`tutor.bots.rollout.best_by_playouts` from now on (args, kwargs), still made: what a
    test asks of the hard bot's played-out decisions (how many, which candidates, which settings)."""
    from tutor.bots import rollout

    calls: list[Call] = []
    real = rollout.best_by_playouts

    def spy(*args: Any, **kwargs: Any) -> Any:
        calls.append((args, kwargs))
        return real(*args, **kwargs)

    monkeypatch.setattr(rollout, "best_by_playouts", spy)
    return calls
