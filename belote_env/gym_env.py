"""A single-agent Gymnasium view of Belote: one seat (or one team) learns, the others are
policies passed in.

    import gymnasium, belote_env
    env = gymnasium.make("Belote-v0", opponents="easy")  # or BeloteGymEnv(opponents=my_policy)
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(env.unwrapped.action_masks().argmax())

The learner acts at its own seat(s) only; between its decisions the env plays the other
seats with their policies. A reward is given at the step that ends a deal (the learner's
last decision, or ``step`` returning after the other seats finished the deal), so the
learner's team reward arrives even when another seat plays the last card.

Observation: ``Box(0, inf, (618,), float32)`` (``obs_mode="infoset"``) or
``Box(-1, 111, (65, 2), int16)`` (``"history"``) for the classic game; in coinche
(``rules="coinche"``) ``(1141,)`` and ``(309, 2)`` (``observation.obs_size(rules)``,
``observation.history_shape(rules)``); the layouts are in ``belote_env.env``.
Action: ``Discrete(112)`` (the flat action table; ``Discrete(412)`` for coinche rules with a
générale or bids above 160, ``actions.num_actions(rules)``). ``action_masks()`` (for
sb3-contrib's MaskablePPO) and ``info["action_mask"]`` give the legal ids as a bool / int8
vector of shape ``(num_actions,)``. An illegal action (``illegal_action="penalize"``, the default, as
PettingZoo's ``env()``) ends the episode with reward -1 and ``info["illegal_action"]``
naming the id, the seat and the legal ids, with a warning; with ``"raise"`` it raises
``IllegalActionError`` and leaves the state unchanged. ``step`` takes an int, a numpy
integer, or a 0-d / size-1 numpy integer array (as SB3 passes); an array of any other size
raises ``ValueError`` and any other type (a str, a float, a bool, None, a numpy array of
another dtype) raises ``TypeError``, in either mode, leaving the state unchanged. A policy of
another seat that raises, or returns something that is not one of its legal ids (or whose
conversion to an int raises), raises ``OpponentPolicyError`` and ends the episode. Its message
names the seat, the policy and only the TYPE of what the policy returned or raised (``"returned
a str"``, ``"returned an int"``, ``"returned a numpy array"``, ``"raised KeyError"``): never a
value, a shape, that seat's legal ids or the policy's exception text (which is not chained),
as each could reveal its hidden hand (RULES.md §11). A ``KeyboardInterrupt`` / ``SystemExit``
(any ``BaseException``) from that policy propagates unchanged, also ending the episode. Once an
opponent failed, ``step()`` and ``action_masks()`` raise ``RuntimeError`` until ``reset()``.

Arguments:
    opponents: the policy of every seat the learner does not play: a ``Policy`` (anything
        with ``act(info) -> id``), a callable ``f(info) -> id``, ``None`` (uniformly random
        legal actions: ``belote_env.driver.RandomPolicy``, reseeded each episode; the
        default), or a dict ``{seat: policy}`` giving one per seat (every seat the learner
        may leave to it: all four with ``learner_seat="rotate"``). Checked at construction
        (``ValueError``). Policies named by a tier name (``"random"``, ``"easy"``,
        ``"normal"``...), a model folder or a policy factory are built by ``policies``:
        ``gymnasium.make("Belote-v0", opponents="normal")`` makes a
        ``policies.gym.NamedGymEnv``, this env with names accepted wherever a policy is
        (``policies.make_policy``; checked at construction, built at each ``reset``).
    learner: ``"seat"`` (one seat learns; default) or ``"team"`` (both seats of a team).
    learner_seat: the learner's seat 0..3, or ``"rotate"`` (default: a new seat drawn
        from the env's RNG each episode).
    partner: with ``learner="seat"`` and ``opponents`` not a dict, the partner's policy
        (default: same as ``opponents``); anywhere else it would be ignored, so it raises
        ``ValueError``.
    rules, episode, obs_mode, reward_mode, **rule_overrides: as for ``belote_v0``
        (``episode="game"``: ``truncated`` True after ``driver.MAX_VOID_DEALS`` deals in a
        row passed out).
    illegal_action: ``"penalize"`` (default) or ``"raise"``.
    render_mode: ``"ansi"``, ``"human"`` or ``"rgb_array"`` (the learner's view).

Two and three players (``rules="seed001_2p"`` / ``"seed001_3p"``, or any rules with
``players`` 2 or 3; TWO_THREE.md): one seat learns (``learner="seat"``; ``"team"`` and
``partner`` raise ``ValueError``: there are no fixed teams) against the other one or two
seats' policies (a ``Policy`` or callable reading an ``InfoSet``, or
``None``: random legal actions; a dict needs a policy for every seat the learner may
leave: seats 0..n-1 with ``learner_seat="rotate"``). ``learner_seat`` is a seat 0..n-1 or
``"rotate"``. Observation ``Box(0, inf, (716,) or (902,), float32)``
(``observation.encode_cutthroat``; ``obs_mode="history"`` raises ``ValueError``),
action ``Discrete(414)``; the reward is the learner's own (``driver.seat_reward``: its
deal points less the mean of the other seats'; ``"win"`` with ``episode="game"``: +1 if it
wins the game, else -1). ``info["deal_points"]`` lists every seat's deal points, the
learner's first, then in playing order.
"""

