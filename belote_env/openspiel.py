"""Belote as an OpenSpiel game: ``python_belote``, every table and auction of the rules pages.

    import pyspiel
    import belote_env.openspiel  # registers python_belote
    game = pyspiel.load_game("python_belote(rules=coinche)")
    state = game.new_initial_state()
    pyspiel.random_sim_test(game, num_sims=10, serialize=False, verbose=False)

Needs OpenSpiel (``pip install -e ".[openspiel]"``: the ``open_spiel`` wheel); importing this
module registers the game with ``pyspiel.register_game``.

Parameters (``pyspiel.load_game("python_belote(rules=seed001_3p,episode=game)")`` or
``pyspiel.load_game("python_belote", {"rules": "coinche", "target": 1500})``):

=================== ====================================================================
``rules``           a rules preset (``config.preset_names()``: ``seed004`` ... ``coinche``,
                    ``coinche_bga`` ..., ``seed001_2p``, ``seed001_3p``); ``""`` (the
                    default) is ``Rules()``, seed 004's classic game
``episode``         ``"deal"`` (default: one deal, a void deal ends it with 0) or
                    ``"game"`` (deals to the target, RULES.md §8; it ends, the returns
                    as they stand, at the 100th deal in a row passed out:
                    ``driver.MAX_VOID_DEALS``)
``reward``          ``"scaled"`` (default), ``"points"`` or ``"win"``: the envs'
                    ``reward_mode`` (``driver.seat_reward``; ``"win"`` in a game episode:
                    +1 / -1 at its end, ``driver.game_win_reward``)
every rule option   overrides the preset (RULES.md, COINCHE.md §7, TWO_THREE.md §4):
                    text options as text (``belote=optional``), numbers as ints
                    (``target=1500``, ``0`` for none), yes / no options as ``1`` / ``0``
                    (``carres=1``; OpenSpiel's ``true`` is refused by its type check),
                    ``contract_counts_bonuses`` ``0``, ``1`` or ``2``
                    (``"declarations_only"``); ``-1`` or ``""`` (the defaults): as the
                    preset says
=================== ====================================================================

The game: ``rules.players`` players (seats 0..n-1 in playing order; teams 0+2 and 1+3 at
four seats), sequential, imperfect information, explicit chance: a chance node draws the
first dealer (``players`` outcomes), then each deal's deck card by card (32 chance nodes,
each outcome a card id not drawn yet, uniform; the deck order of ``game.GameState``:
``dealing``). Actions are the flat action ids of ``belote_env.actions``
(``num_distinct_actions`` = 112, 412 or 414: ``actions.num_actions(rules)``), the legal ones
``GameState.legal_actions()``, ascending. Rewards come at the step that ends a deal (or, for
``"win"`` in a game episode, the game); returns are their sum; zero-sum, except three seats
with ``reward=win`` (each seat the sign of its own result, or +1 to a game's winner and -1
to each other seat: general-sum).
``rewards()`` keeps a deal's reward through the chance nodes of the next deck, until the next
decision (where OpenSpiel's loops read it).

Observations (RULES.md §11: a seat's strings and tensors depend only on its information
set; ``tests/test_openspiel.py`` swaps the hidden cards of the other seats and finds them
equal):

* ``information_state_tensor`` and ``observation_tensor``: the project's observation of the
  seat's information set (``games.Game.encode``: 618 floats classic, 1141 coinche, 716 /
  902 at two / three seats), zeros until the first deck is drawn (while a later deck is
  drawn, the finished deal's view). They summarise the history (the cards each seat has
  played, not their order across tricks): two information states can share a tensor, so an
  algorithm that needs one tensor per information state (tabular or Deep CFR keyed on it)
  should key on ``information_state_string``.
* ``information_state_string``: the seat's cards as dealt, then every field of its
  ``InfoSet`` but the rules (the auction, every card played and by whom, announcements,
  declarations, scores, ...): perfect recall within a deal; across the deals of a game
  episode it keeps the scores and how many deals in a row were passed out
  (``GameState.void_streak``, public, which ends a game episode at ``driver.MAX_VOID_DEALS``;
  a state of ``state_from_infoset`` starts it at 0), not the past deals' play.
  ``observation_string``: the ``InfoSet`` alone.
* ``resample_from_infostate(player, sampler)``: a state of the same information set for
  ``player`` whose hidden cards are drawn by the project's resampler
  (``sampling.sample_hidden_hands``: every public constraint of the history held), the
  same history replayed on the new deck; ``sampler()`` (a uniform [0, 1) draw) seeds it.
  ``resampler(state, player)`` is the same for ``ISMCTSBot.set_resampler``;
  ``state_from_infoset(game, info, rng)`` builds such a state from an ``InfoSet`` alone
  (a bot that is given only its seat's view, ``policies.openspiel``); its
  ``information_state_string`` is the original's given ``dealt=`` (the seat's cards as
  dealt: the seat knows them, its ``InfoSet`` does not keep them).

``state.game_state`` is the engine's ``GameState`` (all hands: for debugging, never for a
seat). Errors: a rule option of a bad value, an unknown preset, episode or reward raise
``config.RuleOptionError`` (a ``ValueError``) naming it and what is allowed (through
``pyspiel.load_game`` too); a parameter OpenSpiel does not know, or of the wrong type (a
yes / no option given as ``true``), is refused by OpenSpiel's own ``SpielError``.
"""

