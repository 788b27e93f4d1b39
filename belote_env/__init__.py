"""belote-rl: classic team Belote as a rules engine and reinforcement-learning environments.

``belote_env`` holds the pure-Python rules engine (``cards``, ``config``, ``actions``,
``contract``, ``auction``, ``rules``, ``scoring``, ``game``, ``infoset``) and, on top of it, the numpy
observation encoders and the PettingZoo / Gymnasium environments (imported lazily).
"""

from .actions import ACTION_TABLE_VERSION, NUM_ACTIONS, action_to_string
from .cards import card_to_str, parse_card, parse_cards
from .config import RuleOptionError, Rules, load_rules, preset_names
from .contract import Contract
from .game import GameState, IllegalActionError, Phase
from .infoset import InfoSet

__version__ = "0.1.0"

try:  # gymnasium / pettingzoo registration (they import numpy; the engine modules do not)
    from .registration import register_envs as _register_envs

    _register_envs()
except ImportError:  # pragma: no cover - an engine-only install
    pass

__all__ = [
    "ACTION_TABLE_VERSION", "NUM_ACTIONS", "action_to_string", "card_to_str", "parse_card",
    "parse_cards", "Rules", "RuleOptionError", "load_rules", "preset_names", "GameState", "IllegalActionError", "Phase", "InfoSet",
    "Contract",
    "belote_v0",
]


def __getattr__(name):
    if name == "belote_v0":  # numpy / PettingZoo only when the environment is asked for
        import importlib

        return importlib.import_module(".belote_v0", __name__)
    raise AttributeError(f"module 'belote_env' has no attribute {name!r}")
