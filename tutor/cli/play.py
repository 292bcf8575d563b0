"""``ddz play``: the terminal adapter of :class:`tutor.sessions.game.GameSession`.

Everything that is game flow (bots, undo, hints, autosave, scoring, what is
stored) is the session's; this module reads lines, turns them into session
actions and renders the events it gets back at an 80-column table:

* cards → the status line of RULES §9 («Тройка + 1 · можно ходить», or why not);
  if they can be played, Enter (or ``y``/``play``) plays them; with several
  readings the learner picks a number;
* ``hint`` → the next suggestion, shown the same way (Enter plays it);
* ``pass``, ``undo`` (back to the learner's previous decision), ``counter``,
  ``help``, ``quit``.

Input is read line by line from stdin, so tests drive a whole game with
click's ``CliRunner(input=...)``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import click
from rich.console import Console
from rich.text import Text

from tutor.bots import LEVELS
from tutor.cli.errors import UserError, deal_number_type, handle_user_errors
from tutor.cli.help_text import TranslatedCommand, use_language
from tutor.cli.input import Command, Reader, parse_bid, parse_entry, stdin_reader
from tutor.cli.resume import CANCEL, choose_game
from tutor.cli.render import TableInfo, combo_text, counter_line, final_card, table
from tutor.coach.seats import seat_name
from tutor.coach.status import combo_name
from tutor.engine.auction import CALL
from tutor.engine.rules import AUCTIONS, SEAT_COUNTS, Rules, variant
from tutor.files import shorten
from tutor.i18n import LANGUAGES, Phrase, t
from tutor.sessions import events as ev
from tutor.sessions.game import DEFAULT_LEVEL, GameSession, Waiting
from tutor.store import Store
from tutor.store.games import GameStore

TONE_STYLES = {ev.Tone.PLAIN: "", ev.Tone.STRONG: "bold", ev.Tone.QUIET: "dim", ev.Tone.WARNING: "yellow", ev.Tone.ERROR: "red"}


def render_event(console: Console, event: ev.Event) -> None:
    """One session event as terminal output, in the current language."""

    def say(text: str | Text, style: str = "") -> None:
        console.print(text, style=style, highlight=False)

    if isinstance(event, ev.Say):
        say(Text(event.phrase.render(), style=TONE_STYLES[event.tone]))
    elif isinstance(event, ev.StatusLine):
        say(Text(event.render(), style="bold" if event.ok else "red"))
    elif isinstance(event, ev.BidMade):
        say(event.phrase().render())
    elif isinstance(event, ev.Redealt):
        say(Text(t("play.redeal", deal=event.deal), style="bold"))
    elif isinstance(event, ev.LandlordChosen):
        say(Text(event.phrase().render(), style="bold"))
    elif isinstance(event, ev.HandShown):
        say(Text(event.phrase().render(), style="bold magenta"))
    elif isinstance(event, ev.Played):
        if event.move is None:
            say(Text(t("play.passes", seat=seat_name(event.seat, event.rules)), style="dim"))
        else:
            say(Text(f"{seat_name(event.seat, event.rules)}: ", style="bold").append_text(combo_text(event.move)))
    elif isinstance(event, ev.TableShown):
        info = TableInfo(event.deal, event.level, event.running_score, event.scored, event.counter)
        console.print(table(event.view, info))
    elif isinstance(event, ev.CounterShown):
        console.print(counter_line(event.view))
    elif isinstance(event, ev.Options):
        for n, option in enumerate(event.options, 1):
            say(t("play.option", n=n, combo=f"{combo_name(option)} ({option.text})"))
    elif isinstance(event, ev.HintShown):
        _render_hint(say, event)
    elif isinstance(event, ev.Remark):
        line = Text(f"{t('play.coach_prefix')}: ", style="bold green")
        say(line.append(event.phrase.render(), style="green"))
    elif isinstance(event, ev.FinalCard):
        console.print(final_card(event))
    elif isinstance(event, ev.Review):
        say(Text(t("coach.review_title"), style="bold"))
        for phrase in event.lines:
            say(f"• {phrase.render()}")


def _render_hint(say: Callable[..., None], event: ev.HintShown) -> None:
    if event.wrapped:
        say(t("coach.hint_none"), "yellow")
    say(Text(event.phrase.render(), style="bold"))


def render(console: Console, events: Sequence[ev.Event]) -> None:
    for event in events:
        render_event(console, event)


def _bid_word(code: int, rules: Rules) -> str:
    """How a bid is typed: ``pass``/``1``/``2``/``3``, or ``pass``/``call``/``rob`` (RULES §12.1)."""
    if code == 0:
        return t("play.bid_choices_pass")
    if rules.robs:
        return "call" if code == CALL else "rob"
    return str(code)


def _bid_choices(session: GameSession, codes: Sequence[int]) -> str:
    return " / ".join(_bid_word(b, session.rules) for b in codes)


def _prompt_text(session: GameSession) -> str:
    prompt = session.prompt()
    if prompt.kind == "bid":
        choices = _bid_choices(session, prompt.choices)
        default = _bid_word(prompt.default, session.rules)
        key = "variants.rob_prompt" if session.rules.robs else "play.bid_prompt"
        return t(key, choices=choices, default=default)
    if prompt.kind == "confirm":
        return t("play.confirm_prompt")
    if prompt.kind == "choose":
        return t("play.choose_prompt", first=1, last=prompt.last)
    return t("play.move_prompt")


def act(session: GameSession, line: str) -> list[ev.Event]:
    """One line of input → the session action it names → the events."""
    entry = parse_entry(line)
    command = entry.command
    common = {
        Command.QUIT: session.stop,
        Command.HELP: session.help,
        Command.HINT: session.hint,
        Command.COUNTER: session.toggle_counter,
        Command.UNDO: session.undo,
        Command.CONFIRM: session.confirm,
    }
    if command in common:
        return common[command]()
    if command is Command.OPEN and session.waiting_for is Waiting.PLAY:
        if not session.can_show_hand:
            return [ev.Say(Phrase("variants.open_not_now"), ev.Tone.ERROR)]
        return session.show_hand()
    if session.waiting_for is Waiting.BID:
        amount = parse_bid(line, session.legal_bids, session.rules)
        if amount is None:
            choices = _bid_choices(session, session.legal_bids)
            return [ev.Say(Phrase("play.bid_bad", {"text": line.strip()[:40], "choices": choices}), ev.Tone.ERROR)]
        return session.bid(amount)
    if command is Command.NUMBER and session.prompt().kind == "choose" and 1 <= entry.number <= session.prompt().last:
        return session.choose(entry.number)
    if command is Command.PASS:
        return session.pass_()
    return session.select(entry.text)  # cards (a lone digit is a card unless it picks an option)


def run(console: Console, read: Reader, session: GameSession) -> Waiting:
    """Drive ``session`` until the game is over or the learner quits."""
    render(console, session.start())
    while session.waiting_for in (Waiting.BID, Waiting.PLAY):
        line = read(_prompt_text(session))
        render(console, session.stop() if line is None else act(session, line))
    return session.waiting_for


@click.command("play", cls=TranslatedCommand)
@click.option("--level", type=click.Choice(LEVELS), default=None)
@click.option("--deal", "deal_number", type=deal_number_type(), default=None)
@click.option("--coach/--no-coach", default=None)
@click.option("--lang", type=click.Choice(LANGUAGES), default=None)
@click.option("--resume", is_flag=True)
@click.option("--auction", type=click.Choice(AUCTIONS), default=None)
@click.option("--open-hand/--no-open-hand", "open_hand", default=None)
@click.option("--wildcard/--no-wildcard", "wildcard", default=None)
@click.option("--players", type=click.Choice(["3", "4"]), default=None)
@handle_user_errors
def play_command(
    level: str | None,
    deal_number: int | None,
    coach: bool | None,
    lang: str | None,
    resume: bool,
    auction: str | None,
    open_hand: bool | None,
    wildcard: bool | None,
    players: str | None = None,
) -> None:
    # Help text: help.play.  ev.Options given are remembered in the store for the next game.
    console = Console(highlight=False)
    with Store.open() as store:
        games = GameStore(store)
        if lang is not None:
            store.set_setting("lang", lang)
        use_language(store.get_setting("lang", None), given=lang)
        if level is not None:
            store.set_setting("level", level)
        if coach is not None:
            store.set_setting("coach", coach)
        level_name = level or store.get_setting("level", DEFAULT_LEVEL)
        if level_name not in LEVELS:
            level_name = DEFAULT_LEVEL
        coach_on = store.get_setting("coach", True) if coach is None else coach
        rules = chosen_rules(store, auction, open_hand, wildcard, None if players is None else int(players))
        counter = bool(store.get_setting("counter", False))
        read = stdin_reader(console)

        session: GameSession | None = None
        # Unfinished games are never dropped silently: resume, abandon (a loss) or cancel.
        saved = choose_game(console, read, games, resume, _unresumable)
        if saved == CANCEL:
            return
        if isinstance(saved, dict):
            session = GameSession.restore(
                saved, games, level=None if level is None else level_name, coach=coach, counter=counter
            )
        if session is None:
            session = GameSession.new(deal_number, level_name, bool(coach_on), games, counter=counter, rules=rules)
        session.scan_after = True  # the finished game's personal puzzles are looked for in the background
        unsaid: list[int] = []  # finished games whose scan has not been reported yet
        while True:
            if run(console, read, session) is Waiting.QUIT:
                return
            if session.final is not None and session.final.game_id is not None:
                unsaid.append(session.final.game_id)
            choice = _again_or_new(read)
            while choice == "mistakes":  # learn from your mistakes, then the same question again
                final = session.final
                if final is not None and final.game_id is not None:
                    from tutor.cli.mistakes import run_exercises

                    run_exercises(console, read, store, final.game_id, session.game_record(), session.deal,
                                  session.level)  # fmt: skip
                choice = _again_or_new(read)
            leaving = choice not in ("again", "new")
            from tutor.cli.puzzle import mention_personal  # a missed proven win becomes a puzzle

            # said once the scan is done: at once when leaving (a bounded wait), else at the next chance
            unsaid = [game for game in unsaid if not mention_personal(console, store, game, wait=leaving)]
            if choice == "again":
                session = session.again()
            elif choice == "new":
                session = session.new_deal()
            else:
                console.print(t("play.bye"))
                return


def chosen_rules(
    store: Store, auction: str | None, open_hand: bool | None, wildcard: bool | None = None,
    players: int | None = None,
) -> Rules:
    """The rule set of the next game: the options given (remembered as settings), else the saved ones."""
    if auction is not None:
        store.set_setting("auction", auction)
    if open_hand is not None:
        store.set_setting("open_hand", open_hand)
    if wildcard and players == 4:
        raise UserError(t("four.no_wildcard"))
    # The wildcard game is a three-player game (RULES §12.3 deals one deck): the variant chosen now
    # switches the other off, so the remembered settings never ask for both.
    if wildcard:
        store.set_setting("players", 3)
    if players == 4:
        store.set_setting("wildcard", False)
    if wildcard is not None:
        store.set_setting("wildcard", wildcard)
    if players is not None:
        store.set_setting("players", players)
    saved_auction = store.get_setting("auction", "bid")
    saved_players = store.get_setting("players", 3)
    return variant(
        saved_auction if saved_auction in AUCTIONS else "bid",
        bool(store.get_setting("open_hand", False)),
        bool(store.get_setting("wildcard", False)) and saved_players != 4,
        saved_players if saved_players in SEAT_COUNTS else 3,
    )


def _unresumable(state: dict[str, Any]) -> str:
    """Why a saved game cannot be resumed ("" when it can)."""
    try:
        GameSession.restore(state)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
        return shorten(str(error) or type(error).__name__, 60)
    return ""


def _again_or_new(read: Reader) -> str:
    """Ask until the answer is "again", "new" or "quit" (end of input quits)."""
    while True:
        answer = read(t("play.again_prompt"))
        if answer is None:
            return "quit"
        choice = answer.strip().lower()
        if choice in ("a", "again", "а", "ещё", "еще"):
            return "again"
        if choice in ("n", "new", "н", "новая"):
            return "new"
        if choice in ("q", "quit", "exit", "в", "выход"):
            return "quit"
        if choice in ("m", "mistakes", "о", "ошибки"):
            return "mistakes"


COMMANDS = [play_command]
