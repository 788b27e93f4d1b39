"""Deprecated alias: the two- and three-seat observation lives in ``belote_env.observation``
(one observation module for every table; ``encode_small``, ``small_obs_size``,
``small_layout``, ...). Importing a name from here still works for one release and warns
(``DeprecationWarning``)."""

from __future__ import annotations

from . import observation as _observation
from .deprecation import deprecated_names

#: the names moved to ``belote_env.observation`` (``AUCTION_SLOTS`` renamed: the four-seat
#: coinche observation has its own)
__getattr__ = deprecated_names(__name__, {
    old: (f"belote_env.observation.{new}", lambda new=new: getattr(_observation, new))
    for old, new in [(n, n) for n in ("SMALL_OBS_VERSION", "SMALL_PHASES", "small_layout", "small_offsets",
                                      "small_obs_size", "small_layout_table", "encode_small", "SMALL_OBS_SIZE",
                                      "small_suit_permutation_index")] + [("AUCTION_SLOTS", "SMALL_AUCTION_SLOTS")]})
