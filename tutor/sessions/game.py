"""A coached game against two bots, headless: actions in, events out.

:class:`GameSession` owns everything that is game flow rather than terminal
I/O: seating the bots, the auction (with the suggested bid), the learner's
pending selection and the choice between readings, hint cycling (and the coach
staying quiet about a hinted move), undo back to the learner's previous
decision, the card counter, autosave after every decision, quit and resume,
finishing (score, what is stored, zero for an unscored replay of a deal), the
review, and "this deal again" / "new deal".

Every method returns a list of :mod:`tutor.sessions.events`; nothing is
printed and no language is chosen here, so the terminal and a web page are
two thin adapters over the same session.  Example (also in ``docs/api.md``)::

    session = GameSession.new(42, level="easy", rules=STANDARD)
    events = session.start()
    while not session.is_over:
        if session.waiting_for is Waiting.BID:
            events = session.bid(session.suggested_bid)
        else:
            events = session.hint() + session.confirm()
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import TYPE_CHECKING, Any

from tutor.bots.base import auction_choice
from tutor.coach import Coach
from tutor.coach.advice import hint_phrase
from tutor.coach.status import BidStatus, describe_phrase
from tutor.engine.actions import Open, Play, auction_code
from tutor.engine.auction import CALL, ROB, IllegalBidError
from tutor.engine.combos import Combo
from tutor.engine.game import Game, Phase, replay
from tutor.engine.record import GameRecord, ShowHand
from tutor.engine.rules import Rules
from tutor.engine.trick import Turn
from tutor.i18n import Phrase
from tutor.sessions.events import (
    BidMade,
    CounterShown,
    Event,
    FinalCard,
    HandShown,
    HintShown,
    LandlordChosen,
    Options,
    Played,
    Redealt,
    Remark,
    Review,
    Say,
    StatusLine,
    TableShown,
    Tone,
)

if TYPE_CHECKING:
    from tutor.coach.advice import Hint
    from tutor.coach.endgame import EndgameCheck
    from tutor.sessions.coachjobs import CoachJob
    from tutor.store.games import GameStore

HUMAN = 0
#: 2: the coach's verdicts and open-hand facts are saved with the game (older saves are migrated by the store).
STATE_VERSION = 2
DEFAULT_LEVEL = "medium"


class Waiting(Enum):
    """What the session waits for."""

    BID = "bid"
    PLAY = "play"
    OVER = "over"
    QUIT = "quit"


@dataclass(frozen=True, slots=True)
class Prompt:
    """What the learner is asked now (a front end words it).

    ``kind``: ``bid`` (``choices``, ``default``), ``move``, ``confirm`` (Enter
    plays the pending move) or ``choose`` (a number 1..``last``).
    """

    kind: str
    choices: tuple[int, ...] = ()
    default: int = 0
    last: int = 0


def new_deal_number() -> int:
    """A fresh deal for "new deal" (any number is a valid, reproducible deal: RULES §2)."""
    return secrets.randbelow(1_000_000)


@dataclass
class _Turn:
    """The learner's decision in progress (reset at every new turn)."""

    status: BidStatus | None = None
    check: EndgameCheck | None = None
    pending: list[Combo | None] = field(default_factory=list)
    hints: list[Hint] | None = None
    hint_next: int = 0
    hinted: bool = False
    #: During the auction: the bid hints (bid, line), best first, and the bid the last hint named.
    bid_hints: list[tuple[int, Phrase]] | None = None
    bid_pending: int | None = None
    #: At the landlord's first lead under the open hand (RULES §12.2): its hints (choice, line), the next
    #: one to give, and the choice the last one named (1 = show, 0 = keep closed; the coach is quiet on it).
    open_hints: list[tuple[int, Phrase]] | None = None
    open_next: int = 0
    open_hinted: int | None = None
    #: Club mode: the best bid by expected score, once the status job answered.
    bid_suggested: int | None = None
    #: Club mode: the hints' moves and lines, once their job answered; whether that job was sent.
    hint_lines: list[tuple[Combo | None, Phrase]] | None = None
    hint_asked: bool = False
    #: Club mode: a bid hint asked for before the status job brought the bids' hints (shown when it does).
    bid_asked: bool = False
    #: Club mode: the open-hand hints' job was sent; it came back without them (the hint is then worked out here).
    open_asked: bool = False
    open_failed: bool = False


