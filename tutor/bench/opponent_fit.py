"""How often each compiled play-out variant makes an opponent's actual move (issue 33, a diagnostic).

The hard landlord judges its early candidates by play-outs in which the farmers play one of the compiled
policies of :mod:`tutor.solver.playout` ("quick", "lowest", "rule", "agent").  Which of them plays most
like the farmers it meets is a question of fact: this module plays games of our level as the landlord
against an opponent's two farmers, and at each of the opponent's decisions asks every variant what it would
play in that seat (:func:`tutor.solver.playout.choose`, from the seat's own view) and whether that is the
move the opponent made (the same cards, or both a pass).

A full-information-free diagnostic, but a benchmark's: it names whom it plays against, which a bot may not
assume (docs/bots.md), so nothing the game, the coach or the web use imports it.  Decisions with one legal
move only (a pass when nothing beats the table) are counted apart, not as agreements: they would say nothing
about the policy.  The rates' intervals are over decks (a deck's decisions are correlated): the ratio
estimator's 95 % interval with the deck as the cluster.

The opponents: RHCP-v2 (:mod:`tutor.bench.rhcp_arena`, a directory of its code), RLCard's rule agent
(:mod:`tutor.bench.rlcard_arena`, in RLCard's own environment) and any of our levels (our deals, as ``ddz
arena`` plays them).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tutor.bench import rhcp_arena, rlcard_arena
from tutor.bench.arena import Z95
from tutor.bots import make_bot
from tutor.engine.cards import Cards
from tutor.engine.combos import Combo
from tutor.engine.game import Game
from tutor.engine.view import PlayerView
from tutor.solver import playout

#: The landlord's seat in every game here (RLCard's dealer and our arena both make seat 0 the landlord).
LANDLORD = 0
#: The variants compared, in :data:`tutor.solver.playout.VARIANTS`'s order.
VARIANTS: tuple[str, ...] = tuple(playout.VARIANTS)
#: The two kinds of decision the rates are split by.
SITUATIONS = ("lead", "follow")

Move = Combo | None


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of the opponent: its seat's view, the move it made, and how many it could make."""

    deck: int
    view: PlayerView
    move: Move
    choices: int

    @property
    def situation(self) -> str:
        return "lead" if self.view.table is None else "follow"


@dataclass(slots=True)
class Tally:
    """Agreements of one variant in one situation, deck by deck (the interval's clusters)."""

    hits: dict[int, int] = field(default_factory=dict)
    seen: dict[int, int] = field(default_factory=dict)

    def add(self, deck: int, hit: bool) -> None:
        self.hits[deck] = self.hits.get(deck, 0) + int(hit)
        self.seen[deck] = self.seen.get(deck, 0) + 1

    @property
    def n(self) -> int:
        return sum(self.seen.values())

    def rate(self) -> tuple[float, float, float]:
        """The share of agreements with its 95 % interval, decks as clusters (0s when there is nothing)."""
        n = self.n
        if n == 0:
            return 0.0, 0.0, 0.0
        r = sum(self.hits.values()) / n
        k = len(self.seen)
        if k < 2:
            return r, r, r
        spread = sum((self.hits[d] - r * self.seen[d]) ** 2 for d in self.seen)
        half = Z95 * math.sqrt(k / (k - 1) * spread) / n
        return r, max(0.0, r - half), min(1.0, r + half)


def same(a: Move, b: Move) -> bool:
    """The same move: both passes, or the same cards (a reading of the same cards is the same play here)."""
    if a is None or b is None:
        return a is None and b is None
    return a.cards == b.cards


def tally(decisions: Iterable[Decision], variants: Sequence[str] = VARIANTS,
          choose: Callable[[PlayerView, str], Move] = playout.choose) -> dict[str, Any]:
    """The figures of ``decisions``: per variant and situation the rate with its interval and n, the forced
    decisions apart.  ``choose`` is the variants' policy (the compiled one; a test may give another)."""
    tallies = {(v, s): Tally() for v in variants for s in (*SITUATIONS, "all")}
    forced = {s: 0 for s in SITUATIONS}
    decks: set[int] = set()
    for decision in decisions:
        decks.add(decision.deck)
        situation = decision.situation
        if decision.choices <= 1:
            forced[situation] += 1
            continue
        for variant in variants:
            hit = same(choose(decision.view, variant), decision.move)
            tallies[(variant, situation)].add(decision.deck, hit)
            tallies[(variant, "all")].add(decision.deck, hit)
    rates: dict[str, dict[str, list[float]]] = {}
    counts: dict[str, int] = {}
    for (variant, situation), t in tallies.items():
        rates.setdefault(variant, {})[situation] = [round(x, 4) for x in t.rate()]
        counts[situation] = t.n
    return {"decks": len(decks), "n": counts, "forced": forced, "rates": rates}


