"""``ddz analyze``: the coach's evaluation of a position told from your seat, or of a stored game's move.

Three forms::

    ddz analyze --hand 233 --landlord right --counts right=1,left=1 --trick "left:5" [--move 2] [--json]
    ddz analyze --hand 33456789TJQKA22XD --auction "right:1,left:pass" [--move 2] [--json]
    ddz analyze --hand 33456789TJQKA22XD --auction "right:pass,left:call" [--rob] [--move rob] [--json]
    ddz analyze GAME_ID --at N [--json]

``GAME_ID --at 0`` is your (first) word in the auction that was played, ``--at -1``
your rob back (RULES §12.1), ``--at -2`` showing the hand or not (§12.2): the
moment numbers of ``ddz mistakes --json``.  A stored game is analysed under the
rules it was played with.

The second is a bidding position (your 17 dealt cards and the bids before
yours, ``--auction ""`` when you bid first): every legal bid is judged by its
expected score (:mod:`tutor.coach.bidding`), because a win chance cannot
compare roles with different stakes.

The figures are the coach's (:mod:`tutor.coach.evaluation`): the same view
gives the same figures on every run, and the first candidate is the in-game
hint's first suggestion for that view.
"""

from __future__ import annotations

import json
from typing import Any

import click

from tutor.bots import LEVELS
from tutor.cli.errors import UserError, handle_user_errors
from tutor.cli.help_text import TranslatedCommand
from tutor.cli.say import say
from tutor.files import ascii_int
from tutor.i18n import t


def _move_json(move: Any) -> str:
    return "pass" if move is None else str(move.text)


def _parse_move(view: Any, text: str) -> Any:
    """The learner's move as text → a legal move of ``view`` (UserError otherwise)."""
    from tutor.engine.combos import plainest
    from tutor.engine.moves import legal_moves
    from tutor.engine.notation import MoveTextError, resolve

    legal: list[Any] = list(legal_moves(view.hand, view.table, view.rules))
    if view.table is not None:
        legal.append(None)
    try:
        found = resolve(text, legal)
    except MoveTextError:
        raise UserError(t("analyze.bad_move", move=text[:40])) from None
    if found.text.is_pass and not found.options:
        raise UserError(t("analyze.cannot_pass"))
    if not found.options:
        raise UserError(t("analyze.illegal_move", move=text[:40]))
    # Several readings of the same cards: the plainest, as on the table.
    return found.move if found.found else plainest([m for m in found.options if m is not None])


def _stored_record(game_id: str, at: int | None) -> Any:
    """The stored game's record (see :func:`_stored_game`)."""
    return _stored_game(game_id, at)[0]


def _stored_game(game_id: str, at: int | None) -> tuple[Any, str]:
    """(record, the bots' level) of stored game ``game_id``; UserError naming the problem otherwise."""
    from tutor.engine.record import GameRecord
    from tutor.store import Store
    from tutor.store.games import GameStore

    number = ascii_int(game_id, 18)
    if number is None:
        raise UserError(t("analyze.bad_game_id", id=game_id[:40]))
    if at is None:
        raise UserError(t("analyze.need_at"))
    store = Store.open()
    with store:
        found = GameStore(store).get(number)
    if found is None:
        raise UserError(t("analyze.no_game", id=game_id))
    return GameRecord.from_dict(found.record), found.level


def _stored_view(game_id: str, at: int | None) -> tuple[Any, Any]:
    from tutor.coach.moments import decision_at

    decision = decision_at(_stored_record(game_id, at), at or 0)
    return decision.view, decision.move


