"""The rules engine's one entry point: a game of four-player team Belote (RULES.md §2-§8),
classic (take/pass on the turned card) or coinche (``contract_mode="coinche"``: the 3-2-3
deal, the auction of bids 80..160 / capot with coinche and surcoinche, scoring against the
contract; COINCHE.md).

``GameState`` holds a whole game (deals to the target), or one deal played on its own
(``single_deal=True``). It knows nothing of RL, numpy or PettingZoo: ``legal_actions()``
lists the action ids (``actions.py``) the seat to act may take, ``apply(action)`` plays
one, ``information_set(seat)`` tells what a seat may know.

A deal ends in phase ``DEAL_OVER`` (played and scored, or void after eight passes); call
``next_deal()`` to go on, until phase ``GAME_OVER``. A single-deal state
(``GameState(rules, single_deal=True)``: the deal episodes of the envs, training and
evaluation) reaches ``GAME_OVER`` with its first played deal, whatever the rules' target
and deal limit; a void deal still ends in ``DEAL_OVER`` and is redealt with
``next_deal()`` (RULES.md §8). Every deck is drawn from the
``random.Random`` the state owns (or given explicitly), so a game is reproducible from
(rules, seed or decks, actions).

The rules it plays live in their own modules: dealing and the completion after a take in
``dealing``, legal cards and trick winners in ``rules``, what a played card reveals in
``inference`` (``card_reveals``, ``belote_reveals``), belote, declaration and deal points
in ``scoring``, the seats in ``table``, the auction in ``auction`` (``new_auction``: each
deal's ``Auction``, whose outcome is a ``contract.Contract`` or a void deal). A game may start from explicit hands
(``GameState.from_hands``, ``dealing.deck_from_hands``) and resume with given scores,
litige reserve and deals played (``scores=``, ``reserve=``, ``deal_number=``).

Pure Python (no numpy).
"""

from __future__ import annotations

import random
from enum import IntEnum
from typing import Sequence

from .actions import (
    ANNOUNCE_BELOTE, DECLARE, action_to_string, num_actions,
)
from .auction import Auction, new_auction
from .cards import ALL_TRUMP, NO_TRUMP, NUM_CARDS, POINTS_BY_ALL_TRUMP_OPTION, SUITS, Rank, card, card_to_str, cards_of
from .config import RuleOptionError, Rules, check_table
from .contract import Contract
from .contract import GENERALE
from .dealing import check_deck, complete, deal, deal_all, deck_from_full_hands, deck_from_hands
from .declarations import Declaration, best_declarations
from .inference import belote_reveals, card_reveals
from .infoset import InfoSet
from .rules import legal_cards, trick_winner
from .scoring import (
    DealScore, game_end, score_coinche_game_deal, score_deal, team_belote_points, team_declaration_points,
)
from .table import NEXT_SEAT, NUM_SEATS, SEAT_NAMES, SEATS, TEAM_OF, absolute_seat, partner_of, team_of

__all__ = ["GameState", "Phase", "IllegalActionError", "team_of", "partner_of", "SEAT_NAMES"]

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


_KING, _QUEEN = Rank.KING, Rank.QUEEN


def _seat(value, what: str) -> int:
    if isinstance(value, bool) or not hasattr(value, "__index__") or value.__index__() not in SEATS:
        raise ValueError(f"{what} must be a seat 0..{NUM_SEATS - 1} (int), got {value!r}")
    return value.__index__()


_NO_SCORES = (0, 0)


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


