"""The robust rule (tutor/bots/robust.py, round 11): a played-out change must hold under every model family."""

from __future__ import annotations

import pytest

from tests.bots.bot_views import combo, view
from tutor.bots import rollout
from tutor.bots.robust import deal_families, family_statistics, holds_under_every_family, paired_statistic, robust_choice
from tutor.engine.combos import Combo
from tutor.engine.view import PlayerView


def test_deal_families_take_turns_as_the_play_outs_do() -> None:
    assert deal_families("quick", 3) == ["quick"] * 3
    assert deal_families("quick+agent+quick", 7) == ["quick", "agent", "quick", "quick", "agent", "quick", "quick"]


def test_each_family_has_its_own_paired_statistic() -> None:
    # Four deals a family: under "agent" the change wins 4 where the choice loses (+2.0); under "quick" it loses 3
    # where the choice wins and wins 1 where it loses (−1.0); the pooled statistic (5 − 3)/√8 is only +0.71.
    base = [False] * 4 + [True, True, True, False]
    other = [True] * 4 + [False, False, False, True]
    families = ["agent"] * 4 + ["quick"] * 4
    assert family_statistics(base, other, families) == {"agent": 2.0, "quick": -1.0}
    assert paired_statistic(base, other) == pytest.approx(2 / 8 ** 0.5)
    assert paired_statistic(base, base) == 0.0  # never differing is no evidence either way
    assert holds_under_every_family(base, other, families, 1.0)  # quick's −1.0 is not below −1
    assert not holds_under_every_family(base, other, families, 0.5)
    with pytest.raises(ValueError):
        family_statistics(base, other, families[:-1])


def crafted(monkeypatch: pytest.MonkeyPatch, verdicts: list[list[bool]]) -> tuple[PlayerView, list[Combo | None]]:
    """A decision whose play-outs are ``verdicts`` (candidate by candidate, deal by deal) instead of played: the
    tests check which candidate the rule picks from given verdicts, whatever the cards would say."""

    def play_deals(_view: PlayerView, _candidates: list[Combo | None], deals: list[dict[int, int]],
                   results: list[list[bool]], *_: object, **__: object) -> None:
        for i, row in enumerate(verdicts):
            results[i] += row[: len(deals)]

    monkeypatch.setattr(rollout, "play_deals", play_deals)
    return view(0, "345", 0, (3, 5, 5)), [combo("3"), combo("4"), combo("5")]


def test_best_by_playouts_vetoes_a_change_one_familys_deals_contradict(monkeypatch: pytest.MonkeyPatch) -> None:
    # Deals alternate quick, agent (opponents "quick+agent").  Candidate 1 wins every agent deal the choice loses
    # and loses 4 quick deals the choice wins: the pooled test passes (8 − 4 > √12), quick's deals say −2.0.
    base = [True, False] * 8
    one = [False, True] * 4 + [True, True] * 4
    position, candidates = crafted(monkeypatch, [base, one, base])
    kwargs = {"samples": 16, "seed": 1, "opponents": "quick+agent"}
    assert rollout.best_by_playouts(position, candidates, **kwargs) == candidates[1]  # type: ignore[arg-type]
    assert rollout.best_by_playouts(position, candidates, robust=1.0, **kwargs) == candidates[0]  # type: ignore[arg-type]
    assert rollout.best_by_playouts(position, candidates, robust=2.0, **kwargs) == candidates[1]  # type: ignore[arg-type]
    # With one family the rule changes nothing: the same verdicts all played by "quick".
    assert rollout.best_by_playouts(position, candidates, samples=16, seed=1, robust=0.0) == candidates[1]


def test_the_vetoed_change_leaves_the_best_change_that_holds(monkeypatch: pytest.MonkeyPatch) -> None:
    # Candidate 2 wins fewer deals than candidate 1 (11 against 12) but holds on both families' deals (agent +1.7,
    # quick even): it is played when 1 is vetoed.
    base = [True, False] * 8
    one = [False, True] * 4 + [True, True] * 4
    two = [True, True] * 3 + [True, False] * 5
    position, candidates = crafted(monkeypatch, [base, one, two])
    kwargs = {"samples": 16, "seed": 1, "opponents": "quick+agent"}
    assert rollout.best_by_playouts(position, candidates, **kwargs) == candidates[1]  # type: ignore[arg-type]
    assert rollout.best_by_playouts(position, candidates, robust=0.0, **kwargs) == candidates[2]  # type: ignore[arg-type]


def test_robust_choice_needs_one_family_for_the_change_and_none_against_it() -> None:
    base = [True, False] * 4
    good = [True] * 8  # +2.0 against the choice: 4 deals won that it loses
    worse = [False] * 4 + [True, False] * 2  # −1.41: 2 deals lost that it wins
    even = list(base)
    per = {"quick": [base, good, even], "agent": [base, even, good]}
    assert robust_choice(per, 1.0, 0.0) == 1  # better under quick, even under agent; the earlier of equal wins
    assert robust_choice({"quick": [base, good], "agent": [base, worse]}, 1.0, 1.0) == 0  # agent clearly against
    assert robust_choice({"quick": [base, good], "agent": [base, worse]}, 1.0, 2.0) == 1  # within the veto
    assert robust_choice({"quick": [base, even], "agent": [base, even]}, 0.0, 0.0) == 0  # no family for it
    with pytest.raises(ValueError):
        robust_choice({}, 1.0, 0.0)


def test_best_by_playouts_plays_every_deal_under_each_family(monkeypatch: pytest.MonkeyPatch) -> None:
    # families=("quick", "agent"): each family's opponents play the same deals; a change quick finds clearly
    # better (+2.0) is vetoed when agent finds it worse (−1.41) and played when agent finds it even.
    base = [True, False] * 4
    tables = {"quick": [base, [True] * 8], "agent": [base, [False] * 4 + [True, False] * 2], "lowest": [base, list(base)]}
    seen: list[tuple[str, int]] = []

    def play_deals(_view: PlayerView, _candidates: list[Combo | None], deals: list[dict[int, int]],
                   results: list[list[bool]], opponents: str = "quick", *_: object, **__: object) -> None:
        seen.append((opponents, len(deals)))
        for i, row in enumerate(tables[opponents]):
            results[i] += row[: len(deals)]

    monkeypatch.setattr(rollout, "play_deals", play_deals)
    position = view(0, "34", 0, (2, 5, 5))
    candidates: list[Combo | None] = [combo("3"), combo("4")]
    assert rollout.best_by_playouts(position, candidates, 8, 1, families=("quick", "agent")) == candidates[0]
    assert seen == [("quick", 8), ("agent", 8)]
    assert rollout.best_by_playouts(position, candidates, 8, 1, families=("quick", "lowest")) == candidates[1]
    assert rollout.best_by_playouts(position, candidates, 8, 1, families=("quick", "agent"), robust=2.0) == candidates[1]
    assert rollout.best_by_playouts(position, candidates, 8, 1, opponents="agent", families=("agent",)) == candidates[0]
