"""belote_v0 and the Gymnasium env over every configuration: API, seeding, rendering,
reward modes, and the information rule proven with hidden-hand resampling (RULES.md §11)."""

import random
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

import belote_env
from belote_env import belote_v0
from belote_env.gym_env import BeloteGymEnv
from policies.gym import NamedGymEnv  # BeloteGymEnv with policies also given by name
from belote_env.sampling import sample_hidden_hands
from tests.conftest import random_aec_episode

MODELS = Path(__file__).resolve().parent.parent / "policies" / "models"

CONFIGS = [
    {"rules": "seed004"}, {"rules": "seed000"}, {"rules": "seed002"}, {"rules": "seed003"},
    {"rules": "seed001_4p"},
    {"rules": "seed004", "declarations": "auto"},
    {"rules": "seed004", "round2_no_trump_all_trump": True, "belote": "optional", "declarations": "choice"},
    {"episode": "game", "target": 300},
    {"obs_mode": "history"},
    {"obs_mode": "history", "episode": "game", "rules": "seed000", "target": 200},
    {"reward_mode": "points"}, {"reward_mode": "win", "episode": "game", "target": 200},
]
IDS = ["-".join(f"{k}={v}" for k, v in c.items()) for c in CONFIGS]


@pytest.mark.parametrize("cfg", CONFIGS, ids=IDS)
def test_api_seed_render(cfg):
    api_test(belote_v0.env(**cfg), num_cycles=300, verbose_progress=False)
    seed_test(lambda **kw: belote_v0.env(**cfg, **kw), num_cycles=50)
    render_test(lambda render_mode=None: belote_v0.env(render_mode=render_mode, **cfg))


@pytest.mark.parametrize("reward_mode", ["scaled", "points", "win"])
@pytest.mark.parametrize("episode", ["deal", "game"])
def test_rewards_equal_engine_scores(reward_mode, episode):
    env = belote_v0.raw_env(reward_mode=reward_mode, episode=episode, target=400)
    rng = random.Random(7)
    for _ in range(25 if episode == "game" else 150):
        env.reset(seed=rng.randrange(1 << 30))
        totals = random_aec_episode(env, rng)
        g = env.game
        if episode == "game":
            assert g.is_game_over
            diff = g.scores[0] - g.scores[1]
            want = {"scaled": diff / 162, "points": diff, "win": 1.0 if g.winner == 0 else -1.0}[reward_mode]
        else:
            s = g.deal_score
            d = 0 if s is None else s.difference(0)
            want = {"scaled": d / 162, "points": d, "win": (d > 0) - (d < 0)}[reward_mode]
        assert totals["player_0"] == pytest.approx(want) and totals["player_2"] == pytest.approx(want)
        assert totals["player_1"] == pytest.approx(-want) and totals["player_3"] == pytest.approx(-want)


RULE_CONFIGS = [
    {}, {"partner_master_free": False}, {"undertrump": "discard_allowed"}, {"obligations": "two_player"},
    {"round2_no_trump_all_trump": True, "belote": "optional"}, {"declarations": "auto"},
    {"declarations": "choice", "belote": "optional"},
]


@pytest.mark.parametrize("overrides", RULE_CONFIGS, ids=[str(c) for c in RULE_CONFIGS])
def test_information_rule_with_resampled_hidden_hands(overrides):
    """At every decision, a state that differs only in the other seats' hidden cards
    (drawn with sample_hidden_hands) gives the acting seat identical observations (both
    modes), masks and infos."""
    envs = {m: belote_v0.raw_env(obs_mode=m, **overrides) for m in ("infoset", "history")}
    rng = random.Random(11)
    checked = 0
    for _ in range(40):
        seed = rng.randrange(1 << 30)
        for e in envs.values():
            e.reset(seed=seed)
        env = envs["infoset"]
        while not env.game.is_deal_over:
            g = env.game
            seat = g.current
            agent = env.agent_selection
            deal = sample_hidden_hands(g.information_set(seat), rng)
            alt = g.clone()
            for s in range(4):
                if s != seat:
                    alt.hands[s] = deal.hands[s]
            if g.denomination < 0:
                stock = [c for c in range(32) if deal.stock >> c & 1]
                rng.shuffle(stock)
                alt.stock = tuple(stock)
            alt._legal = None
            for mode, e in envs.items():
                base = e.observe(agent)
                real = e.game
                e.game = alt
                other = e.observe(agent)
                e.game = real
                assert np.array_equal(base["observation"], other["observation"]), mode
                assert np.array_equal(base["action_mask"], other["action_mask"])
            assert g.information_set(seat) == alt.information_set(seat)
            checked += 1
            legal = g.legal_actions()
            a = legal[rng.randrange(len(legal))]
            for e in envs.values():
                e.step(a)
            assert envs["infoset"].infos == envs["history"].infos
    assert checked > 500


