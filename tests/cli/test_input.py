"""Reading a line at the table: commands, numbers, bids and cards."""

from __future__ import annotations

from tutor.cli.input import Command, parse_bid, parse_entry
from tutor.engine.rules import STANDARD


def test_commands_have_short_and_russian_forms() -> None:
    for text, command in [
        ("pass", Command.PASS), ("P", Command.PASS), ("пас", Command.PASS),
        ("hint", Command.HINT), ("h", Command.HINT), ("undo", Command.UNDO), ("u", Command.UNDO),
        ("counter", Command.COUNTER), ("help", Command.HELP), ("?", Command.HELP),
        ("quit", Command.QUIT), ("", Command.CONFIRM), ("  ", Command.CONFIRM),
        ("y", Command.CONFIRM), ("play", Command.CONFIRM),
    ]:
        assert parse_entry(text).command is command, text


def test_card_letters_stay_cards() -> None:
    for text in ("d", "x", "XD", "10", "33344", "3 3 3 4 4", "t"):
        entry = parse_entry(text)
        assert entry.command is Command.CARDS and entry.text == text.strip()


def test_a_lone_digit_is_a_number() -> None:
    entry = parse_entry("2")
    assert entry.command is Command.NUMBER and entry.number == 2


def test_bids_follow_rule_3() -> None:
    assert parse_bid("pass", [0, 1, 2, 3], STANDARD) == 0
    assert parse_bid("0", [0, 1, 2, 3], STANDARD) == 0
    assert parse_bid("2", [0, 3], STANDARD) is None  # must be higher than every earlier bid
    assert parse_bid("3", [0, 3], STANDARD) == 3
    assert parse_bid("hint", [0, 1], STANDARD) is None


def test_a_lone_q_is_the_queen_not_quit() -> None:
    entry = parse_entry("Q")
    assert entry.command is Command.CARDS


def _prompt_words(prompt: str) -> list[str]:
    """The commands a move prompt lists: ``… (cards, or pass · hint · …)`` → ["pass", "hint", …]."""
    inside = prompt[prompt.index("(") + 1: prompt.rindex(")")]
    return [word.strip().split()[-1] for word in inside.split("·")]


def test_the_move_prompt_names_its_commands_in_the_language_spoken() -> None:
    """Round 14: the Russian prompt listed «pass · hint · undo …» in English although «пас», «подсказка» work."""
    from tutor.i18n import speaking, t

    expected = [Command.PASS, Command.HINT, Command.UNDO, Command.COUNTER, Command.HELP, Command.QUIT]
    for lang in ("en", "ru"):
        with speaking(lang):
            words = _prompt_words(t("play.move_prompt"))
        assert [parse_entry(word).command for word in words] == expected, (lang, words)
    with speaking("ru"):
        russian = t("play.move_prompt")
    assert not any(ch.isascii() and ch.isalpha() for ch in russian), russian  # no English word left in Russian


def test_the_mistakes_prompt_names_words_the_loop_reads_in_russian() -> None:
    """`ddz mistakes` in Russian offered «pass · show · skip · quit»; its loop reads «пас · решение · дальше · выход»."""
    import inspect

    from tutor.cli import mistakes
    from tutor.i18n import speaking, t

    with speaking("ru"):
        words = _prompt_words(t("mistakes.prompt"))
    assert parse_entry(words[0]).command is Command.PASS
    loop = inspect.getsource(mistakes)
    assert all(f'"{word}"' in loop for word in words[1:]), words
    assert not any(ch.isascii() and ch.isalpha() for word in words for ch in word), words


def test_a_russian_refusal_names_the_russian_help_word() -> None:
    """«Это не карты и не команда: 'zzz' (…; введите help)»: the English word in a Russian line."""
    from tutor.i18n import speaking, t

    with speaking("ru"):
        line = t("coach.not_cards", text="'zzz'")
    assert "«помощь»" in line and "help" not in line, line
    assert parse_entry("помощь").command is Command.HELP


def test_the_helps_example_pasted_back_with_its_no_break_spaces_reads_as_its_cards() -> None:
    """Round 15: «3 3 3 4 4» is written with no-break spaces (40 columns split it «3» / «3 3 4 4»)."""
    from tutor.i18n import lookup

    for key in ("puzzles.intro", "puzzles.help", "play.help"):
        for lang in ("en", "ru"):
            text = lookup(key, lang) or ""
            assert "3\u00a03\u00a03\u00a04\u00a04" in text and "3 3 3 4 4" not in text, (key, lang)
    assert parse_entry(" 3\u00a03\u00a03\u00a04\u202f4 ") == parse_entry("3 3 3 4 4")
