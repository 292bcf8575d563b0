"""Look-ahead budgets counted in work, never in seconds.

A bot's decision must be the same on an idle and on a busy machine (the
same deal and the same actions give the same game; a hint asked twice gives
the same move).  So the hard bot's look-ahead is bounded by counts that do not
depend on the machine: sampled deals, card swaps, solver nodes — and, as the
safety stop of a decision whose history is unusually long, :class:`Effort`:
the number of *model decisions* (a medium-level ``play`` call, the unit of
work of both the swap step of :func:`tutor.bots.sampling.likely_samples` and
the rolled-out games of :mod:`tutor.bots.rollout`) that one decision may
spend.  It plays the part a node budget plays in the solver.  (The hard bot
also counts the solver nodes of its search in one, to decide by nodes, not
seconds, whether rollouts still fit into the decision.)
"""

from __future__ import annotations


class Effort:
    """A count of work (model decisions, or solver nodes) spent against an optional limit (None = no limit)."""

    __slots__ = ("limit", "spent")

    def __init__(self, limit: int | None = None) -> None:
        if limit is not None and limit < 0:
            raise ValueError(f"effort limit must be at least 0, not {limit!r}")
        self.limit = limit
        self.spent = 0

    def __repr__(self) -> str:
        return f"Effort(limit={self.limit!r}, spent={self.spent!r})"

    def spend(self, decisions: int = 1) -> None:
        self.spent += decisions

    @property
    def exhausted(self) -> bool:
        """True once the limit is reached: the caller stops at its next safe point."""
        return self.limit is not None and self.spent >= self.limit
