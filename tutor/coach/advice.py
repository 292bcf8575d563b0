"""Hints and verdicts, both read off one evaluation from the learner's view.

* :func:`hints` — the candidates best first, each with its win chance and one
  short reason (what it keeps, sheds or forces) as a structured
  :class:`~tutor.coach.mistakes.Finding` (a code and values, rendered late through the catalogues).
  "hint" shows the first, "hint again" the next.
* :func:`judge` — after a move, the win chance it lost against the best
  candidate gives a :class:`Verdict`.

Thresholds (loss in win chance against the best candidate), after lichess's
0.10 / 0.20 / 0.30 of winning chances:

======================  =====================================
``best``                nothing lost (the move is the best, or ties it)
``good``                lost less than 0.10 — *or less than twice the
                        estimate's own noise* (the standard error of the
                        paired difference): a loss the samples cannot tell
                        from luck is never flagged
``inaccuracy``          0.10 to 0.20
``mistake``             0.20 to 0.30
``blunder``             0.30 or more
======================  =====================================

Why these: a Dou Di Zhu hand is decided by a few tricks, so a swing of a tenth
of the games is what a player notices over an evening; a third is a move that
throws the game away.  The noise rule matters most early in a game, when a
dozen samples cannot separate moves that differ by a few percent — the coach
then says nothing rather than guess.

The beginner-mistake detectors (RULES §11, :mod:`tutor.coach.mistakes`) are
*explanations*: one is attached to a verdict of inaccuracy or worse when its
pattern matches the move, never to a good move.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tutor.bots.counting import is_boss, unseen_packed
from tutor.coach.evaluation import DEFAULT_BUDGET, Budget, Evaluation, Move, evaluate
from tutor.coach.mistakes import Finding, detect, seat_phrase
from tutor.engine.cards import BIG_JOKER, R2, RQ, SMALL_JOKER, packed_count
from tutor.engine.combos import Combo
from tutor.engine.rules import STANDARD, Rules
from tutor.engine.view import PlayerView
from tutor.i18n import Phrase, t

#: Loss thresholds: inaccuracy, mistake, blunder (fractions of winning chances).
INACCURACY = 0.10
MISTAKE = 0.20
BLUNDER = 0.30
#: A loss must exceed this many standard errors of the paired difference to be flagged.
NOISE_SIGMAS = 2.0

#: From this rank up (Q) a play is "high": few cards beat it, and it costs a card you may miss later.
HIGH_FROM = RQ

LEVELS = ("best", "good", "inaccuracy", "mistake", "blunder")
FLAGGED = ("inaccuracy", "mistake", "blunder")


def _reason(code: str, values: dict[str, object] | None = None) -> Finding:
    """Why a move is suggested: a remark with the code ``reason_<code>`` (catalogue ``coach.reason_<code>``)."""
    return Finding(f"reason_{code}", values or {})


@dataclass(frozen=True, slots=True)
class Hint:
    """One suggestion: the move, its win chance (± standard error) and one reason."""

    move: Move
    win_chance: float
    stderr: float
    reason: Finding

    @property
    def move_text(self) -> str:
        return "pass" if self.move is None else self.move.text


@dataclass(frozen=True, slots=True)
class Verdict:
    """How a played move compares with the best candidate."""

    move: Move
    win_chance: float
    best_move: Move
    best_chance: float
    loss: float
    #: Standard error of ``loss`` (paired over the same samples).
    noise: float
    level: str
    explanation: Finding | None = None

    @property
    def flagged(self) -> bool:
        return self.level in FLAGGED

    def to_data(self) -> dict[str, Any]:
        """JSON-ready, exactly (moves as notation, figures as floats): a saved game keeps its verdicts."""
        return {
            "move": _notation(self.move),
            "win_chance": self.win_chance,
            "best": _notation(self.best_move),
            "best_chance": self.best_chance,
            "loss": self.loss,
            "noise": self.noise,
            "level": self.level,
            "explanation": None if self.explanation is None else self.explanation.to_data(),
        }

    @classmethod
    def from_data(cls, data: Any, rules: Rules = STANDARD) -> Verdict:
        """Read :meth:`to_data` back (ValueError on anything else)."""
        if not isinstance(data, dict) or data.get("level") not in LEVELS:
            raise ValueError(f"not a stored verdict: {str(data)[:40]!r}")
        try:
            figures = [float(data[k]) for k in ("win_chance", "best_chance", "loss", "noise")]
        except (KeyError, TypeError) as error:
            raise ValueError(f"not a stored verdict: {str(data)[:40]!r}") from error
        explanation = None if data.get("explanation") is None else Finding.from_data(data["explanation"])
        return cls(
            _move(data.get("move"), rules), figures[0], _move(data.get("best"), rules), figures[1],
            figures[2], figures[3], str(data["level"]), explanation,
        )  # fmt: skip


def _notation(move: Move) -> str | None:
    return None if move is None else move.notation


def _move(text: Any, rules: Rules) -> Move:
    if text is None:
        return None
    if not isinstance(text, str):
        raise ValueError(f"not a stored move: {str(text)[:40]!r}")
    return Combo.parse(text, rules)


def _is_bomb(move: Move) -> bool:
    return move is not None and move.is_bomb


def reason(view: PlayerView, move: Move) -> Finding:
    """The one thing worth saying about ``move``: what it forces, keeps or sheds."""
    hand = view.hand.packed
    if move is not None and move.cards == hand:
        return _reason("goes_out")
    partner_table = view.table_seat is not None and view.table_seat != view.seat and view.is_partner(view.table_seat)
    if move is None:
        if partner_table:
            return _reason("pass_partner", {"seat": seat_phrase(view.table_seat or 0)})
        return _reason("pass_keeps")
    opponents = [s for s in range(view.players) if not view.is_partner(s)]
    biggest = max(view.card_counts[s] for s in opponents)
    if not _is_bomb(move) and is_boss(move, unseen_packed(view), biggest):
        return _reason("boss", {"cards": move.text})
    short = [s for s in opponents if view.card_counts[s] <= 2]
    if view.table is not None and short:
        s = min(short, key=lambda x: view.card_counts[x])
        return _reason("stops", {"seat": seat_phrase(s), "n": str(view.card_counts[s])})
    if move.size >= 5:
        return _reason("sheds", {"n": str(move.size)})
    has_bomb = any(packed_count(hand, r) == 4 for r in range(R2 + 1))
    has_rocket = packed_count(hand, SMALL_JOKER) and packed_count(hand, BIG_JOKER)
    if (has_bomb or has_rocket) and not _is_bomb(move):
        return _reason("keeps_bomb")
    if _is_bomb(move):
        return _reason("bomb", {"cards": move.text})
    if move.main >= HIGH_FROM:
        return _reason("high", {"cards": move.text})
    if view.table is None:
        return _reason("sheds_low", {"cards": move.text})
    return _reason("beats_cheaply", {"cards": move.text})


def hints(view: PlayerView, budget: Budget = DEFAULT_BUDGET, evaluation: Evaluation | None = None) -> list[Hint]:
    """Every evaluated candidate, best first: "hint" is the first, "hint again" the next.

    Depends on the view only (the evaluation samples the hidden hands from it).
    """
    ev = evaluation if evaluation is not None else evaluate(view, (), budget)
    return [Hint(c.move, c.win_chance, c.stderr, reason(view, c.move)) for c in ev.candidates]


def level_for(loss: float, noise: float, thresholds: tuple[float, float, float] = (INACCURACY, MISTAKE, BLUNDER)) -> str:
    """The verdict for a loss of ``loss`` ± ``noise`` (see the module docstring).

    ``thresholds`` (inaccuracy, mistake, blunder) are in the loss's units: win
    chances for a play, base stakes for a bid (:mod:`tutor.coach.bidding`).
    """
    inaccuracy, mistake, blunder = thresholds
    if loss <= 0:
        return "best"
    if loss < inaccuracy or loss <= NOISE_SIGMAS * noise:
        return "good"
    if loss < mistake:
        return "inaccuracy"
    if loss < blunder:
        return "mistake"
    return "blunder"


def judge(
    view: PlayerView, move: Move, budget: Budget = DEFAULT_BUDGET, evaluation: Evaluation | None = None
) -> tuple[Verdict, Evaluation]:
    """The verdict on ``move`` (played from ``view``) and the evaluation it came from."""
    ev = evaluation if evaluation is not None else evaluate(view, (move,), budget)
    ev = ev.with_moves((move,))
    got = ev.value(move)
    assert got is not None
    loss = ev.loss(move)
    noise = ev.loss_noise(move)
    level = level_for(loss, noise)
    explanation = detect(view, move) if level in FLAGGED else None
    verdict = Verdict(move, got.win_chance, ev.best.move, ev.best.win_chance, loss, noise, level, explanation)
    return verdict, ev


def move_text(move: Move) -> str:
    return t("coach.pass_move") if move is None else move.text


def move_phrase(move: Move) -> str | Phrase:
    """A move as data: its cards, or the word for pass in the language it is read in."""
    return Phrase("coach.pass_move") if move is None else move.text


def verdict_phrase(v: Verdict) -> Phrase:
    """The verdict as data (rendered late; the store keeps it so): :func:`verdict_text`."""
    if not v.flagged:
        return Phrase(f"coach.verdict_{v.level}", {"chance": _pct(v.win_chance)})
    line = Phrase(
        f"coach.verdict_{v.level}",
        {"chance": _pct(v.win_chance), "best": move_phrase(v.best_move), "best_chance": _pct(v.best_chance)},
    )
    if v.explanation is not None:
        return Phrase("coach.joined", {"first": line, "second": v.explanation.phrase})
    return line


def verdict_text(v: Verdict) -> str:
    """One line: the verdict, the win chances, the better move, and the explanation if any."""
    return verdict_phrase(v).render()


def hint_phrase(n: int, hint: Hint) -> Phrase:
    """Hint number ``n`` as data: the move, its win chance (± error) and the reason."""
    values = {
        "n": n,
        "move": move_phrase(hint.move),
        "chance": _pct(hint.win_chance),
        "err": _pct(hint.stderr),
        "reason": hint.reason.phrase,
    }
    return Phrase("coach.hint_eval", values)


def hint_text(n: int, hint: Hint) -> str:
    return hint_phrase(n, hint).render()


def _pct(x: float) -> str:
    return f"{round(100 * x)}%"