def _resume(rules: Rules, scores, reserve, deal_number, single_deal: bool = False) -> tuple[list[int], int, int]:
    """The checked ``scores``, ``reserve`` and ``deal_number`` a game resumes with (a single
    deal carries any scores: its target is not checked)."""
    if (isinstance(scores, (str, bytes, set, frozenset, dict)) or not hasattr(scores, "__len__")
            or not hasattr(scores, "__getitem__") or len(scores) != 2):
        raise ValueError(f"scores must be (team 0, team 1): two ints in 0..{MAX_RESUME}, got {repr(scores)[:80]}")
    scores = [_count(scores[0], "scores[0]"), _count(scores[1], "scores[1]")]
    reserve = _count(reserve, "reserve")
    deal_number = _count(deal_number, "deal_number")
    coinche = rules.contract_mode == "coinche"
    if reserve and not _litige_possible(rules):
        if coinche:
            raise ValueError(f"reserve must be 0 under contract_condition={rules.contract_condition!r}, "
                             f"tie_with_defence={rules.tie_with_defence!r}: a coinche litige reserve arises only "
                             "with contract_condition='reach_bid_and_beat_defence' and tie_with_defence='litige' "
                             f"(COINCHE.md §6.9), got {reserve}")
        raise ValueError(f"reserve must be 0 under tie={rules.tie!r}: a litige reserve arises only with "
                         f"tie='litige' (RULES.md §7), got {reserve}")
    if scores[0] != scores[1] and not single_deal:  # equal totals play on (RULES.md §8)
        if rules.target is not None and _past_target(rules, max(scores)):
            verb = "exceed" if coinche and rules.target_rule == "exceed" else "reach"
            raise ValueError(f"scores {tuple(scores)} already {verb} the target {rules.target}: that game is over "
                             + ("(COINCHE.md §6.11)" if coinche else "(RULES.md §8)"))
        if rules.max_deals is not None and deal_number >= rules.max_deals:
            raise ValueError(f"deal_number {deal_number} already reaches max_deals {rules.max_deals}: that game "
                             "is over (RULES.md §8)")
    return scores, reserve, deal_number


class DealState:
    """What a game in progress does whatever its table (``GameState`` at four seats,
    ``small_game.SmallGameState`` at two and three): the seat to act and the end tests, the
    checks of an action before it is applied (``_checked_action``: the error names the id,
    the seat and the legal ids, never a hidden card) and the copy (``_copied``). A subclass
    has ``rules``, ``phase``, ``current``, ``hands``, ``auction``, ``deal_log``, ``actions``,
    ``rng`` and ``legal_actions()``."""

    __slots__ = ()

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
            else:
                why = f"{action_to_string(action)} is not legal now"
            raise self._illegal(action, why)
        return action

    def _copied(self, new):
        """``new`` (a shallow copy of this state) made independent: its auction, deal log
        and RNG copied (both continue identically)."""
        new.auction = self.auction.copy()
        new.deal_log = [dict(d) for d in self.deal_log]
        new.deal_log[-1]["actions"] = new.actions
        new.rng = random.Random()
        new.rng.setstate(self.rng.getstate())
        return new


