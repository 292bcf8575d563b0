"""The hard level (RULES §10): medium plus card counting, endgame technique and search."""

from __future__ import annotations

import pytest

from tests.bots.bot_views import Call, combo, dump_history, playout_calls, turns, view
from tutor.bots import HardBot, MediumBot, make_bot
from tutor.bots.base import turn_rng
from tutor.bots.counting import PassLimit, pass_limits
from tutor.engine.combos import Kind
from tutor.bots.search import determinized_choice
from tutor.engine.cards import FULL_DECK, Cards
from tutor.engine.rules import STANDARD
from tutor.engine.view import PlayerView
from tutor.engine.view import PlayerView
from tutor.solver import Position, Role, Solver

LANDLORD = 0


def heuristic(seed: int = 0) -> HardBot:
    """The hard level's judgement alone (no search, no rollouts), to pin each rule down."""
    return HardBot(seed, search=False, rollouts=False)


def test_hard_plays_boss_moves_first() -> None:
    # Landlord holds 4 and D; the small joker is gone and the farmers hold three cards each
    # (no bomb possible): D cannot be beaten, so play it first and go out with the 4.
    history = dump_history({1: "X", 2: "3", 0: "5"}, then=LANDLORD)
    endgame = view(LANDLORD, "4D", LANDLORD, (2, 3, 3), history)
    assert MediumBot(0).play(endgame) == combo("4")
    assert heuristic().play(endgame) == combo("D")
    assert make_bot("hard", 0).play(endgame) == combo("D")


def test_hard_counts_played_cards() -> None:
    # A and 4: the A is a boss only once every 2 and both jokers have been played.
    counted = dump_history({1: "22X", 2: "22D", 0: "5"}, then=LANDLORD)
    not_yet = dump_history({1: "99X", 2: "TTD", 0: "5"}, then=LANDLORD)
    assert heuristic().play(view(LANDLORD, "4A", LANDLORD, (2, 3, 3), counted)) == combo("A")
    assert heuristic().play(view(LANDLORD, "4A", LANDLORD, (2, 3, 3), not_yet)) == combo("4")
    # Medium does not count: it leads the 4 either way.
    assert MediumBot(0).play(view(LANDLORD, "4A", LANDLORD, (2, 3, 3), counted)) == combo("4")


def test_hard_bombs_to_finish_in_two() -> None:
    # The landlord's 2 is on the table and it still has ten cards: medium keeps its bomb,
    # hard bombs because the 9 then goes out (bomb + one play).
    position = view(1, "55559", LANDLORD, (10, 5, 9), turns((0, "2")))
    assert MediumBot(0).play(position) is None
    assert heuristic().play(position) == combo("5555")
    assert make_bot("hard", 0).play(position) == combo("5555")


def test_hard_bombs_when_the_rest_is_bosses_and_one_play() -> None:
    # The landlord (three cards: no bomb possible) leads K.  After the rocket come the
    # counted boss A (every 2 is gone) and the 3: bombing now wins the game.
    history = dump_history({1: "2222", 2: "9", 0: "6"}, then=LANDLORD)
    history += turns((0, "K"), (1, None))
    position = view(2, "XD3A", LANDLORD, (3, 3, 4), history)
    assert heuristic().play(position) is not None
    assert heuristic().play(position).kind == Kind.ROCKET


def test_hard_reads_what_passes_reveal() -> None:
    # The landlord led a 9 with two cards left and both farmers passed; the second farmer
    # was the last one who could stop it — it most likely holds no single above 9.
    history = turns((0, "9"), (1, None), (2, None))
    limits = pass_limits(view(1, "345", LANDLORD, (2, 3, 8), history))
    assert PassLimit(2, Kind.SINGLE, combo("9").main) in limits


def test_hard_feeds_partner_with_one_card_left() -> None:
    # RULES §11: feed a partner on one card with the lowest single.
    history = turns((0, "8"), (1, "T"), (2, None), (0, None))
    position = view(1, "99JQKA2", LANDLORD, (12, 7, 1), history)
    assert heuristic().play(position) == combo("9")


def test_hard_goes_out_at_once() -> None:
    assert make_bot("hard", 0).play(view(1, "QQ", LANDLORD, (9, 2, 8), turns((0, "99")))) == combo("QQ")


