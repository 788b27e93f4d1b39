"""What a batched policy sees: the decisions of the seats to act at some tables of a
``BatchedGame`` (at any table: four, three or two seats), as arrays
(RULES.md §11: only those seats' information sets).

A **batched policy** is anything with ``act_batch(batch: SeatBatch) -> actions``
(int ``(len(batch),)``, each a legal id of its row's mask). ``policies.batch`` gives every
tier one (the networks in one forward pass, the rule-based tiers from ``infoset(i)``).
"""

from __future__ import annotations

import numpy as np

from ..games import game_of
from ..observation import obs_size
from ..table import NUM_SEATS
from .engine import COL
from .infoset import infoset_of
from .observation import encode_tables_kernel

__all__ = ["SeatBatch"]


class _PublicRows:
    """Copies of some tables' rows with every hidden card blanked: the other seats' hands
    and first hands, and which belote pairs they hold (the deck and the tables' streams are
    not copied). What ``SeatBatch`` keeps, so a policy holding one can read nothing hidden
    (RULES.md §11); the encoder and ``infoset_of`` read it as they read a ``BatchedGame``."""

    __slots__ = ("state", "bids", "mask", "points", "rules", "n", "current")

    def __init__(self, game, tables: np.ndarray, seats: np.ndarray):
        st = game.state[tables].copy()
        for s in range(NUM_SEATS):
            other = seats != s
            st[other, COL["hand0"] + s] = 0
            st[:, COL["first_hand0"] + s] = 0
        own = np.left_shift(np.int64(0xF), 4 * seats)
        st[:, COL["pairs"]] &= own
        self.state, self.bids, self.mask = st, game.bids[tables].copy(), game.mask[tables].copy()
        self.points, self.rules, self.n = game.points, game.rules, len(tables)
        self.current = st[:, COL["current"]]


class SeatBatch:
    """The seats to act at ``tables`` of ``game``.

    Attributes:
        tables: int64 ``(m,)`` table indices.
        seats: int64 ``(m,)`` the seat to act at each.
        mask: int8 ``(m, n_actions)``, each seat's legal actions (a copy; ``n_actions`` is
            ``actions.num_actions(rules)``).
        obs: float32 ``(m, obs_size(rules))``, each seat's observation (``observation`` layout
            v1), encoded on first access.
        rules: the game's ``Rules``.
    ``infoset(i)`` is row ``i``'s ``InfoSet`` (the same as ``GameState.information_set``).
    The batch holds copies of its tables' public rows and the acting seats' own hands
    only: neither the game, its deck, its streams nor another seat's hand (RULES.md §11).
    Two and three seats: the batch holds each row's
    ``InfoSet`` (the engine's ``infoset``) and observation
    (``BatchedGame.encode_rows``, compiled: their ``games.Game.encode``), both made
    when the batch is (TWO_THREE.md §5).
    """

    __slots__ = ("_rows", "tables", "seats", "mask", "_obs", "rules", "_infos")

    def __init__(self, game, tables):
        self.tables = np.asarray(tables, dtype=np.int64)
        self.seats = game.current[self.tables].astype(np.int64)
        self.rules = game.rules
        self._obs = None
        self._infos = None
        if not game_of(game.rules).has_partners:  # two and three seats: the information sets and observations, now
            self._rows = None
            self._infos = [game.infoset(int(t), int(s)) for t, s in zip(self.tables, self.seats)]
            self._obs = game.encode_rows(self.tables, self.seats)
            self.mask = game.mask[self.tables].copy()
            return
        self._rows = _PublicRows(game, self.tables, self.seats)
        self.mask = self._rows.mask

    def __len__(self) -> int:
        return len(self.tables)

    @property
    def obs(self) -> np.ndarray:
        if self._obs is None:
            r = self._rows
            self._obs = np.empty((len(self.tables), obs_size(self.rules)), dtype=np.float32)
            encode_tables_kernel(r.state, r.bids, r.mask, r.points, np.arange(len(self.tables), dtype=np.int64),
                                 self.seats, self._obs)
        return self._obs

    def infoset(self, i: int):
        """Row ``i``'s ``InfoSet`` (``belote_env.InfoSet``, equal to the reference engine's
        ``information_set``)."""
        if self._infos is not None:
            return self._infos[int(i)]
        return infoset_of(self._rows, int(i), int(self.seats[i]))
