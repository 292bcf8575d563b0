"""The RHCP-v2 adapter (tutor/bench/rhcp_arena.py) with a stand-in that speaks RHCP-v2's interface.

No third-party code and no network: the stand-in is a tiny player with the methods RHCP-v2's ``Agent``
has (``set_hand_card`` of cards with a ``rank``, ``get_hand_card``, ``choose(state)`` answering 15 counts)
that plays singles only, and notes what it was given so the test can check it against the full game.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from tutor.bench import rhcp_arena
from tutor.bots import make_bot
from tutor.engine.cards import Cards
from tutor.engine.combos import Kind
from tutor.engine.game import Game

ROOT = Path(__file__).resolve().parents[2]


class StandIn:
    """RHCP-v2's interface, played simply: lead the lowest single, beat a single with the next one, else pass."""

    def __init__(self, player_id: int) -> None:
        self.player_id = player_id
        self.game: Any = None
        self._hand = [0] * 15
        self.seen: list[dict[str, Any]] = []

    def set_hand_card(self, cards: Sequence[Any]) -> None:
        self._hand = [0] * 15
        for card in cards:
            self._hand[card.rank - 1] += 1

    def get_hand_card(self) -> list[int]:
        return self._hand

    def choose(self, state: Any) -> tuple[list[int], None]:
        hand = self.get_hand_card()
        self.seen.append({"id": self.player_id, "hand": list(hand), "other_hand": list(state.other_hand),
                          "counts": [sum(p.get_hand_card()) for p in self.game.players],
                          "last_move": list(state.last_move), "last_pid": state.last_pid})
        print("the real RHCP-v2 prints every move")  # swallowed by the adapter
        move = [0] * 15
        above = -1 if sum(state.last_move) == 0 else (
            next(i for i, n in enumerate(state.last_move) if n) if sum(state.last_move) == 1 else 99)
        for rank in range(above + 1, 15):
            if hand[rank]:
                move[rank] = 1
                break
        return move, None


def test_cards_translate_both_ways_in_rhcp_order() -> None:
    """RHCP-v2 counts 3 4 5 6 7 8 9 10 J Q K A 2 * $ — our rank order, jokers last; all zeros is its pass."""
    cards = Cards.parse("3TTA2XD")
    counts = rhcp_arena.to_rhcp(cards)
    assert counts == [1, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 1, 1, 1, 1]
    assert rhcp_arena.from_rhcp(counts) == cards
    assert rhcp_arena.from_rhcp([0] * 15) is None
    for bad in ([1] * 14, [5] + [0] * 14, [0] * 13 + [2, 0]):
        with pytest.raises(rhcp_arena.ProtocolError):
            rhcp_arena.from_rhcp(bad)
    assert [rhcp_arena.rhcp_id(seat, 2) for seat in range(3)] == [1, 2, 0]  # the seat after the landlord is 1


def test_single_wings_of_one_rank_are_shown_with_distinct_ranks_and_rhcp_leads_read_its_way() -> None:
    """RULES §5 lets single wings share a rank; RHCP-v2 cannot read that, so it sees the same kind, length and
    main with the lowest other ranks as wings.  An ambiguous lead of its own is read as its rules mean it."""
    game = Game.from_hands(["JJAAAA33344455", "5", "6"], 0)
    for text, shown in (("JJAAAA", "34AAAA"), ("33344455", "33344456"), ("AAAA35", "AAAA35"), ("3334", "3334")):
        combo = game.resolve(Cards.parse(text))
        assert rhcp_arena.rhcp_readable(combo) == Cards.parse(shown)
    lead = Game.from_hands(["3334445556667", "5", "6"], 0)
    read = rhcp_arena.as_combo(lead, Cards.parse("333444555666"))
    assert read is not None and read.kind == Kind.AIRPLANE


def test_a_stand_in_sees_only_its_seat_and_plays_a_game_to_the_end() -> None:
    """Every RHCP-v2 decision gets the hand of its seat, the others' counts by its ids, the unseen cards and
    the play that stands with who made it; its answers are played as our combinations, to the end."""
    game = rhcp_arena.deal(3, "ours")
    agents = {seat: StandIn(rhcp_arena.rhcp_id(seat, 0)) for seat in (1, 2)}
    landlord = make_bot("easy", 3)
    while not game.is_over:
        seat = game.to_move
        view = game.view(seat)
        if seat == 0:
            game.play(landlord.play(view))
            continue
        agent = agents[seat]
        cards = rhcp_arena.rhcp_decide(agent, view)
        seen = agent.seen[-1]
        assert seen["hand"] == list(game.hand(seat).counts) and seen["id"] == seat
        others = [game.hand(s) for s in range(3) if s != seat]
        assert seen["other_hand"] == list((others[0] + others[1]).counts)
        assert seen["counts"] == [game.card_counts[s] for s in range(3)]  # landlord 0: ids are seats
        if game.table is None:
            assert seen["last_move"] == [0] * 15 and seen["last_pid"] == -1
        else:
            assert Cards.from_counts(seen["last_move"]).packed == game.table.cards
            assert seen["last_pid"] == game.table_seat
        game.play(rhcp_arena.as_combo(game, cards))
    assert game.winner is not None
    for ours_landlord in (True, False):
        won, bombs = rhcp_arena.play_game(3, "easy", ours_landlord, StandIn, source="ours")
        assert bombs >= 0 and won == rhcp_arena.play_game(3, "easy", ours_landlord, StandIn, source="ours")[0]


def test_a_disagreement_raises() -> None:
    """Passing when leading, cards it does not hold, a play our rules refuse, or failing to read ours."""
    game = Game.from_hands(["345", "67", "89"], 0)
    game.play(game.resolve(Cards.parse("3")))
    with pytest.raises(rhcp_arena.ProtocolError):
        rhcp_arena.as_combo(Game.from_hands(["345", "67", "89"], 0), None)
    with pytest.raises(rhcp_arena.ProtocolError):  # 67 is no combination
        rhcp_arena.as_combo(game, Cards.parse("67"))

    class Cheat(StandIn):
        def choose(self, state: Any) -> tuple[list[int], None]:
            return [0] * 12 + [1, 0, 0], None  # a 2 it does not hold

    class Confused(StandIn):
        def choose(self, state: Any) -> tuple[list[int], None]:
            raise Exception("Invalid Cards!")  # noqa: TRY002 - what RHCP-v2's card reader raises

    for agent in (Cheat(1), Confused(1)):
        with pytest.raises(rhcp_arena.ProtocolError):
            rhcp_arena.rhcp_decide(agent, game.view(1))


def test_a_missing_or_broken_directory_is_one_line_and_exit_2(tmp_path: Path) -> None:
    broken = tmp_path / "rhcp"
    (broken / "rule_utils").mkdir(parents=True)
    (broken / "rule_utils" / "rule_based_model.py").write_text("import not_a_module_anywhere\n")
    with pytest.raises(rhcp_arena.RhcpDirError):
        rhcp_arena.load(str(tmp_path / "nowhere"))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for args in ([], ["--rhcp-dir", str(broken)]):
        done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "rhcp_arena.py"), *args],
                              capture_output=True, text=True, env=env, check=False)
        assert done.returncode == 2 and done.stdout == "" and len(done.stderr.strip().splitlines()) == 1
