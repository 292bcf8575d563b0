"""``ddz classify``, ``ddz moves`` and ``ddz deal``: the rules, inspectable from the shell.

These commands are how a learner (and every test, and an independent checker)
asks the engine what a set of cards *is*, what a hand *may* play, and what a
deal number deals.  They only translate between text and the engine: all the
rules live in :mod:`tutor.engine`.

Exit status: 0 on success; 1 from ``classify`` when the cards are not a
combination (an answer, not an error — like ``grep`` finding nothing); 2 for bad
input, with one line on stderr that names the problem.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable

import click
from rich.console import Console
from rich.table import Table

from tutor.cli.errors import MAX_DEAL, UserError, handle_user_errors, shorten
from tutor.cli.help_text import TranslatedCommand
from tutor.cli.nobreak import keep_numbers_whole
from tutor.cli.say import say
from tutor.engine.cards import DECK_COUNTS, SMALL_JOKER, Cards, InvalidCardsError, parse_rank, rank_char
from tutor.engine.combos import Combo, Kind, readings, stand_ins
from tutor.engine.moves import legal_moves
from tutor.engine.rules import STANDARD, Rules
from tutor.i18n import t

keep_numbers_whole()  # rich breaks no «12 345» at its no-break space


def _console() -> Console:
    """A console on the current stdout (so click's test runner captures it).

    rich already honours ``NO_COLOR`` and the terminal width; ``highlight`` is
    off so that card text such as ``333`` is never coloured as a number.
    """
    return Console(file=sys.stdout, highlight=False, soft_wrap=False)


def _echo_json(data: object) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


def _parse_cards(text: str) -> Cards:
    cards = Cards.parse(text)
    if not cards:
        raise UserError(t("rules.no_cards"))
    return cards


def wild_rules(text: str | None) -> Rules:
    """The rules of ``--wild RANK``: the standard game with that wild rank (RULES §12.3), or the standard game."""
    if text is None:
        return STANDARD
    try:
        rank = parse_rank(text)
    except InvalidCardsError:
        raise UserError(t("wild.bad_rank", text=shorten(text))) from None
    if rank >= SMALL_JOKER:
        raise UserError(t("wild.bad_rank", text=shorten(text)))
    return STANDARD.with_wild(rank)


def spelled(combo: Combo) -> str:
    """The cards as they count, every stand-in named: «7 7 7 [9 as 7]» (RULES §12.3)."""
    return " ".join(
        rank_char(rank) if wild is None else t("wild.stand_in", wild=rank_char(wild), rank=rank_char(rank))
        for rank, wild in stand_ins(combo)
    )


def kind_name(combo: Combo, rules: Rules | None = None) -> str:
    """The kind in words, with the chain length for chains (``straight of 5``); soft and hard
    bombs under a wild rank (RULES §12.3)."""
    kind = Kind(combo.kind)
    if kind is Kind.BOMB and (combo.soft or (rules is not None and rules.wild_rank >= 0)):
        return t("wild.soft_bomb" if combo.soft else "wild.hard_bomb")
    name = t(f"rules.kind_{kind.label}")
    return t("rules.units", kind=name, n=combo.length) if kind.is_chain else name


def describe(combo: Combo) -> str:
    return t("rules.reading", cards=combo.text, kind=kind_name(combo), main=rank_char(combo.main))


# --- ddz classify ------------------------------------------------------------------------


@click.command(cls=TranslatedCommand)
@click.argument("cards")
@click.option("--wild", metavar="RANK")
@click.option("--json", "as_json", is_flag=True)
@handle_user_errors
def classify(cards: str, wild: str | None, as_json: bool) -> None:
    # Help text: help.classify.  "No combination" is an answer (exit 1), not an error (exit 2).
    rules = wild_rules(wild)
    found = readings(_parse_cards(cards), rules)
    if as_json:
        _echo_json([r.to_json() for r in found])
    elif found:
        table = Table(title=t("rules.classify_title", cards=str(Cards.parse(cards))))
        table.add_column(t("rules.column_kind"))
        table.add_column(t("rules.column_main"), justify="center")
        if rules.wilds:
            table.add_column(t("wild.column_reading"))
        for reading in found:
            row = [kind_name(reading, rules), rank_char(reading.main)]
            table.add_row(*row, *([spelled(reading)] if rules.wilds else []))
        _console().print(table)
    else:
        say(t("rules.not_a_combination", cards=str(Cards.parse(cards))))
    if not found:
        sys.exit(1)


# --- ddz moves ---------------------------------------------------------------------------


def table_reading(beat: str, beat_kind: str | None, hand: Cards, as_json: bool, rules: Rules) -> Combo:
    """The combination on the table that ``--beat`` (and ``--beat-kind``) describe.

    Several readings and no kind: the user must choose, because the reading a
    play was made under is what must be beaten (RULES §6).  With a kind that
    still leaves several (``333444555666`` as airplane + singles tops 5 or 6),
    the highest is taken, as a play always takes its highest reading.
    """
    cards = _parse_cards(beat)
    _check_deck(hand, cards)
    found = readings(cards, rules)
    if not found:
        raise UserError(t("rules.beat_not_combination", cards=str(cards)))
    if beat_kind is not None:
        kind = Kind.from_label(beat_kind)
        of_kind = [r for r in found if r.kind == kind]
        if not of_kind:
            listed = "; ".join(kind_name(r) for r in found)
            raise UserError(t("rules.beat_kind_missing", cards=str(cards), kind=kind.label, readings=listed))
        return max(of_kind, key=lambda r: r.main)
    if len({(r.kind, r.length) for r in found}) > 1:
        message = t("rules.beat_ambiguous", cards=str(cards), count=len(found))
        if as_json:
            _echo_json({"error": message, "readings": [r.to_json() for r in found]})
        else:
            click.echo(t("cli.error", message=message), err=True)
            for reading in found:
                click.echo(f"  --beat-kind {Kind(reading.kind).label}: {describe(reading)}", err=True)
        sys.exit(2)
    return max(found, key=lambda r: r.main)


def _check_deck(hand: Cards, table: Cards) -> None:
    """The hand and the table come from one deck: refuse more of a rank than it holds."""
    for rank, (mine, theirs) in enumerate(zip(hand.counts, table.counts)):
        if mine + theirs > DECK_COUNTS[rank]:
            raise UserError(
                t("rules.too_many_cards", count=mine + theirs, rank=rank_char(rank), most=DECK_COUNTS[rank])
            )


def moves_table(moves: Iterable[Combo], title: str, rules: Rules) -> Table:
    """One row per kind (and chain length; soft bombs apart), its moves listed low to high."""
    groups: dict[tuple[int, int, bool], list[Combo]] = {}
    for move in moves:
        groups.setdefault((move.kind, move.length, move.soft), []).append(move)
    table = Table(title=title, show_lines=True)
    table.add_column(t("rules.column_kind"), no_wrap=True)
    table.add_column(t("rules.column_count"), justify="right")
    table.add_column(t("rules.column_cards"), overflow="fold")
    for group in groups.values():
        listed = " ".join(f"{m.text} ({spelled(m)})" if m.wild else m.text for m in group)
        table.add_row(kind_name(group[0], rules), str(len(group)), listed)
    return table


@click.command(cls=TranslatedCommand)
@click.argument("hand")
@click.option("--beat", metavar="CARDS")
@click.option("--beat-kind", metavar="KIND")
@click.option("--wild", metavar="RANK")
@click.option("--json", "as_json", is_flag=True)
@handle_user_errors
def moves(hand: str, beat: str | None, beat_kind: str | None, wild: str | None, as_json: bool) -> None:
    # Help text: help.moves.
    rules = wild_rules(wild)
    cards = _parse_cards(hand)
    if beat_kind is not None and beat is None:
        raise UserError(t("rules.beat_kind_without_beat"))
    table = table_reading(beat, beat_kind, cards, as_json, rules) if beat is not None else None
    found = legal_moves(cards, table, rules)
    if as_json:
        _echo_json([m.to_json() for m in found])
        return
    if table is None:
        title = t("rules.moves_title_lead", hand=str(cards), count=len(found))
    else:
        title = t("rules.moves_title_follow", hand=str(cards), table=table.text, kind=kind_name(table, rules),
                  count=len(found))  # fmt: skip
    console = _console()
    if found:
        console.print(moves_table(found, title, rules))
    else:
        console.print(title)
        console.print(t("rules.no_moves"))


# --- ddz deal ----------------------------------------------------------------------------


def _deal_number(text: str) -> int:
    """Read a deal number ourselves, so a bad one is one line, not click's usage block."""
    stripped = text.strip()
    if not stripped.isdecimal() or not stripped.isascii():
        raise UserError(t("rules.deal_number_bad", text=shorten(text)))
    # Compared as text first: a 100,000-digit number is out of range, not a Python limit.
    if len(stripped.lstrip("0")) > len(str(MAX_DEAL)) or int(stripped) > MAX_DEAL:
        raise UserError(t("rules.deal_number_range", text=shorten(stripped), most=MAX_DEAL))
    return int(stripped)


@click.command(cls=TranslatedCommand, context_settings={"ignore_unknown_options": True})
@click.argument("number", metavar="N")
@click.option("--json", "as_json", is_flag=True)
@click.option("--players", type=click.Choice(["3", "4"]), default="3")
@handle_user_errors
def deal(number: str, as_json: bool, players: str) -> None:
    # Help text: help.deal.
    from tutor.engine.deal import deal as make_deal
    from tutor.engine.rules import variant

    dealt = make_deal(_deal_number(number), variant(players=int(players)))
    if as_json:
        _echo_json(
            {
                "number": dealt.number,
                "hands": [str(h) for h in dealt.hands],
                "kitty": str(dealt.kitty),
                "first_bidder": dealt.first_bidder,
            }
        )
        return
    table = Table(title=t("rules.deal_title", number=dealt.number))
    table.add_column(t("rules.column_seat"), no_wrap=True)
    table.add_column(t("rules.column_cards"))
    table.add_column(t("rules.column_size"), justify="right")
    for seat, hand in enumerate(dealt.hands):
        table.add_row(_deal_seat(seat, len(dealt.hands)), str(hand), str(len(hand)))
    table.add_row(t("rules.kitty"), str(dealt.kitty), str(len(dealt.kitty)))
    console = _console()
    console.print(table)
    console.print(t("rules.first_bidder", seat=_deal_seat(dealt.first_bidder, len(dealt.hands))))


def _deal_seat(seat: int, players: int) -> str:
    """The seat's name in a deal listing: four seats go you → right → across → left (RULES §12.4)."""
    return t(f"four.deal_seat_{seat}") if players == 4 else t(f"rules.seat_{seat}")


COMMANDS = [classify, moves, deal]