# --- the opponents' decisions ------------------------------------------------------------------------------

def _record(game: Game, seat: int, move: Move, deck: int, into: list[Decision]) -> None:
    into.append(Decision(deck, game.view(seat), move, len(game.legal_moves())))


def theirs(seat: int, farmers: bool) -> bool:
    """Is ``seat`` the opponent's: a farmer's seat when it plays the farmers, else the landlord's."""
    return (seat != LANDLORD) == farmers


def rhcp_decisions(decks: Iterable[int], model: rhcp_arena.AgentFactory, level: str = "hard",
                   source: str = "rlcard", farmers: bool = True) -> list[Decision]:
    """RHCP-v2's decisions as the farmers against ``level`` as the landlord, or as the landlord against
    ``level``'s farmers (benchmarks/rhcp_arena.py's games, move for move)."""
    found: list[Decision] = []
    for deck in decks:
        game = rhcp_arena.deal(deck, source)
        bot = make_bot(level, deck)
        seats = [seat for seat in range(game.players) if theirs(seat, farmers)]
        agents = {seat: model(rhcp_arena.rhcp_id(seat, LANDLORD)) for seat in seats}
        while not game.is_over:
            seat = game.to_move
            view = game.view(seat)
            if not theirs(seat, farmers):
                game.play(bot.play(view))
                continue
            move = rhcp_arena.as_combo(game, rhcp_arena.rhcp_decide(agents[seat], view))
            _record(game, seat, move, deck, found)
            game.play(move)
    return found


def rule_agent_decisions(decks: Iterable[int], level: str = "hard", farmers: bool = True) -> list[Decision]:
    """RLCard's rule agent's decisions as the farmers against ``level`` as the landlord (or as the landlord),
    in RLCard's own environment (benchmarks/rlcard_arena.py's games: its ``play_game`` shows our turns only,
    so the agent's are read from the finished game, replayed)."""
    found: list[Decision] = []
    for deck in decks:
        games: list[Game] = []
        rlcard_arena.play_game(deck, level, farmers, games=games)
        found.extend(replayed(games[0], deck, farmers))
    return found


def replayed(game: Game, deck: int, farmers: bool = True) -> list[Decision]:
    """The farmers' (or the landlord's) decisions of a finished game, replayed from its deal (each seat's
    hand at the end and what it played; the landlord's kitty as the game had it)."""
    hands = [game.hand(seat) for seat in range(game.players)]
    for turn in game.history:
        if turn.play is not None:
            hands[turn.seat] = hands[turn.seat] + Cards(turn.play.cards)
    again = Game.from_hands(hands, LANDLORD, kitty=game.kitty)
    found: list[Decision] = []
    for turn in game.history:
        if theirs(turn.seat, farmers):
            _record(again, turn.seat, turn.play, deck, found)
        again.play(turn.play)
    if again.winner != game.winner:
        raise RuntimeError(f"deck {deck}: the replay ended otherwise")
    return found


def level_decisions(
    decks: Iterable[int], opponent: str, level: str = "hard", farmers: bool = True
) -> list[Decision]:
    """Our level ``opponent``'s decisions as the farmers against ``level`` as the landlord (or as the
    landlord), on our deals (the games of benchmarks/hard_paired.py's ``--against medium``)."""
    found: list[Decision] = []
    for deck in decks:
        game = Game.with_landlord(deck, LANDLORD)
        bots = [make_bot(opponent if theirs(seat, farmers) else level, deck) for seat in range(game.players)]
        while not game.is_over:
            seat = game.to_move
            move = bots[seat].play(game.view(seat))
            if theirs(seat, farmers):
                _record(game, seat, move, deck, found)
            game.play(move)
    return found
