"""Deprecated alias: the two- and three-seat observation lives in ``belote_env.observation``
(one observation module for every table; ``encode_small``, ``small_obs_size``,
``small_layout``, ...). Importing a name from here still works for one release and warns
(``DeprecationWarning``)."""

from __future__ import annotations

import warnings

from . import observation as _observation

_MOVED = ("SMALL_OBS_VERSION", "AUCTION_SLOTS", "SMALL_PHASES", "small_layout", "small_offsets", "small_obs_size",
           "small_layout_table", "encode_small", "SMALL_OBS_SIZE", "small_suit_permutation_index")


#: names renamed in the move (the four-seat coinche observation has its own ``AUCTION_SLOTS``)
_RENAMED = {"AUCTION_SLOTS": "SMALL_AUCTION_SLOTS"}


def __getattr__(name: str):
    if name in _MOVED:
        new = _RENAMED.get(name, name)
        warnings.warn(f"belote_env.small_observation.{name} moved to belote_env.observation.{new}; this alias "
                      "goes in the next release", DeprecationWarning, stacklevel=2)
        return getattr(_observation, new)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
