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
``good``                lost less than 0.10
``inaccuracy``          0.10 to 0.20
``mistake``             0.20 to 0.30
``blunder``             0.30 or more
======================  =====================================

Why these: a Dou Di Zhu hand is decided by a few tricks, so a swing of a tenth
of the games is what a player notices over an evening; a third is a move that
throws the game away.

The level is named by the estimate; the noise (the standard error of the
paired difference) decides how it is *said* (issue 20: the numbers decide the
words).  A loss of 0.10 or more is never called good.  When the loss is not
above twice its noise the samples cannot tell it from luck: the verdict says
"unclear" with the figures and is not flagged.  When it is flagged but the
band could still change within twice the noise, it says "probably an
inaccuracy: −0.12 ± 0.06".  The sequential sampling
(:mod:`tutor.coach.evaluation`) keeps drawing until the noise is 0.04 or less
wherever the band depends on it, so these hedged words are the exception.

The beginner-mistake detectors (RULES §11, :mod:`tutor.coach.mistakes`) are
*explanations*: one is attached to a verdict of inaccuracy or worse when its
pattern matches the move, never to a good move.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tutor.engine.facts import is_boss
from tutor.coach.evaluation import (
    BLUNDER,
    DEFAULT_BUDGET,
    INACCURACY,
    MISTAKE,
    NOISE_SIGMAS,
    Budget,
    CandidateValue,
    Evaluation,
    Move,
    evaluate,
    flags,
    settled,
)
from tutor.coach.mistakes import Finding
from tutor.coach.seats import seat_phrase
from tutor.coach.reasons import Proposal, Reason, explain, gain_phrase, move_phrase
from tutor.engine.cards import BIG_JOKER, R2, R9, RQ, SMALL_JOKER, packed_count
from tutor.engine.combos import Combo
from tutor.engine.rules import Rules
from tutor.engine.view import PlayerView
from tutor.i18n import Phrase, t

__all__ = ["BLUNDER", "INACCURACY", "MISTAKE", "NOISE_SIGMAS", "move_phrase"]  # the thresholds, re-exported

