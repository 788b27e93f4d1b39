"""The ``belote`` command line.

    belote train --config configs/train/quick.yaml
    belote eval runs/<run>/checkpoints/final easy --deals 1000
    belote eval normal easy --games 200 --workers 2 --json result.json
    belote eval expert normal --games 100 --workers 2 --chunk 1 --pairs-log expert.jsonl  # resumable
    belote eval hard normal --pairs 2000 --batched  # deal pairs on the batched engine
    belote ladder random easy normal --pairs 200 --plot ladder.png
    belote play --partner normal --opponents normal --save game.json
    belote eval normal easy --rules seed001_2p --games 500 --workers 2  # two players: seats swapped
    belote eval normal easy --rules seed001_3p --pairs 500   # three players: sets of 6 seatings
    belote play --rules seed001_3p --opponents normal        # two or three players: --opponents only
    belote replay game.json [--json]
    belote train --resume runs/<run>
    belote export runs/<run>/checkpoints/final models/mine
    belote train-rllib --config configs/rllib/quick.yaml [--address auto]
    belote serve                                              # the table in the browser: http://127.0.0.1:8000/
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

# torch's OpenMP threads spin-wait between parallel regions by default: beside another
# CPU-bound job a 2-thread PPO update then ran 2.4x slower (scripts/bench_train.py; 1.36x
# with passive waiting, 44.5k -> 38.6k decisions/s idle). Set before torch is imported;
# an OMP_WAIT_POLICY already in the environment is kept.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

from belote_env.atomic import atomic_write_bytes
from belote_env.games import game_of
from belote_env.table import SEATS

__all__ = ["main"]


def _os_reason(e: OSError) -> str:
    """What an ``OSError`` says, without its ``[Errno N]`` and with the other path it names."""
    other = f" ({e.filename2})" if getattr(e, "filename2", None) else ""
    return f"{e.strerror or type(e).__name__}{other}"


def _output_file(option: str, path: str | Path | None, probe: bool = True) -> Path | None:
    """Check an output file before the work: a non-empty path, not a folder, in a folder
    that exists, and (``probe``) that it can be written: a file that does not exist yet is
    created and removed again, one that exists is opened for appending (nothing is
    changed). Raises ``ValueError`` naming the option, the path and what is wrong."""
    if path is None:
        return None
    if not str(path).strip():
        raise ValueError(f"{option}: the path is empty; give the path of a file to write")
    p = Path(path)
    if p.is_dir():
        raise ValueError(f"{option} {path}: is a folder; give the path of a file to write")
    if not p.parent.is_dir():
        raise ValueError(f"{option} {path}: the folder {p.parent} does not exist; create it or give another path")
    if probe:
        try:
            if p.exists():
                with open(p, "ab"):
                    pass
            else:
                with open(p, "xb"):
                    pass
                p.unlink()
        except OSError as e:
            raise ValueError(f"{option} {path}: cannot be written ({_os_reason(e)}); give another path") from None
    return p


def _output_folder(option: str, path: str) -> Path:
    """Check an output folder before the work: a non-empty path, a folder or one that can
    be created (no file in the way). Raises ``ValueError`` naming the option and the path."""
    if not str(path).strip():
        raise ValueError(f"{option}: the path is empty; give a folder (created if missing)")
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise ValueError(f"{option} {path}: is an existing file; give a folder (created if missing)")
    above = p.parent
    while not above.exists():
        above = above.parent
    if not above.is_dir():
        raise ValueError(f"{option} {path}: cannot be created, {above} is a file")
    return p


def _port(text: str) -> int:
    """``--port``'s argparse type: a TCP port, an int in 1..65535 (argparse names the option
    and the value otherwise)."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number: give an int in 1..65535") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port number: give an int in 1..65535")
    return port


def _seed_type(bits: int):
    """``--seed``'s argparse type: an int in 0..2**bits-1 (``random.Random`` would read -1 as
    1; the trainers seed numpy, whose seeds stop at 2**32-1)."""
    def seed_of(text: str) -> int:
        try:
            seed = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a seed: give an int in 0..2**{bits}-1") from None
        if not 0 <= seed < 2 ** bits:
            raise argparse.ArgumentTypeError(f"{seed} is not a seed: give an int in 0..2**{bits}-1")
        return seed

    return seed_of


