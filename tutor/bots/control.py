"""Control counted: which planned plays win the lead back, and which one to lead while they last.

The planner (:mod:`tutor.bots.planner`) splits a hand into the fewest, strongest
plays as if the hand always had the lead.  A landlord plays alone against two
and does not always have it: every play the farmers can answer may hand them the
lead, and only a *control* — a play no farmer can beat given the unseen cards
(:func:`tutor.engine.facts.is_boss`), or a bomb — is sure to take it back.  The
classic count of Dou Di Zhu hand strength follows: the turns a hand still needs
are its answerable plays less its controls (each control regains one lost lead).

What that changes in the lead (:func:`control_lead`):

* **lead where a control covers you**: an answerable group of a shape (kind and
  length) in which the hand also holds a control is a free lead — whatever the
  farmers answer with, the control of that shape beats it and the lead comes
  back, and if they pass the landlord keeps it;
* **while short of controls, lead what they can hardly answer**: with more
  answerable plays than controls the landlord will lose the lead for good
  somewhere, so (mode 2) it sheds first the uncovered group with the fewest
  possible answers among the unseen cards, keeping the lead as long as it can;
  with enough controls it leads the weakest group as before.

Everything is computed from the seat's own view (its hand and the unseen cards),
deterministically and without search: it is a judgement, not a look-ahead.

Measured (docs/bots.md, round 6): under the hard landlord's play-outs neither lead
changes its results against RLCard's rule agent, and as a judgement alone both lose
to the plain "weakest first" lead; the knobs of :class:`tutor.bots.hard.HardBot`
that use this module are off.
"""

from __future__ import annotations

from dataclasses import dataclass

from tutor.bots.counting import beaters
from tutor.bots.medium import lead_key
from tutor.engine.cards import RA
from tutor.engine.combos import Combo, Kind
from tutor.engine.facts import is_boss
from tutor.engine.rules import Rules

Shape = tuple[int, int]


def shape(combo: Combo) -> Shape:
    """What a play must match to answer it: its kind and length (RULES §6)."""
    return (combo[1], combo[2])


@dataclass(frozen=True, slots=True)
class ControlPlan:
    """A plan's groups sorted into controls (bosses and bombs) and the groups the farmers may answer."""

    controls: tuple[Combo, ...]
    answerable: tuple[Combo, ...]

    @property
    def turns(self) -> int:
        """Answerable plays less controls: how many leads the hand will lose and not win back (if > 0)."""
        return len(self.answerable) - len(self.controls)

    def covered(self) -> tuple[Combo, ...]:
        """Answerable groups of a shape in which a (non-bomb) control of the hand beats any answer."""
        shapes = {shape(c) for c in self.controls if not c.is_bomb}
        return tuple(g for g in self.answerable if shape(g) in shapes)


def control_plan(groups: tuple[Combo, ...], hidden: int, biggest: int, rules: Rules) -> ControlPlan:
    """Sort a plan's ``groups`` by whether any hand of ``biggest`` cards from ``hidden`` can beat them."""
    controls = []
    answerable = []
    for g in groups:
        if g.is_bomb or is_boss(g, hidden, biggest, bombs=False, rules=rules):
            controls.append(g)
        else:
            answerable.append(g)
    return ControlPlan(tuple(controls), tuple(answerable))


#: Kinds whose high ranks are the hand's near-controls: an ace or a 2 (single, pair, trio) wins most
#: leads back even when it is not a boss, so it is kept for that, never led to shed it.
_RANKED = (Kind.SINGLE, Kind.PAIR, Kind.TRIO, Kind.TRIO_SINGLE, Kind.TRIO_PAIR)


def spendable(combo: Combo) -> bool:
    """A group worth leading to get rid of it: a chain, or a single, pair or trio below the ace."""
    return combo[1] not in _RANKED or combo[3] < RA


def answers(combo: Combo, hidden: int, biggest: int, rules: Rules) -> int:
    """How many plain plays (not bombs) a hand of ``biggest`` cards from ``hidden`` could answer ``combo`` with."""
    return len(beaters(combo, hidden, biggest, bombs=False, rules=rules))


def control_lead(plan: ControlPlan, hidden: int, biggest: int, rules: Rules, mode: int) -> Combo | None:
    """The lead the control count asks for, or None to leave the choice to the plain lead.

    Mode 1 leads the weakest covered group if there is one; mode 2 also, when the
    hand is short of controls (``turns > 0``), leads the uncovered group the farmers
    can answer in the fewest ways.  Controls themselves are never led here: they are
    kept to win the lead back and to finish (the endgame's cashing is
    :meth:`tutor.bots.hard.HardBot.boss_first`'s).
    """
    covered = [g for g in plan.covered() if spendable(g)]
    if covered:
        return min(covered, key=lead_key)
    weak = [g for g in plan.answerable if spendable(g)]
    if mode >= 2 and plan.turns > 0 and weak:
        return min(weak, key=lambda g: (answers(g, hidden, biggest, rules), lead_key(g)))
    return None