from __future__ import annotations

import random
from dataclasses import fields
from typing import Any

import numpy as np

try:
    import pyspiel
except ImportError as e:  # pragma: no cover - the extra is missing
    raise ImportError("belote_env.openspiel needs OpenSpiel: pip install -e \".[openspiel]\" (the open_spiel "
                      "wheel)") from e

from .actions import ANNOUNCE_BELOTE, DECLARE
from .cards import cards_of
from .config import OPTION_CHOICES, Rules, RuleOptionError, load_rules
from .driver import MAX_VOID_DEALS, REWARD_MODES, episode_end, game_win_reward, reward_scale, seat_reward
from .games import game_of
from .infoset import InfoSet
from .sampling import sample_hidden_hands, world_deck

__all__ = ["SHORT_NAME", "BeloteGame", "BeloteState", "rules_from_params", "params_of", "resample", "resampler",
           "state_from_infoset", "PARAMETERS"]

SHORT_NAME = "python_belote"
NUM_CARDS = 32
#: played deals a game to ``target`` can last per point of the target, at most (a played deal
#: scores at least 81 points for one side; the bound allows four times as many)
#: (``max_game_length``, with ``driver.MAX_VOID_DEALS`` - 1 void deals at most before each
#: played deal and ``MAX_VOID_DEALS`` after the last: a game episode ends at the
#: ``MAX_VOID_DEALS``-th in a row)
_DEALS_PER_POINT = 1 / 20
#: bound on one deal's point difference (``min_utility`` / ``max_utility``): a capot with
#: belote, declarations and a reserve (a two- or three-seat deal's is below it); coinche's
#: capot or générale surcoinched; by the rules' contract mode (the scoring of contracts)
_DEAL_BOUND = {"classic": 2_000, "coinche": 12_000}
_EPISODES = ("deal", "game")
_INT_OPTIONS = ("target", "max_deals", "max_numeric_bid", "players")


def _kind(option: str) -> str:
    """How an option is given as an OpenSpiel parameter: ``"int"``, ``"bool"`` (as 0 / 1),
    ``"ccb"`` (``contract_counts_bonuses``: 0 / 1 / 2) or ``"str"``."""
    if option == "contract_counts_bonuses":
        return "ccb"
    choices = OPTION_CHOICES.get(option)
    if option in _INT_OPTIONS or (choices and all(type(c) is int for c in choices)):
        return "int"
    if choices and all(type(c) is bool for c in choices):
        return "bool"
    return "str"


#: the game's parameters and their defaults (``GameType.parameter_specification``): -1 and
#: ``""`` mean "as the preset says"
PARAMETERS: dict[str, Any] = {"rules": "", "episode": "deal", "reward": "scaled"}
PARAMETERS.update({o: ("" if _kind(o) == "str" else -1) for o in Rules.option_names()})


