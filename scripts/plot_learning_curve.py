"""Plot a run's win rate against the tiers over training steps, from its TensorBoard scalars.

    python scripts/plot_learning_curve.py runs/<run> docs/learning_curve.png

Reads every event file of the run folder (resumed runs write several) with TensorBoard's
``EventAccumulator`` and draws ``charts/winrate_vs_normal`` and ``charts/winrate_vs_easy``
(the periodic duplicate matches) against timesteps; prints the points it plotted.
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


if __name__ == "__main__":
    main()
