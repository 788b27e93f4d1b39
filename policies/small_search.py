"""Deprecated alias: the two- and three-seat expert is ``policies.search.SearchPolicy``
(one search for every table; ``deal_margin`` moved there too). Importing a name from here
still works for one release and warns (``DeprecationWarning``)."""

from __future__ import annotations

from belote_env.deprecation import deprecated_names

from . import search as _search


def _OldSearchPolicy(seed: int | None = None, samples: int = 12, exact_cards: int = 18, base=None):
    """``SearchPolicy(seed, samples=samples, exact_cards=exact_cards, base=base)``. One
    difference with the old class: a ``base`` whose networks read the four-seat observation
    (the ``hard`` tier built without two- or three-seat rules, a ``HardPolicy``) is replaced
    by ``normal`` (``SearchPolicy``'s rule); the old class called it as given."""
    return _search.SearchPolicy(seed, samples=samples, exact_cards=exact_cards, base=base)


__getattr__ = deprecated_names(__name__, {
    "SmallSearchPolicy": ("policies.search.SearchPolicy", lambda: _OldSearchPolicy),
    "deal_margin": ("policies.search.deal_margin", lambda: _search.deal_margin)})
