"""Why a move lost: a reason that is a checked counterfactual (issue 29).

A beginner's pattern (:mod:`tutor.coach.mistakes`) matching the move played is
not yet a reason: "you broke the bomb 8888" explains nothing when every move
that keeps the bomb loses as much.  So each pattern names the move that avoids
its fault — the best evaluated candidate that does not commit it — and the
pattern is the reason only when that move beats the one played by more than
:data:`~tutor.coach.evaluation.NOISE_SIGMAS` times the noise of their paired
difference, measured on the *same* samples (the first ``n`` that both saw:
common random numbers).  Otherwise the next pattern is tried; when none holds,
the reason is ``no_simple_reason`` and names the best move and its gain.

The codes are stable (docs/coach.md lists them); the proposal travels with the
reason as data (:class:`Proposal`), so ``ddz analyze --json`` gives the move,
its win chance and the noise, never a move in the text only.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from tutor.coach.evaluation import NOISE_SIGMAS, CandidateValue, Evaluation, Move
from tutor.coach.mistakes import (
    Detector,
    Finding,
    _high_in,
    answers_needlessly,
    beatable_answer,
    beaters,
    beats_partner,
    breaks_bomb,
    breaks_bomb_for_straight,
    breaks_combination,
    breaks_rocket,
    keeps_long_combination,
    keeps_low_singles,
    low_singles,
    leads_pair_when_opponent_has_two,
    leads_single_when_landlord_has_one,
    not_feeding_partner,
    overkill,
    overtakes_partner,
    passes_partner_beatable,
    passes_to_opponent,
    plays_left,
    plays_into_bomb,
    plays_over_partner,
    riskier_answer,
    spends_control,
    spends_high_cards_early,
    throws_top_single_while_rocket_out,
)
from tutor.engine.combos import Combo, Kind
from tutor.engine.rules import STANDARD, Rules
from tutor.engine.view import PlayerView
from tutor.i18n import Phrase

#: The code of the reason given when no pattern is proven by its counterfactual.
NO_SIMPLE_REASON = "no_simple_reason"
#: A move is proposed only when it is better by at least this much (5 points of win chance) one noise below
#: its estimate.  Measured (``ddz bench coach --heldout``): proposals of "+5 ± 2" and "+8 ± 3 points" on
#: small costs were, over every hidden split solved exactly, 4 and 2 points better — beyond the noise, but
#: not a move worth proposing.
MIN_GAIN = 0.05


@dataclass(frozen=True, slots=True)
class Proposal:
    """The move a reason proposes (``instead``), measured against the move played on the same samples."""

    move: Move
    #: The proposed move's win chance on the paired samples.
    win_chance: float
    #: The played move's win chance on the same samples.
    played_chance: float
    #: ``win_chance - played_chance``.
    gain: float
    #: Standard error of ``gain`` (the spread of the per-sample differences).
    noise: float
    samples: int

    @property
    def proven(self) -> bool:
        """Better beyond the noise (a gain above :data:`NOISE_SIGMAS` noises) and by a move's worth: at least
        :data:`MIN_GAIN` one noise below the estimate."""
        return self.gain > 0 and self.gain > NOISE_SIGMAS * self.noise and self.gain - self.noise >= MIN_GAIN

    @property
    def move_text(self) -> str:
        return "pass" if self.move is None else self.move.text

    def to_data(self) -> dict[str, Any]:
        return {
            "instead": None if self.move is None else self.move.notation,
            "instead_win_chance": self.win_chance,
            "played_chance": self.played_chance,
            "gain": self.gain,
            "noise": self.noise,
            "samples": self.samples,
        }

    @classmethod
    def from_data(cls, data: Any, rules: Rules) -> Proposal:
        """Read :meth:`to_data` back (ValueError on anything else)."""
        if not isinstance(data, dict):
            raise ValueError(f"not a stored proposal: {str(data)[:40]!r}")
        text = data.get("instead")
        if text is not None and not isinstance(text, str):
            raise ValueError(f"not a stored move: {str(text)[:40]!r}")
        try:
            figures = [float(data[k]) for k in ("instead_win_chance", "played_chance", "gain", "noise")]
            samples = int(data["samples"])
        except (KeyError, TypeError, ValueError) as error:
            raise ValueError(f"not a stored proposal: {str(data)[:40]!r}") from error
        move = None if text is None else Combo.parse(text, rules)
        return cls(move, figures[0], figures[1], figures[2], figures[3], samples)


def paired(ev: Evaluation, instead: CandidateValue, played: CandidateValue) -> Proposal:
    """``instead`` against ``played`` on the samples both saw (the first ``n``: the same deals)."""
    n = min(instead.samples, played.samples)
    if n == 0:
        return Proposal(instead.move, 0.0, 0.0, 0.0, 0.0, 0)
    a, b = instead.outcomes[:n], played.outcomes[:n]
    diffs = [x - y for x, y in zip(a, b)]
    gain = sum(diffs) / n
    noise = 0.0
    if n > 1:
        var = sum((d - gain) ** 2 for d in diffs) / (n - 1)
        noise = math.sqrt(var / n)
    if noise == 0.0 and gain != 0.0:
        noise = 1.0 / n  # every sample agreed: not a proof (the rule of three's third, as the chances)
    return Proposal(instead.move, sum(a) / n, sum(b) / n, gain, noise, n)


#: Does ``alt`` avoid the fault that ``finding`` names in ``move``?  (view, move, alt, finding)
Fixes = Callable[[PlayerView, Move, Move, Finding], bool]


@dataclass(frozen=True, slots=True)
class Pattern:
    """A beginner's fault: its detector, and which moves avoid it (default: those the detector passes)."""

    detect: Detector
    fixes: Fixes | None = None
    #: The finding's words once the avoiding move is known (a value that names it).
    word: Callable[[PlayerView, Finding, Move, Move], Finding] | None = None

    def avoided_by(self, view: PlayerView, move: Move, alt: Move, finding: Finding) -> bool:
        if self.fixes is not None:
            return self.fixes(view, move, alt, finding)
        other = self.detect(view, alt)
        return other is None or other.code != finding.code


