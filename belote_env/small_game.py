"""Deprecated aliases: the two- and three-player games are played by ``game.GameState``
(one engine for every table; TWO_THREE.md), and seats' information sets are
``infoset.InfoSet``. Importing a name from here still works for one release and warns
(``DeprecationWarning``): ``SmallGameState`` (``GameState`` of two- or three-seat rules;
``isinstance(x, SmallGameState)`` is true for such a state), ``new_game``
(``games.game_of(rules).new_state``), ``SmallInfoSet``, ``STEPS``, ``LAST_TRICK``,
``BELOTE``."""

from __future__ import annotations

from . import game as _game
from .config import Rules, check_table
from .deprecation import deprecated_names
from .infoset import InfoSet


class _OldStateName(type):
    """``SmallGameState``'s class after the fold: an instance check asks for a
    ``GameState`` of two or three seats; calling it builds one (``RuleOptionError`` for
    four-seat rules, as before); ``from_hands`` keeps its old arguments."""

    def __instancecheck__(cls, obj) -> bool:
        return isinstance(obj, _game.GameState) and not obj.game.has_partners

    def __call__(cls, rules: Rules, *args, **kwargs) -> _game.GameState:
        check_table(rules, (2, 3), "SmallGameState", "the four-seat games are played by belote_env.GameState")
        return _game.GameState(rules, *args, **kwargs)


class _StateByOldName(metaclass=_OldStateName):
    @staticmethod
    def from_hands(hands, turned, more, bottom, rules: Rules, *, dealer: int = 0, **kwargs) -> _game.GameState:
        """``GameState.from_hands(hands, turned, more, rules, bottom=bottom, ...)``."""
        check_table(rules, (2, 3), "SmallGameState", "the four-seat games are played by belote_env.GameState")
        return _game.GameState.from_hands(hands, turned, more, rules, dealer=dealer, bottom=bottom, **kwargs)


def _new_game(rules: Rules | None = None, **kwargs) -> _game.GameState:
    """``GameState(rules, **kwargs)``: one engine plays every table."""
    return _game.GameState(rules, **kwargs)


class _OldInfoSetName(type):
    """``SmallInfoSet``'s class after the fold: ``isinstance(x, SmallInfoSet)`` is
    ``isinstance(x, InfoSet)``, and calling it builds an ``InfoSet`` from the old
    constructor's arguments (its field order, with ``players``, which must be
    ``rules.players``)."""

    def __instancecheck__(cls, obj) -> bool:
        return isinstance(obj, InfoSet)

    def __call__(cls, *args, **kwargs) -> InfoSet:
        kwargs.update(zip(_OLD_FIELDS, args))
        players = kwargs.pop("players", None)
        info = InfoSet(**kwargs)
        if players is not None and players != info.players:
            raise ValueError(f"players={players!r} does not match the rules' table ({info.players} seats)")
        return info


_OLD_FIELDS = ("seat", "dealer", "players", "phase", "step", "current_seat", "hand", "turned_card", "bottom_card",
               "auction", "bid_round", "contract", "denomination", "taker", "exchanged", "out_of_play", "discarded",
               "declared", "decl_winner", "decl_cards", "trick", "trick_leader", "tricks", "played_by", "hand_sizes",
               "card_points", "announcements", "scores", "reserve", "deal_number", "legal_actions", "rules",
               "public_knowledge")


class _InfoSetByOldName(metaclass=_OldInfoSetName):
    pass


__getattr__ = deprecated_names(__name__, {
    "SmallGameState": ("belote_env.GameState (one engine for every table)", lambda: _StateByOldName),
    "new_game": ("belote_env.GameState (or games.game_of(rules).new_state)", lambda: _new_game),
    "SmallInfoSet": ("belote_env.InfoSet (one information set for every table)", lambda: _InfoSetByOldName),
    "STEPS": ("belote_env.game.STEPS", lambda: _game.STEPS),
    "LAST_TRICK": ("belote_env.game.LAST_TRICK", lambda: _game.LAST_TRICK),
    "BELOTE": ("belote_env.game.BELOTE", lambda: _game.BELOTE),
    "DealError": ("belote_env.dealing.DealError", lambda: __import__("belote_env.dealing").dealing.DealError)})
