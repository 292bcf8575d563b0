"""The game routes: a thin adapter over :class:`tutor.sessions.game.GameSession`.

One game at a time, the same one the terminal resumes (the store's "game in
progress"): a game begun in the browser continues with ``ddz play --resume``
and the other way round.  When the stored game changed behind the server's
back (the terminal played on), the next request restores it from the store.

Each action maps to one session method; what comes back is the session's
events, rendered, plus the table as it stands.  Nothing here decides a rule.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from tutor.engine.auction import CALL
from tutor.engine.cards import rank_char
from tutor.engine.rules import variant
from tutor.i18n import Phrase, t
from tutor.sessions import events as ev
from tutor.sessions.game import GameSession, Waiting
from tutor.store import GameBusyError, Store
from tutor.store.games import GameStore
from tutor.web import render
from tutor.web.context import LEVELS, Context
from tutor.web.errors import ApiError, field_bool, field_deal, field_int, field_str, quoted, refuse
from tutor.web.holder import Slot


@dataclass
class Table:
    """The session, the store connection that holds its claim, and what a reloaded page must redraw.

    The game's store connection lives as long as the game and is used only on
    the game's own worker thread (SQLite connections belong to one thread):
    it holds the game's claim, so another window (``ddz play --resume``) is told
    the game is open here instead of playing it twice.
    """

    session: GameSession
    store: Store
    games: GameStore
    #: The line that opened the learner's turn (bidding status, "you lead", "beat … or pass").
    opening: ev.Say | None = None
    review: ev.Review | None = None
    #: The hint the page may play as the coach's own move (cards as text).
    hinted: str | None = None
    #: False in club mode: the store is the request's (:class:`tutor.web.club.LearnerContext`), closed by it.
    owns_store: bool = True
    #: Club mode: the key of this game's coach jobs and their answers (tutor/web/coachqueue.py).
    coach_key: str = ""

    def close(self) -> None:
        """Let go of the game (it stays unfinished in the store unless it ended) and its connection."""
        try:
            self.games.release()
        finally:
            if self.owns_store:
                self.store.close()


class ThinkClock:
    """The bots' thinking time in one request (club mode reports it apart: the ``Server-Timing`` header)."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.cpu_seconds = 0.0


class TimedBot:
    """A bot whose decisions are timed on a :class:`ThinkClock` (only for the request; never saved)."""

    DECISIONS = ("bid", "play", "show_hand")

    def __init__(self, bot: Any, clock: ThinkClock) -> None:
        self.bot = bot
        self.clock = clock

    def __getattr__(self, name: str) -> Any:
        found = getattr(self.bot, name)
        if name not in self.DECISIONS:
            return found

        def timed(*args: Any, **kwargs: Any) -> Any:
            started, cpu = time.perf_counter(), time.thread_time()
            try:
                return found(*args, **kwargs)
            finally:
                self.clock.seconds += time.perf_counter() - started
                self.clock.cpu_seconds += time.thread_time() - cpu

        return timed


def timed(session: GameSession, clock: ThinkClock | None) -> None:
    """Time the session's bots on ``clock`` (club mode) for the rest of the request."""
    if clock is not None:
        session.bots = {seat: bot if isinstance(bot, TimedBot) else TimedBot(bot, clock)
                        for seat, bot in session.bots.items()}


class GamePacking:
    """Club mode: the table leaves a request without its store connection and comes back with the next one's.

    The game keeps its row among the games in progress (so ``ddz store export`` and the history see it);
    each request claims that row again and lets it go at the end.  While a request acts the bots are timed.
    """

    def __init__(self, clock: ThinkClock | None = None) -> None:
        self.clock = clock or ThinkClock()

    def pack(self, table: Table) -> dict[str, Any]:
        table.session.bots = {seat: bot.bot if isinstance(bot, TimedBot) else bot for seat, bot in table.session.bots.items()}
        game_id = table.games.claimed
        table.games.release()
        table.session.games = None
        # The coach's evaluation of the turn is a cache that holds the solver's search (C state, closures):
        # it is recomputed when the next request needs it (the budget, not the cache, decides its figures).
        table.session.coach._evaluation = None
        table.session.coach._bid_evaluation = None
        return {"session": table.session, "game_id": game_id, "opening": table.opening,
                "review": table.review, "hinted": table.hinted, "coach_key": table.coach_key}

    def unpack(self, packed: dict[str, Any], store: Store) -> Table | None:
        session: GameSession = packed["session"]
        games = GameStore(store)
        if packed["game_id"] is not None and not session.is_over:
            try:
                games.claim(packed["game_id"])
            except GameBusyError:  # gone (recorded or abandoned elsewhere) or open elsewhere: sync() tells which
                return None
        session.games = games
        timed(session, self.clock)
        return Table(session, store, games, packed["opening"], packed["review"], packed["hinted"], owns_store=False,
                     coach_key=str(packed.get("coach_key") or ""))