def _pass_only(view: PlayerView, move: Move, alt: Move, finding: Finding) -> bool:
    return alt is None


def _a_play(view: PlayerView, move: Move, alt: Move, finding: Finding) -> bool:
    return alt is not None


def _lower_same_kind(view: PlayerView, move: Move, alt: Move, finding: Finding) -> bool:
    return alt is not None and move is not None and alt.kind == move.kind and alt.length == move.length and not _high_in(alt)


def _sure_answer(view: PlayerView, move: Move, alt: Move, finding: Finding) -> bool:
    return alt is not None and not alt.is_bomb and beatable_answer(view, alt) is None


def _safer_answer(view: PlayerView, move: Move, alt: Move, finding: Finding) -> bool:
    if alt is None or alt.is_bomb:
        return False
    j = beaters(view, alt)
    return j is not None and j < int(str(finding.values["k"]))


def _long_play(view: PlayerView, move: Move, alt: Move, finding: Finding) -> bool:
    return alt is not None and alt.size >= 5 and not alt.is_bomb


def _low_single_lead(view: PlayerView, move: Move, alt: Move, finding: Finding) -> bool:
    """Leads one of the hand's low singles (not a card out of a pair or trio)."""
    return alt is not None and alt.kind == Kind.SINGLE and alt.main in low_singles(view)


def _no_control(view: PlayerView, move: Move, alt: Move, finding: Finding) -> bool:
    return spends_control(view, alt) is None


def _fewer_plays(view: PlayerView, move: Move, alt: Move, finding: Finding) -> bool:
    return plays_left(view, alt) < int(str(finding.values["after"]))


def _word_lower(view: PlayerView, finding: Finding, move: Move, alt: Move) -> Finding:
    assert alt is not None
    return Finding(finding.code, {**finding.values, "lower": alt.text})