_seed, _train_seed = _seed_type(63), _seed_type(32)


def _factories_from_cwd(specs) -> None:
    """Let a policy factory's module (``module:attr`` among ``specs``) sit in the current
    folder: it is appended to ``sys.path`` (after ``PYTHONPATH``), as ``python -m`` would."""
    from policies.registry import is_factory_spec

    if any(is_factory_spec(p.removesuffix("+search")) for p in specs) and not {"", str(Path.cwd())} & set(sys.path):
        sys.path.append(str(Path.cwd()))


def _cmd_train(args: argparse.Namespace) -> int:
    from belote_env.jsonfile import read_json

    from .config import load_config
    from .train import train

    if args.resume:
        if args.config:
            raise ValueError("give either --config or --resume, not both")
        given = [flag for flag, v in (("--total-timesteps", args.total_timesteps), ("--seed", args.seed),
                                      ("--log-dir", args.log_dir), ("--eval-pairs", args.eval_pairs),
                                      ("--rollout-actors", args.rollout_actors), ("--ray-address", args.ray_address))
                 if v is not None]
        if given:
            raise ValueError(f"{', '.join(given)} cannot be given with --resume: a resumed run keeps its settings; "
                             f"edit {Path(args.resume) / 'config.yaml'} to change total_timesteps or eval_pairs")
        from .train import RunCompleteError

        try:
            run_dir = train(progress=not args.no_progress, resume=args.resume)
        except RunCompleteError as e:  # nothing to do: not an error (a loop of resumes ends here)
            print(f"belote train: {e}")
            return 0
    else:
        if not args.config:
            raise ValueError("--config is required (or --resume RUN_FOLDER)")
        overrides = {k: v for k, v in (("total_timesteps", args.total_timesteps), ("seed", args.seed),
                                       ("log_dir", args.log_dir), ("eval_pairs", args.eval_pairs),
                                       ("rollout_actors", args.rollout_actors), ("ray_address", args.ray_address))
                     if v is not None}
        run_dir = train(load_config(args.config, overrides), progress=not args.no_progress)
    print(f"run folder: {run_dir}")
    print(f"final model: {run_dir / 'checkpoints' / 'final'}")
    ev = read_json(run_dir / "eval.json", 1 << 20)  # DataFileError (a ValueError) names the file
    print(f"trained {ev['timesteps_this_invocation']} steps in {ev['wall_seconds']} s (this invocation); "
          f"the run has {ev['timesteps']} steps")
    for key in (k for k in ev if k.startswith("vs_")):  # in the order played: random, easy, normal
        r = ev[key]
        print(f"  vs {key[3:]}: deals won {100 * r['win_rate']:.1f}% "
              f"(95% CI {100 * r['win_rate_ci'][0]:.1f}-{100 * r['win_rate_ci'][1]:.1f}%), "
              f"mean point diff {r['mean_diff']:+.1f} per deal over {r['deals']} deals")
    return 0


def _cmd_train_rllib(args: argparse.Namespace) -> int:
    from belote_env.jsonfile import read_json

    from .rllib.config import load_rllib_config

    overrides = {k: v for k, v in (("total_timesteps", args.total_timesteps), ("seed", args.seed),
                                   ("log_dir", args.log_dir), ("eval_pairs", args.eval_pairs)) if v is not None}
    cfg = load_rllib_config(args.config, overrides)
    try:
        from .rllib.train import train_rllib  # imports ray
    except ImportError as e:
        raise ValueError(f"train-rllib needs Ray RLlib: pip install -e \".[rllib]\" in a clone of the project, "
                         f"or pip install 'belote-rl[rllib]' ({e})") from None
    run_dir = train_rllib(cfg, address=args.address, progress=not args.no_progress)
    ev = read_json(run_dir / "eval.json", 1 << 20)  # DataFileError (a ValueError) names the file
    print(f"run folder: {run_dir}\nexported model: {run_dir / 'model'}")
    print(f"trained {ev['env_steps']} env steps in {ev['wall_seconds']} s")
    for key in (k for k in ev if k.startswith("vs_")):  # in the order played: random, easy, normal
        r = ev[key]
        print(f"  vs {key[3:]}: deals won {100 * r['win_rate']:.1f}% "
              f"(95% CI {100 * r['win_rate_ci'][0]:.1f}-{100 * r['win_rate_ci'][1]:.1f}%), "
              f"mean point diff {r['mean_diff']:+.1f} per deal over {r['deals']} deals")
    return 0