def _note(table: Table, items: list[Any]) -> None:
    """Remember what a reload needs from the events just produced."""
    for index, item in enumerate(items):
        if isinstance(item, ev.TableShown):
            follow = items[index + 1] if index + 1 < len(items) else None
            table.opening = follow if isinstance(follow, ev.Say) else None
            table.hinted = None
        elif isinstance(item, ev.Review):
            table.review = item


def run(table: Table, action: Any) -> list[Any]:
    """Call ``action(session)``; a session's ValueError is the request's fault (422), a busy game 409."""
    try:
        items: list[Any] = action(table.session)
    except GameBusyError as error:
        raise ApiError(409, str(error)) from None
    except ValueError:  # an action the game does not wait for (the session's words are for developers)
        raise refuse(422 if table.session.waiting_for is not Waiting.OVER else 409,
                     f"err_waiting_{table.session.waiting_for.value}") from None
    _note(table, items)
    return items


def _seat(context: Context, slot: Slot[Table], session: GameSession, store: Store, games: GameStore) -> list[Any]:
    """Put ``session`` at the table (closing the one before) and let the bots act until the learner's turn."""
    if slot.session is not None:
        slot.session.close()
    timed(session, context.think_clock)
    session.scan_after = True  # its personal puzzles: looked for in the background (a club queues them)
    table = Table(session, store, games, owns_store=context.owns_game_store)
    if context.coach_queue is not None:  # club mode on PostgreSQL: the coach thinks on `ddz worker`s
        import secrets

        session.defer = True
        table.coach_key = secrets.token_hex(8)
    slot.session = table
    slot.rev += 1
    return run(table, lambda s: s.start())


# ------------------------------------------------------------------ the coach's jobs (club mode)
def deliver(context: Context, slot: Slot[Table]) -> list[Any]:
    """The answers of the game's pending coach jobs taken into it: the remarks (or the review) to say now."""
    table = slot.session
    if context.coach_queue is None or table is None or not table.session.pending:
        return []
    from tutor.store.coach_answers import CoachAnswers

    answers = CoachAnswers(context.game_store())
    items: list[Any] = table.session.take(answers.of_game(table.coach_key))
    shown = next((item for item in items if isinstance(item, ev.HintShown)), None)
    if shown is not None:  # the hints' job answered: the page may play the first as the coach's own move
        table.hinted = "pass" if shown.move is None else shown.move.text
    if any(isinstance(item, ev.Review) for item in items):
        answers.forget(table.coach_key)  # the review was the game's last job
    _note(table, items)
    return items


def dispatch(context: Context, slot: Slot[Table]) -> None:
    """Send the jobs the last action made to the coach's queue (each with the game's record so far)."""
    table = slot.session
    if context.coach_queue is None or table is None or not table.session.outbox:
        return
    from tutor.sessions.coachjobs import payload

    session = table.session
    record = session.game_record()
    learner = int(getattr(getattr(context, "user", None), "id", 0))
    for job in session.send():
        data = payload(job, record, session.level, hints=session.hints, undos=session.undos)
        data["sent_at"] = time.time()  # the queue's wait, as the workers measure it
        context.coach_queue.send(learner, table.coach_key, data)


def _open_games(context: Context) -> tuple[Store, GameStore]:
    store = context.game_store()
    return store, GameStore(store)


def _drop(context: Context, store: Store) -> None:
    """Close a store opened for a game that did not start (unless it is the request's, in club mode)."""
    if context.owns_game_store:
        store.close()