def test_hard_search_plays_a_winning_endgame_move() -> None:
    # Benchmark three-03 (shared/bench/endgames.yaml): L:333449 F:7QQK2 F:66KK2, the landlord
    # to move wins only with 33344 or 3339.  Every other card has been played, so the hard
    # bot knows the farmers' ten cards (not how they are split): the determinized search
    # solves sampled splits and must find a winning move.
    hands = {0: "333449", 1: "7QQK2", 2: "66KK2"}
    rest = FULL_DECK - Cards.parse("".join(hands.values()))
    text = "".join(str(Cards.from_ranks([r])) for r in rest.ranks())
    history = dump_history({0: text[:14], 1: text[14:26], 2: text[26:]}, then=LANDLORD)
    position = view(LANDLORD, hands[0], LANDLORD, (6, 5, 5), history)
    truth = Position.parse("L:333449 F:7QQK2 F:66KK2")
    winning = Solver(max_nodes=500_000, rules=STANDARD).solve(truth).winning_moves
    assert sorted(m.text for m in winning if m is not None) == ["33344", "3339"]
    bot = HardBot(0)
    choice = determinized_choice(position, bot.solver(position.rules), bot.samples, turn_rng(0, position), bot.heuristic_play)
    assert choice is not None and choice.decided > 0
    assert choice.move in winning
    assert make_bot("hard", 0).play(position) in winning


def test_the_landlord_rolls_out_from_its_own_card_count(monkeypatch: pytest.MonkeyPatch) -> None:
    # 40 cards in play: past rollout_cards; the landlord's own threshold (an experiment knob, docs/bots.md) decides.
    landlord = view(LANDLORD, "3456789TJQKA2", LANDLORD, (13, 14, 13))
    farmer = view(1, "33445566778899TT", LANDLORD, (8, 16, 16))
    bot = HardBot(0)
    assert not bot.should_roll_out(landlord) and not bot.should_roll_out(farmer)
    monkeypatch.setattr(HardBot, "landlord_rollout_cards", 54)
    assert bot.should_roll_out(landlord) and not bot.should_roll_out(farmer)


def test_the_landlord_plays_out_its_early_decisions_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    # landlord_playout_cards (the compiled play-outs, docs/bots.md) covers the landlord's decisions down to
    # the search's horizon; farmers only by their own knob.
    landlord = view(LANDLORD, "3456789TJQKA2", LANDLORD, (13, 14, 13))
    farmer = view(1, "33445566778899TT", LANDLORD, (8, 16, 16))
    late = view(LANDLORD, "3456789TJQKA2", LANDLORD, (13, 3, 4))
    bot = HardBot(0)
    monkeypatch.setattr(HardBot, "landlord_playout_cards", 54)
    monkeypatch.setattr(HardBot, "farmer_playout_cards", 0)
    assert bot.should_play_out(landlord) and not bot.should_play_out(farmer) and not bot.should_play_out(late)
    assert bot.should_roll_out(late)
    calls = playout_calls(monkeypatch)
    move = bot.play(landlord)
    assert calls and move is not None


def test_the_landlord_has_its_own_search_horizon_and_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    # landlord_search_cards / landlord_node_budget (docs/bots.md): the landlord's endgame search starts at its
    # own horizon, where its play-outs stop; the farmers keep search_cards and node_budget.
    landlord = view(LANDLORD, "3456789TJQKA2", LANDLORD, (13, 6, 5))
    farmer = view(1, "3456789T", LANDLORD, (13, 8, 3))
    bot = HardBot(0)
    assert not bot.should_search(landlord) and bot.should_play_out(landlord)
    monkeypatch.setattr(HardBot, "landlord_search_cards", 24)
    monkeypatch.setattr(HardBot, "landlord_node_budget", 9_000)
    assert bot.should_search(landlord) and not bot.should_play_out(landlord)
    assert not bot.should_search(farmer)
    assert bot.search_budget(landlord) == 9_000 and bot.search_budget(farmer) == bot.node_budget
    budgets: list[int | None] = []
    real = HardBot.solver

    def spy(self: HardBot, rules: object, budget: int | None = None) -> Solver:
        budgets.append(budget)
        return real(self, rules, budget)  # type: ignore[arg-type]

    monkeypatch.setattr(HardBot, "solver", spy)
    moves = {bot.play(landlord) for _ in range(2)}
    assert budgets == [9_000, 9_000] and len(moves) == 1