from __future__ import annotations

import operator
import random
from typing import Any, Callable, Mapping

import gymnasium
import numpy as np
from gymnasium import spaces

from .actions import NUM_ACTIONS
from .config import Rules, check_keywords, load_rules
from .driver import REWARD_MODES, RandomPolicy, episode_end, game_win_reward, play_until, seat_reward
from .env import EPISODES, OBS_MODES, observation_space_for
from .game import GameState, IllegalActionError
from .games import game_of
from .infoset import InfoSet
from .observation import action_mask
from .render import render_view
from .table import TEAM_OF, is_seat, other_team, partner_of

__all__ = ["BeloteGymEnv", "OpponentPolicyError"]

PolicySpec = Any  # Policy | Callable[[InfoSet], int] | None (names too in policies.gym.NamedGymEnv)

_ACTION_FORM = (f"an action id 0..{NUM_ACTIONS - 1}: an int, a numpy integer, or a 0-d / size-1 numpy "
                "integer array")


def _action_form(n: int = NUM_ACTIONS) -> str:
    """``_ACTION_FORM`` for an action space of ``n`` ids (412 under coinche rules with the
    extended ids)."""
    return _ACTION_FORM if n == NUM_ACTIONS else _ACTION_FORM.replace(f"0..{NUM_ACTIONS - 1}", f"0..{n - 1}", 1)


class OpponentPolicyError(RuntimeError):
    """A policy of a seat the learner does not play raised an ``Exception``, or returned
    something that is not one of its legal action ids (or whose conversion to an int raised).
    The message names the seat, the policy and the TYPE of what it returned or raised only:
    never a value (a str, an id, any number), an array's shape, that seat's legal ids nor the
    policy's exception message, any of which could reveal a card of its hidden hand that the
    learner must not learn (RULES.md §11); the policy's exception is not chained
    (``__cause__`` and ``__context__`` are ``None``). Attributes: ``seat``, ``policy`` (its
    name), ``action`` (always ``None``: what was returned is not kept). The episode is over:
    call ``reset()``."""

    def __init__(self, message: str, seat: int, policy: str):
        super().__init__(message)
        self.seat, self.policy, self.action = seat, policy, None


def _scalar_action(action: Any, n: int = NUM_ACTIONS) -> Any:
    """A numpy array ``action`` of size 1 as its numpy scalar (SB3 passes those); raises
    ``ValueError`` for an array of any other size (the message names the ids 0..``n - 1``).
    Other values pass unchanged."""
    if isinstance(action, np.ndarray):
        if action.size != 1:
            raise ValueError(f"an action must be {_action_form(n)}; got an array of shape {action.shape}")
        return action.reshape(-1)[0]
    return action


