"""Learning from your mistakes, the flow below the front ends: which moments of a game are stored.

At the end of a game the coach judged from start to end, its flagged verdicts
are the game's analysis; for other games (resumed, or played before) the
analysis is made when first asked for (:mod:`tutor.coach.exercises`).  The
explanation is stored as data (its catalogue key and values), so it reads in
any language.  :class:`MistakesSession` is the exercise itself (replay each
moment, judge each try, record it); ``ddz mistakes``, the final card's ``[m]``
and the web table only render its events.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tutor.engine.auction import view_auction
from tutor.engine.combos import Combo
from tutor.engine.view import PlayerView
from tutor.i18n import Phrase
from tutor.sessions.events import StatusLine

if TYPE_CHECKING:
    from tutor.coach.advice import Verdict
    from tutor.coach.bidding import BidVerdict
    from tutor.coach.moments import BidDecision, Decision
    from tutor.engine.record import GameRecord
    from tutor.store import Store
    from tutor.store.mistakes import StoredMistake


def analyse(store: Store, game_id: int, record: GameRecord) -> list[StoredMistake]:
    """The game's mistakes from the store, analysing the game first when it has not been."""
    from tutor.coach import exercises
    from tutor.store.mistakes import MistakeStore

    mistakes = MistakeStore(store)
    if not mistakes.analysed(game_id):
        found = [stored(game_id, e.number, e.verdict) for e in exercises.find(record)]
        # The bid moment replays a 1-2-3 bid; a rob auction's call and rob are judged live only (RULES §12.1).
        bid = None if record.rules.robs else exercises.find_bid(record)
        if bid is not None:
            found.insert(0, stored_bid(game_id, bid.verdict))
        mistakes.save_analysis(game_id, found)
    return mistakes.for_game(game_id)


#: The stored moment number of the learner's bid (plays and passes count from 1).
BID_MOMENT = 0


def stored_bid(game_id: int, verdict: BidVerdict) -> StoredMistake:
    """A flagged bid as the store keeps it: moment 0; the "chances" are expected scores in base stakes."""
    from tutor.store.mistakes import StoredMistake

    return StoredMistake(
        game_id, BID_MOMENT, _bid_text(verdict.bid), _bid_text(verdict.best_bid), verdict.expected,
        verdict.best_expected, verdict.loss, verdict.level, noise=verdict.noise,
    )  # fmt: skip


def _bid_text(bid: int) -> str:
    return "pass" if bid == 0 else str(bid)


def stored(game_id: int, number: int, verdict: Verdict) -> StoredMistake:
    """A flagged verdict as the store keeps it (the explanation as data, the figures with their noise)."""
    from tutor.store.mistakes import StoredMistake

    explanation = verdict.explanation
    return StoredMistake(
        game_id, number, _text(verdict.move), _text(verdict.best_move), verdict.win_chance, verdict.best_chance,
        verdict.loss, verdict.level, {} if explanation is None else explanation.to_data(),
        noise=verdict.noise, chance_err=verdict.chance_err, best_err=verdict.best_err,
    )  # fmt: skip


def save_game_verdicts(
    store: Store,
    game_id: int,
    verdicts: list[tuple[int, int, Verdict]],
    bid: BidVerdict | None = None,
) -> None:
    """At the end of a game the coach judged from start to end: its flagged verdicts are the analysis.

    ``bid``: the verdict on the learner's bid in the auction that was played (stored when flagged).
    """
    from tutor.coach import exercises
    from tutor.coach.review import largest_losses
    from tutor.store.mistakes import MistakeStore

    found = [stored(game_id, n, v) for n, v in largest_losses(verdicts, exercises.MOST)]
    if bid is not None and bid.flagged:
        found.insert(0, stored_bid(game_id, bid))
    MistakeStore(store).save_analysis(game_id, found)


def _text(move: Any) -> str:
    return "pass" if move is None else str(move.text)


def moment_phrase(index: int, of: int, moment: StoredMistake, base: int) -> Phrase:
    """The line that opens a moment, as data: what was played, with the figures and the precision
    they were measured with (issue 20; a moment stored before that has no noise and says none).

    ``base``: the rules' base stake (a bid's expected score is shown in points of the running score).
    """
    from tutor.coach.advice import chance_phrase, signed_loss
    from tutor.coach.bidding import bid_phrase, points

    values: dict[str, object] = {"i": index, "of": of}
    if moment.number == BID_MOMENT:
        values.update(bid=bid_phrase(0 if moment.move == "pass" else int(moment.move)),
                      score=points(moment.win_chance, base))  # fmt: skip
        if moment.noise is None:
            return Phrase("mistakes.bid_moment", values)
        values.update(loss=round(moment.loss * base), noise=round(moment.noise * base))
        return Phrase("mistakes.bid_moment_noise", values)
    values.update(n=moment.number, move=moment.move)
    if moment.noise is None:
        return Phrase("mistakes.moment", {**values, "chance": round(100 * moment.win_chance)})
    values.update(chance=chance_phrase(moment.win_chance, moment.chance_err), loss=signed_loss(moment.loss, moment.noise))
    return Phrase("mistakes.moment_noise", values)


