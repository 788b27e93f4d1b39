"""belote_v0: PettingZoo API, seeding, masks, rewards, errors, and the information rule."""

import os
import random

import numpy as np
import gymnasium
import pytest
from pettingzoo.test import api_test, seed_test

from belote_env import IllegalActionError, belote_v0
from belote_env.game import GameState
from belote_env.actions import NUM_ACTIONS, PASS, TAKE
from belote_env.observation import OBS_SIZE, encode_infoset
from tests.conftest import random_aec_episode


def test_api_test():
    api_test(belote_v0.env(), num_cycles=500, verbose_progress=False)


def test_api_test_raw():
    api_test(belote_v0.raw_env(), num_cycles=200, verbose_progress=False)


def test_seed_test():
    seed_test(belote_v0.env, num_cycles=100)


def _play(env, rng, check=None):
    env.reset(seed=rng.randrange(1 << 30))
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        if check:
            check(env, agent, obs)
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))


def test_masks_equal_engine_legal_actions_and_zero_for_others():
    env = belote_v0.raw_env()
    rng = random.Random(0)

    def check(env, agent, obs):
        st = env.unwrapped.game
        assert obs["observation"].shape == (OBS_SIZE,) and obs["observation"].dtype == np.float32
        assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].shape == (NUM_ACTIONS,)
        assert tuple(np.flatnonzero(obs["action_mask"])) == st.legal_actions()
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        assert env.observation_space(agent) is env.observation_space(agent)

    for _ in range(200):
        _play(env, rng, check)


def test_rewards_zero_sum_and_equal_engine_score():
    env = belote_v0.raw_env()
    rng = random.Random(1)
    seen_played = 0
    for _ in range(300):
        env.reset(seed=rng.randrange(1 << 30))
        totals = random_aec_episode(env, rng)
        st = env.unwrapped.game
        if st.deal_score is None:
            assert all(v == 0 for v in totals.values())
            continue
        seen_played += 1
        d = st.deal_score.difference(0) / 162.0
        assert totals["player_0"] == pytest.approx(d) and totals["player_2"] == pytest.approx(d)
        assert totals["player_1"] == pytest.approx(-d) and totals["player_3"] == pytest.approx(-d)
    assert seen_played > 100


def test_raw_env_illegal_action_raises_naming_id_seat_legal():
    env = belote_v0.raw_env()
    env.reset(seed=0)
    seat = env.unwrapped.game.current_seat
    with pytest.raises(IllegalActionError, match=rf"illegal action 3 by seat {seat}: .*legal ids: \[32 \(pass\), 33 \(take\)\]"):
        env.step(3)
    with pytest.raises(IllegalActionError, match="out of range"):
        env.step(500)


def test_wrapped_env_illegal_move_ends_episode_with_penalty():
    env = belote_v0.env()
    env.reset(seed=0)
    offender = env.agent_selection
    env.step(5)  # a card during bidding
    assert all(env.terminations.values())
    assert env.rewards[offender] == -1
    e2 = belote_v0.env()
    e2.reset(seed=0)
    with pytest.raises(IllegalActionError, match=rf"illegal action {NUM_ACTIONS} by seat \d .*out of range 0\.\.111"):
        e2.step(NUM_ACTIONS)


def test_bad_env_arguments():
    from belote_env import RuleOptionError

    with pytest.raises(RuleOptionError, match="unknown rule option"):
        belote_v0.env(rules={"nope": 1})
    with pytest.raises(ValueError, match="render_mode"):
        belote_v0.env(render_mode="rgb")


