"""The game a rule set plays: its static facts and the factory of its states.

``game_of(rules)`` is the one place that chooses a variant from the rules: the table (2, 3
or 4 seats, ``Rules.players``; TWO_THREE.md), the auction (classic take / pass, coinche,
the two- and three-player proposals), the engine of its states, its observation layout and
encoder, its number of actions and how its scores are kept. Everything above the engine
asks the ``Game`` (as OpenSpiel's ``Game`` holds a game's static facts and makes its
states), not ``rules.players``::

    >>> from belote_env import load_rules
    >>> from belote_env.games import game_of
    >>> g = game_of(load_rules("seed001_3p"))
    >>> g.players, g.num_actions, g.obs_size, g.sides, g.has_partners
    (3, 414, 902, 3, False)
    >>> st = g.new_state(seed=1)          # a game.GameState of three seats
    >>> tables = g.batched(1024, seed=1)  # a vector.BatchedGame of 1024 three-seat tables

A ``Game`` is immutable and made once per ``Rules`` object.
"""

from __future__ import annotations

import functools

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from .actions import EXTENDED_NUM_ACTIONS, NUM_ACTIONS, PROPOSAL_NUM_ACTIONS
from .config import Rules
from .table import Table, table_of

__all__ = ["Game", "game_of", "AUCTION_KINDS", "PLAY_PROTOCOLS"]

#: the values of ``Game.auction_kind`` and ``Game.play_protocol``
AUCTION_KINDS = ("classic", "coinche", "proposal")
PLAY_PROTOCOLS = ("team", "cutthroat")