class GameState(DealState):
    """A game of team Belote in progress: classic (RULES.md §3-§8) or coinche (COINCHE.md,
    ``rules.contract_mode == "coinche"``; ``turned_card`` is then ``-1`` and there is no
    stock; ``auction`` is an ``auction.CoincheAuction``; deals are scored by
    ``scoring.score_coinche_deal`` and the game ends per ``scoring.coinche_game_end``).

    Args:
        rules: rule options (default ``Rules()``, seed 004).
        seed: seed of the state's own ``random.Random`` (ignored if ``rng`` is given).
        rng: a ``random.Random`` the state owns from now on, used to shuffle each deck.
        dealer: first dealer's seat (0..3).
        deck: explicit card order (32 distinct ids) for the first deal, else shuffled:
            ``deck[0:20]`` the packets of 3 then 2 from eldest, ``deck[20]`` the turned
            card, ``deck[21:]`` the stock (``dealing``, RULES.md §3.1, §3.5); build one
            from hands with ``dealing.deck_from_hands`` or use ``GameState.from_hands``.
        scores: (team 0, team 1) game scores to resume a game with (keyword only; ints
            in 0..``MAX_RESUME``, default (0, 0)).
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
        RuleOptionError: ``rules`` is not a ``Rules`` (the engine plays every option), or
            has ``players`` 2 or 3 (``small_game.SmallGameState`` plays those).
        ValueError: bad ``dealer`` or ``deck`` (``dealing.DealError``), or scores,
            reserve or deal number that are not ints in 0..``MAX_RESUME``, a reserve under a ``tie`` rule
            other than ``"litige"``, unequal scores that already end the game (the
            target or ``max_deals`` reached, RULES.md §8; not checked for a single deal),
            or a ``single_deal`` that is not a bool.
    """

    __slots__ = (
        "rules", "rng", "dealer", "scores", "reserve", "deal_number", "phase", "winner",
        "deal_scores", "_points", "deck", "hands", "turned_card", "stock", "auction",
        "contract", "denomination", "taker", "current", "trick", "trick_leader", "tricks", "played_by",
        "card_points", "tricks_won", "belote_pairs", "announcements", "announce_next", "declared", "declare_next",
        "actions", "deal_score", "void", "_legal", "deal_log", "public_cannot", "public_known", "start",
        "single_deal",
    )

    def __init__(self, rules: Rules | None = None, seed: int | None = None,
                 rng: random.Random | None = None, dealer: int = 0,
                 deck: Sequence[int] | None = None, *, scores: Sequence[int] = _NO_SCORES, reserve: int = 0,
                 deal_number: int = 0, single_deal: bool = False):
        rules = check_table(Rules() if rules is None else rules, (4,), "GameState",
                            "the two- and three-player games are played by belote_env.small_game.SmallGameState "
                            "(or belote_env.small_game.new_game(rules), which picks the engine)")
        dealer = _seat(dealer, "dealer")
        if type(single_deal) is not bool:
            raise ValueError(f"single_deal must be True or False, got {single_deal!r}")
        if not (scores is _NO_SCORES and type(reserve) is int and type(deal_number) is int
                and reserve == 0 == deal_number):  # a resumed game: check what it resumes with
            scores, reserve, deal_number = _resume(rules, scores, reserve, deal_number, single_deal)
        self.rules = rules
        #: one deal on its own: the game ends with its first played deal (RULES.md §8)
        self.single_deal = single_deal
        self.rng = rng if rng is not None else random.Random(seed)
        self._points = POINTS_BY_ALL_TRUMP_OPTION[rules.all_trump_points]
        self.dealer = dealer
        self.scores = [scores[0], scores[1]]
        self.reserve = reserve
        self.deal_number = deal_number  # played (not void) deals finished
        #: (scores, reserve, deal_number) the game started from (records.py writes them)
        self.start = ((scores[0], scores[1]), reserve, deal_number)
        self.winner: int | None = None
        self.deal_scores: list[DealScore] = []
        #: every deal of the game so far: {"dealer", "deck", "actions"} (records.py)
        self.deal_log: list[dict] = []
        self._start_deal(deck)

    @classmethod
    def from_hands(cls, hands: Sequence[Sequence[int | str]], turned: int | str | None = None,
                   stock: Sequence[int | str] | None = None, rules: Rules | None = None, *, dealer: int = 0,
                   **kwargs) -> "GameState":
        """A game whose first deal deals ``hands``, ``turned`` and ``stock`` (RULES.md §3.1),
        or, in coinche mode, the 8-card ``hands`` (COINCHE.md §2; ``turned`` and ``stock``
        stay ``None``).

        Args:
            hands: per seat 0..3, its 5 cards before the auction (ids 0..31 or names such
                as ``"J♠"`` / ``"JS"``): the first three its first packet, the last two
                its second. Coinche: its 8 cards (packets of 3, 2, 3; a 32-bit mask also
                works, ``dealing.deck_from_full_hands``).
            turned: the turned card (classic only).
            stock: the 11 stock cards in the order they are dealt after a take (§3.5;
                classic only).
            rules, dealer: as for ``GameState``; ``kwargs``: its other arguments (``seed``,
                ``rng`` for the later decks, ``scores``, ``reserve``, ``deal_number``,
                ``single_deal``).
        Raises:
            ValueError: ``dealing.DealError`` for hands, turned card or stock that do not
                make a deal (shapes 4 x 5 and 11, or 4 x 8 in coinche; unknown or repeated
                cards; a turned card or stock given in coinche mode, or missing in
                classic), or as ``GameState``.
            RuleOptionError: ``rules`` is neither ``None`` nor a ``Rules`` (a preset name
                or a dict: build it with ``load_rules``).
        """
        if rules is not None and not isinstance(rules, Rules):  # before the deal is read by the wrong mode
            raise RuleOptionError(f"rules must be a belote_env.Rules (e.g. load_rules({rules!r:.40})), got "
                                  f"{type(rules).__name__}")
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
        eldest = NEXT_SEAT[self.dealer]
        if self.rules.contract_mode == "coinche":  # every card at once, nothing turned (COINCHE.md §2)
            self.hands, self.turned_card, self.stock = deal_all(deck, self.dealer), -1, []
        else:
            self.hands, self.turned_card, self.stock = deal(deck, self.dealer)  # RULES.md §3.1
        #: the deal's auction (``auction.Auction``): its bids, legal bids and outcome
        self.auction: Auction = new_auction(self.dealer, self.turned_card, self.rules)
        #: the ``Contract`` once a seat takes, else None; its denomination (0..5, -1 before)
        #: and taker (-1 before) are kept as plain ints for the hot paths
        self.contract: Contract | None = None
        self.denomination = -1
        self.taker = -1
        self.current = eldest
        self.trick: list[int] = []
        self.trick_leader = eldest
        self.tricks: list[tuple[int, tuple[int, ...], int]] = []
        self.played_by = [0] * NUM_SEATS
        self.card_points = [0, 0]
        self.tricks_won = [0, 0]
        self.belote_pairs: list[tuple[int, int]] = []  # (seat, suit) holding K+Q
        self.announcements: list[tuple[int, str, int]] = []
        self.announce_next = False  # optional belote: the next card carries the announcement
        self.declared: list[tuple[Declaration, ...]] = [()] * NUM_SEATS  # public once made (§6)
        self.declare_next = False  # declarations "choice": the next card carries them
        #: per seat, cards the public history shows it cannot hold / certainly holds
        #: (``inference.public_constraints``, kept up to date card by card)
        self.public_cannot = [0] * NUM_SEATS
        self.public_known = [0] * NUM_SEATS
        self.actions: list[tuple[int, int]] = []
        self.deal_log.append({"dealer": self.dealer, "deck": self.deck, "actions": self.actions})
        self.deal_score: DealScore | None = None
        self.void = False
        self.phase = Phase.BIDDING
        self._legal: tuple[int, ...] | None = None

    def _complete_deal(self) -> None:
        """Classic: the taker gets the turned card + 2, the others 3, from eldest round the
        table (§3.5); coinche: the hands are already whole (COINCHE.md §2). Then the belote
        pairs are noted and play starts from eldest (or from the générale's bidder with
        ``generale_leads``, COINCHE.md §4)."""
        hands = self.hands
        if self.turned_card >= 0:
            hands[:] = complete(hands, self.turned_card, self.stock, self.taker, self.dealer)
        eldest = NEXT_SEAT[self.dealer]
        if self.rules.generale_leads and self.contract.level == GENERALE:
            eldest = self.taker
        k = self.denomination
        if k != NO_TRUMP:  # RULES.md §5: none at no-trump; every K+Q pair at all-trump
            suits = SUITS if k == ALL_TRUMP else (k,)
            for s in suits:
                pair = (1 << card(_KING, s)) | (1 << card(_QUEEN, s))
                for seat in SEATS:
                    if hands[seat] & pair == pair:
                        self.belote_pairs.append((seat, s))
        self.phase = Phase.PLAY
        self.current = eldest
        self.trick_leader = eldest

    # ------------------------------------------------------------------ queries
    def legal_actions(self) -> tuple[int, ...]:
        """Legal action ids (ascending ints) for ``current_seat``; ``()`` once the deal is over.

        With ``belote="optional"`` (RULES.md §5) a seat holding an unplayed K+Q pair of
        trump, whose K or Q is playable, may also choose ``ANNOUNCE_BELOTE``; it then must
        play one of the two, and the announcement becomes public with that card. Playing
        the card directly declines: nothing shows the choice to the other seats.
        With ``declarations="choice"`` (§6) a seat with declarations may choose ``DECLARE``
        before its first card; they become public with that card. Playing the card
        directly declines, revealing nothing. ``DECLINE_DECLARE`` and ``DECLINE_BELOTE``
        are therefore never legal under these rules.
        """
        if self._legal is None:
            if self.phase == Phase.BIDDING:
                self._legal = self.auction.legal_bids()
            elif self.phase == Phase.PLAY:
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
                        and best_declarations(self.hands[self.current], self.denomination)):
                    extra = (DECLARE,) + extra
                self._legal = (*cards_of(cards), *extra)
            else:
                self._legal = ()
        return self._legal

    def _announceable(self) -> int:
        """Mask of the current seat's K/Q of trump whose partner card is still in its hand."""
        seat, hand, m = self.current, self.hands[self.current], 0
        for s_, suit in self.belote_pairs:
            pair = (1 << card(_KING, suit)) | (1 << card(_QUEEN, suit))
            if s_ == seat and hand & pair == pair:
                m |= pair
        return m

    @property
    def eldest(self) -> int:
        """The seat after the dealer."""
        return NEXT_SEAT[self.dealer]

    # ------------------------------------------------------------------ acting
    def apply(self, action: int) -> None:
        """Apply ``action`` (an id of ``actions.py``) for ``current_seat``.

        Raises:
            IllegalActionError: the id is not an int in range, or not legal now (the
                message names the id, the seat and the legal ids), or the deal is over
                (no seat acts; call ``next_deal()``); the state is unchanged.
        """
        action = self._checked_action(action)
        self._legal = None
        self.actions.append((self.current, action))
        if self.phase == Phase.BIDDING:
            self._apply_bid(action)
        elif action == ANNOUNCE_BELOTE:
            self.announce_next = True
        elif action == DECLARE:
            self.declare_next = True
        else:
            self._apply_card(action)

    def _apply_bid(self, action: int) -> None:
        auction = self.auction
        auction.apply(action)
        contract = auction.contract
        if contract is not None:
            seat = self.taker = contract.taker
            self.contract = contract
            self.denomination = contract.denomination
            if self.turned_card >= 0:
                self.public_known[seat] |= 1 << self.turned_card  # the taker holds the turned card
            self._complete_deal()
        elif auction.void:  # no contract: the deal is void (RULES.md §3.4)
            self.void = True
            self.current = self.eldest
            self.phase = Phase.DEAL_OVER
        else:
            self.current = auction.current

    def _apply_card(self, c: int) -> None:
        seat = self.current
        if not self.tricks and not self.played_by[seat] and self.rules.declarations != "off":
            # RULES.md §6: declarations are made with the seat's card of the first trick
            if self.rules.declarations == "auto" or self.declare_next:
                self.declared[seat] = best_declarations(self.hands[seat], self.denomination)
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

    def _after_card(self) -> None:
        trick = self.trick
        if len(trick) < NUM_SEATS:
            self.current = NEXT_SEAT[self.current]
            return
        k = self.denomination
        winner = absolute_seat(trick_winner(trick, k), self.trick_leader)
        pts = self._points[k]
        team = TEAM_OF[winner]
        self.card_points[team] += pts[trick[0]] + pts[trick[1]] + pts[trick[2]] + pts[trick[3]]
        self.tricks_won[team] += 1
        self.tricks.append((self.trick_leader, tuple(trick), winner))
        self.trick = []
        self.trick_leader = self.current = winner
        if len(self.tricks) == 8:
            self._score()

    def _score(self) -> None:
        # every card is played: what each seat held is what it played (RULES.md §5, §6)
        belote = team_belote_points(self.denomination, self.rules, self.played_by, self.played_by, self.announcements)
        decl = team_declaration_points(self.declared, self.denomination, self.eldest, self.rules, self.taker)
        if self.rules.contract_mode == "coinche":
            self._score_coinche(belote, decl)
            return
        result = score_deal(
            taker_team=TEAM_OF[self.taker],
            card_points=(self.card_points[0], self.card_points[1]),
            tricks_won=(self.tricks_won[0], self.tricks_won[1]),
            last_trick_team=TEAM_OF[self.tricks[-1][2]],
            belote=(belote[0], belote[1]),
            declarations=(decl[0], decl[1]),
            rules=self.rules,
            reserve_in=self.reserve,
        )
        self.deal_score = result
        self.deal_scores.append(result)
        self.scores[0] += result.points[0]
        self.scores[1] += result.points[1]
        self.reserve = result.reserve_out
        self.deal_number += 1
        self.phase = Phase.DEAL_OVER
        over, winner = game_end(self.scores, self.rules, self.deal_number, result, single_deal=self.single_deal)
        if over:  # §8: equal totals play on
            self.phase = Phase.GAME_OVER
            self.winner = winner

    def _score_coinche(self, belote: list[int], decl: list[int]) -> None:
        """Score a coinche deal against its contract and decide the game's end
        (``scoring.score_coinche_game_deal``: COINCHE.md §6, §6.10 ``round_last_deal``,
        §6.11)."""
        taker = self.taker
        result, over, winner = score_coinche_game_deal(
            self.contract, (self.card_points[0], self.card_points[1]), (self.tricks_won[0], self.tricks_won[1]),
            TEAM_OF[self.tricks[-1][2]], (belote[0], belote[1]), (decl[0], decl[1]), self.rules,
            (self.scores[0], self.scores[1]), self.deal_number,
            bidder_won_all=all(t[2] == taker for t in self.tricks), reserve_in=self.reserve,
            single_deal=self.single_deal)
        self.deal_score = result
        self.deal_scores.append(result)
        self.scores[0] += result.points[0]
        self.scores[1] += result.points[1]
        self.reserve = result.reserve_out
        self.deal_number += 1
        self.phase = Phase.GAME_OVER if over else Phase.DEAL_OVER
        if over:
            self.winner = winner

    def next_deal(self, deck: Sequence[int] | None = None) -> None:
        """Start the next deal after ``DEAL_OVER``: the dealer rotates after a played deal,
        and after a void deal per ``all_pass_redeal`` (RULES.md §2, §3.4).

        Raises ``RuntimeError`` if the deal is not over or the game is over (a single
        deal's once it is played), ``ValueError`` for a ``deck`` that is not 32 distinct
        card ids; either way the state is unchanged.
        """
        if self.phase != Phase.DEAL_OVER:
            raise RuntimeError(f"next_deal() needs a finished deal, the game is in phase {self.phase.name}")
        deck = check_deck(deck)  # before the dealer rotates: a bad deck changes nothing
        if not self.void or self.rules.all_pass_redeal == "next_dealer":
            self.dealer = NEXT_SEAT[self.dealer]
        self._start_deal(deck)

    # ------------------------------------------------------------------ views
    def information_set(self, seat: int) -> InfoSet:
        """What ``seat`` may know now (RULES.md §11), as an ``InfoSet``."""
        seat = _seat(seat, "seat")
        acting = self.phase <= Phase.PLAY and self.current == seat
        return InfoSet(
            seat=seat,
            dealer=self.dealer,
            phase=int(self.phase),
            current_seat=self.current_seat,
            hand=self.hands[seat],
            turned_card=self.turned_card,
            auction=tuple(self.auction.history),
            bid_round=self.auction.bid_round,
            contract=self.contract,
            denomination=self.denomination,
            taker=self.taker,
            trick=tuple(self.trick),
            trick_leader=self.trick_leader,
            tricks=tuple(self.tricks),
            played_by=tuple(self.played_by),
            hand_sizes=tuple(h.bit_count() for h in self.hands),
            card_points=(self.card_points[0], self.card_points[1]),
            announcements=tuple(self.announcements),
            declared=tuple(self.declared),
            scores=(self.scores[0], self.scores[1]),
            reserve=self.reserve,
            deal_number=self.deal_number,
            legal_actions=self.legal_actions() if acting else (),
            rules=self.rules,
            public_knowledge=(tuple(self.public_cannot), tuple(self.public_known)),
        )

    def clone(self) -> "GameState":
        """An independent copy (the RNG is copied too, so both continue identically)."""
        new = GameState.__new__(GameState)
        for name in GameState.__slots__:
            v = getattr(self, name)
            if isinstance(v, list):
                v = list(v)
            setattr(new, name, v)
        return self._copied(new)

    def __repr__(self) -> str:
        return (f"GameState(phase={self.phase.name}, dealer={self.dealer}, current={self.current_seat}, "
                f"denomination={self.denomination}, taker={self.taker}, tricks={len(self.tricks)}, scores={self.scores})")
