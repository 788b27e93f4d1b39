"""OpenSpiel's own learning code on the OpenSpiel game ``python_belote``: its PyTorch
policy-gradient agents (``open_spiel.python.pytorch.policy_gradient``, an advantage
actor-critic per seat, on the information-state tensors) trained for ``--episodes`` deals
through ``open_spiel.python.rl_environment`` (chance nodes sampled by the environment),
then a quick check against uniform random seats on fresh deals. A smoke run of the
pipeline, not a strong bot: it prints the mean return per seat of the last episodes and
of the check.

    python scripts/openspiel_train.py [--rules seed004] [--episodes 200] [--seed 1]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch

import belote_env.openspiel  # noqa: F401  (registers python_belote)


def main(argv: list[str] | None = None) -> int:
    from open_spiel.python import rl_environment
    from open_spiel.python.pytorch import policy_gradient

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rules", default="seed004", help="a rules preset (default seed004)")
    p.add_argument("--episodes", type=int, default=200, help="training deals (default 200)")
    p.add_argument("--eval", type=int, default=50, help="deals against random seats afterwards (default 50)")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    torch.manual_seed(args.seed)
    env = rl_environment.Environment(f"python_belote(rules={args.rules})")
    env.seed(args.seed)
    n = env.num_players
    size, actions = env.observation_spec()["info_state"][0], env.action_spec()["num_actions"]
    agents = [policy_gradient.PolicyGradient(player_id=s, info_state_size=size, num_actions=actions, loss_str="a2c",
                                             hidden_layers_sizes=[128, 128], batch_size=16, entropy_cost=0.001,
                                             critic_learning_rate=0.01, pi_learning_rate=0.001,
                                             num_critic_before_pi=4) for s in range(n)]
    t0, returns = time.perf_counter(), []
    for _ in range(args.episodes):
        step = env.reset()
        while not step.last():
            step = env.step([agents[step.observations["current_player"]].step(step).action])
        for agent in agents:
            agent.step(step)
        returns.append(step.rewards)
    last = np.mean(returns[-50:], axis=0)
    print(f"{args.episodes} training deals in {time.perf_counter() - t0:.1f} s; mean return per seat over the last "
          f"{min(50, len(returns))}: {np.round(last, 3).tolist()}")
    rng = np.random.default_rng(args.seed)
    check = []
    for k in range(args.eval):  # seat 0 (and its partner at four seats) learned; the others random
        step, learned = env.reset(), {0, 2} if n == 4 else {0}
        while not step.last():
            s = step.observations["current_player"]
            legal = step.observations["legal_actions"][s]
            a = agents[s].step(step, is_evaluation=True).action if s in learned else int(rng.choice(legal))
            step = env.step([a])
        check.append(step.rewards[0])
    print(f"against random seats, {args.eval} deals: mean return of seat 0 {np.mean(check):+.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
