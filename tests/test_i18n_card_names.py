"""Russian sentences that insert a card or a combination name stay grammatical (issue 22).

The page names cards in words ("большой джокер", "малый джокер + большой джокер",
"10 10"), and a move travels as data (its cards, "пас", or "пара: 77"), so a
Russian template cannot decline what it inserts: «у вас нет большой джокер»,
«одиночная большой джокер», «вы сыграли большой джокер» are all wrong.  The
rule the catalogues follow instead: an inserted name stands where the
nominative is right — at the start of a sentence or clause (its subject), after
a colon or a dash, in parentheses, or in «quotes» (a label, as in «нажмите
«Отмена»»).  This test renders every Russian template of the areas the learner
reads (coach, lessons, puzzles, mistakes, the table and the page) with every
kind of card name and combination, and checks each inserted name against the
allowed forms: the nominative, in one of those places.
"""

from __future__ import annotations

import re

import pytest

from tutor.i18n import Phrase, area_strings, lookup

#: The catalogues whose sentences the learner reads at the table, in a lesson or a puzzle.
AREAS = ("coach", "lessons", "mistakes", "puzzles", "play", "variants", "web")

#: Placeholders that receive a card, a run of cards, a move or a combination's name.
SLOTS = frozenset({"cards", "card", "move", "best", "play", "table", "bomb", "lower", "answer", "missing",
                   "moves", "combo", "kind", "reply", "kinds"})

#: What may stand right before an inserted name: the start of the text, a colon, a dash, an opening
#: parenthesis or quote, a semicolon (a new clause), or a sentence's end. Then the nominative is right.
ALLOWED_BEFORE = re.compile(r"(?:^|: |— |\(|«|; |\. |\n)$")

#: Appositions that are right with a nominative name: a bomb's cards after its word («бомба 8888 ×2»),
#: a numbered choice's move («  2) пара: 77»).
APPOSITIONS = {"play.mult_bomb": "бомба ", "play.option": "X) "}

#: Slots of those names that hold no card: a count of moves, a bid, a best streak.
NOT_CARDS = {"coach.bid_status": "moves", "coach.bid_status_eval": "moves", "coach.bid_status_pass": "moves",
             "variants.bid_status": "moves", "puzzles.stats_streak": "best", "mistakes.bid_shown": "best",
             **{f"coach.bid_verdict_{level}": "best" for level in ("inaccuracy", "mistake", "blunder", "unclear")}}

_PLACEHOLDER = re.compile(r"\{(\w+)(?:![rsa])?(?::[^{}]*)?\}")


def _card_names() -> list[str]:
    """Every kind of name the page inserts, as the page writes it in Russian (tutor/web/render.py)."""
    from tutor.coach.status import describe_phrase
    from tutor.engine.combos import readings
    from tutor.engine.cards import Cards
    from tutor.i18n import speaking
    from tutor.web.render import page_cards, page_phrase

    with speaking("ru"):
        names = [page_cards(text) for text in ("3", "T", "J", "A", "2", "X", "D", "XD", "TT", "DD", "QQQ5", "9TJQKA", "3333")]
        for text in ("D", "X", "T", "77", "TT", "XD", "3333", "QQQ5", "33344", "34567", "334455", "777888", "9999TJ"):
            for combo in readings(Cards.parse(text)):
                names.append(page_phrase(describe_phrase(combo, lower=True)).render("ru"))
                names.append(page_phrase(describe_phrase(combo)).render("ru"))
    names.append(lookup("coach.pass_move", "ru") or "пас")
    return sorted(set(names))


CARD_NAMES = _card_names()


def _templates() -> list[tuple[str, str]]:
    found = []
    for area in AREAS:
        for key, text in sorted(area_strings("ru", area).items()):
            if any(name in SLOTS and name != NOT_CARDS.get(key) for name in _PLACEHOLDER.findall(text)):
                found.append((key, text))
    return found


TEMPLATES = _templates()


def test_the_templates_are_found() -> None:
    keys = {key for key, _ in TEMPLATES}
    assert {"coach.describe", "coach.review_loss", "coach.not_in_hand", "lessons.explain_spends",
            "puzzles.hint_move", "mistakes.moment"} <= keys
    assert len(CARD_NAMES) > 20 and "большой джокер" in CARD_NAMES and "одиночная: большой джокер" in CARD_NAMES


@pytest.mark.parametrize(("key", "text"), TEMPLATES, ids=[key for key, _ in TEMPLATES])
def test_every_inserted_name_stands_in_the_nominative(key: str, text: str) -> None:
    """Each slot is placed where the nominative is right; rendered with every name, the name is there as is."""
    for match in _PLACEHOLDER.finditer(text):
        if match.group(1) not in SLOTS or match.group(1) == NOT_CARDS.get(key):
            continue
        before = _PLACEHOLDER.sub("X", text[: match.start()])
        allowed = bool(ALLOWED_BEFORE.search(before)) or before.endswith(APPOSITIONS.get(key, "\0"))
        assert allowed, f"{key}: {{{match.group(1)}}} follows {before[-20:]!r}, where a name would need a case: {text}"
    slots = {m.group(1) for m in _PLACEHOLDER.finditer(text)}
    for name in CARD_NAMES:
        values: dict[str, object] = {slot: (name if slot in SLOTS and slot != NOT_CARDS.get(key) else 2) for slot in slots}
        rendered = Phrase(key, values).render("ru")
        assert name in rendered, (key, name, rendered)
        # the old mistakes, named: an adjective that does not agree with the card after it
        assert not re.search(r"одиночн\w+ (?:больш|мал)", rendered), rendered
        assert not re.search(r"(?:нет|сыграли|ходите|побьёт|бомбу|карту|хода|после|сбрасывает) (?:больш|мал|10|одиночн|пар)",
                             rendered), rendered
