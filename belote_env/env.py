"""belote_v0: classic team Belote as a PettingZoo AEC environment.

    from belote_env import belote_v0
    env = belote_v0.env()
    env.reset(seed=42)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

=================== =====================================================================
Agents              ``player_0 .. player_3`` = seats 0..3; teams {0, 2} and {1, 3}
Actions             ``Discrete(112)``: the flat action table below (fixed, version 1)
Observations        ``Dict(observation=Box(0, inf, (618,), float32),
                    action_mask=Box(0, 1, (112,), int8))``
Episode             one deal (a void deal, eight passes, ends the episode with reward 0)
Rewards             zero-sum per team, only at the end, to all four agents
=================== =====================================================================

Action ids (``belote_env.actions``, ``ACTION_TABLE_VERSION = 1``):

======== ====================================================================
0..31    play card ``id``; ``id = suit*8 + rank``, suits ♠ ♥ ♦ ♣, ranks 7 8 9 10 J Q K A
32       pass
33       take (trump = the turned card's suit), bidding round 1
34..39   name a contract in round 2: ♠ ♥ ♦ ♣ no-trump all-trump
40..99   coinche bids (80..160, capot) x 6 contract kinds (not used by classic rules)
100..111 coinche, surcoinche, declare / decline, announce / decline belote, two-player
         actions (legal only under the rule options that use them)
======== ====================================================================

Observation: ``observation`` is the seat-relative encoding of the acting seat's
information set (``belote_env.observation``, ``OBS_ENCODER_VERSION = 1``):

=========== ===== ===================================================================
0:32        32    my hand
32:64       32    the turned card
64:72       8     round-1 bids by relative seat (passed, took)
72:100      28    round-2 bids by relative seat (passed, named contract 0..5)
100:106     6     contract kind
106:110     4     taker (relative seat)
110:114     4     dealer (relative seat)
114:242     128   current trick, card by relative seat
242:370     128   cards played this deal, by relative seat
370:374     4     leader of the current trick (relative seat)
374:378     4     phase: bid round 1, bid round 2, card play, a choice that is no card
378:386     8     completed tricks (one-hot)
386:390     4     card points (us, them) / 162, tricks won (us, them) / 8
390:398     8     belote / rebelote announced, by relative seat
398:401     3     game scores (us, them) / 1000, litige reserve / 162
401:433     32    my legal cards now
433:465     32    unseen cards (not in my hand, not played)
465:497     32    my master cards (strongest still out in their suit)
497:501     4     relative seat winning the current trick
501:505     4     led suit of the current trick
505:506     1     card points in the current trick / 80
506:518     12    belief: relative seat r=1..3 at 506 + 4(r-1) + suit: known to lack the suit
518:614     96    belief: card c at 518 + 3c + (r-1): relative seat r=1..3 may still hold c
614:618     4     declaration points made, by relative seat / 250
=========== ===== ===================================================================

Size 618 = 32 + 32 + 8 + 28 + 6 + 4 + 4 + 128 + 128 + 4 + 4 + 8 + 4 + 8 + 3 + 32 + 32 + 32 + 4
+ 4 + 1 + 12 + 96 + 4. Blocks from 401 on are derived from the others (what the rules let a
seat infer from the public history: voids, trump limits, belote and declaration reveals;
``belote_env.inference``), to ease learning.

Relative seat ``r = (seat - me) % 4``: 0 me, 1 left-hand opponent (plays after me), 2 partner,
3 right-hand opponent. ``action_mask`` is int8, 1 for each legal id of the acting agent and
all zeros for every other agent.

Rewards: at the end of the deal each agent receives ``(its team's deal points - the other
team's deal points) / reward_scale`` (``reward_scale`` defaults to 162, so a dedans is
+-1 and a capot with belote +-1.68); the same value for both partners, the negation for
the opponents. Deal points are those of ``belote_env.scoring.score_deal`` (RULES.md §7);
a litige reserve is not paid within a one-deal episode. ``infos[agent]`` is ``{}`` until
the end, then ``{"deal_points": (us, them), "outcome": "made" | "dedans" | "litige" |
"void"}``.

Arguments of ``env()`` / ``raw_env()``:
    rules: a ``belote_env.Rules`` or a dict of rule options (default: seed 004 rules).
    render_mode: ``None``, ``"ansi"`` (``render()`` returns text) or ``"human"`` (prints it).
    render_seat: the seat whose view is rendered (default 0): rendering never shows
        other seats' hands.
    reward_scale: points per unit of reward (float > 0, default 162).

``raw_env.game`` is the engine's ``GameState`` (all hands: for debugging and tests, never
for agents). ``raw_env.step`` raises ``belote_env.IllegalActionError`` (a ``ValueError``) naming the id,
the seat and the legal ids for an illegal or out-of-range action. ``env()`` adds
PettingZoo's wrappers: an illegal move ends the episode with reward -1 for the offender
(and 0 for the three others: that case is not zero-sum),
out-of-bounds ids are asserted, and the AEC order is enforced.

Version history:
    v0 (belote-rl 0.1.0): classic rules, one deal per episode, infoset observation v1,
        action table v1.
"""

