"""Old public names kept for one release: each still resolves to what replaced it and
warns with a ``DeprecationWarning`` naming the new name. A module's names go through its
``__getattr__``, a class's attributes through ``renamed``:

    __getattr__ = deprecated_names(__name__, {"old_name": ("the new name", lambda: new_object)})
    maker = renamed("taker")  # in a class body

Pure Python.
"""

from __future__ import annotations

import warnings
from typing import Any, Callable

__all__ = ["deprecated_names", "renamed", "renamed_in"]


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


def renamed_in(module: str, namespace: dict[str, Any], old: dict[str, str],
               more: dict[str, tuple[str, Callable[[], Any]]] | None = None) -> Callable[[str], Any]:
    """``deprecated_names`` for names renamed within the module: ``old`` maps each old
    name to the new one in ``namespace`` (the module's ``globals()``); ``more`` adds other
    deprecated names as ``deprecated_names`` takes them.

        __getattr__ = renamed_in(__name__, globals(), {"small_key": "combination_key"})
    """
    return deprecated_names(module, {**{o: (f"{module}.{n}", lambda n=n: namespace[n]) for o, n in old.items()},
                                     **(more or {})})


class renamed:  # noqa: N801 (used like ``property``)
    """A class attribute kept under its old name for one release: reading it warns
    (``DeprecationWarning`` naming the new attribute) and gives the new attribute's value.

        maker = renamed("taker")
    """

    def __init__(self, new: str):
        self.new = new

    def __set_name__(self, owner: type, name: str) -> None:
        self.old, self.owner = name, owner.__name__

    def __get__(self, obj: Any, objtype: type | None = None) -> Any:
        if obj is None:
            return self
        warnings.warn(f"{self.owner}.{self.old} is {self.owner}.{self.new} now; this alias goes in the next release",
                      DeprecationWarning, stacklevel=2)
        return getattr(obj, self.new)
