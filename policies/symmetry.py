"""The 24 suit renamings of the observations, cards and actions: the symmetry the value
networks average over (``suit_average``) and the fits augment with.

Index tables, built on first use and cached: ``suit_permutation_tables(size)`` (the
observation of ``size`` floats and the 32 cards), ``bid_permutation_table()`` (the classic
bids 32..39), ``coinche_bid_permutation_table()`` (the coinche bids 32..101) and
``action_permutation_table(n_actions)`` (every action id). Row ``p`` of each is the same
renaming of the suits (``itertools.permutations(SUITS)``'s ``p``-th); ``x[..., table[p]]``
renames a vector ``x`` indexed like the table's columns. No network is built (the
variants' sizes come from ``model_files``): ``policies.network`` and ``policies.batch``
both read them.
"""

from __future__ import annotations

import numpy as np
import torch

from belote_env.actions import CLASSIC_BIDS, NUM_ACTIONS, PASS, SURCOINCHE
from belote_env.cards import NUM_CARDS, SUITS
from belote_env.observation import OBS_SIZE

from .model_files import CONTRACT_MODE_OBS_SIZE, MODE_N_ACTIONS, contract_mode_of_size, variant_game

__all__ = ["suit_permutation_tables", "bid_permutation_table", "coinche_bid_permutation_table",
           "action_permutation_table", "RENAMING_SETS"]

#: Sets of suit renamings by their size: rows of the tables here (indices into
#: ``itertools.permutations(SUITS)``). 1: the observation as it is; 4: the cyclic shifts of
#: the suits (each suit in each place once, a group); 24: every renaming.
RENAMING_SETS = {1: (0,), 4: (0, 9, 16, 18), 24: tuple(range(24))}


_SUIT_TABLES: dict[int, tuple[torch.Tensor, torch.Tensor]] = {}  # by observation size, built on first use


def suit_permutation_tables(size: int = OBS_SIZE) -> tuple[torch.Tensor, torch.Tensor]:
    """The 24 suit renamings: observation and card index tensors, ``(24, size)`` and
    ``(24, 32)`` int64, for the observation of ``size`` floats of a variant's game
    (``config.VARIANT_OPTIONS``: 618 classic, 1,141 coinche, 716 / 902 at two / three
    seats; ``games.Game.suit_renaming``, from the game's layout). The card index is the
    same for every size. ``ValueError`` for a size no variant's observation has."""
    tables = _SUIT_TABLES.get(size)
    if tables is None:
        import itertools

        mode = contract_mode_of_size(size)
        if mode is None:
            sizes = ", ".join(f"{n} ({name})" for name, n in CONTRACT_MODE_OBS_SIZE.items())
            raise ValueError(f"size must be an observation size: {sizes}; got {size!r}")
        game = variant_game(mode)
        idx = [game.suit_renaming(p) for p in itertools.permutations(SUITS)]
        tables = _SUIT_TABLES[size] = (torch.from_numpy(np.stack([o for o, _ in idx])),
                                       torch.from_numpy(np.stack([c for _, c in idx])))
    return tables


_BID_TABLE: torch.Tensor | None = None


def bid_permutation_table() -> torch.Tensor:
    """The 24 suit renamings of the bid values (ids 32..39, in the order of
    ``suit_permutation_tables``): ``(24, 8)`` int64; ``values[..., table[p]]`` renames a
    per-bid vector as ``card_index`` renames a per-card one (pass, take, no-trump and
    all-trump stay; "name suit s" becomes "name suit perm[s]")."""
    global _BID_TABLE
    if _BID_TABLE is None:
        _, pc = suit_permutation_tables()
        suit = pc[:, 0:32:8] // 8  # row p: the suit whose values the renamed suit s' takes
        fixed = torch.tensor([[0, 1]] * 24)
        _BID_TABLE = torch.cat([fixed, 2 + suit, fixed + 6], 1)
    return _BID_TABLE


_COINCHE_BID_TABLE: torch.Tensor | None = None


def coinche_bid_permutation_table() -> torch.Tensor:
    """The 24 suit renamings of a coinche bid-value vector (``COINCHE_BID_ACTIONS``, ids
    32..101, in the order of ``suit_permutation_tables``): ``(24, 70)`` int64, the columns
    32..101 of ``action_permutation_table`` less 32 (a bid of a suit moves with its suit;
    pass, coinche, surcoinche and the no-trump / all-trump bids stay)."""
    global _COINCHE_BID_TABLE
    if _COINCHE_BID_TABLE is None:
        first, end = PASS, SURCOINCHE + 1
        _COINCHE_BID_TABLE = action_permutation_table()[:, first:end] - first
        assert ((_COINCHE_BID_TABLE >= 0) & (_COINCHE_BID_TABLE < end - first)).all()
    return _COINCHE_BID_TABLE


_ACTION_TABLES: dict[int, torch.Tensor] = {}  # by number of actions, built on first use


def action_permutation_table(n_actions: int = NUM_ACTIONS) -> torch.Tensor:
    """The 24 suit renamings of a per-action vector (``n_actions`` ids: a variant's
    ``games.Game.num_actions``, ``NUM_ACTIONS`` or ``PROPOSAL_NUM_ACTIONS`` for the two- and
    three-seat networks, in the order of ``suit_permutation_tables``): ``(24, n_actions)``
    int64, each row a permutation; ``values[..., table[p]]`` renames it as ``card_index``
    renames a per-card vector. The cards move as ``card_index`` says, the "name suit s"
    bids (34..37) as ``bid_permutation_table`` and the coinche bids of a suit contract
    (``40 + 6 level + s``, s < 4) with their suit; pass, take (the turned card's suit,
    renamed with the observation), no-trump / all-trump and every other action (the redeal
    answers 412 / 413 too) stay. ``ValueError`` for another ``n_actions``."""
    table = _ACTION_TABLES.get(n_actions)
    if table is None:
        names: dict[int, list[str]] = {}
        for name, n in MODE_N_ACTIONS.items():
            names.setdefault(n, []).append(name)
        if isinstance(n_actions, bool) or n_actions not in names:
            sizes = ", ".join(f"{n} ({' and '.join(v)})" for n, v in names.items())
            raise ValueError(f"n_actions must be a variant's number of actions: {sizes}; got {n_actions!r}")
        from belote_env.actions import COINCHE, COINCHE_BID

        _, pc = suit_permutation_tables()
        bid = bid_permutation_table()
        table = torch.arange(n_actions).repeat(pc.shape[0], 1)
        table[:, :NUM_CARDS] = pc
        table[:, CLASSIC_BIDS[0]:CLASSIC_BIDS[0] + len(CLASSIC_BIDS)] = CLASSIC_BIDS[0] + bid
        suit = bid[:, 2:6] - 2  # row p: the suit whose bid the renamed suit s' takes
        for first in range(COINCHE_BID, COINCHE, 6):
            table[:, first:first + 4] = first + suit
        assert (table.sort(1).values == torch.arange(n_actions)).all()
        _ACTION_TABLES[n_actions] = table
    return table