def _action_id(action: Any, n: int = NUM_ACTIONS) -> int:
    """``action`` as a Python int: an int, a numpy integer, an object with ``__index__``, or
    a numpy array of size 1 and integer dtype. Raises ``ValueError`` for an array of another
    size, ``TypeError`` for any other type (a bool included), naming it. The range is not
    checked (the engine says an id out of range is illegal); ``n``, the size of the action
    space, only goes into the messages. An ``__index__`` that raises anything but
    ``TypeError`` propagates."""
    value = _scalar_action(action, n)
    if isinstance(action, np.ndarray) and not np.issubdtype(action.dtype, np.integer):
        pass  # an array of floats, bools, objects...: TypeError below
    elif not isinstance(value, (bool, np.bool_, np.floating, np.complexfloating)) and hasattr(value, "__index__"):
        try:
            return int.__index__(operator.index(value))  # a plain int, even from an int subclass
        except TypeError:
            pass
    raise TypeError(f"an action must be {_action_form(n)}; got {_type_name(action)}")


def _type_name(value: Any) -> str:
    """``value``'s type in words: ``"a str"``, ``"a numpy float64"``, ``"a numpy array of dtype
    float64"``."""
    if isinstance(value, np.ndarray):
        return f"a numpy array of dtype {value.dtype}"
    if value is None:
        return "None"
    t = type(value)
    return f"a {'numpy ' if t.__module__ == 'numpy' else ''}{t.__name__}"


def _describe(value: Any) -> str:
    """What the message of ``OpponentPolicyError`` may say of a value an opponent policy
    returned: its type only, never its value, length or shape (a str naming a card, an id,
    a bitmask, a card + 112, an array as long as that seat's legal ids... could each reveal
    that seat's hidden hand, RULES.md §11). Subclasses are named by their base: ``"a str"``
    for a ``str`` subclass or a ``numpy.str_``, ``"an int"`` for an ``int`` subclass."""
    try:
        if value is None:
            return "None"
        if isinstance(value, (bool, np.bool_)):
            return "a bool"
        if isinstance(value, str):
            return "a str"
        if isinstance(value, (bytes, bytearray)):
            return "a bytes"
        if isinstance(value, int):
            return "an int"
        if isinstance(value, np.ndarray):
            return "a numpy array"
        return _type_name(value)
    except Exception:  # an object whose __class__ raises...
        return "an object of another type"


def _describe_exception(e: BaseException) -> str:
    """The type of an exception an opponent policy raised, never its message (RULES.md §11)."""
    try:
        return type(e).__name__
    except Exception:
        return "an exception"


