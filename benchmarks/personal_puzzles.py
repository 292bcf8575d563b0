"""How many personal puzzles a beginner's games give (issue 30): ``ddz puzzle mine`` after N games.

A "beginner" is the easy bot in the learner's seat; the other two seats are
medium bots, as in a coached game at the default level.  Each finished game is
stored and scanned (tutor/puzzles/personal.py) exactly as ``ddz play`` does
after a game; the figure is the number of personal puzzles ``ddz puzzle mine
--list`` then holds.  Budgets are solver nodes (personal.MAX_NODES, SCAN_NODES),
so the count is the same on any machine with the same build (the budgets are larger with the compiled
three-player search, ``personal.COMPILED``); CPU time is printed for the record, and the solver
nodes of each game's scan (and of the making of its puzzles) as it goes.

    .venv/bin/python benchmarks/personal_puzzles.py [--games 10] [--first 1] [--distinct] [--check] [--log FILE]
        [--no-opponents] [--no-stake] [--no-finds] [--no-partner-finds] [--no-found] [--no-fastest] [--unproven-run N] [--make-proofs N]
        [--order N] [--pns-move-nodes N] [--pns-nodes N]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from statistics import median
from pathlib import Path
from typing import Any


def play_beginner_games(store_path: Path, games: int, first: int,
                        distinct: bool = False) -> list[tuple[int, int]]:
    """Play ``games`` deals (``first``…) with the easy bot as the learner; (deal number, stored game id) of each.

    ``distinct``: ``games`` *different* games — a deal nobody bids is redealt into the next number, so deal n can
    be the same game as deal n + 1 (deals 44 and 45: the same hands and the same moves); such a repeat is played
    and stored, as a learner would, but neither counted nor scanned, and the next deal number is played instead."""
    from tutor.bots import make_bot
    from tutor.engine.rules import STANDARD
    from tutor.sessions.game import GameSession, Waiting
    from tutor.store import Store
    from tutor.store.games import GameStore

    ids: list[tuple[int, int]] = []
    dealt: set[int] = set()  # the deal numbers actually played (after redeals)
    deal = first - 1
    with Store.open(store_path) as store:
        while len(ids) < games:
            deal += 1
            session = GameSession.new(deal, level="medium", coach=False, games=GameStore(store),
                                      rules=STANDARD)
            learner = make_bot("easy", deal)
            session.start()
            while session.waiting_for in (Waiting.BID, Waiting.PLAY):
                view = session.view()
                if session.waiting_for is Waiting.BID:
                    session.bid(learner.bid(view))
                else:
                    session.play(learner.play(view))
            assert session.final is not None and session.final.game_id is not None
            if distinct and session.deal in dealt:
                print(f"  deal {deal}: the same game as an earlier deal (redealt into {session.deal}): not counted",
                      flush=True)
                continue
            dealt.add(session.deal)
            ids.append((deal, session.final.game_id))
    return ids


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--first", type=int, default=1, help="the first deal number")
    parser.add_argument("--distinct", action="store_true",
                        help="--games different games: a deal redealt into a deal already played is not counted, the"
                             " next deal number is played instead")
    parser.add_argument("--max-cards", type=int, default=None, help="personal.MAX_CARDS (default: shipped)")
    parser.add_argument("--max-nodes", type=int, default=None, help="personal.MAX_NODES: one proof's budget")
    parser.add_argument("--scan-nodes", type=int, default=None, help="personal.SCAN_NODES: one game's budget")
    parser.add_argument("--check", action="store_true",
                        help="play each proven winning first move of each puzzle through the solving attempt")
    parser.add_argument("--log", type=Path, default=None,
                        help="write what was proven at each turn looked at (JSON lines: deal, turn,"
                             " kind or why not)")
    parser.add_argument("--opponents", action="store_true",
                        help="scan the opponents' turns too (personal.OPPONENT_TURNS; on since the eighth pass)")
    parser.add_argument("--no-opponents", action="store_true", help="without the opponents' turns")
    parser.add_argument("--no-stake", action="store_true", help="without the bigger wins (personal.STAKE_TURNS)")
    parser.add_argument("--no-finds", action="store_true",
                        help="without the opponents' only moves found (personal.OPPONENT_FINDS; on since the ninth pass)")
    parser.add_argument("--no-partner-finds", action="store_true",
                        help="without the partner's only moves found (personal.PARTNER_FINDS; on since the tenth pass)")
    parser.add_argument("--no-found", action="store_true",
                        help="without the wins kept with a few winning plays (personal.FOUND_SEVERAL; round 14)")
    parser.add_argument("--no-fastest", action="store_true",
                        help="without the fastest wins, one play at the pace (personal.FASTEST_TURNS; round 15)")
    parser.add_argument("--plain", action="store_true", help="without the lone-farmer shortcut (personal.LONE_FARMER)")
    parser.add_argument("--unproven-run", type=int, default=None,
                        help="personal.UNPROVEN_RUN: give a game up after this many turns in a row with the side"
                             " unproven (0: never; eleventh pass)")
    parser.add_argument("--make-proofs", type=int, default=None,
                        help="personal.MAKE_PROOFS: a game's second tries at a fastest line, in MAX_NODES (0: none;"
                             " eleventh pass)")
    parser.add_argument("--order", type=int, default=None,
                        help="personal.ORDER: the scan's move order (team_native.ORDER_* bits; 0: the plain order;"
                             " twelfth pass)")
    parser.add_argument("--pns-move-nodes", type=int, default=None,
                        help="personal.PNS_MOVE_NODES: the proof-number search's second try at an open first move"
                             " (0: none, as before round 13)")
    parser.add_argument("--pns-nodes", type=int, default=None,
                        help="personal.PNS_NODES: a game's proof-number search budget")
    args = parser.parse_args()
    from tutor.puzzles import personal

    personal.LONE_FARMER = not args.plain
    personal.OPPONENT_TURNS = (args.opponents or personal.OPPONENT_TURNS) and not args.no_opponents
    personal.STAKE_TURNS = personal.STAKE_TURNS and not args.no_stake
    personal.OPPONENT_FINDS = personal.OPPONENT_FINDS and not args.no_finds
    personal.PARTNER_FINDS = personal.PARTNER_FINDS and not args.no_partner_finds
    personal.FOUND_SEVERAL = personal.FOUND_SEVERAL and not args.no_found
    personal.FASTEST_TURNS = personal.FASTEST_TURNS and not args.no_fastest

    for name in ("max_cards", "max_nodes", "scan_nodes", "make_proofs", "order", "pns_move_nodes",
                 "pns_nodes"):
        if getattr(args, name) is not None:
            setattr(personal, name.upper(), getattr(args, name))
    if args.unproven_run is not None:
        personal.UNPROVEN_RUN = args.unproven_run or None
    print(f"budgets: MAX_CARDS {personal.MAX_CARDS}, MAX_NODES {personal.MAX_NODES},"
          f" SCAN_NODES {personal.SCAN_NODES}, MAKE_PROOFS {personal.MAKE_PROOFS},"
          f" UNPROVEN_RUN {personal.UNPROVEN_RUN}, ORDER {personal.ORDER}, PNS_MOVE_NODES {personal.PNS_MOVE_NODES},"
          f" PNS_NODES {personal.PNS_NODES}, lone farmer {personal.LONE_FARMER},"
          f" stake {personal.STAKE_TURNS}, opponents {personal.OPPONENT_TURNS}, their finds {personal.OPPONENT_FINDS},"
          f" the partner's finds {personal.PARTNER_FINDS}, found several {personal.FOUND_SEVERAL},"
          f" fastest {personal.FASTEST_TURNS},"
          f" compiled three-player search {'yes' if personal.COMPILED else 'no (DDZ_PURE_PYTHON or not built)'}")
    from tutor.puzzles.progress import PuzzleProgress
    from tutor.store import Store

    nodes = [0, 0]  # the scan's proofs, the puzzles' making: every solve counted (node budgets, never clocks)

    def counted(factory: Callable[[], Any], slot: int) -> Callable[[], Any]:
        def make() -> Any:
            solver = factory()
            solve = solver.solve

            def counting(*args: Any, **kwargs: Any) -> Any:
                result = solve(*args, **kwargs)
                nodes[slot] += result.nodes
                return result

            solver.solve = counting
            return solver
        return make

    deal_now = [0]
    if args.log is not None:
        import json

        log_file = args.log.open("w")
        missed_wins = personal.missed_wins

        def logged(*a: Any, **kw: Any) -> Any:
            kw["log"] = lambda entry: print(json.dumps({"deal": deal_now[0], **entry}), file=log_file,
                                            flush=True)
            return missed_wins(*a, **kw)

        personal.missed_wins = logged  # type: ignore[assignment]

    personal.scan_factory = counted(personal.scan_factory, 0)
    personal.default_factory = counted(personal.default_factory, 1)

    with tempfile.TemporaryDirectory() as home:
        path = Path(home) / "ddz.sqlite3"
        cpu, wall = time.process_time(), time.perf_counter()
        ids = play_beginner_games(path, args.games, args.first, args.distinct)
        played_cpu = time.process_time() - cpu
        cpu, wall2 = time.process_time(), time.perf_counter()
        per_game, cpu_game, scan_nodes = [], [], []
        with Store.open(path) as store:
            for deal, game_id in ids:
                one, before = time.process_time(), nodes[:]
                deal_now[0] = deal
                per_game.append(personal.scan(store, game_id))
                cpu_game.append(time.process_time() - one)
                scan_nodes.append(nodes[0] - before[0])
                print(f"  deal {deal}: {per_game[-1]} puzzles, CPU {cpu_game[-1]:.1f} s, nodes: scan"
                      f" {nodes[0] - before[0]:,}, puzzles {nodes[1] - before[1]:,}", flush=True)
            mine = PuzzleProgress(store).personal()
        scan_cpu, scan_wall = time.process_time() - cpu, time.perf_counter() - wall2
    kinds = Counter(moment.label for moment in map(personal.moment_of, mine) if moment is not None)
    print(f"games {args.games} (deals {', '.join(str(deal) for deal, _ in ids)}), easy learner vs medium bots")
    print(f"personal puzzles: {len(mine)} ({', '.join(f'{n} {kind}' for kind, n in sorted(kinds.items()))})"
          f"  per game: {per_game}")
    print(f"playing: CPU {played_cpu:.1f} s; scanning: CPU {scan_cpu:.1f} s, wall {scan_wall:.1f} s"
          f" ({scan_cpu / max(1, args.games):.1f} s CPU a game; median {median(cpu_game):.1f}, most"
          f" {max(cpu_game):.1f})")
    print(f"nodes: scan {nodes[0]:,} (median a game {median(scan_nodes):,.0f}), making the puzzles {nodes[1]:,}")
    print(f"load: {os.getloadavg()[0]:.2f} (1 min), wall total {time.perf_counter() - wall:.1f} s")
    for puzzle in mine:
        print(f"  {puzzle.id}  {puzzle.source.describe()}  rating {puzzle.rating:.0f}  {', '.join(puzzle.themes)}"
              f"  ({sum(len(h) for h in puzzle.position.hands)} cards, fastest win {puzzle.solution.main_line()[0]})")
        if args.check:
            print(f"    {accepted(puzzle)}", flush=True)


def accepted(puzzle: Any) -> str:
    """Whether solving accepts each proven winning first play, as ``ddz puzzle`` judges it (the interactive
    solver and its node budget: a winning play it cannot prove would be called wrong)."""
    from tutor.engine.rules import STANDARD
    from tutor.puzzles.solving import Attempt
    from tutor.sessions.puzzle import INTERACTIVE_NODES
    from tutor.solver.solver import Solver

    from tutor.puzzles.model import GoalType

    proof = Solver(rules=STANDARD, max_nodes=10 * INTERACTIVE_NODES)
    winners = [m for m in puzzle.position.legal_moves() if proof.is_winning_move(puzzle.position, m)]
    said = []
    if puzzle.goal.type is GoalType.WIN_BOMBS:  # a bigger win: the plays forcing the bombs, the rest refused
        best = proof.solve(puzzle.position, "score").best_moves
        for move in winners:
            attempt = Attempt(puzzle, Solver(rules=STANDARD, max_nodes=INTERACTIVE_NODES))
            right = attempt.play(move).correct
            ok = right == (move in best)
            said.append(f"{'pass' if move is None else move.text}: {'accepted' if right else 'refused'}"
                        f"{'' if ok else ' (WRONG)'}")
        attempt = Attempt(puzzle, Solver(rules=STANDARD, max_nodes=INTERACTIVE_NODES))
        attempt.show_solution()
        played = sum(1 for p in attempt.history if p.move is not None and p.move.is_bomb)
        return (f"bombs {puzzle.goal.bombs}: {len(best)} of {len(winners)} winning first moves keep them: "
                + ", ".join(said) + f"; the solution played out: {played} bombs, won"
                f" {attempt.position.winner is puzzle.solver_side}")
    if puzzle.goal.type is GoalType.WIN_IN:  # a fastest win (round 15): the plays at the pace accepted, the rest refused
        plays = puzzle.goal.plays or 0
        for move in winners:
            after = puzzle.position.after(move)
            need = 0 if after.is_over else proof.solve(after, "fastest", all_moves=False).win_in
            fast = need is not None and need + (move is not None) <= plays
            check = Attempt(puzzle, Solver(rules=STANDARD, max_nodes=INTERACTIVE_NODES)).play(move)
            right = check.correct
            pace = "pace unproven" if need is None else "at the pace" if fast else "slower"
            wrong = need is not None and right != fast
            said.append(f"{'pass' if move is None else move.text}: {pace}, {'accepted' if right else 'refused'}"
                        f"{' (unclear)' if check.unclear else ''}{' (WRONG)' if wrong else ''}")
        return (f"win in {plays}: winning first moves {len(winners)} of {len(puzzle.position.legal_moves())}: "
                + ", ".join(said))
    for move in winners:
        attempt = Attempt(puzzle, Solver(rules=STANDARD, max_nodes=INTERACTIVE_NODES))
        said.append(f"{'pass' if move is None else move.text}: {'accepted' if attempt.play(move).correct else 'REFUSED'}")
    return f"winning first moves {len(winners)} of {len(puzzle.position.legal_moves())}: " + ", ".join(said)


if __name__ == "__main__":
    main()
