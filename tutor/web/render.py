"""Session data → plain JSON for the page, worded in the learner's language.

The web's counterpart of ``tutor/cli/render.py``: it draws nothing and decides
nothing, it only names things.  Cards travel as the one-character ranks the
terminal uses (``"3"`` … ``"T"`` … ``"X"``, ``"D"``); the page turns them into
card faces.  Every sentence comes from the catalogues (``tutor/i18n``) and is
rendered here, inside ``speaking(lang)``, so two tabs in two languages share
one process.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from tutor.engine.facts import can_show_hand
from tutor.coach.seats import seat_name
from tutor.coach.status import combo_name
from tutor.engine.cards import BIG_JOKER, R2, RANK_CHARS, SMALL_JOKER, Cards
from tutor.engine.combos import Combo
from tutor.engine.view import PlayerView, Turn
from tutor.i18n import Phrase, t
from tutor.sessions import events as ev

#: Order of the card counter row (RULES §9): big joker, small joker, 2, then A down to 3.
COUNTER_ORDER = (BIG_JOKER, SMALL_JOKER, R2) + tuple(range(R2 - 1, -1, -1))


def cards(value: Cards | int | None) -> list[str] | None:
    """Cards low to high as rank characters (None stays None)."""
    if value is None:
        return None
    packed = value if isinstance(value, int) else value.packed
    return [RANK_CHARS[rank] for rank in Cards(packed).ranks()]


#: A run of cards in the terminal's letters that a reader of the page would not know (a ten, a joker).
_TERMINAL_CARDS = re.compile(r"(?<![A-Za-z0-9{])[3-9JQKA2]*[TXD][3-9TJQKA2XD]*(?![A-Za-z0-9}])")


def page_cards(text: str) -> str:
    """Cards as the page writes them in a sentence: "10" for T, the jokers by name.

    ``"TT"`` → ``"10 10"``, ``"9TJQK"`` → ``"9 10 J Q K"``, ``"XD"`` → ``"small joker + big joker"``;
    runs without a ten or a joker ("33", "JQKA") stay as the terminal and the page both write them.
    """
    def one(match: re.Match[str]) -> str:
        names = [t("web.small_joker") if c == "X" else t("web.big_joker") if c == "D" else "10" if c == "T" else c
                 for c in match.group(0)]
        return (" + " if any(c in "XD" for c in match.group(0)) else " ").join(names)

    return _TERMINAL_CARDS.sub(one, text)


def page_value(value: object) -> object:
    """A phrase's value for the page: card texts renamed, nested phrases likewise (see :func:`page_phrase`)."""
    if isinstance(value, Phrase):
        return page_phrase(value)
    if isinstance(value, str):
        return page_cards(value)
    return value


def page_phrase(phrase: Phrase) -> Phrase:
    """The phrase with its card values in the page's words: sentences travel as keys plus values
    (cards among them as the terminal's letters), so the page renames the values, never the sentence."""
    values: Mapping[str, object] = {k: page_value(v) for k, v in phrase.values.items()}
    return Phrase(phrase.key, values, phrase.lower)


def said(phrase: Phrase) -> str:
    """A phrase rendered for the page (current language)."""
    return page_phrase(phrase).render()


#: The values of a phrase that are cards (the page draws them as card chips in the line).
_CARD_KEYS = ("cards", "table", "lower")


def card_runs(phrase: object) -> list[str]:
    """The runs of cards a phrase names, as the page writes them in its line (see :func:`page_cards`).

    The page draws each as a chip of small card faces, so "Beat straight of 7 5 6 7 8 9 10 J" reads as
    a count and then the cards, not as one run of numbers.
    """
    if not isinstance(phrase, Phrase):
        return []
    runs: list[str] = []
    for key, value in phrase.values.items():
        if isinstance(value, Phrase):
            runs += card_runs(value)
        elif key in _CARD_KEYS and isinstance(value, str) and value and value != "pass":
            runs.append(page_cards(value))
    return runs


