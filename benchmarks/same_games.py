"""Whole bot games and the coach's figures, move for move, as one digest per rule set (issue 31).

A refactor of the play state must not change a single decision: run this on
two builds and compare the digests (the same seeds, the same deals, every
rule set).  First one coached game per rule set through the session layer
(every event and remark), then bot games: each seats the three levels (rotated with the deal), plays
the auction and the play with the bots, and at every tenth decision of the
play asks the coach what it would say (its evaluation with a small budget,
its hint order, the plays the hand needs) — so the coach's borrowed judgement
is compared too.

    python benchmarks/same_games.py [DEALS]     # default 3 deals per rule set
"""

from __future__ import annotations

import hashlib
import sys

try:  # after issue 31 the program's root says whose judgement the coach borrows
    from tutor.judgement import provide

    provide("tutor.bots.players")
except ImportError:  # an older build: the coach imported the bots itself
    pass

from tutor.bench.arena import play_out
from tutor.bots import make_bot
from tutor.coach.evaluation import Budget, evaluate
from tutor.coach.hints import ranked_options
from tutor.coach.mistakes import plays_left
from tutor.coach.status import bid_status
from tutor.engine.game import Game, Phase
from tutor.engine.moves import legal_moves
from tutor.engine.rules import NAMED, Rules

LEVELS = ("easy", "medium", "hard")
BUDGET = Budget(samples=4, width=3, nodes=2_000)


def _coach_lines(game: Game) -> list[str]:
    """What the coach says at every tenth play decision of ``game`` (replayed from its record)."""
    lines: list[str] = []
    replay = Game(game.original_deal_number or 0, game.rules)
    for i, action in enumerate(game.actions):
        if replay.phase is Phase.PLAYING and i % 10 == 0 and hasattr(action, "play"):
            view = replay.view(replay.to_move)
            ev = evaluate(view, (), BUDGET)
            lines.append(f"ev {[(c.move, c.outcomes) for c in ev.candidates]}")
            lines.append(f"hints {ranked_options(view)[:4]}")
            lines.append(f"left {plays_left(view, ev.best.move)}")
        replay.apply_recorded(action)
    return lines


def _session_events(number: int, rules: Rules) -> str:
    """A coached game through the session layer (the learner bids the highest, then leads its first
    legal move and passes when it may): every event, the coach's remarks included."""
    from tutor.sessions.game import GameSession, Waiting

    session = GameSession.new(number, LEVELS[number % len(LEVELS)], coach=True, rules=rules, scored=False)
    events = list(session.start())
    while session.waiting_for in (Waiting.BID, Waiting.PLAY):
        if session.waiting_for is Waiting.BID:
            events += session.bid(session.legal_bids[-1])
            continue
        view = session.view()
        events += session.play(None if view.table is not None else legal_moves(view.hand, None, view.rules)[0])
    return repr(events)


def main(deals: int) -> None:
    for name, rules in NAMED.items():
        played = hashlib.sha256(_session_events(1, rules).encode()).hexdigest()[:16]
        print(f"{name:10} a coached session game: {played}")
        digest = hashlib.sha256()
        for number in range(1, deals + 1):
            seats = [LEVELS[(number + s) % len(LEVELS)] for s in range(rules.players)]
            game = play_out(Game(number, rules), [make_bot(level, number) for level in seats])
            digest.update(repr(game.actions).encode())
            digest.update(repr(game.score()).encode())
            digest.update(repr([bid_status(h) for h in Game(number, rules).hands]).encode())
            digest.update("\n".join(_coach_lines(game)).encode())
        print(f"{name:10} {deals} games: {digest.hexdigest()[:16]}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
