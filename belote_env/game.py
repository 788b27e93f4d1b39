"""The rules engine's one entry point: a game of four-player team Belote (RULES.md §2-§8).

``GameState`` holds a whole game (deals to the target). It knows nothing of RL, numpy or
PettingZoo: ``legal_actions()`` lists the action ids (``actions.py``) the seat to act may
take, ``apply(action)`` plays one, ``information_set(seat)`` tells what a seat may know.

A deal ends in phase ``DEAL_OVER`` (played and scored, or void after eight passes); call
``next_deal()`` to go on, until phase ``GAME_OVER``. Every deck is drawn from the
``random.Random`` the state owns (or given explicitly), so a game is reproducible from
(rules, seed or decks, actions).

Pure Python (no numpy).
"""

from __future__ import annotations

import random
from enum import IntEnum
from typing import Sequence

from .actions import (
    ANNOUNCE_BELOTE, DECLARE, NUM_ACTIONS, PASS, action_to_string,
)
from .bidding import classic_bid_contract, classic_legal_bids
from .cards import (
    ALL_TRUMP, BEATS, NO_TRUMP, NUM_CARDS, NUM_SUITS, POINTS_BY_ALL_TRUMP_OPTION, SUIT_MASK, SUITS, Rank, card,
    card_to_str, cards_of,
)
from .config import RuleOptionError, Rules
from .declarations import Declaration, best_declarations, declaration_winner
from .infoset import InfoSet
from .rules import legal_cards, trick_winner
from .scoring import DealScore, score_deal
from .table import (
    NEXT_SEAT, NUM_SEATS, SEAT_NAMES, SEATS, TEAM_OF, absolute_seat, partner_of, seats_from, team_of, team_seats,
)

__all__ = ["GameState", "Phase", "IllegalActionError", "team_of", "partner_of", "SEAT_NAMES", "check_rules_supported"]

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
def check_rules_supported(rules) -> Rules:
    """Return ``rules`` if it is a ``Rules`` (the engine plays every option), else raise
    ``RuleOptionError``."""
    if not isinstance(rules, Rules):
        raise RuleOptionError(f"rules must be a belote_env.Rules, got {type(rules).__name__}")
    return rules


def _seat(value, what: str) -> int:
    if isinstance(value, bool) or not hasattr(value, "__index__") or value.__index__() not in SEATS:
        raise ValueError(f"{what} must be a seat 0..{NUM_SEATS - 1} (int), got {value!r}")
    return value.__index__()


