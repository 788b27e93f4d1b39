"""belote_v0: team Belote, classic or coinche, and the two- and three-player games, as a
PettingZoo AEC environment.

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
                    action_mask=Box(0, 1, (112,), int8))`` (``obs_mode="infoset"``) or
                    ``observation=Box(-1, 111, (65, 2), int16)`` (``obs_mode="history"``)
Episode             one deal (default; a void deal, eight passes, ends the episode with
                    reward 0) or one game to the target (``episode="game"``; truncated,
                    ``truncations`` all True, after 100 deals in a row passed out:
                    ``driver.MAX_VOID_DEALS``)
Rewards             zero-sum per team, at the end of each deal (or game), to all four
Coinche             ``rules="coinche"`` (or any ``contract_mode="coinche"`` rules): the
                    auction game of COINCHE.md; see "Coinche" below
2 or 3 players      ``rules="seed001_2p"`` / ``"seed001_3p"`` (or any rules with
                    ``players`` 2 or 3): TWO_THREE.md; see "Two and three players" below
=================== =====================================================================

Action ids (``belote_env.actions``, ``ACTION_TABLE_VERSION = 1``):

======== ====================================================================
0..31    play card ``id``; ``id = suit*8 + rank``, suits ♠ ♥ ♦ ♣, ranks 7 8 9 10 J Q K A
32       pass
33       take (trump = the turned card's suit), bidding round 1
34..39   name a contract in round 2: ♠ ♥ ♦ ♣ no-trump all-trump
40..99   coinche bids (80..160, capot) x 6 contract kinds (not used by classic rules):
         ``40 + level_index*6 + contract``
100..111 coinche, surcoinche, declare / decline, announce / decline belote, two-player
         actions (legal only under the rule options that use them)
112..411 coinche only, with ``generale: true`` or ``max_numeric_bid`` above 160: the
         générale (112..117) and bids 170..650 (118..411); the action space is then
         ``Discrete(412)`` (``actions.num_actions(rules)``)
======== ====================================================================

Observation: ``observation`` is the seat-relative encoding of the acting seat's
information set (``belote_env.observation``, ``OBS_ENCODER_VERSION = 1``):

{LAYOUT_TABLE}

Size 618 (``OBS_SIZE``, the sum of ``observation.LAYOUT``'s blocks). Blocks from 401 on are
derived from the others (what the rules let a seat infer from the public history: voids,
trump limits, belote and declaration reveals; ``belote_env.inference``), to ease learning.

Relative seat ``r = (seat - me) % 4``: 0 me, 1 left-hand opponent (plays after me), 2 partner,
3 right-hand opponent. ``action_mask`` is int8, 1 for each legal id of the acting agent and
all zeros for every other agent.

``obs_mode="history"`` gives the ordered public history for sequence models: rows
``(relative seat, id)``, int16, -1 padding: rows 0..7 my cards, row 8 the turned card with
the relative dealer, rows 9..64 the deal's bids, cards and announcements in order
(``belote_env.observation.encode_history``, ``HISTORY_ENCODER_VERSION = 1``).

Rewards (``reward_mode``), the same for both partners and negated for the opponents, given
at the step that ends each deal (void deals give 0):
    ``"scaled"`` (default): (our deal points - their deal points) / 162, so a dedans is
        +-1 and a capot with belote +-1.68;
    ``"points"``: the raw point difference of the deal;
    ``"win"``: +1 / -1 / 0 for the team that wins / loses / ties; with ``episode="game"``
        given once, at the end of the game (none where the game is truncated), otherwise
        per deal.
Deal points are those of ``belote_env.scoring.score_deal`` (RULES.md §7); a litige reserve
is paid to the team that wins a later deal (so never within a one-deal episode).
``infos[agent]`` is ``{}`` until a deal ends, then holds that deal's result until the next
one ends: ``{"deal_points": (us, them), "outcome": "made" | "dedans" | "litige" | "void",
"scores": (us, them)}`` (all public).

Coinche (``contract_mode="coinche"``; presets ``"coinche"`` (the default profile of
COINCHE.md §1.3) and one per profile of COINCHE.md §8: ``"coinche_colver"``,
``"coinche_ffb_contree_2016"``, ``"coinche_ffb_contree_2016_note1"``,
``"coinche_ffb_coinche_2015"``, ``"coinche_ffb_equipe_ludique"``, ``"coinche_cannes_2016"``,
``"coinche_pagat"``, ``"coinche_bga"``):
    every card is dealt at once (3, 2, 3) and nothing is turned; the auction's masks cover
    pass, the bids above the current one, coinche and surcoinche (COINCHE.md §3; under
    ``coinche_window="immediate"`` the opponents of each bidder are asked right after the
    bid, with pass meaning "no coinche"); four passes void the deal (reward 0). The
    observation is the classic layout (turned card and take/pass blocks 0) followed by the
    coinche blocks: the last 32 auction events in order (seat, pass / bid / coinche /
    surcoinche, level, denomination), each seat's highest bid per denomination, the
    highest bid and its bidder, the coinche level and the coincher, the auction's length so far
    (``observation.COINCHE_LAYOUT``): ``COINCHE_OBS_SIZE`` (1141) floats, versioned
    ``"coinche-1"`` (``raw_env.obs_encoder_version``); ``obs_mode="history"`` has room
    for 300 events (``(309, 2)``). The ``"scaled"`` reward divides the deal's point
    difference by 500 (``driver.reward_scale``): a failed 160 coinched is -0.96, a plain
    80 made with 81 card points +0.16 (161 against the defenders' 81). Deal points are
    ``scoring.score_coinche_deal``'s, and ``infos`` carry the same keys. Rendering shows the auction and the contract with its
    level and coinche.

Two and three players (``rules.players`` 2 or 3; presets ``"seed001_2p"`` and
``"seed001_3p"``; the rules of docs/TWO_THREE.md, every option of its §4):
    ``belote_v0.env(rules="seed001_3p")``, ``belote_v0.env(rules="seed001_2p",
    declarations="choice", belote="optional")`` or ``belote_v0.env(rules=Rules(players=3,
    three_player_deal="10_each"))``. The engine is ``game.GameState``.

    =================== =============================================================
    Agents              ``player_0 .. player_{n-1}`` = seats 0..n-1 in playing order;
                        no fixed teams: in each deal the maker plays alone against the
                        other seat(s) (TWO_THREE.md §2.1, §3)
    Actions             ``Discrete(414)`` (``actions.num_actions(rules)``): 0..31 cards,
                        32 pass, 33 accept (take the turned suit), 34..37 name ♠ ♥ ♦ ♣
                        (round 2), 102 / 103 declare / decline (``declarations="choice"``),
                        104 announce belote (``belote="optional"``), 106 propose a redeal,
                        107 / 108 exchange the seven of trumps / keep, 109..111 enough /
                        not enough / same (the two-seat answer, §2.6), 412 / 413 agree /
                        refuse a redeal; the ``action_mask`` (int8, 414) marks the legal
                        ones (under ``three_player_deal="10_each"`` the maker's discards
                        are card ids)
    Observations        ``Dict(observation=Box(0, inf, (716,) or (902,), float32),
                        action_mask=Box(0, 1, (414,), int8))`` for 2 or 3 seats: the
                        acting seat's information set (TWO_THREE.md §5), encoded by
                        ``observation.encode_cutthroat`` (layout table there;
                        version ``"small-1"``, ``raw_env.obs_encoder_version``): the
                        hand, the turned and bottom cards, the bids in order, the
                        trump and maker, who exchanged the seven and the cards out of
                        play, announced combinations (values, the scoring seat and its
                        cards), belote claims, the trick and the cards of completed
                        tricks by seat, per-seat card points, tricks, cards held and
                        game scores, the cards gone (played or out of play), the
                        current step (bidding round 1 / 2, exchange, discard, declare,
                        cards) and the public voids. Seats are relative: ``r = (seat -
                        me) % n``. ``obs_mode="history"`` is four-seat only
                        (``ValueError``)
    Episode             one deal (a void deal: all pass, or an agreed redeal, ends it
                        with reward 0), or one game to the target (500: the match ends
                        after the deal in which a seat reaches it, the highest wins,
                        §2.10, A33; truncated as at four seats)
    Rewards             per seat, its own score (TWO_THREE.md §2.9, §3: each seat
                        keeps its own account; ``driver.seat_reward``): ``"scaled"``
                        (its deal points less the mean of the other seats', / 162),
                        ``"points"`` (that difference unscaled), ``"win"`` (its sign
                        per deal; with ``episode="game"`` +1 to the game's winner and
                        -1 to every other seat, ``driver.game_win_reward``).
                        ``"scaled"`` and ``"points"`` rewards sum to 0 over the seats,
                        at three seats too (each seat against the mean of the others)
    Infos               ``{}`` until a deal ends, then ``{"deal_points": (mine, next
                        seat's[, the seat after]), "outcome": "made" | "equal" |
                        "failed" | "void", "scores": (the same order)}`` (public)
    Rendering           the seat's hand, the turned and bottom cards, the bids, the
                        maker and trump, the exchange, combinations, belote, the
                        trick, the last trick and each seat's points and scores
    =================== =============================================================

Arguments of ``env()`` / ``raw_env()``:
    rules: a ``belote_env.Rules``, a dict of rule options, a preset name (``"seed000"``,
        ``"seed001_4p"``, ``"seed002"``, ``"seed003"``, ``"seed004"``; ``"seed001_2p"``,
        ``"seed001_3p"`` for two and three players) or a YAML file path
        (default: seed 004 rules). Any other keyword is a rule option overriding it, e.g.
        ``belote_v0.env(rules="seed000", target=None)``; an unknown one raises
        ``RuleOptionError``.
    episode: ``"deal"`` (default: a ``GameState(..., single_deal=True)``, one deal
        whatever the rules' target and deal limit) or ``"game"`` (deals until the rules'
        target; with ``target=None`` a game is one played deal; the rules redeal a
        passed-out deal without end, so a game episode is truncated after
        ``driver.MAX_VOID_DEALS`` passed out in a row).
    obs_mode: ``"infoset"`` (default) or ``"history"``.
    reward_mode: ``"scaled"`` (default), ``"points"`` or ``"win"``.
    render_mode: ``None``, ``"ansi"`` (``render()`` returns text), ``"human"`` (prints it)
        or ``"rgb_array"`` (an ``(H, W, 3)`` uint8 picture of the same view; needs Pillow).
    render_seat: the seat whose view is rendered (default 0; a seat 0..n-1 of the
        table): rendering never shows other seats' hands.

``raw_env.variant`` is the ``games.Game`` the rules play (its table, ``num_actions``,
``obs_size``, ``has_partners``, ``sides``; ``games.game_of(rules)``, the one place a variant
is chosen). ``raw_env.game`` is the engine's ``GameState`` (at every
table; it holds all hands: for debugging and tests, never for agents). ``raw_env.step`` raises
``belote_env.IllegalActionError`` (a ``ValueError``) naming the id, the seat and the legal
ids for an illegal or out-of-range action. Stepping a done agent with ``None`` while agents
remain is the AEC loop's normal dead step; once every agent is done (``env.agents`` is
empty), ``raw_env.step`` and ``last`` raise ``RuntimeError`` saying the episode is over
(call ``reset()``); ``env()``'s ``last`` does too, and its ``step`` keeps PettingZoo's own
answer (a warning, nothing done). ``env()`` adds PettingZoo's wrappers: an illegal move ends
the episode with reward -1 for the offender (and 0 for the other seats: that case is not
zero-sum), out-of-bounds ids are asserted, and the AEC order is enforced.

Other libraries: TorchRL takes this environment as it is,
``torchrl.envs.PettingZooWrapper(belote_v0.env(), use_mask=True)``: each step carries the
acting seat's ``mask``, every seat's ``action_mask`` (all ones for the waiting seats, whose
action is ignored), observation and reward (every seat's at a deal's end); docs/torchrl.md
has the quickstart and a PPO loss on it. OpenSpiel has the same game as ``python_belote``
(``belote_env.openspiel``, docs/openspiel.md).

Registration: ``import belote_env`` registers ``pettingzoo.make("aec", "belote/belote-v0")``
(PettingZoo versions with a registry) and ``gymnasium.make("Belote-v0")`` (the single-agent
``belote_env.gym_env.BeloteGymEnv``, made as ``policies.gym.NamedGymEnv`` so that its
opponents may be named: ``policies`` is imported by ``gymnasium.make``, not by
``import belote_env``).

Version history:
    v0 (belote-rl 0.1.0): every rule option of RULES.md, deal or game episodes, infoset
        observation v1 (618 floats) and history observation v1, action table v1.
    v0, coinche: ``contract_mode="coinche"`` with every option of COINCHE.md
        §7; coinche observation "coinche-1" (1141 floats); action table v1 extended by
        ids 112..411 for the coinche rules that need them (the classic spaces unchanged).
    v0, two and three players: ``players`` 2 or 3 (TWO_THREE.md), n agents,
        observation "small-1" (716 / 902 floats), ``Discrete(414)``, per-seat rewards
        (the four-seat spaces unchanged).
"""