@click.command("analyze", cls=TranslatedCommand)
@click.argument("game_id", required=False)
@click.option("--at", "at", type=click.IntRange(-2), default=None)
@click.option("--hand")
@click.option("--landlord")
@click.option("--counts")
@click.option("--trick", default="")
@click.option("--gone", default=None)
@click.option("--kitty", default=None)
@click.option("--bid", type=click.IntRange(1, 3), default=None)
@click.option("--auction", default=None)
@click.option("--rob", "rob", is_flag=True)
@click.option("--level", type=click.Choice(LEVELS), default=None)
@click.option("--move", "move_text", default=None)
@click.option("--json", "as_json", is_flag=True)
@handle_user_errors
def analyze(
    game_id: str | None,
    at: int | None,
    hand: str | None,
    landlord: str | None,
    counts: str | None,
    trick: str,
    gone: str | None,
    kitty: str | None,
    bid: int | None,
    auction: str | None,
    rob: bool,
    level: str | None,
    move_text: str | None,
    as_json: bool,
) -> None:
    # Help text: help.analyze.  The language is set by --lang (every command has it).
    if auction is not None:
        if game_id is not None or landlord or counts or trick or gone or kitty or bid is not None:
            raise UserError(t("analyze.auction_only"))
        if not hand:
            raise UserError(t("analyze.need_description"))
        from tutor.coach.describe import ROB_WORDS, _cards, bidding_view, parse_auction
        from tutor.engine.rules import ROB, STANDARD

        # The rob auction (RULES §12.1): by --rob, or by its words.
        words = {p.partition(":")[2].strip().lower() for p in auction.split(",")}
        rules = ROB if rob or words & (set(ROB_WORDS) - {"pass"}) else STANDARD
        view = bidding_view(_cards(hand), parse_auction(auction, rules), rules)
        _analyze_bid(view, None if move_text is None else _parse_bid(view, move_text), as_json, level or "medium")
        return
    if rob:
        raise UserError(t("analyze.rob_for_auction"))
    if game_id is not None and at is not None and at <= 0:  # a choice before the play
        if hand or landlord or counts:
            raise UserError(t("analyze.both_forms"))
        record, stored_level = _stored_game(game_id, at)
        _analyze_choice(record, at, move_text, as_json, level or stored_level)
        return
    if level is not None:
        raise UserError(t("analyze.level_for_bids"))
    from tutor.coach.advice import chance_phrase, judge, move_text as render_move, reason, verdict_text
    from tutor.coach.evaluation import evaluate

    played: Any = "none"
    if game_id is not None:
        if hand or landlord or counts:
            raise UserError(t("analyze.both_forms"))
        view, stored_move = _stored_view(game_id, at)
        if move_text is None:
            played = stored_move
    else:
        if not (hand and landlord and counts):
            raise UserError(t("analyze.need_description"))
        from tutor.coach.describe import describe, to_view

        view = to_view(describe(hand, landlord, counts, trick, gone, kitty, bid))
    if move_text is not None:
        played = _parse_move(view, move_text)
    ev = evaluate(view)
    verdict = None
    if played != "none":
        verdict, ev = judge(view, played, evaluation=ev)
    remarks: list[dict[str, Any]] = []
    if verdict is not None and verdict.explanation is not None:
        from tutor.coach.advice import explanation_phrase

        why = explanation_phrase(verdict)
        remark: dict[str, Any] = {"code": verdict.explanation.code, "text": verdict.explanation.text if why is None else why.render()}
        if verdict.proposal is not None:
            # Issue 29: a remark that proposes a move names it, measured on the samples of the move played.
            proposal = verdict.proposal
            remark.update({
                "instead": _move_json(proposal.move), "instead_win_chance": round(proposal.win_chance, 4),
                "win_chance": round(proposal.played_chance, 4), "gain": round(proposal.gain, 4),
                "noise": round(proposal.noise, 4), "samples": proposal.samples,
            })  # fmt: skip
        remarks.append(remark)
    if as_json:
        out: dict[str, Any] = {
            "candidates": [
                {"move": _move_json(c.move), "win_chance": round(c.win_chance, 4), "noise": round(c.noise, 4),
                 "samples": c.samples}
                for c in ev.candidates
            ],  # fmt: skip
            "remarks": remarks,
            "samples": ev.samples,
        }
        if verdict is not None:
            out["move"] = {
                "move": _move_json(verdict.move),
                "win_chance": round(verdict.win_chance, 4),
                "loss": round(verdict.loss, 4),
                "noise": round(verdict.noise, 4),
                "verdict": verdict.level,
                "flagged": verdict.flagged,
            }
        click.echo(json.dumps(out, ensure_ascii=False))
        return
    say(t("analyze.header", samples=ev.samples, method=t(f"analyze.method_{ev.method}")))
    say(t(f"coach.against_{ev.method}"))
    for i, c in enumerate(ev.candidates, 1):
        _row("analyze.candidate", n=i, move=render_move(c.move),
             chance=chance_phrase(c.win_chance, c.noise, c.proven).render(), reason=reason(view, c.move, ev).text)
    if verdict is not None:
        say(t("analyze.your_move", move=render_move(verdict.move), loss=round(100 * verdict.loss),
                     noise=round(100 * verdict.noise)))  # fmt: skip
        say(verdict_text(verdict))