#: From this rank up (Q) a play is "high": few cards beat it, and it costs a card you may miss later.
HIGH_FROM = RQ
#: Up to this rank (9) a lead "sheds low cards" (cheap to lose); a lead from 10 to J just "leads".
LOW_UP_TO = R9

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
    #: Is the win chance exact (going out), not sampled?
    proven: bool = False
    #: Samples behind the win chance.
    samples: int = 0

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
    #: Standard errors of the two win chances (None in verdicts saved before issue 20).
    chance_err: float | None = None
    best_err: float | None = None
    #: The move the explanation proposes, measured against this one on the same samples (issue 29).
    proposal: Proposal | None = None

    @property
    def flagged(self) -> bool:
        """An inaccuracy or worse that the samples tell from luck (loss above twice its noise) and
        that lies clearly over the line (:func:`~tutor.coach.evaluation.flags`)."""
        return self.level in FLAGGED and flags(self.loss, self.noise)

    @property
    def unclear(self) -> bool:
        """A loss of 0.10 or more that is not flagged — not told from luck, or too close to the line
        of an inaccuracy to call: said with its figures, not a mistake to replay."""
        return self.level in FLAGGED and not self.flagged

    @property
    def borderline(self) -> bool:
        """Unclear only because it lies too close to the inaccuracy line (told from luck)."""
        return self.unclear and self.loss > NOISE_SIGMAS * self.noise

    @property
    def costly(self) -> bool:
        """Under the inaccuracy line but told from luck (above twice its noise): a cost, never "good"."""
        return self.level == "good" and self.loss > NOISE_SIGMAS * self.noise

    @property
    def within_noise(self) -> bool:
        """No loss the samples can tell from luck: the only moves a praising reason may be given to."""
        return self.loss <= NOISE_SIGMAS * self.noise

    @property
    def sure(self) -> bool:
        """Would the level be the same anywhere within twice the noise?"""
        return settled(self.loss, self.noise, 0.0)

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
            "chance_err": self.chance_err,
            "best_err": self.best_err,
            "proposal": None if self.proposal is None else self.proposal.to_data(),
        }

    @classmethod
    def from_data(cls, data: Any, rules: Rules) -> Verdict:
        """Read :meth:`to_data` back (ValueError on anything else)."""
        if not isinstance(data, dict) or data.get("level") not in LEVELS:
            raise ValueError(f"not a stored verdict: {str(data)[:40]!r}")
        try:
            figures = [float(data[k]) for k in ("win_chance", "best_chance", "loss", "noise")]
        except (KeyError, TypeError) as error:
            raise ValueError(f"not a stored verdict: {str(data)[:40]!r}") from error
        explanation = None if data.get("explanation") is None else Finding.from_data(data["explanation"])
        errs = [data.get(k) for k in ("chance_err", "best_err")]
        chance_err, best_err = (float(e) if isinstance(e, (int, float)) else None for e in errs)
        proposal = None if data.get("proposal") is None else Proposal.from_data(data["proposal"], rules)
        return cls(
            _move(data.get("move"), rules), figures[0], _move(data.get("best"), rules), figures[1],
            figures[2], figures[3], str(data["level"]), explanation, chance_err, best_err, proposal,
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


def reason(view: PlayerView, move: Move, evaluation: Evaluation | None = None) -> Finding:
    """The one thing worth saying about ``move``, true of that move (issue 20).

    With the ``evaluation`` it came from, a candidate that is clearly worse than
    the best (a loss of 0.10 or more, told from luck) is never praised: its
    reason says what it loses, and why when a beginner's pattern that the best
    move does not share explains it.  Otherwise the reason is a fact the view
    holds: it goes out, nobody can beat it, it stops a short opponent, it is a
    bomb, it breaks one, it sheds many cards, it keeps a bomb that another
    candidate spends, it is high, it sheds low cards, it takes the trick cheaply.
    """
    hand = view.hand.packed
    if move is not None and move.cards == hand:
        return _reason("goes_out")
    if evaluation is not None:
        worse = _worse(view, move, evaluation)
        if worse is not None:
            return worse
        # Below: facts that praise (or at least recommend) the move.  Issue 29: they are said only of
        # moves within the noise of the best; a measurable loss was said by _worse above.
    partner_table = view.table_seat is not None and view.table_seat != view.seat and view.is_partner(view.table_seat)
    if move is None:
        if partner_table:
            return _reason("pass_partner", {"seat": seat_phrase(view.table_seat or 0, view.rules)})
        return _reason("pass_keeps")
    opponents = [s for s in range(view.players) if not view.is_partner(s)]
    biggest = max(view.card_counts[s] for s in opponents)
    if not _is_bomb(move) and is_boss(move, view.unseen().packed, biggest, rules=view.rules):
        return _reason("boss", {"cards": move.text})
    short = [s for s in opponents if view.card_counts[s] <= 2]
    if view.table is not None and short:
        s = min(short, key=lambda x: view.card_counts[x])
        return _reason("stops", {"seat": seat_phrase(s, view.rules), "n": view.card_counts[s]})
    if _is_bomb(move):
        return _reason("bomb", {"cards": move.text})
    broken = [r for r in range(R2 + 1) if packed_count(hand, r) == 4 and packed_count(move.cards, r)]
    if broken:
        return _reason("breaks_bomb", {"bomb": move_rank_text(broken[0]) * 4})
    if move.size >= 5:
        return _reason("sheds", {"n": move.size})
    if evaluation is not None and _others_spend_bomb(view, move, evaluation):
        return _reason("keeps_bomb")
    if move.main >= HIGH_FROM:
        return _reason("high", {"cards": move.text})
    if view.table is None:
        return _reason("sheds_low" if move.main <= LOW_UP_TO else "leads", {"cards": move.text})
    return _reason("beats_cheaply", {"cards": move.text})


def move_rank_text(rank: int) -> str:
    from tutor.engine.cards import rank_char

    return rank_char(rank)


def _worse(view: PlayerView, move: Move, ev: Evaluation) -> Finding | None:
    """For a candidate measurably worse than the best: what it loses or costs, and why (issue 29).

    A loss told from luck (above twice its noise) is never praised: a flagged one
    "loses −23 ± 4 points of win chance against Q", one under the line (or too close
    to it to flag) "costs 8 ± 3 points"; each with the reason whose counterfactual
    holds (:func:`tutor.coach.reasons.explain`).
    """
    got = ev.value(move)
    if got is None or move == ev.best.move:
        return None
    loss, noise = ev.loss(move), ev.loss_noise(move)
    if loss <= 0 or loss <= NOISE_SIGMAS * noise:
        return None
    why = explain(view, move, ev)
    if loss >= INACCURACY and flags(loss, noise):
        values: dict[str, object] = {"loss": signed_loss(loss, noise), "best": move_phrase(ev.best.move)}
        if why is None or not why.specific:
            return _reason("worse", values)
        return _reason("worse_because", {**values, "why": reason_phrase(why, ev.best.move, lower=True)})
    cost = cost_phrase(loss, noise)
    if why is None or not why.specific:
        return _reason("costs_best", {"cost": cost, "best": move_phrase(ev.best.move)})
    return _reason("costs", {"cost": cost, "why": reason_phrase(why, ev.best.move, lower=True)})


def reason_phrase(why: Reason, best: Move, lower: bool = False) -> Phrase:
    """A reason's words, with the move it proposes when the line does not name it already (issue 29).

    ``lower``: the reason continues a sentence (a hint's "loses … : count the cards…").
    """
    phrase = Phrase(why.finding.phrase.key, why.finding.values, lower=lower)
    values = why.finding.values
    if why.proposal.move == best or "instead" in values or "lower" in values or not why.specific:
        return phrase
    return Phrase("coach.joined", {"first": phrase, "second": instead_phrase(why.proposal)})


def instead_phrase(proposal: Proposal) -> Phrase:
    """The proposed move with its figures, said when it is not the best move the line already names."""
    return Phrase("coach.instead_better", {
        "instead": move_phrase(proposal.move),
        "chance": chance_phrase(proposal.win_chance, None),
        "gain": gain_phrase(proposal),
    })  # fmt: skip


def cost_phrase(loss: float, noise: float) -> Phrase:
    """A small loss as a cost: "8 ± 3 points" (issue 29: said so, never "good")."""
    return Phrase("coach.cost_figures", {"loss": round(100 * loss), "noise": max(1, round(100 * noise)) if noise else 0})


def _others_spend_bomb(view: PlayerView, move: Combo, ev: Evaluation) -> bool:
    """Does the hand hold a bomb (or the rocket) that ``move`` keeps and another candidate spends?"""
    hand = view.hand.packed
    bombs = [r for r in range(R2 + 1) if packed_count(hand, r) == 4]
    rocket = packed_count(hand, SMALL_JOKER) and packed_count(hand, BIG_JOKER)
    if not bombs and not rocket:
        return False

    def spends(m: Move) -> bool:
        if m is None:
            return False
        if any(packed_count(m.cards, r) for r in bombs):
            return True
        return bool(rocket and (packed_count(m.cards, SMALL_JOKER) or packed_count(m.cards, BIG_JOKER)))

    return not spends(move) and any(spends(c.move) for c in ev.candidates)


def hints(view: PlayerView, budget: Budget = DEFAULT_BUDGET, evaluation: Evaluation | None = None) -> list[Hint]:
    """Every evaluated candidate, best first: "hint" is the first, "hint again" the next.

    Depends on the view only (the evaluation samples the hidden hands from it).
    """
    ev = evaluation if evaluation is not None else evaluate(view, (), budget)
    return [Hint(c.move, c.win_chance, c.noise, reason(view, c.move, ev), c.proven, c.samples) for c in ev.candidates]


def level_for(loss: float, noise: float, thresholds: tuple[float, float, float] = (INACCURACY, MISTAKE, BLUNDER)) -> str:
    """The verdict band of a loss of ``loss`` (see the module docstring).

    The band is the estimate's; ``noise`` does not move it (a loss of 0.12 is
    never "good"), it decides whether the band is flagged and how surely it is
    said (:attr:`Verdict.flagged`, :attr:`Verdict.sure`).  ``thresholds``
    (inaccuracy, mistake, blunder) are in the loss's units: win chances for a
    play, base stakes for a bid (:mod:`tutor.coach.bidding`).
    """
    inaccuracy, mistake, blunder = thresholds
    if loss <= 0:
        return "best"
    if loss < inaccuracy:
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
    # Issue 29: every loss told from luck gets its reason, a pattern proven by its counterfactual
    # (or no_simple_reason naming the best move); the proposed move travels with it as data.
    why = explain(view, move, ev) if loss > NOISE_SIGMAS * noise else None
    verdict = Verdict(move, got.win_chance, ev.best.move, ev.best.win_chance, loss, noise, level,
                      None if why is None else why.finding, got.noise, ev.best.noise,
                      None if why is None else why.proposal)  # fmt: skip
    return verdict, ev


def move_text(move: Move) -> str:
    return t("coach.pass_move") if move is None else move.text


def chance_phrase(chance: float, err: float | None, proven: bool = False) -> Phrase:
    """A win chance with the precision it has: "56% (±4%)"; "over 97%" / "under 3%" when every
    sample agreed (not a proof: the bound is three noises, the rule of three); "100%" only proven."""
    if proven or not err:
        return Phrase("coach.chance_plain", {"chance": _pct(chance)})  # exact (going out), or saved before issue 20
    if chance >= 1.0:
        return Phrase("coach.chance_over", {"bound": _pct(max(0.0, 1 - 3 * err))})
    if chance <= 0.0:
        return Phrase("coach.chance_under", {"bound": _pct(min(1.0, 3 * err))})
    return Phrase("coach.chance_pm", {"chance": _pct(chance), "err": _pct(err)})


def signed_loss(loss: float, noise: float) -> Phrase:
    """A loss with its noise, in points of win chance: "−12 ± 6 points" (a loss of 0.12 ± 0.06)."""
    return Phrase("coach.loss_figures", {"loss": round(100 * loss), "noise": max(1, round(100 * noise)) if noise else 0})


def verdict_phrase(v: Verdict) -> Phrase:
    """The verdict as data (rendered late; the store keeps it so): :func:`verdict_text`.

    The words follow the figures: "good" only below a loss of 0.10; a loss the
    samples cannot tell from luck is "unclear" with its figures; a flagged band
    that could change within twice the noise is "probably" that band.
    """
    chance = chance_phrase(v.win_chance, v.chance_err)
    if v.costly:
        line = Phrase("coach.verdict_cost", {
            "cost": cost_phrase(v.loss, v.noise), "chance": chance,
            "best": move_phrase(v.best_move), "best_chance": chance_phrase(v.best_chance, v.best_err),
        })  # fmt: skip
        return _with_explanation(line, v)
    if v.level in ("best", "good"):
        return Phrase(f"coach.verdict_{v.level}", {"chance": chance})
    values: dict[str, object] = {
        "chance": chance,
        "best": move_phrase(v.best_move),
        "best_chance": chance_phrase(v.best_chance, v.best_err),
        "loss": signed_loss(v.loss, v.noise),
        "level": Phrase(f"coach.level_{v.level}"),
    }
    if v.unclear:
        line = Phrase("coach.verdict_borderline" if v.borderline else "coach.verdict_unclear", values)
        return _with_explanation(line, v) if v.borderline else line
    line = Phrase(f"coach.verdict_{v.level}" if v.sure else f"coach.verdict_probably_{v.level}", values)
    return _with_explanation(line, v)


def explanation_phrase(v: Verdict) -> Phrase | None:
    """The verdict's reason as data, naming the proposed move when the verdict's line does not (issue 29)."""
    if v.explanation is None:
        return None
    if v.proposal is None:
        return v.explanation.phrase
    return reason_phrase(Reason(v.explanation, v.proposal), v.best_move)


def _with_explanation(line: Phrase, v: Verdict) -> Phrase:
    why = explanation_phrase(v)
    return line if why is None else Phrase("coach.joined", {"first": line, "second": why})


def verdict_text(v: Verdict) -> str:
    """One line: the verdict, the win chances, the better move, and the explanation if any."""
    return verdict_phrase(v).render()


def hint_phrase(n: int, hint: Hint) -> Phrase:
    """Hint number ``n`` as data: the move, its win chance (± error) and the reason."""
    values = {
        "n": n,
        "move": move_phrase(hint.move),
        "chance": chance_phrase(hint.win_chance, hint.stderr, hint.proven),
        "reason": hint.reason.phrase,
    }
    return Phrase("coach.hint_eval", values)


def hint_text(n: int, hint: Hint) -> str:
    return hint_phrase(n, hint).render()


def _pct(x: float) -> str:
    return f"{round(100 * x)}%"
