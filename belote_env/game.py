"""The rules engine's one entry point: ``GameState``, a game of Belote at any table the
rules set (``games.game_of(rules)``): four-player team Belote (RULES.md §2-§8), classic
(take/pass on the turned card) or coinche (``contract_mode="coinche"``: the 3-2-3 deal, the
auction of bids 80..160 / capot with coinche and surcoinche, scoring against the contract;
COINCHE.md), and the two- and three-player games (``players`` 2 or 3, TWO_THREE.md).

``GameState`` holds a whole game (deals to the target), or one deal played on its own
(``single_deal=True``). It knows nothing of RL, numpy or PettingZoo: ``legal_actions()``
lists the action ids (``actions.py``) the seat to act may take, ``apply(action)`` plays
one, ``information_set(seat)`` tells what a seat may know.

A deal ends in phase ``DEAL_OVER`` (played and scored, or void after the passes); call
``next_deal()`` to go on, until phase ``GAME_OVER``. A single-deal state
(``GameState(rules, single_deal=True)``: the deal episodes of the envs, training and
evaluation) reaches ``GAME_OVER`` with its first played deal, whatever the rules' target
and deal limit; a void deal still ends in ``DEAL_OVER`` and is redealt with
``next_deal()`` (RULES.md §8). Every deck is drawn from the ``random.Random`` the state
owns (or given explicitly), so a game is reproducible from (rules, seed or decks, actions).

The game's parts decide what differs by table (``games.Game``): the deal layout
(``Game.deal``: ``dealing.deal``, ``deal_all``, ``packet_deal``), the auction
(``Game.auction``), the sides a deal's points go to (``Table.side``: the two teams, or each
seat for itself). At two and three seats ``Phase.PLAY`` has sub-steps before the cards
(``step``, an index of ``STEPS``): the taker's discards (``three_player_deal="10_each"``),
the exchange of the seven of trumps (``dix_exchange="choice"``: every seat in turn from the
elder chooses ``EXCHANGE_SEVEN``, legal only to its holder, or ``KEEP``), the combinations
(``declarations="choice"``, the protocol of TWO_THREE.md §2.6: at two seats the elder
announces or declines and the dealer answers ``ANSWER_ENOUGH`` / ``ANSWER_NOT_ENOUGH`` /
``ANSWER_EQUAL``, the last two only when his best combination's value is above or equal to
the value the elder announced (the value is all that is public of the elder's combination,
RULES.md §11; "same" then compares the two in full, ``declarations.combination_key``);
"enough" is always open to him, as declining is: it concedes; at three seats each seat
announces or declines), then ``"cards"``;
belote is claimed there with the second card (``belote="optional"``: ``ANNOUNCE_BELOTE``
first, TWO_THREE.md A17), at four seats with the first (RULES.md §5).

The rules it plays live in their own modules: dealing and the completion after a take in
``dealing``, legal cards and trick winners in ``rules``, what a played card reveals in
``inference`` (``card_reveals``, ``belote_reveals``), belote, declaration and deal points
in ``scoring`` and ``declarations``, the seats in ``table``, the auction in ``auction``
(``new_auction``: each deal's ``Auction``, whose outcome is a ``contract.Contract`` or a
void deal). A game may start from explicit hands (``GameState.from_hands``,
``dealing.deck_from_hands``) and resume with given scores, litige reserve and deals played
(``scores=``, ``reserve=``, ``deal_number=``).

Pure Python (no numpy).
"""

from __future__ import annotations

import random
from enum import IntEnum
from typing import Sequence

from .actions import (
    ANNOUNCE_BELOTE, ANSWER_ENOUGH, ANSWER_EQUAL, ANSWER_NOT_ENOUGH, DECLARE, DECLINE_DECLARE, EXCHANGE_SEVEN, KEEP,
    action_to_string, num_actions, of_auction,
)
from .auction import Auction
from .cards import ALL_TRUMP, NO_TRUMP, NUM_CARDS, POINTS_BY_ALL_TRUMP_OPTION, SUITS, Rank, card, card_to_str, cards_of
from .config import RuleOptionError, Rules
from .contract import GENERALE, Contract
from .dealing import (
    HAND_SIZE, check_deck, complete, deck_from_full_hands, deck_from_hands, is_whole_deal, packet_complete,
    packet_deck_from_hands,
)
from .declarations import (
    Declaration, best_declarations, combinations_of, combination_winner, combination_key, ties_shown,
)
from .deprecation import renamed
from .games import Game, game_of
from .inference import belote_reveals, card_reveals
from .infoset import InfoSet
from .rules import co_defender_pos, legal_cards, trick_winner
from .scoring import (
    DealScore, CutthroatDealScore, game_end, score_coinche_game_deal, score_deal, team_belote_points,
    team_declaration_points,
)
from .table import SEAT_NAMES, Table, partner_of, team_of

__all__ = ["GameState", "Phase", "IllegalActionError", "STEPS", "team_of", "partner_of", "SEAT_NAMES", "seeded_rng", "dealer_after"]

#: the sub-steps of ``Phase.PLAY`` at two and three seats (``GameState.step``; -1 at four
#: seats, where play is cards only)
STEPS = ("exchange", "discard", "declare", "cards")
_CARDS = STEPS.index("cards")
#: points of the last trick at two and three seats (TWO_THREE.md §2.8)
LAST_TRICK = 10
#: points of belote at two and three seats (TWO_THREE.md §2.9)
BELOTE = 20

class Phase(IntEnum):
    """Where a game stands."""

    BIDDING = 0
    PLAY = 1
    DEAL_OVER = 2
    GAME_OVER = 3


class IllegalActionError(ValueError):
    """An action that the acting seat may not take now.

    Attributes: ``action`` (the id given), ``seat`` (the acting seat), ``legal`` (tuple of
    the legal ids). The message names all three and never mentions hidden cards.
    """

    def __init__(self, message: str, action, seat: int, legal: Sequence[int]):
        super().__init__(message)
        self.action, self.seat, self.legal = action, seat, tuple(legal)


_KING, _QUEEN, _SEVEN = Rank.KING, Rank.QUEEN, Rank.SEVEN


def seeded_rng(seed) -> random.Random:
    """A ``random.Random`` seeded by ``seed``: a non-negative int (numpy ints too), or None
    (seeded from the OS). Raises ``ValueError`` for anything else (``random.Random`` would
    read -1 as 1 and hash a str): the one check of every seed a game is dealt from."""
    if seed is None:
        return random.Random()
    if isinstance(seed, bool) or not hasattr(seed, "__index__") or seed.__index__() < 0:
        raise ValueError(f"seed must be a non-negative int or None, got {seed!r:.40}")
    return random.Random(seed.__index__())