def rules_from_params(params: dict[str, Any]) -> Rules:
    """The ``Rules`` of the game's parameters (the module docstring). Raises
    ``RuleOptionError`` naming a bad preset, option or value."""
    overrides: dict[str, Any] = {}
    for option in Rules.option_names():
        value = params.get(option, PARAMETERS[option])
        if value == PARAMETERS[option]:
            continue
        kind = _kind(option)
        if kind == "bool":
            if value not in (0, 1):
                raise RuleOptionError(f"OpenSpiel parameter {option}: give 1 (true) or 0 (false), got {value!r}")
            value = bool(value)
        elif kind == "ccb":
            if value not in (0, 1, 2):
                raise RuleOptionError(f"OpenSpiel parameter {option}: give 0 (false), 1 (true) or 2 "
                                      f"(declarations_only), got {value!r}")
            value = (False, True, "declarations_only")[value]
        elif kind == "int" and value == 0 and option in ("target", "max_deals"):
            value = None  # no target / no deal limit
        overrides[option] = value
    preset = params.get("rules", "")
    return load_rules(preset or None, **overrides)


def params_of(rules: Rules, **extra: Any) -> dict[str, Any]:
    """The OpenSpiel parameters of ``rules`` (every option set, as ``rules_from_params``
    reads them), with ``extra`` (``episode``, ``reward``): ``BeloteGame(params_of(rules))``
    plays ``rules``."""
    out: dict[str, Any] = dict(extra)
    for option, value in rules.to_dict().items():
        kind = _kind(option)
        if value is None:
            if option in ("target", "max_deals"):
                out[option] = 0  # none
            continue
        if kind == "bool":
            value = int(value)
        elif kind == "ccb":
            value = {False: 0, True: 1, "declarations_only": 2}[value]
        out[option] = value
    return out


def _deal_bound(variant) -> int:
    return _DEAL_BOUND[variant.rules.contract_mode]


def _deals_bound(rules: Rules) -> int:
    """A bound on the deals of a game episode (``max_game_length``): ``max_deals`` or the
    target's (``_DEALS_PER_POINT``) played deals, and ``MAX_VOID_DEALS`` - 1 void deals
    before each of them and ``MAX_VOID_DEALS`` after the last (the episode ends there)."""
    played = int(rules.target * _DEALS_PER_POINT) + 10
    if rules.max_deals is not None:
        played = min(played, rules.max_deals)
    return played + (MAX_VOID_DEALS - 1) * played + MAX_VOID_DEALS


def _game_type(utility) -> "pyspiel.GameType":
    return pyspiel.GameType(
        short_name=SHORT_NAME, long_name="Belote (classic, coinche, two and three players; belote-rl)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL, chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION, utility=utility,
        reward_model=pyspiel.GameType.RewardModel.REWARDS, max_num_players=4, min_num_players=2,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=PARAMETERS)


_GAME_TYPE = _game_type(pyspiel.GameType.Utility.ZERO_SUM)


class BeloteGame(pyspiel.Game):
    """The OpenSpiel game of ``rules_from_params(params)`` (the module docstring).

    Attributes: ``rules``, ``variant`` (``games.Game``), ``episode``, ``reward_mode``.
    Raises ``RuleOptionError`` for a bad parameter value (the module docstring)."""

    def __init__(self, params: dict[str, Any] | None = None):
        params = {**PARAMETERS, **(params or {})}
        rules = rules_from_params(params)
        variant = game_of(rules)
        episode, reward_mode = params["episode"], params["reward"]
        if episode not in _EPISODES:
            raise RuleOptionError(f"OpenSpiel parameter episode: give one of {', '.join(_EPISODES)}, got {episode!r}")
        if reward_mode not in REWARD_MODES:
            raise RuleOptionError(f"OpenSpiel parameter reward: give one of {', '.join(REWARD_MODES)}, got "
                                  f"{reward_mode!r}")
        if episode == "game" and rules.target is None:
            raise RuleOptionError("OpenSpiel parameter episode=game needs a target (target=0 is none: a game of one "
                                  "played deal, RULES.md §8; use episode=deal)")
        n = rules.players
        win_only = reward_mode == "win" and episode == "game"
        general = reward_mode == "win" and n == 3  # +1 / -1 per seat: not zero-sum at three seats
        bound = _deal_bound(variant)
        if reward_mode == "win":
            top = 1.0
        else:
            points = bound if episode == "deal" else bound + (rules.target or 0) * 2
            top = points / (reward_scale(rules) if reward_mode == "scaled" else 1)
        deal_length = NUM_CARDS + variant.auction_bound + NUM_CARDS + 24  # its draws, the auction, the cards, the steps around
        deals = 1 if episode == "deal" else _deals_bound(rules)
        info = pyspiel.GameInfo(
            num_distinct_actions=variant.num_actions, max_chance_outcomes=NUM_CARDS, num_players=n,
            min_utility=-top, max_utility=top, utility_sum=None if general else 0.0,
            max_game_length=1 + deals * deal_length)
        gtype = _game_type(pyspiel.GameType.Utility.GENERAL_SUM if general else pyspiel.GameType.Utility.ZERO_SUM)
        super().__init__(gtype, info, params)
        # set after the base class: OpenSpiel's wrapper keeps them from here on
        self.rules, self.variant, self.episode, self.reward_mode = rules, variant, episode, reward_mode
        self.win_only = win_only

    def new_initial_state(self) -> "BeloteState":
        """The start of an episode: a chance node draws the first dealer."""
        return BeloteState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> "_Observer":
        """The observer of the information-state and observation tensors and strings."""
        if params:
            raise ValueError(f"python_belote's observer takes no parameters, got {params}")
        if iig_obs_type is not None and (not iig_obs_type.public_info or iig_obs_type.private_info
                                         != pyspiel.PrivateInfoType.SINGLE_PLAYER):
            raise ValueError("python_belote observes one seat's information set: public_info=True and "
                             f"private_info=SINGLE_PLAYER, got {iig_obs_type}")
        perfect_recall = iig_obs_type is None or iig_obs_type.perfect_recall
        return _Observer(self, perfect_recall)


