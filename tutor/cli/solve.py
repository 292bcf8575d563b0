"""``ddz solve``: the exact open-hand endgame solver from the shell.

Players are given in turn order, the first listed to move
(``ddz solve "L:DAQQJJT999844 F:X22AAT886633"``); ``--beat`` is the
combination on the table, played by default by the player listed last.
The human output explains the result in words; ``--json`` prints the raw
result.  Bad input is one line on stderr and exit status 2.

Bounded: a time limit by default (:data:`DEFAULT_SECONDS`, ``--max-seconds``;
reached, the answer is "unknown", never a guess), and on a terminal a
progress line on stderr once the search has run for :data:`PROGRESS_AFTER`
seconds (none when piped or with ``--json``).  Ctrl-C stops it and its
workers (exit 130, see :mod:`tutor.cli.main`).
"""

from __future__ import annotations

import json
import sys
import time
from typing import TextIO

import click

from tutor.cli.errors import BoundedInt, Seconds, UserError, handle_user_errors
from tutor.cli.help_text import TranslatedCommand
from tutor.cli.say import say
from tutor.i18n import t
from tutor.solver import Position, Role, Solver, SolveResult
from tutor.solver.solver import Objective


def move_text(move: object) -> str:
    """A move as card text, ``"pass"`` for pass (the JSON form)."""
    return "pass" if move is None else move.text  # type: ignore[attr-defined]


def player_name(pos: Position, player: int) -> str:
    """``the landlord`` / ``the farmer`` / ``farmer 1`` … in the current language."""
    if pos.roles[player] is Role.LANDLORD:
        return t("solve.landlord")
    farmers = [i for i, r in enumerate(pos.roles) if r is Role.FARMER]
    if len(farmers) == 1:
        return t("solve.farmer")
    return t("solve.farmer_n", n=farmers.index(player) + 1)


def side_name(pos: Position, role: Role) -> str:
    if role is Role.LANDLORD:
        return t("solve.landlord")
    return t("solve.farmer") if pos.roles.count(Role.FARMER) == 1 else t("solve.farmers")


def step_text(pos: Position, player: int, move: object) -> str:
    who = player_name(pos, player)
    return t("solve.step_pass", who=who) if move is None else t("solve.step_play", who=who, move=move_text(move))


def explain(pos: Position, res: SolveResult) -> list[str]:
    """The result in words: who wins, how to start, how the game may go."""
    if res.mover_wins is None:
        return [t("solve.unknown", nodes=res.nodes, seconds=res.seconds)]
    mover = pos.roles[pos.to_move]
    winner = mover if res.mover_wins else (Role.FARMER if mover is Role.LANDLORD else Role.LANDLORD)
    lines = []
    line = res.line
    if res.mover_wins:
        # Out of budget after a winning move was proven: no line, the first proven move is the advice.
        first = line[0][1] if line else res.winning_moves[0]
        advice = t("solve.first_pass") if first is None else t("solve.first_play", move=move_text(first))
        if len(line) >= 3:
            reply = step_text(pos, line[1][0], line[1][1])
            answer = move_text(line[2][1]) if line[2][1] is not None else t("solve.pass")
            same = pos.roles[line[2][0]] is winner
            if same:
                advice += t("solve.if_then", reply=reply, answer=answer)
        lines.append(t("solve.wins", side=side_name(pos, winner).capitalize(), advice=advice))
    else:
        lines.append(t("solve.loses", side=side_name(pos, mover).capitalize(), winner=side_name(pos, winner)))
    if res.mover_wins:
        moves = ", ".join(move_text(m) for m in res.winning_moves)
        lines.append(t("solve.winning_moves", count=len(res.winning_moves), moves=moves))
        if not res.complete:
            lines.append(t("solve.partial"))
    if line:
        lines.append(t("solve.line", line="; ".join(step_text(pos, p, m) for p, m in line)))
    if res.win_in is not None:
        lines.append(t("solve.win_in", side=side_name(pos, winner), n=res.win_in))
    if res.bombs is not None:
        lines.append(t("solve.score", side=side_name(pos, winner), n=res.bombs, multiplier=2**res.bombs))
        if res.best_moves:
            lines.append(t("solve.score_moves", moves=", ".join(move_text(m) for m in res.best_moves)))
    lines.append(t("solve.stats", nodes=res.nodes, seconds=res.seconds, rate=res.nodes_per_second))
    return lines