class GameState:
    """A game of classic team Belote in progress (RULES.md §3-§8).

    Args:
        rules: rule options (default ``Rules()``, seed 004).
        seed: seed of the state's own ``random.Random`` (ignored if ``rng`` is given).
        rng: a ``random.Random`` the state owns from now on, used to shuffle each deck.
        dealer: first dealer's seat (0..3).
        deck: explicit card order (32 distinct ids) for the first deal, else shuffled.

    Raises:
        RuleOptionError: ``rules`` is not a ``Rules``, or uses an option value the engine
            does not implement yet.
        ValueError: bad ``dealer`` or ``deck``.
    """

    __slots__ = (
        "rules", "rng", "dealer", "scores", "reserve", "deal_number", "phase", "winner",
        "deal_scores", "_points", "deck", "hands", "turned_card", "stock", "bids", "bid_round",
        "contract", "taker", "current", "trick", "trick_leader", "tricks", "played_by",
        "card_points", "tricks_won", "belote_pairs", "announcements", "announce_next", "declared", "declare_next",
        "actions", "deal_score", "void", "_legal", "deal_log", "public_cannot", "public_known",
    )

    def __init__(self, rules: Rules | None = None, seed: int | None = None,
                 rng: random.Random | None = None, dealer: int = 0,
                 deck: Sequence[int] | None = None):
        rules = check_rules_supported(Rules() if rules is None else rules)
        dealer = _seat(dealer, "dealer")
        self.rules = rules
        self.rng = rng if rng is not None else random.Random(seed)
        self._points = POINTS_BY_ALL_TRUMP_OPTION[rules.all_trump_points]
        self.dealer = dealer
        self.scores = [0, 0]
        self.reserve = 0
        self.deal_number = 0  # played (not void) deals finished
        self.winner: int | None = None
        self.deal_scores: list[DealScore] = []
        #: every deal of the game so far: {"dealer", "deck", "actions"} (records.py)
        self.deal_log: list[dict] = []
        self._start_deal(deck)

    # ------------------------------------------------------------------ dealing
    @staticmethod
    def _checked_deck(deck: Sequence[int] | None) -> list[int] | None:
        """``deck`` as a list of 32 distinct int card ids (``None`` stays ``None``: shuffle);
        raises ``ValueError`` naming what is wrong. Touches no state."""
        if deck is None:
            return None
        if isinstance(deck, (str, bytes)) or not hasattr(deck, "__iter__") or not all(
                hasattr(c, "__index__") and not isinstance(c, bool) for c in deck):
            raise ValueError(f"deck must be a sequence of 32 int card ids, got {deck!r}")
        deck = [c.__index__() for c in deck]
        if sorted(deck) != list(range(NUM_CARDS)):
            raise ValueError("deck must hold each card id 0..31 exactly once")
        return deck

    def _start_deal(self, deck: Sequence[int] | None = None) -> None:
        deck = self._checked_deck(deck)
        if deck is None:
            deck = list(range(NUM_CARDS))
            self.rng.shuffle(deck)
        self.deck = tuple(deck)
        eldest = NEXT_SEAT[self.dealer]
        hands = [0] * NUM_SEATS
        pos = 0
        for packet in (3, 2):  # RULES.md §3.1: packets 3 then 2, from eldest
            for seat in seats_from(eldest):
                for c in deck[pos:pos + packet]:
                    hands[seat] |= 1 << c
                pos += packet
        self.hands = hands
        self.turned_card = deck[20]
        self.stock = deck[21:]
        self.bids: list[tuple[int, int]] = []
        self.bid_round = 1
        self.contract = -1
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
        """Taker gets the turned card + 2, the others 3, from eldest round the table (§3.5)."""
        hands = self.hands
        hands[self.taker] |= 1 << self.turned_card
        pos = 0
        eldest = NEXT_SEAT[self.dealer]
        for seat in seats_from(eldest):
            n = 2 if seat == self.taker else 3
            for c in self.stock[pos:pos + n]:
                hands[seat] |= 1 << c
            pos += n
        k = self.contract
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
                self._legal = classic_legal_bids(self.bid_round, self.turned_card >> 3, self.rules)
            elif self.phase == Phase.PLAY:
                cards = legal_cards(self.hands[self.current], self.trick, self.contract, self.rules)
                extra: tuple[int, ...] = ()
                if self.rules.belote == "optional" and self.belote_pairs:
                    ann = cards & self._announceable()
                    if self.announce_next:
                        cards = ann
                    elif ann:
                        extra = (ANNOUNCE_BELOTE,)
                if (self.rules.declarations == "choice" and not self.declare_next and not self.tricks
                        and not self.played_by[self.current]
                        and best_declarations(self.hands[self.current], self.contract)):
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
    def current_seat(self) -> int:
        """Seat to act, or ``-1`` when the deal or game is over."""
        return self.current if self.phase <= Phase.PLAY else -1

    @property
    def is_deal_over(self) -> bool:
        """True once the deal is scored or void (and at game over)."""
        return self.phase >= Phase.DEAL_OVER

    @property
    def is_game_over(self) -> bool:
        """True once the game has ended (RULES.md §8)."""
        return self.phase == Phase.GAME_OVER

    @property
    def eldest(self) -> int:
        """The seat after the dealer."""
        return NEXT_SEAT[self.dealer]

    # ------------------------------------------------------------------ acting
    def _illegal(self, action, why: str) -> IllegalActionError:
        legal = self.legal_actions()
        names = ", ".join(f"{a} ({action_to_string(a)})" for a in legal)
        return IllegalActionError(
            f"illegal action {action!r} by seat {self.current}: {why}; legal ids: [{names}]",
            action, self.current, legal)

    def apply(self, action: int) -> None:
        """Apply ``action`` (an id of ``actions.py``) for ``current_seat``.

        Raises:
            IllegalActionError: the id is not an int in range, or not legal now (the
                message names the id, the seat and the legal ids), or the deal is over
                (no seat acts; call ``next_deal()``); the state is unchanged.
        """
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
        legal = self._legal if self._legal is not None else self.legal_actions()
        if action not in legal:
            if not 0 <= action < NUM_ACTIONS:
                why = f"out of range 0..{NUM_ACTIONS - 1}"
            elif action < NUM_CARDS and self.phase == Phase.PLAY and not self.hands[self.current] >> action & 1:
                why = f"{card_to_str(action)} is not in seat {self.current}'s hand"
            else:
                why = f"{action_to_string(action)} is not legal now"
            raise self._illegal(action, why)
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
        seat = self.current
        self.bids.append((seat, action))
        if action != PASS:
            self.taker = seat
            self.public_known[seat] |= 1 << self.turned_card  # the taker holds the turned card
            self.contract = classic_bid_contract(action, self.turned_card >> 3)
            self.bid_round = 0
            self._complete_deal()
            return
        self.current = NEXT_SEAT[seat]
        if self.current == self.eldest:  # the round is over
            if self.bid_round == 1:
                self.bid_round = 2
            else:  # eight passes: the deal is void (RULES.md §3.4)
                self.void = True
                self.bid_round = 0
                self.phase = Phase.DEAL_OVER

    def _apply_card(self, c: int) -> None:
        seat = self.current
        if not self.tricks and not self.played_by[seat] and self.rules.declarations != "off":
            # RULES.md §6: declarations are made with the seat's card of the first trick
            if self.rules.declarations == "auto" or self.declare_next:
                self.declared[seat] = best_declarations(self.hands[seat], self.contract)
                for d in self.declared[seat]:
                    self.public_known[seat] |= d.cards
            self.declare_next = False
        if self.trick:
            self._infer_from_card(seat, c)
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
        if (rank == _KING or rank == _QUEEN) and (self.contract == ALL_TRUMP or c >> 3 == self.contract):
            other = card(_QUEEN if rank == _KING else _KING, c >> 3)
            if not self.played_by[seat] >> other & 1:
                ann = self.announcements
                if ann and ann[-1][0] == seat and ann[-1][2] == c:
                    self.public_known[seat] |= 1 << other  # announced: holds the other card
                elif self.rules.belote == "auto":
                    self.public_cannot[seat] |= 1 << other  # no automatic announcement: lacks it
        self.announce_next = False
        self._after_card()

    def _infer_from_card(self, seat: int, c: int) -> None:
        """What ``seat`` playing ``c`` into the current trick shows it lacks (RULES.md §4;
        the same inference as ``inference.public_constraints``, one card at a time)."""
        trick, k, rules = self.trick, self.contract, self.rules
        led = trick[0] >> 3
        win_pos = trick_winner(trick, k)
        win = trick[win_pos]
        if c >> 3 == led:
            if (k == ALL_TRUMP or led == k) and not BEATS[k][win] >> c & 1:
                self.public_cannot[seat] |= BEATS[k][win]  # did not beat the winner: holds nothing above
            return
        cannot = SUIT_MASK[led]
        partner_winning = win_pos == len(trick) - 2
        if k < NUM_SUITS and not (partner_winning and rules.partner_master_free):
            if not SUIT_MASK[k] >> c & 1:  # discarded: had no trump (or could not overtrump)
                if (rules.undertrump == "discard_allowed" and rules.obligations == "classic"
                        and win >> 3 == k and not partner_winning):
                    cannot |= BEATS[k][win]
                else:
                    cannot |= SUIT_MASK[k]
            elif (rules.obligations == "classic" and win >> 3 == k and not partner_winning
                  and not BEATS[k][win] >> c & 1):
                cannot |= BEATS[k][win]  # undertrumped an opponent's ruff
        self.public_cannot[seat] |= cannot

    def _after_card(self) -> None:
        trick = self.trick
        if len(trick) < NUM_SEATS:
            self.current = NEXT_SEAT[self.current]
            return
        k = self.contract
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
        belote = [0, 0]
        for seat, kind, _ in self.announcements:
            if kind == "belote":
                belote[TEAM_OF[seat]] += 20
        decl = [0, 0]
        team = declaration_winner(self.declared, self.contract, self.eldest, self.rules.declaration_tie, self.taker)
        if team is not None:
            decl[team] = sum(d.points for s in team_seats(team) for d in self.declared[s])
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
        r = self.rules
        ended = (r.target is None or max(self.scores) >= r.target
                 or (r.max_deals is not None and self.deal_number >= r.max_deals))
        if ended and (r.target is None or self.scores[0] != self.scores[1]):  # §8: equal totals play on
            self.phase = Phase.GAME_OVER
            self.winner = None if self.scores[0] == self.scores[1] else int(self.scores[1] > self.scores[0])

    def next_deal(self, deck: Sequence[int] | None = None) -> None:
        """Start the next deal after ``DEAL_OVER``: the dealer rotates after a played deal,
        and after a void deal per ``all_pass_redeal`` (RULES.md §2, §3.4).

        Raises ``RuntimeError`` if the deal is not over or the game is over, ``ValueError``
        for a ``deck`` that is not 32 distinct card ids; either way the state is unchanged.
        """
        if self.phase != Phase.DEAL_OVER:
            raise RuntimeError(f"next_deal() needs a finished deal, the game is in phase {self.phase.name}")
        deck = self._checked_deck(deck)  # before the dealer rotates: a bad deck changes nothing
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
            bids=tuple(self.bids),
            bid_round=self.bid_round,
            contract=self.contract,
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
        new.deal_log = [dict(d) for d in self.deal_log]
        new.deal_log[-1]["actions"] = new.actions
        new.rng = random.Random()
        new.rng.setstate(self.rng.getstate())
        return new

    def __repr__(self) -> str:
        return (f"GameState(phase={self.phase.name}, dealer={self.dealer}, current={self.current_seat}, "
                f"contract={self.contract}, taker={self.taker}, tricks={len(self.tricks)}, scores={self.scores})")