from __future__ import annotations

import random
from typing import Any, Mapping

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .config import Rules, check_keywords, load_rules
from .driver import REWARD_MODES, episode_end, game_win_reward, point_reward, reward_scale, seat_reward
from .game import GameState, IllegalActionError, seeded_rng
from .games import game_of
from .observation import HISTORY_ENCODER_VERSION, action_mask, layout_table
from .render import render_view
from .table import TEAM_OF, is_seat, other_team

__doc__ = __doc__.replace("{LAYOUT_TABLE}", layout_table())  # the layout is declared once (observation.LAYOUT)

__all__ = ["env", "raw_env", "observation_space_for", "deal_reward", "REWARD_MODES"]

EPISODES = ("deal", "game")
OBS_MODES = ("infoset", "history")


def env(**kwargs) -> AECEnv:
    """``raw_env(**kwargs)`` inside PettingZoo's TerminateIllegal (reward -1),
    AssertOutOfBounds and OrderEnforcing wrappers. The outermost one first checks the
    action's type and range: an id that is not an int (a numpy integer is one; a bool, a
    float, an array are not) or is out of ``0..num_actions-1``, or ``None`` from an agent
    that is not done, raises ``IllegalActionError`` naming it and the ids allowed (before
    PettingZoo's wrappers see it: their assertion or numpy's errors would say less); an id
    in range that is not legal now ends the episode with reward -1 (TerminateIllegal)."""
    e = raw_env(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = _OrderEnforcingWrapper(e)
    return e


class _OrderEnforcingWrapper(wrappers.OrderEnforcingWrapper):
    """PettingZoo's ``OrderEnforcingWrapper`` whose ``last()`` raises ``raw_env``'s
    ``RuntimeError`` (the episode is over, call reset()) once every agent is done, where
    PettingZoo's own ``last()`` raises a bare ``KeyError``."""

    def step(self, action) -> None:
        if self._has_reset and self.agents:
            action = self._checked_id(action)
        super().step(action)

    def _checked_id(self, action):
        """``action`` as a Python int in ``0..num_actions-1`` (``None`` for a done agent),
        else ``IllegalActionError`` naming it and what is allowed."""
        raw = self.unwrapped
        agent = raw.agent_selection
        n = raw.num_actions
        done = raw.terminations.get(agent, False) or raw.truncations.get(agent, False)
        seat = raw._seat.get(agent, -1)
        value = None
        if action is not None and not isinstance(action, (bool, np.bool_)) and hasattr(action, "__index__"):
            try:
                value = action.__index__()
            except TypeError:  # a numpy array of more than one value
                pass
        if action is None:
            if done:
                return None
            why = "None is only the action of an agent that is done"
        elif value is None:
            why = f"an action id must be an int 0..{n - 1} (a numpy integer too), got a {type(action).__name__}"
        elif 0 <= value < n:
            return value
        else:
            why = f"out of range 0..{n - 1} (the ids of this game's actions)"
        legal = () if done or raw.game is None or raw.game.is_deal_over else tuple(raw.game.legal_actions())
        raise IllegalActionError(f"illegal action {action!r} by seat {seat} ({agent}): {why}", action, seat, legal)

    def last(self, observe: bool = True):
        try:
            return super().last(observe)  # the usual path, checked only when it fails
        except KeyError:
            if not (self._has_reset and not self.agents):
                raise
        self.unwrapped._require_agents("last")  # outside the except: no KeyError chained


def observation_space_for(obs_mode: str, rules: Rules | None = None) -> spaces.Box:
    """The ``observation`` Box of an ``obs_mode`` (``"infoset"`` or ``"history"``) under
    ``rules`` (default: the classic game; coinche observations are longer; at two or
    three seats ``observation.cutthroat_obs_size(rules)`` floats). Raises ``ValueError``
    for another mode, or ``"history"`` at two or three seats (four-seat only)."""
    rules = rules or Rules()
    if obs_mode == "infoset":
        return spaces.Box(low=0.0, high=np.inf, shape=(game_of(rules).obs_size,), dtype=np.float32)
    variant = game_of(rules)
    if obs_mode == "history" and variant.history_shape is None:
        raise ValueError(f"obs_mode='history' is four-seat only; at {variant.players} seats use obs_mode='infoset' "
                         "(observation.encode_cutthroat)")
    if obs_mode == "history":
        return spaces.Box(low=-1, high=variant.num_actions - 1, shape=variant.history_shape, dtype=np.int16)
    raise ValueError(f"obs_mode must be one of {OBS_MODES}, got {obs_mode!r}")


def deal_reward(state: GameState, team: int, reward_mode: str) -> float:  # four seats
    """Reward of ``team`` (0/1) for the deal just finished in ``state`` (0 for a void
    deal): ``belote_env.driver.point_reward`` of its point difference."""
    score = state.deal_score
    return 0.0 if score is None else point_reward(score.difference(team), reward_mode, reward_scale(state.rules))


def _check_choice(name: str, value, allowed) -> None:
    if value not in allowed:
        raise ValueError(f"{name} must be one of {allowed}, got {value!r}")


class raw_env(AECEnv):
    """The unwrapped belote_v0 AEC environment (see the module docstring)."""

    metadata = {
        "render_modes": ["ansi", "human", "rgb_array"],
        "name": "belote_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(self, rules: Rules | Mapping[str, Any] | str | None = None, episode: str = "deal",
                 obs_mode: str = "infoset", reward_mode: str = "scaled", render_mode: str | None = None,
                 render_seat: int = 0, **rule_overrides: Any):
        super().__init__()
        check_keywords("belote_v0", raw_env.__init__, rule_overrides)
        self.rules = load_rules(rules, **rule_overrides)
        _check_choice("episode", episode, EPISODES)
        _check_choice("obs_mode", obs_mode, OBS_MODES)
        _check_choice("reward_mode", reward_mode, REWARD_MODES)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, got {render_mode!r}")
        #: the game the rules play (``games.Game``: its table, engine, encoder, action count)
        self.variant = variant = game_of(self.rules)
        #: seats at the table (4, or 2 / 3 for the games of TWO_THREE.md)
        self.n_seats = n = variant.players
        if not is_seat(render_seat, n):
            raise ValueError(f"render_seat must be a seat 0..{n - 1} (an int), got {render_seat!r}")
        render_seat = int(render_seat)
        self.episode, self.obs_mode, self.reward_mode = episode, obs_mode, reward_mode
        self.render_mode = render_mode
        self.render_seat = render_seat
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agents = self.possible_agents[:]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        n_actions = self.num_actions = variant.num_actions
        obs_space = spaces.Dict({
            "observation": observation_space_for(obs_mode, self.rules),
            "action_mask": spaces.Box(low=0, high=1, shape=(n_actions,), dtype=np.int8),
        })
        act_space = spaces.Discrete(n_actions)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self.obs_encoder_version = variant.obs_version if obs_mode == "infoset" else HISTORY_ENCODER_VERSION
        self._encode = variant.encode if obs_mode == "infoset" else variant.encode_history
        self._rng: random.Random | None = None
        #: the engine state of the game in progress (holds every hand: not for agents)
        self.game: GameState | None = None

    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Deal a new hand (or start a new game). ``seed`` reseeds the env's own RNG
        (dealer and decks); without it the RNG continues (or, on the first reset, is
        seeded from the OS)."""
        if seed is not None:
            self._rng = seeded_rng(seed)
        elif self._rng is None:
            self._rng = random.Random()
        self.game = self.variant.new_state(rng=self._rng, dealer=self._rng.randrange(self.n_seats),
                                           single_deal=self.episode == "deal")
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.current_seat]
        if self.render_mode == "human":
            self.render()

    def _require_game(self, method: str) -> GameState:
        if self.game is None:
            raise RuntimeError(f"call reset() before {method}()")
        return self.game

    def _require_agents(self, method: str) -> None:
        """Raise ``RuntimeError`` once every agent is done (``env.agents`` is empty): the
        episode is over (PettingZoo's AEC loop stops there)."""
        if not self.agents:
            raise RuntimeError(f"{method}() called after the episode is over: every agent is done (env.agents is "
                               "empty); call reset() to start a new episode")

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        st = self._require_game("observe")
        if agent not in self._seat:
            raise ValueError(f"unknown agent {agent!r}: expected one of {self.possible_agents}")
        info = st.information_set(self._seat[agent])
        return {"observation": self._encode(info),
                "action_mask": action_mask(info.legal_actions, np.zeros(self.num_actions, dtype=np.int8))}

    def last(self, observe: bool = True):
        self._require_game("last")
        self._require_agents("last")
        return super().last(observe)

    def step(self, action) -> None:
        self._require_game("step")
        self._require_agents("step")
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
            game_end, truncated = episode_end(st, self.episode)  # truncated: MAX_VOID_DEALS voids in a row
            for a in self.agents:
                if not self.variant.has_partners:
                    self._cutthroat_deal_end(a, score, game_end)
                    continue
                team = TEAM_OF[self._seat[a]]
                them = other_team(team)
                if self.reward_mode != "win" or self.episode == "deal":
                    self.rewards[a] = seat_reward(score, self._seat[a], self.reward_mode, self.rules)
                elif game_end:
                    self.rewards[a] = game_win_reward(st.winner, self._seat[a])
                self.infos[a] = {
                    "deal_points": (0, 0) if score is None else (score.points[team], score.points[them]),
                    "outcome": "void" if score is None else score.outcome,
                    "scores": (st.scores[team], st.scores[them]),
                }
            self._accumulate_rewards()
            if game_end or truncated:
                if truncated:
                    self.truncations = dict.fromkeys(self.agents, True)
                else:
                    self.terminations = dict.fromkeys(self.agents, True)
                # next agent in seat order; PettingZoo's dead-step logic takes it from here
                seat = self._seat[agent]
                self.agent_selection = self.possible_agents[self.variant.table.next[seat]]
            else:
                st.next_deal()
                self.agent_selection = self.possible_agents[st.current_seat]
        else:
            self.agent_selection = self.possible_agents[st.current_seat]
        if self.render_mode == "human":
            self.render()

    def _cutthroat_deal_end(self, agent: str, score, game_end: bool) -> None:
        """Two or three seats: ``agent``'s reward and info for the deal just over (its own
        score, TWO_THREE.md §2.9, §3; ``score`` None for a void deal)."""
        st, seat, n = self.game, self._seat[agent], self.n_seats
        if self.reward_mode != "win" or self.episode == "deal":
            self.rewards[agent] = seat_reward(score, seat, self.reward_mode, self.rules)
        elif game_end:
            self.rewards[agent] = game_win_reward(st.winner, seat, self.rules)
        order = [(seat + i) % n for i in range(n)]  # me first, then in playing order
        self.infos[agent] = {
            "deal_points": tuple(0 if score is None else score.points[s] for s in order),
            "outcome": "void" if score is None else score.outcome,
            "scores": tuple(st.scores[s] for s in order),
        }

    def render(self) -> str | np.ndarray | None:
        """``render_seat``'s view: text (``"ansi"``), printed (``"human"``) or an RGB
        array (``"rgb_array"``, uint8 ``(H, W, 3)``)."""
        if self.render_mode is None:
            from gymnasium import logger
            logger.warn("render() called without a render_mode")
            return None
        info = self._require_game("render").information_set(self.render_seat)
        return render_view(info, self.render_mode)

    def close(self) -> None:
        pass
