"""The chance of winning a whole game from its scores: a game-aware value of a deal.

A game of the four-seat game is played to ``target`` points (RULES.md §8, COINCHE.md §6.11:
it ends after the deal in which a team reaches the target; the higher total wins, equal
totals play another deal). A deal worth ``+20`` points is not worth the same at 0-0 as at
950-900. ``GameValue`` gives, for a distribution of deal outcomes (the two teams' points of
a deal, from self-play, dealt independently), the chance ``win(us, them)`` that the team
with ``us`` points wins against ``them``: a finished game exactly (1, 0; equal totals at
or past the target are 1/2 by symmetry), a game in play by value iteration on a grid of
``step`` points whose every deal lands on its exact scores (finished there, or read from
the grid by bilinear interpolation between the grid's points below the target). The game's
scores only grow, so the iteration settles in as many sweeps as a game can have deals. A
score within the last ``step`` below the target, where the grid's reading is flat, is
valued by its next deal's outcomes read so (within about 0.005 of simulated games).

What it leaves out: the litige reserve (RULES.md §7: points held for the next deal's
winner count as lost), a deal limit (``max_deals``), and the coinche rules that a team may
not win on belote alone; ``training.iterate`` refuses the last two with ``game_value``.
A target that must be exceeded (COINCHE.md ``target_rule: exceed``) is the target + 1.

``training.rollouts.rollout_labels`` uses it to label a decision by the change in that
chance instead of the deal's point difference (``label``: scaled so that near 0-0 a label
is about the point-difference label, in units of ``unit`` points); the deals start from
game positions drawn from simulated games (``positions``) and the observations carry those
scores (the ``scores`` block of ``observation.LAYOUT``, which single self-play deals leave
at 0).
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["GameValue"]

#: the largest points one team may score in one deal of ``outcomes`` (a coinched capot
#: with belote is 752 x 2 + 20; far above any deal of the game)
MAX_DEAL_POINTS = 100_000


def _points(x, name: str) -> np.ndarray:
    """``x`` as float64 points; ``ValueError`` naming ``name`` unless finite numbers >= 0."""
    a = np.asarray(x)
    if a.dtype == bool or not (np.issubdtype(a.dtype, np.integer) or np.issubdtype(a.dtype, np.floating)):
        raise ValueError(f"{name} must be numbers of points, got dtype {a.dtype}")
    if not np.isfinite(a).all() or (a < 0).any():
        raise ValueError(f"{name} must be finite points >= 0")
    return a.astype(np.float64)


class GameValue:
    """Win chances of a game to ``target`` under independent deals drawn from ``outcomes``.

    Args:
        outcomes: int array ``(K, 2)``: the points of the two teams in each of ``K`` deals
            (``BatchedGame.result[:, :2]``); both orientations are used (no team or dealer
            is favoured). Rows of ``(0, 0)`` (void deals: redealt) are dropped.
        target: the game's target (RULES.md §8, ``Rules.target``): an int >= 1.
        step: the grid's spacing in points, an int in 1..``target`` (10 by default).
        unit: the points one label unit stands for near 0-0 (162 classic: the loop's
            ``oracle.value_unit``; 500 in coinche); finite and > 0.

    Attributes:
        grid: float64 ``(n, n)``, ``grid[i, j]`` the chance of winning from ``(i * step,
            j * step)``, for the ``n`` grid lines below the target.
        slope: the chance won per point of difference at 0-0 (the least-squares slope of
            the chance a deal wins from 0-0 on its point difference, over ``outcomes``).
        scale: the label's multiplier, ``1 / (unit * slope)``.

    Raises:
        ValueError: ``outcomes`` not ``(K, 2)`` non-negative ints (each at most
            ``MAX_DEAL_POINTS``) with a deal that scores, or whose point differences do not
            change the chance of winning; a bad ``target``, ``step`` or ``unit``.
    """

    def __init__(self, outcomes, target: int, step: int = 10, unit: float = 162.0):
        o = np.asarray(outcomes)
        if o.ndim != 2 or o.shape[1] != 2 or not np.issubdtype(o.dtype, np.integer) or (o < 0).any() or (
                o > MAX_DEAL_POINTS).any():
            raise ValueError(f"outcomes must be int points in 0..{MAX_DEAL_POINTS:,} of shape (K, 2), got "
                             f"{o.dtype} {o.shape}")
        o = o.astype(np.int64)
        o = o[o.sum(1) > 0]
        if not len(o):
            raise ValueError("outcomes hold no deal with points (none given, or all void)")
        for name, v in (("target", target), ("step", step)):
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1:
                raise ValueError(f"{name} must be an int >= 1, got {v!r}")
        if step > target:
            raise ValueError(f"step must be at most the target ({target}), got {step}")
        if isinstance(unit, bool) or not isinstance(unit, (int, float, np.number)) or not (
                math.isfinite(unit) and unit > 0):
            raise ValueError(f"unit must be a finite number of points > 0, got {unit!r}")
        self.target, self.step, self.unit = int(target), int(step), float(unit)
        self.outcomes = np.concatenate([o, o[:, ::-1]])
        pairs, counts = np.unique(self.outcomes, axis=0, return_counts=True)
        p = counts / counts.sum()
        self._pairs, self._p = pairs.astype(np.float64), p
        n = -(-self.target // self.step)  # grid lines i * step < target
        self._n = n
        base = np.arange(n, dtype=np.float64) * self.step
        self.grid = np.full((n, n), 0.5)
        sweeps = 2 * -(-self.target // int(pairs.sum(1).min())) + 2  # a game's most deals, and one
        for _ in range(sweeps):
            new = np.zeros((n, n))
            for (a, b), w in zip(pairs, p):
                new += w * self._read(base[:, None] + a, base[None, :] + b)
            change = np.abs(new - self.grid).max()
            self.grid = new
            if change < 1e-13:
                break
        diff = (self.outcomes[:, 0] - self.outcomes[:, 1]).astype(np.float64)
        gain = self.win(self.outcomes[:, 0], self.outcomes[:, 1]) - self.win(0, 0)
        self.slope = float((gain * diff).sum() / (diff ** 2).sum()) if (diff != 0).any() else 0.0
        if not self.slope > 0:
            raise ValueError("outcomes whose point differences do not change the chance of winning: no label scale")
        self.scale = 1.0 / (self.unit * self.slope)

    def win(self, us, them) -> np.ndarray:
        """The chance (float64, the broadcast shape of ``us`` and ``them``) that the team
        with ``us`` points wins against ``them`` (finite points >= 0; ``ValueError``
        otherwise): 1 or 0 for a finished game (a total at or past the target, the totals
        unequal), 1/2 for equal totals past it; within the last ``step`` below the target,
        the mean over the outcomes of the next deal's result; else the grid's chance, read
        bilinearly."""
        a, b = np.broadcast_arrays(_points(us, "us"), _points(them, "them"))
        out = self._read(a, b)
        last = (np.maximum(a, b) < self.target) & (np.maximum(a, b) > (self._n - 1) * self.step)
        if last.any():  # one deal to go, most often: its outcomes, read exactly where they finish the game
            la, lb = a[last], b[last]
            acc = np.zeros(len(la))
            for (oa, ob), w in zip(self._pairs, self._p):
                acc += w * self._read(la + oa, lb + ob)
            out = out.copy()
            out[last] = acc
        return out

    def _read(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """The finished games' value, else the grid's, read bilinearly (constant over the
        last ``step`` below the target)."""
        done = np.maximum(a, b) >= self.target
        fa = np.minimum(a / self.step, self._n - 1)
        fb = np.minimum(b / self.step, self._n - 1)
        g = self.grid
        if self._n == 1:
            live = np.broadcast_to(g[0, 0], a.shape)
        else:
            ia = np.minimum(fa.astype(np.int64), self._n - 2)
            ib = np.minimum(fb.astype(np.int64), self._n - 2)
            da, db = fa - ia, fb - ib
            live = ((1 - da) * (1 - db) * g[ia, ib] + da * (1 - db) * g[ia + 1, ib]
                    + (1 - da) * db * g[ia, ib + 1] + da * db * g[ia + 1, ib + 1])
        return np.where(done, np.where(a > b, 1.0, np.where(a < b, 0.0, 0.5)), live)

    def label(self, start, points) -> np.ndarray:
        """Labels of deals played from game scores ``start`` (``(m, 2)``: the acting team's,
        the other's) that scored ``points`` (``(m, 2)``, the same order): the change in the
        acting team's chance of winning, times ``scale`` (float32 ``(m,)``; 0 for a void
        deal). ``ValueError`` for other shapes or scores."""
        s, d = _points(start, "start"), _points(points, "points")
        if s.ndim != 2 or s.shape[1] != 2 or s.shape != d.shape:
            raise ValueError(f"start and points must both be (m, 2) (us, them), got {s.shape} and {d.shape}")
        after = self.win(s[:, 0] + d[:, 0], s[:, 1] + d[:, 1])
        return ((after - self.win(s[:, 0], s[:, 1])) * self.scale).astype(np.float32)

    def positions(self, rng: np.random.Generator, n: int) -> np.ndarray:
        """``n`` game scores at the start of a deal (int64 ``(n, 2)``, teams 0 and 1),
        drawn uniformly from the deals of games simulated with this object's outcomes
        (0-0 included, as often as a game starts); ``ValueError`` unless ``n`` is an int
        >= 0."""
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
            raise ValueError(f"n must be an int >= 0, got {n!r}")
        seen: list[np.ndarray] = [np.zeros((0, 2), dtype=np.int64)]
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
                live &= ~((s.max(1) >= self.target) & (s[:, 0] != s[:, 1]))
        pool = np.concatenate(seen)
        return pool[rng.choice(len(pool), n, replace=False)]