def test_spaces_are_the_same_object():
    env = belote_v0.raw_env()
    assert env.observation_space("player_0") is env.observation_space("player_0")
    assert env.action_space("player_1") is env.action_space("player_1")
    g = BeloteGymEnv()
    assert g.observation_space is g.observation_space


@pytest.mark.filterwarnings("ignore:.*illegal action")
def test_gymnasium_and_sb3_env_checkers():
    from gymnasium.utils.env_checker import check_env
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    check_env(gymnasium.make("Belote-v0", opponents="easy").unwrapped, skip_render_check=True)
    sb3_check_env(NamedGymEnv(opponents="random"))
    check_env(BeloteGymEnv(obs_mode="history", learner="team"), skip_render_check=True)


def test_registration():
    import pettingzoo

    e = pettingzoo.make("aec", "belote/belote-v0", rules="seed000")
    e.reset(seed=0)
    assert e.unwrapped.rules.partner_master_free is False
    g = gymnasium.make("Belote-v0", opponents="easy", rules="seed004")
    assert isinstance(g.unwrapped, BeloteGymEnv)
    assert belote_env.__version__


def test_gym_env_reward_arrives_when_another_seat_plays_last():
    env = NamedGymEnv(opponents="random", learner_seat=0)
    rng = random.Random(3)
    cases = 0
    for ep in range(300):
        obs, info = env.reset(seed=ep)
        total, done = 0.0, False
        while not done:
            legal = np.flatnonzero(env.action_masks())
            obs, r, done, trunc, info = env.step(int(legal[rng.randrange(len(legal))]))
            total += r
        g = env.game
        want = 0.0 if g.deal_score is None else g.deal_score.difference(0) / 162
        assert total == pytest.approx(want)
        last_seat = g.actions[-1][0]
        cases += last_seat != 0 and g.deal_score is not None
    assert cases > 100


def test_gym_env_team_mode_and_policies():
    calls = []

    def always_first(info):
        calls.append(info.seat)
        return info.legal_actions[0]

    env = BeloteGymEnv(opponents=always_first, learner="team", learner_seat=1)
    obs, info = env.reset(seed=1)
    assert info["seat"] in (1, 3)
    done = False
    while not done:
        legal = np.flatnonzero(env.action_masks())
        obs, r, done, _, info = env.step(int(legal[0]))
    assert set(calls) <= {0, 2} and calls