def test_the_landlord_can_play_out_leads_from_other_splits_of_its_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    # landlord_split_leads (docs/bots.md): leads that are not the planner's groups join the played-out candidates.
    from tutor.bots.planner import plan_packed

    landlord = view(LANDLORD, "33344567789TTJJJQQKK", LANDLORD, (20, 17, 17))
    bot = HardBot(0)
    heuristic_choice = bot.heuristic_play(landlord)
    found = bot.candidates(landlord, heuristic_choice, bot.playout_width)
    extra = bot.split_leads(landlord, found, 3)
    planned = plan_packed(landlord.hand.packed).groups
    assert len(extra) == 3 and not set(extra) & (set(found) | set(planned))
    assert combo("33344") in extra  # the trio with the pair of 4s, where the plan has 4 in its straight
    calls = playout_calls(monkeypatch)
    monkeypatch.setattr(HardBot, "playout_samples", 8)
    monkeypatch.setattr(HardBot, "landlord_split_leads", 3)
    moves = {bot.play(landlord) for _ in range(2)}
    offered = [list(args[1]) for args, _ in calls]
    assert offered[0] == found + extra and offered[1] == offered[0] and len(moves) == 1


def test_a_farmer_can_play_out_leads_from_other_splits_of_its_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    # farmer_split_leads (round 6, docs/bots.md): the farmers' own count of split leads; the landlord's stays off.
    led = dump_history({LANDLORD: "6", 2: "8", 1: "A"}, then=1)
    farmer = view(1, "3334456778TTJJQK", LANDLORD, (19, 16, 16), led)
    landlord = view(LANDLORD, "33344567789TTJJJQQKK", LANDLORD, (20, 17, 17))
    bot = HardBot(0)
    assert bot.should_play_out(farmer) and bot.should_play_out(landlord)
    plain = {v.seat: bot.playout_candidates(v, bot.heuristic_play(v)) for v in (farmer, landlord)}
    monkeypatch.setattr(HardBot, "farmer_split_leads", 3)
    widened = bot.playout_candidates(farmer, bot.heuristic_play(farmer))
    extra = bot.split_leads(farmer, plain[1], 3)
    assert len(extra) == 3 and widened == plain[1] + extra
    assert bot.playout_candidates(landlord, bot.heuristic_play(landlord)) == plain[LANDLORD]



def after_the_landlords_six(monkeypatch: pytest.MonkeyPatch, **knobs: object
                            ) -> tuple[list[Call], PlayerView, PlayerView]:
    """What the side-by-side settings' tests ask: the hard bot's play-out calls from now on, a farmer leading after
    its A took the trick (the landlord's 6, the partner's 8), and the landlord leading its 20 cards; 8 deals a side (the tests check which
    settings reach the play-outs, not what they decide), and ``knobs`` set on :class:`HardBot`."""
    calls = playout_calls(monkeypatch)
    for knob, value in {"farmer_playout_samples": 8, "playout_samples": 8, **knobs}.items():
        monkeypatch.setattr(HardBot, knob, value)
    led = dump_history({LANDLORD: "6", 2: "8", 1: "A"}, then=1)
    farmer = view(1, "3334456778TTJJQK", LANDLORD, (19, 16, 16), led)
    landlord = view(LANDLORD, "33344567789TTJJJQQKK", LANDLORD, (20, 17, 17))
    return calls, farmer, landlord

def test_a_farmers_play_outs_have_their_own_further_deals_and_threshold(monkeypatch: pytest.MonkeyPatch) -> None:
    # farmer_playout_more, farmer_playout_z (round 6, docs/bots.md): the farmers' own further deals and sign-test
    # threshold; the landlord keeps playout_more and playout_z.
    calls, farmer, landlord = after_the_landlords_six(monkeypatch, farmer_playout_more=5)
    bot = HardBot(0)
    bot.play(farmer)
    monkeypatch.setattr(HardBot, "farmer_playout_z", 0.5)
    bot.play(farmer)
    bot.play(landlord)
    assert [(kwargs["more"], args[4]) for args, kwargs in calls] == [(5, 1.0), (5, 0.5), (0, 1.0)]


def test_a_farmers_play_outs_have_their_own_solved_end(monkeypatch: pytest.MonkeyPatch) -> None:
    # farmer_playout_tail, landlord_playout_tail, playout_tail_nodes (round 8, docs/bots.md): each side's own
    # tail reaches best_by_playouts with the shared node budget; 0 (the default) is today's play-outs.
    calls, farmer, landlord = after_the_landlords_six(monkeypatch, farmer_playout_tail=18, playout_tail_nodes=500)
    bot = HardBot(0)
    bot.play(farmer)
    bot.play(landlord)
    monkeypatch.setattr(HardBot, "landlord_playout_tail", 12)
    bot.play(landlord)
    assert [(kwargs["tail"], kwargs["tail_nodes"]) for _, kwargs in calls] == [(18, 500), (0, 500), (12, 500)]


