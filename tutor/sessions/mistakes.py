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

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tutor.coach.moments import BID_MOMENT, OPEN_MOMENT
from tutor.engine.auction import CALL, PASS, ROB
from tutor.engine.combos import Combo
from tutor.engine.rules import Rules
from tutor.engine.view import PlayerView
from tutor.files import ascii_int
from tutor.i18n import Phrase
from tutor.sessions.events import StatusLine

if TYPE_CHECKING:
    from tutor.coach.advice import Verdict
    from tutor.coach.bidding import BidVerdict
    from tutor.coach.moments import BidDecision, Decision, OpenDecision
    from tutor.engine.record import GameRecord
    from tutor.store import Store
    from tutor.store.mistakes import SmallCost, StoredMistake


def analyse(store: Store, game_id: int, record: GameRecord) -> list[StoredMistake]:
    """The game's mistakes from the store, analysing the game first when it has not been."""
    from tutor.coach import exercises
    from tutor.store.mistakes import MistakeStore

    mistakes = MistakeStore(store)
    if not mistakes.analysed(game_id):
        found = [stored(game_id, e.number, e.verdict) for e in exercises.find(record)]
        # The decisions before the play: the auction's words (a bid; call, rob, rob back) and the open hand.
        before: list[tuple[int, BidVerdict]] = [(e.number, e.verdict) for e in exercises.find_bids(record)]
        shown = exercises.find_open(record)
        if shown is not None:
            before.append((shown.number, shown.verdict))
        found[:0] = [stored_choice(game_id, n, v, record.rules) for n, v in before]
        mistakes.save_analysis(game_id, found)
    return mistakes.for_game(game_id)


def is_choice(number: int) -> bool:
    """A moment before the play (a word of the auction, or the open hand): judged by expected score."""
    return number <= BID_MOMENT


def choice_text(number: int, code: int, rules: Rules) -> str:
    """How the store writes a choice: "pass", a bid "1"-"3", "call", "rob" (RULES §12.1), "open"/"closed" (§12.2)."""
    if number == OPEN_MOMENT:
        return "open" if code else "closed"
    if code == PASS:
        return "pass"
    if rules.robs:
        return "call" if code == CALL else "rob"
    return str(code)


#: The words a learner may type for a choice (English and Russian, as ``ddz play`` takes them).
_WORDS = {"pass": PASS, "пас": PASS, "call": CALL, "заявить": CALL, "заявка": CALL, "rob": ROB, "перехват": ROB}
_OPEN_WORDS = {"open": 1, "show": 1, "открыть": 1, "closed": 0, "pass": 0, "пас": 0, "play": 0}


def choice_code(number: int, text: str, rules: Rules) -> int | None:
    """:func:`choice_text` read back (typed words too); None when ``text`` is no choice of that moment."""
    word = text.strip().lower()
    if number == OPEN_MOMENT:
        return _OPEN_WORDS.get(word)
    if rules.robs:
        return _WORDS.get(word)
    if word in ("pass", "пас"):
        return PASS
    return ascii_int(word, 1)


def choice_phrase(number: int, code: int, rules: Rules) -> Phrase:
    """A choice as data, in the words of its moment: the bid, call, rob or pass; showing the hand or not."""
    from tutor.coach.bidding import bid_phrase
    from tutor.coach.variant_judge import open_phrase

    return open_phrase(code) if number == OPEN_MOMENT else bid_phrase(code, rules)


def stored_choice(game_id: int, number: int, verdict: BidVerdict, rules: Rules) -> StoredMistake:
    """A flagged choice as the store keeps it: moment ``number`` (≤ 0); the "chances" are expected scores."""
    from tutor.store.mistakes import StoredMistake

    return StoredMistake(
        game_id, number, choice_text(number, verdict.bid, rules), choice_text(number, verdict.best_bid, rules),
        verdict.expected, verdict.best_expected, verdict.loss, verdict.level, noise=verdict.noise,
    )  # fmt: skip


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
    *,
    choices: Sequence[tuple[int, BidVerdict]] = (),
    rules: Rules,
) -> None:
    """At the end of a game the coach judged from start to end: its flagged verdicts are the analysis.

    ``bid``: the verdict on the learner's bid in the auction that was played (stored when flagged);
    ``choices``: (moment number, verdict) of the other decisions before the play under ``rules``
    (a rob back, the open hand), stored when flagged.
    """
    from tutor.coach import exercises
    from tutor.coach.review import largest_losses
    from tutor.store.mistakes import MistakeStore

    found = [stored(game_id, n, v) for n, v in largest_losses(verdicts, exercises.MOST)]
    before = ([(BID_MOMENT, bid)] if bid is not None else []) + list(choices)
    found[:0] = [stored_choice(game_id, n, v, rules) for n, v in before if v.flagged]
    MistakeStore(store).save_analysis(game_id, found, small_costs(game_id, verdicts))


