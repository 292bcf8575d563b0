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