def test_each_side_hands_its_own_robust_threshold_to_the_play_outs(monkeypatch: pytest.MonkeyPatch) -> None:
    # playout_robust_z, farmer_playout_robust_z, farmer_playout_families (round 11, docs/bots.md): each side's veto
    # of a change one model family's deals contradict, and its families, reach best_by_playouts; None and () (the
    # defaults) are the pooled test alone.
    calls, farmer, landlord = after_the_landlords_six(monkeypatch)
    bot = HardBot(0)
    bot.play(farmer)
    monkeypatch.setattr(HardBot, "farmer_playout_robust_z", 0.5)
    bot.play(farmer)
    bot.play(landlord)
    monkeypatch.setattr(HardBot, "playout_robust_z", 0.0)
    monkeypatch.setattr(HardBot, "farmer_playout_families", ("quick", "agent"))
    bot.play(landlord)
    bot.play(farmer)
    assert [(kwargs["robust"], kwargs["families"]) for _, kwargs in calls] == [
        (None, ()), (0.5, ()), (None, ()), (0.0, ()), (0.5, ("quick", "agent"))]


def judgement_spy(monkeypatch: pytest.MonkeyPatch, calls: list[Call]) -> list[tuple[int, int, int]]:
    """The exact judgements asked from now on (seat, deals, node budget); each is handed the play-outs' candidates
    and their choice, and plays the last candidate (so the tests see that its move is played)."""
    from tutor.bots import search

    judged: list[tuple[int, int, int]] = []

    def spy(view: PlayerView, candidates: list[object], chosen: object, solver: Solver, samples: int,
            *rest: object) -> object:
        judged.append((view.seat, samples, solver.max_nodes or 0))
        assert chosen in candidates and candidates == calls[-1][0][1]
        return candidates[-1]

    monkeypatch.setattr(search, "exact_judgement", spy)
    return judged


