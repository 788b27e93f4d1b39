"""Old public names kept for one release (a module's ``__getattr__``): each still resolves
to what replaced it and warns with a ``DeprecationWarning`` naming the new name.

    __getattr__ = deprecated_names(__name__, {"old_name": ("the new name", lambda: new_object)})

Pure Python.
"""

from __future__ import annotations

import warnings
from typing import Any, Callable

__all__ = ["deprecated_names"]


def deprecated_names(module: str, old: dict[str, tuple[str, Callable[[], Any]]]) -> Callable[[str], Any]:
    """A module ``__getattr__`` serving the deprecated names of ``old``: name -> (what to use
    now, a function giving it). Any other name raises ``AttributeError`` as a module does."""

    def __getattr__(name: str) -> Any:
        if name in old:
            new, get = old[name]
            warnings.warn(f"{module}.{name} is {new} now; this alias goes in the next release", DeprecationWarning,
                          stacklevel=2)
            return get()
        raise AttributeError(f"module {module!r} has no attribute {name!r}")

    return __getattr__