def _status_runs(item: ev.StatusLine) -> list[str]:
    """The cards a status line speaks of: the raised ones and the play to beat."""
    runs = [page_cards(item.text)] if item.text and not item.is_pass else []
    return runs + ([page_cards(item.table.text)] if item.table is not None else [])


def combo(move: Combo | None) -> dict[str, Any] | None:
    """A move as cards plus its name ("Trio + 1"); None is a pass."""
    if move is None:
        return None
    return {"cards": cards(move.cards), "name": combo_name(move), "text": move.text}


def role(landlord: int | None, seat: int) -> str | None:
    if landlord is None:
        return None
    return "landlord" if seat == landlord else "farmer"


def game_cell(view: PlayerView) -> str:
    """«Game: 10 × bid × multiplier = cost», live (the engine's scoring, the terminal's words)."""
    return ev.game_cell(view).render()


def counter(view: PlayerView) -> list[dict[str, Any]]:
    """For D, X, 2, A … 3: how many of that rank the learner has not seen."""
    unseen = view.not_seen()
    return [{"rank": RANK_CHARS[rank], "n": unseen.count(rank)} for rank in COUNTER_ORDER]


def _last(view: PlayerView, seat: int, turns: dict[int, Turn]) -> dict[str, Any] | None:
    """What ``seat`` did last in this round: a bid during the auction, else a play or a pass."""
    if view.landlord is None:
        said = ev.last_said(view, seat)
        if said is None:
            return None
        return {"kind": "bid", "bid": [b for s, b in view.bids if s == seat][-1], "text": said.render()}
    turn = turns.get(seat)
    if turn is None:
        return None
    if turn.play is None:
        return {"kind": "pass", "text": t("play.last_pass")}
    to_beat = view.table is not None and view.table_seat == seat and view.to_move == view.seat
    return {"kind": "play", "to_beat": to_beat, **(combo(turn.play) or {})}


def table(view: PlayerView, show_counter: bool) -> dict[str, Any]:
    """Everything the table shows from the learner's seat (RULES §9)."""
    turns: dict[int, Turn] = {}
    for turn in view.history[-view.players:]:
        turns[turn.seat] = turn
    seats = [
        {
            "seat": seat,
            "name": seat_name(seat, view.rules),
            "role": role(view.landlord, seat),
            "role_text": t(f"play.role_{role(view.landlord, seat) or 'unknown'}"),
            "count": view.card_counts[seat],
            "count_text": t("play.cards_count_one") if view.card_counts[seat] == 1
            else t("play.cards_count", n=view.card_counts[seat]),
            "last": _last(view, seat, turns),
            "to_move": view.to_move == seat,
            # The open hand (RULES §12.2): the landlord's cards face up in its seat, as they are now.
            "cards": cards(view.shown) if view.shown is not None and seat == view.landlord != view.seat else None,
        }
        for seat in range(view.players)
    ]
    return {
        "seats": seats,
        "hand": cards(view.hand),
        "kitty": cards(view.kitty),
        "game_cell": game_cell(view),
        "counter": counter(view) if show_counter else None,
        "table": combo(view.table),
        "table_seat": view.table_seat if view.table is not None else None,
        "leading": view.table is None,
        # The open hand (RULES §12.2): the landlord's cards, for every seat, as they are now.
        "shown": None if view.shown is None else {"seat": view.landlord, "cards": cards(view.shown)},
        "rules": view.rules.to_json(),
        "can_open": can_show_hand(view),
    }


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else (f"−{-n}" if n < 0 else "0")


def multipliers(final: ev.FinalCard) -> list[str]:
    return [phrase.render() for phrase in ev.multiplier_phrases(final)]