def test_a_farmers_played_out_candidates_are_judged_exactly_within_its_card_count(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # farmer_exact_cards (round 15, docs/bots.md): a farmer's played-out decision within that many cards in play
    # hands its candidates and the play-outs' choice to tutor.bots.search.exact_judgement, with the farmers'
    # own deals and node budget; the landlord's decisions never; 0 (the default) is today's play.
    calls, farmer, landlord = after_the_landlords_six(monkeypatch, farmer_exact_samples=3, farmer_exact_nodes=77)
    judged = judgement_spy(monkeypatch, calls)
    bot = HardBot(0)
    bot.play(farmer)
    assert judged == []
    monkeypatch.setattr(HardBot, "farmer_exact_cards", 50)  # the farmer's view has 51 cards in play
    bot.play(farmer)
    assert judged == []
    monkeypatch.setattr(HardBot, "farmer_exact_cards", 51)
    after = bot.play(farmer)
    bot.play(landlord)
    assert judged == [(1, 3, 77)]
    assert after == calls[-2][0][1][-1]  # the judgement's move is played
    monkeypatch.setattr(HardBot, "farmer_exact_cards", 54)  # the landlord's view has 54
    bot.play(landlord)
    assert judged == [(1, 3, 77)]


def test_the_landlords_played_out_candidates_are_judged_exactly_by_its_own_settings(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # landlord_exact_cards (round 15, second try, docs/bots.md): the landlord's played-out decision within that many
    # cards in play goes to tutor.bots.search.exact_judgement with the landlord's own deals and node budget; the
    # farmers' decisions keep theirs (off); 0 (the default) is today's play.
    calls, farmer, landlord = after_the_landlords_six(
        monkeypatch, landlord_exact_samples=5, landlord_exact_nodes=99, farmer_exact_samples=3, farmer_exact_nodes=77)
    judged = judgement_spy(monkeypatch, calls)
    bot = HardBot(0)
    bot.play(landlord)
    monkeypatch.setattr(HardBot, "landlord_exact_cards", 53)  # the landlord's view has 54 cards in play
    bot.play(landlord)
    assert judged == []
    monkeypatch.setattr(HardBot, "landlord_exact_cards", 54)
    after = bot.play(landlord)
    bot.play(farmer)
    assert judged == [(LANDLORD, 5, 99)]
    assert after == calls[-2][0][1][-1]  # the judgement's move is played
    monkeypatch.setattr(HardBot, "farmer_exact_cards", 54)
    bot.play(farmer)
    assert judged == [(LANDLORD, 5, 99), (1, 3, 77)]


def test_a_farmers_search_draws_its_own_number_of_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    # farmer_samples (round 15, second try, docs/bots.md): a farmer's endgame search solves that many sampled deals,
    # the landlord's keeps samples; None (the default) is samples for both.
    from tutor.bots import search
    from tutor.engine.facts import whole_hand_play
    from tutor.engine.game import Game

    drawn: list[tuple[int, int]] = []

    def spy(view: PlayerView, solver: Solver, samples: int, *rest: object) -> None:
        drawn.append((view.seat, samples))
        return None

    game, ends = Game.with_landlord(1, LANDLORD), dict[bool, PlayerView]()
    while len(ends) < 2:  # each side's first decision within the search's 20 cards
        now = game.view(game.to_move)
        if sum(now.card_counts) <= 20 and whole_hand_play(now.hand.packed, now.table, now.rules) is None:
            ends.setdefault(now.seat == LANDLORD, now)
        game.play(MediumBot(1).play(now))
    landlord, farmer = ends[True], ends[False]
    monkeypatch.setattr(search, "determinized_choice", spy)
    monkeypatch.setattr(HardBot, "samples", 5)
    bot = HardBot(0)
    bot.play(farmer)
    monkeypatch.setattr(HardBot, "farmer_samples", 11)
    bot.play(farmer)
    bot.play(landlord)
    assert drawn == [(farmer.seat, 5), (farmer.seat, 11), (LANDLORD, 5)]


def test_a_farmer_plays_out_its_early_decisions(monkeypatch: pytest.MonkeyPatch) -> None:
    # farmer_playout_cards (kept in round 5, docs/bots.md) covers a farmer's decisions down to the farmer's
    # search horizon; the landlord keeps its own knob.
    from tutor.engine.game import Game

    game = Game.with_landlord(5, LANDLORD)
    while game.to_move == LANDLORD or len(game.history) < 3:
        game.play(MediumBot(5).play(game.view(game.to_move)))
    farmer = game.view(game.to_move)
    late = view(1, "33445566778899TT", LANDLORD, (3, 16, 1))
    bot = HardBot(5)
    monkeypatch.setattr(HardBot, "landlord_playout_cards", 0)
    assert bot.should_play_out(farmer) and not bot.should_play_out(late)
    assert not bot.should_play_out(view(LANDLORD, "3456789TJQKA2", LANDLORD, (13, 14, 13)))
    monkeypatch.setattr(HardBot, "farmer_search_cards", 24)
    assert not bot.should_play_out(view(1, "33445566778899TT", LANDLORD, (6, 16, 2)))
    monkeypatch.setattr(HardBot, "farmer_search_cards", None)
    monkeypatch.setattr(HardBot, "farmer_playout_samples", 32)  # a cheap test; the default is 256
    assert bot.playout_budget(farmer) == (32, 4)
    assert bot.playout_budget(view(LANDLORD, "3456789TJQKA2", LANDLORD, (13, 14, 13))) == (64, 4)
    calls = playout_calls(monkeypatch)
    moves = {bot.play(farmer), HardBot(5).play(farmer)}
    assert len(calls) == 2 and len(moves) == 1
    monkeypatch.setattr(HardBot, "farmer_playout_cards", 0)
    assert not bot.should_play_out(farmer)


def after_a_trick(monkeypatch: pytest.MonkeyPatch, cheap_landlord: bool = False
                  ) -> tuple[list[Call], PlayerView, PlayerView]:
    """What the play-out settings' tests ask the hard bot about: its play-out calls from now on, the landlord after
    one trick (4, 5, pass: the farmers have decided, so a model of them has evidence) and a farmer after the
    landlord's 3.  The play-outs are cut to 16 deals (the farmers', and the landlord's with ``cheap_landlord``):
    the tests check which settings reach the play-outs, not what they decide."""
    calls = playout_calls(monkeypatch)
    monkeypatch.setattr(HardBot, "farmer_playout_samples", 16)
    if cheap_landlord:
        monkeypatch.setattr(HardBot, "playout_samples", 16)
    landlord = view(LANDLORD, "3456789TJQKA2", LANDLORD, (13, 16, 17), turns((LANDLORD, "4"), (1, "5"), (2, None)))
    farmer = view(1, "3456789TJQKA2", LANDLORD, (14, 13, 13), turns((LANDLORD, "3")))
    return calls, landlord, farmer


def at_the_first_trick(monkeypatch: pytest.MonkeyPatch) -> tuple[list[Call], PlayerView, PlayerView]:
    """The play-out calls from now on, the landlord to lead the first trick and a farmer after the landlord's 3
    (the farmers' play-outs cut to 16 deals: these tests check which settings reach the play-outs)."""
    calls = playout_calls(monkeypatch)
    monkeypatch.setattr(HardBot, "farmer_playout_samples", 16)
    landlord = view(LANDLORD, "3456789TJQKA2", LANDLORD, (13, 14, 13))
    farmer = view(1, "3456789TJQKA2", LANDLORD, (14, 13, 13), turns((LANDLORD, "3")))
    return calls, landlord, farmer


def test_the_play_outs_pass_each_sides_simulated_opponents(monkeypatch: pytest.MonkeyPatch) -> None:
    # Round 6 (docs/bots.md): the landlord's simulated farmers and the farmers' simulated landlord are each a
    # setting; "lowest" for the landlord's won against the rule agent and lost against RHCP-v2 (round 7: the
    # landlord's is "auto", tests/bots/test_opponent_model.py; round 16: the farmers' too, and one play of the
    # landlord reads as the quick policy).
    monkeypatch.setattr(HardBot, "landlord_playout_opponents", "lowest")
    calls, landlord, farmer = at_the_first_trick(monkeypatch)
    HardBot(0).play(landlord)
    HardBot(0).play(farmer)
    assert [kwargs["opponents"] for _, kwargs in calls] == ["lowest", "quick"]


def test_the_play_outs_pass_each_sides_policy(monkeypatch: pytest.MonkeyPatch) -> None:
    # Round 12 (docs/bots.md): the policy every quick seat of the play-outs plays is a setting per side; round 16
    # made the farmers' "plan" and left the landlord's "quick".
    calls, landlord, farmer = at_the_first_trick(monkeypatch)
    HardBot(0).play(landlord)
    HardBot(0).play(farmer)
    monkeypatch.setattr(HardBot, "landlord_playout_policy", "plan")
    HardBot(0).play(landlord)
    HardBot(0).play(farmer)
    monkeypatch.setattr(HardBot, "farmer_playout_policy", "quick")
    HardBot(0).play(farmer)
    assert [kwargs["policy"] for _, kwargs in calls] == ["quick", "plan", "plan", "plan", "quick"]


def test_a_read_policy_is_played_only_once_the_opponents_read_as_another_model(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Round 16 (docs/bots.md): "plan-read" plays plan where the opponents' model is not the quick policy, and
    # the quick policy where it is; "plan-own" is passed on as it is (tutor.bots.rollout.play_deals reads it).
    # Each case: the policy and the opponents' model set for both sides, the seat that plays, the policy passed.
    calls, landlord, farmer = at_the_first_trick(monkeypatch)
    for policy, opponents, seat, expected in (
        ("plan-read", "quick", landlord, "quick"), ("plan-read", "lowest", farmer, "plan"),
        ("plan-read", "agent", landlord, "plan"), ("plan-own", "quick", farmer, "plan-own"),
    ):
        for side in ("landlord", "farmer"):
            monkeypatch.setattr(HardBot, f"{side}_playout_policy", policy)
            monkeypatch.setattr(HardBot, f"{side}_playout_opponents", opponents)
        HardBot(0).play(seat)
        assert calls[-1][1]["policy"] == expected, (policy, opponents)
    # Round 17: read_policy_early plays the named policy, whatever the read, while more cards than it are in play
    # (here 40: the named policy at 39, the read's at 40).
    for side in ("landlord", "farmer"):
        monkeypatch.setattr(HardBot, f"{side}_playout_policy", "plan-read")
        monkeypatch.setattr(HardBot, f"{side}_playout_opponents", "quick")
    for early, expected in ((39, "plan"), (40, "quick"), (0, "quick")):
        monkeypatch.setattr(HardBot, "read_policy_early", early)
        HardBot(0).play(landlord)
        assert calls[-1][1]["policy"] == expected, early


def test_each_side_reads_its_opponents_with_its_own_margin(monkeypatch: pytest.MonkeyPatch) -> None:
    # Round 16 (docs/bots.md): the landlord's "auto" and the farmers' are measured apart, so each has its margin.
    from tutor.bots import opponent_model

    margins: list[float] = []
    hands: list[tuple[int, int]] = []

    def chosen(_view: PlayerView, _models: tuple[str, ...], samples: int, margin: float, max_calls: int) -> str:
        margins.append(margin)
        hands.append((samples, max_calls))
        return "agent"

    monkeypatch.setattr(opponent_model, "chosen_model", chosen)
    _, landlord, farmer = at_the_first_trick(monkeypatch)
    monkeypatch.setattr(HardBot, "landlord_playout_opponents", "auto")
    monkeypatch.setattr(HardBot, "farmer_playout_opponents", "auto")
    bot = HardBot(0)
    bot.auto_margin, bot.farmer_auto_margin = 1.0, 3.0
    assert [bot.playout_opponents(landlord), bot.playout_opponents(farmer)] == ["agent", "agent"]
    bot.farmer_auto_margin = None
    bot.playout_opponents(farmer)
    assert margins == [1.0, 3.0, 1.0]
    # Round 17: more sampled hands for the read, and a bound on its model calls that grows with them.
    assert hands == [(opponent_model.SAMPLES, opponent_model.MAX_CALLS)] * 3
    bot.auto_samples = 32
    bot.playout_opponents(landlord)
    assert hands[-1] == (32, opponent_model.MAX_CALLS * 32 // opponent_model.SAMPLES)


def test_the_landlords_mixture_waits_for_its_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    # Round 17: with mix_cards, the landlord's "mix" starts once at most that many cards are in play; before, the
    # "auto" read names the farmers' model (here 40 cards are in play).
    monkeypatch.setattr(HardBot, "read_model", lambda self, view: "agent")
    _, landlord, _farmer = at_the_first_trick(monkeypatch)
    monkeypatch.setattr(HardBot, "landlord_playout_opponents", "mix")
    bot = HardBot(0)
    seen: list[str] = []
    for cards in (54, 40, 39):
        bot.mix_cards = cards
        seen.append(bot.playout_opponents(landlord))
    assert seen == ["mix", "mix", "agent"]


def test_the_played_out_deals_are_nudged_by_the_named_compiled_model(monkeypatch: pytest.MonkeyPatch) -> None:
    # playout_nudge_model (round 7, docs/bots.md): with playout_steps, the play-outs' deals are nudged in C
    # towards the named variant's plays; "python" keeps round 4's Python path; an unknown model is an error.
    from tutor.bots import rollout

    from tutor.engine.game import Game

    game = Game.with_landlord(7, LANDLORD)
    medium = MediumBot(7)
    while len(game.view(0).history) < 9 or game.to_move == LANDLORD:
        game.play(medium.play(game.view(game.to_move)))
    farmer = game.view(game.to_move)
    bot = HardBot(0)
    assert bot.should_play_out(farmer)
    seen: list[str] = []
    real = rollout.nudged_samples

    def spy(*args: object, **kwargs: object) -> list[dict[int, int]]:
        seen.append(str(args[3]))
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(rollout, "nudged_samples", spy)
    monkeypatch.setattr(HardBot, "playout_steps", 16)
    monkeypatch.setattr(HardBot, "playout_recent", None)
    monkeypatch.setattr(HardBot, "farmer_playout_samples", 16)
    for model in ("agent", "quick"):
        monkeypatch.setattr(HardBot, "playout_nudge_model", model)
        first = bot.play(farmer)
        assert bot.play(farmer) == first
        assert seen[-1] == model
    monkeypatch.setattr(HardBot, "playout_nudge_model", "opponents")
    monkeypatch.setattr(HardBot, "farmer_playout_opponents", "rule")
    bot.play(farmer)
    assert seen[-1] == "rule"
    monkeypatch.setattr(HardBot, "farmer_playout_opponents", "quick+lowest")
    bot.play(farmer)
    assert seen[-1] == "quick"
    calls = len(seen)
    monkeypatch.setattr(HardBot, "playout_nudge_model", "python")
    bot.play(farmer)
    assert len(seen) == calls
    # "auto": the model read from the opponents' past play (tutor/bots/opponent_model.py), as for the play-outs.
    from tutor.bots import opponent_model

    monkeypatch.setattr(opponent_model, "chosen_model", lambda view, models, **_: "lowest")
    monkeypatch.setattr(HardBot, "playout_nudge_model", "auto")
    bot.play(farmer)
    assert seen[-1] == "lowest"


def test_the_landlords_deals_are_filtered_and_counted_by_its_opponents_model(monkeypatch: pytest.MonkeyPatch) -> None:
    # Round 8 (docs/bots.md): with landlord_filter_pool the landlord's played-out deals are filtered by the model
    # its play-outs' opponents play, only for the models listed; landlord_model_samples sets the deals by that
    # model.  Both off by default, and never the farmers'.
    from tutor.bots.sampling import Filter

    calls, landlord, farmer = after_a_trick(monkeypatch)
    for opponents in ("quick", "agent"):
        monkeypatch.setattr(HardBot, "landlord_playout_opponents", opponents)
        HardBot(0).play(landlord)
    assert [(args[2], kwargs["filtering"]) for args, kwargs in calls] == [(64, None), (64, None)]
    monkeypatch.setattr(HardBot, "landlord_filter_pool", 4)
    monkeypatch.setattr(HardBot, "landlord_model_samples", {"agent": 96})
    for opponents in ("quick", "agent"):
        monkeypatch.setattr(HardBot, "landlord_playout_opponents", opponents)
        HardBot(0).play(landlord)
    HardBot(0).play(farmer)
    assert [(args[2], kwargs["filtering"]) for args, kwargs in calls[2:]] == [
        (64, None), (96, Filter("agent", 4)), (16, None)
    ]


def test_the_landlord_nudges_its_deals_under_its_opponents_model_only_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    # Round 8 (docs/bots.md): landlord_nudge_steps nudges the landlord's played-out deals over all the farmers'
    # plays under the model its play-outs' opponents play, only for the models listed; the farmers keep
    # playout_steps (0).
    calls, landlord, farmer = after_a_trick(monkeypatch, cheap_landlord=True)
    monkeypatch.setattr(HardBot, "landlord_playout_opponents", "agent")
    HardBot(0).play(landlord)
    monkeypatch.setattr(HardBot, "landlord_nudge_steps", 16)
    for opponents in ("agent", "quick"):
        monkeypatch.setattr(HardBot, "landlord_playout_opponents", opponents)
        HardBot(0).play(landlord)
    HardBot(0).play(farmer)
    assert [(kwargs["steps"], kwargs["recent"], kwargs["nudge"]) for _, kwargs in calls] == [
        (0, 12, "quick"), (16, None, "agent"), (0, 12, "quick"), (0, 12, "quick")
    ]


def test_the_landlords_mix_weighs_its_play_outs_by_the_posterior_of_the_farmers_models(monkeypatch: pytest.MonkeyPatch) -> None:
    # Round 9 (docs/bots.md): landlord_playout_opponents="mix" hands the play-outs a mixture of auto_models weighted
    # by their posterior after the farmers' past decisions (mix_prior, mix_error), its deals nudged as asked; any
    # other setting hands none, and the farmers' play-outs are untouched.
    from tutor.bots.opponent_model import posterior
    from tutor.bots.rollout import Mixture

    calls, landlord, farmer = after_a_trick(monkeypatch, cheap_landlord=True)
    HardBot(0).play(landlord)
    monkeypatch.setattr(HardBot, "landlord_playout_opponents", "mix")
    monkeypatch.setattr(HardBot, "playout_nudge_model", "opponents")
    HardBot(0).play(landlord)
    monkeypatch.setattr(HardBot, "mix_prior", (3.0, 1.0, 1.0, 1.0))
    monkeypatch.setattr(HardBot, "mix_error", 0.1)
    monkeypatch.setattr(HardBot, "mix_nudge_steps", 16)
    HardBot(0).play(landlord)
    HardBot(0).play(farmer)
    mixtures = [kwargs["mixture"] for _, kwargs in calls]
    assert mixtures[0] is None and mixtures[3] is None
    models = HardBot.auto_models
    assert mixtures[1] == Mixture(tuple(posterior(landlord, models).items()), 0, None, ("lowest", "rule", "agent"))
    assert mixtures[2] == Mixture(tuple(posterior(landlord, models, (3, 1, 1, 1), 0.1).items()), 16, None,
                                  ("lowest", "rule", "agent"))
    assert mixtures[1].weights != mixtures[2].weights
    assert [kwargs["nudge"] for _, kwargs in calls[1:3]] == ["quick", "quick"]  # "opponents" under a mix: no model
