"""Drawing cards, the table and the final card with rich (shared by play, lessons, puzzles).

Design constraints, in order: readable with ``NO_COLOR`` (every colour is
doubled by text — the card itself, the role word), fits an 80-column terminal
(a 20-card hand is 60 columns), and every element of RULES §9 has a place:
the hand low→high, each opponent's role, card count and last play, the kitty
once revealed, the live "Game" cell, the optional card counter.

Cards are drawn ``[3][3][4]`` — one bracketed character per card, the same
letters the player types (``T`` ten, ``X``/``D`` jokers).  Twos are bold
yellow, the small joker bold, the big joker bold red.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from tutor.cli.nobreak import keep_numbers_whole
from tutor.cli.say import NUMBERED
from tutor.coach.seats import seat_name
from tutor.coach.status import combo_name
from tutor.engine.cards import BIG_JOKER, R2, RANK_CHARS, SMALL_JOKER, Cards, format_packed, packed_size
from tutor.engine.combos import Combo
from tutor.engine.view import PlayerView, Turn
from tutor.engine.rules import Rules
from tutor.i18n import t
from tutor.sessions.events import FinalCard, cost_phrase, last_said, multiplier_phrases, rules_phrase
from tutor.sessions.events import game_cell as game_cell_phrase

CARD_STYLES = {R2: "bold yellow", SMALL_JOKER: "bold", BIG_JOKER: "bold red"}
LANDLORD_STYLE = "bold magenta"
#: Counter order of RULES §9: big joker, small joker, 2, then A down to 3.
COUNTER_ORDER = (BIG_JOKER, SMALL_JOKER, R2) + tuple(range(R2 - 1, -1, -1))

keep_numbers_whole()  # rich breaks no «12 345» at its no-break space


def card(rank: int) -> Text:
    """One card, ``[Q]``."""
    return Text(f"[{RANK_CHARS[rank]}]", style=CARD_STYLES.get(rank, ""))


def cards_text(cards: Cards | int, empty: str = "", grouped: bool = False) -> Text:
    """A set of cards drawn low to high: ``[3][3][4][X]``.

    ``grouped`` puts a space between ranks (``[3][3] [4] [X]``): used for a whole
    hand, where it groups equal ranks for the eye and is where a narrow terminal
    may wrap the line, so a card is never cut in half.
    """
    packed = cards if isinstance(cards, int) else cards.packed
    out = Text()
    previous = None
    for rank in Cards(packed).ranks():
        if grouped and previous is not None and rank != previous:
            out.append(" ")
        out.append_text(card(rank))
        previous = rank
    if not out.plain and empty:
        out.append(empty, style="dim")
    return out


def combo_text(combo: Combo) -> Text:
    """Cards and the combination's name: ``[Q][Q][Q][5] Trio + 1``."""
    out = cards_text(combo.cards)
    out.append(f" {combo_name(combo)}", style="dim")
    if combo.wild:  # what the wild cards stand for (RULES §12.3)
        wild = RANK_CHARS[combo.wild_rank_hint()] * packed_size(combo.wild)
        out.append(" " + t("wild.stand_in", wild=wild, rank=format_packed(combo.wild)), style="dim")
    return out


def role_text(view_landlord: int | None, seat: int) -> Text:
    if view_landlord is None:
        return Text(t("play.role_unknown"), style="dim")
    if seat == view_landlord:
        return Text(t("play.role_landlord").upper(), style=LANDLORD_STYLE)
    return Text(t("play.role_farmer"))


def cards_count(n: int) -> str:
    return t("play.cards_count_one") if n == 1 else t("play.cards_count", n=n)


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else (f"−{-n}" if n < 0 else "0")


def game_cell(view: PlayerView) -> str:
    """«10 × ставка × множитель = стоимость», live (RULES §9)."""
    return game_cell_phrase(view).render()


def counter_line(view: PlayerView) -> Text:
    """For D, X, 2, A … 3: how many of that rank the player has not seen (RULES §9)."""
    unseen = view.not_seen()
    out = Text(f"{t('play.counter')}: ", style="bold")
    for i, rank in enumerate(COUNTER_ORDER):
        n = unseen.count(rank)
        if i:
            out.append(" ")
        out.append(RANK_CHARS[rank], style=CARD_STYLES.get(rank, ""))
        out.append(f":{n}", style="dim" if n == 0 else "")
    return out


