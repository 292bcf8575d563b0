"""The variants at the web table (RULES §12): settings, the Call/Rob/Pass and Open hand actions, the live value."""

from __future__ import annotations

from typing import Any

import pytest

DEAL = 42


@pytest.fixture(autouse=True)
def _small_coach(small_coach: None) -> None:
    """The API around the coach is tested here, not its judgement."""


def test_rule_12_1_a_rob_game_at_the_web_table(client: Any) -> None:
    saved = client.post("/api/settings", json={"auction": "rob"})
    assert saved.status_code == 200 and saved.json()["settings"]["auction"] == "rob"
    assert client.post("/api/settings", json={"auction": "auction!"}).status_code == 400
    words = client.get("/api/strings").json()["strings"]
    assert (words["call"], words["rob"], words["open_hand"]) == ("Call", "Rob", "Open hand")
    data = client.post("/api/game/new", json={"deal": DEAL, "level": "easy"}).json()
    game = data["game"]
    # Deal 42: Right calls, Left passes; our turn to rob or pass.
    assert game["waiting"] == "bid" and game["bids"]["auction"] == "rob"
    assert game["bids"]["legal"] == [0, 2] and game["bids"]["labels"] == {"0": "Pass", "2": "Rob"}
    refused = client.post("/api/game/bid", json={"rev": data["rev"], "bid": 1})
    assert refused.status_code == 422 and "Rob" in refused.json()["error"]
    data = client.post("/api/game/bid", json={"rev": data["rev"], "bid": 2}).json()
    assert any(e.get("text") == "You: rob" for e in data["events"])
    assert "robs: 1, ×2" in data["game"]["game_cell"] or "robs: 2, ×4" in data["game"]["game_cell"]
    assert data["game"]["rules"]["auction"] == "rob"


def test_rule_12_2_the_open_hand_at_the_web_table(client: Any) -> None:
    client.post("/api/settings", json={"open_hand": True})
    data = client.post("/api/game/new", json={"deal": DEAL, "level": "easy"}).json()
    data = client.post("/api/game/bid", json={"rev": data["rev"], "bid": 3}).json()
    assert data["game"]["can_open"] is True
    data = client.post("/api/game/open", json={"rev": data["rev"]}).json()
    assert any(e["type"] == "shown" for e in data["events"])
    assert data["game"]["can_open"] is False and data["game"]["shown"]["seat"] == 0
    assert "open hand ×2" in data["game"]["game_cell"]
    again = client.post("/api/game/open", json={"rev": data["rev"]})
    assert again.status_code == 409 and "before the first play" in again.json()["error"]


def test_rule_12_2_a_shown_hand_is_drawn_face_up_in_the_landlords_seat(client: Any) -> None:
    client.post("/api/settings", json={"open_hand": True})
    data = client.post("/api/game/new", json={"deal": 0, "level": "easy"}).json()
    while data["game"]["waiting"] == "bid":  # we pass; Right becomes the landlord and shows the hand
        data = client.post("/api/game/bid", json={"rev": data["rev"], "bid": 0}).json()
    game = data["game"]
    landlord = next(s for s in game["seats"] if s["role"] == "landlord")
    assert landlord["seat"] == 1 and len(landlord["cards"]) == landlord["count"]
    assert game["shown"]["cards"] == landlord["cards"] and all(s["cards"] is None for s in game["seats"] if s["seat"] != 1)


def test_rule_12_3_the_wildcard_game_at_the_web_table(client: Any) -> None:
    from tutor.engine.deal import deal
    from tutor.engine.rules import WILD

    saved = client.post("/api/settings", json={"wildcard": True})
    assert saved.status_code == 200 and saved.json()["settings"]["wildcard"] is True
    words = client.get("/api/strings").json()["strings"]
    assert words["wild_setting"].startswith("Wildcard game") and "{rank}" in words["wild_rank"]
    game = client.post("/api/game/new", json={"deal": DEAL, "level": "easy"}).json()["game"]
    rank = "3456789TJQKA2"[deal(DEAL, WILD).wild_rank]
    assert game["wild_rank"] == rank  # shown on the table from the start (RULES §12.3)
    assert game["rules"]["wild"] == "random_rank" and game["rules"]["wild_rank"] == deal(DEAL, WILD).wild_rank
    assert client.post("/api/settings", json={"wildcard": False}).json()["settings"]["wildcard"] is False


def test_rules_12_4_four_players_at_the_web_table(client: Any) -> None:
    saved = client.post("/api/settings", json={"players": 4})
    assert saved.status_code == 200 and saved.json()["settings"]["players"] == 4
    for bad in (5, "4", True):
        refused = client.post("/api/settings", json={"players": bad})
        assert refused.status_code == 400 and "players must be one of 3, 4" in refused.json()["error"]
    words = client.get("/api/strings").json()["strings"]
    assert words["players"] == "Players" and words["players_4"].startswith("4")
    game = client.post("/api/game/new", json={"deal": 7, "level": "easy"}).json()["game"]
    assert game["players"] == 4 and game["kitty_size"] == 8 and game["rules"]["players"] == 4
    assert [s["name"] for s in game["seats"]] == ["You", "Right", "Across", "Left"]
    assert all(s["count"] == 25 for s in game["seats"]) and len(game["hand"]) == 25
    client.post("/api/settings", json={"players": 3})
