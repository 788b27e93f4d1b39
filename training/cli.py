"""The ``belote`` command line: ``belote train``, ``belote eval``.

    belote train --config configs/train/quick.yaml
    belote eval runs/<run>/checkpoints/final easy --deals 1000
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

__all__ = ["main"]


def _cmd_train(args: argparse.Namespace) -> int:
    from .config import load_config
    from .train import train

    overrides = {}
    if args.total_timesteps is not None:
        overrides["total_timesteps"] = args.total_timesteps
    if args.seed is not None:
        overrides["seed"] = args.seed
    if args.log_dir is not None:
        overrides["log_dir"] = args.log_dir
    if args.eval_pairs is not None:
        overrides["eval_pairs"] = args.eval_pairs
    cfg = load_config(args.config, overrides)
    run_dir = train(cfg, progress=not args.no_progress)
    print(f"run folder: {run_dir}")
    print(f"final model: {run_dir / 'checkpoints' / 'final'}")
    ev = json.loads((run_dir / "eval.json").read_text())
    print(f"trained {ev['timesteps']} steps in {ev['wall_seconds']} s")
    for tier in ("random", "easy"):
        r = ev.get(f"vs_{tier}")
        if r:
            print(f"  vs {tier}: deals won {100 * r['win_rate']:.1f}% "
                  f"(95% CI {100 * r['win_rate_ci'][0]:.1f}-{100 * r['win_rate_ci'][1]:.1f}%), "
                  f"mean point diff {r['mean_diff']:+.1f} per deal over {r['deals']} deals")
    return 0


def _cmd_eval(args: argparse.Namespace) -> int:
    from belote_env import Rules
    from policies import make_policy

    from .evaluate import duplicate_match

    if args.pairs is None:
        if args.deals < 2:
            raise ValueError(f"--deals must be at least 2 (one mirrored pair), got {args.deals}")
        pairs = (args.deals + 1) // 2
    else:
        pairs = args.pairs
    a = make_policy(args.a, seed=args.seed)
    b = make_policy(args.b, seed=args.seed + 1)
    result = duplicate_match(a, b, pairs, seed=args.seed, rules=Rules(), progress=not args.no_progress)
    print(result.summary())
    if args.json:
        Path(args.json).write_text(json.dumps(result.to_dict(), indent=2))
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="belote", description="belote-rl: train and evaluate Belote agents")
    sub = p.add_subparsers(dest="command", required=True)
    t = sub.add_parser("train", help="self-play MaskablePPO training from a YAML config")
    t.add_argument("--config", required=True, help="YAML config, e.g. configs/train/quick.yaml")
    t.add_argument("--total-timesteps", type=int, help="override total_timesteps")
    t.add_argument("--seed", type=int, help="override seed")
    t.add_argument("--log-dir", help="override log_dir (default runs/)")
    t.add_argument("--eval-pairs", type=int, help="override eval_pairs")
    t.add_argument("--no-progress", action="store_true", help="no progress bar")
    t.set_defaults(func=_cmd_train)
    e = sub.add_parser("eval", help="duplicate match between two policies (tier names or model folders)")
    e.add_argument("a", help="policy A: random, easy, or a model folder")
    e.add_argument("b", help="policy B: random, easy, or a model folder")
    e.add_argument("--deals", type=int, default=1000, help="deals to play (mirrored pairs = deals / 2)")
    e.add_argument("--pairs", type=int, help="deal pairs to play (overrides --deals)")
    e.add_argument("--seed", type=int, default=0, help="seed of the deals")
    e.add_argument("--json", help="also write the result as JSON to this file")
    e.add_argument("--no-progress", action="store_true", help="no progress bar")
    e.set_defaults(func=_cmd_eval)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except (ValueError, FileNotFoundError) as e:  # config, rule option, checkpoint, policy errors
        print(f"belote {args.command}: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
