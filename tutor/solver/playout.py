"""The compiled quick play-out: a fast, fixed policy that plays a game to its end.

The solver's C core (``tutor/solver/_native.c``) holds, besides the exact
search, a cheap rule-of-thumb policy: each seat decides from its own hand, the
card counts and the table.  It is about a hundred times cheaper a game than the
hard level's judgement in Python, which is what lets the coach sample enough
deals for a precise verdict and the auction sense score a bid (docs/coach.md).

It is public here, beside the exact search, so that the coach and the bots use
one entry point and neither reaches into the other's helpers.  Standard play,
three seats (:func:`available`); everything else plays a Python policy on
:class:`tutor.engine.game.Game` instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from tutor.engine.combos import Combo, Kind
from tutor.engine.rules import Rules
from tutor.engine.trick import tables_faced
from tutor.engine.view import PlayerView

if TYPE_CHECKING:
    from tutor.solver.team_native import NativeTeamSearch


def available(rules: Rules) -> bool:
    """Is the compiled play-out usable for the coach's evaluations under ``rules``?  It is built with the
    solver's C core; the coach uses it for the classic game only (:attr:`Rules.native_coach`)."""
    from tutor.solver import native

    return rules.native_coach and native.available()


def plays(rules: Rules) -> bool:
    """Can the compiled play-out play a game of ``rules``?  Any rule set that plays like the standard
    one (the auction variants too: the play is the same game; :meth:`Rules.plays_like` also fixes
    the seats at three)."""
    from tutor.solver import native

    return rules.native_play and native.available()


#: The play-out policy's variants for chosen seats (``_native.c``, ``sim_choose``): "quick" is the policy
#: itself; "lowest" follows with the lowest answer of the table's kind whenever it has one, the partner's
#: play included (as RLCard's rule agent follows); "rule" also leads a play holding its lowest card (as the
#: rule agent leads); "agent" is RLCard's rule agent as its code plays (its split of the hand for the lead,
#: its answers, its draw between a pass and a bomb made by a hash of the position).  The hard bot's play-outs
#: may let the opponents play one (docs/bots.md measures them).  "plan" (round 12) is not a model of an opponent
#: but a stronger policy for every seat: quick with a sense of control — it also reads the cards still out (the
#: others' hands together, as the played cards tell a real player) and keeps its unbeatable plays to win the
#: lead back (``_native.c``, ``plan_choose``; :attr:`tutor.bots.hard.HardBot.playout_policy`).
#: "fit" (round 13) is a model of the opponents whose weights were FITTED by maximum likelihood to the recorded moves
#: of several rule-based players (RLCard's rule agent and our medium level, both roles): a linear score of cheap
#: features of each legal move, the best-scored played (``_fit.c``; benchmarks/fit_model.py fits it and measures
#: how well it predicts a player it never saw, RHCP-v2).  Like plan it reads the cards still out.
VARIANTS: dict[str, int] = {"quick": 0, "lowest": 1, "rule": 2, "agent": 3, "plan": 4, "fit": 5}
#: The variants that read the cards still out (the others' hands together) besides the seat's own view.
READS_REST = frozenset({"plan", "fit"})


def variant_code(name: str) -> int:
    """The C core's number of the variant ``name`` (a ValueError naming it when there is none)."""
    try:
        return VARIANTS[name]
    except KeyError:
        raise ValueError(f"no play-out variant {name[:40]!r}") from None


def _table(table: Combo | None) -> tuple[int, int, int, int] | None:
    return None if table is None else (table.cards, int(table.kind), table.length, table.main)


def _sim(variant: str, seats: Sequence[int], base: str = "quick", pinned: bool = False) -> tuple[int, ...]:
    """The C call's trailing arguments for ``seats`` playing ``variant`` and the others ``base``: none for the
    quick policy alone (the call every caller made before the variants), else (variant code, seat mask) and,
    when ``base`` is not the quick policy, its code.  ``seats`` playing the quick policy itself play ``base``
    too unless ``pinned`` (round 16: "plan" for the bot's own side only, the opponents still their model)."""
    code, base_code = variant_code(variant), variant_code(base)
    mask = sum(1 << s for s in set(seats)) if code or (pinned and base_code) else 0
    if base_code:
        return code if mask else 0, mask, base_code
    if not mask:
        return ()
    return code, mask


