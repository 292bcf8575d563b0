"""Played games in the store: the running score, games in progress, finished games.

The running score is never kept as a separate number that could drift: it is
the sum of the learner's score changes over finished games.

**Game identity.**  Every game in progress is its own row of ``open_games``
with a random ``key``; finishing it inserts the finished game (carrying that
key, which is unique in ``games``) and deletes the open row in the *same*
transaction, so a crash can never count a game twice or lose one that was shown
as finished, and finishing again is a no-op that returns the same id.

**Ownership.**  A process plays a game only while it holds the game's lock
(:mod:`tutor.store.locks`) and its owner token is in the row; every save and
the finish check the token.  A second process that asks for the same game gets
:class:`~tutor.store.GameBusyError` ("this game is open in another window"),
and a game whose process died is free again at once.

**Abandoning** (declining to resume, then choosing "abandon") records the game
in the history as abandoned and lost at the stake it had reached
(:func:`abandoned_result`), like a resignation: a losing game cannot be dodged
by starting another.

The game in progress is saved after every decision of the learner (a small JSON
document: the deal, the level, the actions so far and the coach's verdicts on
them), so killing the program loses at most the move being typed.

**Deal numbers** are any non-negative integer (docs/rules.md §4); they are
stored as text, so every deal that can be played can be recorded.

**Learners and versions** (issue 25).  Every row carries the learner's id and
a ``GameStore`` sees only its store's learner.  Each game in progress has a
``version``, bumped by every save and checked in the same statement
(``UPDATE … WHERE version = ?``): two processes acting on one game can never
both save the next move — the stale one gets :class:`~tutor.store.GameBusyError`
(the web's 409).  A club's stores (``store.club``) rely on that alone, since
any worker may continue any learner's game; the single-learner store also keeps
the lock files ("open in another window").
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from tutor.i18n import t
from tutor.store import Baseline, GameBusyError, Store, StoreError
from tutor.store.locks import GameLock
from tutor.store.schema import rebuild_with_learner

AREA = "games"
#: Largest SQLite integer: game ids beyond it cannot exist.
MAX_ID = 2**63 - 1


def _to_v2(db: Any) -> None:
    """Deals as text (any size), abandoned games, and one row per game in progress."""
    db.execute("ALTER TABLE games RENAME TO games_v1")
    db.execute(_GAMES_V2)
    db.execute(
        "INSERT INTO games (id, finished_at, deal, level, role, won, bid, multiplier, cost, delta, scored, hints,"
        " undos, record) SELECT id, finished_at, CAST(deal AS TEXT), level, role, won, bid, multiplier, cost,"
        " delta, scored, hints, undos, record FROM games_v1"
    )
    db.execute("DROP TABLE games_v1")
    db.execute(_OPEN_GAMES)
    for (state,) in db.execute("SELECT state FROM current_game").fetchall():
        stamp = _now()
        db.execute(
            "INSERT INTO open_games (key, deal, started_at, saved_at, owner, state) VALUES (?, ?, ?, ?, NULL, ?)",
            (secrets.token_hex(16), _deal_of_text(state), stamp, stamp, state),
        )
    db.execute("DROP TABLE current_game")


def _to_v3(db: Any) -> None:
    """Games in progress saved before the coach's verdicts were kept with them (issue 13) say so.

    Their state (version 1) gains empty verdicts marked incomplete, so a resumed
    game analyses its moves on demand as before; a state that cannot be read is
    left for the resume to report.
    """
    for row_id, text in db.execute("SELECT id, state FROM open_games").fetchall():
        state, _ = _parse_state(text)
        if state is None or state.get("version") != 1:
            continue
        state.update({"version": 2, "verdicts": [], "bid_verdicts": [], "open_facts": [], "judged_all": False})
        db.execute("UPDATE open_games SET state = ? WHERE id = ?", (json.dumps(state), row_id))


def _to_v4(db: Any) -> None:
    """Every finished game records its rule set and its named factors (RULES §12, issue 24).

    Games stored before the variants were all classic; their factors are read
    back from their records (a record that cannot be replayed keeps none).
    """
    have = {row[1] for row in db.execute("PRAGMA table_info(games)").fetchall()}
    for column, empty in (("rules", "{}"), ("factors", "[]")):
        if column not in have:  # a store rolled back to an older version by hand keeps them
            db.execute(f"ALTER TABLE games ADD COLUMN {column} TEXT NOT NULL DEFAULT '{empty}'")
    for row_id, text in db.execute("SELECT id, record FROM games").fetchall():
        rules, factors = _rules_and_factors(text)
        db.execute("UPDATE games SET rules = ?, factors = ? WHERE id = ?", (json.dumps(rules), json.dumps(factors), row_id))


def _rules_and_factors(text: Any) -> tuple[dict[str, Any], list[str]]:
    """A stored record's rule set (JSON) and the named factors of its stake so far ({} and [] when unreadable)."""
    from tutor.engine.game import replay
    from tutor.engine.record import GameRecord

    try:
        game = replay(GameRecord.from_dict(json.loads(text)))
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, RecursionError):
        return {}, []
    return game.rules.to_json(), game.factors_so_far()


