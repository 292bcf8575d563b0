"""A played-out change that holds under every model of the opponents (round 11, issue 33).

Rounds 9 and 10 split a decision's played-out deals among models of the
opponents (the quick policy, RLCard's rule agent, ...) by how likely each is
after their past plays, and let one paired sign test over all the deals decide.
Early in a game the evidence cannot tell medium or RHCP-v2 from the rule agent,
so part of the deals is played by the wrong model — and a few such deals were
enough to change a close decision the right model's deals did not support
(docs/bots.md, rounds 9–10: the games lost against medium part from today's at
the first one or two decisions).  A level may not assume whom it plays.

The rule here asks more of a change: besides winning the pooled test, the
alternative must not be clearly worse than the heuristic's choice on the deals
of ANY model family (its paired statistic ``(b − c)/√(b + c)`` on that family's
deals at least ``−z``).  A family the evidence has all but ruled out has few
deals and little power to veto; a family with many deals vetoes a change its
deals contradict.  Nothing here plays a game: it reads the verdicts the
play-outs already made, so it costs no work.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def deal_families(opponents: str, count: int) -> list[str]:
    """The model each of ``count`` deals is played by, as :func:`tutor.bots.rollout.play_deals` assigns them:
    the ``+``-joined names of ``opponents`` taking turns deal by deal (one name: every deal)."""
    kinds = opponents.split("+")
    return [kinds[d % len(kinds)] for d in range(count)]


def paired_statistic(base: Sequence[bool], other: Sequence[bool], keep: Sequence[bool] | None = None) -> float:
    """The sign test's ``(b − c)/√(b + c)`` of ``other`` against ``base`` over the deals ``keep`` marks (all when
    None): ``b`` deals ``other`` wins and ``base`` loses, ``c`` the reverse; 0 when they never differ."""
    won = lost = 0
    for d, (a, b) in enumerate(zip(base, other, strict=True)):
        if keep is not None and not keep[d]:
            continue
        won += b and not a
        lost += a and not b
    return 0.0 if won + lost == 0 else (won - lost) / (won + lost) ** 0.5


def family_statistics(base: Sequence[bool], other: Sequence[bool], families: Sequence[str]) -> dict[str, float]:
    """Each family's paired statistic of ``other`` against ``base`` on its own deals (``families[d]``: deal d's)."""
    if len(families) != len(base):
        raise ValueError("one family a deal")
    return {f: paired_statistic(base, other, [g == f for g in families]) for f in dict.fromkeys(families)}


def holds_under_every_family(base: Sequence[bool], other: Sequence[bool], families: Sequence[str], z: float) -> bool:
    """Is ``other`` at least ``−z`` standard errors from ``base`` on the deals of every family (no family's deals
    clearly against the change)?"""
    return all(s >= -z for s in family_statistics(base, other, families).values())


def robust_choice(per_family: Mapping[str, Sequence[Sequence[bool]]], z: float, veto: float) -> int:
    """The candidate to play when every candidate met the same deals under each family of opponents' models
    (``per_family[f][i][d]``: did candidate ``i`` win deal ``d`` with the opponents playing ``f``).

    The first candidate is the heuristic's choice.  An alternative replaces it when its paired statistic
    against the choice is above ``z`` under at least one family (some plausible opponent makes it clearly
    better) and at least ``−veto`` under every family (no plausible opponent makes it clearly worse); among
    those, the most wins over all the families (ties: the earlier candidate).  No family is assumed to be the
    one met: the rule needs no posterior, so early in a game, before the evidence, it is not led by the
    model the prior happens to favour.
    """
    tables = list(per_family.values())
    if not tables:
        raise ValueError("no family")
    best, best_wins = 0, sum(sum(t[0]) for t in tables)
    for i in range(1, len(tables[0])):
        stats = [paired_statistic(t[0], t[i]) for t in tables]
        wins = sum(sum(t[i]) for t in tables)
        if max(stats) > z and min(stats) >= -veto and wins > best_wins:
            best, best_wins = i, wins
    return best