def _cmd_export(args: argparse.Namespace) -> int:
    from .export import export_model
    from .rllib.export import export_rllib_checkpoint, is_rllib_checkpoint  # no ray needed

    _output_folder("output folder", args.out)
    rllib = is_rllib_checkpoint(args.checkpoint)
    try:
        out = (export_rllib_checkpoint if rllib else export_model)(args.checkpoint, args.out)
    except OSError as e:  # the checkpoint is read through CheckpointError: this is the output folder
        other = f": {e.filename}" if e.filename is not None and str(e.filename) != str(args.out) else ""
        raise ValueError(f"output folder {args.out}: cannot be created or written ({_os_reason(e)}{other})") from None
    from belote_env.jsonfile import read_json
    from policies.model_files import MAX_META_BYTES, declared_parts

    parts = declared_parts(read_json(Path(out) / "meta.json", MAX_META_BYTES))  # the parts the export wrote
    print(f"exported {args.checkpoint} -> {out} (model.safetensors + meta.json"
          + "".join(f", {sub}/: its own two" for sub in parts) + ")")
    return 0


def _cmd_eval(args: argparse.Namespace) -> int:
    from belote_env import load_rules

    from policies.base import PolicyError

    from .evaluate import MAX_PAIRS, SET_SEATINGS, PolicyFailure, duplicate_match, use_one_torch_thread

    given = [flag for flag, v in (("--games", args.games), ("--pairs", args.pairs), ("--deals", args.deals))
             if v is not None]
    if len(given) > 1:
        raise ValueError(f"{' and '.join(given)} cannot be given together: give one of --games N (N mirrored game "
                         "pairs), --pairs N (N mirrored deal pairs) or --deals N (N single deals; 1000 by default)")
    deals = 1000 if args.deals is None else args.deals
    option, value, least, most = (("--games", args.games, 1, MAX_PAIRS) if args.games is not None else
                                  ("--pairs", args.pairs, 1, MAX_PAIRS) if args.pairs is not None else
                                  ("--deals", deals, 2, 2 * MAX_PAIRS))
    if not least <= value <= most:  # before anything is built: a match plays at most MAX_PAIRS mirrored pairs
        raise ValueError(f"{option} must be in {least}..{most:,} ({'at least one' if value < least else 'at most'} "
                         f"{'mirrored pair' if value < least else f'{MAX_PAIRS:,} mirrored pairs'}), got {value}")
    _factories_from_cwd((args.a, args.b))
    rules = load_rules(args.rules)
    json_path = _output_file("--json", args.json)
    _output_file("--pairs-log", args.pairs_log)
    _output_file("--failure-record", args.failure_record, probe=False)  # written only if a policy fails
    if args.games_dir is not None:
        _output_folder("--games-dir", args.games_dir)
    # the seatings of a duplicate set (a mirrored pair at four seats)
    copies = len(SET_SEATINGS[rules.players])
    if args.games is not None:
        mode, pairs = "game", args.games
    elif args.pairs is not None:
        mode, pairs = "deal", args.pairs
    else:
        mode, pairs = "deal", (deals + copies - 1) // copies
    use_one_torch_thread()
    try:
        result = duplicate_match(args.a, args.b, pairs, seed=args.seed, rules=rules, mode=mode,
                                 workers=args.workers, progress=not args.no_progress, chunk=args.chunk,
                                 pairs_log=args.pairs_log, batched=args.batched, games_dir=args.games_dir)
    except PolicyFailure as e:
        from belote_env.records import write_record

        path = write_record(args.failure_record, e.record)
        raise ValueError(f"{e} -- the position is saved as a replayable record: {path} "
                         f"(belote replay {path})") from None
    except PolicyError as e:  # e.g. MAX_VOID_DEALS deals in a row passed out
        raise ValueError(str(e)) from None
    print(result.summary())
    if json_path is not None:
        atomic_write_bytes(json_path, json.dumps(result.to_dict(), indent=2).encode())
        print(f"result saved to {json_path}")
    return 0


