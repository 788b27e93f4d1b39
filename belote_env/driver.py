"""Playing deals and games with seat policies, and a seat's reward from a deal's score.

The one loop that asks each seat's policy for its action and applies it: evaluation
(``training.evaluate``), the oracle and imitation data (``training.oracle``,
``training.imitation``), ``belote play`` and the scripts play through it. A seat policy is
anything with ``act(info) -> action id`` (``policies.base.Policy``; it sees only its seat's
``InfoSet``, RULES.md §11). Hooks let a caller check or replace each action (``decide``),
watch each move and each deal's end, time the seats, and choose the decks.

``point_reward`` is the one place a deal's point difference becomes a reward (scaled by
the 162 points of a deal); ``seat_reward`` gives a seat's reward from a deal's score. The
PettingZoo and Gymnasium envs and the trainers use them.

Pure Python.
"""

from __future__ import annotations

import random
import time
from typing import Any, Callable, Collection, Sequence

from .dealing import DealError, check_deck
from .game import GameState
from .games import game_of
from .infoset import InfoSet
from .scoring import TOTAL_POINTS, DealScore
from .table import TEAM_OF, team_of

__all__ = ["MAX_VOID_DEALS", "VoidDealsError", "voids_exhausted", "episode_end", "RandomPolicy", "policy_action",
           "finish_deal", "play_until", "play_deal", "play_game", "REWARD_MODES", "point_reward", "seat_reward", "game_win_reward", "reward_scale",
           "COINCHE_REWARD_SCALE"]

#: Consecutive passed-out deals after which ``play_deal`` gives up (``VoidDealsError``) and
#: a game episode of the environments is truncated (``voids_exhausted``).
MAX_VOID_DEALS = 100


def voids_exhausted(state: GameState) -> bool:
    """True when ``state``'s deal just ended passed out (or redealt by agreement) as the
    ``MAX_VOID_DEALS``-th such deal in a row. The rules redeal without end (RULES.md §3.4,
    TWO_THREE.md §2.3), so a game episode (``episode="game"``) of the environments is
    truncated there: PettingZoo's ``truncations``, Gymnasium's ``truncated``, RLlib's
    ``truncateds``, OpenSpiel's terminal state with the returns as they stand."""
    return state.is_deal_over and state.void and state.void_streak + 1 >= MAX_VOID_DEALS


def episode_end(state: GameState, episode: str) -> tuple[bool, bool]:
    """``(terminated, truncated)`` of an environment's episode (``"deal"`` or ``"game"``)
    at ``state``: a deal episode ends with its deal (played or void), a game episode with
    the game (RULES.md §8), or truncated at ``voids_exhausted``; ``(False, False)`` while a
    deal is in progress or a game episode goes on to its next deal."""
    if not state.is_deal_over:
        return False, False
    if episode == "deal" or state.is_game_over:
        return True, False
    return False, voids_exhausted(state)

#: ``decide(state, info, policy) -> action id``: the action of the seat to act, whose
#: information set is ``info`` and whose policy is ``policy``.
Decide = Callable[[GameState, InfoSet, Any], int]


class VoidDealsError(RuntimeError):
    """``max_voids`` deals in a row were passed out (eight passes each, RULES.md §3.4)."""


class RandomPolicy:
    """Uniformly random legal action (tier ``random``; the default opponents of
    ``belote_env.gym_env.BeloteGymEnv``).

    Args:
        seed: seed of the policy's own ``random.Random`` (its ``rng``).
    """

    name = "random"

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    def act(self, info: InfoSet) -> int:
        legal = info.legal_actions
        return legal[self.rng.randrange(len(legal))]


def policy_action(state: GameState, info: InfoSet, policy: Any) -> int:
    """The default ``decide``: ``policy.act(info)``, unchecked (``state.apply`` refuses an
    illegal action with ``IllegalActionError``)."""
    return policy.act(info)


