"""Glicko-2 ratings (Glickman, "Example of the Glicko-2 system", 2013).

Both the learner and every puzzle carry a rating: a solved puzzle is a win for
the learner and a loss for the puzzle, so the library's ratings drift towards
how hard the puzzles really are for people, as on Lichess.  Each attempt is one
rating period with a single game, which is how puzzle trainers apply Glicko-2.

The implementation follows the paper step by step (the names ``mu``, ``phi``,
``sigma``, ``v`` and ``delta`` are the paper's); the paper's worked example is a
unit test.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

#: Conversion factor between the Glicko and Glicko-2 scales (paper, step 2).
SCALE = 173.7178
DEFAULT_RATING = 1500.0
DEFAULT_RD = 350.0
DEFAULT_VOLATILITY = 0.06
#: The system constant: how fast volatility may change (the paper suggests 0.3–1.2).
TAU = 0.5
#: Convergence tolerance of the volatility iteration (paper, step 5).
EPSILON = 1e-6
#: Bounds on the rating deviation so that a long-time learner still moves a little.
MIN_RD = 45.0
MAX_RD = DEFAULT_RD


@dataclass(frozen=True, slots=True)
class Rating:
    """A Glicko-2 rating on the familiar Glicko scale (1500 ± 350)."""

    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    volatility: float = DEFAULT_VOLATILITY

    @property
    def mu(self) -> float:
        return (self.rating - DEFAULT_RATING) / SCALE

    @property
    def phi(self) -> float:
        return self.rd / SCALE


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected_score(player: Rating, opponent: Rating) -> float:
    """The chance the player beats the opponent (E of the paper)."""
    return _expected(player.mu, opponent.mu, opponent.phi)


def _new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5 of the paper: the Illinois algorithm on f(x) = 0."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        top = ex * (delta * delta - phi * phi - v - ex)
        bottom = 2.0 * (phi * phi + v + ex) ** 2
        return top / bottom - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(
    player: Rating,
    games: Iterable[tuple[Rating, float]],
    tau: float = TAU,
    clamp: bool = True,
) -> Rating:
    """The player's rating after one rating period.

    Args:
        player: the rating before the period.
        games: (opponent's rating before the period, score 1 / 0.5 / 0).
        tau: the system constant.
        clamp: keep the RD within [MIN_RD, MAX_RD] (off for the paper's example).
    """
    games = list(games)
    mu, phi, sigma = player.mu, player.phi, player.volatility
    if not games:
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        rd = phi_star * SCALE
        return Rating(player.rating, min(rd, MAX_RD) if clamp else rd, sigma)
    inv_v = 0.0
    total = 0.0
    for opponent, score in games:
        g = _g(opponent.phi)
        e = _expected(mu, opponent.mu, opponent.phi)
        inv_v += g * g * e * (1.0 - e)
        total += g * (score - e)
    v = 1.0 / inv_v
    delta = v * total
    sigma_new = _new_volatility(sigma, phi, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * total
    rd = phi_new * SCALE
    if clamp:
        rd = max(MIN_RD, min(MAX_RD, rd))
    return Rating(mu_new * SCALE + DEFAULT_RATING, rd, sigma_new)


#: Largest change of a rating from one puzzle attempt.  A new learner's wide
#: deviation would otherwise swing the rating by 500 points on one puzzle; the
#: cap keeps the first few attempts from feeling arbitrary (Lichess caps too).
MAX_CHANGE = 200.0


def _capped(before: Rating, after: Rating, cap: float) -> Rating:
    change = max(-cap, min(cap, after.rating - before.rating))
    return Rating(before.rating + change, after.rd, after.volatility)


def rate_attempt(
    learner: Rating, puzzle: Rating, solved: bool, max_change: float = MAX_CHANGE
) -> tuple[Rating, Rating]:
    """Both new ratings after one rated attempt (the puzzle scores the opposite).

    Each rating moves by at most ``max_change`` points.
    """
    score = 1.0 if solved else 0.0
    new_learner = _capped(learner, rate(learner, [(puzzle, score)]), max_change)
    new_puzzle = _capped(puzzle, rate(puzzle, [(learner, 1.0 - score)]), max_change)
    return new_learner, new_puzzle