_GAMES_V2 = """CREATE TABLE games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    finished_at TEXT NOT NULL,
    deal TEXT NOT NULL,
    level TEXT NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('landlord', 'farmer')),
    won INTEGER NOT NULL CHECK (won IN (0, 1)),
    bid INTEGER NOT NULL,
    multiplier INTEGER NOT NULL,
    cost INTEGER NOT NULL,
    delta INTEGER NOT NULL,
    scored INTEGER NOT NULL CHECK (scored IN (0, 1)),
    hints INTEGER NOT NULL DEFAULT 0,
    undos INTEGER NOT NULL DEFAULT 0,
    record TEXT NOT NULL,
    abandoned INTEGER NOT NULL DEFAULT 0 CHECK (abandoned IN (0, 1)),
    game_key TEXT UNIQUE
)"""

_OPEN_GAMES = """CREATE TABLE open_games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    key TEXT NOT NULL UNIQUE,
    deal TEXT NOT NULL,
    started_at TEXT NOT NULL,
    saved_at TEXT NOT NULL,
    owner TEXT,
    state TEXT NOT NULL
)"""

#: The games area's schema at version 5 (issue 25), for both engines; the migrations below are its history.
SCHEMA = Baseline(5, (
    """CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        learner INTEGER NOT NULL,
        finished_at TEXT NOT NULL,
        deal TEXT NOT NULL,
        level TEXT NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('landlord', 'farmer')),
        won INTEGER NOT NULL CHECK (won IN (0, 1)),
        bid INTEGER NOT NULL,
        multiplier INTEGER NOT NULL,
        cost INTEGER NOT NULL,
        delta INTEGER NOT NULL,
        scored INTEGER NOT NULL CHECK (scored IN (0, 1)),
        hints INTEGER NOT NULL DEFAULT 0,
        undos INTEGER NOT NULL DEFAULT 0,
        record TEXT NOT NULL,
        abandoned INTEGER NOT NULL DEFAULT 0 CHECK (abandoned IN (0, 1)),
        game_key TEXT NOT NULL UNIQUE,
        rules TEXT NOT NULL DEFAULT '{}',
        factors TEXT NOT NULL DEFAULT '[]'
    )""",
    """CREATE TABLE open_games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        learner INTEGER NOT NULL,
        key TEXT NOT NULL UNIQUE,
        deal TEXT NOT NULL,
        started_at TEXT NOT NULL,
        saved_at TEXT NOT NULL,
        owner TEXT,
        version INTEGER NOT NULL DEFAULT 0,
        state TEXT NOT NULL
    )""",
    "CREATE INDEX games_learner ON games (learner, id)",
    "CREATE INDEX open_games_learner ON open_games (learner, id)",
))

