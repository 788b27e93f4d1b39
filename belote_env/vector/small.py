"""Deprecated alias of ``belote_env.vector.cutthroat`` (the two- and three-seat game is the
cutthroat game: every seat plays for itself). Importing from here still works for one release and warns
(``DeprecationWarning``); the old names of its definitions resolve through
``belote_env.vector.cutthroat``'s own aliases."""

from __future__ import annotations

import warnings

from .cutthroat import *  # noqa: F401,F403
from .cutthroat import __all__, __getattr__  # noqa: F401

warnings.warn("belote_env.vector.small is belote_env.vector.cutthroat now; this alias goes in the next release", DeprecationWarning,
              stacklevel=2)
