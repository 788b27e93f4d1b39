"""The ``belote`` command line: ``belote train``, ``belote eval``, ``belote replay``.

    belote train --config configs/train/quick.yaml
    belote eval runs/<run>/checkpoints/final easy --deals 1000
    belote replay game.json [--json]
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


def _cmd_replay(args: argparse.Namespace) -> int:
    from belote_env.actions import action_to_string
    from belote_env.game import SEAT_NAMES
    from belote_env.records import read_record, replay_steps

    record = read_record(args.file)
    steps = []
    state = None
    for deal_i, j, state, action, legal in replay_steps(record):
        steps.append({"deal": deal_i, "index": j, "seat": state.current, "action": action,
                      "action_name": action_to_string(action), "legal": list(legal)})
        if not args.json:
            if j == 0:
                print(f"deal {deal_i}: dealer {state.dealer} ({SEAT_NAMES[state.dealer]}), "
                      f"turned card {action_to_string(state.turned_card)}")
            names = " ".join(action_to_string(a) for a in legal)
            print(f"  {j:3d} seat {state.current} ({SEAT_NAMES[state.current]:5s}) -> "
                  f"{action_to_string(action):16s} legal: {names}")
    if state is None:
        raise ValueError(f"{args.file}: the record holds no action")
    result = {"scores": list(state.scores), "winner": state.winner, "game_over": state.is_game_over,
              "deals": [{"outcome": d.outcome, "points": list(d.points)} for d in state.deal_scores]}
    if args.json:
        print(json.dumps({"steps": steps, "result": result}, ensure_ascii=False, indent=1))
    else:
        for i, d in enumerate(state.deal_scores):
            print(f"deal result {i}: {d.outcome}, points team 0 (seats 0+2) {d.points[0]}, team 1 {d.points[1]}")
        print(f"final scores: team 0 {state.scores[0]}, team 1 {state.scores[1]}; "
              f"winner: {'none yet' if state.winner is None else f'team {state.winner}'}")
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
    r = sub.add_parser("replay", help="re-run a game record, printing each decision and the scores")
    r.add_argument("file", help="record JSON file (belote_env.records format)")
    r.add_argument("--json", action="store_true", help="print JSON instead of text")
    r.set_defaults(func=_cmd_replay)
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