def _cmd_ladder(args: argparse.Namespace) -> int:
    from belote_env import load_rules

    from policies.base import PolicyError
    from policies.registry import check_policy_rules

    from .evaluate import MAX_PAIRS, use_one_torch_thread
    from .ladder import plot_path, run_ladder

    if not 1 <= args.pairs <= MAX_PAIRS:
        raise ValueError(f"--pairs must be in 1..{MAX_PAIRS:,} (mirrored pairs per match), got {args.pairs}")
    _factories_from_cwd(args.policies)
    rules = load_rules(args.rules)
    for spec in args.policies:  # before the first match: a tier these rules refuse
        check_policy_rules(spec, rules)
    plot = None if args.plot is None else _output_file("--plot", plot_path(args.plot))
    json_path = _output_file("--json", args.json)
    use_one_torch_thread()
    try:
        res = run_ladder(args.policies, args.pairs, seed=args.seed, rules=rules, mode=args.mode,
                         workers=args.workers, progress=not args.no_progress)
    except PolicyError as e:  # a policy that raised or played an illegal action (PolicyFailure) mid-match
        raise ValueError(str(e)) from None
    print(res.table())
    if plot is not None:
        try:
            print(f"plot saved to {res.plot(plot)}")
        except OSError as e:  # checked before the matches, but gone or full since
            raise ValueError(f"--plot {plot}: cannot be written ({_os_reason(e)})") from None
    if json_path is not None:
        atomic_write_bytes(json_path, json.dumps({"ratings": dict(zip(res.names, res.ratings)),
                                                  "intervals": dict(zip(res.names, res.intervals)),
                                                  "matches": [m.to_dict() for m in res.matches]}, indent=2).encode())
        print(f"ratings saved to {json_path}")
    return 0


def _cmd_play(args: argparse.Namespace) -> int:
    try:  # a Ctrl-C while the bots load (seconds): a one-line message, exit 130, no traceback
        from belote_env import load_rules
        from belote_env.table import partner_of
        from policies import make_policy

        from .play import HumanPolicy, play_game_interactive

        rules = load_rules(args.rules)
        n = rules.players
        if not game_of(rules).has_partners and args.partner is not None:  # as the Gymnasium env (gym_env.BeloteGymEnv) refuses it
            raise ValueError(f"--partner {args.partner}: the {n}-player game has no partner (no fixed teams, "
                             "TWO_THREE.md): every other seat plays --opponents; leave --partner out")
        partner = "normal" if args.partner is None else args.partner
        _factories_from_cwd((partner, args.opponents))
        save = _output_file("--save", args.save)  # before the game: a bad path would lose it
        seat = args.seat
        if not 0 <= seat < n:
            raise ValueError(f"--seat {seat}: the {n}-player game has seats 0..{n - 1}")
        drawn = args.seed is None
        if drawn:  # a new game each time, as a card table deals; its seed is printed once the game is over
            import secrets

            # 63 random bits: the seed decides every hand, so a person must not find it by trying seeds against
            # the cards they see (RULES.md §11), nor see it before the game is over
            args.seed = secrets.randbelow(1 << 63)
        pols = []
        for s in range(n):
            if s == seat:
                pols.append(HumanPolicy())
            elif not game_of(rules).has_partners:  # two and three seats (TWO_THREE.md): every other seat plays --opponents
                pols.append(make_policy(args.opponents, seed=args.seed + s, rules=rules))
            else:
                spec = partner if s == partner_of(seat) else args.opponents
                pols.append(make_policy(spec, seed=args.seed + s, rules=rules))
    except KeyboardInterrupt:
        print("belote play: interrupted (Ctrl-C) before the game started; nothing to save", file=sys.stderr)
        return 130
    print("type help for how to enter a card or a bid, quit to save the game and stop")
    # quit, Ctrl-C and the end of input save the game so far (to --save or a named default file); a bot that
    # fails saves it too and raises BotFailure (a ValueError: exit 2 with its message, which names the file)
    try:
        state = play_game_interactive(pols, rules, args.seed, seat, save_path=save)
    finally:  # the game is over or stopped (saved): its seed deals it again
        if drawn:
            print(f"seed {args.seed} (belote play --seed {args.seed} deals this game again)")
    if state.is_game_over or pols[seat].quit_requested:
        return 0
    return 130  # interrupted (Ctrl-C) or input closed: saved, but not finished