@pytest.mark.parametrize("make,typo,meant", [
    (lambda **kw: belote_v0.env(**kw), "epsiode", "episode"),
    (lambda **kw: gymnasium.make("Belote-v0", **kw), "reward", "reward_mode"),
    (lambda **kw: gymnasium.make("Belote-v0", **kw), "opponent", "opponents"),
])
def test_a_misspelt_env_argument_is_named_with_the_envs_arguments(make, typo, meant):
    """An environment reads the keywords it does not take as rule options: a misspelt
    argument is refused naming the closest names and the environment's own arguments."""
    from belote_env import RuleOptionError

    with pytest.raises(RuleOptionError) as e:
        make(**{typo: "game"})
    assert f"unknown keyword {typo!r} (did you mean {meant!r}" in str(e.value)
    arguments = str(e.value).split("its arguments are ")[1].split(", and any other")[0].split(", ")
    assert meant in arguments and "rules" in arguments
    assert "any other keyword is a rule option; known options: all_pass_redeal" in str(e.value)


def test_render_ansi_shows_only_own_hand():
    env = belote_v0.raw_env(render_mode="ansi", render_seat=2)
    env.reset(seed=3)
    text = env.render()
    st = env.unwrapped.game
    from belote_env.cards import card_to_str, cards_of
    from belote_env.render import hand_by_suit

    info = st.information_set(2)
    assert "Your hand: " + hand_by_suit(st.hands[2], info.legal_actions) in text
    assert "seat 2 (North)" in text
    hand_line = next(line for line in text.splitlines() if line.startswith("Your hand"))
    for other in (0, 1, 3):
        for c in cards_of(st.hands[other]):
            assert card_to_str(c) not in hand_line


def test_observation_ignores_other_seats_hidden_cards():
    """RULES.md §11: swap two other seats' hidden hands (same sizes) and reshuffle the stock:
    the acting seat's observation, mask and info are unchanged."""
    rng = random.Random(2)
    env = belote_v0.raw_env()
    checked = 0
    for _ in range(150):
        env.reset(seed=rng.randrange(1 << 30))
        st = env.unwrapped.game
        while not st.is_deal_over:
            me = st.current_seat
            base = env.observe(env.agent_selection)
            others = [s for s in range(4) if s != me]
            alt = st.clone()
            a, b = rng.sample(others, 2)
            if alt.hands[a].bit_count() == alt.hands[b].bit_count():
                alt.hands[a], alt.hands[b] = alt.hands[b], alt.hands[a]
            stock = list(alt.stock)
            rng.shuffle(stock)
            alt.stock = tuple(stock)
            info_alt = alt.information_set(me)
            assert np.array_equal(encode_infoset(info_alt), base["observation"])
            checked += 1
            legal = st.legal_actions()
            env.step(legal[rng.randrange(len(legal))])
    assert checked > 3000


def test_take_sets_contract_in_observation():
    env = belote_v0.raw_env()
    env.reset(seed=5)
    st = env.unwrapped.game
    turned_suit = st.turned_card >> 3
    env.step(TAKE)
    obs = env.observe(env.agent_selection)["observation"]
    assert obs[100 + turned_suit] == 1.0
    assert PASS not in np.flatnonzero(env.observe(env.agent_selection)["action_mask"])


def test_env_argument_and_seed_validation():
    import numpy as np

    for bad in (True, float("inf"), 0, -1):
        with pytest.raises(ValueError, match="reward_scale"):
            belote_v0.raw_env(reward_scale=bad)
    with pytest.raises(ValueError, match="render_seat"):
        belote_v0.raw_env(render_seat=True)
    e1, e2 = belote_v0.raw_env(), belote_v0.raw_env()
    e1.reset(seed=np.int64(3))
    e2.reset(seed=3)
    assert e1.game.deck == e2.game.deck
    for bad in (1.5, -1, "3", True):  # random.Random would read -1 as 1 and hash a str
        with pytest.raises(ValueError, match="seed must be a non-negative int or None"):
            e1.reset(seed=bad)
    for bad in (1.5, -1, "abc"):
        with pytest.raises(ValueError, match="seed must be a non-negative int or None"):
            GameState(seed=bad)
    assert GameState(seed=np.int64(7)).deck == GameState(seed=7).deck


def test_state_method_not_shadowed():
    env = belote_v0.raw_env()
    env.reset(seed=0)
    assert callable(env.state)


