"""A game episode whose deals are all passed out: the rules redeal without end (RULES.md
§3.4, TWO_THREE.md §2.3), so every interface ends a game episode at the
``driver.MAX_VOID_DEALS``-th deal passed out in a row, as a truncation (PettingZoo's
``truncations``, Gymnasium's ``truncated``, RLlib's ``truncateds``; OpenSpiel, which has no
truncation, with a terminal state whose returns stand as they are, within its
``max_game_length``). A played deal starts the count again (``GameState.void_streak``)."""

from __future__ import annotations

import numpy as np
import pytest

from belote_env import GameState, belote_v0, load_rules
from belote_env.actions import PASS
from belote_env.driver import MAX_VOID_DEALS, voids_exhausted

PRESETS = ["seed004", "coinche", "seed001_2p", "seed001_3p"]


def _pass_first(legal) -> int:
    """Pass where it may, else the lowest legal id (a card, once a contract is made)."""
    legal = list(legal)
    return PASS if PASS in legal else legal[0]


def test_void_streak_counts_the_deals_passed_out_in_a_row_and_a_played_deal_resets_it():
    st = GameState(load_rules("seed004"), seed=3)
    for k in range(3):
        assert st.void_streak == k
        while not st.is_deal_over:
            st.apply(PASS)
        assert st.void and not voids_exhausted(st)
        st.next_deal()
    assert st.void_streak == 3
    while not st.is_deal_over:  # the first seat takes: a played deal
        legal = st.legal_actions()
        st.apply(legal[-1] if st.contract is None and PASS in legal else legal[0])
    assert not st.void
    st.next_deal()
    assert st.void_streak == 0 and st.clone().void_streak == 0


@pytest.mark.parametrize("preset", PRESETS)
def test_the_aec_env_truncates_a_game_episode_at_the_hundredth_deal_passed_out(preset):
    env = belote_v0.env(rules=preset, episode="game")
    env.reset(seed=1)
    steps = 0
    for agent in env.agent_iter(max_iter=200_000):
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else _pass_first(np.flatnonzero(obs["action_mask"])))
        steps += 1
    raw = env.unwrapped
    assert raw.game.void and raw.game.void_streak == MAX_VOID_DEALS - 1 and raw.game.deal_number == 0
    assert steps < 200_000 and not env.agents  # every agent done, by truncation
    env.reset(seed=1)  # a new episode starts the count again
    assert raw.game.void_streak == 0


def test_the_deal_episode_still_ends_at_its_first_void_deal():
    env = belote_v0.env(rules="seed004")
    env.reset(seed=1)
    ends = []
    for agent in env.agent_iter(max_iter=100):
        obs, _, term, trunc, info = env.last()
        if term or trunc:
            ends.append((term, trunc, info["outcome"]))
        env.step(None if term or trunc else PASS)
    assert ends == [(True, False, "void")] * 4  # eight passes, then the four dead steps
    assert env.unwrapped.game.void_streak == 0


@pytest.mark.parametrize("preset", PRESETS)
def test_the_gymnasium_env_reports_truncated_not_terminated(preset):
    import gymnasium

    env = gymnasium.make("Belote-v0", rules=preset, episode="game",
                         opponents=lambda info: _pass_first(info.legal_actions))
    env.reset(seed=2)
    for steps in range(1, 10_000):
        mask = env.unwrapped.action_masks()
        _, reward, terminated, truncated, _ = env.step(_pass_first(np.flatnonzero(mask)))
        if terminated or truncated:
            break
    assert truncated and not terminated and reward == 0.0
    assert not env.unwrapped.action_masks().any()
    assert env.unwrapped.game.void_streak == MAX_VOID_DEALS - 1
    with pytest.raises(RuntimeError, match="episode is over"):
        env.step(PASS)


def test_rllib_multi_agent_env_reports_truncateds():
    pytest.importorskip("ray.rllib", reason="RLlib is not installed (pip install -e \".[rllib]\")")
    from training.rllib.env import MASK_KEY, BeloteMultiAgentEnv

    env = BeloteMultiAgentEnv({"rules": "seed004", "episode": "game"})
    obs, _ = env.reset(seed=3)
    for _ in range(10_000):
        (agent, o), = obs.items()
        obs, _, terms, truncs, _ = env.step({agent: _pass_first(np.flatnonzero(o[MASK_KEY]))})
        if terms["__all__"] or truncs["__all__"]:
            break
    assert truncs["__all__"] and not terms["__all__"]
    assert all(truncs[a] and not terms[a] for a in env.possible_agents)


@pytest.mark.parametrize("preset", ["seed004", "seed001_3p"])
def test_openspiel_game_episodes_end_within_their_max_game_length(preset):
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install -e \".[openspiel]\")")
    import belote_env.openspiel  # noqa: F401  (registers python_belote)

    game = pyspiel.load_game(f"python_belote(rules={preset},episode=game)")
    state = game.new_initial_state()
    rng = np.random.default_rng(4)
    length = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(_pass_first(state.legal_actions()))
        length += 1
    assert length <= game.max_game_length()
    assert state.returns() == [0.0] * game.num_players()
    assert state.game_state.void_streak == MAX_VOID_DEALS - 1


def test_openspiel_information_state_string_of_a_game_episode_says_the_deals_passed_out_in_a_row():
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install -e \".[openspiel]\")")
    import belote_env.openspiel  # noqa: F401  (registers python_belote)

    state = pyspiel.load_game("python_belote(rules=seed004,episode=game)").new_initial_state()
    rng = np.random.default_rng(5)
    seen = []
    while len(seen) < 3:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
            if not state.is_chance_node():  # a new deal's first decision
                seen.append(state.information_state_string(state.current_player()))
        else:
            state.apply_action(_pass_first(state.legal_actions()))
    assert [s.endswith(f";void_streak={k}") for k, s in enumerate(seen)] == [True] * 3
    deal = pyspiel.load_game("python_belote(rules=seed004)").new_initial_state()
    while deal.is_chance_node():
        actions, probs = zip(*deal.chance_outcomes())
        deal.apply_action(int(rng.choice(actions, p=probs)))
    assert "void_streak" not in deal.information_state_string(deal.current_player())  # a deal episode: none