from __future__ import annotations

import random
from typing import Any, Mapping

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .actions import NUM_ACTIONS
from .config import RuleOptionError, Rules
from .game import GameState, check_rules_supported
from .observation import OBS_ENCODER_VERSION, OBS_SIZE, action_mask, encode_infoset
from .render import render_text

__all__ = ["env", "raw_env"]


def env(**kwargs) -> AECEnv:
    """``raw_env(**kwargs)`` inside PettingZoo's TerminateIllegal (reward -1),
    AssertOutOfBounds and OrderEnforcing wrappers."""
    e = raw_env(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


def _as_rules(rules) -> Rules:
    if rules is None:
        return Rules()
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, Mapping):
        return Rules.from_dict(rules)
    raise RuleOptionError(f"rules must be a Rules, a dict of rule options or None, got {type(rules).__name__}")


class raw_env(AECEnv):
    """The unwrapped belote_v0 AEC environment (see the module docstring)."""

    metadata = {
        "render_modes": ["ansi", "human"],
        "name": "belote_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(self, rules: Rules | Mapping[str, Any] | None = None, render_mode: str | None = None,
                 render_seat: int = 0, reward_scale: float = 162.0):
        super().__init__()
        self.rules = check_rules_supported(_as_rules(rules))
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, got {render_mode!r}")
        if isinstance(render_seat, bool) or render_seat not in (0, 1, 2, 3):
            raise ValueError(f"render_seat must be a seat 0..3, got {render_seat!r}")
        if isinstance(reward_scale, bool) or not isinstance(reward_scale, (int, float)) \
                or not 0 < reward_scale < float("inf"):
            raise ValueError(f"reward_scale must be a finite positive number, got {reward_scale!r}")
        self.render_mode = render_mode
        self.render_seat = render_seat
        self.reward_scale = float(reward_scale)
        self.possible_agents = [f"player_{i}" for i in range(4)]
        self.agents = self.possible_agents[:]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict({
            "observation": spaces.Box(low=0.0, high=np.inf, shape=(OBS_SIZE,), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(NUM_ACTIONS,), dtype=np.int8),
        })
        act_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self.obs_encoder_version = OBS_ENCODER_VERSION
        self._rng: random.Random | None = None
        #: the engine state of the deal in progress (holds every hand: not for agents)
        self.game: GameState | None = None

    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Deal a new hand. ``seed`` reseeds the env's own RNG (dealer and deck);
        without it the RNG continues (or, on the first reset, is seeded from the OS)."""
        if seed is not None:
            if isinstance(seed, bool) or not hasattr(seed, "__index__"):
                raise ValueError(f"seed must be an int or None, got {seed!r}")
            self._rng = random.Random(seed.__index__())
        elif self._rng is None:
            self._rng = random.Random()
        self.game = GameState(self.rules, rng=self._rng, dealer=self._rng.randrange(4))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.current_seat]
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        info = self.game.information_set(self._seat[agent])
        return {"observation": encode_infoset(info), "action_mask": action_mask(info.legal_actions)}

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        st = self.game
        st.apply(action)  # raises IllegalActionError naming id, seat and legal ids
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if st.is_deal_over:
            score = st.deal_score
            for a in self.agents:
                team = self._seat[a] & 1
                if score is None:
                    self.infos[a] = {"deal_points": (0, 0), "outcome": "void"}
                else:
                    self.rewards[a] = score.difference(team) / self.reward_scale
                    self.infos[a] = {"deal_points": (score.points[team], score.points[1 - team]),
                                     "outcome": score.outcome}
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
            # next agent in seat order; PettingZoo's dead-step logic takes it from here
            self.agent_selection = self.possible_agents[(self._seat[agent] + 1) % 4]
        else:
            self.agent_selection = self.possible_agents[st.current_seat]
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """Text of ``render_seat``'s view (``"ansi"`` returns it, ``"human"`` prints it)."""
        if self.render_mode is None:
            from gymnasium import logger
            logger.warn("render() called without a render_mode")
            return None
        if self.game is None:
            raise RuntimeError("call reset() before render()")
        text = render_text(self.game.information_set(self.render_seat))
        if self.render_mode == "human":
            print(text + "\n")
            return None
        return text

    def close(self) -> None:
        pass