def result_json(pos: Position, res: SolveResult, fastest: bool, score: bool = False) -> dict[str, object]:
    data: dict[str, object] = {
        "mover_wins": res.mover_wins,
        "winning_moves": [move_text(m) for m in res.winning_moves],
        "line": [
            {"player": p, "role": pos.roles[p].letter, "move": move_text(m)} for p, m in res.line
        ],
        "nodes": res.nodes,
        "seconds": round(res.seconds, 4),
        "complete": res.complete,
    }
    if fastest:
        data["win_in"] = res.win_in
    if score:
        data["bombs"] = res.bombs
        data["multiplier"] = None if res.bombs is None else 2**res.bombs
        data["best_moves"] = [move_text(m) for m in res.best_moves]
    return data


#: The time limit of ``ddz solve`` unless --max-seconds says otherwise (0: none).
DEFAULT_SECONDS = 60.0
#: Longest limit accepted (a day).
MAX_SECONDS = 86_400.0
#: Memory for the whole search unless --max-mb says otherwise, shared out among
#: the processes (the solving one and its workers each stop at their share).
DEFAULT_MB = 2048
#: A search shorter than this shows no progress line.
PROGRESS_AFTER = 2.0


class ProgressLine:
    """``first moves settled / nodes`` on one rewritten line of a terminal (stderr).

    Silent for the first :data:`PROGRESS_AFTER` seconds and at most five
    updates a second; :meth:`close` wipes the line so the answer starts clean.
    """

    def __init__(self, stream: TextIO, after: float = PROGRESS_AFTER) -> None:
        self.stream = stream
        self.started = time.perf_counter()
        self.after = after
        self.shown = 0.0
        self.width = 0

    def __call__(self, settled: int, total: int, nodes: int) -> None:
        now = time.perf_counter()
        elapsed = now - self.started
        if elapsed < self.after or now - self.shown < 0.2:
            return
        self.shown = now
        text = t("solve.progress", settled=settled, total=total, nodes=nodes, seconds=elapsed)
        self.stream.write("\r" + text.ljust(self.width))
        self.stream.flush()
        self.width = max(self.width, len(text))

    def close(self) -> None:
        if self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()


@click.command("solve", cls=TranslatedCommand)
@click.argument("players", nargs=-1, required=True)
@click.option("--beat", metavar="CARDS")
@click.option("--beat-by", type=BoundedInt(0, 2), metavar="INDEX")
@click.option("--fastest", is_flag=True)
@click.option("--score", is_flag=True)
@click.option("--max-seconds", type=Seconds(MAX_SECONDS), default=DEFAULT_SECONDS, show_default=True, metavar="S")
@click.option("--max-mb", type=BoundedInt(64, 1_048_576), default=DEFAULT_MB, show_default=True, metavar="MB")
@click.option("--json", "as_json", is_flag=True)
@click.option("--wild", metavar="RANK")
@handle_user_errors
def solve(players: tuple[str, ...], beat: str | None, beat_by: int | None, fastest: bool, score: bool,
          max_seconds: float, max_mb: int, as_json: bool, wild: str | None) -> None:  # fmt: skip
    # Help text: help.solve.
    # Quoted as one argument or typed as several: "L:… F:…" and L:… F:… read the same.
    if wild is None:
        rules = None
    else:  # here, not at the top: the rules commands bring rich, which a plain solve never needs
        from tutor.cli.rules_commands import wild_rules

        rules = wild_rules(wild)
    pos = Position.parse(" ".join(players), beat=beat, beat_by=beat_by, rules=rules)
    if fastest and score:
        raise UserError(t("solve.one_objective"))
    objective: Objective = "fastest" if fastest else "score" if score else "win"
    solver = Solver(max_seconds=max_seconds or None, rules=pos.rules)
    solver.max_mb = max_mb / (1 + (solver.workers if solver.workers > 1 else 0))
    progress = None
    if not as_json and sys.stderr.isatty():
        progress = solver.progress = ProgressLine(sys.stderr)
    try:
        res = solver.solve(pos, objective=objective)
    finally:
        if progress is not None:
            progress.close()
    if as_json:
        click.echo(json.dumps(result_json(pos, res, fastest, score), ensure_ascii=False))
        return
    for line in explain(pos, res):
        say(line)


COMMANDS = [solve]
