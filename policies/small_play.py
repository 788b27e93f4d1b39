"""Deprecated alias of ``policies.cutthroat_play`` (the two- and three-seat game is the
cutthroat game: every seat plays for itself). Importing from here still works for one release and warns
(``DeprecationWarning``); the old names of its definitions resolve through
``policies.cutthroat_play``'s own aliases."""

from __future__ import annotations

import warnings

from .cutthroat_play import *  # noqa: F401,F403
from .cutthroat_play import __all__, __getattr__  # noqa: F401

warnings.warn("policies.small_play is policies.cutthroat_play now; this alias goes in the next release", DeprecationWarning,
              stacklevel=2)