def _row(key: str, **values: object) -> None:
    """A candidate's row, its reason's continuation lines hung under the reason's column (not the number)."""
    say(t(key, **values), hang=len(t(key, **{**values, "reason": ""})))


def _analyze_choice(record: Any, at: int, move_text: str | None, as_json: bool, bidder: str) -> None:
    """Moment ``at`` ≤ 0 of a stored game: a word of the auction that was played (0, -1) or the open hand (-2)."""
    from tutor.coach.moments import OPEN_MOMENT, auction_decisions, open_decision

    if at == OPEN_MOMENT:
        shown = open_decision(record)
        if shown is None:
            raise UserError(t("analyze.no_open"))
        choice = shown.shown if move_text is None else _parse_open(move_text)
        _analyze_open(shown.view, choice, as_json, bidder)
        return
    words = auction_decisions(record)
    if not words:
        raise UserError(t("analyze.no_bid"))
    decision = next((d for d in words if d.number == at), None)
    if decision is None:
        raise UserError(t("analyze.no_word", at=at))
    made = decision.bid if move_text is None else _parse_bid(decision.view, move_text)
    _analyze_bid(decision.view, made, as_json, bidder)


def _parse_open(text: str) -> bool:
    word = text.strip().lower()
    if word not in ("open", "closed"):
        raise UserError(t("analyze.bad_open_move", move=text[:40]))
    return word == "open"


def _analyze_open(view: Any, shown: bool, as_json: bool, bidder: str) -> None:
    """The landlord's open-hand decision (RULES §12.2): both choices' expected scores and the verdict on ``shown``."""
    from dataclasses import replace

    from tutor.coach.bidding import DEFAULT_BID_BUDGET, points
    from tutor.coach.variant_judge import evaluate_open, judge_open, open_phrase, open_verdict_phrase

    ev = evaluate_open(view, replace(DEFAULT_BID_BUDGET, bidder=bidder))
    verdict, _ = judge_open(view, shown, evaluation=ev)
    base = view.rules.base
    if as_json:
        click.echo(json.dumps({
            "candidates": [{"move": "open" if c.bid else "closed", "expected_score": round(c.expected, 4),
                            "stderr": round(c.stderr, 4), "landlord_win_chance": round(c.landlord_wins, 4)}
                           for c in ev.candidates],
            "unit": "base stake", "base": base, "samples": ev.samples, "misfits": ev.misfits,
            "move": {"move": "open" if verdict.bid else "closed", "expected_score": round(verdict.expected, 4),
                     "loss": round(verdict.loss, 4), "noise": round(verdict.noise, 4), "verdict": verdict.level,
                     "flagged": verdict.flagged},
        }, ensure_ascii=False))  # fmt: skip
        return
    say(t("analyze.open_header", samples=ev.samples, base=base))
    for i, c in enumerate(ev.candidates, 1):
        say(t("analyze.open_candidate", n=i, choice=open_phrase(c.bid).render(), score=points(c.expected, ev),
                     err=round(c.stderr * base), win=round(100 * c.landlord_wins)))  # fmt: skip
    say(t("analyze.your_open", choice=open_phrase(verdict.bid).render(), loss=round(verdict.loss * base)))
    say(open_verdict_phrase(verdict, ev).render())