def _word_instead(view: PlayerView, finding: Finding, move: Move, alt: Move) -> Finding:
    values: dict[str, object] = {**finding.values, "instead": move_phrase(alt)}
    if finding.code == "breaks_combination":
        values["alt_after"] = plays_left(view, alt)
    if finding.code == "riskier_answer" and alt is not None:
        values["j"] = beaters(view, alt) or 0
    if finding.code == "keeps_long_combination" and alt is not None:
        values["n"] = alt.size
    return Finding(finding.code, values)


#: The catalogue, most specific first: the first pattern proven by its counterfactual is the reason.
PATTERNS: tuple[Pattern, ...] = (
    Pattern(breaks_bomb_for_straight),
    Pattern(breaks_rocket),
    Pattern(breaks_bomb),
    Pattern(beats_partner, _pass_only),
    Pattern(overtakes_partner, _pass_only, _word_instead),
    Pattern(passes_partner_beatable, _a_play, _word_instead),
    Pattern(plays_over_partner, _pass_only, _word_instead),
    Pattern(passes_to_opponent, _a_play, _word_instead),
    Pattern(leads_single_when_landlord_has_one),
    Pattern(leads_pair_when_opponent_has_two, None, _word_instead),
    Pattern(not_feeding_partner),
    Pattern(throws_top_single_while_rocket_out),
    Pattern(overkill, _lower_same_kind, _word_lower),
    Pattern(beatable_answer, _sure_answer, _word_instead),
    Pattern(riskier_answer, _safer_answer, _word_instead),
    Pattern(spends_high_cards_early),
    Pattern(keeps_long_combination, _long_play, _word_instead),
    Pattern(keeps_low_singles, _low_single_lead, _word_instead),
    Pattern(plays_into_bomb, None, _word_instead),
    Pattern(spends_control, _no_control, _word_instead),
    Pattern(breaks_combination, _fewer_plays, _word_instead),
    Pattern(answers_needlessly, _pass_only, _word_instead),
)


@dataclass(frozen=True, slots=True)
class Reason:
    """Why ``move`` lost: a remark (code and values) and the move it proposes, measured."""

    finding: Finding
    proposal: Proposal

    @property
    def specific(self) -> bool:
        return self.finding.code != NO_SIMPLE_REASON


def explain(view: PlayerView, move: Move, ev: Evaluation, patterns: Sequence[Pattern] = PATTERNS) -> Reason | None:
    """The first pattern of ``move`` whose fault-free alternative is better beyond the noise.

    None when nothing is measurably better than ``move`` (no reason to give);
    otherwise a specific reason, or ``no_simple_reason`` naming the best move.
    """
    played = ev.value(move)
    if played is None:
        return None
    for pattern in patterns:
        finding = pattern.detect(view, move)
        if finding is None:
            continue
        alt = next((c for c in ev.candidates if c.move != move and pattern.avoided_by(view, move, c.move, finding)), None)
        if alt is None:
            continue
        proposal = paired(ev, alt, played)
        if not proposal.proven:
            continue
        if pattern.word is not None:
            finding = pattern.word(view, finding, move, alt.move)
        return Reason(finding, proposal)
    best = ev.best
    if best.move == move:
        return None
    proposal = paired(ev, best, played)
    if not proposal.proven:
        return None
    return Reason(no_simple_finding(proposal), proposal)


def no_simple_finding(proposal: Proposal) -> Finding:
    """"The best was T: +40 ± 5 points; no simple rule explains it"."""
    return Finding(NO_SIMPLE_REASON, {"best": move_phrase(proposal.move), "gain": gain_phrase(proposal)})


def gain_phrase(proposal: Proposal) -> Phrase:
    """A gain with its noise, in points of win chance: "+40 ± 5 points"."""
    return Phrase("coach.gain_figures", {"gain": round(100 * proposal.gain), "noise": max(1, round(100 * proposal.noise))})


def move_phrase(move: Move) -> str | Phrase:
    """A move as data: its cards, or the word for pass in the language it is read in."""
    return Phrase("coach.pass_move") if move is None else move.text


__all__ = ["MIN_GAIN", "NO_SIMPLE_REASON", "PATTERNS", "Pattern", "Proposal", "Reason", "explain", "paired"]