@dataclass(frozen=True, eq=False)
class Game:
    """The static facts of the game ``rules`` play, and the factory of its states.

    Attributes:
        rules: the ``Rules``.
        table: the seats (``table.Table``: 2, 3 or 4; teams 0+2 and 1+3 at four seats).
        has_partners: four seats in two teams (RULES.md §2); at two and three seats every
            seat plays for itself (TWO_THREE.md §2.9).
        sides: the scores a game keeps: 2 (one per team) or ``players`` (one per seat).
        num_actions: the flat action ids (``actions``): 112; 412 for coinche with a
            générale or bids above 160; 414 at two and three seats.
        obs_size: floats of the information-set observation (``encode``): 618 classic,
            1141 coinche, 716 / 902 at two / three seats.
        obs_version: the encoder's version (``observation.OBS_ENCODER_VERSION``, 1, for the
            classic game; ``"coinche-1"``, ``"small-1"``).
        history_shape: ``(rows, 2)`` of the history observation (``encode_history``), or
            ``None`` where the game has none (two and three seats).
        reward_scale: the points a ``"scaled"`` reward divides by (``driver.reward_scale``:
            162, a classic deal's card points, RULES.md §7; 500 in coinche).
    """

    rules: Rules
    table: Table
    has_partners: bool
    sides: int
    num_actions: int
    obs_size: int
    obs_version: int | str
    history_shape: tuple[int, int] | None
    reward_scale: int
    auction: Callable[..., Any]
    """The auction part: ``auction(dealer, turned_card, rules, history)`` is a new
    ``auction.Auction`` (``ClassicAuction``, ``CoincheAuction`` or ``ProposalAuction``;
    ``auction.new_auction``)."""
    deal: Callable[..., tuple[list[int], int, list[int]]]
    """The deal layout: ``deal(deck, dealer)`` is a checked deck's first deal, ``(hands,
    turned, stock)``: ``dealing.deal`` (classic, RULES.md §3.1), every card and nothing
    turned in coinche (``dealing.deal_all``, COINCHE.md §2), ``dealing.packet_deal`` at two
    and three seats (the stock stays in the deck there: ``dealing.packet_complete``)."""
    _encode: Callable[..., np.ndarray]
    play_options: tuple[str, bool, str, str]
    """The legal-card rule's options at this table (``rules.play_options``, computed once:
    ``rules.legal_cards`` and ``inference.card_reveals`` read them at every card)."""
    auction_kind: str = "classic"
    """The auction ``auction`` makes: ``"classic"`` (take or pass, then name a contract,
    RULES.md §3), ``"coinche"`` (bids, coinche and surcoinche, COINCHE.md §3) or
    ``"proposal"`` (the two- and three-seat proposals and answers, TWO_THREE.md §2.3)."""
    score_seats: Callable[..., Any] | None = None
    """The deal scorer of a game without teams: ``score_seats(view, totals)`` is the deal's
    ``scoring.CutthroatDealScore`` from each seat's deal total (``totals``, ints), for a
    ``game.GameState`` or an ``InfoSet`` (its ``taker``, ``rules`` and ``reserve``;
    ``scoring.score_cutthroat_deal``, TWO_THREE.md §2.9): the engine's and the expert's
    one entry to it (``GameState``, ``policies.search.deal_margin``). ``None`` where the
    deal is scored by team (``GameState`` scores the classic and the coinche deal,
    RULES.md §7, COINCHE.md §6)."""
    obs_blocks: tuple = ()
    """The observation's layout as data: its ``(observation.Block, offset)`` pairs, in order
    (``observation.team_blocks``, ``observation.cutthroat_blocks``). Each block says how a
    renaming of the suits moves it (``Block.suits``), so the 24 renamings of any game's
    observation follow from it (``observation.rename_blocks``, ``suit_renaming``)."""
    play_protocol: str = "team"
    """How the side decisions of the play are made (``PLAY_PROTOCOLS``): ``"team"`` (four
    seats: declarations made with the first card, RULES.md §6; belote announced with the
    first card of the pair, §5) or ``"cutthroat"`` (two and three seats: the seven's
    exchange, the taker's discards and the combinations are steps of their own; belote
    claimed with the second card, TWO_THREE.md §2.5-§2.7)."""

    @property
    def players(self) -> int:
        return self.table.n_seats

    @property
    def variant(self) -> str:
        """The game's name: ``"classic"``, ``"coinche"``, ``"two"`` or ``"three"`` (the
        hard tier's model, the model files' sizes; ``config.variant_of``)."""
        from .config import variant_of

        return variant_of(self.rules)

    @property
    def auction_bound(self) -> int:
        """The most decisions one auction of this game can take: two rounds of the table
        (classic, RULES.md §3.2-§3.4), ``auction.length_bound`` (coinche, COINCHE.md §3.4) or
        ``auction.proposal_length_bound`` (two and three seats, TWO_THREE.md §2.3)."""
        from .auction import length_bound, proposal_length_bound

        if self.auction_kind == "proposal":
            return proposal_length_bound(self.rules)
        return length_bound(self.rules) if self.auction_kind == "coinche" else 2 * self.players

    def suit_renaming(self, perm) -> tuple[np.ndarray, np.ndarray]:
        """``(obs_index, card_index)``, int64 ``(obs_size,)`` and ``(32,)``: the observation
        and card indices of the renaming ``perm`` of the suits (suit ``s`` becomes
        ``perm[s]``; ``observation.rename_blocks`` of ``obs_blocks``): ``obs[...,
        obs_index]`` is the observation of the renamed deal. ``ValueError`` for a ``perm``
        that is not a permutation of 0..3."""
        from .observation import rename_blocks

        return rename_blocks(self.obs_blocks, perm, self.obs_size)

    def new_state(self, **kwargs: Any):
        """A new game's ``game.GameState``, with its keyword arguments (``seed``, ``rng``,
        ``dealer``, ``single_deal``, ...). Raises ``TypeError`` for ``rules=`` (the game's
        own rules are used)."""
        if "rules" in kwargs:
            raise TypeError("Game.new_state plays the game's own rules: leave out rules= (games.game_of(rules) "
                            "gives the game of other rules)")
        from .game import GameState

        return GameState(self.rules, **kwargs)

    def batched(self, n: int, seed: int = 0, autoreset: bool = True):
        """``n`` tables of single deals of this game stepped together in compiled code:
        ``vector.BatchedGame(n, rules, seed, autoreset)`` (its arguments and errors;
        ``RuleOptionError`` for an option the batched engine does not play). Imports numba
        on first use."""
        from .vector.engine import BatchedGame

        return BatchedGame(n, self.rules, seed=seed, autoreset=autoreset)

    def encode(self, info, out: np.ndarray | None = None) -> np.ndarray:
        """The ``(obs_size,)`` float32 observation of a seat's information set
        (``observation.encode_infoset`` or ``observation.encode_cutthroat``). Raises
        ``ValueError`` for an information set of a table of another size."""
        rules = getattr(info, "rules", None)
        if rules is not self.rules and (not isinstance(rules, Rules) or rules.players != self.table.n_seats):
            raise ValueError(f"{self!r} encodes information sets of its {self.players}-seat table, got one of "
                             f"{getattr(rules, 'players', '?')} seats (games.game_of(info.rules).encode)")
        return self._encode(info, out)

    def encode_history(self, info, out: np.ndarray | None = None) -> np.ndarray:
        """The ``history_shape`` int16 history observation (``observation.encode_history``).
        Raises ``ValueError`` where the game has none (two and three seats)."""
        if self.history_shape is None:
            raise ValueError(f"the {self.players}-player game has no history observation; use the information-set "
                             "observation (Game.encode, observation.encode_cutthroat)")
        from .observation import encode_history

        return encode_history(info, out)

    def __repr__(self) -> str:
        return (f"Game(players={self.players}, contract_mode={self.rules.contract_mode!r}, "
                f"num_actions={self.num_actions}, obs_size={self.obs_size})")


