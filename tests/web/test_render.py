"""tutor/web/render.py: the runs of cards a line names, which the page draws as card chips (issue 34)."""

from __future__ import annotations

from tutor.coach.status import describe_phrase
from tutor.engine.cards import Cards
from tutor.engine.combos import Combo
from tutor.i18n import Phrase, speaking
from tutor.sessions import events as ev
from tutor.web import render


def test_the_opening_line_names_the_cards_to_beat_as_one_run() -> None:
    """"Beat straight of 7 5 6 7 8 9 10 J": the count is words, the run after it is the cards."""
    straight = Combo.parse("56789TJ")
    say = ev.Say(Phrase("play.follow", {"table": describe_phrase(straight, lower=True)}))
    with speaking("en"):
        out = render.event(say)
    assert out is not None
    assert out["chips"] == ["5 6 7 8 9 10 J"]
    assert out["text"].endswith("5 6 7 8 9 10 J or pass.")
    assert out["text"].count("5 6 7 8 9 10 J") == 1  # the chip is found once, after the count


def test_a_status_line_names_the_raised_cards_and_the_play_to_beat() -> None:
    line = ev.StatusLine(hand=Cards.parse("TTQQ3"), table=Combo.parse("99"), text="TT", is_pass=False, ok=True)
    out = render.event(line)
    assert out is not None and out["chips"] == ["10 10", "99"]  # as the line writes them (page_cards)
    passing = ev.StatusLine(hand=Cards.parse("TTQQ3"), table=None, text="pass", is_pass=True, ok=False)
    assert render.event(passing)["chips"] == []  # type: ignore[index]


def test_words_that_are_not_cards_give_no_chip() -> None:
    assert render.card_runs(Phrase("play.passes", {"seat": "Left"})) == []
    assert render.card_runs("not a phrase") == []


def test_rules_12_4_the_replay_board_and_the_final_card_draw_the_games_four_seats() -> None:
    """A four-player game's replay step is drawn with its four seats, each named from the rules' layout
    («Across» for seat 2, «Left» for seat 3), and the page is told to lay out four (``players``)."""
    from tutor.engine.deal import deal
    from tutor.engine.rules import FOUR, STANDARD
    from tutor.sessions.replay import ReplayStep
    from tutor.web.history import board

    cut = deal(3, FOUR)
    hands = tuple(cut.hands)
    step = ReplayStep(0, 10, 3, hands, 1, cut.kitty, None, rules=FOUR)
    with speaking("en"):
        table = board(step)
    assert table["players"] == 4
    assert [(s["seat"], s["name"]) for s in table["seats"]] == [(0, "You"), (1, "Right"), (2, "Across"), (3, "Left")]
    assert [len(s["cards"]) for s in table["seats"]] == [25, 25, 25, 25]
    three = ReplayStep(0, 10, 3, tuple(deal(3).hands), 1, deal(3).kitty, None, rules=STANDARD)
    with speaking("ru"):
        assert [s["name"] for s in board(three)["seats"]] == ["Вы", "Правый", "Левый"]
    assert board(three)["players"] == 3


def test_rules_12_4_the_mistakes_board_lists_the_games_four_seats_by_their_names() -> None:
    """"Learn from your mistakes" draws a moment with ``render.table`` (mistakes.js lists every seat it
    sends): a four-player view gives four seats, seat 2 «Across», in the reader's language."""
    from tutor.engine.game import Game
    from tutor.engine.rules import FOUR

    view = Game(3, FOUR).view(0)
    with speaking("en"):
        seats = render.table(view, False)["seats"]
    assert [(s["seat"], s["name"]) for s in seats] == [(0, "You"), (1, "Right"), (2, "Across"), (3, "Left")]
    with speaking("ru"):
        assert render.table(view, False)["seats"][2]["name"] == "Напротив"