def small_costs(game_id: int, verdicts: Sequence[tuple[int, int, Verdict]]) -> list[SmallCost]:
    """The game's small costs (issue 29): losses the samples tell from luck that were not flagged, with their reason.

    Under the inaccuracy line (or too close to it to flag) they are no moment to replay, but five of them with
    the same reason are a habit (``ddz insights``).
    """
    from tutor.store.mistakes import SmallCost

    return [SmallCost(game_id, n, _text(v.move), v.loss, v.noise, v.explanation.code)
            for _, n, v in verdicts
            if not v.flagged and not v.within_noise and v.loss > 0 and v.explanation is not None]


def _text(move: Any) -> str:
    return "pass" if move is None else str(move.text)


def moment_phrase(
    index: int, of: int, moment: StoredMistake, base: int, rules: Rules, choices: Sequence[str] = ()
) -> Phrase:
    """The line that opens a moment, as data: what was played, with the figures and the precision
    they were measured with (issue 20; a moment stored before that has no noise and says none).

    ``base``: the rules' base stake (a bid's expected score is shown in points of the running score);
    ``rules`` and ``choices``: a choice before the play in the variants (a call or rob, RULES §12.1;
    the open hand, §12.2) is said in its own words, with the choices of its moment.
    """
    from tutor.coach.advice import chance_phrase, signed_loss
    from tutor.coach.bidding import points

    values: dict[str, object] = {"i": index, "of": of}
    if is_choice(moment.number):
        code = choice_code(moment.number, moment.move, rules)
        values.update(bid=choice_phrase(moment.number, code or 0, rules), score=points(moment.win_chance, base))
        classic = moment.number == BID_MOMENT and not rules.robs
        if not classic:
            what = Phrase("mistakes.what_open" if moment.number == OPEN_MOMENT else "mistakes.what_auction")
            values.update(what=what, choices=", ".join(choices))
        key = "mistakes.bid_moment" if classic else "mistakes.choice_moment"
        if moment.noise is None:
            return Phrase(key, values)
        values.update(loss=round(moment.loss * base), noise=round(moment.noise * base))
        return Phrase(f"{key}_noise", values)
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
    #: At a choice before the play (number ≤ 0): what the learner chose, in the words of the moment,
    #: and every choice there (the text :meth:`MistakesSession.move` takes).
    label: Phrase | None = None
    choices: tuple[str, ...] = ()


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
    base: int
    #: The choice in the words of its moment under the game's rules: a bid, "call", "rob", "show the hand".
    label: Phrase


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
    base: int
    #: The better choice in the words of its moment under the game's rules.
    label: Phrase


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
        self._decision: Decision | BidDecision | OpenDecision | None = None

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
    def decision(self) -> Decision | BidDecision | OpenDecision:
        """The decision of the moment being replayed (ValueError when there is none)."""
        if self._decision is None or self.finished:
            raise ValueError("no moment is being replayed")
        return self._decision

    def start(self) -> list[MistakesEvent]:
        """Analyse the game when it has not been (the slow part), then the first moment."""
        if self.store is None:
            raise ValueError("the mistakes session needs the store")
        self.moments = analyse(self.store, self.game_id, self.record)
        if not self.bids:
            self.moments = [m for m in self.moments if not is_choice(m.number)]
        if not self.moments:
            self.over = MistakesOver(completed=True)
            return [NothingToReplay()]
        # A choice's loss is in stakes, a play's in win chance: the choices (auction, open hand) go first,
        # in the order they were made (0, -1, -2), then the plays by loss.
        self.moments.sort(key=lambda m: (m.solved, not is_choice(m.number), -m.number if is_choice(m.number) else 0,
                                         -m.loss, m.number))  # fmt: skip
        self.at = 0
        return self._show()

    def _show(self) -> list[MistakesEvent]:
        from tutor.coach import exercises

        if self.at >= len(self.moments):
            self._decision = None
            self.over = MistakesOver(completed=True)
            return [self.over]
        moment = self.moments[self.at]
        label: Phrase | None = None
        choices: tuple[str, ...] = ()
        if moment.number == OPEN_MOMENT:
            self._decision = exercises.open_at(self.record)
        elif is_choice(moment.number):
            self._decision = exercises.bid_at(self.record, number=moment.number)
        else:
            self._decision = exercises.at(self.record, moment.number)
        if is_choice(moment.number):
            code = choice_code(moment.number, moment.move, self.record.rules)
            label = None if code is None else choice_phrase(moment.number, code, self.record.rules)
            choices = tuple(text for text, _ in self.choices())
        shown = MomentShown(self.at + 1, len(self.moments), moment, self._decision.view, self.deal, self.level, label,
                            choices)  # fmt: skip
        return [shown]

    def select(self, text: str) -> list[MistakesEvent]:
        """Cards chosen: the status line (RULES §9), nothing judged yet."""
        from tutor.coach.status import play_status

        if self.is_bid:
            return []
        view = self.decision.view
        ok = play_status(view.hand, view.table, text, view.rules).ok
        return [StatusLine(view.hand, view.table, text, False, ok, view.rules)]

    @property
    def is_bid(self) -> bool:
        """The moment being replayed is a choice before the play: a word of the auction (pass, 1-3; call,
        rob) or the open hand (open, closed); :meth:`choices` lists them."""
        from tutor.coach.moments import BidDecision, OpenDecision

        return isinstance(self._decision, (BidDecision, OpenDecision)) and not self.finished

    def choices(self) -> list[tuple[str, Phrase]]:
        """The choices of the moment being replayed: (the text :meth:`move` takes, its words as data)."""
        from tutor.coach.bidding import legal_bids
        from tutor.coach.moments import OpenDecision

        decision = self.decision
        number, rules = self.moments[self.at].number, self.record.rules
        codes = [0, 1] if isinstance(decision, OpenDecision) else legal_bids(decision.view)
        return [(choice_text(number, c, rules), choice_phrase(number, c, rules)) for c in codes]

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
            raise ValueError("this moment is a choice before the play: give one of choices()")
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
        from tutor.coach.moments import Decision, OpenDecision
        from tutor.store.mistakes import MistakeStore

        decision = self.decision
        if self.store is None:
            raise ValueError("the mistakes session needs the store")
        number, rules = self.moments[self.at].number, self.record.rules
        code = choice_code(number, text, rules)
        if isinstance(decision, OpenDecision):
            if code is None:
                return [NotAMove(Phrase("variants.open_bad", {"text": text[:40]}))]
            result = exercises.check_open(decision, bool(code))
        else:
            assert not isinstance(decision, Decision)
            if code is None or code not in legal_bids(decision.view):
                return [NotAMove(self._not_a_bid(decision.view, text))]
            result = exercises.check_bid(decision, code)
        MistakeStore(self.store).record_try(self.game_id, number, result.accepted)
        label = choice_phrase(number, code, rules)
        events: list[MistakesEvent] = [BidTryJudged(code, result.accepted, result.verdict.expected, rules.base, label)]
        if result.accepted:
            self.at += 1
            events += self._show()
        return events

    @staticmethod
    def _not_a_bid(view: PlayerView, text: str) -> Phrase:
        """Why ``text`` is no word of this auction moment (the choices, in a rob auction)."""
        from tutor.engine.auction import view_auction

        if view.rules.robs:
            choices = ", ".join(choice_text(BID_MOMENT, c, view.rules) for c in view_auction(view).legal(view.rules))
            return Phrase("mistakes.rob_choices", {"move": text[:40], "choices": choices})
        high = view_auction(view).outcome(view.rules).stake
        return Phrase("analyze.illegal_bid_move", {"move": text[:40], "high": high})

    def show(self) -> list[MistakesEvent]:
        """Show the better move and go on."""
        moment = self.moments[self.at] if self._decision is not None and not self.finished else None
        if moment is None:
            raise ValueError("no moment is being replayed")
        self.at += 1
        if is_choice(moment.number):
            rules = self.record.rules
            best = choice_code(moment.number, moment.best, rules) or 0
            shown = BidBetterShown(best, moment.best_chance, rules.base, choice_phrase(moment.number, best, rules))
            return [shown, *self._show()]
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