def _cmd_iterate(args: argparse.Namespace) -> int:
    from .iterate import iterate, load_iterate_config

    if bool(args.config) == bool(args.resume):
        raise ValueError("give --config CONFIG (a new run) or --resume RUN_FOLDER, one of them")
    if args.resume:
        run = iterate(progress=not args.no_progress, resume=args.resume)
    else:
        run = iterate(load_iterate_config(args.config), progress=not args.no_progress)
    print(f"run folder: {run}")
    return 0


def _cmd_blend(args: argparse.Namespace) -> int:
    from .blend import blend_bid_model

    out = blend_bid_model(args.cards, args.bids[0], args.bids[1], args.weight, args.out)
    print(f"model folder: {out} (cards of {args.cards}; bids {args.weight:g} x {args.bids[0]} + "
          f"{1 - args.weight:g} x {args.bids[1]})")
    return 0


def _cmd_distil(args: argparse.Namespace) -> int:
    from .blend import distil_bid_model

    _output_folder("--out", args.out)
    if args.threads is not None:
        import torch

        if args.threads < 1:
            raise ValueError(f"--threads must be >= 1, got {args.threads}")
        torch.set_num_threads(args.threads)
    out = distil_bid_model(args.model, args.out, width=args.width, init=args.init, tables=args.tables,
                           steps=args.steps, epsilon=args.epsilon, epochs=args.epochs, lr=args.lr, seed=args.seed,
                           progress=not args.no_progress)
    print(f"model folder: {out} (cards of {args.model}; bids fitted to its bid values)")
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    from belote_env.actions import action_to_string
    from belote_env.records import RecordError, read_record, replay, replay_steps, replay_text

    record = read_record(args.file)  # a RecordError (a ValueError) names the file: exit 2, no traceback
    try:
        if not args.json:
            for line in replay_text(record, legal=args.legal):
                print(line)
            return 0
        steps = []
        for deal_i, j, state, action, legal in replay_steps(record):
            steps.append({"deal": deal_i, "index": j, "seat": state.current, "action": action,
                          "action_name": action_to_string(action), "legal": list(legal)})
        state = replay(record)
    except RecordError as e:
        raise RecordError(f"{args.file}: {e}") from None
    result = {"scores": list(state.scores), "winner": state.winner, "game_over": state.is_game_over,
              "deals": [{"outcome": d.outcome, "points": list(d.points)} for d in state.deal_scores]}
    print(json.dumps({"steps": steps, "result": result}, ensure_ascii=False, indent=1))
    return 0


