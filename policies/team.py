"""A team of two different policies: one plays seats 0 and 1, the other seats 2 and 3.

In a four-seat duplicate match (``training.evaluate.duplicate_match``) side A holds both
seats of one team, 0 + 2 or 1 + 3 (RULES.md §1): with ``Team(lead, partner)`` as side A,
``lead`` sits at the team's first seat (0 or 1) and ``partner`` at the second (2 or 3) on
every deck of the pair. ``Team(hard, normal)`` against ``normal`` measures a bot as a
partner of a player who is not a copy of itself.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from belote_env.games import game_of

from .base import reseed
from .batch import as_batch_policy

__all__ = ["Team"]


class _Rows:
    """Rows ``rows`` of a ``SeatBatch``: its ``obs``, ``mask``, ``seats``, ``rules`` and
    ``infoset`` restricted to them (what ``act_batch`` reads)."""

    def __init__(self, batch, rows: np.ndarray):
        self._batch, self._rows = batch, rows
        self.mask = batch.mask[rows]
        self.seats = batch.seats[rows]
        self.rules = batch.rules

    def __len__(self) -> int:
        return len(self._rows)

    @property
    def obs(self) -> np.ndarray:
        return self._batch.obs[self._rows]

    def infoset(self, i: int):
        return self._batch.infoset(int(self._rows[i]))


class Team:
    """``lead`` at seats 0 and 1, ``partner`` at seats 2 and 3 (four seats only).

    Args:
        lead, partner: policies (``act(info)``; ``act_batch`` used when they have it).
        name: default ``"<lead>+<partner>"``.
    Raises:
        TypeError: ``lead`` or ``partner`` is not a policy.
        ValueError: an information set of a table that is not of four seats.
    """

    def __init__(self, lead: Any, partner: Any, name: str | None = None):
        for role, p in (("lead", lead), ("partner", partner)):
            if not callable(getattr(p, "act", None)):
                raise TypeError(f"Team {role} {p!r} is not a policy: it has no act(info) method")
        self.lead, self.partner = lead, partner
        self.name = name or f"{getattr(lead, 'name', 'lead')}+{getattr(partner, 'name', 'partner')}"

    def _of(self, seat: int, rules):
        if rules is not None and not game_of(rules).has_partners:
            raise ValueError(f"Team plays four-seat tables (two teams of two), got a {rules.players}-player table")
        return self.lead if seat < 2 else self.partner

    def act(self, info) -> int:
        return self._of(info.seat, getattr(info, "rules", None)).act(info)

    def act_batch(self, batch) -> np.ndarray:
        self._of(0, getattr(batch, "rules", None))
        out = np.empty(len(batch), dtype=np.int64)
        seats = np.asarray(batch.seats)
        for p, rows in ((self.lead, np.flatnonzero(seats < 2)), (self.partner, np.flatnonzero(seats >= 2))):
            if len(rows):
                out[rows] = as_batch_policy(p).act_batch(_Rows(batch, rows))
        return out

    def reseed(self, key: str) -> None:
        """Reseed both policies (``policies.base.reseed``), each with its own key."""
        reseed(self.lead, f"{key}/lead")
        reseed(self.partner, f"{key}/partner")