def better_phrase(event: BetterShown) -> Phrase:
    """"A better move: Q (wins 68% (±3%))" — the chance with its precision when it was stored."""
    from tutor.coach.advice import chance_phrase

    return Phrase("mistakes.shown", {"best": event.best, "best_chance": chance_phrase(event.best_chance, event.best_err)})


# ---------------------------------------------------------------------- the exercise, headless


@dataclass(frozen=True, slots=True)
class MomentShown:
    """Moment ``index`` of ``of``: the position from the learner's seat and what they played there."""

    index: int
    of: int
    moment: StoredMistake
    view: PlayerView
    deal: int
    level: str


@dataclass(frozen=True, slots=True)
class NothingToReplay:
    """No decision of the game was flagged."""


@dataclass(frozen=True, slots=True)
class NotAMove:
    """What the learner typed or chose is not a move here (the reason as data)."""

    reason: Phrase


@dataclass(frozen=True, slots=True)
class TryJudged:
    """A try: ``move`` wins ``win_chance``; ``accepted`` when within the tolerance of the best."""

    move: Combo | None
    accepted: bool
    win_chance: float


@dataclass(frozen=True, slots=True)
class BidTryJudged:
    """A try at the bid moment: ``bid`` (0 = pass) expects ``expected`` base stakes; ``accepted`` when close to the best."""

    bid: int
    accepted: bool
    expected: float
    #: The rules' base stake (the score is shown in points: base × stakes).
    base: int = 10


@dataclass(frozen=True, slots=True)
class BetterShown:
    """The learner asked to see a better move."""

    best: str
    best_chance: float
    #: Its standard error (None for a moment stored before issue 20).
    best_err: float | None = None


@dataclass(frozen=True, slots=True)
class BidBetterShown:
    """The learner asked to see a better bid: ``best`` (0 = pass) expects ``expected`` base stakes."""

    best: int
    expected: float
    base: int = 10


@dataclass(frozen=True, slots=True)
class MistakesOver:
    """The end: ``completed`` when every moment was gone through (not when the learner stopped)."""

    completed: bool


MistakesEvent = (
    MomentShown | NothingToReplay | NotAMove | StatusLine | TryJudged | BidTryJudged | BetterShown | BidBetterShown
    | MistakesOver
)