MIGRATIONS: list[Any] = [
    [
        """CREATE TABLE games (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            finished_at TEXT NOT NULL,
            deal INTEGER NOT NULL,
            level TEXT NOT NULL,
            role TEXT NOT NULL CHECK (role IN ('landlord', 'farmer')),
            won INTEGER NOT NULL CHECK (won IN (0, 1)),
            bid INTEGER NOT NULL,
            multiplier INTEGER NOT NULL,
            cost INTEGER NOT NULL,
            delta INTEGER NOT NULL,
            scored INTEGER NOT NULL CHECK (scored IN (0, 1)),
            hints INTEGER NOT NULL DEFAULT 0,
            undos INTEGER NOT NULL DEFAULT 0,
            record TEXT NOT NULL
        )""",
        "CREATE TABLE current_game (slot INTEGER PRIMARY KEY CHECK (slot = 1), state TEXT NOT NULL)",
    ],
    _to_v2,
    _to_v3,
    _to_v4,
    # Issue 25: learner ids, every finished game keyed, games in progress versioned (tutor/store/schema.py).
    rebuild_with_learner(SCHEMA.statements, fill={"game_key": "lower(hex(randomblob(16)))"}),
]


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _deal_of(state: Any) -> str:
    """The deal number of a saved state, as text ("?" when it cannot be read)."""
    try:
        number = state["record"]["deal_number"]
    except (KeyError, TypeError):
        return "?"
    return str(number) if isinstance(number, int) and not isinstance(number, bool) else "?"


def _deal_of_text(text: str) -> str:
    try:
        return _deal_of(json.loads(text))
    except ValueError:
        return "?"


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """One finished game, as the history and ``ddz replay`` show it."""

    deal: int
    level: str
    role: str
    won: bool
    bid: int
    multiplier: int
    cost: int
    #: The learner's score change (0 for a replayed deal: RULES §7).
    delta: int
    scored: bool
    hints: int
    undos: int
    #: The engine's game record as a JSON-ready dict.
    record: dict[str, Any]
    id: int | None = None
    finished_at: str = field(default="")
    #: Left unfinished and abandoned: recorded as a loss at the stake reached.
    abandoned: bool = False
    #: The rule set played (:meth:`Rules.to_json`; {} = read it from the record), RULES §12.
    rules: dict[str, Any] = field(default_factory=dict)
    #: The named factors of the stake: ``["rob", "rob", "open", "bomb"]``.
    factors: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class OpenGame:
    """A game in progress, as ``ddz play`` lists them."""

    id: int
    key: str
    #: The deal number as text ("?" when the saved state cannot be read).
    deal: str
    started_at: str
    saved_at: str
    #: The saved state, or None when it cannot be read (then ``problem`` says why).
    state: dict[str, Any] | None
    #: Open in another ``ddz`` process right now.
    busy: bool
    problem: str = ""
    #: Bumped by every save: an action taken on an older version is stale (see :meth:`GameStore.claim`).
    version: int = 0


def abandoned_result(state: dict[str, Any], seat: int = 0) -> FinishedGame:
    """The history entry of an abandoned game: lost, at the stake it had reached.

    The stake is what the "Game" cell showed: base × bid × 2**(bombs so far).
    While still bidding, the highest bid so far stands for the bid (at least
    1), and the learner counts as the landlord if that bid was theirs.  A
    landlord loses twice the stake, a farmer once (RULES §7), like a resignation.
    A saved state that cannot be replayed is recorded at the lowest stake.
    """
    from tutor.engine.game import replay
    from tutor.engine.record import GameRecord

    level = str(state.get("level", "medium"))
    scored = bool(state.get("scored", True))
    hints, undos = _count(state.get("hints")), _count(state.get("undos"))
    record = state.get("record")
    try:
        game = replay(GameRecord.from_dict(record))
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        game = None
    if game is None:
        deal = record.get("deal_number") if isinstance(record, dict) else None
        return FinishedGame(
            deal=deal if isinstance(deal, int) and deal >= 0 else 0, level=level, role="farmer", won=False,
            bid=1, multiplier=1, cost=10, delta=-10, scored=scored, hints=hints, undos=undos,
            record=record if isinstance(record, dict) else {}, abandoned=True,
        )
    rules = game.rules
    if game.landlord is not None:
        landlord = game.landlord == seat
    else:  # who leads the auction so far (engine/auction.py: the highest bid, or the last call or rob)
        landlord = game.auction_state().leader == seat
    # The auction's own stake (engine/auction.py): the bid, 1 once called; nothing bid yet stands as the lowest, 1.
    bid = game.auction_state().stake or 1
    multiplier = game.multiplier_so_far()
    cost = rules.base * bid * multiplier
    number = game.deal_number
    return FinishedGame(
        deal=0 if number is None else number, level=level, role="landlord" if landlord else "farmer", won=False,
        bid=bid, multiplier=multiplier, cost=cost, delta=-(rules.landlord_share * cost if landlord else cost),
        scored=scored, hints=hints, undos=undos, record=game.record().to_dict(), abandoned=True,
        rules=rules.to_json(), factors=tuple(game.factors_so_far()),
    )


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 10**9 else 0