def dealer_after(rules: Rules, dealer: int, void: bool = False, redeal: bool = False) -> int:
    """The dealer of the deal after one dealt by ``dealer`` (a seat, 0..players-1): the next
    seat after a played deal, after a void deal per ``all_pass_redeal`` (RULES.md §2, §3.4;
    at two and three seats always), after an agreed redeal (``redeal``) per
    ``redeal_dealer`` (the same dealer or the elder, TWO_THREE.md A3)."""
    rotate = rules.redeal_dealer == "elder" if redeal else not void or rules.all_pass_redeal != "same_dealer"
    return (dealer + 1) % rules.players if rotate else dealer


def _seat(value, what: str, n: int = 4) -> int:
    if isinstance(value, bool) or not hasattr(value, "__index__") or not 0 <= value.__index__() < n:
        raise ValueError(f"{what} must be a seat 0..{n - 1} (int), got {value!r}")
    return value.__index__()


#: Bound on a resumed game's scores, litige reserve and deal number (far above any real
#: game: the option ``target`` is at most 1,000,000).
MAX_RESUME = 10 ** 9


def _count(value, what: str) -> int:
    """``value`` as an int in 0..``MAX_RESUME`` (numpy ints too; not a bool), else
    ``ValueError`` (a huge value is described by its digit count, never printed)."""
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise ValueError(f"{what} must be an int in 0..{MAX_RESUME}, got {type(value).__name__} "
                         f"{repr(value)[:60]}")
    v = value.__index__()
    if not 0 <= v <= MAX_RESUME:
        digits = len(str(abs(v))) if abs(v) < 10 ** 4000 else "over 4000"
        shown = v if abs(v) < 10 ** 30 else f"an int of {digits} digits"
        raise ValueError(f"{what} must be an int in 0..{MAX_RESUME}, got {shown}")
    return v


def _litige_possible(rules: Rules) -> bool:
    """Whether ``rules`` can leave a litige reserve (RULES.md §7; COINCHE.md §6.9)."""
    if rules.contract_mode == "coinche":
        return rules.contract_condition == "reach_bid_and_beat_defence" and rules.tie_with_defence == "litige"
    return rules.tie == "litige"


def _past_target(rules: Rules, total: int) -> bool:
    """Whether a game total of ``total`` points certainly ended a game under ``rules``
    (RULES.md §8). Coinche (COINCHE.md §6.10, §6.11): a team *meets* the target at
    ``>= target`` (``target_rule="reach"``) or ``> target`` (``"exceed"``); with
    ``no_win_on_belote_alone``, or a ``rounding`` with ``round_last_deal`` False, a game
    may go on with a team past the target (a failed team's belote; a deal rounded over the
    target whose exact points did not end it), so no total is refused there."""
    if rules.contract_mode != "coinche":
        return total >= rules.target
    if rules.no_win_on_belote_alone or (rules.rounding != "none" and not rules.round_last_deal):
        return False
    return total > rules.target if rules.target_rule == "exceed" else total >= rules.target


def _resume(game: Game, scores, reserve, deal_number, single_deal: bool = False) -> tuple[list[int], int, int]:
    """The checked ``scores`` (one per side: ``game.sides``), ``reserve`` and ``deal_number`` a
    game resumes with (a single deal carries any scores: its target is not checked; at two
    and three seats no target is checked)."""
    rules, sides = game.rules, game.sides
    if (isinstance(scores, (str, bytes, set, frozenset, dict)) or not hasattr(scores, "__len__")
            or not hasattr(scores, "__getitem__") or len(scores) != sides):
        what = "(team 0, team 1): two ints" if game.has_partners else f"{sides} ints (one per seat)"
        raise ValueError(f"scores must be {what} in 0..{MAX_RESUME}, got {repr(scores)[:80]}")
    scores = [_count(scores[i], f"scores[{i}]") for i in range(sides)]
    reserve = _count(reserve, "reserve")
    deal_number = _count(deal_number, "deal_number")
    coinche = rules.contract_mode == "coinche"
    if reserve and not _litige_possible(rules):
        if not game.has_partners:
            raise ValueError(f"reserve must be 0 under tie={rules.tie!r}: a reserve arises only with tie='litige' "
                             f"(TWO_THREE.md §4 A22), got {reserve}")
        if coinche:
            raise ValueError(f"reserve must be 0 under contract_condition={rules.contract_condition!r}, "
                             f"tie_with_defence={rules.tie_with_defence!r}: a coinche litige reserve arises only "
                             "with contract_condition='reach_bid_and_beat_defence' and tie_with_defence='litige' "
                             f"(COINCHE.md §6.9), got {reserve}")
        raise ValueError(f"reserve must be 0 under tie={rules.tie!r}: a litige reserve arises only with "
                         f"tie='litige' (RULES.md §7), got {reserve}")
    if game.has_partners and scores[0] != scores[1] and not single_deal:  # equal totals play on (RULES.md §8)
        if rules.target is not None and _past_target(rules, max(scores)):
            verb = "exceed" if coinche and rules.target_rule == "exceed" else "reach"
            raise ValueError(f"scores {tuple(scores)} already {verb} the target {rules.target}: that game is over "
                             + ("(COINCHE.md §6.11)" if coinche else "(RULES.md §8)"))
        if rules.max_deals is not None and deal_number >= rules.max_deals:
            raise ValueError(f"deal_number {deal_number} already reaches max_deals {rules.max_deals}: that game "
                             "is over (RULES.md §8)")
    return scores, reserve, deal_number