def last_actions(view: PlayerView) -> dict[int, Turn]:
    """Each seat's action in the current round (the last turn of each seat among the last three)."""
    found: dict[int, Turn] = {}
    for turn in view.history[-view.players :]:
        found[turn.seat] = turn
    return found


def _last_text(view: PlayerView, seat: int, last: dict[int, Turn]) -> Text:
    if view.landlord is None:
        said = last_said(view, seat)
        if said is None:
            return Text(t("play.last_none"), style="dim")
        return Text(said.render())
    turn = last.get(seat)
    if turn is None:
        return Text(t("play.last_none"), style="dim")
    if turn.play is None:
        return Text(t("play.last_pass"), style="dim")
    out = combo_text(turn.play)
    if view.table is not None and view.table_seat == seat and view.to_move == view.seat:
        out.append(f" {t('play.to_beat')}", style="bold")
    return out


def _seat_columns(grid: Table) -> None:
    """Name, role, card count, last play — the same widths in every grid, so rows line up."""
    grid.add_column(no_wrap=True, min_width=6)
    grid.add_column(no_wrap=True, min_width=10)
    grid.add_column(no_wrap=True, justify="right", min_width=8)
    grid.add_column()


#: Below this width the puzzle's position stacks each hand under its player's name (its goal inside the panel) and
#: the table puts each seat's last play under the seat: side by side, 40 columns left 5 or 6 for them ("[3][4…").
NARROW_PANEL = 60


class Narrowable:
    """A renderable drawn one way at ``NARROW_PANEL`` columns or more and another below (rich asks at print time)."""

    def __init__(self, wide: RenderableType, narrow: RenderableType, wide_from: int = NARROW_PANEL) -> None:
        # ``wide_from``: more columns when the wide form needs them — a panel's title, which rich cuts and never
        # wraps («Goal: win as the farmers in 6 plays — only one first mo» at 60 columns, round 15).
        self.wide, self.narrow, self.wide_from = wide, narrow, max(NARROW_PANEL, wide_from)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.wide if options.max_width >= self.wide_from else self.narrow


def numbered(rows: Sequence[Text]) -> Table:
    """Numbered rows («12. Title · id · level 3 · —») whose wrapped lines hang under their text, not their number.

    ``ddz learn`` on a 40-column terminal wrapped one lesson a paragraph back to the line's start, under «1.»
    (round 15); two columns — the number, right-aligned, and the rest — keep the numbers in a column of their own.
    """
    grid = Table.grid(padding=(0, 1, 0, 0))
    grid.add_column(justify="right", no_wrap=True)
    grid.add_column()
    for row in rows:
        head = NUMBERED.match(row.plain)
        if head is None:
            grid.add_row("", row)
        else:
            number = row[: head.end()]
            number.rstrip()  # in place
            grid.add_row(number, row[head.end():])
    return grid


@dataclass(frozen=True, slots=True)
class TableInfo:
    """What the table shows besides the learner's view."""

    deal: int
    level: str
    score: int
    scored: bool = True
    counter: bool = False


def _seats(view: PlayerView, seats: Sequence[int], last: dict[int, Turn]) -> Narrowable:
    """The seats' rows: name, role, count and last play side by side; narrow, the last play on a line below."""
    grid = Table.grid(padding=(0, 2))
    _seat_columns(grid)
    stacked: list[RenderableType] = []
    for seat in seats:
        cells = (Text(seat_name(seat, view.rules), style="bold"), role_text(view.landlord, seat),
                 cards_count(view.card_counts[seat]))
        grid.add_row(*cells, _last_text(view, seat, last))
        row = Table.grid(padding=(0, 2))
        _seat_columns(row)
        row.columns.pop()  # no last-play column: it has the line below
        row.add_row(*cells)
        stacked += [row, Text.assemble("  ", _last_text(view, seat, last))]
    return Narrowable(grid, Group(*stacked))


