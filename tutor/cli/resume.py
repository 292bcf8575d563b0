"""Choosing what to do with unfinished games when ``ddz play`` starts.

Every unfinished game is kept until the learner says otherwise: declining to
resume offers *resume*, *abandon* (recorded in the history as a loss at the
stake reached, like a resignation) or *cancel* (nothing changes; the game stays
saved).  Games open in another window are never offered: resuming one is
refused with one line ("this game is open in another window").

The decisions about games live in :mod:`tutor.store.games`; this module only
asks and prints, so the play flow can move (to ``tutor.sessions``) around it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Console

from tutor.files import ascii_int
from tutor.i18n import t
from tutor.store import GameBusyError
from tutor.store.games import GameStore, OpenGame, abandoned_result

#: The learner stops: nothing is played, every unfinished game stays saved.
CANCEL = "cancel"
#: No unfinished game (left) to resume: play a new one.
NEW = "new"

Reader = Callable[[str], "str | None"]
#: Why a saved state cannot be resumed ("" when it can).
Checker = Callable[[dict[str, Any]], str]

_YES = ("", "y", "yes", "д", "да")
_NO = ("n", "no", "н", "нет")
_QUIT = ("q", "quit", "exit", "в", "выход")


def choose_game(console: Console, read: Reader, games: GameStore, resume: bool, check: Checker) -> Any:
    """Ask about unfinished games; returns the claimed game's state, :data:`NEW` or :data:`CANCEL`.

    Raises:
        GameBusyError: ``--resume`` was asked and every unfinished game is open in another window.
    """
    while True:
        every = games.unfinished()
        free = [g for g in every if not g.busy]
        if not free:
            if resume and every:
                raise GameBusyError(t("store.game_busy"))
            if resume:
                console.print(t("play.no_saved_game"))
            return NEW
        problems = {g.id: _problem(g, check) for g in free}
        if len(free) > 1:
            console.print(t("play.unfinished_list", n=len(free)))
            for n, game in enumerate(free, 1):
                console.print(_line(n, game, problems[game.id]), highlight=False)
        if resume and len(free) == 1 and not problems[free[0].id]:
            return _claim(console, games, free[0])
        picked = _first_question(read, free, problems)
        if picked == CANCEL:
            console.print(t("play.kept_for_later"))
            return CANCEL
        if isinstance(picked, OpenGame):
            return _claim(console, games, picked)
        action, target = _decline(read, free, problems)
        if action == CANCEL:
            console.print(t("play.kept_for_later"))
            return CANCEL
        if action == "resume":
            return _claim(console, games, target)
        result = games.abandon(target.id)
        console.print(t("play.abandoned", deal=target.deal, delta=result.delta if result.scored else 0))
        resume = False


def _problem(game: OpenGame, check: Checker) -> str:
    if game.state is None:
        return game.problem
    try:
        return check(game.state)
    except Exception as error:  # noqa: BLE001 - any damage in a saved game makes it unresumable
        return type(error).__name__


def _line(n: int, game: OpenGame, problem: str) -> str:
    when = game.saved_at.replace("T", " ")[:16]
    text = t("play.unfinished_line", n=n, deal=game.deal, when=when, delta=_stake(game))
    return text + (f" — {t('play.unfinished_unreadable', why=problem)}" if problem else "")


def _claim(console: Console, games: GameStore, game: OpenGame) -> Any:
    state = games.claim(game.id)
    console.print(t("play.resumed", deal=game.deal), style="bold")
    return state


def _first_question(read: Reader, free: list[OpenGame], problems: dict[int, str]) -> OpenGame | str | None:
    """"Resume it?" (one game) or "Resume which?" (several); None when declined, CANCEL for quit."""
    if len(free) == 1:
        game = free[0]
        if problems[game.id]:
            return None
        while True:
            answer = read(t("play.resume_ask", deal=game.deal))
            if answer is None or answer.strip().lower() in _YES:
                return game
            if answer.strip().lower() in _NO:
                return None
            if answer.strip().lower() in _QUIT:
                return CANCEL
    while True:
        answer = read(t("play.resume_which", last=len(free)))
        if answer is None:
            answer = ""
        choice = answer.strip().lower()
        if choice in _NO:
            return None
        if choice in _QUIT:
            return CANCEL
        number = 1 if choice in ("", "y", "yes", "д", "да") else _number(choice, len(free))
        if number is not None and not problems[free[number - 1].id]:
            return free[number - 1]


def _decline(read: Reader, free: list[OpenGame], problems: dict[int, str]) -> tuple[str, OpenGame]:
    """Resume / abandon / cancel (several games: the action and a number)."""
    single = len(free) == 1
    if single:
        game = free[0]
        stake = _stake(game)
        key = "play.decline_unreadable" if problems[game.id] else "play.decline_one"
        prompt = t(key, delta=stake)
    else:
        prompt = t("play.decline_several", last=len(free))
    while True:
        answer = read(prompt)
        if answer is None:
            return CANCEL, free[0]
        words = answer.strip().lower().split()
        if not words:
            continue
        action = {"r": "resume", "resume": "resume", "п": "resume", "a": "abandon", "abandon": "abandon",
                  "б": "abandon", "c": CANCEL, "cancel": CANCEL, "о": CANCEL}.get(words[0])
        if action is None and words[0] in _QUIT:
            action = CANCEL
        if action is None:
            continue
        if action == CANCEL:
            return CANCEL, free[0]
        number = 1 if single else (_number(words[1], len(free)) if len(words) > 1 else None)
        if number is None:
            continue
        target = free[number - 1]
        if action == "resume" and problems[target.id]:
            continue
        return action, target


def _number(text: str, last: int) -> int | None:
    number = ascii_int(text, 6)
    return number if number is not None and 1 <= number <= last else None


def _stake(game: OpenGame) -> int:
    """What abandoning would cost (0 for an unscored replay of a deal)."""
    result = abandoned_result(game.state or {})
    return result.delta if result.scored else 0
