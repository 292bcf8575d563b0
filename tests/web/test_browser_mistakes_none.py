"""Learn from your mistakes on a game without one: the page says so once (it said it twice, status and log)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.coach.positions import puzzle_game
from tests.web.browser import needs_browser, open_mistakes
from tutor.store import Store
from tutor.store.games import FinishedGame, GameStore

pytestmark = needs_browser


def store_clean_game(home: Path) -> int:
    """A stored game: we (a farmer) lead the A, then the 55, and go out: no move lowered our chances."""
    game = puzzle_game("F:55A L:9 F:3")
    for text in ("A", None, None, "55"):  # None: a pass
        game.play(next(m for m in game.legal_moves() if (None if m is None else m.text) == text))
    score = game.score()
    with Store.open(home / "ddz.sqlite3") as store:
        return GameStore(store).finish(FinishedGame(
            deal=4, level="hard", role="farmer", won=True, bid=1, multiplier=score.multiplier, cost=score.cost,
            delta=score.deltas[0], scored=False, hints=0, undos=0, record=game.record().to_dict()))  # fmt: skip


def test_nothing_to_replay_is_said_once(page: Any, server: str, context: Any) -> None:
    from playwright.sync_api import expect

    board = open_mistakes(page, server, store_clean_game(context.store_path.parent))
    expect(board.get_by_role("status")).to_contain_text("nothing to replay")
    assert board.inner_text().count("nothing to replay") == 1, board.inner_text()
