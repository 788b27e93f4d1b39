"""``belote ladder``: a round-robin of duplicate matches and Elo-style ratings.

Every pair of policies plays a duplicate match; A's score per pair (deals or games won,
ties 1/2) feeds a Bradley-Terry model ``P(i beats j) = 1 / (1 + 10 ** ((R_j - R_i) / 400))``
fitted by maximum likelihood. Ratings are anchored with ``random`` at 1000 (else the first
policy). 95% intervals come from a seeded bootstrap over the deal pairs of every match.
"""

from __future__ import annotations

import io
import math
import os
import random
from dataclasses import dataclass
from pathlib import Path

from belote_env.atomic import atomic_write_bytes

from .evaluate import MatchResult, duplicate_match

__all__ = ["LadderResult", "run_ladder", "fit_ratings", "anchor_of", "plot_path", "PLOT_FORMATS"]

#: File formats of ``LadderResult.plot`` (by file suffix).
PLOT_FORMATS = ("png", "svg", "pdf")


def plot_path(path: str | os.PathLike) -> Path:
    """The file ``LadderResult.plot(path)`` writes: ``path`` itself, or ``path`` + ``.png``
    when it has no suffix. Raises ``ValueError`` for an empty path or another suffix than
    ``PLOT_FORMATS``."""
    if not str(path).strip():
        raise ValueError(f"cannot plot to {str(path)!r}: the path is empty; give a file name ending in "
                         f"{', '.join('.' + f for f in PLOT_FORMATS)} (none: .png is added)")
    p = Path(path)
    if not p.suffix:
        return p.with_name(p.name + ".png")
    if p.suffix[1:].lower() not in PLOT_FORMATS:
        raise ValueError(f"cannot plot to {str(path)!r}: the file suffix must be one of "
                         f"{', '.join('.' + f for f in PLOT_FORMATS)} (none: .png is added)")
    return p


def anchor_of(names: list[str]) -> int:
    """The index of the policy whose rating is 1000: ``random`` if it plays, else the first."""
    return names.index("random") if "random" in names else 0


def fit_ratings(names: list[str], scores: dict[tuple[int, int], tuple[float, int]], anchor: int = 0,
                iters: int = 2000) -> list[float]:
    """Bradley-Terry ratings (Elo scale) from pairwise results.

    Args:
        names: the policies.
        scores: ``{(i, j): (score of i against j summed over pairs, number of pairs)}``.
        anchor: index whose rating is set to 1000.
    Returns:
        one rating per name (floats; a shutout is capped near +-800 from its opponent).
    """
    n = len(names)
    r = [0.0] * n
    eps = 0.5  # a half-win / half-loss prior per match keeps perfect scores finite
    for _ in range(iters):
        grad = [0.0] * n
        for (i, j), (s, m) in scores.items():
            s_adj = (s + eps) / (m + 2 * eps)
            p = 1.0 / (1.0 + 10 ** ((r[j] - r[i]) / 400))
            g = (m + 2 * eps) * (s_adj - p)
            grad[i] += g
            grad[j] -= g
        step = 400 / max(1.0, max(sum(m for (a, b), (_, m) in scores.items() if k in (a, b)) for k in range(n)))
        r = [ri + step * gi for ri, gi in zip(r, grad)]
        if max(abs(g) for g in grad) < 1e-6:
            break
    shift = 1000 - r[anchor]
    return [ri + shift for ri in r]