class GameSession:
    """One coached game at the table (bots, coach, counter, persistence).

    With :attr:`defer` on (club mode) the coach's thinking leaves the play: the verdicts, the auction's
    expected-score line and the review become :class:`~tutor.sessions.coachjobs.CoachJob` s in
    :attr:`outbox` (a front end sends them to the workers) and come back through :meth:`take`.

    Args:
        game: the game (built by :meth:`new` or :meth:`restore`; front ends never build one).
        level: the bots' level.
        coach: the coach (remarks on or off, remarks so far).
        games: where to autosave and store the finished game (None: nothing stored).
        scored: False for "this deal again" (the result counts 0).
    """

    def __init__(
        self,
        game: Game,
        level: str = DEFAULT_LEVEL,
        coach: Coach | None = None,
        games: GameStore | None = None,
        *,
        scored: bool = True,
        counter: bool = False,
        hints: int = 0,
        undos: int = 0,
    ) -> None:
        from tutor.bots import make_bot

        self._game = game
        self.level = level
        self.coach = coach if coach is not None else Coach(True, rules=game.rules)
        self.games = games
        self.scored = scored
        self.counter = counter
        self.hints = hints
        self.undos = undos
        self.quit = False
        self.final: FinalCard | None = None
        #: Scan the finished game for personal puzzles in the background (:mod:`tutor.sessions.scans`):
        #: the front ends of a single learner turn it on; a club queues the scan as its own job.
        self.scan_after = False
        self._turn = _Turn()
        seed = self.deal_seed
        self.bots = {seat: make_bot(level, seed) for seat in range(1, game.players)}
        #: Jobs made by the last actions, not yet sent; jobs sent and not yet answered (by id).
        self.outbox: list[CoachJob] = []
        self.pending: dict[str, CoachJob] = {}
        #: The verdict jobs answered so far (id: action index): the review waits for them too.
        self.judged: dict[str, int] = {}
        # The coach predicts the rest of an auction with these bots' own bid policy.
        self.coach.bid_budget = replace(self.coach.bid_budget, bidder=level)

    #: Club mode: the coach's verdicts and review are jobs (:mod:`tutor.sessions.coachjobs`), not done inline.
    defer = False

    # ------------------------------------------------------------- building
    @classmethod
    def new(
        cls,
        deal_number: int | None = None,
        level: str = DEFAULT_LEVEL,
        coach: bool = True,
        games: GameStore | None = None,
        *,
        scored: bool = True,
        counter: bool = False,
        rules: Rules,
    ) -> GameSession:
        """A new game from ``deal_number`` (a random deal when None), under ``rules`` (RULES §12)."""
        number = new_deal_number() if deal_number is None else deal_number
        game = Game(number, rules)
        return cls(game, level, Coach(coach, rules=game.rules), games, scored=scored, counter=counter)

    @classmethod
    def restore(
        cls,
        state: dict[str, Any],
        games: GameStore | None = None,
        *,
        level: str | None = None,
        coach: bool | None = None,
        counter: bool = False,
    ) -> GameSession:
        """Rebuild a saved game in progress (:meth:`state`); ValueError when it cannot be read.

        ``level`` and ``coach`` override the saved ones when given.
        """
        if state.get("version") != STATE_VERSION or "record" not in state:
            raise ValueError(f"saved game has an unknown format (version {state.get('version')!r})")
        game = replay(GameRecord.from_dict(state["record"]))
        the_coach = Coach(bool(state.get("coach", True)) if coach is None else coach, rules=game.rules)
        # The verdicts made before the save come back as they were: nothing is judged twice.
        the_coach.load_data(state)
        return cls(
            game,
            str(state.get("level", DEFAULT_LEVEL)) if level is None else level,
            the_coach,
            games,
            scored=bool(state.get("scored", True)),
            counter=counter,
            hints=int(state.get("hints", 0)),
            undos=int(state.get("undos", 0)),
        )

    def again(self) -> GameSession:
        """The same deal once more, unscored (RULES §7: a replayed deal counts 0)."""
        session = GameSession.new(
            self.deal, self.level, self.coach.enabled, self.games, scored=False, counter=self.counter,
            rules=self.rules,
        )
        session.scan_after = self.scan_after
        return session

    def new_deal(self, deal_number: int | None = None) -> GameSession:
        """A fresh, scored deal with the same level, coach and counter."""
        session = GameSession.new(
            deal_number, self.level, self.coach.enabled, self.games, counter=self.counter, rules=self.rules
        )
        session.scan_after = self.scan_after
        return session

    # --------------------------------------------------------------- state
    @property
    def rules(self) -> Rules:
        """The rule set of this game (RULES §12): the auction and the open hand."""
        return self._game.rules

    @property
    def deal_seed(self) -> int:
        number = self._game.original_deal_number
        return 0 if number is None else number

    @property
    def deal(self) -> int:
        """The current deal number (after redeals)."""
        number = self._game.deal_number
        return 0 if number is None else number

    @property
    def is_over(self) -> bool:
        return self._game.is_over

    @property
    def waiting_for(self) -> Waiting:
        if self.quit:
            return Waiting.QUIT
        if self._game.is_over:
            return Waiting.OVER
        return Waiting.BID if self._game.phase is Phase.BIDDING else Waiting.PLAY

    def view(self) -> Any:
        """The learner's view (a frozen copy: the other hands are not in it)."""
        return self._game.view(HUMAN)

    @property
    def legal_bids(self) -> list[int]:
        return self._game.legal_bids()

    @property
    def suggested_bid(self) -> int:
        """What Enter bids: the last bid hint, else the status line's suggestion.

        With the coach on, the suggestion is the best bid by expected score
        (:mod:`tutor.coach.bidding`, from the learner's view); with it off, the
        hand evaluation's rule of thumb (no sampling cost).
        """
        if self._turn.bid_pending is not None:
            return self._turn.bid_pending
        if self.coach.enabled and self._bidding_now():
            if self.defer:  # the expected-score suggestion arrives with the status job; the rule of thumb until then
                if self._turn.bid_suggested is not None:
                    return self._turn.bid_suggested
            else:
                return self.coach.bid_evaluation(self.view()).best.bid
        status = self._turn.status or self.coach.bid_status(self._game.hand(HUMAN))
        # The rule of thumb's 1-2-3 worth, as the legal word of this auction (a call, a rob, RULES §12.1).
        return auction_choice(self.view(), status.suggested)

    def _bidding_now(self) -> bool:
        return self.waiting_for is Waiting.BID and self._game.to_move == HUMAN

    def legal_moves(self) -> list[Combo | None]:
        """The learner's legal moves now, pass included when passing is allowed."""
        if self.waiting_for is not Waiting.PLAY or self._game.to_move != HUMAN:
            return []
        return self._game.legal_moves()

    def prompt(self) -> Prompt:
        if self.waiting_for is Waiting.BID:
            return Prompt("bid", tuple(self._game.legal_bids()), self.suggested_bid)
        pending = self._turn.pending
        if len(pending) == 1:
            return Prompt("confirm")
        if len(pending) > 1:
            return Prompt("choose", last=len(pending))
        return Prompt("move")

    def game_record(self) -> GameRecord:
        """The game so far as the engine's record (for tools that replay it, e.g. the mistakes exercises)."""
        return self._game.record()

    def record(self) -> dict[str, Any]:
        """The game so far as a JSON-ready record, the coach's remarks included (as data)."""
        data = self._game.record().to_dict()
        data["remarks"] = [m.to_data() for m in self.coach.moments]
        return data

    def state(self) -> dict[str, Any]:
        """What autosave stores: enough to :meth:`restore` the game exactly."""
        return {
            "version": STATE_VERSION,
            "record": self._game.record().to_dict(),
            "level": self.level,
            "coach": self.coach.enabled,
            "scored": self.scored,
            "hints": self.hints,
            "undos": self.undos,
            **self.coach.to_data(),
        }

    def save(self) -> None:
        if self.games is not None:
            self.games.save_current(self.state())

    def running_score(self) -> int:
        return self.games.running_score() if self.games is not None else 0

    # ------------------------------------------------------------ the loop
    def start(self) -> list[Event]:
        """Let the bots act until the learner decides (or the game ends)."""
        return self._advance()

    def _advance(self) -> list[Event]:
        game = self._game
        events: list[Event] = []
        while not game.is_over and game.to_move != HUMAN:
            events += self._bot_acts()
        if game.is_over:
            events += self._finish()
            return events
        self.save()
        events += self._begin_turn()
        return events

    def _bot_acts(self) -> list[Event]:
        game = self._game
        seat = game.to_move
        view = game.view(seat)
        bot = self.bots[seat]
        if game.phase is Phase.BIDDING:
            return self._bid(seat, bot.bid(view))
        events: list[Event] = []
        if game.can_open() and bot.show_hand(view):
            events += self._show_hand(seat)
            view = game.view(seat)
        move = bot.play(view)
        game.apply(Play(move))
        return [*events, Played(seat, move, self.rules)]

    def _show_hand(self, seat: int) -> list[Event]:
        game = self._game
        game.apply(Open())
        return [HandShown(seat, game.hand(seat), seat == HUMAN, game.rules)]

    @property
    def can_show_hand(self) -> bool:
        """The learner, as landlord before the first play, may show the hand (RULES §12.2)."""
        return self.waiting_for is Waiting.PLAY and self._game.to_move == HUMAN and self._game.can_open()

    def show_hand(self) -> list[Event]:
        """Show the learner's hand to everyone, ×2 (RULES §12.2); then it is still the learner's lead."""
        self._expect(Waiting.PLAY)
        if not self.can_show_hand:
            raise ValueError("the hand can be shown only by the landlord, after the kitty and before the first play")
        view, index = self.view(), len(self._game.actions)
        hinted = self._turn.open_hinted == 1
        events = self._show_hand(HUMAN)
        if self.defer and self.coach.enabled:
            if not hinted:
                self._job("open", index)
            return events + self._begin_turn()
        remark = None if hinted else self.coach.open_verdict(view, True, index)
        return events + ([] if remark is None else [Remark(remark)]) + self._begin_turn()

    def _bid(self, seat: int, amount: int) -> list[Event]:
        game = self._game
        deal_before = game.deal_number
        caller = next((s for s, code in game.bids if code == CALL), None) if game.rules.robs else None
        # The auction's action of that code, as the game lists it (RULES §3, §12.1): never a code the rules lack.
        action = next((a for a in game.legal_actions() if not isinstance(a, (Play, Open)) and auction_code(a) == amount),
                      None)
        if action is None:
            raise IllegalBidError(f"bid {amount!r} is not allowed now (legal: {game.legal_bids()})")
        game.apply(action)
        self.coach.rules = game.rules  # a redeal draws its own wild rank (RULES §12.3)
        events: list[Event] = [BidMade(seat, amount, game.rules, rob_back=amount == ROB and seat == caller)]
        if game.phase is Phase.BIDDING and game.deal_number != deal_before:
            events.append(Redealt(self.deal))
        elif game.phase is Phase.PLAYING:
            assert game.landlord is not None and game.kitty is not None and game.bid is not None
            events.append(
                LandlordChosen(game.landlord, game.bid, game.kitty, game.landlord == HUMAN, game.rules, game.robs)
            )
        return events

    def _table(self) -> TableShown:
        return TableShown(self.view(), self.deal, self.level, self.running_score(), self.scored, self.counter)

    def _begin_turn(self) -> list[Event]:
        game = self._game
        self._turn = _Turn()
        if game.phase is Phase.BIDDING:
            self._turn.status = self.coach.bid_status(game.hand(HUMAN))
            if self.defer and self.coach.enabled:  # the expected-score line follows (a job); the facts now
                self._job("bid_status", len(game.actions))
                return [self._table(), Say(self._status_line(), Tone.STRONG)]
            line = self.coach.bid_status_phrase(self.view()) if self.coach.enabled else self._status_line()
            return [self._table(), Say(line, Tone.STRONG)]
        landlord = game.landlord
        assert landlord is not None
        if not self.defer:  # deferred: the move's job checks the position itself
            self._turn.check = self.coach.before_move(game.hands, landlord, HUMAN, game.table, game.table_seat)
        if game.table is None:
            if self.can_show_hand:
                return [self._table(), Say(Phrase("play.leading")), Say(Phrase("variants.may_open"), Tone.STRONG)]
            return [self._table(), Say(Phrase("play.leading"))]
        return [self._table(), Say(Phrase("play.follow", {"table": describe_phrase(game.table, lower=True)}))]

    def _status_line(self) -> Phrase:
        """The rule-of-thumb bidding line (coach off); in a rob auction it ends in call / rob / pass (RULES §12.1)."""
        status = self._turn.status
        assert status is not None
        if not self.rules.robs:
            return status.phrase
        from tutor.coach.bidding import bid_phrase

        values = {"high": status.high_cards, "bombs": status.bombs, "moves": status.moves,
                  "word": bid_phrase(self.suggested_bid, self.rules)}
        return Phrase("variants.bid_status", values)

    # ------------------------------------------------------------- actions
    def help(self) -> list[Event]:
        return [Say(Phrase("play.help"))]

    def bid(self, amount: int) -> list[Event]:
        """Bid ``amount`` (0 = pass), one of :attr:`legal_bids` (ValueError otherwise)."""
        self._expect(Waiting.BID)
        if amount not in self._game.legal_bids():
            raise ValueError(f"bid {amount!r} is not allowed now (legal: {self._game.legal_bids()})")
        view = self.view()
        hinted = self._turn.bid_pending == amount
        index = len(self._game.actions)
        events = self._bid(HUMAN, amount)
        # Judged by expected score from the learner's view; quiet about the coach's own hint.
        if self.defer and self.coach.enabled:
            if not hinted:
                self._job("bid", index)
            return events + self._advance()
        remark = None if hinted else self.coach.bid_verdict(view, amount, index)
        if remark is not None:
            events.append(Remark(remark))
        return events + self._advance()

    def select(self, text: str) -> list[Event]:
        """Cards typed or selected: the status line, and the move(s) Enter would play."""
        self._expect(Waiting.PLAY)
        view = self.view()
        from tutor.coach.status import play_status

        status = play_status(view.hand, view.table, text, view.rules)
        self._turn.hinted = False
        self._turn.pending = list(status.options) if status.ok else []
        events: list[Event] = [StatusLine(view.hand, view.table, text, False, status.ok, view.rules)]
        if len(status.options) > 1:
            events.append(Options(tuple(status.options)))
        return events

    def choose(self, number: int) -> list[Event]:
        """Pick reading ``number`` (1-based) of several and play it."""
        self._expect(Waiting.PLAY)
        pending = self._turn.pending
        if len(pending) < 2 or not 1 <= number <= len(pending):
            return []
        return self._commit(pending[number - 1], hinted=False)

    def confirm(self) -> list[Event]:
        """Enter: play the pending move (the typed cards or the last hint); nothing pending, nothing happens."""
        if self.waiting_for is Waiting.BID:
            return self.bid(self.suggested_bid)
        self._expect(Waiting.PLAY)
        if not self._turn.pending:
            return []
        return self._commit(self._turn.pending[0], self._turn.hinted)

    def pass_(self) -> list[Event]:
        """Pass (when following); when leading, the status line says why not."""
        if self.waiting_for is Waiting.BID:
            return self.bid(0)
        self._expect(Waiting.PLAY)
        view = self.view()
        if view.table is None:
            self._turn.pending = []
            return [StatusLine(view.hand, view.table, "pass", True, False)]
        return self._commit(None, hinted=False)

    def play(self, move: Combo | None) -> list[Event]:
        """Play a move from :meth:`legal_moves` directly (a front end with clickable moves)."""
        self._expect(Waiting.PLAY)
        if move not in self.legal_moves():
            raise ValueError(f"{'pass' if move is None else move.text!r} is not a legal move now")
        return self._commit(move, hinted=False)

    def hint(self) -> list[Event]:
        """The next suggestion (the status line's during the auction); Enter then plays it."""
        self.hints += 1
        if self.waiting_for is Waiting.BID:
            return self._bid_hint()
        self._expect(Waiting.PLAY)
        turn = self._turn
        if self.can_show_hand and self.coach.enabled and turn.open_next < 2:
            return self._open_hint()
        if self.defer and self.coach.enabled and turn.hints is None:
            if turn.hint_lines is not None:
                return self._next_line()
            self.hints -= 1  # counted when it is shown
            if not turn.hint_asked:  # the hints' evaluation is a job: the hint comes with its answer
                turn.hint_asked = True
                self._job("hints", len(self._game.actions))
            return [Say(Phrase("worker.thinking"))]
        if turn.hints is None:
            turn.hints = self.coach.hints(self.view())  # the coach's one hint policy, from the learner's view
        events: list[Event] = []
        wrapped = False
        if turn.hint_next >= len(turn.hints):
            wrapped = True
            turn.hint_next = 0
        hint = turn.hints[turn.hint_next]
        turn.hint_next += 1
        turn.pending = [hint.move]
        turn.hinted = True
        events.append(HintShown(turn.hint_next, hint.move, hint_phrase(turn.hint_next, hint), wrapped))
        return events

    def _next_line(self) -> list[Event]:
        """Club mode: the next of the hints a job worded (the same words as :meth:`hint` in-process)."""
        turn = self._turn
        assert turn.hint_lines
        wrapped = False
        if turn.hint_next >= len(turn.hint_lines):
            wrapped = True
            turn.hint_next = 0
        move, line = turn.hint_lines[turn.hint_next]
        turn.hint_next += 1
        turn.pending = [move]
        turn.hinted = True
        return [HintShown(turn.hint_next, move, line, wrapped)]

    def _bid_hint(self) -> list[Event]:
        """The next bid by expected score (best first, then around again); Enter then bids it.

        Club mode: the bids' hints come with the auction's status job (one evaluation for the line and the
        hints); asked for before it answered, the hint says the coach is weighing and follows with the answer.
        """
        turn = self._turn
        if turn.bid_hints is None and self.defer and self.coach.enabled and self._job_pending("bid_status"):
            self.hints -= 1  # counted when it is shown
            turn.bid_asked = True
            return [Say(Phrase("worker.thinking_bid"))]
        if turn.bid_hints is None:  # in-process (or the status job failed: worked out here)
            turn.bid_hints = self.coach.bid_hints(self.view())
        return self._next_bid_hint()

    def _next_bid_hint(self) -> list[Event]:
        turn = self._turn
        assert turn.bid_hints
        if turn.hint_next >= len(turn.bid_hints):
            turn.hint_next = 0
        bid, line = turn.bid_hints[turn.hint_next]
        turn.hint_next += 1
        turn.bid_pending = bid
        return [Say(line, Tone.STRONG)]

    def _open_hint(self) -> list[Event]:
        """Show the hand or keep it closed, by expected score (best first); then the hints go on to the play."""
        turn = self._turn
        if turn.open_hints is None and self.defer and self.coach.enabled and not turn.open_failed:
            self.hints -= 1  # counted when it is shown
            if not turn.open_asked:  # the evaluation is a job: the hint comes with its answer
                turn.open_asked = True
                self._job("open_hints", len(self._game.actions))
            return [Say(Phrase("worker.thinking_open"))]
        if turn.open_hints is None:
            turn.open_hints = self.coach.open_hints(self.view())
        return self._next_open_hint()

    def _next_open_hint(self) -> list[Event]:
        turn = self._turn
        assert turn.open_hints
        choice, line = turn.open_hints[turn.open_next]
        turn.open_next += 1
        turn.open_hinted = choice
        return [Say(line, Tone.STRONG)]

    def toggle_counter(self) -> list[Event]:
        self.counter = not self.counter
        if self.games is not None:
            self.games.store.set_setting("counter", self.counter)
        events: list[Event] = [Say(Phrase("play.counter_on" if self.counter else "play.counter_off"))]
        if self.counter:
            events.append(CounterShown(self.view()))
        return events

    def undo(self) -> list[Event]:
        """Back to the learner's previous decision (unlimited, free, counted)."""
        game = self._game
        if not any(_seat_of(a) == HUMAN for a in game.actions):
            return [Say(Phrase("play.undo_none"), Tone.WARNING)]
        while game.actions:
            last_seat = _seat_of(game.actions[-1])
            game.undo()
            if last_seat == HUMAN:
                break
        self.undos += 1
        self.coach.rules = game.rules  # undone across a redeal: that deal's wild rank (RULES §12.3)
        self.coach.forget_from(len(game.actions))
        kept = len(game.actions)
        self.pending = {i: job for i, job in self.pending.items() if job.index < kept and job.kind != "bid_status"}
        self.outbox = [job for job in self.outbox if job.index < kept and job.kind != "bid_status"]
        self.judged = {ident: index for ident, index in self.judged.items() if index < kept}
        return [Say(Phrase("play.undo_done"), Tone.WARNING)] + self._advance()

    def stop(self) -> list[Event]:
        """Quit: the game in progress is saved and can be resumed."""
        self.save()
        self.quit = True
        return [Say(Phrase("play.quit_saved"), Tone.STRONG)]

    # ------------------------------------------------------------- helpers
    def _expect(self, waiting: Waiting) -> None:
        if self.waiting_for is not waiting:
            raise ValueError(f"the game waits for {self.waiting_for.value}, not {waiting.value}")

    def _commit(self, move: Combo | None, hinted: bool) -> list[Event]:
        """Play the move; the coach comments unless the move was its own suggestion."""
        game = self._game
        view = self.view()
        index = len(game.actions)
        number = sum(1 for turn in game.history if turn.seat == HUMAN) + 1
        declined = game.can_open() and game.to_move == HUMAN  # the first play without showing (RULES §12.2)
        game.apply(Play(move))
        played = game.history[-1].play  # the reading the game recorded (RULES §6)
        events: list[Event] = [Played(HUMAN, played, self.rules)]
        if self.defer and self.coach.enabled:
            judge_open = declined and self._turn.open_hinted != 0
            if judge_open or not hinted:
                self._job("move", index, number=number, judge=not hinted, declined=judge_open)
            return events + self._advance()
        if declined and self._turn.open_hinted != 0:
            said = self.coach.open_verdict(view, False, index)
            if said is not None:
                events.append(Remark(said))
        if not hinted:
            remark = self.coach.move_remark(view, played, self._turn.check, index, number)
            if remark is not None:
                events.append(Remark(remark))
        return events + self._advance()

    def _finish(self) -> list[Event]:
        """Score, store (remarks as data), and the final card and the review."""
        from tutor.store.games import FinishedGame

        game = self._game
        score = game.score()
        assert game.landlord is not None and game.kitty is not None and game.winner is not None
        game_id: int | None = None
        if self.games is not None:
            game_id = self.games.finish(
                FinishedGame(
                    deal=self.deal,
                    level=self.level,
                    role="landlord" if game.landlord == HUMAN else "farmer",
                    won=HUMAN in game.winning_seats(),
                    bid=score.bid,
                    multiplier=score.multiplier,
                    cost=score.cost,
                    delta=score.deltas[HUMAN],
                    scored=self.scored,
                    hints=self.hints,
                    undos=self.undos,
                    record=self.record(),
                    rules=game.rules.to_json(),
                    factors=score.factors,
                )
            )
            if self.coach.enabled and self.defer:
                pass  # the review job files them, once every verdict is in
            elif self.coach.enabled and self.coach.judged_all:
                from tutor.sessions.mistakes import save_game_verdicts

                save_game_verdicts(self.games.store, game_id, self.coach.verdicts, choices=self._final_choices(),
                                   rules=game.rules)  # fmt: skip
            if self.scan_after and not self.games.store.club:
                from tutor.sessions import scans

                scans.start(self.games.store.path, game_id)  # returns at once: the next deal never waits
        self.final = FinalCard(
            deal=self.deal,
            landlord=game.landlord,
            landlord_won=score.landlord_won,
            bid=score.bid,
            bombs=tuple(turn.play for turn in game.history if turn.play is not None and turn.play.is_bomb),
            spring=score.spring,
            anti_spring=score.anti_spring,
            base=score.base,
            multiplier=score.multiplier,
            cost=score.cost,
            deltas=score.deltas if self.scored else tuple(0 for _ in score.deltas),
            scored=self.scored,
            running_score=self.running_score(),
            hands=game.hands,
            kitty=game.kitty,
            hints=self.hints,
            undos=self.undos,
            game_id=game_id,
            rules=game.rules,
            robs=score.robs,
            opened=score.opened,
            factors=score.factors,
        )
        if self.defer and self.coach.enabled:
            expect = tuple(job.id for job in [*self.pending.values(), *self.outbox] if job.kind in ("move", "bid", "open"))
            expect += tuple(self.judged)
            self._job("review", len(game.actions), game_id=game_id, expect=expect)
            return [self.final]
        review = self.coach.review_phrases(game.history, game.landlord, game.winner, self.hints, self.undos)
        return [self.final, Review(tuple(review))]

    # ------------------------------------------------------------- the coach's jobs (club mode)
    def _job(self, kind: str, index: int, **fields: Any) -> None:
        from tutor.sessions.coachjobs import CoachJob

        self.outbox.append(CoachJob.new(kind, index, **fields))

    def _job_pending(self, kind: str) -> bool:
        """A job of ``kind`` is sent (or about to be) and not answered yet."""
        return any(job.kind == kind for job in [*self.pending.values(), *self.outbox])

    def _take_hints(self, answer: dict[str, Any]) -> list[Event]:
        """The hints' job answered: its moves (read back among the legal ones) and lines; the first is shown."""
        from tutor.sessions.coachjobs import phrases

        legal = {"pass" if move is None else move.text: move for move in self.legal_moves()}
        lines = []
        for item in answer.get("hints") or []:
            found = phrases([item.get("phrase")]) if isinstance(item, dict) else []
            key = (item.get("move") or "pass") if isinstance(item, dict) else None
            if found and key in legal:
                lines.append((legal[key], found[0]))
        if not lines:
            return []
        self._turn.hint_lines = lines
        self.hints += 1
        return self._next_line()

    def _take_choice_hints(self, answer: dict[str, Any], which: str) -> list[Event]:
        """The bids' (``bid``) or the open hand's (``open``) hints from a job's answer; the first is shown when
        the learner asked for it meanwhile.  An answer without them (a failed job): the hint is worked out here."""
        from tutor.sessions.coachjobs import phrases

        turn = self._turn
        found = []
        for item in answer.get("hints") or []:
            line = phrases([item.get("phrase")]) if isinstance(item, dict) else []
            choice = item.get("choice") if isinstance(item, dict) else None
            if line and isinstance(choice, int) and not isinstance(choice, bool):
                found.append((choice, line[0]))
        if which == "bid":
            if found:
                turn.bid_hints = found
            if not turn.bid_asked:
                return []
            turn.bid_asked = False
            self.hints += 1
            return self._bid_hint()
        if found:
            turn.open_hints = found
        else:
            turn.open_failed = True
        self.hints += 1
        return self._open_hint()

    def send(self) -> list[CoachJob]:
        """The jobs to send now (the outbox emptied; they are pending until :meth:`take` has their answers)."""
        jobs, self.outbox = self.outbox, []
        self.pending.update((job.id, job) for job in jobs)
        return jobs

    def pending_ids(self) -> list[str]:
        """The ids of the jobs the table waits for (what a page asks about while it waits)."""
        return [*self.pending, *(job.id for job in self.outbox)]

    @property
    def waiting_for_coach(self) -> int:
        """How many of the coach's answers the table still waits for."""
        return len(self.pending) + len(self.outbox)

    def take(self, answers: list[dict[str, Any]]) -> list[Event]:
        """The answers of pending jobs (:func:`tutor.sessions.coachjobs.run`) into the game; what to say now.

        An answer for a job no longer pending (an undo took its move back; already taken) is ignored.
        """
        from tutor.sessions.coachjobs import merge, phrases

        events: list[Event] = []
        for answer in sorted(answers, key=lambda a: (int(a.get("index", 0)), str(a.get("kind")))):
            job = self.pending.pop(str(answer.get("id")), None)
            if job is None:
                continue
            if job.kind == "bid_status":
                if self._bidding_now() and len(self._game.actions) == job.index:
                    suggested = answer.get("suggested")
                    self._turn.bid_suggested = suggested if isinstance(suggested, int) else None
                    events += [Say(line, Tone.STRONG) for line in phrases([answer.get("line")])]
                    events += self._take_choice_hints(answer, "bid")
                continue
            if job.kind == "open_hints":
                if self.can_show_hand and len(self._game.actions) == job.index:
                    events += self._take_choice_hints(answer, "open")
                continue
            if job.kind == "review":
                review = tuple(phrases(answer.get("review") or []))
                events.append(Review(review))
                continue
            if job.kind == "hints":
                if self.waiting_for is Waiting.PLAY and len(self._game.actions) == job.index:
                    events += self._take_hints(answer)
                continue
            merge(self.coach, [answer])
            self.judged[job.id] = job.index
            events += [Remark(line) for line in phrases(answer.get("remarks") or [])]
        return events


    def _final_choices(self) -> list[tuple[int, Any]]:
        from tutor.sessions.coachjobs import final_choices

        return final_choices(self._game.record(), self.coach)


def _seat_of(action: tuple[int, int] | Turn | ShowHand) -> int:
    return action.seat if isinstance(action, (Turn, ShowHand)) else action[0]
