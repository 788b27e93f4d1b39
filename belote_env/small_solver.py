"""Deprecated aliases: the double-dummy solver of every table is ``belote_env.solver``
(``Position``, ``position_of``, ``solve``, ``card_values``; compiled, and exact where this
module's pure-Python search was not: it let a card in the trick in progress go unseen
between two cards it took as equivalent). Importing a name from here still works for one
release and warns (``DeprecationWarning``)."""

from __future__ import annotations

from . import solver as _solver
from .deprecation import deprecated_names


def _OldPosition(hands, trick, leader, denomination, taker, rules) -> _solver.Position:
    """``solver.Position`` from the old field order (hands, trick, leader, denomination,
    taker, rules)."""
    return _solver.Position(tuple(hands), denomination, taker, tuple(trick), leader, rules)


def _old_card_values(position: _solver.Position) -> dict[int, int]:
    """``solver.card_values``; ``ValueError`` when the seat to play holds no card, as before."""
    if not position.hands[position.to_play]:
        raise ValueError("the seat to play holds no card: the deal is over")
    return _solver.card_values(position)


__getattr__ = deprecated_names(__name__, {
    "SmallPosition": ("belote_env.solver.Position (fields by name: hands, denomination, taker, trick, leader, rules)",
                      lambda: _OldPosition),
    "small_position_of": ("belote_env.solver.position_of", lambda: _solver.position_of),
    "small_solve": ("belote_env.solver.solve", lambda: _solver.solve),
    "small_card_values": ("belote_env.solver.card_values", lambda: _old_card_values),
    "LAST_TRICK_POINTS": ("belote_env.game.LAST_TRICK", lambda: __import__("belote_env.game").game.LAST_TRICK)})