class BeloteState(pyspiel.State):
    """A position of ``BeloteGame``: a chance node (the dealer, a deck being drawn) or a
    seat's decision of the engine's ``GameState`` (``game_state``)."""

    def __init__(self, game: BeloteGame, parts: tuple | None = None):
        super().__init__(game)
        # the game's parts, copied: a state cloned by OpenSpiel may see another wrapper of its game
        self.parts = parts or (game.rules, game.variant, game.episode, game.reward_mode, game.win_only)
        self.rules, self.variant, self.episode, self.reward_mode, self.win_only = self.parts
        self.n = self.rules.players
        self.dealer: int | None = None  # the first dealer, once drawn
        self.drawn: list[int] = []  # the next deal's deck so far
        self.game_state = None  # the engine's GameState once the first deck is drawn
        self.deal_start: dict[str, Any] = {}  # the current deal's dealer, scores, reserve and deal number
        self.dealt: list[int] = []  # each seat's cards as the current deal dealt them
        self._returns = [0.0] * self.n
        self._rewards = [0.0] * self.n
        self._over = False

    # ------------------------------------------------------------------ OpenSpiel API
    def current_player(self) -> int:
        if self._over:
            return pyspiel.PlayerId.TERMINAL
        if self._drawing():
            return pyspiel.PlayerId.CHANCE
        return self.game_state.current

    def _drawing(self) -> bool:
        return self.game_state is None or self.game_state.is_deal_over

    def is_terminal(self) -> bool:
        return self._over

    def _legal_actions(self, player: int) -> list[int]:
        return list(self.game_state.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.dealer is None:
            return [(s, 1.0 / self.n) for s in range(self.n)]
        left = sorted(set(range(NUM_CARDS)) - set(self.drawn))
        return [(c, 1.0 / len(left)) for c in left]

    def _apply_action(self, action: int) -> None:
        if self.is_chance_node():  # a deal's reward stays until the next decision (OpenSpiel reads it there)
            if self.dealer is None:
                if not 0 <= action < self.n:
                    raise ValueError(f"the first dealer is a seat 0..{self.n - 1}, got {action}")
                self.dealer = action
                return
            if not 0 <= action < NUM_CARDS or action in self.drawn:
                raise ValueError(f"a deck draw is a card id 0..31 not drawn yet, got {action} (drawn: {self.drawn})")
            self.drawn.append(action)
            if len(self.drawn) < NUM_CARDS:
                return
            deck, self.drawn = self.drawn, []
            if self.game_state is None:
                self.game_state = self.variant.new_state(dealer=self.dealer, deck=deck,
                                                         single_deal=self.episode == "deal")
            else:
                self.game_state.next_deal(deck)
            gs = self.game_state
            self.deal_start = {"dealer": gs.dealer, "scores": list(gs.scores), "reserve": gs.reserve,
                               "deal_number": gs.deal_number}
            self.dealt = list(gs.hands)
            return
        self._rewards = [0.0] * self.n
        gs = self.game_state
        gs.apply(action)
        if gs.is_deal_over:
            self._end_of_deal()

    def _end_of_deal(self) -> None:
        gs = self.game_state
        if not self.win_only:
            for s in range(self.n):
                self._rewards[s] = seat_reward(gs.deal_score, s, self.reward_mode, self.rules)
        if any(episode_end(gs, self.episode)):  # truncated too (MAX_VOID_DEALS voids in a row): OpenSpiel
            self._over = True  # has no truncation, the returns stand as they are
            if self.win_only:
                self._rewards = [game_win_reward(gs.winner, s, self.rules) for s in range(self.n)]
        self._returns = [r + x for r, x in zip(self._returns, self._rewards)]

    def _action_to_string(self, player: int, action: int) -> str:
        from .actions import action_to_string, of_auction
        from .cards import card_to_str

        if player == pyspiel.PlayerId.CHANCE:
            return f"dealer {action}" if self.dealer is None else f"draw {card_to_str(action)}"
        n = self.get_game().num_distinct_actions()
        if isinstance(action, bool) or not hasattr(action, "__index__") or not 0 <= action.__index__() < n:
            raise ValueError(f"action id must be an int in 0..{n - 1} (this game's num_distinct_actions), "
                             f"got {action!r:.40}")
        action = action.__index__()
        if not of_auction(action, self.variant.auction_kind):  # an id of another game's table
            return f"id {action} (not an action of this game)"
        return action_to_string(action)

    def rewards(self) -> list[float]:
        return list(self._rewards)

    def returns(self) -> list[float]:
        return list(self._returns)

    def __str__(self) -> str:
        if self.game_state is None:
            return f"dealer {self.dealer}, {len(self.drawn)} cards drawn"
        gs = self.game_state  # every hand: the whole state, for debugging
        return (f"deal {gs.deal_number}, dealer {gs.dealer}, scores {list(gs.scores)}; hands "
                f"{[cards_of(h) for h in gs.hands]}; actions {[a for _, a in gs.actions]}"
                + (f"; {len(self.drawn)} cards of the next deck drawn" if self.drawn else ""))

    def __deepcopy__(self, memo) -> "BeloteState":
        """``clone()``: the same history and game (the default, through pickling, would copy
        the game too)."""
        return self.clone()

    def resample_from_infostate(self, player_id: int, probability_sampler) -> "BeloteState":
        """A state of ``player_id``'s information set with the hidden cards redrawn (the
        module docstring); ``probability_sampler()`` seeds the draw."""
        return resample(self, player_id, random.Random(int(probability_sampler() * 2 ** 53)))

    # ------------------------------------------------------------------ views
    def information_set(self, player: int) -> InfoSet | None:
        """``player``'s ``InfoSet`` (None before the first deck is drawn)."""
        return None if self.game_state is None else self.game_state.information_set(player)

    def info_string(self, player: int, perfect_recall: bool = True) -> str:
        """``information_state_string`` (``perfect_recall``) or ``observation_string``."""
        if self.game_state is None:
            return f"p{player} first dealer {self.dealer}, {len(self.drawn)} cards drawn"
        info = self.game_state.information_set(player)
        text = ";".join(f"{f.name}={getattr(info, f.name)!r}" for f in fields(InfoSet)
                        if f.name not in ("rules", "public_knowledge"))
        if self.drawn:
            text += f";drawing={len(self.drawn)}"
        if perfect_recall:
            if self.episode == "game":  # public: the deals passed out in a row, which may end the episode
                text += f";void_streak={self.game_state.void_streak}"
            return f"p{player};dealt={self.dealt[player]};" + text
        return f"p{player};" + text


class _Observer:
    """OpenSpiel's observer of ``BeloteGame`` (``make_py_observer``): ``tensor`` the
    seat's observation (``games.Game.encode``), ``dict`` its one block."""

    def __init__(self, game: BeloteGame, perfect_recall: bool):
        self.variant, self.perfect_recall = game.variant, perfect_recall
        self.tensor = np.zeros(game.variant.obs_size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: BeloteState, player: int) -> None:
        if state.game_state is None:
            self.tensor.fill(0.0)
            return
        self.variant.encode(state.game_state.information_set(player), out=self.tensor)

    def string_from(self, state: BeloteState, player: int) -> str:
        return state.info_string(player, self.perfect_recall)


#: actions public only with the card that follows them (RULES.md §5, §6; at two and three
#: seats the belote claim, TWO_THREE.md A17): another seat's pending one is not part of a
#: seat's information set
_PENDING = (ANNOUNCE_BELOTE, DECLARE)


def resample(state: BeloteState, player: int, rng: random.Random) -> BeloteState:
    """A copy of ``state`` whose cards hidden from ``player`` are redrawn: the hidden hands
    (``sampling.sample_hidden_hands`` of the seat's ``InfoSet``) replace the true ones by
    a relabelling of the hidden cards (each seat's and the unseen cards' true hidden cards
    matched at random to their drawn ones; a card that keeps its place keeps it; the
    turned and bottom cards stay where they were seen, swapped with the card their holder
    gets instead), applied to the current deal's deck and to its hidden actions (another seat's discards); the
    copy is built by OpenSpiel's ``apply_action`` from the initial state: the history before
    this deal's deck, the redrawn deck's chance outcomes, then the deal's actions, but for another
    seat's belote announcement or declaration still waiting for its card (not public yet:
    the copy is the state before it). So the copy's ``history()`` (``history_str``,
    ``full_history``, ``serialize``) is the actions that lead to it: replayed from the initial
    state it gives the redrawn deal, not the true one (a state of ``state_from_infoset``, whose
    history does not lead to it, keeps its own). The seat's
    ``info_string`` is unchanged (checked: ``RuntimeError`` otherwise). At a chance node
    (a deck being drawn) the copy is returned as it is: nothing is dealt yet."""
    gs = state.game_state
    if gs is None or state._drawing() or state._over:
        return state.clone()  # OpenSpiel's clone: the copy keeps the history
    info = gs.information_set(player)
    hidden = _draw(info, rng)
    others = [s for s in range(state.n) if s != player]
    true_held = 0
    for s in others:
        true_held |= gs.hands[s]
    pool = hidden.stock
    for s in others:
        pool |= hidden.hands[s]
    true_unseen = pool & ~true_held
    relabel = list(range(NUM_CARDS))
    for true, drawn in [(gs.hands[s], hidden.hands[s]) for s in others] + [(true_unseen, hidden.stock)]:
        a, b = cards_of(true & ~drawn), cards_of(drawn & ~true)  # in the true deal only, in the drawn one only
        rng.shuffle(b)
        for x, y in zip(a, b):
            relabel[x] = y
    deck = [relabel[c] for c in gs.deck]
    for c in (gs.turned_card, gs.bottom_card):  # cards seen at their place: they keep it
        if c >= 0 and relabel[c] != c:
            i, j = deck.index(c), gs.deck.index(c)  # the drawn card that holder got in its place
            deck[i], deck[j] = deck[j], deck[i]
    actions = [(s, relabel[a] if a < NUM_CARDS else a) for s, a in gs.actions]
    # announcements public only with the next card (a cutthroat game declares in a step of its own)
    pending = _PENDING if state.variant.play_protocol == "team" else (ANNOUNCE_BELOTE,)
    while actions and actions[-1][0] != player and actions[-1][1] in pending:
        actions.pop()  # another seat's announcement, public only with its card: the state before it
    history, k = state.history(), len(gs.actions)
    start = len(history) - NUM_CARDS - k  # where this deal's deck begins in the history
    if start >= 1 and history[start:start + NUM_CARDS] == list(gs.deck) and history[start + NUM_CARDS:] == [
            a for _, a in gs.actions]:
        new = BeloteState(state.get_game(), state.parts)  # its history: the earlier deals', then this deal's redrawn
        for a in history[:start] + deck + [a for _, a in actions]:
            new.apply_action(a)
    else:  # a state of state_from_infoset: no history leads to it, the copy keeps its (empty) one
        new = state.clone()
        world = _deal(state, deck)
        new.dealt = list(world.hands)
        for _, a in actions:
            world.apply(a)
        new.game_state = world
    if new.info_string(player) != state.info_string(player):
        raise RuntimeError("resample_from_infostate: the redrawn deal changed the seat's information set (a bug: "
                           "please report it with the game's record)")
    return new


#: draws of the rejection loop (declarations checked) before a resample gives up: rare
#: positions (tied combinations at three seats) accept one draw in a few thousand
MAX_TRIES = 1_000_000


def _draw(info: InfoSet, rng: random.Random):
    """``sampling.sample_hidden_hands`` with a rejection budget of ``MAX_TRIES``."""
    return sample_hidden_hands(info, rng, max_tries=MAX_TRIES)


def _deal(state: BeloteState, deck: list[int]):
    """A new engine state dealing ``deck`` as ``state``'s current deal was dealt (its
    dealer, the game's scores, reserve and deal number before it)."""
    return state.variant.new_state(deck=deck, single_deal=state.episode == "deal", **state.deal_start)


def _layout_deck(info: InfoSet, hidden, rng: random.Random) -> tuple[list[int], int]:
    """``(deck, discards)``: a deck that deals, at a two- or three-seat table
    (``dealing.PacketLayout``), what ``info`` and the drawn ``hidden`` cards say each seat
    held: before the taker, its first cards (the stock drawn); after, its cards at the
    completion (now, played, discarded; the seven of trumps back in place of the turned card
    for the seat that exchanged them), the turned and bottom cards where they were seen, the
    unseen cards in the unused places; and the taker's discards (``10_each``: the viewer's
    own, or the drawn unseen cards), 0 where there are none."""
    from .dealing import packet_layout

    rules, n = info.rules, info.players
    lay = packet_layout(rules, info.dealer)
    pack = [-1] * (24 if lay.pack24 else NUM_CARDS)
    unseen = cards_of(hidden.stock)
    rng.shuffle(unseen)
    pack[lay.turned] = info.turned_card
    discards = 0
    if info.taker < 0:
        slots = [list(lay.first[s]) for s in range(n)]
        held = list(hidden.hands)
    else:
        taker, turned = info.taker, 1 << info.turned_card
        more = lay.more_by_taker[taker] if lay.more_by_taker is not None else lay.more
        slots = [list(lay.first[s]) + list(more[s]) for s in range(n)]
        held = [hidden.hands[s] | info.played_by[s] for s in range(n)]
        if info.exchanged >= 0:  # the seven of trumps was dealt to the seat that exchanged it
            held[info.exchanged] = held[info.exchanged] & ~turned | 1 << (8 * info.denomination)
        if lay.chien:  # 10_each: the chien and the turned card go to the taker, who discards two
            discards = info.discarded if info.seat == taker else hidden.stock
            held[taker] |= discards | turned
            unseen = [c for c in unseen if not discards >> c & 1]
            slots[taker] += list(lay.chien) + [lay.turned]
        elif lay.pack24:  # 24_card: the turned card goes to the taker
            slots[taker].append(lay.turned)
        if lay.bottom >= 0 and info.bottom_card >= 0:
            pack[lay.bottom] = info.bottom_card
    for s in range(n):
        cards = [c for c in cards_of(held[s]) if c != pack[lay.turned] or lay.turned not in slots[s]]
        places = [i for i in slots[s] if pack[i] < 0]
        rng.shuffle(cards)
        for i, c in zip(places, cards):
            pack[i] = c
    rest = iter(unseen)
    pack = [c if c >= 0 else next(rest) for c in pack]
    if lay.pack24:  # the 7s and 8s out of play, after the pack (dealing.dealt_pack keeps its order)
        pack += [c for c in range(NUM_CARDS) if c & 7 < 2]
    return pack, discards


def _replay(world, info: InfoSet, discards: int):
    """Apply the deal's public history to ``world`` as ``info`` records it (the auction,
    the cards in order, each preceded by the belote claim or the four-seat declaration
    that came with it, the taker's ``discards``), trying each legal action where the record
    does not name it (the seven's exchange, the combinations, the viewer's own pending
    choice); the world whose information set for ``info.seat`` is ``info``, or None."""
    from .game import STEPS, Phase

    plays = [(seat, c) for leader, cards, _ in info.tricks for seat, c in zip(world.table.seats_from(leader), cards)]
    plays += list(zip(world.table.seats_from(info.trick_leader), info.trick))
    announced = {(s, c) for s, kind, c in info.announcements if kind == "belote"}
    while True:
        if world.information_set(info.seat) == info:
            return world
        if world.is_deal_over:
            return None
        legal = world.legal_actions()
        if world.phase == Phase.BIDDING:
            k = len(world.auction.history)
            if k >= len(info.auction) or info.auction[k][1] not in legal:
                return None
            world.apply(info.auction[k][1])
            continue
        step = STEPS[world.step] if world.step >= 0 else "cards"
        if step == "discard":
            c = next((c for c in cards_of(discards & ~world.discarded) if c in legal), None)
            if c is None:
                return None
            world.apply(c)
            continue
        k = sum(p.bit_count() for p in world.played_by)
        if step == "cards" and k < len(plays):
            seat, c = plays[k]
            if (seat, c) in announced and ANNOUNCE_BELOTE in legal:
                world.apply(ANNOUNCE_BELOTE)
            elif (not world.tricks and world.game.play_protocol == "team" and info.declared[seat]
                  and DECLARE in legal):
                world.apply(DECLARE)
            elif c in legal:
                world.apply(c)
            else:
                return None
            continue
        for a in (a for a in legal if a >= NUM_CARDS):  # the record does not say: each one tried
            trial = world.clone()
            trial.apply(a)
            found = _replay(trial, info, discards)
            if found is not None:
                return found
        return None


def state_from_infoset(game: BeloteGame, info: InfoSet, rng: random.Random, dealt: int | None = None) -> BeloteState:
    """A state of ``game`` in ``info``'s information set, the hidden cards drawn by the
    project's resampler (``sampling.sample_hidden_hands``), for a bot that sees only an
    ``InfoSet`` (``policies.openspiel``): a deck dealing the drawn hands (each seat's cards
    now and those it played; while bidding, the drawn stock; at four seats
    ``sampling.world_deck``, at two and three the table's layout, ``_layout_deck``), then the deal's public history replayed
    (``_replay``). ``dealt``: the seat's own cards as the deal dealt them (a mask: the
    ``dealt=`` field of its ``information_state_string``, which the seat knows, RULES.md §11,
    but its ``InfoSet`` does not keep once more cards come): the deck deals them to it, so
    the state's ``information_state_string(info.seat)`` is the original's; without it that
    field is the drawn deck's. Raises ``ValueError`` for an ``InfoSet`` of other rules or
    ``dealt`` cards no deal of ``info`` gives the seat, ``RuntimeError`` if no replay gives
    ``info`` (a bug)."""
    if info.rules != game.rules:
        raise ValueError("state_from_infoset builds states of the game's own rules; the InfoSet is of other rules")
    hidden = _draw(info, rng)
    discards = 0
    if not game.variant.has_partners:
        deck, discards = _layout_deck(info, hidden, rng)
    else:
        deck = world_deck(info, hidden, rng)
    state = game.new_initial_state()
    state.dealer = info.dealer
    state.deal_start = {"dealer": info.dealer, "scores": list(info.scores), "reserve": info.reserve,
                        "deal_number": info.deal_number}
    world = _deal(state, deck)
    if dealt is not None and dealt != world.hands[info.seat]:  # the seat's own cards to its first places
        if isinstance(dealt, bool) or not isinstance(dealt, (int, np.integer)):
            raise ValueError(f"dealt must be a card mask (an int), got {dealt!r}")
        mine = world.hands[info.seat]
        for x, y in zip(cards_of(int(dealt) & ~mine), cards_of(mine & ~int(dealt))):
            i, j = deck.index(x), deck.index(y)
            deck[i], deck[j] = deck[j], deck[i]
        world = _deal(state, deck)
        if world.hands[info.seat] != dealt:
            raise ValueError(f"dealt={dealt} is not the seat's cards as a deal of this information set dealt them")
    state.dealt = list(world.hands)
    state.game_state = _replay(world, info, discards)
    if state.game_state is None and dealt is not None:
        raise ValueError(f"dealt={dealt} is not the seat's cards as a deal of this information set dealt them")
    if state.game_state is None:
        raise RuntimeError("state_from_infoset: no replay of the drawn deal gives the information set (a bug: please "
                           "report it with the game's record)")
    return state


def resampler(state: BeloteState, player: int) -> BeloteState:
    """``resample`` seeded from numpy's global stream: the callback of OpenSpiel's
    ``ISMCTSBot.set_resampler`` (which draws its own numbers that way)."""
    return resample(state, player, random.Random(int(np.random.randint(0, 2 ** 62))))


pyspiel.register_game(_GAME_TYPE, BeloteGame)
