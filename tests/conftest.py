import random

import pytest

from belote_env import GameState, Rules


def play_random_deal(state: GameState, rng: random.Random) -> None:
    """Play random legal actions until the current deal is over."""
    while not state.is_deal_over:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])


@pytest.fixture
def rules() -> Rules:
    return Rules()


def random_aec_episode(env, rng: random.Random) -> dict:
    """Play one AEC episode (already reset) with random legal actions; returns each
    agent's summed reward."""
    import numpy as np

    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
    return totals


def assert_plays_legal(policy, seeds, rules: Rules | None = None) -> None:
    """Every action ``policy`` chooses in the seeded single deals is legal."""
    rules = rules or Rules(target=None)
    for seed in seeds:
        st = GameState(rules, seed=seed)
        while not st.is_deal_over:
            info = st.information_set(st.current)
            a = policy.act(info)
            assert a in info.legal_actions
            st.apply(a)