@dataclass
class _Claim:
    id: int
    key: str
    #: The owner token written into the row (single-learner store); None in a club.
    token: str | None
    lock: GameLock | None
    #: The version this process read or last wrote: its next save must find it unchanged.
    version: int


class GameStore:
    """The games area of a :class:`~tutor.store.Store`, for the store's learner.

    One ``GameStore`` plays at most one game at a time (its *claimed* game):
    :meth:`save_current` saves it (claiming a new row for a new game),
    :meth:`claim` takes an unfinished game to resume it, :meth:`finish` and
    :meth:`abandon` record it, :meth:`release` lets it go unfinished.
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self.learner = store.learner
        store.register_schema(AREA, MIGRATIONS, SCHEMA)
        if store.engine == "sqlite" and not store.club:
            for table in ("games", "open_games"):  # a table dropped under a valid version: damaged, said at once
                store.db.execute(f"SELECT * FROM {table} LIMIT 0").fetchall()
        self._claim: _Claim | None = None
        self._last: tuple[FinishedGame, int] | None = None
        #: Lock files only for the single-learner store: a club's workers share no folder, the version guards.
        self._uses_locks = not store.club
        self._locks = None if store.path == ":memory:" or store.club else Path(store.path).parent / "locks"

    # --------------------------------------------------------- games in progress
    def unfinished(self) -> list[OpenGame]:
        """Every game in progress, oldest first, each marked busy when another window has it."""
        rows = self.store.db.execute(
            "SELECT id, key, deal, started_at, saved_at, state, version FROM open_games WHERE learner = ? ORDER BY id",
            (self.learner,),
        ).fetchall()
        out = []
        for gid, key, deal, started, saved, text, version in rows:
            state, problem = _parse_state(text)
            mine = self._claim is not None and self._claim.id == gid
            busy = not mine and self._uses_locks and GameLock(self._locks, str(key)).is_taken()
            out.append(OpenGame(int(gid), str(key), str(deal), str(started), str(saved), state, busy, problem,
                                int(version)))
        return out

    @property
    def claimed(self) -> int | None:
        """The id of the game this store is playing (None: none yet)."""
        return None if self._claim is None else self._claim.id

    @property
    def version(self) -> int | None:
        """The version of the claimed game as this store last read or saved it (None: none claimed)."""
        return None if self._claim is None else self._claim.version

    def claim(self, game_id: int, version: int | None = None) -> dict[str, Any] | None:
        """Take the unfinished game ``game_id`` to play it here; returns its saved state.

        ``version``: the version the caller acted on (a web page's); another one means
        the game moved on meanwhile and the action is stale.  Returns None when the
        state cannot be read (it can still be abandoned).

        Raises:
            GameBusyError: another ``ddz`` has it open, it is no longer unfinished, or ``version`` is stale.
        """
        if self._claim is not None and self._claim.id == game_id:
            if version is not None and version != self._claim.version:
                raise GameBusyError(t("store.game_stale"))
            return self.load_current()
        row = self.store.db.execute(
            "SELECT key, version FROM open_games WHERE id = ? AND learner = ?", (game_id, self.learner)
        ).fetchone()
        if row is None:
            raise GameBusyError(t("store.game_gone", id=game_id))
        key, found = str(row[0]), int(row[1])
        if version is not None and version != found:
            raise GameBusyError(t("store.game_stale"))
        if not self._uses_locks:
            claim = _Claim(game_id, key, None, None, found)
        else:
            lock = GameLock(self._locks, key)
            if not self._lock(lock):
                raise GameBusyError(t("store.game_busy"))
            token = secrets.token_hex(16)
            try:
                with self.store.transaction() as db:
                    changed = db.execute(
                        "UPDATE open_games SET owner = ? WHERE id = ? AND key = ? AND learner = ?",
                        (token, game_id, key, self.learner),
                    ).rowcount
                if not changed:
                    raise GameBusyError(t("store.game_gone", id=game_id))
            except BaseException:
                lock.release()
                raise
            claim = _Claim(game_id, key, token, lock, found)
        old, self._claim = self._claim, claim
        if old is not None:  # only now: a refused claim leaves the game played here untouched
            self._let_go(old)
        return self.load_current()

    def _lock(self, lock: GameLock) -> bool:
        self.store.check_writable()  # read-only media, a full disk: the store's own reason, not locks/'s
        try:
            return lock.acquire()
        except OSError as error:
            from tutor.store import explain

            raise explain(error, self.store.path) from None

    def release(self) -> None:
        """Stop playing the claimed game here; it stays unfinished (for ``ddz play --resume``)."""
        claim, self._claim = self._claim, None
        if claim is not None:
            self._let_go(claim)

    def _let_go(self, claim: _Claim) -> None:
        if claim.lock is None:
            return
        try:
            with self.store.transaction() as db:
                db.execute("UPDATE open_games SET owner = NULL WHERE id = ? AND owner = ?", (claim.id, claim.token))
        except StoreError:
            pass  # the lock is what counts; a stale owner token is overwritten by the next claim
        finally:
            claim.lock.release()

    def _guard(self, claim: _Claim) -> tuple[str, tuple[Any, ...]]:
        """The WHERE clause (and its values) that finds the claimed row only as this process last saw it."""
        where, values = "id = ? AND learner = ? AND version = ?", (claim.id, self.learner, claim.version)
        if claim.token is None:
            return where, values
        return where + " AND owner = ?", (*values, claim.token)

    def _lost(self, claim: _Claim) -> GameBusyError:
        """The claimed game moved on under us (another process saved or finished it): let it go."""
        self._claim = None
        if claim.lock is not None:
            claim.lock.release()
        return GameBusyError(t("store.game_busy" if claim.token is not None else "store.game_stale"))

    def save_current(self, state: dict[str, Any]) -> None:
        """Save the claimed game (one small write per decision); a new game gets its own row first.

        Raises:
            GameBusyError: the game was saved or finished meanwhile by another process (a stale version).
        """
        text = json.dumps(state)
        if self._claim is None:
            key = secrets.token_hex(16)
            token = secrets.token_hex(16) if self._uses_locks else None
            lock = GameLock(self._locks, key) if self._uses_locks else None
            if lock is not None and not self._lock(lock):  # a fresh random key: nobody else can hold it
                raise GameBusyError(t("store.game_busy"))
            stamp = _now()
            try:
                with self.store.transaction() as db:
                    row = db.execute(
                        "INSERT INTO open_games (learner, key, deal, started_at, saved_at, owner, version, state)"
                        " VALUES (?, ?, ?, ?, ?, ?, 0, ?) RETURNING id",
                        (self.learner, key, _deal_of(state), stamp, stamp, token, text),
                    ).fetchone()
            except BaseException:
                if lock is not None:
                    lock.release(forget=True)
                raise
            self._claim = _Claim(int(row[0]), key, token, lock, 0)
            return
        claim = self._claim
        where, values = self._guard(claim)
        with self.store.transaction() as db:
            changed = db.execute(
                f"UPDATE open_games SET state = ?, deal = ?, saved_at = ?, version = version + 1 WHERE {where}",
                (text, _deal_of(state), _now(), *values),
            ).rowcount
        if not changed:
            raise self._lost(claim)
        claim.version += 1

    def load_current(self) -> dict[str, Any] | None:
        """The saved state of the claimed game, or (none claimed) of the latest unfinished game."""
        if self._claim is not None:
            row = self.store.db.execute(
                "SELECT state FROM open_games WHERE id = ? AND learner = ?", (self._claim.id, self.learner)
            ).fetchone()
        else:
            row = self.store.db.execute(
                "SELECT state FROM open_games WHERE learner = ? ORDER BY id DESC LIMIT 1", (self.learner,)
            ).fetchone()
        return None if row is None else _parse_state(row[0])[0]

    # ------------------------------------------------------------ finished games
    def finish(self, game: FinishedGame) -> int:
        """Record the claimed game as finished and drop it from the games in progress; returns its id.

        Idempotent: the game's key is unique in the history, so recording it a
        second time (a retry, a second call) returns the first id and counts nothing.

        Raises:
            GameBusyError: the game is open in another window, or moved on meanwhile (a stale version).
        """
        if self._claim is None and self._last is not None and self._last[0] == game:
            return self._last[1]
        claim = self._claim
        key = claim.key if claim is not None else secrets.token_hex(16)
        stamp = game.finished_at or _now()
        try:
            with self.store.transaction() as db:
                row = db.execute(
                    "SELECT id FROM games WHERE game_key = ? AND learner = ?", (key, self.learner)
                ).fetchone()
                if row is not None:
                    game_id = int(row[0])
                    if claim is not None:
                        db.execute("DELETE FROM open_games WHERE id = ? AND learner = ?", (claim.id, self.learner))
                else:
                    if claim is not None:
                        where, values = self._guard(claim)
                        gone = db.execute(f"DELETE FROM open_games WHERE {where}", values).rowcount
                        if not gone:
                            raise _Stale()
                    game_id = int(db.execute(
                        "INSERT INTO games (learner, finished_at, deal, level, role, won, bid, multiplier, cost, delta,"
                        " scored, hints, undos, record, abandoned, game_key, rules, factors)"
                        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                        (
                            self.learner, stamp, str(game.deal), game.level, game.role, int(game.won), game.bid,
                            game.multiplier, game.cost, game.delta if game.scored else 0, int(game.scored),
                            game.hints, game.undos, json.dumps(game.record), int(game.abandoned), key,
                            json.dumps(game.rules or game.record.get("rules") or {}), json.dumps(list(game.factors)),
                        ),
                    ).fetchone()[0])
        except _Stale:
            assert claim is not None
            raise self._lost(claim) from None
        if claim is not None:
            self._claim = None
            if claim.lock is not None:
                claim.lock.release(forget=True)
        self._last = (game, game_id)
        return game_id

    def abandon(self, game_id: int, seat: int = 0) -> FinishedGame:
        """Abandon the unfinished game ``game_id``: recorded as lost at its stake (see :func:`abandoned_result`).

        Raises:
            GameBusyError: it is open in another window.
        """
        state = self.claim(game_id)
        result = abandoned_result(state or {}, seat)
        new_id = self.finish(result)
        return replace(result, id=new_id)

    def discard(self, game_id: int) -> None:
        """Drop the unfinished game ``game_id`` without a record (an unscored replay left unfinished).

        Raises:
            GameBusyError: it is open in another window, or moved on meanwhile.
        """
        self.claim(game_id)
        claim = self._claim
        assert claim is not None
        where, values = self._guard(claim)
        with self.store.transaction() as db:
            gone = db.execute(f"DELETE FROM open_games WHERE {where}", values).rowcount
        if not gone:
            raise self._lost(claim)
        self._claim = None
        if claim.lock is not None:
            claim.lock.release(forget=True)

    def running_score(self) -> int:
        row = self.store.db.execute("SELECT COALESCE(SUM(delta), 0) FROM games WHERE learner = ?",
                                    (self.learner,)).fetchone()
        return int(row[0])

    def _from_row(self, row: tuple[Any, ...]) -> FinishedGame:
        (gid, stamp, deal, level, role, won, bid, mult, cost, delta, scored, hints, undos, record, abandoned,
         rules, factors) = row
        try:
            data = json.loads(record)
        except (ValueError, TypeError, RecursionError):
            data = {}
        try:
            number = int(deal)
        except (ValueError, TypeError):
            number = 0
        return FinishedGame(
            deal=number,
            level=level,
            role=role,
            won=bool(won),
            bid=int(bid),
            multiplier=int(mult),
            cost=int(cost),
            delta=int(delta),
            scored=bool(scored),
            hints=int(hints),
            undos=int(undos),
            record=data,
            id=int(gid),
            finished_at=stamp,
            abandoned=bool(abandoned),
            rules=_json_of(rules, dict),
            factors=tuple(str(f) for f in _json_of(factors, list)),
        )

    _COLUMNS = (
        "id, finished_at, deal, level, role, won, bid, multiplier, cost, delta, scored, hints, undos, record,"
        " abandoned, rules, factors"
    )

    def history(self, limit: int = 20) -> list[FinishedGame]:
        """The most recent finished games, newest first."""
        rows = self.store.db.execute(
            f"SELECT {self._COLUMNS} FROM games WHERE learner = ? ORDER BY id DESC LIMIT ?", (self.learner, limit)
        ).fetchall()
        return [self._from_row(r) for r in rows]

    def get(self, game_id: int) -> FinishedGame | None:
        """The finished game ``game_id`` of this learner (None for an id that is not theirs, however large)."""
        if not 0 < game_id <= MAX_ID:
            return None
        row = self.store.db.execute(
            f"SELECT {self._COLUMNS} FROM games WHERE id = ? AND learner = ?", (game_id, self.learner)
        ).fetchone()
        return self._from_row(row) if row else None

    def stats(self) -> dict[str, Any]:
        """Running score, and games and wins by role and by level (scored and replays alike)."""
        db, me = self.store.db, (self.learner,)
        total, wins = db.execute("SELECT COUNT(*), COALESCE(SUM(won), 0) FROM games WHERE learner = ?", me).fetchone()
        by_role = {
            str(role): {"games": int(n), "wins": int(w)}
            for role, n, w in db.execute("SELECT role, COUNT(*), SUM(won) FROM games WHERE learner = ? GROUP BY role", me)
        }
        by_level = {
            str(level): {"games": int(n), "wins": int(w)}
            for level, n, w in db.execute(
                "SELECT level, COUNT(*), SUM(won) FROM games WHERE learner = ? GROUP BY level", me)
        }
        best = db.execute(
            "SELECT COALESCE(MAX(delta), 0), COALESCE(MIN(delta), 0) FROM games WHERE learner = ?", me).fetchone()
        abandoned = db.execute("SELECT COUNT(*) FROM games WHERE learner = ? AND abandoned = 1", me).fetchone()[0]
        return {
            "score": self.running_score(),
            "games": int(total),
            "wins": int(wins),
            "by_role": by_role,
            "by_level": by_level,
            "abandoned": int(abandoned),
            "best": int(best[0]),
            "worst": int(best[1]),
        }


class _Stale(Exception):
    """Inside :meth:`GameStore.finish`: the claimed row moved on; rolls the transaction back."""


def _json_of(text: Any, kind: type) -> Any:
    """A stored JSON column of ``kind`` (dict or list); an empty one when it cannot be read."""
    try:
        value = json.loads(text)
    except (ValueError, TypeError, RecursionError):
        return kind()
    return value if isinstance(value, kind) else kind()


def _parse_state(text: Any) -> tuple[dict[str, Any] | None, str]:
    """A saved state, or None and why it cannot be read."""
    try:
        state = json.loads(text)
    except (ValueError, TypeError, RecursionError):
        return None, "the saved state is not readable JSON"
    if not isinstance(state, dict):
        return None, "the saved state is not a game"
    return state, ""