def final_card(final: ev.FinalCard) -> dict[str, Any]:
    """The final card: who won, every multiplier, the score, the hands and kitty, the deal."""
    you_won = (final.landlord == 0) == final.landlord_won
    if final.landlord_won:
        who = t("play.winner_landlord", seat=seat_name(final.landlord, final.rules))
    else:
        farmers = [seat_name(s, final.rules) for s in range(len(final.hands)) if s != final.landlord]
        who = t("play.winner_farmers", seats=t("play.and").join(farmers))
    title = t("play.final_title_you_win") if you_won else t("play.final_title_you_lose")
    return {
        "type": "final",
        "won": you_won,
        "title": title,
        "who": who,
        # one line for the status: "You lose. The landlord (West) wins alone." (two sentences, each stopped)
        "status": f"{title}{'' if title[-1:] in '.!?…' else '.'} {who}",
        "multipliers_title": t("play.multipliers"),
        "multipliers": multipliers(final),
        "cost_line": ev.cost_phrase(final).render(),
        "rules": final.rules.to_json(),
        "rules_line": ev.rules_phrase(final.rules).render(),
        "factors": list(final.factors),
        "score_title": t("play.score_changes"),
        "scores": [{"name": seat_name(s, final.rules), "delta": signed(d)} for s, d in enumerate(final.deltas)],
        "not_scored": None if final.scored else t("play.not_scored"),
        "running_score": t("play.running_score", score=signed(final.running_score)),
        "remaining_title": t("play.remaining"),
        "hands": [
            {"name": seat_name(s, final.rules), "role": role(final.landlord, s), "cards": cards(hand)}
            for s, hand in enumerate(final.hands)
        ],
        "kitty_title": t("play.kitty"),
        "kitty": cards(final.kitty),
        "deal": str(final.deal),
        "deal_line": t("play.deal_line", deal=final.deal, hints=final.hints, undos=final.undos),
        "game_id": final.game_id,
    }


def event(item: object) -> dict[str, Any] | None:
    """One game event as a line (or block) of the page; None for events the state already draws."""
    if isinstance(item, ev.Say):
        return {"type": "say", "text": said(item.phrase), "tone": item.tone.value, "chips": card_runs(item.phrase)}
    if isinstance(item, ev.StatusLine):
        return {"type": "status", "text": page_cards(item.render()), "ok": item.ok, "chips": _status_runs(item)}
    if isinstance(item, ev.BidMade):
        return {"type": "bid", "seat": item.seat, "bid": item.bid, "text": said(item.phrase())}
    if isinstance(item, ev.Redealt):
        return {"type": "redeal", "deal": str(item.deal), "text": t("play.redeal", deal=item.deal)}
    if isinstance(item, ev.LandlordChosen):
        return {"type": "landlord", "seat": item.seat, "text": said(item.phrase())}
    if isinstance(item, ev.HandShown):
        return {"type": "shown", "seat": item.seat, "text": said(item.phrase())}
    if isinstance(item, ev.Played):
        name = seat_name(item.seat, item.rules)
        if item.move is None:
            return {"type": "played", "seat": item.seat, "move": None, "text": t("play.passes", seat=name)}
        return {"type": "played", "seat": item.seat, "move": combo(item.move),
                "text": t("play.plays", seat=name, combo=f"{page_cards(item.move.text)} · {combo_name(item.move)}")}
    if isinstance(item, ev.Options):
        return {"type": "options", "options": [
            {"n": n, **(combo(option) or {})} for n, option in enumerate(item.options, 1)]}
    if isinstance(item, ev.HintShown):
        text = said(item.phrase)  # the move, its win chance and the coach's reason
        if item.wrapped:
            text = f"{t('coach.hint_none')} {text}"
        return {"type": "hint", "n": item.n, "move": combo(item.move), "text": text, "chips": card_runs(item.phrase)}
    if isinstance(item, ev.Remark):
        return {"type": "remark", "text": f"{t('play.coach_prefix')}: {said(item.phrase)}"}
    if isinstance(item, ev.FinalCard):
        return final_card(item)
    if isinstance(item, ev.Review):
        return {"type": "review", "title": t("coach.review_title"), "lines": [said(p) for p in item.lines]}
    return None


def events(items: list[Any]) -> list[dict[str, Any]]:
    return [out for out in (event(item) for item in items) if out is not None]