def finish_deal(state: GameState, seat_policies: Sequence[Any], decide: Decide = policy_action,
                after: Callable[[GameState, int, int], None] | None = None) -> GameState:
    """Play the deal in progress to its end, played or passed out (no redeal); returns
    ``state``.

    Args:
        state: a ``GameState`` in a deal (nothing is done once the deal is over).
        seat_policies: the policy of each seat (indexed by seat).
        decide: ``decide(state, info, policy) -> action id`` (default ``policy_action``).
        after: called as ``after(state, seat, action)`` after each action is applied.
    """
    return play_until(state, seat_policies, (), decide, after)


def play_until(state: GameState, seat_policies: Any, until: Collection[int] = (), decide: Decide = policy_action,
               after: Callable[[GameState, int, int], None] | None = None) -> GameState:
    """Play the seats' policies until a seat in ``until`` is to act or the deal is over
    (played or passed out; no redeal): the opponents' moves between two decisions of a
    learner (``gym_env``), or the rest of a deal (``finish_deal``, ``until`` empty).

    Args:
        state: a ``GameState`` (nothing is done once the deal is over).
        seat_policies: the policy of each seat that may act (indexed by seat: a list, or a
            dict of the seats not in ``until``).
        until: the seats whose turn stops the play.
        decide, after: as for ``finish_deal``.
    Returns:
        ``state``.
    """
    while not state.is_deal_over and state.current not in until:
        seat = state.current
        action = decide(state, state.information_set(seat), seat_policies[seat])
        state.apply(action)
        if after is not None:
            after(state, seat, action)
    return state


def play_deal(state: GameState, seat_policies: Sequence[Any], timing: list[float] | None = None,
              moves: list[int] | None = None, teams: Sequence[int] = TEAM_OF,
              decks: Callable[[int, int], Sequence[int]] | None = None, decide: Decide = policy_action,
              after: Callable[[GameState, int, int], None] | None = None,
              deal_over: Callable[[GameState], None] | None = None,
              max_voids: int | None = MAX_VOID_DEALS) -> int:
    """Play ``state`` until a deal is scored, redealing void deals (RULES.md §3.4).

    Args:
        state: a ``GameState`` at the start of (or in) a deal.
        seat_policies: the policy of each seat (indexed by seat).
        timing, moves: optional per-side accumulators (seconds, move counts), indexed by
            ``teams[seat]``; a move's time covers its information set and ``decide``.
        decks: optional ``decks(deal_number, redeal) -> 32 card ids``: the deck of each
            redeal (``redeal`` = void deals so far in this deal, ``deal_number`` =
            ``state.deal_number``); default: the state's own RNG draws it.
        decide: ``decide(state, info, policy) -> action id`` (default ``policy_action``):
            checks or replaces each action (``training.evaluate`` raises ``PolicyFailure``
            there).
        after: called as ``after(state, seat, action)`` after each action is applied.
        deal_over: called as ``deal_over(state)`` when a deal ends, played or void (before
            any redeal).
        max_voids: void deals in a row after which ``VoidDealsError`` is raised (``None``:
            no limit).
    Returns:
        the number of void deals redealt.
    Raises:
        VoidDealsError: ``max_voids`` deals in a row were passed out; whatever ``decide``,
            a policy or ``state.apply`` raises (``IllegalActionError``) propagates.
        ValueError: ``max_voids`` not an int >= 1 (or None); ``decks`` returning anything
            but a sequence of the 32 card ids (``dealing.DealError``).
    """
    _check_max_voids(max_voids)
    voids = 0
    while True:
        while not state.is_deal_over:
            seat = state.current
            t0 = time.perf_counter()
            action = decide(state, state.information_set(seat), seat_policies[seat])
            if timing is not None:
                timing[teams[seat]] += time.perf_counter() - t0
                moves[teams[seat]] += 1
            state.apply(action)
            if after is not None:
                after(state, seat, action)
        if deal_over is not None:
            deal_over(state)
        if state.deal_score is not None:
            return voids
        voids += 1
        if max_voids is not None and voids >= max_voids:
            names = sorted({str(getattr(p, "name", type(p).__name__)) for p in seat_policies})
            raise VoidDealsError(f"{max_voids} deals in a row were passed out by {names}")
        state.next_deal(None if decks is None else _deck_of(decks, state.deal_number, voids))


def _check_max_voids(max_voids) -> None:
    if max_voids is not None and (type(max_voids) is not int or max_voids < 1):
        raise ValueError(f"max_voids must be an int >= 1 or None, got {max_voids!r}")