def _parse_bid(view: Any, text: str) -> int:
    """``pass`` or a bid as text → a legal bid of ``view`` (UserError otherwise); call / rob in a rob auction."""
    from tutor.coach.bidding import legal_bids

    word = text.strip().lower()
    if view.rules.robs:
        from tutor.coach.describe import ROB_WORDS

        code = ROB_WORDS.get(word)
        if code is None:
            raise UserError(t("analyze.bad_rob_move", move=text[:40]))
        if code not in legal_bids(view):
            raise UserError(t("analyze.illegal_rob_move", move=text[:40]))
        return code
    if word not in {"pass", "0", *(str(b) for b in view.rules.bids)}:
        raise UserError(t("analyze.bad_bid_move", move=text[:40]))
    made = 0 if word == "pass" else int(word)
    if made not in legal_bids(view):
        from tutor.engine.auction import view_auction

        high = view_auction(view).outcome(view.rules).stake
        raise UserError(t("analyze.illegal_bid_move", move=text[:40], high=high))
    return made


def _analyze_bid(view: Any, made: int | None, as_json: bool, bidder: str) -> None:
    """A bidding position: every legal bid's expected score, best first (and the verdict on ``made``).

    ``bidder``: the bots' level, whose bid policy the other seats follow (as in a game at that table).
    """
    from dataclasses import replace

    from tutor.coach.bidding import (
        DEFAULT_BID_BUDGET,
        bid_phrase,
        bid_reason,
        bid_verdict_phrase,
        evaluate_bid,
        judge_bid,
        points,
    )

    ev = evaluate_bid(view, replace(DEFAULT_BID_BUDGET, bidder=bidder))
    verdict = None if made is None else judge_bid(view, made, evaluation=ev)[0]
    base = view.rules.base
    if as_json:
        out: dict[str, Any] = {
            "candidates": [
                {
                    "move": _bid_json(c.bid, view.rules),
                    "expected_score": round(c.expected, 4),
                    "stderr": round(c.stderr, 4),
                    "landlord_share": round(c.landlord_share, 4),
                    "landlord_win_chance": round(c.landlord_wins, 4),
                }
                for c in ev.candidates
            ],
            "unit": "base stake",
            "base": base,
            "remarks": [],
            "samples": ev.samples,
            "misfits": ev.misfits,
        }
        if verdict is not None:
            out["move"] = {
                "move": _bid_json(verdict.bid, view.rules),
                "expected_score": round(verdict.expected, 4),
                "loss": round(verdict.loss, 4),
                "noise": round(verdict.noise, 4),
                "verdict": verdict.level,
                "flagged": verdict.flagged,
            }
        click.echo(json.dumps(out, ensure_ascii=False))
        return
    say(t("analyze.bid_header", samples=ev.samples, base=base))
    for i, c in enumerate(ev.candidates, 1):
        _row("analyze.bid_candidate", n=i, bid=bid_phrase(c.bid, view.rules).render(), score=points(c.expected, ev),
             err=round(c.stderr * base), reason=bid_reason(c, ev).render())
    if ev.misfits:
        say(t("analyze.bid_misfits", n=ev.misfits))
    if verdict is not None:
        say(t("analyze.your_bid", bid=bid_phrase(verdict.bid, view.rules).render(), loss=round(verdict.loss * base)))
        say(bid_verdict_phrase(verdict, ev).render())


def _bid_json(bid: int, rules: Any) -> str:
    """A code as --json writes it: "pass", a bid "1"-"3", or "call" / "rob" (RULES §12.1)."""
    if bid and rules.robs:
        from tutor.engine.auction import CALL

        return "call" if bid == CALL else "rob"
    return "pass" if bid == 0 else str(bid)


COMMANDS = [analyze]
