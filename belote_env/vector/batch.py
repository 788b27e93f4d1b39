"""What a batched policy sees: the decisions of the seats to act at some tables of a
``BatchedGame``, as arrays (RULES.md §11: only those seats' information sets).

A **batched policy** is anything with ``act_batch(batch: SeatBatch) -> actions``
(int ``(len(batch),)``, each a legal id of its row's mask). ``policies.batch`` gives every
tier one (the networks in one forward pass, the rule-based tiers from ``infoset(i)``).
"""

from __future__ import annotations

import numpy as np

from ..observation import OBS_SIZE
from .infoset import infoset_of
from .observation import encode_tables_kernel

__all__ = ["SeatBatch"]


class SeatBatch:
    """The seats to act at ``tables`` of ``game``.

    Attributes:
        tables: int64 ``(m,)`` table indices.
        seats: int64 ``(m,)`` the seat to act at each.
        mask: int8 ``(m, NUM_ACTIONS)``, each seat's legal actions (a copy).
        obs: float32 ``(m, OBS_SIZE)``, each seat's observation (``observation`` layout
            v1), encoded on first access.
        rules: the game's ``Rules``.
    ``infoset(i)`` is row ``i``'s ``InfoSet`` (the same as ``GameState.information_set``).
    The game itself (which holds every hand) is not exposed.
    """

    __slots__ = ("_game", "tables", "seats", "mask", "_obs", "rules")

    def __init__(self, game, tables):
        self._game = game
        self.tables = np.asarray(tables, dtype=np.int64)
        self.seats = game.current[self.tables].astype(np.int64)
        self.mask = game.mask[self.tables]
        self.rules = game.rules
        self._obs = None

    def __len__(self) -> int:
        return len(self.tables)

    @property
    def obs(self) -> np.ndarray:
        if self._obs is None:
            g = self._game
            self._obs = np.empty((len(self.tables), OBS_SIZE), dtype=np.float32)
            encode_tables_kernel(g.state, g.bids, g.mask, g.points, self.tables, self.seats, self._obs)
        return self._obs

    def infoset(self, i: int):
        """Row ``i``'s ``InfoSet`` (``belote_env.InfoSet``)."""
        return infoset_of(self._game, int(self.tables[i]), int(self.seats[i]))
