"""Games saved before the sessions stepped ``Game.apply`` (issue 31) still load, and play on.

``data/saved_before_apply.json`` holds the autosaves of one game under each named
rule set, written by the build before the change (the learner bid the highest,
then led its first legal move; easy bots, no coach).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tutor.engine.moves import legal_moves
from tutor.engine.rules import NAMED
from tutor.sessions.game import GameSession, Waiting

SAVED = json.loads((Path(__file__).parent / "data" / "saved_before_apply.json").read_text(encoding="utf-8"))


#: The rule sets that existed when the autosaves were written (the wildcard and four-player games came later).
BEFORE = sorted(name for name in SAVED if not name.endswith("_actions"))


def test_the_saves_cover_every_rule_set_of_their_time() -> None:
    assert set(BEFORE) == {name for name, rules in NAMED.items() if rules.players == 3 and rules.wild == "off"}


@pytest.mark.parametrize("name", BEFORE)
def test_an_old_autosave_loads_and_plays_to_the_end(name: str) -> None:
    state = SAVED[name]
    session = GameSession.restore(state)
    assert len(session.game_record().actions) == SAVED[f"{name}_actions"]
    assert session.state() == state  # nothing changed in what a save holds
    events = session.start()
    for _ in range(60):
        if session.waiting_for is Waiting.OVER:
            break
        if session.waiting_for is Waiting.BID:
            events = session.bid(session.legal_bids[-1])
        else:
            view = session.view()  # pass when following, else lead the first legal move
            events = session.play(None if view.table is not None else legal_moves(view.hand, None, view.rules)[0])
        assert events
    assert session.waiting_for is Waiting.OVER
    assert session.game_record().actions[: SAVED[f"{name}_actions"]] == GameSession.restore(state).game_record().actions
