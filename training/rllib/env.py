"""``belote_v0`` as an RLlib ``MultiAgentEnv`` (new API stack), with correct reward routing.

RLlib's own ``PettingZooEnv`` wrapper would keep the PettingZoo key ``"observation"``; the
action-masking RLModule convention (``ray.rllib.examples.rl_modules.classes.
action_masking_rlm``) expects ``"observations"``. This adapter renames it and talks to the
unwrapped ``belote_env.env.raw_env`` directly (an illegal action raises
``IllegalActionError`` instead of silently ending the episode):

=============== ==============================================================================
Agents          ``player_0 .. player_3`` (seats 0..3; teams {0, 2} and {1, 3})
Observation     ``Dict(observations=Box(0, inf, (618,), float32), action_mask=Box(0, 1, (112,),
                int8))``: the ``belote_v0`` information set and action mask of that seat
Action          ``Discrete(112)``, the flat action table (``belote_env.actions``)
=============== ==============================================================================

Reward routing. In a turn-based 4-seat game only one seat acts per step, but a deal's
reward belongs to all four. RLlib's ``MultiAgentEpisode`` credits a reward given to an agent
that did not act in that step to that agent's pending (hanging) action, so every step returns
the raw env's per-step rewards for **every** seat (``raw_env.rewards``), not only for the
seat that moved. The step that ends an episode returns an observation, the reward, the
``infos`` (``deal_points``, ``outcome``, ``scores``) and ``terminated=True`` for all four
seats (``truncated=True`` instead where a game episode is cut after
``driver.MAX_VOID_DEALS`` deals in a row passed out), so each seat's last action is
completed with its team's reward: the four returns of a deal are ``(+r, -r, +r, -r)`` by team, ``r = (team 0 points - team 1 points) / 162`` with the
default ``reward_mode="scaled"``.

Actions. ``step`` hands the id to the engine as given: an int or a numpy integer (what
RLlib's ``Discrete`` sampling gives); a float (``32.9``), a bool, a string or an id out
of range raises ``IllegalActionError`` naming it, as ``belote_v0`` does; it is never
truncated to an int.

RLlib's env checker is off. ``train-rllib`` builds its PPO config with
``.environment(..., disable_env_checking=True)``: RLlib's pre-check
(``check_multiagent_environments``) steps the env with an action sampled from the
``Discrete`` space without the action mask, an illegal action in most positions, which
this env refuses with ``IllegalActionError`` instead of playing it. The checks it would
make (spaces, reset / step dicts, observations in their spaces, rewards and
``__all__`` flags) are made by ``tests/test_rllib.py`` with masked legal actions.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
from ray.rllib.env.multi_agent_env import MultiAgentEnv

from belote_env.config import check_keywords
from belote_env.env import raw_env

__all__ = ["BeloteMultiAgentEnv", "OBS_KEY", "MASK_KEY", "ENV_NAME"]

OBS_KEY = "observations"  # the key RLlib's action-masking RLModule reads
MASK_KEY = "action_mask"
ENV_NAME = "belote_v0_rllib"  # the name registered with ``ray.tune.registry.register_env``


class BeloteMultiAgentEnv(MultiAgentEnv):
    """RLlib multi-agent view of ``belote_v0`` (see the module docstring).

    Args:
        config: keyword arguments of ``belote_env.env.raw_env`` (``rules``, ``episode``,
            ``reward_mode``, rule options); ``obs_mode`` must be ``"infoset"`` (the
            BeloteNet input). RLlib passes its ``env_config`` here.
    Raises:
        ValueError: ``obs_mode`` other than ``"infoset"``, or any error of ``raw_env``
            (``RuleOptionError`` for an unknown rule option, bad episode or reward mode).
    """

    def __init__(self, config: dict[str, Any] | None = None):
        super().__init__()
        kwargs = dict(config or {})
        if kwargs.get("obs_mode", "infoset") != "infoset":
            raise ValueError(f"the RLlib env needs obs_mode='infoset', got {kwargs['obs_mode']!r}")
        if kwargs.get("render_mode") is not None:
            raise ValueError("the RLlib env does not render; drop render_mode")
        check_keywords("BeloteMultiAgentEnv's config", raw_env.__init__, kwargs)
        self.env = raw_env(**kwargs)
        self.possible_agents = list(self.env.possible_agents)
        self.agents = list(self.possible_agents)
        inner = self.env.observation_space(self.possible_agents[0])
        space = gym.spaces.Dict({OBS_KEY: inner["observation"], MASK_KEY: inner["action_mask"]})
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: self.env.action_space(a) for a in self.possible_agents}
        self.observation_space = gym.spaces.Dict(self.observation_spaces)
        self.action_space = gym.spaces.Dict(self.action_spaces)

    def _obs(self, agent: str) -> dict:
        o = self.env.observe(agent)
        return {OBS_KEY: o["observation"], MASK_KEY: o["action_mask"]}

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """Deal a new hand; returns ``({acting agent: obs}, {acting agent: {}})``."""
        self.env.reset(seed=seed, options=options)
        self.agents = list(self.possible_agents)
        a = self.env.agent_selection
        return {a: self._obs(a)}, {a: {}}

    def step(self, action_dict: dict[str, int]):
        """Apply the acting agent's action.

        Args:
            action_dict: ``{acting agent: action id}`` (an int or numpy integer in
                0..111, 0..411 with coinche's extended ids, 0..413 at two / three seats).
        Returns:
            ``(obs, rewards, terminateds, truncateds, infos)`` multi-agent dicts: the next
            acting agent's observation (all four at the end), rewards for the acting agent
            and for every seat the env rewarded in this step, ``"__all__"`` flags.
        Raises:
            ValueError: ``action_dict`` lacks the acting agent or holds another agent;
                ``IllegalActionError`` (a ``ValueError``) for an illegal action, one out of
                range or one that is not an integer (a float is refused, not truncated).
        """
        agent = self.env.agent_selection
        if set(action_dict) != {agent}:
            raise ValueError(f"expected an action for {agent} only, got actions for {sorted(action_dict)}")
        self.env.step(action_dict[agent])  # the engine refuses a non-integer id: never truncated
        rewards = {a: float(r) for a, r in self.env.rewards.items() if r != 0.0}
        rewards.setdefault(agent, 0.0)
        truncated = all(self.env.truncations.values())  # a game episode: MAX_VOID_DEALS voids in a row
        if truncated or all(self.env.terminations.values()):
            obs = {a: self._obs(a) for a in self.possible_agents}
            for a in self.possible_agents:
                rewards.setdefault(a, 0.0)
            terms = dict.fromkeys(self.possible_agents, not truncated)
            truncs = dict.fromkeys(self.possible_agents, truncated)
            infos = {a: dict(self.env.infos[a]) for a in self.possible_agents}
            self.agents = []
        else:
            nxt = self.env.agent_selection
            obs = {nxt: self._obs(nxt)}
            terms, truncs = {}, {}
            infos = {nxt: {}}
        terms["__all__"] = not self.agents and not truncated
        truncs["__all__"] = truncated
        return obs, rewards, terms, truncs, infos

    def close(self) -> None:
        self.env.close()