def test_gym_env_illegal_action_modes():
    env = BeloteGymEnv()
    env.reset(seed=0)
    with pytest.warns(UserWarning):
        obs, r, term, trunc, info = env.step(5)
    assert (r, term) == (-1.0, True) and "illegal action 5" in info["illegal_action"]
    assert not env.action_masks().any()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(32)
    strict = BeloteGymEnv(illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(belote_env.IllegalActionError, match="legal ids"):
        strict.step(5)


def test_gym_env_bad_arguments():
    for kw, match in (({"learner": "all"}, "learner"), ({"learner_seat": 7}, "learner_seat"),
                      ({"obs_mode": "pixels"}, "obs_mode"), ({"opponents": 3}, "policy"),
                      ({"opponents": {0: "easy"}, "learner_seat": 1}, "lacks a policy")):
        with pytest.raises(ValueError, match=match):
            NamedGymEnv(**kw).reset(seed=0)


def test_game_episode_spans_deals_until_game_over():
    env = belote_v0.raw_env(episode="game", target=2000, reward_mode="points")
    rng = random.Random(5)
    env.reset(seed=3)
    deals = 0
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
        deals = env.game.deal_number
    assert deals >= 2 and env.game.is_game_over


def test_history_observation_content():
    env = belote_v0.raw_env(obs_mode="history")
    env.reset(seed=2)
    g = env.game
    seat = g.current
    obs = env.observe(env.agent_selection)["observation"]
    assert obs.dtype == np.int16 and obs.shape == (65, 2)
    hand = [c for c in range(32) if g.hands[seat] >> c & 1]
    assert list(obs[:5, 1]) == hand and (obs[5:8] == -1).all()
    assert obs[8, 1] == g.turned_card and obs[8, 0] == (g.dealer - seat) % 4
    env.step(32)  # pass
    obs2 = env.observe(env.agent_selection)["observation"]
    assert tuple(obs2[9]) == (3, 32)  # the previous seat (relative 3) passed


def test_rgb_array_render():
    env = belote_v0.raw_env(render_mode="rgb_array")
    env.reset(seed=0)
    img = env.render()
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3 and img.std() > 0


def _fail_raise(info):
    raise KeyError(f"secret {info.hand}")


@pytest.mark.parametrize("returned", [None, "pass", 12.0, "not-in-hand", "array2", "raise"])
def test_gym_env_opponent_policy_failure_names_seat_and_value_not_hand(returned):
    from belote_env.actions import action_to_string
    from belote_env.gym_env import OpponentPolicyError

    def bad(info):
        if returned == "raise":
            return _fail_raise(info)
        if info.phase == 1 and info.current_seat == info.seat:  # card play: a card it does not hold
            if returned == "not-in-hand":
                return next(c for c in range(32) if not info.hand >> c & 1)
            return np.array([info.legal_actions[0]] * 2) if returned == "array2" else returned
        return info.legal_actions[-1]  # bids: take when it can

    env = BeloteGymEnv(opponents=bad, learner_seat=0)
    with pytest.raises(OpponentPolicyError) as exc:
        env.reset(seed=0)
        for _ in range(40):
            env.step(int(np.flatnonzero(env.action_masks())[0]))
    e = exc.value
    msg = str(e)
    assert isinstance(e, RuntimeError) and not isinstance(e, belote_env.IllegalActionError)
    assert f"opponent policy 'test_gym_env_opponent_policy_failure_names_seat_and_value_not_hand.<locals>.bad' " \
           f"at seat {e.seat}" in msg and e.seat != 0
    # only the type of what it returned or raised: no value, shape, legal ids nor the policy's own exception
    assert e.__context__ is None and e.__cause__ is None and e.action is None
    if returned == "raise":
        assert "raised KeyError (its message is not shown" in msg and "secret" not in msg
    else:
        want = {"array2": "a numpy array", 12.0: "a float", "not-in-hand": "an int", None: "None",
                "pass": "a str"}[returned]
        assert f"returned {want}, which is not one of its legal action ids (what it returned is not shown" in msg
        assert "info.legal_actions (an int 0..111)" in msg and "shape" not in msg and "'pass'" not in msg
    hand = env.game.hands[e.seat]
    assert "legal ids:" not in msg and not any(action_to_string(c) in msg for c in range(32) if hand >> c & 1)
    for call in (env.action_masks, lambda: env.step(32)):
        with pytest.raises(RuntimeError, match=r"episode is over: an opponent policy failed .*call reset\(\)"):
            call()


def test_gym_env_opponent_specs_checked_at_construction():
    for kw, match in (
            ({"opponents": 5}, r"opponents must be a seat policy: a tier name, a Policy or a callable.*got 5"),
            ({"opponents": "nosuch"}, r"opponents: unknown policy 'nosuch': expected one of random, easy"),
            ({"opponents": {0: "easy", 1: "easy", 3: "easy"}},
             r"lacks a policy for seat\(s\) \[2\]: with learner='seat' and learner_seat='rotate' it needs one for "
             r"each of seats \[0, 1, 2, 3\]"),
            ({"opponents": {0: "easy"}, "learner": "team", "learner_seat": 0},
             r"lacks a policy for seat\(s\) \[1, 3\]"),
            ({"opponents": {"1": "easy"}, "learner_seat": 0}, r"opponents dict keys must be seats 0\.\.3, got '1'"),
            ({"opponents": {0: "easy", 1: "nosuch", 3: "easy"}, "learner_seat": 2},
             r"opponents\[1\]: unknown policy 'nosuch'"),
            ({"partner": 5, "learner_seat": 0}, r"partner must be a seat policy"),
            ({"partner": "easy", "learner": "team"}, r"partner is ignored with learner='team'.*leave partner=None"),
            ({"partner": "easy", "opponents": {1: "easy", 2: "easy", 3: "easy"}, "learner_seat": 0},
             r"partner is ignored when opponents is a dict.*leave partner=None")):
        with pytest.raises(ValueError, match=match):
            NamedGymEnv(**kw)
    NamedGymEnv(opponents={1: "easy", 2: "random", 3: "easy"}, learner_seat=0).reset(seed=0)
    NamedGymEnv(opponents={1: "easy", 3: "easy"}, learner="team", learner_seat=2).reset(seed=0)


def test_gym_env_named_policies_are_checked_against_its_rules():
    """A tier or model folder that does not play the env's rules is refused by name when
    the env is made (as ``make_policy`` and ``belote eval`` refuse it), not played as another
    tier or failing at its first decision."""
    for kw, match in (
            ({"opponents": "hard_oracle", "rules": "seed001_2p"}, r"opponents: tier 'hard_oracle' does not play "
                                                                  r"the 2-player game"),
            ({"opponents": {1: "easy", 2: "hard_oracle"}, "rules": "seed001_3p", "learner_seat": 0},
             r"opponents\[2\]: tier 'hard_oracle' does not play the 3-player game"),
            ({"opponents": "hard,normal", "rules": "seed001_3p"}, r"is a team \(lead,partner\) and the 3-player game"),
            ({"opponents": str(MODELS / "hard"), "rules": "coinche"}, r"a classic model .* cannot play coinche"),
            ({"opponents": "easy", "partner": str(MODELS / "hard_coinche"), "learner_seat": 0},
             r"partner: .*a coinche model")):
        with pytest.raises(ValueError, match=match):
            gymnasium.make("Belote-v0", **kw)
    env = gymnasium.make("Belote-v0", opponents="hard", rules="seed001_2p")
    env.reset(seed=0)
    assert set(env.unwrapped._policy_names.values()) == {"hard"}


@pytest.mark.parametrize("illegal_action", ["penalize", "raise"])
def test_gym_env_step_accepts_numpy_ints_and_size1_arrays(illegal_action):
    for wrap in (int, np.int64, np.array, lambda a: np.array([a]), lambda a: np.array([[a]], dtype=np.int32)):
        env = BeloteGymEnv(learner_seat=0, illegal_action=illegal_action)
        env.reset(seed=0)
        ref = BeloteGymEnv(learner_seat=0)
        ref.reset(seed=0)
        a = int(np.flatnonzero(env.action_masks())[0])
        assert env.step(wrap(a))[1:4] == ref.step(a)[1:4] and env.game.actions == ref.game.actions
    env = BeloteGymEnv(learner_seat=0, illegal_action=illegal_action)
    env.reset(seed=0)
    n = len(env.game.actions)
    for bad, shape in ((np.array([32, 33]), r"\(2,\)"), (np.zeros((0,), dtype=int), r"\(0,\)")):
        with pytest.raises(ValueError, match=r"an action must be an action id 0\.\.111: an int, a numpy integer, "
                                             rf"or a 0-d / size-1 numpy integer array; got an array of shape {shape}"):
            env.step(bad)
    assert env.action_masks().any() and len(env.game.actions) == n  # nothing applied, the episode goes on


@pytest.mark.parametrize("seat", [1.0, np.float64(1.0), True, "1", None])
def test_gym_env_refuses_a_learner_seat_that_is_not_an_int(seat):
    for kw in ({}, {"learner": "team"}):
        with pytest.raises(ValueError, match=r"learner_seat must be a seat 0\.\.3 \(an int\) or 'rotate', got "):
            BeloteGymEnv(learner_seat=seat, **kw)
    with pytest.raises(ValueError, match=r"opponents dict keys must be seats 0\.\.3, got .*\(a seat is an int\)"):
        BeloteGymEnv(opponents={seat: "easy", 2: "easy", 3: "easy"}, learner_seat=0)


def test_gym_env_takes_a_numpy_int_learner_seat_and_plays_a_deal_to_its_end():
    for kw in ({}, {"learner": "team"}):
        env = BeloteGymEnv(learner_seat=np.int64(1), **kw)
        assert env.learner_seat == 1 and type(env.learner_seat) is int
        env.reset(seed=0)
        done = False
        while not done:
            _, _, term, trunc, info = env.step(int(np.flatnonzero(env.action_masks())[0]))
            done = term or trunc
        assert len(info["deal_points"]) == 2


@pytest.mark.parametrize("seat", [1.0, np.float64(1.0), True])
def test_belote_v0_refuses_a_render_seat_that_is_not_an_int(seat):
    with pytest.raises(ValueError, match=r"render_seat must be a seat 0\.\.3 \(an int\), got "):
        belote_v0.env(render_mode="ansi", render_seat=seat)
    env, ref = belote_v0.env(render_mode="ansi", render_seat=np.int64(1)), belote_v0.env(render_mode="ansi", render_seat=1)
    env.reset(seed=0)
    ref.reset(seed=0)
    assert type(env.unwrapped.render_seat) is int and env.render() == ref.render()
