"""The hard bot with the fitted play-out model as its play-outs' opponents (round 13: ``*_playout_opponents="fit"``).

The setting is off by default (docs/bots.md, round 13); with it the play-outs' opponents play ``_fit.c``'s
model, and the bot's move must still be legal and a function of the view (budgets, never clocks).
"""

from __future__ import annotations

import pytest

from tests.bots.bot_views import playout_calls, turns, view
from tutor.bots.hard import HardBot
from tutor.engine.moves import legal_moves
from tutor.engine.rules import STANDARD
from tutor.solver.playout import available

pytestmark = pytest.mark.skipif(not available(STANDARD), reason="the compiled core is not built")

LANDLORD = 0


def test_fit_is_off_by_default() -> None:
    assert HardBot.landlord_playout_opponents != "fit" and HardBot.farmer_playout_opponents != "fit"


@pytest.mark.parametrize("side", ["landlord", "farmer"])
def test_a_fit_play_out_bot_plays_a_legal_move_and_the_same_one_twice(monkeypatch: pytest.MonkeyPatch,
                                                                      side: str) -> None:
    calls = playout_calls(monkeypatch)
    monkeypatch.setattr(HardBot, f"{side}_playout_opponents", "fit")
    monkeypatch.setattr(HardBot, "playout_samples", 16)
    monkeypatch.setattr(HardBot, "farmer_playout_samples", 16)
    if side == "landlord":
        position = view(LANDLORD, "3456789TJQKA2", LANDLORD, (13, 16, 17), turns((LANDLORD, "4"), (1, "5"), (2, None)))
    else:
        position = view(1, "3456789TJQKA2", LANDLORD, (14, 13, 13), turns((LANDLORD, "3")))
    first = HardBot(0).play(position)
    assert first is None or first in legal_moves(position.hand, position.table)
    assert HardBot(0).play(position) == first
    assert calls and all(kwargs["opponents"] == "fit" for _, kwargs in calls)