@dataclass
class LadderResult:
    names: list[str]
    ratings: list[float]
    intervals: list[tuple[float, float]]
    matches: list[MatchResult]

    def table(self) -> str:
        order = sorted(range(len(self.names)), key=lambda i: -self.ratings[i])
        w = max(len(n) for n in self.names)
        lines = [f"{'policy':<{w}}  rating  95% interval", "-" * (w + 26)]
        for i in order:
            lo, hi = self.intervals[i]
            lines.append(f"{self.names[i]:<{w}}  {self.ratings[i]:6.0f}  {lo:6.0f} .. {hi:6.0f}")
        lines.append("")
        lines.append("matches (A vs B: A's score, mean point diff per deal):")
        for m in self.matches:
            lo, hi = m.win_rate_ci
            lines.append(f"  {m.a} vs {m.b}: {100 * m.win_rate:.1f}% ({100 * lo:.1f}-{100 * hi:.1f}), "
                         f"{m.mean_diff:+.1f}" + ("  (zero width: no spread over its pairs, too few to estimate it; "
                                                  "play more)" if lo == hi else ""))
        return "\n".join(lines)

    def title(self) -> str:
        """The plot's title: what it shows, the anchor and the matches' size, e.g. ``"Ratings
        of 3 policies (random = 1000) with 95% bootstrap intervals\\nround-robin of 200
        mirrored deal pairs per match"`` (two and three players: duplicate sets)."""
        pairs = sorted({m.pairs for m in self.matches})
        size = f"{pairs[0]}..{pairs[-1]}" if len(pairs) > 1 else str(pairs[0])
        modes = "/".join(sorted({m.mode for m in self.matches}))
        unit = f"mirrored {modes} pairs" if getattr(self.matches[0], "players", 4) == 4 else f"duplicate {modes} sets"
        return (f"Ratings of {len(self.names)} policies ({self.names[anchor_of(self.names)]} = 1000) with 95% "
                f"bootstrap intervals\nround-robin of {size} {unit} per match")

    def plot(self, path: str | os.PathLike) -> Path:
        """Save a bar chart of the ratings with their intervals, titled by ``title()``;
        returns the file written (``plot_path(path)``)."""
        path = plot_path(path)
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        order = sorted(range(len(self.names)), key=lambda i: self.ratings[i])
        fig, ax = plt.subplots(figsize=(6, 0.6 * len(order) + 1.7))
        y = range(len(order))
        vals = [self.ratings[i] for i in order]
        err = [[self.ratings[i] - self.intervals[i][0] for i in order], [self.intervals[i][1] - self.ratings[i] for i in order]]
        ax.barh(list(y), vals, xerr=err, color="#3a7", capsize=4)
        ax.set_yticks(list(y), [self.names[i] for i in order])
        ax.set_xlabel(f"Elo-style rating ({self.names[anchor_of(self.names)]} = 1000), 95% bootstrap interval")
        ax.set_title(self.title(), fontsize=10)
        ax.set_xlim(min(min(vals) - 200, 800), max(vals) + 200)
        fig.tight_layout()
        buf = io.BytesIO()  # then written atomically: a kill or a failing write leaves the old plot whole
        try:
            fig.savefig(buf, dpi=120, format=path.suffix[1:].lower())
        finally:
            plt.close(fig)
        atomic_write_bytes(path, buf.getvalue())
        return path


def run_ladder(specs: list[str], pairs: int, seed: int = 0, rules=None, mode: str = "deal", workers: int = 1,
               progress: bool = False, bootstrap: int = 300) -> LadderResult:
    """Round-robin duplicate matches among ``specs``: tier names, model folders or policy
    factories (``"module.path:attribute"``, or the importable function or class itself,
    named by its ``"module:name"``; see ``duplicate_match``)."""
    from policies.registry import factory_spec

    from .evaluate import _is_factory

    specs = [factory_spec(s) if _is_factory(s) else s for s in specs]
    if len(specs) < 2:
        raise ValueError("a ladder needs at least two policies")
    if len(set(specs)) != len(specs):
        raise ValueError(f"policies must be distinct, got {specs}")
    matches, scores, per_pair = [], {}, {}
    for i in range(len(specs)):
        for j in range(i + 1, len(specs)):
            m = duplicate_match(specs[i], specs[j], pairs, seed=seed, rules=rules, mode=mode, workers=workers,
                                progress=progress)
            matches.append(m)
            per_pair[(i, j)] = list(m.pair_scores)
            scores[(i, j)] = (sum(m.pair_scores), len(m.pair_scores))
    names = [m for m in specs]
    anchor = anchor_of(names)
    ratings = fit_ratings(names, scores, anchor)
    rng = random.Random(seed)
    boots = []
    for _ in range(bootstrap):
        sample = {}
        for key, vals in per_pair.items():
            draw = [vals[rng.randrange(len(vals))] for _ in vals]
            sample[key] = (sum(draw), len(draw))
        boots.append(fit_ratings(names, sample, anchor, iters=400))
    intervals = []
    for k in range(len(names)):
        col = sorted(b[k] for b in boots)
        lo = col[max(0, math.floor(0.025 * len(col)))] if col else ratings[k]
        hi = col[min(len(col) - 1, math.ceil(0.975 * len(col)) - 1)] if col else ratings[k]
        intervals.append((lo, hi))
    return LadderResult(names, ratings, intervals, matches)