def _cmd_serve(args: argparse.Namespace) -> int:
    try:
        from .serve import serve
    except ImportError as e:
        raise ValueError(f"belote serve needs starlette and uvicorn: pip install -e \".[serve]\" ({e})") from None
    _output_folder("--rooms", args.rooms)
    import socket

    try:  # before anything is said about listening: a name that does not resolve is named back
        socket.getaddrinfo(args.host, args.port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as e:
        raise ValueError(f"--host {args.host!r}: not an address or a name this machine resolves ({e}); give an "
                         "IP address such as 127.0.0.1 or 0.0.0.0, or a host name") from None
    bots = {}
    for item in args.bot or []:
        name, sep, spec = item.partition("=")
        if not sep or not name or not spec:
            raise ValueError(f"--bot {item!r}: give NAME=SPEC (a model folder or a policy factory module:attr)")
        bots[name] = spec
    _factories_from_cwd(bots.values())
    serve(args.host, args.port, args.rooms, bots, args.bot_delay, allowed_hosts=args.allow_host)
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="belote", description="belote-rl: train and evaluate Belote agents")
    sub = p.add_subparsers(dest="command", required=True)
    t = sub.add_parser("train", help="self-play MaskablePPO training from a YAML config")
    t.add_argument("--config", help="YAML config, e.g. configs/train/quick.yaml")
    t.add_argument("--resume", help="continue this run folder from its newest usable checkpoint (a damaged newer "
                                    "one is skipped with a warning)")
    t.add_argument("--total-timesteps", type=int, help="override total_timesteps")
    t.add_argument("--seed", type=_train_seed, help="override seed")
    t.add_argument("--log-dir", help="override log_dir (default runs/)")
    t.add_argument("--eval-pairs", type=int, help="override eval_pairs")
    t.add_argument("--rollout-actors", type=int, help="override rollout_actors: play the tables in this many Ray "
                                                      "actors (training.ray_rollouts; pip install -e \".[rllib]\")")
    t.add_argument("--ray-address", help="override ray_address: the Ray cluster of the actors ('auto', "
                                         "'ray://host:10001'; default a local Ray)")
    t.add_argument("--no-progress", action="store_true", help="no progress bar")
    t.set_defaults(func=_cmd_train)
    it = sub.add_parser("iterate", help="policy iteration of the value networks by their own rollouts (configs/train/iterate_*.yaml)",
                        description="Policy iteration of a model folder's value networks (cards/, bids/) by their own "
                                    "rollouts on the batched engine (training.iterate; docs/training.md).")
    it.add_argument("--config", help="YAML config, e.g. configs/train/iterate_classic.yaml")
    it.add_argument("--resume", help="continue this run folder after its newest complete iteration")
    it.add_argument("--no-progress", action="store_true", help="a line per iteration instead of a bar")
    it.set_defaults(func=_cmd_iterate)
    bl = sub.add_parser("blend", help="a model folder whose bid values are the weighted mean of two models' "
                                      "(training.blend)",
                        description="Write a model folder with the card network of --cards and one bid network whose "
                                    "values are WEIGHT x A's + (1 - WEIGHT) x B's (training.blend). Its hidden layers "
                                    "are as wide as A's and B's together.")
    bl.add_argument("--cards", required=True, help="the model folder whose cards/ (and top-level files) it keeps")
    bl.add_argument("--bids", nargs=2, required=True, metavar=("A", "B"), help="the two model folders whose bids/ it blends")
    bl.add_argument("--weight", type=float, required=True, help="the weight of A's bid values, in [0, 1]")
    bl.add_argument("--out", required=True, help="the new model folder")
    bl.set_defaults(func=_cmd_blend)
    di = sub.add_parser("distil", help="a model folder whose coinche bid network is a narrower one fitted to the "
                                       "model's bid values (training.blend)",
                        description="Write a model folder with the card network of --model and a coinche bid network "
                                    "of two hidden layers of --width fitted to --model's suit-averaged bid values on "
                                    "its own self-play auctions (training.blend.distil_bid_model): a blend's bids at "
                                    "one member's cost.")
    di.add_argument("--model", required=True, help="the coinche model folder (the teacher)")
    di.add_argument("--out", required=True, help="the new model folder")
    di.add_argument("--width", type=int, default=256, help="hidden units per layer (default 256)")
    di.add_argument("--init", help="start from this model folder's bid network (of --width)")
    di.add_argument("--tables", type=int, default=1024, help="self-play tables (default 1024)")
    di.add_argument("--steps", type=int, default=1000, help="self-play steps of all the tables (default 1000)")
    di.add_argument("--epsilon", type=float, default=0.1, help="share of random bids in the self-play (default 0.1)")
    di.add_argument("--epochs", type=int, default=6, help="epochs of the fit (default 6)")
    di.add_argument("--lr", type=float, default=3e-4, help="Adam's learning rate (default 3e-4)")
    di.add_argument("--seed", type=_train_seed, default=11, help="seed of the self-play, the random bids and the fit")
    di.add_argument("--threads", type=int, help="torch threads (default torch's)")
    di.add_argument("--no-progress", action="store_true", help="no line per epoch")
    di.set_defaults(func=_cmd_distil)
    e = sub.add_parser("eval", help="duplicate match between two policies (tier names, model folders or "
                                    "policy factories)")
    e.add_argument("a", help="policy A: random, easy, normal, hard, expert, hard_oracle (the hard before policy iteration), "
                             "expert@<N>ms (the expert within N ms a move: its play then depends on the machine's "
                             "speed, not the seed alone), <policy>+search, a team "
                             "<lead>,<partner> (e.g. hard,normal: hard with normal as its partner), a model folder, or "
                             "a policy factory module.path:function (imported from PYTHONPATH or the current "
                             "folder, called with no arguments in every process)")
    e.add_argument("b", help="policy B: the same forms as A")
    e.add_argument("--deals", type=int, help="single deals to play (default 1000; mirrored pairs = deals / 2; "
                                             "three players: sets of 6 seatings = deals / 6)")
    e.add_argument("--pairs", type=int, help="mirrored deal pairs to play (instead of --deals); two and three "
                                             "players: duplicate sets (2 seatings at two seats, 6 at three)")
    e.add_argument("--games", type=int, help="mirrored game pairs to play, games to the rules' target (two and "
                                             "three players: duplicate sets of whole games); one of --deals, "
                                             "--pairs and --games")
    e.add_argument("--rules", default=None, help="rules preset name or YAML file (default seed004)")
    e.add_argument("--workers", type=int, default=1, help="processes (default 1; each uses one torch thread)")
    e.add_argument("--seed", type=_seed, default=0, help="seed of the deals and policies")
    e.add_argument("--json", help="also write the result as JSON to this file")
    e.add_argument("--chunk", type=int, default=25, help="pairs per task sent to a worker (default 25)")
    e.add_argument("--pairs-log", help="JSON-lines file keeping each finished chunk: run the same command "
                                       "again to resume after a kill (the pairs in it are not replayed); one "
                                       "match writes it at a time (FILE.lock), and --games at most the pairs it "
                                       "holds prints their figures, also while a match fills it")
    e.add_argument("--batched", action="store_true",
                   help="deal mode on the batched engine: every pair's copies (two and three seats: every seating of "
                        "each set) as tables of one batch, each side's "
                        "seats deciding together (networks in one forward pass); one process, no --pairs-log; "
                        "the same result for deterministic policies (easy, normal, hard, model folders)")
    e.add_argument("--games-dir", help="save each game of the match as a record in this folder (pair<id>-<copy>.json; "
                                       "set<id>-<seating>.json at two and three seats) "
                                       "for the replay viewer (belote serve) and belote replay; unbatched only")
    e.add_argument("--failure-record", default="belote_failure_record.json",
                   help="where a failing position is saved as a record")
    e.add_argument("--no-progress", action="store_true", help="no progress bar")
    e.set_defaults(func=_cmd_eval)
    lad = sub.add_parser("ladder", help="round-robin duplicate matches and Elo-style ratings")
    lad.add_argument("policies", nargs="+", help="tier names, model folders or policy factories "
                                                 "module.path:function (random is anchored at 1000)")
    lad.add_argument("--pairs", type=int, default=200, help="mirrored pairs per match")
    lad.add_argument("--mode", choices=["deal", "game"], default="deal", help="single deals or games to target")
    lad.add_argument("--rules", default=None, help="rules preset name or YAML file")
    lad.add_argument("--workers", type=int, default=1, help="processes (default 1; each uses one torch thread)")
    lad.add_argument("--seed", type=_seed, default=0)
    lad.add_argument("--plot", help="save a bar chart of the ratings (.png, .svg or .pdf; .png is added to "
                                    "a name without suffix)")
    lad.add_argument("--json", help="write ratings and matches as JSON")
    lad.add_argument("--no-progress", action="store_true")
    lad.set_defaults(func=_cmd_ladder)
    pl = sub.add_parser("play", help="play a game in the terminal against the bots")
    pl.add_argument("--seat", type=int, choices=list(SEATS), default=0, help="your seat (0 South; two and three "
                                                                           "players: 0..n-1)")
    pl.add_argument("--partner", help="your partner's policy (four players only; default normal): a tier name, a "
                                      "model folder or a policy factory module.path:function (imported from "
                                      "PYTHONPATH or the current folder)")
    pl.add_argument("--opponents", default="normal", help="the opponents' policy: the same forms as --partner")
    pl.add_argument("--rules", default=None, help="rules preset name or YAML file")
    pl.add_argument("--seed", type=_seed, default=None,
                    help="seed of the deals and the bots (default: a new one each game, printed when the game is over or "
                         "stopped)")
    pl.add_argument("--save", help="save the game as a record (JSON) when it ends or stops (quit, Ctrl-C, end of "
                                   "input); without it a stopped game goes to ./belote_game_<seed>_<date-time>.json")
    pl.set_defaults(func=_cmd_play)
    x = sub.add_parser("export", help="export a checkpoint as model.safetensors + meta.json (torch-only loading)")
    x.add_argument("checkpoint", help="checkpoint folder (runs/<run>/checkpoints/..., or an RLlib checkpoint "
                                      "of belote train-rllib), or the .zip of an SB3 / sb3-contrib model "
                                      "(MaskablePPO or PPO, MlpPolicy) trained on gymnasium.make('Belote-v0')")
    x.add_argument("out", help="output folder")
    x.set_defaults(func=_cmd_export)
    tr = sub.add_parser("train-rllib", help="self-play PPO on Ray RLlib (pip install -e \".[rllib]\")")
    tr.add_argument("--config", required=True, help="YAML config, e.g. configs/rllib/quick.yaml")
    tr.add_argument("--address", help="an existing Ray cluster (ray start --head; 'auto' finds it); "
                                      "default: a local Ray with the config's num_cpus")
    tr.add_argument("--total-timesteps", type=int, help="override total_timesteps")
    tr.add_argument("--seed", type=_train_seed, help="override seed")
    tr.add_argument("--log-dir", help="override log_dir (default runs/)")
    tr.add_argument("--eval-pairs", type=int, help="override eval_pairs")
    tr.add_argument("--no-progress", action="store_true", help="no line per iteration")
    tr.set_defaults(func=_cmd_train_rllib)
    r = sub.add_parser("replay", help="re-run a game record: each deal's hands, auction, tricks and score")
    r.add_argument("file", help="record JSON file (belote_env.records format)")
    r.add_argument("--json", action="store_true", help="print JSON (every decision with its legal ids, the result)")
    r.add_argument("--legal", action="store_true", help="text: also a line per decision with its legal actions")
    r.set_defaults(func=_cmd_replay)
    sv = sub.add_parser("serve", help="the table in the browser: rooms of people and bots (pip install -e \".[serve]\")")
    sv.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    sv.add_argument("--port", type=_port, default=8000, help="port, 1..65535 (default 8000)")
    sv.add_argument("--rooms", default="belote_rooms", help="folder of the saved rooms (default ./belote_rooms)")
    sv.add_argument("--bot", action="append", metavar="NAME=SPEC",
                    help="a bot rooms may seat besides the tiers: a model folder or a policy factory (repeatable)")
    sv.add_argument("--bot-delay", type=float, default=0.8,
                    help="seconds between two moves of a room of bots only (default 0.8)")
    sv.add_argument("--allow-host", action="append", metavar="NAME",
                    help="a name people type to reach the server (its Host), besides its own (repeatable; default: "
                         "those of the environment variable BELOTE_SERVE_HOSTS, comma-separated)")
    sv.set_defaults(func=_cmd_serve)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except BrokenPipeError:  # the reader closed the pipe (`belote replay game.json --json | head`): a normal end
        try:  # stdout's buffer cannot be written any more: point it at devnull so the exit flush is quiet
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except OSError:
            pass
        return 0
    except (ValueError, OSError) as e:  # config, rule option, checkpoint, policy, output path errors
        print(f"belote {args.command}: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl-C: a short line, not a traceback; every file is written atomically
        hint = {"train": "; continue with belote train --resume RUN_FOLDER (its checkpoints are kept)",
                "iterate": "; continue with belote iterate --resume RUN_FOLDER (its iterations are kept)",
                "eval": "; with --pairs-log, the same command continues after the logged pairs"}.get(args.command, "")
        print(f"belote {args.command}: interrupted{hint}", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