def playout(
    hands: Sequence[int], landlord: int, to_move: int, table: Combo | None, table_seat: int | None,
    variant: str = "quick", seats: Sequence[int] = (), base: str = "quick", pinned: bool = False,
) -> int:
    """The winner's seat when the quick policy plays every seat from here to the end
    (-1 if 400 turns pass, which cannot happen with legal play); the ``seats`` play ``variant``
    (:data:`VARIANTS`) instead, and the other seats ``base`` ("plan": round 12's policy for every seat;
    ``pinned``: see :func:`_sim`)."""
    from tutor.solver.native import _native

    assert _native is not None
    seat = -1 if table_seat is None else table_seat
    return int(_native.playout(
        tuple(hands), landlord, to_move, _table(table), seat, False, *_sim(variant, seats, base, pinned)
    ))


def tail_search(landlord: int, players: int) -> NativeTeamSearch | None:
    """A fresh compiled team search for :func:`solved_playout` (landlord ``landlord`` of ``players`` seats: the
    compiled search is built for three), or None when it is not built.  Fresh for each decision: its table then holds only what this decision's play-outs proved,
    so the same view gives the same play-outs whatever came before."""
    from tutor.solver.team_native import NativeTeamSearch, available as team_available

    if not team_available():
        return None
    return NativeTeamSearch(tuple(0 if s == landlord else 1 for s in range(players)))


def solved_playout(
    search: NativeTeamSearch, hands: Sequence[int], to_move: int, table: Combo | None, table_seat: int | None,
    variant: str = "quick", seats: Sequence[int] = (), tail: int = 0, nodes: int = 0, base: str = "quick",
) -> int:
    """:func:`playout` with its end solved exactly: once at most ``tail`` cards are in play the open-hand
    position is solved by ``search`` (:func:`tail_search`, whose landlord is the game's) in at most ``nodes``
    nodes, and its winning side wins (the landlord's seat, or the first farmer's for the farmers); where the
    nodes do not suffice the quick policy plays on.  Round 8 (the farmers' play-outs): the quick policy plays
    the endgame far below the bots' exact search, which is what the game will meet there.  The seats not in
    ``seats`` play ``base``."""
    code, mask = variant_code(variant), sum(1 << s for s in set(seats))
    return search.playout(
        tuple(hands), to_move, table, table_seat, code if mask else 0, mask, tail, nodes, variant_code(base)
    )


def playout_line(
    hands: Sequence[int], landlord: int, to_move: int, table: Combo | None, table_seat: int | None,
    variant: str = "quick", seats: Sequence[int] = (), base: str = "quick", pinned: bool = False,
) -> tuple[int, list[Combo | None]]:
    """:func:`playout` with the moves it made, in order (None = pass): to step them on a game."""
    from tutor.solver.native import _native

    assert _native is not None
    seat = -1 if table_seat is None else table_seat
    winner, raw = _native.playout(
        tuple(hands), landlord, to_move, _table(table), seat, True, *_sim(variant, seats, base, pinned)
    )
    return int(winner), [None if m is None else _combo(m) for m in raw]


def choose(view: PlayerView, variant: str = "quick") -> Combo | None:
    """The quick policy's move (or its ``variant``'s) for the player of ``view`` (its hand, the card counts,
    the table; for "plan" and "fit" also the cards still out, :meth:`PlayerView.unseen`)."""
    from tutor.solver.native import _native

    assert _native is not None and view.landlord is not None
    seat = -1 if view.table_seat is None else view.table_seat
    code = variant_code(variant)
    extra = (view.unseen().packed,) if variant in READS_REST else ()
    raw = _native.choose(
        view.hand.packed, tuple(view.card_counts), view.landlord, view.seat, _table(view.table), seat, code, *extra
    )
    return None if raw is None else _combo(raw)


def fit_features(view: PlayerView) -> list[tuple[Combo | None, tuple[int, ...]]]:
    """The fitted model's candidates for the player of ``view`` (its legal moves in the C core's order, the pass
    last when following) with each one's integer features (``_fit.c``'s order): what benchmarks/fit_model.py
    fits the weights on, from the seat's own view and the cards still out."""
    from tutor.solver.native import _native

    assert _native is not None and view.landlord is not None
    seat = -1 if view.table_seat is None else view.table_seat
    raw = _native.fit_features(
        view.hand.packed, tuple(view.card_counts), view.landlord, view.seat, _table(view.table), seat,
        view.unseen().packed,
    )
    return [(None if m is None else _combo(m), tuple(f)) for m, f in raw]