def sync(context: Context, slot: Slot[Table]) -> str | None:
    """With no game here yet, take up the latest unfinished game of the store (the terminal's too).

    Returns why it could not (another window has it open), else None.
    """
    if slot.session is not None:
        return None
    store, games = _open_games(context)
    try:
        waiting = games.unfinished()
        if not waiting:
            _drop(context, store)
            return None
        latest = waiting[-1]
        if latest.busy:
            _drop(context, store)
            return t("store.game_busy")
        state = games.claim(latest.id)
        settings = context.settings(store)
        session = GameSession.restore(state or {}, games, counter=bool(settings["counter"]))
    except GameBusyError as error:
        _drop(context, store)
        return str(error)
    except (ValueError, KeyError, TypeError, AttributeError, IndexError):
        games.release()
        _drop(context, store)
        return None  # unreadable: the terminal offers to abandon it; the page starts a new deal
    _seat(context, slot, session, store, games)
    return None


def start(context: Context, slot: Slot[Table], body: dict[str, Any]) -> list[Any]:
    """A new game: ``same`` replays the finished deal unscored, else ``deal``/``level`` (or the settings').

    A scored game still in progress is never dropped silently: without ``abandon``
    the request is refused (409); with it the game is recorded as abandoned (lost
    at its stake, as ``ddz play`` does).  An unscored replay is simply dropped:
    it was never on the record, so leaving it can cost nothing.
    """
    with context.store() as settings_store:
        settings = context.settings(settings_store)
    level = field_str(body, "level", settings["level"], limit=10)
    if level not in LEVELS:
        raise refuse(400, "err_level", value=quoted(level), choices=", ".join(LEVELS))
    same = field_bool(body, "same")
    abandon = field_bool(body, "abandon")
    deal = body.get("deal")
    if deal is not None:
        deal = field_deal(body, "deal")
    current = slot.session
    if same and (current is None or not current.session.is_over):
        raise refuse(409, "err_no_finished")
    if current is not None and not current.session.is_over:
        if not abandon and current.session.scored:
            raise ApiError(409, t("web.in_progress", deal=current.session.deal), {"in_progress": True})
        claimed = current.games.claimed
        if claimed is not None and not current.session.scored:
            # an unscored replay ("Same deal") left unfinished is no game of the record: nothing won
            # or lost, so it is dropped rather than filed as a loss in the history and the stats
            try:
                current.games.discard(claimed)
            except GameBusyError as error:
                raise ApiError(409, str(error)) from None
        elif claimed is not None:
            try:
                current.games.abandon(claimed)
            except GameBusyError as error:
                raise ApiError(409, str(error)) from None
    store, games = _open_games(context)
    try:
        if same:
            assert current is not None
            session = current.session.again()
            session.games = games
        else:
            session = GameSession.new(deal, level, bool(settings["coach"]), games,
                                      counter=bool(settings["counter"]),
                                      rules=variant(settings["auction"], bool(settings["open_hand"]),
                                                    bool(settings["wildcard"]) and settings["players"] != 4,
                                                    settings["players"]))
    except BaseException:
        _drop(context, store)
        raise
    return _seat(context, slot, session, store, games)


def open_deal(context: Context, slot: Slot[Table], body: dict[str, Any]) -> list[Any]:
    """``/play?deal=N``: resume the game in progress when it is on that deal, else start it."""
    deal = field_deal(body, "deal")
    table = slot.session
    if table is not None and not table.session.is_over and table.session.deal_seed == deal:
        return []
    return start(context, slot, body)


def _cards_text(body: dict[str, Any]) -> str:
    return field_str(body, "cards", limit=80)


def select(session: GameSession, body: dict[str, Any]) -> list[Any]:
    text = _cards_text(body)
    if not text.strip():
        return []
    return session.select(text)


def play(table: Table, body: dict[str, Any]) -> list[Any]:
    """Play the raised cards: the coach's own hint as it stands, else what the cards read as.

    When the cards read several ways the session offers the choice (no move is
    made); ``n`` picks one of those readings.
    """
    session = table.session
    text = _cards_text(body)
    number = body.get("n")
    if number is not None:
        number = field_int(body, "n", low=1, high=64)
    if table.hinted is not None and text == table.hinted and number is None:
        return session.confirm()
    table.hinted = None
    items = session.select(text)
    status = next((item for item in items if isinstance(item, ev.StatusLine)), None)
    if status is None or not status.ok:
        raise ApiError(422, render.page_cards(status.render()) if status else t("web.status_empty"), {"events": render.events(items)})
    options = next((item for item in items if isinstance(item, ev.Options)), None)
    if options is None:
        # the selection's status ("Bomb · can be played") is about cards that are now on the table:
        # the page's status line shows the line that opens the next turn instead
        return [item for item in items if not isinstance(item, ev.StatusLine)] + session.confirm()
    if number is None:
        return items
    if number > len(options.options):
        raise refuse(400, "err_reading", n=number)
    return session.choose(number)


