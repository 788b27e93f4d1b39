"""The policy interface (RULES.md §11-§12).

A policy sees exactly one seat's information set (``belote_env.InfoSet``), never hidden
cards, and returns one of ``info.legal_actions`` (an int action id of
``belote_env.actions``), for bidding and for play alike. A policy that draws random
numbers owns its ``random.Random``, seeded at construction.
"""

from __future__ import annotations

import random
from typing import Any, Protocol, runtime_checkable

from belote_env import InfoSet
from belote_env.actions import ANNOUNCE_BELOTE
from belote_env.cards import ALL_TRUMP
from belote_env.games import game_of
from belote_env.driver import RandomPolicy  # tier ``random``: the engine's own random player

__all__ = ["Policy", "PolicyError", "RandomPolicy", "with_belote", "reseed", "reseed_nested"]


class PolicyError(RuntimeError):
    """A policy raised, or returned an action that is not legal in the position."""


@runtime_checkable
class Policy(Protocol):
    """Anything with a ``name`` and ``act(info) -> int`` (a legal action id)."""

    name: str

    def act(self, info: InfoSet) -> int:
        """Choose one of ``info.legal_actions`` (non-empty) for ``info.seat``."""
        ...


def reseed(policy: Any, key: str) -> None:
    """Reseed every random generator ``policy`` owns, nested policies included, from the
    string ``key``: a policy's own ``reseed(key)`` method when it has one (policies that
    hold other policies: ``policies.search.SearchPolicy``), else its
    ``random.Random`` named ``rng`` (every tier, ``NetworkPolicy``, a user's factory
    policy); a policy with neither is left as it is. Duplicate matches call it for each
    side before each deal pair (``training.evaluate``), so a pair's play depends on the
    seed and the pair alone: one worker, two workers and a resumed match agree."""
    method = getattr(policy, "reseed", None)
    if callable(method):
        method(key)
        return
    rng = getattr(policy, "rng", None)
    if isinstance(rng, random.Random):
        rng.seed(key)


def reseed_nested(owner: Any, key: str, names: tuple[str, ...]) -> None:
    """``reseed`` of ``owner.rng`` and of each policy held in ``owner``'s attributes
    ``names`` (each object once, by its first name, with the key ``f"{key}/{name}"``):
    the body of a ``reseed`` method of a policy that holds others."""
    owner.rng.seed(key)
    seen = {id(owner)}
    for name in names:
        sub = getattr(owner, name, None)
        if sub is not None and id(sub) not in seen:
            seen.add(id(sub))
            reseed(sub, f"{key}/{name}")


def with_belote(info, choice: int) -> int:
    """``ANNOUNCE_BELOTE`` when it is legal and ``choice`` (a card id) is the card a belote
    claim goes with, else ``choice``. That card is the K or Q of a belote suit (the trump;
    every suit at all-trump, RULES.md §5) whose pair card is still in the seat's hand at
    four seats (``belote: optional`` claims with the first card of the pair, §5), and whose
    pair card the seat has already played at two and three seats (the claim goes with the
    second, TWO_THREE.md §2.7, A17). ``info``: the seat's ``InfoSet``."""
    if ANNOUNCE_BELOTE not in info.legal_actions or choice & 7 not in (5, 6):  # Q, K
        return choice
    if choice >> 3 != info.denomination and info.denomination != ALL_TRUMP:
        return choice
    other = choice ^ 3  # its pair card: Q (5) <-> K (6) of the suit
    held = info.hand if game_of(info.rules).play_protocol == "team" else info.played_by[info.seat]
    return ANNOUNCE_BELOTE if held >> other & 1 else choice