def table(view: PlayerView, info: TableInfo) -> Panel:
    """The whole table from the learner's seat (RULES §9)."""
    last = last_actions(view)
    grid = _seats(view, range(1, view.players), last)
    kitty = Text(f"{t('play.kitty')}: ", style="bold")
    if view.kitty is not None:
        kitty.append_text(cards_text(view.kitty))
    else:
        kitty.append(t("play.kitty_hidden"), style="dim")
    parts: list[RenderableType] = [Text(game_cell(view), style="bold"), grid, kitty]
    if view.rules.wild_rank >= 0:  # the wildcard game: the wild rank is public from the start (RULES §12.3)
        parts.insert(1, Text(t("wild.rank_line", rank="")).append_text(card(view.rules.wild_rank)))
    if view.shown is not None and view.landlord is not None and view.landlord != view.seat:
        # The open hand (RULES §12.2): the landlord's cards, as they are now.
        shown = Text(f"{t('variants.shown_line', seat=seat_name(view.landlord, view.rules), cards='')}", style="bold magenta")
        parts.append(shown.append_text(cards_text(view.shown)))
    if info.counter:
        parts.append(counter_line(view))
    me = _seats(view, (0,), last)
    parts += [Text(""), me, cards_text(view.hand, grouped=True), Text(t("play.legend"), style="dim")]
    level = t(f"play.level_{info.level}")
    title = (
        t("play.title", deal=info.deal, level=level, score=signed(info.score))
        if info.scored
        else t("play.title_replay", deal=info.deal, level=level)
    )
    return Panel(Group(*parts), title=title, title_align="left")


def open_table(hands: Sequence[Cards], landlord: int | None, kitty: Cards | None, header: str, rules: Rules) -> Panel:
    """All hands face up (``ddz replay`` and the final card)."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(no_wrap=True)
    grid.add_column(no_wrap=True)
    grid.add_column()
    for seat, hand in enumerate(hands):
        grid.add_row(Text(seat_name(seat, rules), style="bold"), role_text(landlord, seat), cards_text(hand, "—", grouped=True))
    parts: list[RenderableType] = [grid]
    if kitty is not None:
        line = Text(f"{t('play.kitty')}: ", style="bold")
        line.append_text(cards_text(kitty))
        parts.append(line)
    return Panel(Group(*parts), title=header, title_align="left")


#: The final card is a session event; the render functions take it as it is.
FinalInfo = FinalCard


def multiplier_items(info: FinalInfo) -> list[str]:
    """Every factor spelled out: bid, each bomb and rocket, spring or anti-spring."""
    return [phrase.render() for phrase in multiplier_phrases(info)]


def final_card(info: FinalInfo) -> Panel:
    """Who won, every multiplier, everyone's score change, the hands and kitty, the deal."""
    you_won = (info.landlord == 0) == info.landlord_won
    if info.landlord_won:
        who = t("play.winner_landlord", seat=seat_name(info.landlord, info.rules))
    else:
        farmers = [seat_name(s, info.rules) for s in range(len(info.hands)) if s != info.landlord]
        who = t("play.winner_farmers", seats=t("play.and").join(farmers))
    lines: list[RenderableType] = [Text(who, style="bold")]
    mult = Text(f"{t('play.multipliers')}: ", style="bold")
    mult.append(" · ".join(multiplier_items(info)))
    lines.append(mult)
    lines.append(Text(cost_phrase(info).render()))
    if not info.rules.is_classic:
        lines.append(Text(rules_phrase(info.rules).render(), style="bold"))
    score = Text(f"{t('play.score_changes')}: ", style="bold")
    score.append(" · ".join(f"{seat_name(s, info.rules)} {signed(d)}" for s, d in enumerate(info.deltas)))
    if not info.scored:
        score.append(f" {t('play.not_scored')}", style="dim")
    lines.append(score)
    lines.append(Text(t("play.running_score", score=signed(info.running_score))))
    lines.append(Text(""))
    grid = Table.grid(padding=(0, 2))
    grid.add_column(no_wrap=True)
    grid.add_column(no_wrap=True)
    grid.add_column()
    for seat, hand in enumerate(info.hands):
        grid.add_row(
            Text(seat_name(seat, info.rules), style="bold"),
            role_text(info.landlord, seat),
            cards_text(hand, t("play.empty_hand"), grouped=True),
        )
    lines.append(Text(f"{t('play.remaining')}:", style="bold"))
    lines.append(grid)
    kitty = Text(f"{t('play.kitty')}: ", style="bold")
    kitty.append_text(cards_text(info.kitty))
    lines.append(kitty)
    lines.append(Text(t("play.deal_line", deal=info.deal, hints=info.hints, undos=info.undos)))
    title = t("play.final_title_you_win") if you_won else t("play.final_title_you_lose")
    return Panel(Group(*lines), title=title, title_align="left", border_style="green" if you_won else "red")