class MistakesSession:
    """Learn from your mistakes in one stored game: moves in, events out.

    The moments are the game's stored analysis (made on first use, see
    :func:`analyse`), unsolved ones first, then the bid (moment 0, judged by
    expected score: :mod:`tutor.coach.bidding`), then the plays by loss.
    ``bids=False`` leaves the bid moment out (a front end that cannot take a
    bid yet).  Each try is judged
    from the learner's view (:func:`tutor.coach.exercises.check`) and recorded
    in ``store`` — a front end that opens the store per request sets
    :attr:`store` before each action, as the web does.

    Example::

        session = MistakesSession.open(store, game_id)   # None: no such game
        events = session.start()
        while not session.finished:
            events = session.move("pass")  # or cards, or skip() / show() / stop()
    """

    def __init__(
        self, store: Store | None, game_id: int, record: GameRecord, deal: int, level: str, bids: bool = True
    ) -> None:
        self.store = store
        self.game_id = game_id
        self.record = record
        self.deal = deal
        self.level = level
        self.moments: list[StoredMistake] = []
        self.at = 0
        self.over: MistakesOver | None = None
        self.bids = bids
        self._decision: Decision | BidDecision | None = None

    @classmethod
    def open(cls, store: Store, game_id: int, bids: bool = True) -> MistakesSession | None:
        """The session for stored game ``game_id`` (None when there is no such game).

        Raises ValueError when the stored record cannot be read.
        """
        from tutor.engine.record import GameRecord
        from tutor.store.games import GameStore

        found = GameStore(store).get(game_id)
        if found is None:
            return None
        return cls(store, game_id, GameRecord.from_dict(found.record), found.deal, found.level, bids)

    @property
    def finished(self) -> bool:
        return self.over is not None

    @property
    def decision(self) -> Decision | BidDecision:
        """The decision of the moment being replayed (ValueError when there is none)."""
        if self._decision is None or self.finished:
            raise ValueError("no moment is being replayed")
        return self._decision

    def start(self) -> list[MistakesEvent]:
        """Analyse the game when it has not been (the slow part), then the first moment."""
        if self.store is None:
            raise ValueError("the mistakes session needs the store")
        self.moments = analyse(self.store, self.game_id, self.record)
        if not self.bids or self.record.rules.robs:
            self.moments = [m for m in self.moments if m.number != BID_MOMENT]
        if not self.moments:
            self.over = MistakesOver(completed=True)
            return [NothingToReplay()]
        # A bid's loss is in stakes, a play's in win chance: the bid (the first decision) goes first.
        self.moments.sort(key=lambda m: (m.solved, m.number != BID_MOMENT, -m.loss, m.number))
        self.at = 0
        return self._show()

    def _show(self) -> list[MistakesEvent]:
        from tutor.coach import exercises

        if self.at >= len(self.moments):
            self._decision = None
            self.over = MistakesOver(completed=True)
            return [self.over]
        moment = self.moments[self.at]
        if moment.number == BID_MOMENT:
            self._decision = exercises.bid_at(self.record)
        else:
            self._decision = exercises.at(self.record, moment.number)
        return [MomentShown(self.at + 1, len(self.moments), moment, self._decision.view, self.deal, self.level)]

    def select(self, text: str) -> list[MistakesEvent]:
        """Cards chosen: the status line (RULES §9), nothing judged yet."""
        from tutor.coach.status import play_status

        if self.is_bid:
            return []
        view = self.decision.view
        return [StatusLine(view.hand, view.table, text, False, play_status(view.hand, view.table, text).ok)]

    @property
    def is_bid(self) -> bool:
        """The moment being replayed is the learner's bid (tries are pass, 1, 2 or 3)."""
        from tutor.coach.moments import BidDecision

        return isinstance(self._decision, BidDecision) and not self.finished

    def move(self, text: str) -> list[MistakesEvent]:
        """A try as text (cards or ``pass``; at the bid moment pass, 1, 2 or 3): judged and recorded.

        Accepted tries go on to the next moment.
        """
        if self.is_bid:
            return self._bid_try(text)
        found = self._parse(text)
        if isinstance(found, NotAMove):
            return [found]
        return self.play(found)

    def pass_(self) -> list[MistakesEvent]:
        return self.move("pass")

    def play(self, move: Combo | None) -> list[MistakesEvent]:
        """A legal move of the moment's position, judged against the best from the learner's view."""
        from tutor.coach import exercises
        from tutor.store.mistakes import MistakeStore

        from tutor.coach.moments import Decision

        decision = self.decision
        if not isinstance(decision, Decision):
            raise ValueError("this moment is a bid: give pass, 1, 2 or 3")
        if self.store is None:
            raise ValueError("the mistakes session needs the store")
        result = exercises.check(decision, move)
        MistakeStore(self.store).record_try(self.game_id, self.moments[self.at].number, result.accepted)
        events: list[MistakesEvent] = [TryJudged(move, result.accepted, result.verdict.win_chance)]
        if result.accepted:
            self.at += 1
            events += self._show()
        return events

    def _bid_try(self, text: str) -> list[MistakesEvent]:
        from tutor.coach import exercises
        from tutor.coach.bidding import legal_bids
        from tutor.coach.moments import BidDecision
        from tutor.store.mistakes import MistakeStore

        decision = self.decision
        assert isinstance(decision, BidDecision)
        if self.store is None:
            raise ValueError("the mistakes session needs the store")
        word = text.strip().lower()
        legal = legal_bids(decision.view)
        bid = 0 if word in ("pass", "пас") else int(word) if word.isdigit() and len(word) == 1 else -1
        if bid not in legal:
            high = view_auction(decision.view).outcome(decision.view.rules).stake
            return [NotAMove(Phrase("analyze.illegal_bid_move", {"move": text[:40], "high": high}))]
        result = exercises.check_bid(decision, bid)
        MistakeStore(self.store).record_try(self.game_id, BID_MOMENT, result.accepted)
        events: list[MistakesEvent] = [BidTryJudged(bid, result.accepted, result.verdict.expected, decision.view.rules.base)]
        if result.accepted:
            self.at += 1
            events += self._show()
        return events

    def show(self) -> list[MistakesEvent]:
        """Show the better move and go on."""
        moment = self.moments[self.at] if self._decision is not None and not self.finished else None
        if moment is None:
            raise ValueError("no moment is being replayed")
        self.at += 1
        if moment.number == BID_MOMENT:
            best = 0 if moment.best == "pass" else int(moment.best)
            return [BidBetterShown(best, moment.best_chance, self.record.rules.base), *self._show()]
        return [BetterShown(moment.best, moment.best_chance, moment.best_err), *self._show()]

    def skip(self) -> list[MistakesEvent]:
        self.decision  # noqa: B018 - checks that a moment is being replayed
        self.at += 1
        return self._show()

    def stop(self) -> list[MistakesEvent]:
        if self.over is not None:
            return []
        self._decision = None
        self.over = MistakesOver(completed=False)
        return [self.over]

    def _parse(self, text: str) -> Combo | None | NotAMove:
        """The learner's text → a legal move of the moment (the plainest reading of the same cards)."""
        from tutor.engine.combos import plainest
        from tutor.engine.moves import legal_moves
        from tutor.engine.notation import MoveTextError, resolve

        view = self.decision.view
        legal: list[Combo | None] = list(legal_moves(view.hand, view.table, view.rules))
        if view.table is not None:
            legal.append(None)
        try:
            found = resolve(text, legal)
        except MoveTextError:
            return NotAMove(Phrase("analyze.bad_move", {"move": text[:40]}))
        if found.text.is_pass and not found.options:
            return NotAMove(Phrase("analyze.cannot_pass"))
        if not found.options:
            return NotAMove(Phrase("analyze.illegal_move", {"move": text[:40]}))
        if found.found:
            return found.move
        return plainest([m for m in found.options if m is not None])