def fit_weights() -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The fitted model's integer weights as compiled: (a farmer deciding, the landlord deciding), in
    :func:`fit_features`' order."""
    from tutor.solver.native import _native

    assert _native is not None
    farmer, landlord = _native.fit_weights()
    return tuple(farmer), tuple(landlord)


def _combo(raw: tuple[int, int, int, int]) -> Combo:
    return Combo(cards=raw[0], kind=Kind(raw[1]), length=raw[2], main=raw[3])


def _history(view: PlayerView) -> list[tuple[int, tuple[int, int, int, int] | None, tuple[int, int, int, int] | None, int]]:
    """The view's public history as the C replay reads it: (seat, play, table faced, its seat or -1) a turn."""
    return [
        (turn.seat, _table(turn.play), _table(table), -1 if table_seat is None else table_seat)
        for turn, table, table_seat in tables_faced(view.history, view.players)
    ]


def _first(view: PlayerView, recent: int | None) -> int:
    return 0 if recent is None else max(0, len(view.history) - recent)


def _slots(view: PlayerView, hidden: dict[int, int]) -> tuple[int, int, int]:
    a, b, c = (view.hand.packed if s == view.seat else hidden.get(s, 0) for s in range(view.players))
    return a, b, c


def mismatches(view: PlayerView, hidden: dict[int, int], variant: str = "quick", recent: int | None = None) -> int:
    """:func:`tutor.bots.sampling.mismatches` compiled, with ``variant`` of the play-out policy as the model: how
    many of the others' last ``recent`` decisions (None: all) it would have made differently on the deal
    ``hidden`` (packed hands by seat).  Three seats, a landlord named."""
    from tutor.solver.native import _native

    assert _native is not None and view.landlord is not None and plays(view.rules)  # three seats
    wrong, _ = _native.mismatches(
        _history(view), view.seat, tuple(view.card_counts), view.landlord, _slots(view, hidden),
        variant_code(variant), _first(view, recent),
    )
    return int(wrong)


def nudge(
    view: PlayerView, deals: Sequence[dict[int, int]], known: int, variant: str, steps: int, recent: int | None,
    seed: int,
) -> list[dict[int, int]]:
    """Each of ``deals`` nudged by up to ``steps`` card swaps towards one in which the others' last ``recent``
    plays (None: all) are what ``variant`` of the play-out policy would have made — the swap rule of
    :func:`tutor.bots.sampling.likely_samples`, compiled (``_nudge.c``); ``known`` (packed) is what the landlord
    holds for sure and never moves.  The random swaps come from ``seed`` alone: the same view and seed give
    the same deals.  The work: at most ``len(deals) · (steps + 1)`` replays of those plays."""
    from tutor.solver.native import _native

    assert _native is not None and view.landlord is not None and plays(view.rules)  # three seats
    others = [s for s in range(view.players) if s != view.seat]
    raw = _native.nudge(
        _history(view), view.seat, tuple(view.card_counts), view.landlord, known,
        [_slots(view, d) for d in deals], variant_code(variant), steps, _first(view, recent), seed,
    )
    return [{s: int(hands[s]) for s in others} for hands, _ in raw]


def mismatch_counts(
    view: PlayerView, deals: Sequence[dict[int, int]], variant: str, recent: int | None = None
) -> list[int]:
    """:func:`mismatches` of each of ``deals`` in one compiled call (the history read once): how many of the
    others' last ``recent`` decisions (None: all) ``variant`` would have made differently on each deal.
    The nudge with no swap, so the count is the nudging's own replay (round 8's filter of the deals)."""
    from tutor.solver.native import _native

    assert _native is not None and view.landlord is not None and plays(view.rules)  # three seats
    raw = _native.nudge(
        _history(view), view.seat, tuple(view.card_counts), view.landlord, 0,
        [_slots(view, d) for d in deals], variant_code(variant), 0, _first(view, recent), 0,
    )
    return [int(wrong) for _, wrong in raw]
