"""Rendering on a fixed 80-column console without colour (RULES §9: every element on screen)."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from tutor.cli.render import FinalInfo, TableInfo, cards_text, counter_line, final_card, table
from tutor.coach.status import lead_options
from tutor.engine.cards import Cards
from tutor.engine.combos import Kind
from tutor.engine.game import Game
from tutor.engine.rules import STANDARD
from tutor.i18n import set_language, t


@pytest.fixture(autouse=True)
def english() -> None:
    set_language("en")
    yield
    set_language("en")


def render(renderable: object) -> str:
    console = Console(file=io.StringIO(), width=80, no_color=True, color_system=None)
    console.print(renderable)
    return console.file.getvalue()  # type: ignore[attr-defined]


def test_table_fits_80_columns_and_shows_every_element_of_rule_9() -> None:
    game = Game(42)
    while game.landlord is None:
        game.make_bid(2 if game.to_move == 1 else 0)
    assert game.landlord == 1
    game.play_cards("345678")
    game.play(None)  # Left passes
    text = render(table(game.view(0), TableInfo(42, "hard", -40, counter=True)))
    lines = text.splitlines()
    assert all(len(line) <= 80 for line in lines)
    assert "Deal 42 · hard · score −40" in lines[0]
    assert "Game: 10 × bid 2 × 1 = 20" in text
    assert "LANDLORD" in text and "farmer" in text
    assert "14 cards" in text and "17 cards" in text
    assert "[3][4][5][6][7][8] Straight of 6 ← to beat" in text
    assert "pass" in text
    assert "Kitty: [5][6][7]" in text
    assert "Not seen: D:1 X:1 2:3 A:3 K:0" in text
    assert "[3] [4][4][4] [6][6] [7] [8][8] [J] [Q] [K][K][K][K] [A] [2]" in text
    assert "T = ten · X = small joker · D = big joker" in text.replace("\u00a0", " ")
    # round 15: on a 40-column terminal the legend broke inside an item («D =» / «big joker»)
    for lang in ("en", "ru"):
        set_language(lang)
        narrow = io.StringIO()
        Console(file=narrow, width=40, no_color=True, color_system=None).print(table(game.view(0), TableInfo(42, "hard", -40)))
        items = t("play.legend").split(" · ")
        assert all(any(item in line for line in narrow.getvalue().splitlines()) for item in items), narrow.getvalue()


def test_kitty_is_face_down_while_bidding() -> None:
    text = render(table(Game(42).view(0), TableInfo(42, "easy", 0)))
    assert "Kitty: face down" in text and "Not seen" not in text
    assert "Game: 10 × bid — × 1 (bidding)" in text


def test_counter_counts_own_and_played_cards_as_seen() -> None:
    game = Game(42)
    while game.landlord is None:
        game.make_bid(2 if game.to_move == 1 else 0)
    game.play_cards("345678")
    line = counter_line(game.view(0)).plain
    # 3: four in the deck, ours one, one played → 2 unseen; 8: two ours + one played → 1.
    assert "8:1" in line and "3:2" in line and line.startswith("Not seen: D:1 X:1 2:3")


def test_cards_are_drawn_with_letters_readable_without_colour() -> None:
    assert cards_text(Cards.parse("3T2XD")).plain == "[3][T][2][X][D]"


def test_game_cell_doubles_live_with_a_bomb() -> None:
    game = Game.from_hands(["KKKK3", "45", "67"], landlord=0, bid=3)
    game.play_cards("KKKK")
    assert "Game: 10 × bid 3 × 2 = 60" in render(table(game.view(0), TableInfo(1, "medium", 0)))


def test_final_card_spells_out_every_multiplier_hands_kitty_and_deal() -> None:
    bomb = next(c for c in lead_options(Cards.parse("8888")) if c.kind == Kind.BOMB)
    rocket = lead_options(Cards.parse("XD"))[0]
    info = FinalInfo(
        deal=42, landlord=0, landlord_won=True, bid=3, bombs=(bomb, rocket), spring=True, anti_spring=False,
        base=10, multiplier=8, cost=240, deltas=(480, -240, -240), scored=True, running_score=500,
        hands=(Cards(0), Cards.parse("345"), Cards.parse("9TJQK")), kitty=Cards.parse("49J"), hints=2, undos=1,
        rules=STANDARD,
    )
    text = render(final_card(info))
    assert all(len(line) <= 80 for line in text.splitlines())
    assert "You win!" in text and "The landlord (You) wins alone." in text
    assert "Multipliers: bid 3 · bomb 8888 ×2 · rocket ×2 · spring ×2" in text
    assert "Game: 10 × 3 × 8 = 240" in text
    assert "Score: You +480 · Right −240 · Left −240" in text
    assert "Running score: +500" in text
    assert "Right  farmer    [3] [4] [5]" in text and "out" in text
    assert "Kitty: [4][9][J]" in text
    assert "Deal 42 · hints 2 · undos 1" in text


def test_final_card_in_russian_names_anti_spring() -> None:
    set_language("ru")
    info = FinalInfo(
        deal=7, landlord=1, landlord_won=False, bid=1, bombs=(), spring=False, anti_spring=True,
        base=10, multiplier=2, cost=20, deltas=(0, 0, 0), scored=False, running_score=0,
        hands=(Cards(0), Cards.parse("345"), Cards.parse("9")), kitty=Cards.parse("49J"), hints=0, undos=0,
        rules=STANDARD,
    )
    text = render(final_card(info))
    assert "Крестьяне (Вы и Левый) выиграли вместе." in text
    assert "ставка 1 · антивесна ×2" in text and "повтор раздачи: без очков" in text


def test_a_narrow_terminal_wraps_the_hand_between_cards_never_inside_one() -> None:
    from rich.console import Console

    from tutor.cli.render import cards_text
    from tutor.engine.cards import Cards

    out = io.StringIO()
    Console(file=out, width=20, no_color=True).print(cards_text(Cards.parse("33444667889JQKKKKA2XD"), grouped=True))
    for line in out.getvalue().splitlines():
        assert line.strip().startswith("[") and line.strip().endswith("]"), line


def test_a_narrow_open_table_wraps_hands_between_cards() -> None:
    """``ddz replay``'s open table at 40 columns: a hand wraps between ranks, never inside a card."""
    from tutor.cli.render import open_table

    hands = [Cards.parse("345677889TJJQKAAA2X"), Cards.parse("33445566"), Cards.parse("D")]
    out = io.StringIO()
    Console(file=out, width=40, no_color=True, color_system=None).print(open_table(hands, 0, None, "Deal 1", STANDARD))
    card_lines = [line.strip("│ ").strip() for line in out.getvalue().splitlines() if "[" in line]
    assert len(card_lines) > len(hands)  # a hand wraps
    for line in card_lines:
        cards = line[line.index("["):]
        assert cards.endswith("]"), line


def test_a_40_column_table_puts_the_last_play_under_the_seat_whole() -> None:
    """At 40 columns the last play had six columns ("[3][4…", "Strai…"); it now has a line of its own."""
    game = Game(42)
    while game.landlord is None:
        game.make_bid(2 if game.to_move == 1 else 0)
    game.play_cards("345678")
    game.play(None)  # Left passes
    out = io.StringIO()
    Console(file=out, width=40, no_color=True, color_system=None).print(table(game.view(0), TableInfo(42, "hard", -40)))
    text = out.getvalue()
    assert "…" not in text, text
    assert "[3][4][5][6][7][8] Straight of 6 ←" in text and "Right   LANDLORD" in text, text
