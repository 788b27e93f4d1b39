"""Deprecated alias: the two- and three-seat expert is ``policies.search.SearchPolicy``
(one search for every table; ``deal_margin`` moved there too). Importing a name from here
still works for one release and warns (``DeprecationWarning``)."""

from __future__ import annotations

import warnings

from . import search as _search


def _SmallSearchPolicy(seed: int | None = None, samples: int = 12, exact_cards: int = 18, base=None):
    """``SearchPolicy(seed, samples=samples, exact_cards=exact_cards, base=base)``. One
    difference with the old class: a ``base`` whose networks read the four-seat observation
    (the ``hard`` tier built without two- or three-seat rules, a ``HardPolicy``) is replaced
    by ``normal`` (``SearchPolicy``'s rule); the old class called it as given."""
    return _search.SearchPolicy(seed, samples=samples, exact_cards=exact_cards, base=base)


_MOVED = {"SmallSearchPolicy": ("policies.search.SearchPolicy", _SmallSearchPolicy),
          "deal_margin": ("policies.search.deal_margin", _search.deal_margin)}


def __getattr__(name: str):
    if name in _MOVED:
        new, obj = _MOVED[name]
        warnings.warn(f"policies.small_search.{name} moved to {new}; this alias goes in the next release",
                      DeprecationWarning, stacklevel=2)
        return obj
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
