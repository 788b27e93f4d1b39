"""The chance of winning a whole game from its scores: a game-aware value of a deal.

A game of the four-seat classic game is played to ``target`` points (RULES.md §8: it ends
after the deal in which a team reaches the target; the higher total wins, equal totals
play another deal). A deal worth ``+20`` points is not worth the same at 0-0 as at
950-900. ``GameValue`` gives, for a distribution of deal outcomes (the two teams' points of
a deal, from self-play), the chance ``win(us, them)`` that the team with ``us`` points wins
the game against ``them``, by exact value iteration on a grid of ``step`` points (the game's
scores only grow, so it converges in as many sweeps as a game has deals), read between the
grid's points by bilinear interpolation.

``training.rollouts.rollout_labels`` uses it to label a decision by the change in that
chance instead of the deal's point difference (``label``: in units of one point of
difference at 0-0 times ``unit``, so a label near the start of a game is the
point-difference label the loop had); the deals start from game positions drawn from
simulated games (``positions``) and the observations carry those scores (the ``scores``
block of ``observation.LAYOUT``, which single self-play deals leave at 0).
"""

from __future__ import annotations

import numpy as np

__all__ = ["GameValue"]


class GameValue:
    """Win chances of a game to ``target`` under i.i.d. deals drawn from ``outcomes``.

    Args:
        outcomes: int array ``(K, 2)``: the points of the two teams in each of ``K`` deals
            (``BatchedGame.result[:, :2]``); both orientations are used (no team or dealer
            is favoured). Rows of ``(0, 0)`` (void deals: redealt) are dropped.
        target: the game's target (RULES.md §8, ``Rules.target``: an int >= 1).
        step: the grid's spacing in points (int >= 1; 10 by default).
        unit: the points one label unit stands for at 0-0 (162 classic: the loop's
            ``oracle.value_unit``).

    Attributes:
        grid: float64 ``(M, M)``, ``grid[i, j]`` the chance of winning from ``(i * step,
            j * step)``; indices at or past ``target / step`` are finished games (1, 0,
            or 0.5 for equal scores).
        scale: the label's multiplier: ``1 / (unit * slope)``, where ``slope`` is the
            chance won per point of difference at 0-0 (the least-squares slope of the
            chance won by a deal on its point difference, over ``outcomes``).

    Raises:
        ValueError: ``outcomes`` not ``(K, 2)`` non-negative ints with a non-void deal
            (or with no difference that changes the chance), a bad ``target``, ``step``
            or ``unit``.
    """

    def __init__(self, outcomes, target: int, step: int = 10, unit: float = 162.0):
        o = np.asarray(outcomes)
        if o.ndim != 2 or o.shape[1] != 2 or not np.issubdtype(o.dtype, np.integer) or (o < 0).any():
            raise ValueError(f"outcomes must be non-negative int points of shape (K, 2), got {o.dtype} {o.shape}")
        o = o[o.sum(1) > 0]
        if not len(o):
            raise ValueError("outcomes hold no deal with points (all void)")
        for name, v in (("target", target), ("step", step)):
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1:
                raise ValueError(f"{name} must be an int >= 1, got {v!r}")
        if not unit > 0:
            raise ValueError(f"unit must be > 0, got {unit!r}")
        self.target, self.step, self.unit = int(target), int(step), float(unit)
        both = np.concatenate([o, o[:, ::-1]]).astype(np.float64)
        self.outcomes = both.astype(np.int64)
        # each outcome split between its grid neighbours (bilinear weights): (da, db, p)
        q = both / step
        lo = np.floor(q).astype(np.int64)
        fr = q - lo
        moves: dict[tuple[int, int], float] = {}
        p0 = 1.0 / len(both)
        for (a, b), (fa, fb) in zip(lo, fr):
            for da, wa in ((0, 1 - fa), (1, fa)):
                for db, wb in ((0, 1 - fb), (1, fb)):
                    w = wa * wb * p0
                    if w > 0:
                        key = (int(a + da), int(b + db))
                        moves[key] = moves.get(key, 0.0) + w
        stay = moves.pop((0, 0), 0.0)  # a deal that moves neither score on the grid: its mass spread on the rest
        self._moves = [(a, b, p / (1.0 - stay)) for (a, b), p in moves.items()]
        n = -(-self.target // step)  # the first finished index
        top = max(max(a, b) for a, b, _ in self._moves)
        m = n + top + 2
        i = np.arange(m)
        done = (i[:, None] >= n) | (i[None, :] >= n)
        fin = np.where(i[:, None] > i[None, :], 1.0, np.where(i[:, None] < i[None, :], 0.0, 0.5))
        w = np.where(done, fin, 0.5)
        for _ in range(4 * n + 8):  # every deal moves the scores: exact after as many sweeps as deals
            new = np.zeros((n, n))
            for a, b, p in self._moves:
                new += p * w[a:a + n, b:b + n]
            change = np.abs(new - w[:n, :n]).max()
            w[:n, :n] = new
            if change < 1e-13:
                break
        self.grid = w
        self._n = n
        # the chance won per point of difference at 0-0: the least-squares slope over the deals
        diff = (both[:, 0] - both[:, 1])
        self.slope = float(((self.win(both[:, 0], both[:, 1]) - self.win(0, 0)) * diff).sum() / (diff ** 2).sum()) \
            if (diff != 0).any() else 0.0
        if not self.slope > 0:
            raise ValueError("outcomes whose point differences do not change the chance of winning: no label scale")
        self.scale = 1.0 / (self.unit * self.slope)

    def win(self, us, them) -> np.ndarray:
        """The chance (float64, the broadcast shape of ``us`` and ``them``) that the team
        with ``us`` points wins against ``them`` (points at the start of a deal)."""
        a = np.clip(np.asarray(us, dtype=np.float64) / self.step, 0, self.grid.shape[0] - 1.000001)
        b = np.clip(np.asarray(them, dtype=np.float64) / self.step, 0, self.grid.shape[1] - 1.000001)
        ia, ib = np.floor(a).astype(np.int64), np.floor(b).astype(np.int64)
        fa, fb = a - ia, b - ib
        g = self.grid
        return ((1 - fa) * (1 - fb) * g[ia, ib] + fa * (1 - fb) * g[ia + 1, ib]
                + (1 - fa) * fb * g[ia, ib + 1] + fa * fb * g[ia + 1, ib + 1])

    def label(self, start: np.ndarray, points: np.ndarray, team: np.ndarray) -> np.ndarray:
        """The label of deals played from game scores ``start`` (int ``(m, 2)``, teams 0
        and 1) that scored ``points`` (int ``(m, 2)``), for the acting team ``team``
        (int ``(m,)``): the change in its chance of winning the game, times ``scale``
        (float32 ``(m,)``; 0 for a void deal)."""
        rows = np.arange(len(team))
        us, them = start[rows, team], start[rows, 1 - team]
        after = self.win(us + points[rows, team], them + points[rows, 1 - team])
        return ((after - self.win(us, them)) * self.scale).astype(np.float32)

    def positions(self, rng: np.random.Generator, n: int) -> np.ndarray:
        """``n`` game scores at the start of a deal (int64 ``(n, 2)``, teams 0 and 1),
        drawn uniformly from the deals of games simulated with this object's outcomes
        (0-0 included, as often as a game starts)."""
        seen: list[np.ndarray] = []
        total = 0
        while total < n:
            games = max(64, n // 8)
            s = np.zeros((games, 2), dtype=np.int64)
            live = np.ones(games, dtype=bool)
            while live.any():
                seen.append(s[live].copy())
                total += int(live.sum())
                draw = self.outcomes[rng.integers(0, len(self.outcomes), games)]
                s = np.where(live[:, None], s + draw, s)
                over = (s.max(1) >= self.target) & (s[:, 0] != s[:, 1])
                live &= ~over
        pool = np.concatenate(seen)
        return pool[rng.choice(len(pool), n, replace=False)]