def game_of(rules: Rules) -> Game:
    """The ``Game`` of ``rules`` (made once per ``Rules`` object and kept on it). Raises
    ``TypeError`` for anything but a ``Rules``."""
    try:
        return rules.__dict__["_game"]
    except (KeyError, AttributeError):
        pass
    if not isinstance(rules, Rules):
        raise TypeError(f"game_of needs a Rules (belote_env.load_rules), got {type(rules).__name__}")
    game = _make_game(rules)
    object.__setattr__(rules, "_game", game)
    return game


def _coinche_auction(dealer: int, turned_card: int, rules: Rules, history=()):
    """``CoincheAuction`` under the auction part's signature (nothing is turned in coinche:
    ``turned_card`` is -1 and ignored)."""
    from .auction import CoincheAuction

    return CoincheAuction(dealer, rules, history)


def _coinche_deal(deck, dealer: int) -> tuple[list[int], int, list[int]]:
    """``dealing.deal_all`` under the deal part's signature: nothing turned, no stock."""
    from .dealing import deal_all

    return deal_all(deck, dealer), -1, []


def _deal_without_stock(rules: Rules, deck, dealer: int) -> tuple[list[int], int, list[int]]:
    """The two- and three-seat first deal as ``Game.deal`` gives it: ``dealing.packet_deal``'s
    hands and turned card, no stock (the rest stays in the deck). Module level: states
    that hold their game pickle (OpenSpiel's ``serialize``)."""
    from .dealing import packet_deal

    return (*packet_deal(deck, dealer, rules), [])


def _score_cutthroat(view, totals) -> Any:
    """``Game.score_seats`` of the two- and three-seat game: ``scoring.score_cutthroat_deal``."""
    from .scoring import score_cutthroat_deal

    return score_cutthroat_deal(view.taker, totals, view.rules, view.reserve)


def _make_game(rules: Rules) -> Game:
    from .driver import reward_scale

    from .auction import ClassicAuction, ProposalAuction
    from .dealing import deal
    from .rules import play_options

    table = table_of(rules.players)
    coinche = rules.contract_mode == "coinche"
    scale = reward_scale(rules)
    play = play_options(rules)

    if not table.teams:  # two or three seats, each for itself (TWO_THREE.md)
        from .observation import CUTTHROAT_OBS_VERSION, cutthroat_blocks, cutthroat_obs_size, encode_cutthroat

        return Game(rules, table, False, table.n_seats, PROPOSAL_NUM_ACTIONS, cutthroat_obs_size(rules),
                    f"small-{CUTTHROAT_OBS_VERSION}", None, scale, ProposalAuction,
                    functools.partial(_deal_without_stock, rules), encode_cutthroat, play, auction_kind="proposal",
                    score_seats=_score_cutthroat, obs_blocks=cutthroat_blocks(table.n_seats),
                    play_protocol="cutthroat")
    from .observation import (
        COINCHE_OBS_SIZE, COINCHE_OBS_VERSION, OBS_ENCODER_VERSION, OBS_SIZE, encode_infoset, history_shape,
        team_blocks,
    )

    n_actions = EXTENDED_NUM_ACTIONS if coinche and (rules.generale or rules.max_numeric_bid > 160) else NUM_ACTIONS
    return Game(rules, table, True, len(table.teams), n_actions, COINCHE_OBS_SIZE if coinche else OBS_SIZE,
                f"coinche-{COINCHE_OBS_VERSION}" if coinche else OBS_ENCODER_VERSION, history_shape(rules),
                scale, _coinche_auction if coinche else ClassicAuction, _coinche_deal if coinche else deal,
                encode_infoset, play, auction_kind="coinche" if coinche else "classic", obs_blocks=team_blocks(coinche),
                play_protocol="team")
