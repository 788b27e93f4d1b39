"""Plot a run's win rate against the tiers over training steps, from its TensorBoard scalars.

    python scripts/plot_learning_curve.py runs/<run> docs/learning_curve.png

Reads every event file of the run folder (resumed runs write several) with TensorBoard's
``EventAccumulator`` and draws ``charts/winrate_vs_normal`` and ``charts/winrate_vs_easy``
(the periodic duplicate matches) against timesteps; prints the points it plotted.

A ``belote iterate`` run folder (``checkpoints/iter_*/iterate.json``) is drawn from its
checkpoints instead: each match's points per deal against the opponent, with its 95%
interval, against the self-play deals played.
"""

from __future__ import annotations

import argparse
from pathlib import Path


def read_scalars(run_dir: Path, tags: list[str]) -> dict[str, list[tuple[int, float]]]:
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    out: dict[str, dict[int, float]] = {t: {} for t in tags}
    for f in sorted(run_dir.glob("events.out.tfevents.*")):
        acc = EventAccumulator(str(f), size_guidance={"scalars": 0})
        acc.Reload()
        for t in tags:
            if t in acc.Tags().get("scalars", []):
                for ev in acc.Scalars(t):
                    out[t][ev.step] = ev.value
    return {t: sorted(v.items()) for t, v in out.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run_dir", type=Path)
    ap.add_argument("out", type=Path)
    args = ap.parse_args()
    if list(args.run_dir.glob("checkpoints/iter_*/iterate.json")):
        return plot_iterate(args.run_dir, args.out)
    tags = ["charts/winrate_vs_normal", "charts/winrate_vs_easy"]
    data = read_scalars(args.run_dir, tags)
    if not any(data.values()):
        raise SystemExit(f"{args.run_dir}: no {tags} scalars (was eval_every set?)")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    for t, pts in data.items():
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=t.split("/")[-1])
            print(t, " ".join(f"{s}:{v:.3f}" for s, v in pts))
    ax.axhline(0.5, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("training timesteps (decisions)")
    ax.set_ylabel("deals won in duplicate matches")
    ax.set_ylim(0, 1)
    ax.set_title(args.run_dir.name)
    ax.legend()
    fig.tight_layout()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.out, dpi=120)
    print(f"saved {args.out}")


def plot_iterate(run_dir: Path, out: Path) -> None:
    import json

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    pts = []
    for f in sorted(run_dir.glob("checkpoints/iter_*/iterate.json")):
        info = json.loads(f.read_text())
        m = info.get("match")
        if m:
            pts.append((info["budget"]["deals"], m["mean_diff"], *m["mean_diff_ci"], info["iteration"], m))
    if not pts:
        raise SystemExit(f"{run_dir}: no checkpoint has a match (was eval_every set?)")
    m = pts[0][5]
    fig, ax = plt.subplots(figsize=(7, 4))
    x = [p[0] for p in pts]
    ax.errorbar(x, [p[1] for p in pts], yerr=[[p[1] - p[2] for p in pts], [p[3] - p[1] for p in pts]], marker="o",
                capsize=3, label=f"vs {Path(m['opponent']).name} ({m['pairs']} deal pairs, seed {m['seed']})")
    for p in pts:
        print(f"iteration {p[4]}: {p[0]} deals, {p[1]:+.1f} per deal ({p[2]:+.1f} to {p[3]:+.1f})")
    ax.axhline(0.0, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("self-play deals")
    ax.set_ylabel("points per deal (95% interval)")
    ax.set_title(run_dir.name)
    ax.legend()
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=120)
    print(f"saved {out}")


if __name__ == "__main__":
    main()