class BeloteGymEnv(gymnasium.Env):
    """Single-agent Belote (see the module docstring)."""

    metadata = {"render_modes": ["ansi", "human", "rgb_array"], "render_fps": 1}

    def __init__(self, opponents: PolicySpec | Mapping[int, PolicySpec] = None, learner: str = "seat",
                 learner_seat: int | str = "rotate", partner: PolicySpec | None = None,
                 rules: Rules | Mapping[str, Any] | str | None = None, episode: str = "deal",
                 obs_mode: str = "infoset", reward_mode: str = "scaled", render_mode: str | None = None,
                 illegal_action: str = "penalize", **rule_overrides: Any):
        check_keywords(type(self).__name__, BeloteGymEnv.__init__, rule_overrides)
        rules = load_rules(rules, **rule_overrides)
        #: the game the rules play (``games.Game``: its table, engine, encoder, action count)
        self.variant = variant = game_of(rules)
        #: seats at the table (4, or 2 / 3 for the games of TWO_THREE.md)
        self.n_seats = n = variant.players
        for name, value, allowed in (("learner", learner, ("seat", "team")), ("episode", episode, EPISODES),
                                     ("obs_mode", obs_mode, OBS_MODES), ("reward_mode", reward_mode, REWARD_MODES),
                                     ("illegal_action", illegal_action, ("penalize", "raise"))):
            if value not in allowed:
                raise ValueError(f"{name} must be one of {allowed}, got {value!r}")
        if not variant.has_partners and learner == "team":
            raise ValueError(f"learner='team' needs fixed teams: at {n} seats every seat plays for itself "
                             "(TWO_THREE.md); use learner='seat'")
        if not (learner_seat == "rotate" if isinstance(learner_seat, str) else is_seat(learner_seat, n)):
            raise ValueError(f"learner_seat must be a seat 0..{n - 1} (an int) or 'rotate', "
                             f"got {learner_seat!r}")
        if not isinstance(learner_seat, str):
            learner_seat = int(learner_seat)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, got {render_mode!r}")
        self.rules = rules  # before the policies: a subclass checks them against the rules
        self._check_policies(opponents, learner, learner_seat, partner)
        self.learner, self.learner_seat, self.episode = learner, learner_seat, episode
        self.obs_mode, self.reward_mode, self.render_mode = obs_mode, reward_mode, render_mode
        self.illegal_action = illegal_action
        self._ended_by_illegal = False
        self._opponent_failed = False  # an opponent policy failed (or was interrupted): call reset()
        self._specs = opponents if isinstance(opponents, Mapping) else None
        self._opponents, self._partner = opponents, partner
        self.observation_space = observation_space_for(obs_mode, self.rules)
        self.num_actions = variant.num_actions  # 112; 412 with the coinche extended ids; 414 at 2 / 3 seats
        self.action_space = spaces.Discrete(self.num_actions)
        self._encode = variant.encode if obs_mode == "infoset" else variant.encode_history
        self._rng: random.Random | None = None
        self._policies: dict[int, Callable[[InfoSet], int]] = {}
        self.game: GameState | None = None
        self.seats: tuple[int, ...] = ()

    #: what a seat policy may be, for the messages of ``_check_spec``
    _POLICY_KINDS = "a Policy, a callable(info) -> action id or None (random legal actions)"

    def _check_spec(self, spec: PolicySpec, what: str) -> None:
        """Raise ``ValueError`` unless ``spec`` can become a seat policy (``_resolve``). A
        subclass that accepts more (``policies.gym.NamedGymEnv``: names) overrides it."""
        if isinstance(spec, str):
            raise ValueError(f"{what}: a policy named {spec!r} is built by policies: use gymnasium.make('Belote-v0', "
                             f"...) or policies.gym.NamedGymEnv, or pass the policy object")
        if not (spec is None or callable(getattr(spec, "act", None)) or callable(spec)):
            raise ValueError(f"{what} must be a seat policy: {self._POLICY_KINDS}, got {spec!r}")

    def _resolve(self, spec: PolicySpec, seed: int) -> Callable[[InfoSet], int]:
        """The ``act`` function of the seat policy ``spec`` for an episode; ``seed`` seeds a
        policy built here (``None``: a ``RandomPolicy(seed)``)."""
        if spec is None:
            return RandomPolicy(seed).act
        if callable(getattr(spec, "act", None)):
            return spec.act
        return spec

    @staticmethod
    def _spec_name(spec: PolicySpec) -> str:
        if spec is None:
            return RandomPolicy.name
        if isinstance(spec, str):
            return spec
        name = getattr(spec, "name", None)
        if isinstance(name, str):
            return name
        return getattr(spec, "__qualname__", type(spec).__name__)

    def _check_policies(self, opponents, learner: str, learner_seat: int | str, partner) -> None:
        """Raise ``ValueError`` for a seat policy that cannot be built, a dict of
        ``opponents`` that lacks a seat the learner may leave to it, or a ``partner`` that
        would be ignored."""
        seats = range(self.n_seats)
        if isinstance(opponents, Mapping):
            for seat, spec in opponents.items():
                if not is_seat(seat, self.n_seats):
                    raise ValueError(f"opponents dict keys must be seats 0..{self.n_seats - 1}, got {seat!r} "
                                     "(a seat is an int)")
                self._check_spec(spec, f"opponents[{seat}]")
            firsts = seats if learner_seat == "rotate" else (learner_seat,)
            needed = {s for f in firsts for s in seats if s != f and (learner == "seat" or s != partner_of(f))}
            missing = sorted(needed - set(opponents))
            if missing:
                raise ValueError(f"opponents dict lacks a policy for seat(s) {missing}: with learner={learner!r} and "
                                 f"learner_seat={learner_seat!r} it needs one for each of seats {sorted(needed)}")
        else:
            self._check_spec(opponents, "opponents")
        if partner is not None:
            if not self.variant.has_partners:
                raise ValueError(f"partner has no meaning at {self.n_seats} seats (no fixed teams, TWO_THREE.md): "
                                 "give the other seats' policies in opponents and leave partner=None")
            if learner == "team":
                raise ValueError("partner is ignored with learner='team' (both seats of the team learn): "
                                 "leave partner=None")
            if isinstance(opponents, Mapping):
                raise ValueError("partner is ignored when opponents is a dict {seat: policy}: give the "
                                 "partner's seat its policy in that dict and leave partner=None")
            self._check_spec(partner, "partner")

    # --------------------------------------------------------------------------------
    def _build_policies(self, seed: int) -> None:
        self._policies = {}
        self._policy_names: dict[int, str] = {}
        for seat in range(self.n_seats):
            if seat in self.seats:
                continue
            if self._specs is not None:
                spec = self._specs[seat]  # every needed seat was checked in __init__
            elif self.learner == "seat" and self._partner is not None and seat == partner_of(self.seats[0]):
                spec = self._partner
            else:
                spec = self._opponents
            self._policies[seat] = self._resolve(spec, seed + seat)
            self._policy_names[seat] = self._spec_name(spec)

    def _decide(self, state: GameState, info: InfoSet, policy) -> int:
        """``driver.play_until``'s ``decide``: the checked action of the seat to act."""
        return self._opponent_action(state.current, info)

    def _opponent_action(self, seat: int, info: InfoSet | None = None) -> int:
        """The action of the policy at ``seat`` (not the learner's). Raises
        ``OpponentPolicyError`` when the policy raises an ``Exception`` or returns something
        that is not one of its legal ids (or whose conversion raises), describing only the
        type of what it returned or raised (RULES.md §11); a ``BaseException`` that is not an
        ``Exception`` (``KeyboardInterrupt``...) propagates. The caller (``_play_others``)
        leaves the episode marked over in every one of these cases."""
        st = self.game
        info = st.information_set(seat) if info is None else info
        name = self._policy_names[seat]
        # the moment in public terms: a count of every action would count a pending DECLARE or
        # ANNOUNCE_BELOTE, which shows a hidden hand's contents until its card is played (§6, §11)
        moment = (f"bid {len(info.auction) + 1}" if info.phase == 0
                  else f"trick {len(info.tricks) + 1}, card {len(info.trick) + 1}")
        where = f"opponent policy {name!r} at seat {seat} (deal {st.deal_number}, {moment})"
        raised = None
        try:
            action = self._policies[seat](info)
        except Exception as e:
            raised = _describe_exception(e)
            del e  # neither chained nor kept: its message could name that seat's cards
        if raised is not None:  # raised outside the except block: no __context__ either
            raise OpponentPolicyError(
                f"{where} raised {raised} (its message is not shown: it could reveal that seat's hidden cards, "
                "RULES.md §11); the episode is over, call reset()", seat, name)
        try:
            a = _action_id(action, self.num_actions)
            legal = a in info.legal_actions
        except Exception:  # TypeError, ValueError, or anything an __index__ raises
            legal = False
        if not legal:
            raise OpponentPolicyError(
                f"{where} returned {_describe(action)}, which is not one of its legal action ids (what it returned "
                "is not shown: it could reveal that seat's hidden cards, RULES.md §11); a seat policy must return "
                f"one of info.legal_actions (an int 0..{self.num_actions - 1}). The episode is over, call reset()",
                seat, name)
        return a

    def _play_others(self) -> float:
        """Play the other seats until the learner must act or the episode ends; returns the
        learner team's reward earned meanwhile. Anything raised meanwhile (an opponent
        policy's failure, a ``KeyboardInterrupt``) leaves the episode marked over: another
        seat may be to act, whose legal ids ``action_masks()`` must not give."""
        self._opponent_failed = True  # until the other seats are done
        reward = self._play_others_until_learner()
        self._opponent_failed = False
        return reward

    def _play_others_until_learner(self) -> float:
        st = self.game
        me = self.seats[0]
        reward = 0.0
        while True:
            if st.is_deal_over:
                if self.reward_mode != "win" or self.episode == "deal":
                    reward += seat_reward(st.deal_score, me, self.reward_mode, self.rules)
                terminated, truncated = episode_end(st, self.episode)
                if terminated and self.reward_mode == "win" and self.episode == "game":
                    reward += game_win_reward(st.winner, me, self.rules)
                if terminated or truncated:  # truncated: MAX_VOID_DEALS passed out in a row
                    return reward
                st.next_deal()
                continue
            if st.current in self.seats:
                return reward
            play_until(st, self._policies, self.seats, self._decide)

    def _obs_info(self):
        st = self.game
        seat = st.current if not st.is_deal_over and st.current in self.seats else self.seats[0]
        info = st.information_set(seat)
        obs = self._encode(info)
        mask = action_mask(info.legal_actions, np.zeros(self.num_actions, dtype=np.int8))
        extra = {"action_mask": mask, "seat": seat}
        if st.deal_score is not None and st.is_deal_over and not self.variant.has_partners:
            n = self.n_seats
            extra["deal_points"] = tuple(st.deal_score.points[(seat + i) % n] for i in range(n))
        elif st.deal_score is not None and st.is_deal_over:
            team = TEAM_OF[seat]
            extra["deal_points"] = (st.deal_score.points[team], st.deal_score.points[other_team(team)])
        return obs, extra

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(int(seed))
        elif self._rng is None:
            self._rng = random.Random(int(self.np_random.integers(1 << 62)))
        first = self._rng.randrange(self.n_seats) if self.learner_seat == "rotate" else self.learner_seat
        self.seats = (first, partner_of(first)) if self.learner == "team" else (first,)
        self._build_policies(self._rng.randrange(1 << 30))
        self.game = self.variant.new_state(rng=self._rng, dealer=self._rng.randrange(self.n_seats),
                                           single_deal=self.episode == "deal")
        self._ended_by_illegal = False
        self._play_others()
        if episode_end(self.game, self.episode)[0]:
            # every other seat passed and the learner never acted: deal again
            return self.reset(options=options)
        obs_info = self._obs_info()
        if self.render_mode == "human":
            self.render()
        return obs_info

    def _check_opponents_done(self, what: str) -> None:
        if self._opponent_failed or (not self.game.is_deal_over and self.game.current not in self.seats):
            raise RuntimeError(f"the episode is over: an opponent policy failed or was interrupted; call reset() "
                               f"before {what}")

    def step(self, action):
        st = self.game
        if st is None:
            raise RuntimeError("call reset() before step()")
        self._check_opponents_done("step()")
        if self._ended_by_illegal or any(episode_end(st, self.episode)):
            raise RuntimeError("the episode is over: call reset()")
        # ValueError (array of several values) / TypeError, in either mode
        action = _action_id(action, self.num_actions)
        try:
            st.apply(action)  # raises IllegalActionError naming id, seat and legal ids
        except IllegalActionError as e:
            if self.illegal_action == "raise":
                raise
            gymnasium.logger.warn(f"{e}; the episode ends with reward -1")
            self._ended_by_illegal = True
            obs, info = self._obs_info()
            info["illegal_action"] = str(e)
            if self.render_mode == "human":
                self.render()
            return obs, -1.0, True, False, info
        reward = self._play_others()
        terminated, truncated = episode_end(st, self.episode)
        obs, info = self._obs_info()
        if self.render_mode == "human":
            self.render()
        return obs, reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """bool ``(num_actions,)``: the learner's legal ids now (all False once the episode ended).
        Raises ``RuntimeError`` before the first ``reset()``, and after an opponent policy
        failed or was interrupted (call ``reset()``)."""
        st = self.game
        if st is None:
            raise RuntimeError("call reset() before action_masks()")
        self._check_opponents_done("action_masks()")
        if st.is_deal_over or self._ended_by_illegal:
            return np.zeros(self.num_actions, dtype=bool)
        return action_mask(st.legal_actions(), np.zeros(self.num_actions, dtype=np.int8)).astype(bool)

    def render(self):
        """The learner's view (``render_view``: text for ``"ansi"``, printed for ``"human"``, an
        image array for ``"rgb_array"``); None without a ``render_mode``. Raises
        ``RuntimeError`` before the first ``reset()``."""
        if self.render_mode is None:
            return None
        if self.game is None:
            raise RuntimeError("call reset() before render()")
        info = self.game.information_set(self.seats[0])
        return render_view(info, self.render_mode)