def hint(table: Table) -> list[Any]:
    items = table.session.hint()
    shown = next((item for item in items if isinstance(item, ev.HintShown)), None)
    if shown is not None:
        table.hinted = "pass" if shown.move is None else shown.move.text
    return items


def bid(session: GameSession, body: dict[str, Any]) -> list[Any]:
    amount = field_int(body, "bid", high=3)
    if session.waiting_for is not Waiting.BID:
        raise refuse(409, "err_auction_over")
    if amount not in session.legal_bids:
        allowed = ", ".join(_bid_label(session, b) for b in session.legal_bids)
        raise refuse(422, "err_bid", bid=amount, allowed=allowed)
    return session.bid(amount)


def _bid_label(session: GameSession, code: int) -> str:
    """A bid button's words: «Bid 2» / «Pass», or «Call» / «Rob» in a rob auction (RULES §12.1)."""
    if code == 0:
        return t("web.pass")
    if session.rules.robs:
        return t("variants.web_call") if code == CALL else t("variants.web_rob")
    return t("web.bid", n=code)


def show_hand(session: GameSession) -> list[Any]:
    """The learner, as landlord before the first play, shows the hand (RULES §12.2)."""
    if not session.can_show_hand:
        raise ApiError(409, Phrase("variants.err_open"))
    return session.show_hand()


def state(context: Context, slot: Slot[Table], busy: str | None = None) -> dict[str, Any]:
    """The table as it stands, in the current language (also what a reloaded page draws)."""
    table = slot.session
    with context.store() as store:
        settings = context.settings(store)
    if table is None:
        return {"rev": slot.rev, "game": None, "level": settings["level"], "busy": busy}
    session = table.session
    waiting = session.waiting_for
    view = session.view()
    out: dict[str, Any] = {
        "rev": slot.rev,
        "game": {
            "deal": str(session.deal),  # deal numbers travel as strings: a JSON number loses digits over 2**53
            "deal_seed": str(session.deal_seed),
            "level": session.level,
            "level_text": t(f"play.level_{session.level}"),
            "scored": session.scored,
            "coach": session.coach.enabled,
            "waiting": waiting.value,
            "your_turn": waiting in (Waiting.BID, Waiting.PLAY) and view.to_move == 0,
            "title": t("play.title", deal=session.deal, level=t(f"play.level_{session.level}"),
                              score=render.signed(table.games.running_score()))
            if session.scored else t("play.title_replay", deal=session.deal,
                                            level=t(f"play.level_{session.level}")),
            "hints": session.hints,
            "undos": session.undos,
            # club mode: the coach's answers still to come (the page asks again until they are in)
            "coach_pending": session.waiting_for_coach,
        },
    }
    if session.waiting_for_coach and table.coach_key:  # what the page's cheap wait names (/api/game/coach)
        out["game"]["coach_wait"] = {"key": table.coach_key, "jobs": session.pending_ids()}
    game = out["game"]
    game.update(render.table(view, bool(settings["counter"])))
    game["counter_on"] = bool(settings["counter"])  # the table's own toggle shows it (the same setting as Settings)
    game["opening"] = render.event(table.opening) if table.opening else None
    if waiting is Waiting.BID:
        prompt = session.prompt()
        game["bids"] = {"legal": list(prompt.choices), "suggested": prompt.default,
                        "auction": session.rules.auction,
                        "labels": {str(b): _bid_label(session, b) for b in prompt.choices}}
    game["players"] = view.players  # the table lays out three opponents for four (RULES §12.4)
    game["kitty_size"] = view.rules.kitty_size
    game["can_open"] = session.can_show_hand
    game["wild_rank"] = rank_char(view.rules.wild_rank) if view.rules.wild_rank >= 0 else None  # RULES §12.3
    game["can_pass"] = waiting is Waiting.PLAY and view.table is not None
    game["can_undo"] = waiting in (Waiting.BID, Waiting.PLAY)
    game["final"] = render.final_card(session.final) if session.final is not None else None
    game["review"] = render.event(table.review) if table.review is not None and session.final else None
    return out