def _deck_of(decks: Callable[[int, int], Sequence[int]], deal_number: int, redeal: int) -> list[int]:
    """``decks(deal_number, redeal)``, checked: a list or tuple of the 32 card ids (a set, a
    dict, a generator or ``None`` would silently lose the deck's order or the deck itself)."""
    deck = decks(deal_number, redeal)
    if not isinstance(deck, (list, tuple)):
        raise DealError(f"decks({deal_number}, {redeal}) must return a list or tuple of the 32 card ids, got "
                        f"{type(deck).__name__}")
    return check_deck(deck)


def play_game(state: GameState, seat_policies: Sequence[Any], **kw: Any) -> int:
    """Play deals until the game is over (RULES.md §8); returns the void deals redealt.
    ``kw`` as for ``play_deal`` (``decks`` included: the next deal is ``decks(n, 0)``)."""
    voids = 0
    decks = kw.get("decks")
    _check_max_voids(kw.get("max_voids", MAX_VOID_DEALS))
    while True:
        voids += play_deal(state, seat_policies, **kw)
        if state.is_game_over:
            return voids
        state.next_deal(None if decks is None else _deck_of(decks, state.deal_number, 0))


#: How a deal's point difference becomes a reward (``point_reward``).
REWARD_MODES = ("scaled", "points", "win")


#: The ``"scaled"`` reward's divisor in coinche (COINCHE.md §6): a failed 160 coinched is
#: -0.96, a plain 80 made with 81 card points +0.16 (161 against 81), a surcoinched capot +-2.5 (rare).
COINCHE_REWARD_SCALE = 500


def reward_scale(rules=None) -> int:
    """The points a ``"scaled"`` reward divides by: 162 (a classic deal's points, RULES.md
    §7) or ``COINCHE_REWARD_SCALE`` (500) under ``contract_mode="coinche"``."""
    return COINCHE_REWARD_SCALE if rules is not None and rules.contract_mode == "coinche" else TOTAL_POINTS


def point_reward(difference: int, mode: str = "scaled", scale: int = TOTAL_POINTS) -> float:
    """The reward of a deal's point difference (our points - theirs), per ``mode``:
    ``"scaled"`` divides by ``scale`` (``reward_scale(rules)``: the deal's 162 points, so a
    dedans is +-1 and a capot with belote +-1.68; 500 in coinche), ``"points"`` keeps it,
    ``"win"`` gives its sign (+1 / 0 / -1). The one place a point difference is scaled.
    Raises ``ValueError`` for another mode."""
    if mode == "scaled":
        return difference / scale
    if mode == "points":
        return float(difference)
    if mode == "win":
        return float((difference > 0) - (difference < 0))
    raise ValueError(f"reward_mode must be one of {REWARD_MODES}, got {mode!r}")


def game_win_reward(winner: int | None, seat: int, rules=None) -> float:
    """``seat``'s reward at the end of a game (``reward_mode="win"``, ``episode="game"``):
    +1 if its team won, -1 if it lost, 0 for a level game (``winner`` None, RULES.md §8).
    At two and three seats (``rules.players``) ``winner`` is a seat: +1 for it, -1 for
    every other seat (TWO_THREE.md §2.10, A33)."""
    if winner is None:
        return 0.0
    if rules is not None and not game_of(rules).has_partners:
        return 1.0 if winner == seat else -1.0
    return 1.0 if winner == team_of(seat) else -1.0


def seat_reward(score: DealScore | None, seat: int, mode: str = "scaled", rules=None) -> float:
    """``seat``'s reward from a deal's score (its team's point difference, ``point_reward``
    scaled by ``reward_scale(rules)``); 0 for a void deal (``score`` None). At two and
    three seats (a ``scoring.CutthroatDealScore``) the difference is the seat's own points less
    the mean of the other seats' (TWO_THREE.md §2.9, §3: each seat keeps its own score)."""
    if score is None:
        return 0.0
    if rules is not None and not game_of(rules).has_partners:
        return point_reward(score.difference(seat), mode, reward_scale(rules))
    return point_reward(score.difference(team_of(seat)), mode, reward_scale(rules))