class GameState:
    """A game of Belote in progress at the table its rules set: team Belote at four seats,
    classic (RULES.md §3-§8) or coinche (COINCHE.md, ``rules.contract_mode == "coinche"``;
    ``turned_card`` is then ``-1`` and there is no stock; ``auction`` is an
    ``auction.CoincheAuction``; deals are scored by ``scoring.score_coinche_deal``), or the
    two- and three-player game (``rules.players`` 2 or 3, TWO_THREE.md: scores per seat,
    deals scored by ``scoring.score_cutthroat_deal``, the sub-steps ``STEPS`` in play).

    Args:
        rules: rule options (default ``Rules()``, seed 004; ``load_rules("seed001_2p")``
            for two players).
        seed: seed of the state's own ``random.Random`` (ignored if ``rng`` is given).
        rng: a ``random.Random`` the state owns from now on, used to shuffle each deck.
        dealer: first dealer's seat (0..players-1).
        deck: explicit card order (32 distinct ids) for the first deal, else shuffled:
            ``deck[0:20]`` the packets of 3 then 2 from eldest, ``deck[20]`` the turned
            card, ``deck[21:]`` the stock (``dealing``, RULES.md §3.1, §3.5; at two and
            three seats ``dealing.PacketLayout`` says where each card goes); build one
            from hands with ``dealing.deck_from_hands`` or use ``GameState.from_hands``.
        scores: the game scores to resume a game with, one per side (keyword only; ints
            in 0..``MAX_RESUME``: (team 0, team 1) at four seats, one per seat at two and
            three; default zeros).
        reserve: the pending litige reserve (points, RULES.md §7) to resume with (keyword
            only; int in 0..``MAX_RESUME``, only under ``tie="litige"``).
        deal_number: played deals already finished (keyword only; int in 0..``MAX_RESUME``; counts
            toward ``max_deals``).
        single_deal: play one deal on its own (keyword only; a bool, default False): the
            game ends (``GAME_OVER``) after its first played deal whatever ``rules.target``
            and ``rules.max_deals`` say, the higher total winning and equal totals drawing
            (``winner`` None), as under ``target=None``; a void deal still ends in
            ``DEAL_OVER``, to be redealt with ``next_deal()`` (RULES.md §3.4, §8). The
            rules are kept as given (``information_set(seat).rules`` is ``rules``); given
            scores are carried whatever the target (``game_record`` writes the game with
            ``target`` and ``max_deals`` null, which replays the same).

    Raises:
        RuleOptionError: ``rules`` is not a ``Rules`` (the engine plays every option).
        ValueError: bad ``dealer`` or ``deck`` (``dealing.DealError``), or scores,
            reserve or deal number that are not ints in 0..``MAX_RESUME``, a reserve under a ``tie`` rule
            other than ``"litige"``, unequal four-seat scores that already end the game
            (the target or ``max_deals`` reached, RULES.md §8; not checked for a single
            deal), a ``single_deal`` that is not a bool, or a ``seed`` that is not a
            non-negative int (``random.Random`` would read -1 as 1 and hash a str).
    """

    __slots__ = (
        "rules", "game", "table", "n", "_side", "_teams", "rng", "dealer", "scores", "reserve", "deal_number", "phase",
        "winner", "deal_scores", "_points", "deck", "hands", "turned_card", "stock", "auction", "contract",
        "denomination", "taker", "current", "trick", "trick_leader", "tricks", "played_by", "card_points",
        "tricks_won", "belote_pairs", "announcements", "announce_next", "declared", "declare_next", "actions",
        "deal_score", "void", "redeal", "_legal", "deal_log", "public_cannot", "public_known", "start",
        "single_deal", "step", "bottom_card", "unused", "out_of_play", "exchanged", "exchange_order", "discarded",
        "combos", "announced", "decl_winner", "decl_cards", "decl_order", "belote_holder", "void_streak",
    )

    def __init__(self, rules: Rules | None = None, seed: int | None = None,
                 rng: random.Random | None = None, dealer: int = 0,
                 deck: Sequence[int] | None = None, *, scores: Sequence[int] | None = None, reserve: int = 0,
                 deal_number: int = 0, single_deal: bool = False):
        if rules is None:
            rules = Rules()
        elif not isinstance(rules, Rules):
            raise RuleOptionError(f"GameState: rules must be a belote_env.Rules, got {type(rules).__name__}")
        game = game_of(rules)
        self.game = game
        self.table: Table = game.table
        self.n = n = game.table.n_seats
        self._side = game.table.side
        self._teams = game.has_partners
        dealer = _seat(dealer, "dealer", n)
        if type(single_deal) is not bool:
            raise ValueError(f"single_deal must be True or False, got {single_deal!r}")
        if scores is None and type(reserve) is int and type(deal_number) is int and reserve == 0 == deal_number:
            scores = [0] * game.sides
        else:  # a resumed game: check what it resumes with
            scores, reserve, deal_number = _resume(game, [0] * game.sides if scores is None else scores, reserve,
                                                   deal_number, single_deal)
        self.rules = rules
        #: one deal on its own: the game ends with its first played deal (RULES.md §8)
        self.single_deal = single_deal
        self.rng = rng if rng is not None else seeded_rng(seed)
        self._points = POINTS_BY_ALL_TRUMP_OPTION[rules.all_trump_points or "pagat"]
        self.dealer = dealer
        self.scores = list(scores)
        self.reserve = reserve
        self.deal_number = deal_number  # played (not void) deals finished
        #: deals passed out (or redealt by agreement) in a row just before the one in progress
        self.void_streak = 0
        #: (scores, reserve, deal_number) the game started from (records.py writes them)
        self.start = (tuple(scores), reserve, deal_number)
        self.winner: int | None = None
        self.deal_scores: list[DealScore | CutthroatDealScore] = []
        #: every deal of the game so far: {"dealer", "deck", "actions"} (records.py)
        self.deal_log: list[dict] = []
        self._start_deal(deck)

    @classmethod
    def from_hands(cls, hands: Sequence[Sequence[int | str]], turned: int | str | None = None,
                   stock: Sequence[int | str] | None = None, rules: Rules | None = None, *, dealer: int = 0,
                   bottom: int | str | None = None, **kwargs) -> "GameState":
        """A game whose first deal deals ``hands``, ``turned`` and ``stock`` (RULES.md §3.1),
        or, in coinche mode, the 8-card ``hands`` (COINCHE.md §2; ``turned`` and ``stock``
        stay ``None``), or at two and three seats the 6 + 3 deal (TWO_THREE.md §2.2, §2.4:
        ``stock`` per seat its 3 later cards, and ``bottom``).

        Args:
            hands: per seat, its cards before the auction (ids 0..31 or names such as
                ``"J♠"`` / ``"JS"``): at four seats 5, the first three its first packet,
                the last two its second; at two and three seats 6. Coinche: its 8 cards
                (packets of 3, 2, 3; a 32-bit mask also works, ``dealing.deck_from_full_hands``).
            turned: the turned card (not in coinche).
            stock: the 11 stock cards in the order they are dealt after a take (§3.5;
                classic only); at two and three seats per seat its 3 later cards
                (``dealing.packet_deck_from_hands``).
            rules, dealer: as for ``GameState``; ``bottom``: the bottom card shown to all
                (two and three seats only); ``kwargs``: its other arguments (``seed``,
                ``rng`` for the later decks, ``scores``, ``reserve``, ``deal_number``,
                ``single_deal``).
        Raises:
            ValueError: ``dealing.DealError`` for hands, turned card or stock that do not
                make a deal (shapes 4 x 5 and 11, or 4 x 8 in coinche; unknown or repeated
                cards; a turned card or stock given in coinche mode, or missing in
                classic; a bottom card at four seats or none at two and three), or as
                ``GameState``.
            RuleOptionError: ``rules`` is neither ``None`` nor a ``Rules`` (a preset name
                or a dict: build it with ``load_rules``).
        """
        if rules is not None and not isinstance(rules, Rules):  # before the deal is read by the wrong mode
            raise RuleOptionError(f"rules must be a belote_env.Rules (e.g. load_rules({rules!r:.40})), got "
                                  f"{type(rules).__name__}")
        if rules is not None and not game_of(rules).has_partners:
            if turned is None or stock is None or bottom is None:
                raise ValueError("a two- or three-seat deal needs hands of 6 cards, the turned card, per seat its 3 "
                                 "later cards (stock) and the bottom card (TWO_THREE.md §2.2, §2.4)")
            return cls(rules, dealer=dealer, deck=packet_deck_from_hands(hands, turned, stock, bottom, rules, dealer),
                       **kwargs)
        if bottom is not None:
            raise ValueError("a bottom card is dealt only at two and three seats (TWO_THREE.md §2.4)")
        if rules is not None and rules.contract_mode == "coinche":
            if turned is not None or stock is not None:
                raise ValueError("coinche deals every card (COINCHE.md §2): give 4 hands of 8 cards and no turned "
                                 "card or stock")
            return cls(rules, dealer=dealer, deck=deck_from_full_hands(hands, dealer), **kwargs)
        if turned is None or stock is None:
            raise ValueError("a classic deal needs the turned card and the 11-card stock (RULES.md §3.1): give "
                             "hands of 5 cards, turned and stock; 4 hands of 8 cards and no turned card deal a "
                             "coinche game (rules with contract_mode='coinche', COINCHE.md §2)")
        return cls(rules, dealer=dealer, deck=deck_from_hands(hands, turned, stock, dealer), **kwargs)

    # ------------------------------------------------------------------ dealing
    def _start_deal(self, deck: Sequence[int] | None = None) -> None:
        deck = check_deck(deck)
        if deck is None:
            deck = list(range(NUM_CARDS))
            self.rng.shuffle(deck)
        self.deck = tuple(deck)
        n, rules = self.n, self.rules
        eldest = (self.dealer + 1) % n
        #: the first cards (coinche: every card), the turned card (-1 in coinche) and the
        #: classic stock (the game's deal layout, ``Game.deal``)
        self.hands, self.turned_card, self.stock = self.game.deal(self.deck, self.dealer)
        #: the deal's auction (``auction.Auction``): its bids, legal bids and outcome
        self.auction: Auction = self.game.auction(self.dealer, self.turned_card, rules)
        #: the ``Contract`` once a seat takes, else None; its denomination (0..5, -1 before)
        #: and taker (-1 before) are kept as plain ints for the hot paths
        self.contract: Contract | None = None
        self.denomination = -1
        self.taker = -1
        self.current = eldest
        self.step = -1  # the sub-step of play (STEPS index) at two and three seats
        self.trick: list[int] = []
        self.trick_leader = eldest
        self.tricks: list[tuple[int, tuple[int, ...], int]] = []
        self.played_by = [0] * n
        self.card_points = [0] * self.game.sides
        self.tricks_won = [0] * self.game.sides
        self.belote_pairs: list[tuple[int, int]] = []  # (seat, suit) holding K+Q (four seats)
        self.belote_holder = -1  # the seat holding K+Q of trump (two and three seats)
        self.announcements: list[tuple[int, str, int]] = []
        self.announce_next = False  # optional belote: the next card carries the announcement
        #: four seats: per seat its declarations, public once made (§6); two and three
        #: seats: per seat (value, top card, trump flag) of what the comparison showed
        self.declared: list[tuple] = [()] * n if self._teams else [(0, -1, 0)] * n
        self.declare_next = False  # declarations "choice": the next card carries them
        self.bottom_card = -1
        self.unused = 0
        self.out_of_play = 0
        if rules.three_player_deal == "24_card":
            self.out_of_play = sum(1 << c for c in range(NUM_CARDS) if c & 7 < 2)  # the 7s and 8s
        self.exchanged = -1
        self.exchange_order: tuple[int, ...] = ()
        self.discarded = 0
        self.combos: list[tuple[Declaration, ...]] = [()] * n
        self.announced: list[bool] = [False] * n
        self.decl_winner = -1 if self._teams else -2  # -2: not yet compared
        self.decl_cards = 0
        self.decl_order: tuple[int, ...] = ()
        #: per seat, cards the public history shows it cannot hold / certainly holds
        #: (``inference.public_constraints``, kept up to date card by card)
        self.public_cannot = [0] * n
        self.public_known = [0] * n
        self.actions: list[tuple[int, int]] = []
        self.deal_log.append({"dealer": self.dealer, "deck": self.deck, "actions": self.actions})
        self.deal_score: DealScore | CutthroatDealScore | None = None
        self.void = False
        self.redeal = False
        self.phase = Phase.BIDDING
        self._legal: tuple[int, ...] | None = None

    def _complete_deal(self) -> None:
        """Classic: the taker gets the turned card + 2, the others 3, from eldest round the
        table (§3.5); coinche: the hands are already whole (COINCHE.md §2). Then the belote
        pairs are noted and play starts from eldest (or from the générale's bidder with
        ``generale_leads``, COINCHE.md §4). Two and three seats: ``_complete_packet_deal``."""
        if not self._teams:
            self._complete_packet_deal()
            return
        hands = self.hands
        if self.turned_card >= 0:
            hands[:] = complete(hands, self.turned_card, self.stock, self.taker, self.dealer)
        eldest = self.eldest
        if self.rules.generale_leads and self.contract.level == GENERALE:
            eldest = self.taker
        self._note_belote_pairs()
        self.phase = Phase.PLAY
        self.current = eldest
        self.trick_leader = eldest

    def _note_belote_pairs(self) -> None:
        """The seats holding the K and Q of a trump suit (RULES.md §5: none at no-trump;
        every K+Q pair at all-trump), four seats."""
        self.belote_pairs = []
        k = self.denomination
        if k != NO_TRUMP:
            for s in SUITS if k == ALL_TRUMP else (k,):
                pair = (1 << card(_KING, s)) | (1 << card(_QUEEN, s))
                for seat in range(self.n):
                    if self.hands[seat] & pair == pair:
                        self.belote_pairs.append((seat, s))

    def replace_hands(self, hands: Sequence[int]) -> None:
        """At the first lead of a four-seat deal (the auction over, no card played): make
        ``hands`` (one 8-card mask per seat, the deck's 32 cards, the turned card with the
        taker in the classic game) the seats' hands, the belote pairs noted anew. For
        replaying the public play under other hidden hands from one copied state (the
        expert's weighing of its worlds); the deck and the deal log keep the dealt cards.

        Raises ``ValueError`` away from a four-seat first lead or for hands that are not
        such a deal."""
        if (not self._teams or self.phase != Phase.PLAY or self.trick or self.tricks or self.announce_next
                or self.declare_next):
            raise ValueError("replace_hands: only at the first lead of a four-seat deal, before any action of play "
                             "(a card, a declaration, a belote announcement)")
        if isinstance(hands, (str, bytes)) or not all(
                hasattr(h, "__index__") and not isinstance(h, bool) for h in hands):
            raise ValueError(f"replace_hands: hands must be {self.n} ints (32-bit card masks), got {hands!r:.200}")
        hands = [h.__index__() for h in hands]
        if not is_whole_deal(hands, self.turned_card, self.taker):
            raise ValueError(f"replace_hands: {self.n} hands of {HAND_SIZE} cards covering the deck (the turned card "
                             f"in the taker's), got {[hex(h) for h in hands]}")
        self.hands = hands
        self._note_belote_pairs()
        self._legal = None

    def _complete_packet_deal(self) -> None:
        """Two and three seats (TWO_THREE.md §2.4, §3, §4 A26; ``dealing.packet_complete``): 3
        more cards each, the bottom card shown to all; under ``three_player_deal="10_each"``
        the taker takes the last card and the turned card, then discards two (step
        ``"discard"``; the discards' card points count for nobody: the page is silent, and the
        made/failed comparison and the scores count only the tricks won); under ``"24_card"`` the taker gets the turned card and 2, the
        others 3."""
        rules, taker = self.rules, self.taker
        hands, bottom, unused, chien = packet_complete(self.deck, self.dealer, taker, rules)
        self.hands = hands
        self.bottom_card = bottom
        self.unused = unused
        if bottom >= 0:
            self.out_of_play |= 1 << bottom
        self.phase = Phase.PLAY
        if chien:  # 10_each: the taker takes the last card and the turned card, then discards two
            self.hands[taker] |= chien
            self.public_known[taker] |= 1 << self.turned_card
            self.step = STEPS.index("discard")
            self.current = taker
            return
        if rules.three_player_deal == "24_card":
            self.public_known[taker] |= 1 << self.turned_card
        else:
            self.out_of_play |= 1 << self.turned_card  # out of play unless exchanged
        self._after_discard()

    def _after_discard(self) -> None:
        """The seven of trumps (TWO_THREE.md A9), else the combinations."""
        rules, trump = self.rules, self.denomination
        seven = card(_SEVEN, trump)
        possible = (rules.dix_exchange != "off" and rules.three_player_deal in (None, "6+3")
                    and trump == self.turned_card >> 3 and self.turned_card != seven and self.bottom_card != seven)
        if possible and rules.dix_exchange == "auto":
            for seat in range(self.n):
                if self.hands[seat] >> seven & 1:
                    self._exchange(seat)
            possible = False
        if possible:  # every seat in turn: EXCHANGE_SEVEN (the holder only) or KEEP (A9)
            self.exchange_order = self.table.seats_from(self.elder)
            self.step = STEPS.index("exchange")
            self.current = self.exchange_order[0]
            return
        self._start_declarations()

    def _exchange(self, seat: int) -> None:
        seven = card(_SEVEN, self.denomination)
        self.hands[seat] = self.hands[seat] & ~(1 << seven) | 1 << self.turned_card
        self.exchanged = seat
        self.out_of_play = self.out_of_play & ~(1 << self.turned_card) | 1 << seven
        self.public_known[seat] |= 1 << self.turned_card

    def _start_declarations(self) -> None:
        rules, n = self.rules, self.n
        trump = self.denomination
        pair = (1 << card(_KING, trump)) | (1 << card(_QUEEN, trump))
        for seat in range(n):
            if self.hands[seat] & pair == pair:
                self.belote_holder = seat
        if rules.declarations == "off":
            self.decl_winner = -1
        else:
            self.combos = [combinations_of(self.hands[s], trump, rules) for s in range(n)]
            if rules.declarations == "auto":
                for seat in range(n):
                    if self.combos[seat]:
                        self.announced[seat] = True
                self._resolve_declarations()
            else:
                self.decl_order = self.table.seats_from(self.elder)
                self.step = STEPS.index("declare")
                self.current = self.elder
                return
        self._start_play()

    def _best(self, seat: int) -> tuple:
        return combination_key(self.combos[seat][0], self.denomination, self.rules) if self.combos[seat] else ()

    def _announced_value(self, seat: int) -> int:
        """The value ``seat`` announces: its best combination's points (TWO_THREE.md §2.6:
        "announces the value of his best sequence (20 or 50)", whatever ``sequence_compare``
        compares first)."""
        return self.combos[seat][0].points

    def _resolve_declarations(self, winner: int | None | str = "compare") -> None:
        """Decide whose combinations score among the seats that announced (two and three
        seats), and make public what the comparison shows: each announcer's value; the top
        card and trump flag of those tied on what is compared first (the value, or the length
        under ``sequence_compare="length_then_top"``); the winner's combination cards."""
        n = self.n
        ann = [s for s in range(n) if self.announced[s]]
        if winner == "compare":
            declared = [self.combos[s] if self.announced[s] else () for s in range(n)]
            winner = combination_winner(declared, self.denomination, self.rules)
        keys = {s: self._best(s) for s in ann}
        shown = ties_shown(keys)
        for s in ann:
            k, value = keys[s], self._announced_value(s)
            self.declared[s] = (value, k[-2], k[-1]) if s in shown else (value, -1, 0)
        self.decl_winner = -1 if winner is None else winner
        if winner is not None:
            cards = 0
            for d in self.combos[winner]:
                cards |= d.cards
            self.decl_cards = cards
            self.public_known[winner] |= cards

    def _start_play(self) -> None:
        self.step = _CARDS
        self.current = self.trick_leader = self.elder  # the elder leads trick 1 (S001)

    # ------------------------------------------------------------------ queries
    maker = renamed("taker")  # the two- and three-seat engine's old names
    trump = renamed("denomination")

    @property
    def current_seat(self) -> int:
        """Seat to act, or ``-1`` when the deal or game is over."""
        return self.current if self.phase <= Phase.PLAY else -1

    @property
    def is_deal_over(self) -> bool:
        """True once the deal is scored or void (and at game over)."""
        return self.phase >= Phase.DEAL_OVER

    @property
    def is_game_over(self) -> bool:
        """True once the game has ended (RULES.md §8; TWO_THREE.md)."""
        return self.phase == Phase.GAME_OVER

    @property
    def eldest(self) -> int:
        """The seat after the dealer (the elder)."""
        return (self.dealer + 1) % self.n

    elder = eldest

    def legal_actions(self) -> tuple[int, ...]:
        """Legal action ids (ascending ints) for ``current_seat``; ``()`` once the deal is over.

        With ``belote="optional"`` (RULES.md §5) a seat holding an unplayed K+Q pair of
        trump, whose K or Q is playable, may also choose ``ANNOUNCE_BELOTE``; it then must
        play one of the two, and the announcement becomes public with that card. Playing
        the card directly declines: nothing shows the choice to the other seats (at two
        and three seats the claim comes with the second card, TWO_THREE.md A17).
        With ``declarations="choice"`` (§6) a four-seat seat with declarations may choose
        ``DECLARE`` before its first card; they become public with that card. Playing the
        card directly declines, revealing nothing. ``DECLINE_DECLARE`` and ``DECLINE_BELOTE``
        are therefore never legal at four seats. At two and three seats the sub-steps of
        play have their own actions (``STEPS``: ``EXCHANGE_SEVEN`` / ``KEEP``, the discards'
        card ids, ``DECLARE`` / ``DECLINE_DECLARE`` and the answers).
        """
        if self._legal is None:
            if self.phase == Phase.BIDDING:
                self._legal = self.auction.legal_bids()
            elif self.phase != Phase.PLAY:
                self._legal = ()
            elif 0 <= self.step < _CARDS:
                self._legal = self._step_legal()
            elif self._teams:
                self._legal = self._team_card_legal()
            else:
                self._legal = self._cutthroat_card_legal()
        return self._legal

    def _team_card_legal(self) -> tuple[int, ...]:
        cards = legal_cards(self.hands[self.current], self.trick, self.denomination, self.rules)
        extra: tuple[int, ...] = ()
        if self.rules.belote == "optional" and self.belote_pairs:
            ann = cards & self._announceable()
            if self.announce_next:
                cards = ann
            elif ann:
                extra = (ANNOUNCE_BELOTE,)
        if (self.rules.declarations == "choice" and not self.declare_next and not self.tricks
                and not self.played_by[self.current]
                and best_declarations(self.hands[self.current], self.denomination, self.rules)):
            extra = (DECLARE,) + extra
        return (*cards_of(cards), *extra)

    def _announceable(self) -> int:
        """Mask of the current seat's K/Q of trump whose partner card is still in its hand."""
        seat, hand, m = self.current, self.hands[self.current], 0
        for s_, suit in self.belote_pairs:
            pair = (1 << card(_KING, suit)) | (1 << card(_QUEEN, suit))
            if s_ == seat and hand & pair == pair:
                m |= pair
        return m

    def _partner_pos(self, seat: int) -> int:
        """The trick position of ``seat``'s co-defender's card at three seats
        (``rules.co_defender_pos``)."""
        return co_defender_pos(seat, self.taker, self.trick_leader, len(self.trick), self.rules)

    def _cutthroat_card_legal(self) -> tuple[int, ...]:
        seat = self.current
        cards = legal_cards(self.hands[seat], self.trick, self.denomination, self.rules, self._partner_pos(seat))
        extra: tuple[int, ...] = ()
        if self.rules.belote == "optional" and seat == self.belote_holder and not self.announce_next:
            second = self._second_belote_card(seat)
            if second >= 0 and cards >> second & 1:
                extra = (ANNOUNCE_BELOTE,)
        if self.announce_next:
            cards &= 1 << self._second_belote_card(seat)
        return (*cards_of(cards), *extra)

    def _second_belote_card(self, seat: int) -> int:
        """The K or Q of trump still in ``seat``'s hand once it has played the other, else -1."""
        k, q = card(_KING, self.denomination), card(_QUEEN, self.denomination)
        hand, played = self.hands[seat], self.played_by[seat]
        if hand >> k & 1 and played >> q & 1:
            return k
        if hand >> q & 1 and played >> k & 1:
            return q
        return -1

    def _step_legal(self) -> tuple[int, ...]:
        """The legal actions of a sub-step before the cards (two and three seats)."""
        seat, step = self.current, STEPS[self.step]
        hand = self.hands[seat]
        if step == "exchange":
            return (EXCHANGE_SEVEN, KEEP) if hand >> card(_SEVEN, self.denomination) & 1 else (KEEP,)
        if step == "discard":
            return tuple(cards_of(hand))
        has = bool(self.combos[seat])
        if self.n == 2 and seat != self.elder:
            elder = self.elder
            if self.announced[elder]:  # answer the elder's announced value (§2.6), all that is public of it
                out = [ANSWER_ENOUGH]
                if has:
                    mine, theirs = self._announced_value(seat), self._announced_value(elder)
                    if mine > theirs:  # a higher value wins whatever else is compared (combination_key)
                        out.append(ANSWER_NOT_ENOUGH)
                    elif mine == theirs:  # "same": the combinations are then compared in full
                        out.append(ANSWER_EQUAL)
                return tuple(out)
        return (DECLARE, DECLINE_DECLARE) if has else (DECLINE_DECLARE,)

    # ------------------------------------------------------------------ acting
    def _illegal(self, action, why: str) -> IllegalActionError:
        legal = self.legal_actions()
        names = ", ".join(f"{a} ({action_to_string(a)})" for a in legal)
        return IllegalActionError(
            f"illegal action {action!r} by seat {self.current}: {why}; legal ids: [{names}]",
            action, self.current, legal)

    def _checked_action(self, action) -> int:
        """``action`` as an int id legal for the seat to act (numpy ints accepted), the
        state unchanged; raises ``IllegalActionError`` when the deal is over, the id is not
        an int, out of range, a card not in the seat's hand or not legal now."""
        if self.phase >= Phase.DEAL_OVER:
            raise IllegalActionError(
                f"illegal action {action!r}: the deal is over, no seat is to act (legal ids: []); "
                + ("the game is over" if self.phase == Phase.GAME_OVER else "call next_deal()"), action, -1, ())
        if type(action) is not int:
            try:
                if isinstance(action, bool) or not hasattr(action, "__index__"):
                    raise TypeError
                action = action.__index__()  # numpy ints; a size-1 numpy array raises TypeError
            except TypeError:
                raise self._illegal(action, "an action id must be an int") from None
        if action not in self.legal_actions():
            n = num_actions(self.rules)  # 112; 412 with the extended coinche ids; 414 at two and three seats
            if not 0 <= action < n:
                why = f"out of range 0..{n - 1}"
            elif action < NUM_CARDS and self.phase == Phase.PLAY and not self.hands[self.current] >> action & 1:
                why = f"{card_to_str(action)} is not in seat {self.current}'s hand"
            elif not of_auction(action, self.game.auction_kind):
                game = {"two": "two-player", "three": "three-player"}.get(self.game.variant, self.game.variant)
                why = f"{action} is not an action of the {game} game"
            else:
                why = f"{action_to_string(action)} is not legal now"
            raise self._illegal(action, why)
        return action

    def apply(self, action: int) -> None:
        """Apply ``action`` (an id of ``actions.py``) for ``current_seat``.

        Raises:
            IllegalActionError: the id is not an int in range, or not legal now (the
                message names the id, the seat and the legal ids, never a hidden card), or
                the deal is over (no seat acts; call ``next_deal()``); the state is unchanged.
        """
        action = self._checked_action(action)
        self._legal = None
        seat = self.current
        self.actions.append((seat, action))
        if self.phase == Phase.BIDDING:
            self._apply_bid(action)
        elif 0 <= self.step < _CARDS:
            self._apply_step(seat, action)
        elif action == ANNOUNCE_BELOTE:
            self.announce_next = True
        elif action == DECLARE:
            self.declare_next = True
        elif self._teams:
            self._apply_team_card(seat, action)
        else:
            self._apply_cutthroat_card(seat, action)

    def _apply_bid(self, action: int) -> None:
        auction = self.auction
        auction.apply(action)
        contract = auction.contract
        if contract is not None:
            seat = self.taker = contract.taker
            self.contract = contract
            self.denomination = contract.denomination
            if self.turned_card >= 0 and self._teams:
                self.public_known[seat] |= 1 << self.turned_card  # the taker holds the turned card
            self._complete_deal()
        elif auction.void:  # no contract: the deal is void (RULES.md §3.4; TWO_THREE.md §2.3)
            self.void = True
            self.redeal = getattr(auction, "redeal", False)
            self.current = self.eldest if self._teams else -1
            self.phase = Phase.DEAL_OVER
        else:
            self.current = auction.current

    def _apply_step(self, seat: int, action: int) -> None:
        """A sub-step of play before the cards (two and three seats)."""
        step = STEPS[self.step]
        if step == "exchange":
            if action == EXCHANGE_SEVEN:
                self._exchange(seat)
            i = self.exchange_order.index(seat) + 1
            if i < len(self.exchange_order) and self.exchanged < 0:
                self.current = self.exchange_order[i]
            else:
                self._start_declarations()
        elif step == "discard":
            self.hands[seat] &= ~(1 << action)
            self.discarded |= 1 << action
            if self.discarded.bit_count() == 2:  # the turned card may be among the discards: no longer known held
                self.public_known[seat] &= ~(1 << self.turned_card)
                self._after_discard()
        else:
            self._apply_declare(seat, action)

    def _apply_declare(self, seat: int, action: int) -> None:
        n = self.n
        if n == 2 and seat != self.elder:  # the dealer's answer, or his own announcement
            elder = self.elder
            if action == DECLARE:  # after the elder declined: his sequences score unopposed
                self.announced[seat] = True
                self._resolve_declarations(seat)
            elif action == DECLINE_DECLARE:
                self._resolve_declarations(None)
            elif action == ANSWER_ENOUGH:
                self._resolve_declarations(elder)
            elif action == ANSWER_NOT_ENOUGH:
                self.announced[seat] = True
                self._resolve_declarations(seat)  # the values differ: neither shows its top card
            else:  # ANSWER_EQUAL: the top cards, then trump, decide (or nobody)
                self.announced[seat] = True
                self._resolve_declarations()
            self._start_play()
            return
        if action == DECLARE:  # the announced value is public at once (§2.6: "the elder states the value")
            self.announced[seat] = True
            self.declared[seat] = (self._announced_value(seat), -1, 0)
        i = self.decl_order.index(seat) + 1
        if i < n:
            self.current = self.decl_order[i]
            return
        self._resolve_declarations()
        self._start_play()

    def _apply_team_card(self, seat: int, c: int) -> None:
        if not self.tricks and not self.played_by[seat] and self.rules.declarations != "off":
            # RULES.md §6: declarations are made with the seat's card of the first trick
            if self.rules.declarations == "auto" or self.declare_next:
                self.declared[seat] = best_declarations(self.hands[seat], self.denomination, self.rules)
                for d in self.declared[seat]:
                    self.public_known[seat] |= d.cards
            self.declare_next = False
        if self.trick:  # what the card shows the seat lacks (RULES.md §4)
            self.public_cannot[seat] |= card_reveals(self.trick, c, self.denomination, self.rules)
        self.hands[seat] &= ~(1 << c)
        self.played_by[seat] |= 1 << c
        self.trick.append(c)
        rank = c & 7
        if (rank == _KING or rank == _QUEEN) and self.belote_pairs:
            s = c >> 3
            if (seat, s) in self.belote_pairs:
                other = card(_QUEEN if rank == _KING else _KING, s)
                if self.hands[seat] >> other & 1:  # first of the two (RULES.md §5)
                    if self.rules.belote == "auto" or self.announce_next:
                        self.announcements.append((seat, "belote", c))
                elif any(a[0] == seat and a[2] == other for a in self.announcements):
                    self.announcements.append((seat, "rebelote", c))
        if (rank == _KING or rank == _QUEEN) and (self.denomination == ALL_TRUMP or c >> 3 == self.denomination):
            other = card(_QUEEN if rank == _KING else _KING, c >> 3)
            if not self.played_by[seat] >> other & 1:  # the first of the pair: it may reveal (RULES.md §5)
                ann = self.announcements
                cannot, known = belote_reveals(c, bool(ann) and ann[-1][0] == seat and ann[-1][2] == c, False,
                                               self.rules)
                self.public_cannot[seat] |= cannot
                self.public_known[seat] |= known
        self.announce_next = False
        self._after_card()

    def _apply_cutthroat_card(self, seat: int, c: int) -> None:
        if self.trick:  # what the card shows the seat lacks
            self.public_cannot[seat] |= card_reveals(self.trick, c, self.denomination, self.rules,
                                                     self._partner_pos(seat))
        self.hands[seat] &= ~(1 << c)
        self.played_by[seat] |= 1 << c
        self.trick.append(c)
        if seat == self.belote_holder and c >> 3 == self.denomination and c & 7 in (_KING, _QUEEN):
            other = card(_QUEEN if c & 7 == _KING else _KING, self.denomination)
            if self.played_by[seat] >> other & 1 and (self.rules.belote == "auto" or self.announce_next):
                self.announcements.append((seat, "belote", c))  # claimed with the second card (A17)
        self.announce_next = False
        self._after_card()

    def _after_card(self) -> None:
        """The next seat plays, or the trick is won (RULES.md §4): its card points to the
        winner's side, the winner leads; the deal is scored once every hand is empty."""
        trick, n = self.trick, self.n
        if len(trick) < n:
            self.current = (self.current + 1) % n
            return
        k = self.denomination
        winner = (self.trick_leader + trick_winner(trick, k)) % n
        pts = self._points[k]
        side = self._side[winner]
        self.card_points[side] += sum(map(pts.__getitem__, trick))
        self.tricks_won[side] += 1
        self.tricks.append((self.trick_leader, tuple(trick), winner))
        self.trick = []
        self.trick_leader = self.current = winner
        if not any(self.hands):
            self._score()

    def deal_totals(self) -> list[int]:
        """Two and three seats: per seat, its deal total so far (TWO_THREE.md §2.9): card
        points, the last trick, combinations that score, belote claimed, the capot bonus."""
        n = self.n
        totals = list(self.card_points)
        if len(self.tricks) and not any(self.hands):
            totals[self.tricks[-1][2]] += LAST_TRICK
            for s in range(n):
                if self.tricks_won[s] == len(self.tricks):
                    totals[s] += self.rules.capot_bonus
        if self.decl_winner >= 0:
            totals[self.decl_winner] += sum(d.points for d in self.combos[self.decl_winner])
        for seat, _, _ in self.announcements:
            totals[seat] += BELOTE
        return totals

    def _score(self) -> None:
        if self.game.score_seats is not None:  # a game without teams (Game.score_seats)
            self._record_deal(self.game.score_seats(self, self.deal_totals()), None)
            self.current = -1
            return
        # every card is played: what each seat held is what it played (RULES.md §5, §6)
        belote = team_belote_points(self.denomination, self.rules, self.played_by, self.played_by, self.announcements)
        decl = team_declaration_points(self.declared, self.denomination, self.eldest, self.rules, self.taker)
        team_of_last = self._side[self.tricks[-1][2]]
        if self.rules.contract_mode == "coinche":  # against the contract (COINCHE.md §6, §6.10, §6.11)
            taker = self.taker
            result, over, winner = score_coinche_game_deal(
                self.contract, (self.card_points[0], self.card_points[1]), (self.tricks_won[0], self.tricks_won[1]),
                team_of_last, (belote[0], belote[1]), (decl[0], decl[1]), self.rules,
                (self.scores[0], self.scores[1]), self.deal_number,
                bidder_won_all=all(t[2] == taker for t in self.tricks), reserve_in=self.reserve,
                single_deal=self.single_deal)
            self._record_deal(result, (over, winner))
            return
        result = score_deal(
            taker_team=self._side[self.taker],
            card_points=(self.card_points[0], self.card_points[1]),
            tricks_won=(self.tricks_won[0], self.tricks_won[1]),
            last_trick_team=team_of_last,
            belote=(belote[0], belote[1]),
            declarations=(decl[0], decl[1]),
            rules=self.rules,
            reserve_in=self.reserve,
        )
        self._record_deal(result, None)

    def _record_deal(self, result, decided: tuple[bool, int | None] | None) -> None:
        """Add a scored deal to the game and decide its end: ``decided`` (over, winner) when
        the coinche scorer decided it, else ``scoring.game_end``."""
        self.deal_score = result
        self.deal_scores.append(result)
        for i, p in enumerate(result.points):
            self.scores[i] += p
        self.reserve = result.reserve_out
        self.deal_number += 1
        over, winner = decided or game_end(self.scores, self.rules, self.deal_number, result,
                                           single_deal=self.single_deal)
        self.phase = Phase.GAME_OVER if over else Phase.DEAL_OVER
        if over:
            self.winner = winner

    def next_deal(self, deck: Sequence[int] | None = None) -> None:
        """Start the next deal after ``DEAL_OVER``: the dealer rotates after a played deal,
        after a void deal per ``all_pass_redeal`` (RULES.md §2, §3.4; at two and three seats
        always), after an agreed redeal per ``redeal_dealer`` (the same dealer or the elder,
        TWO_THREE.md A3).

        Raises ``RuntimeError`` if the deal is not over or the game is over (a single
        deal's once it is played), ``ValueError`` for a ``deck`` that is not 32 distinct
        card ids; either way the state is unchanged.
        """
        if self.phase != Phase.DEAL_OVER:
            raise RuntimeError(f"next_deal() needs a finished deal, the game is in phase {self.phase.name}")
        deck = check_deck(deck)  # before the dealer rotates: a bad deck changes nothing
        self.dealer = dealer_after(self.rules, self.dealer, void=self.void, redeal=self.redeal)
        self.void_streak = self.void_streak + 1 if self.void else 0
        self._start_deal(deck)

    # ------------------------------------------------------------------ views
    def information_set(self, seat: int) -> InfoSet:
        """What ``seat`` may know now (RULES.md §11; TWO_THREE.md §5), as an ``InfoSet``.
        Raises ``ValueError`` for a seat that is not 0..players-1."""
        seat = _seat(seat, "seat", self.n)
        acting = self.phase <= Phase.PLAY and self.current == seat
        return InfoSet(
            seat=seat, dealer=self.dealer, phase=int(self.phase),
            step=self.step if self.phase == Phase.PLAY else -1, current_seat=self.current_seat,
            hand=self.hands[seat], turned_card=self.turned_card, bottom_card=self.bottom_card,
            auction=tuple(self.auction.history), bid_round=self.auction.bid_round, contract=self.contract,
            denomination=self.denomination, taker=self.taker, exchanged=self.exchanged, out_of_play=self.out_of_play,
            discarded=self.discarded if seat == self.taker else 0, declared=tuple(self.declared),
            decl_winner=self.decl_winner, decl_cards=self.decl_cards, trick=tuple(self.trick),
            trick_leader=self.trick_leader, tricks=tuple(self.tricks), played_by=tuple(self.played_by),
            hand_sizes=tuple(h.bit_count() for h in self.hands), card_points=tuple(self.card_points),
            announcements=tuple(self.announcements), scores=tuple(self.scores), reserve=self.reserve,
            deal_number=self.deal_number, legal_actions=self.legal_actions() if acting else (), rules=self.rules,
            public_knowledge=(tuple(self.public_cannot), tuple(self.public_known)))

    def clone(self) -> "GameState":
        """An independent copy (the RNG is copied too, so both continue identically)."""
        new = GameState.__new__(GameState)
        for name in GameState.__slots__:
            v = getattr(self, name)
            if isinstance(v, list):
                v = list(v)
            setattr(new, name, v)
        new.auction = self.auction.copy()
        new.deal_log = [dict(d) for d in self.deal_log]
        new.deal_log[-1]["actions"] = new.actions
        new.rng = random.Random()
        new.rng.setstate(self.rng.getstate())
        return new

    def __repr__(self) -> str:
        return (f"GameState(players={self.n}, phase={self.phase.name}, dealer={self.dealer}, "
                f"current={self.current_seat}, denomination={self.denomination}, taker={self.taker}, "
                f"tricks={len(self.tricks)}, scores={self.scores})")
