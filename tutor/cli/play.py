"""``ddz play``: a whole coached game against two bots, at an 80-column table.

The loop is small on purpose.  Bots act until it is the learner's turn; then
the game in progress is saved (so quitting or a crash loses at most the move
being typed), the table is drawn, and lines are read until the learner acts:

* cards → the status line of RULES §9 («Тройка + 1 · можно ходить», or why not);
  if they can be played, Enter (or ``y``/``play``) plays them; with several
  readings the learner picks a number;
* ``hint`` → the next suggestion, shown the same way (Enter plays it);
* ``pass``, ``undo`` (back to the learner's previous decision), ``counter``,
  ``help``, ``quit``.

After each play the coach may add one line; after the game comes the final
card, the review, and "this deal again (scored 0) / new deal / quit".
Input is read line by line from stdin, so tests drive a whole game with
click's ``CliRunner(input=...)``.
"""

from __future__ import annotations

import secrets
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import click
from rich.console import Console
from rich.text import Text

from tutor.bots import LEVELS, make_bot
from tutor.cli.errors import deal_number_type, handle_user_errors
from tutor.cli.help_text import TranslatedCommand, use_language
from tutor.cli.input import Command, Entry, parse_bid, parse_entry, selection_status
from tutor.cli.resume import CANCEL, choose_game
from tutor.cli.render import FinalInfo, TableInfo, combo_text, counter_line, final_card, seat_name, table
from tutor.coach import Coach
from tutor.coach.endgame import EndgameCheck
from tutor.coach.advice import Hint, hint_text
from tutor.coach.review import Moment
from tutor.coach.status import combo_name, describe, lower_first
from tutor.engine.combos import Combo, Kind
from tutor.engine.game import Game, Phase
from tutor.engine.record import GameRecord, replay
from tutor.engine.view import Turn
from tutor.files import shorten
from tutor.i18n import LANGUAGES, t
from tutor.store import Store
from tutor.store.games import FinishedGame, GameStore

HUMAN = 0
STATE_VERSION = 1
DEFAULT_LEVEL = "medium"
Reader = Callable[[str], "str | None"]


def stdin_reader(console: Console) -> Reader:
    """Print the prompt and read one line from stdin; None at end of input."""

    def read(prompt: str) -> str | None:
        console.print(Text(f"{prompt}: ", style="bold cyan"), end="")
        line = sys.stdin.readline()
        if not line:
            console.print()
            return None
        return line.rstrip("\n")

    return read