def test_env_rules_presets_and_overrides():
    from belote_env import RuleOptionError, Rules

    e = belote_v0.raw_env(rules="seed000", target=None)
    assert e.rules.partner_master_free is False and e.rules.target is None
    assert belote_v0.raw_env(rules={"tie": "takers_fail"}).rules.tie == "takers_fail"
    assert belote_v0.raw_env(rules=Rules(belote="optional")).rules.belote == "optional"
    with pytest.raises(RuleOptionError, match="belote_v0 got an unknown keyword 'colour'"):
        belote_v0.raw_env(colour="red")
    with pytest.raises(RuleOptionError, match="unknown rules preset"):
        belote_v0.raw_env(rules="seed123")
    with pytest.raises(RuleOptionError, match="unknown rules preset ''; presets: coinche, "):
        belote_v0.raw_env(rules="")
    with pytest.raises(RuleOptionError, match="is a folder, not a YAML file or a preset"):
        belote_v0.raw_env(rules=os.path.dirname(__file__))


@pytest.mark.parametrize("call", ["observe", "step", "last", "render"])
def test_raw_env_before_reset_says_call_reset(call):
    env = belote_v0.raw_env(render_mode="ansi")
    with pytest.raises(RuntimeError, match=rf"call reset\(\) before {call}\(\)"):
        {"observe": lambda: env.observe("player_0"), "step": lambda: env.step(32),
         "last": env.last, "render": env.render}[call]()


@pytest.mark.parametrize("call", ["step", "action_masks", "render"])
def test_gym_env_before_reset_says_call_reset(call):
    from belote_env.gym_env import BeloteGymEnv

    env = BeloteGymEnv(render_mode="ansi")
    with pytest.raises(RuntimeError, match=rf"call reset\(\) before {call}\(\)"):
        {"step": lambda: env.step(32), "action_masks": env.action_masks, "render": env.render}[call]()


def test_gym_env_human_mode_renders_at_reset_and_at_every_step(capsys):
    """Gymnasium's ``"human"`` mode draws without ``render()`` calls: the learner's first
    position at ``reset`` too, and the position after an illegal action."""
    from belote_env.gym_env import BeloteGymEnv

    env = BeloteGymEnv(render_mode="human")
    env.reset(seed=3)
    first = capsys.readouterr().out
    assert "Hand" in first or "hand" in first
    env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert capsys.readouterr().out
    env.reset(seed=3)
    assert capsys.readouterr().out == first
    env.step(int(np.flatnonzero(~env.action_masks())[0]))  # illegal: the episode ends, drawn
    assert capsys.readouterr().out


def test_raw_env_observe_unknown_agent():
    env = belote_v0.raw_env()
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"unknown agent 'player_9': expected one of \['player_0'"):
        env.observe("player_9")


@pytest.mark.parametrize("action, why", [
    (True, r"an action id must be an int 0\.\.111 \(a numpy integer too\), got a bool"),
    (32.0, r"an action id must be an int 0\.\.111 \(a numpy integer too\), got a float"),
    (np.array([32]), r"an action id must be an int 0\.\.111 \(a numpy integer too\), got a ndarray"),
    (None, r"None is only the action of an agent that is done"),
    (10 ** 20, r"out of range 0\.\.111"), (np.uint64(2 ** 64 - 1), r"out of range 0\.\.111"), (-1, r"out of range 0\.\.111")])
def test_wrapped_env_names_an_action_of_a_bad_type_or_range_before_pettingzoos_wrappers(action, why):
    env = belote_v0.env()
    env.reset(seed=1)
    agent = env.agent_selection
    with pytest.raises(IllegalActionError, match=rf"illegal action .* by seat 2 \(player_2\): {why}"):
        env.step(action)
    assert agent == "player_2" and env.agent_selection == agent and not any(env.terminations.values())
    env.step(np.int8(PASS))  # a numpy integer id is an action id: the episode goes on
    assert env.agent_selection != agent and not any(env.terminations.values())
