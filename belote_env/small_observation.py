"""Deprecated alias: the two- and three-seat observation lives in ``belote_env.observation``
(one observation module for every table; ``encode_cutthroat``, ``cutthroat_obs_size``,
``cutthroat_layout``, ...). Importing a name from here still works for one release and warns
(``DeprecationWarning``)."""

from __future__ import annotations

from . import observation as _observation
from .deprecation import deprecated_names

#: the names moved to ``belote_env.observation`` (renamed there: the two- and three-seat
#: game is the cutthroat game; ``AUCTION_SLOTS``: the four-seat coinche observation has its own)
__getattr__ = deprecated_names(__name__, {
    old: (f"belote_env.observation.{new}", lambda new=new: getattr(_observation, new))
    for old, new in [("SMALL_OBS_VERSION", "CUTTHROAT_OBS_VERSION"), ("SMALL_PHASES", "CUTTHROAT_PHASES"),
                     ("small_layout", "cutthroat_layout"), ("small_offsets", "cutthroat_offsets"),
                     ("small_obs_size", "cutthroat_obs_size"), ("small_layout_table", "cutthroat_layout_table"),
                     ("encode_small", "encode_cutthroat"), ("SMALL_OBS_SIZE", "CUTTHROAT_OBS_SIZE"),
                     ("small_suit_permutation_index", "cutthroat_suit_permutation_index"),
                     ("AUCTION_SLOTS", "CUTTHROAT_AUCTION_SLOTS")]})