@dataclass
class Session:
    """One game at the table (bots, coach, counters, persistence)."""

    console: Console
    read: Reader
    games: GameStore | None
    level: str
    coach: Coach
    game: Game
    scored: bool = True
    counter: bool = False
    #: The finished game's id in the store (for "learn from your mistakes").
    game_id: int | None = None
    hints: int = 0
    undos: int = 0
    bots: dict[int, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        seed = self.deal_seed
        self.bots = {seat: make_bot(self.level, seed) for seat in (1, 2)}

    # ----------------------------------------------------------------- state
    @property
    def deal_seed(self) -> int:
        number = self.game.original_deal_number
        return 0 if number is None else number

    @property
    def deal(self) -> int:
        number = self.game.deal_number
        return 0 if number is None else number

    def state(self) -> dict[str, Any]:
        return {
            "version": STATE_VERSION,
            "record": self.game.record().to_dict(),
            "level": self.level,
            "coach": self.coach.enabled,
            "scored": self.scored,
            "hints": self.hints,
            "undos": self.undos,
            "moments": [[m.action_index, m.move, m.text] for m in self.coach.moments],
        }

    def save(self) -> None:
        if self.games is not None:
            self.games.save_current(self.state())

    def running_score(self) -> int:
        return self.games.running_score() if self.games is not None else 0

    def say(self, text: str | Text, style: str = "") -> None:
        self.console.print(text, style=style, highlight=False)

    def coach_says(self, text: str | None) -> None:
        if text:
            line = Text(f"{t('play.coach_prefix')}: ", style="bold green")
            line.append(text, style="green")
            self.console.print(line, highlight=False)

    def show_table(self) -> None:
        info = TableInfo(self.deal, self.level, self.running_score(), self.scored, self.counter)
        self.console.print(table(self.game.view(HUMAN), info))

    def human_moves_so_far(self) -> int:
        return sum(1 for turn in self.game.history if turn.seat == HUMAN)

    # ------------------------------------------------------------------ bots
    def bot_acts(self) -> None:
        game = self.game
        seat = game.to_move
        view = game.view(seat)
        bot = self.bots[seat]
        if game.phase is Phase.BIDDING:
            amount = bot.bid(view)
            self._bid(seat, amount)
            return
        move = bot.play(view)
        game.play(move)
        self._announce_play(seat, move)

    def _announce_play(self, seat: int, move: Combo | None) -> None:
        if move is None:
            self.say(Text(t("play.passes", seat=seat_name(seat)), style="dim"))
            return
        line = Text(f"{seat_name(seat)}: ", style="bold")
        line.append_text(combo_text(move))
        self.say(line)

    def _bid(self, seat: int, amount: int) -> None:
        game = self.game
        deal_before = game.deal_number
        game.make_bid(amount)
        name = seat_name(seat)
        self.say(t("play.bid_made", seat=name, bid=amount) if amount else t("play.bid_passed", seat=name))
        if game.phase is Phase.BIDDING and game.deal_number != deal_before:
            self.say(Text(t("play.redeal", deal=game.deal_number), style="bold"))
        elif game.phase is Phase.PLAYING:
            landlord = game.landlord
            assert landlord is not None and game.kitty is not None
            key = "play.landlord_is_you" if landlord == HUMAN else "play.landlord_is"
            line = Text(t(key, seat=seat_name(landlord), bid=game.bid, kitty=str(game.kitty)), style="bold")
            self.say(line)

    # ------------------------------------------------------------------ undo
    def undo(self) -> bool:
        """Back to the learner's previous decision (unlimited, free, counted)."""
        game = self.game
        if not any(_seat_of(a) == HUMAN for a in game.actions):
            self.say(t("play.undo_none"), style="yellow")
            return False
        while game.actions:
            last_seat = _seat_of(game.actions[-1])
            game.undo()
            if last_seat == HUMAN:
                break
        self.undos += 1
        self.coach.forget_from(len(game.actions))
        self.say(t("play.undo_done"), style="yellow")
        return True

    def toggle_counter(self) -> None:
        self.counter = not self.counter
        if self.games is not None:
            self.games.store.set_setting("counter", self.counter)
        self.say(t("play.counter_on") if self.counter else t("play.counter_off"))
        if self.counter:
            self.console.print(counter_line(self.game.view(HUMAN)))

    # --------------------------------------------------------------- bidding
    def human_bid(self) -> str:
        """One bidding decision; returns "done", "undo" or "quit"."""
        game = self.game
        hand = game.hand(HUMAN)
        status = self.coach.bid_status(hand)
        legal = game.legal_bids()
        choices = " / ".join(t("play.bid_choices_pass") if b == 0 else str(b) for b in legal)
        # Enter takes the status line's suggestion (a pass when it is no longer high enough).
        suggested = status.suggested if status.suggested in legal else 0
        default = t("play.bid_choices_pass") if suggested == 0 else str(suggested)
        self.show_table()
        self.say(Text(status.line, style="bold"))
        while True:
            line = self.read(t("play.bid_prompt", choices=choices, default=default))
            if line is None:
                return "quit"
            entry = parse_entry(line)
            if entry.command is Command.QUIT:
                return "quit"
            if entry.command is Command.HELP:
                self.say(t("play.help"))
                continue
            if entry.command is Command.HINT:
                self.hints += 1
                self.say(Text(status.line, style="bold"))
                continue
            if entry.command is Command.COUNTER:
                self.toggle_counter()
                continue
            if entry.command is Command.UNDO:
                if self.undo():
                    return "undo"
                continue
            amount = suggested if entry.command is Command.CONFIRM else parse_bid(line, legal)
            if amount is None:
                self.say(t("play.bid_bad", text=line.strip(), choices=choices), style="red")
                continue
            index = len(game.actions)
            self._bid(HUMAN, amount)
            self.coach_says(self.coach.after_bid(status, amount, index, 0))
            return "done"

    # ------------------------------------------------------------------ play
    def human_play(self) -> str:
        """One play decision; returns "done", "undo" or "quit"."""
        game = self.game
        view = game.view(HUMAN)
        landlord = game.landlord
        assert landlord is not None
        check = self.coach.before_move(game.hands, landlord, HUMAN, game.table, game.table_seat)
        self.show_table()
        if game.table is None:
            self.say(t("play.leading"))
        else:
            self.say(t("play.follow", table=lower_first(describe(game.table))))
        pending: list[Combo | None] = []
        hint_list: list[Hint] | None = None
        hint_next = 0
        hinted = False
        while True:
            prompt = t("play.move_prompt")
            if len(pending) == 1:
                prompt = t("play.confirm_prompt")
            elif len(pending) > 1:
                prompt = t("play.choose_prompt", first=1, last=len(pending))
            line = self.read(prompt)
            if line is None:
                return "quit"
            entry = parse_entry(line)
            command = entry.command
            if command is Command.CONFIRM:
                if pending:
                    return self._commit(view, pending[0], check, hinted)
                continue
            if command is Command.NUMBER and len(pending) > 1 and 1 <= entry.number <= len(pending):
                return self._commit(view, pending[entry.number - 1], check)
            if command is Command.QUIT:
                return "quit"
            if command is Command.HELP:
                self.say(t("play.help"))
                continue
            if command is Command.COUNTER:
                self.toggle_counter()
                continue
            if command is Command.UNDO:
                if self.undo():
                    return "undo"
                continue
            if command is Command.HINT:
                if hint_list is None:
                    hint_list = self.coach.hints(view)
                self.hints += 1
                if hint_next >= len(hint_list):
                    self.say(t("coach.hint_none"), style="yellow")
                    hint_next = 0
                hint = hint_list[hint_next]
                hint_next += 1
                self.say(Text(hint_text(hint_next, hint), style="bold"))
                pending = [hint.move]
                hinted = True
                continue
            if command is Command.PASS:
                status = selection_status(view.hand, view.table, entry)
                if status.ok:
                    return self._commit(view, None, check)
                self.say(status.line, style="red")
                pending = []
                continue
            # Cards (a lone digit is a card here unless it picks an option).
            status = selection_status(view.hand, view.table, Entry(Command.CARDS, entry.text))
            hinted = False
            self.say(Text(status.line, style="bold" if status.ok else "red"))
            pending = list(status.options) if status.ok else []
            if len(status.options) > 1:
                for n, option in enumerate(status.options, 1):
                    self.say(t("play.option", n=n, combo=f"{combo_name(option)} ({option.text})"))

    def _commit(self, view: Any, move: Combo | None, check: EndgameCheck | None, hinted: bool = False) -> str:
        """Play the move; the coach comments unless the move was its own suggestion."""
        index = len(self.game.actions)
        number = self.human_moves_so_far() + 1
        played = self.game.play(move)
        self._announce_play(HUMAN, played)
        if not hinted:
            self.coach_says(self.coach.after_move(view, played, check, index, number))
        return "done"

    # ------------------------------------------------------------------ game
    def run(self) -> str:
        """Play until the game ends (→ "over") or the learner quits (→ "quit")."""
        game = self.game
        while not game.is_over:
            if game.to_move != HUMAN:
                self.bot_acts()
                continue
            self.save()
            if game.phase is Phase.BIDDING:
                outcome = self.human_bid()
            else:
                outcome = self.human_play()
            if outcome == "quit":
                self.save()
                self.say(t("play.quit_saved"), style="bold")
                return "quit"
        return "over"

    def finish(self) -> None:
        """Score, store, and show the final card and the review."""
        game = self.game
        score = game.score()
        assert game.landlord is not None and game.kitty is not None and game.winner is not None
        you_won = HUMAN in game.winning_seats()
        bombs = tuple(
            turn.play for turn in game.history if turn.play is not None and turn.play.kind in (Kind.BOMB, Kind.ROCKET)
        )
        if self.games is not None:
            self.game_id = self.games.finish(
                FinishedGame(
                    deal=self.deal,
                    level=self.level,
                    role="landlord" if game.landlord == HUMAN else "farmer",
                    won=you_won,
                    bid=score.bid,
                    multiplier=score.multiplier,
                    cost=score.cost,
                    delta=score.deltas[HUMAN],
                    scored=self.scored,
                    hints=self.hints,
                    undos=self.undos,
                    record=game.record().to_dict(),
                )
            )
            if self.coach.enabled and self.coach.judged_all:
                from tutor.cli.mistakes import save_game_verdicts

                save_game_verdicts(self.games.store, self.game_id, self.coach.verdicts)
        deltas = score.deltas if self.scored else tuple(0 for _ in score.deltas)
        info = FinalInfo(
            deal=self.deal,
            landlord=game.landlord,
            landlord_won=score.landlord_won,
            bid=score.bid,
            bombs=bombs,
            spring=score.spring,
            anti_spring=score.anti_spring,
            base=score.base,
            multiplier=score.multiplier,
            cost=score.cost,
            deltas=deltas,
            scored=self.scored,
            running_score=self.running_score(),
            hands=game.hands,
            kitty=game.kitty,
            hints=self.hints,
            undos=self.undos,
        )
        self.console.print(final_card(info))
        lines = self.coach.review(game.history, game.landlord, game.winner, self.hints, self.undos)
        self.say(Text(t("coach.review_title"), style="bold"))
        for line in lines:
            self.say(f"• {line}")


def _seat_of(action: tuple[int, int] | Turn) -> int:
    return action.seat if isinstance(action, Turn) else action[0]


def restore(state: dict[str, Any]) -> tuple[Game, dict[str, Any]]:
    """Rebuild a saved game in progress (raises ValueError when it cannot be read)."""
    if state.get("version") != STATE_VERSION or "record" not in state:
        raise ValueError(f"saved game has an unknown format (version {state.get('version')!r})")
    game = replay(GameRecord.from_dict(state["record"]))
    return game, state


def _unresumable(state: dict[str, Any]) -> str:
    """Why a saved game cannot be resumed ("" when it can)."""
    try:
        game, _ = restore(state)
        int(state.get("hints", 0)), int(state.get("undos", 0))
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
        return shorten(str(error) or type(error).__name__, 60)
    return "" if game is not None else "?"


def new_deal_number() -> int:
    """A fresh deal for "new deal" (any number is a valid, reproducible deal: RULES §2)."""
    return secrets.randbelow(1_000_000)


@click.command("play", cls=TranslatedCommand)
@click.option("--level", type=click.Choice(LEVELS), default=None)
@click.option("--deal", "deal_number", type=deal_number_type(), default=None)
@click.option("--coach/--no-coach", default=None)
@click.option("--lang", type=click.Choice(LANGUAGES), default=None)
@click.option("--resume", is_flag=True)
@handle_user_errors
def play_command(
    level: str | None, deal_number: int | None, coach: bool | None, lang: str | None, resume: bool
) -> None:
    # Help text: help.play.  Options given are remembered in the store for the next game.
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
        counter = bool(store.get_setting("counter", False))
        read = stdin_reader(console)

        session: Session | None = None
        # Unfinished games are never dropped silently: resume, abandon (a loss) or cancel.
        saved = choose_game(console, read, games, resume, _unresumable)
        if saved == CANCEL:
            return
        if isinstance(saved, dict):
            game, state = restore(saved)
            session = Session(
                console,
                read,
                games,
                state.get("level", level_name) if level is None else level_name,
                _make_coach(bool(state.get("coach", True)) if coach is None else coach_on, state),
                game,
                scored=bool(state.get("scored", True)),
                counter=counter,
                hints=int(state.get("hints", 0)),
                undos=int(state.get("undos", 0)),
            )
        if session is None:
            number = new_deal_number() if deal_number is None else deal_number
            session = Session(console, read, games, level_name, Coach(coach_on), Game(number), counter=counter)
        while True:
            if session.run() == "quit":
                return
            session.finish()
            choice = _again_or_new(read)
            while choice == "mistakes":
                if games is not None and session.game_id is not None:
                    from tutor.cli.mistakes import run_exercises

                    record = session.game.record()
                    run_exercises(console, read, games.store, session.game_id, record, session.deal, session.level)
                choice = _again_or_new(read)
            if choice == "again":
                number, scored = session.deal, False
            elif choice == "new":
                number, scored = new_deal_number(), True
            else:
                console.print(t("play.bye"))
                return
            session = Session(
                console, read, games, session.level, Coach(session.coach.enabled), Game(number),
                scored=scored, counter=session.counter,
            )


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


def _make_coach(enabled: bool, state: dict[str, Any]) -> Coach:
    coach = Coach(enabled)
    coach.judged_all = False  # the moves before the save were judged by another run
    for item in state.get("moments", []):
        try:
            index, move, text = item
            coach.moments.append(Moment(int(index), int(move), str(text)))
        except (TypeError, ValueError):
            continue
    return coach


COMMANDS = [play_command]
