"""The rules engine of Belote for two and for three players (seed 001; TWO_THREE.md): one
entry point, ``SmallGameState``, built like the four-seat ``game.GameState``.

A deal (TWO_THREE.md §2-§3, the options of §4 in ``Rules``):

1. **Deal** (``dealing.small_deal``): 6 cards each (5 in the 24-card game) and a turned
   card.
2. **Bidding** (``auction.SmallAuction``): accept / pass / propose a redeal in round 1;
   name another suit / pass / propose in round 2; a proposal is answered agree / refuse.
3. **Completion** (``dealing.small_complete``): 3 more cards each (9 in hand), the bottom
   card shown to all; under ``three_player_deal="10_each"`` 4 more each and the taker
   takes the last card and the turned card, then discards two (step ``"discard"``, card
   ids); under ``"24_card"`` the taker gets the turned card and 2, the others 3.
4. **The seven of trumps** (step ``"exchange"``, ``dix_exchange="choice"``): when the
   trump is the turned suit, every seat in turn from the elder chooses
   ``EXCHANGE_SEVEN`` (legal only to the holder of the seven) or ``KEEP``; so nobody
   learns who holds the seven unless it is exchanged. ``"auto"``: the holder always
   exchanges; ``"off"``: never.
5. **Combinations** (``declarations.small_combinations``; ``declarations="auto"``: every
   seat's are compared at once; ``"choice"``: step ``"declare"``, the protocol of §2.6:
   at two seats the elder announces (``DECLARE``) or declines (``DECLINE_DECLARE``) and
   the dealer answers ``ANSWER_ENOUGH`` / ``ANSWER_NOT_ENOUGH`` (only with a better
   combination) / ``ANSWER_EQUAL`` (only with an equal value), or, after a decline,
   announces his own or declines; at three seats each seat in turn announces or
   declines and the best announced combination scores).
6. **Play** (step ``"cards"``; ``rules.legal_cards``): the elder leads; 9 tricks
   (10 or 8 in the variants), the last worth 10; belote (K+Q of trump in one hand) is
   claimed with the second card (``belote="optional"``: ``ANNOUNCE_BELOTE`` first).
7. **Scoring** (``scoring.score_small_deal``; the game's end ``scoring.game_end``):
   per seat, games to 500.

Phases are ``game.Phase``'s: ``BIDDING``, ``PLAY`` (its ``step`` says which of
exchange, discard, declare, cards), ``DEAL_OVER``, ``GAME_OVER``. Seats are 0..n-1 in
playing order (``table.TWO`` / ``table.THREE``); the elder is the seat after the dealer.

Pure Python (no numpy).
"""

from __future__ import annotations

import random
from typing import Sequence

from .actions import (
    ANNOUNCE_BELOTE, ANSWER_ENOUGH, ANSWER_EQUAL, ANSWER_NOT_ENOUGH, DECLARE, DECLINE_DECLARE, EXCHANGE_SEVEN, KEEP,
)
from .auction import SmallAuction
from .cards import NUM_CARDS, POINTS_BY_ALL_TRUMP_OPTION, Rank, card, cards_of
from .config import RuleOptionError, Rules, check_table
from .contract import Contract
from .dealing import DealError, check_deck, small_complete, small_deal, small_deck_from_hands
from .declarations import Declaration, small_combinations, small_declaration_winner, small_key
from .deprecation import deprecated_names, renamed
from .game import DealState, Phase
from .infoset import InfoSet
from .inference import card_reveals
from .rules import co_defender_pos, legal_cards, trick_winner
from .scoring import SmallDealScore, game_end, score_small_deal
from .table import Table, table_of

__all__ = ["SmallGameState", "STEPS", "LAST_TRICK"]

#: the sub-steps of ``Phase.PLAY`` (``SmallGameState.step``)
STEPS = ("exchange", "discard", "declare", "cards")
#: points of the last trick (TWO_THREE.md §2.8)
LAST_TRICK = 10
BELOTE = 20
_KING, _QUEEN, _SEVEN = Rank.KING, Rank.QUEEN, Rank.SEVEN
_SUIT_POINTS = POINTS_BY_ALL_TRUMP_OPTION["pagat"]


class SmallGameState(DealState):
    """A game of two- or three-player Belote in progress (TWO_THREE.md).

    Args:
        rules: rule options with ``players`` 2 or 3 (e.g. ``load_rules("seed001_2p")``).
        seed: seed of the state's own ``random.Random`` (ignored if ``rng`` is given).
        rng: a ``random.Random`` the state owns, used to shuffle each deck.
        dealer: the first dealer's seat.
        deck: the first deal's deck (32 distinct ids; ``dealing.SmallLayout`` says where
            each card goes), else shuffled.
        scores: per seat game scores to resume with (keyword only).
        reserve: pending litige reserve (keyword only; only under ``tie="litige"``).
        deal_number: played deals already finished (keyword only).
        single_deal: one deal on its own: the game ends with its first played deal.

    Raises:
        RuleOptionError: ``rules`` is not a ``Rules`` with ``players`` 2 or 3.
        ValueError: a bad dealer, deck, scores, reserve or deal number.
    """

    def __init__(self, rules: Rules, seed: int | None = None, rng: random.Random | None = None, dealer: int = 0,
                 deck: Sequence[int] | None = None, *, scores: Sequence[int] | None = None, reserve: int = 0,
                 deal_number: int = 0, single_deal: bool = False):
        check_table(rules, (2, 3), "SmallGameState", "the four-seat games are played by belote_env.GameState")
        n = rules.players
        self.rules = rules
        self.n = n
        self.table: Table = table_of(n)
        if isinstance(dealer, bool) or not hasattr(dealer, "__index__") or not 0 <= dealer.__index__() < n:
            raise ValueError(f"dealer must be a seat 0..{n - 1} (int), got {dealer!r}")
        if type(single_deal) is not bool:
            raise ValueError(f"single_deal must be True or False, got {single_deal!r}")
        scores = [0] * n if scores is None else list(scores)
        if len(scores) != n or any(isinstance(v, bool) or type(v) is not int or not 0 <= v <= 10 ** 9 for v in scores):
            raise ValueError(f"scores must be {n} ints in 0..{10 ** 9} (one per seat), got {scores!r:.80}")
        for name, v in (("reserve", reserve), ("deal_number", deal_number)):
            if isinstance(v, bool) or type(v) is not int or not 0 <= v <= 10 ** 9:
                raise ValueError(f"{name} must be an int in 0..{10 ** 9}, got {v!r:.80}")
        if reserve and rules.tie != "litige":
            raise ValueError(f"reserve must be 0 under tie={rules.tie!r}: a reserve arises only with tie='litige' "
                             f"(TWO_THREE.md §4 A22), got {reserve}")
        self.single_deal = single_deal
        self.rng = rng if rng is not None else random.Random(seed)
        self.dealer = dealer.__index__()
        self.scores = scores
        self.reserve = reserve
        self.deal_number = deal_number
        self.start = (tuple(scores), reserve, deal_number)
        self.winner: int | None = None
        self.deal_scores: list[SmallDealScore] = []
        self.deal_log: list[dict] = []
        self._start_deal(deck)

    @classmethod
    def from_hands(cls, hands: Sequence[Sequence[int | str]], turned: int | str, more: Sequence[Sequence[int | str]],
                   bottom: int | str, rules: Rules, *, dealer: int = 0, **kwargs) -> "SmallGameState":
        """A game whose first deal deals the given cards (``dealing.small_deck_from_hands``:
        per seat its first 6 cards and its 3 later ones, the turned and the bottom card;
        the 6 + 3 deal). Raises ``DealError`` (a ``ValueError``) for cards that do not
        make such a deal."""
        if not isinstance(rules, Rules):
            raise RuleOptionError(f"rules must be a belote_env.Rules, got {type(rules).__name__}")
        return cls(rules, dealer=dealer, deck=small_deck_from_hands(hands, turned, more, bottom, rules, dealer),
                   **kwargs)

    # ------------------------------------------------------------------ dealing
    def _start_deal(self, deck: Sequence[int] | None = None) -> None:
        deck = check_deck(deck)
        if deck is None:
            deck = list(range(NUM_CARDS))
            self.rng.shuffle(deck)
        n = self.n
        self.deck = tuple(deck)
        self.hands, self.turned_card = small_deal(self.deck, self.dealer, self.rules)
        self.bottom_card = -1
        self.unused = 0
        self.out_of_play = 0
        if self.rules.three_player_deal == "24_card":
            self.out_of_play = sum(1 << c for c in range(NUM_CARDS) if c & 7 < 2)  # the 7s and 8s
        self.auction = SmallAuction(self.dealer, self.turned_card, self.rules)
        self.contract: Contract | None = None
        self.denomination = -1
        self.taker = -1
        self.elder = (self.dealer + 1) % n
        self.current = self.elder
        self.step = -1
        self.exchanged = -1
        self.exchange_order: tuple[int, ...] = ()
        self.discarded = 0
        self.declared: list[tuple] = [(0, -1, 0)] * n
        self.combos: list[tuple[Declaration, ...]] = [()] * n
        self.announced: list[bool] = [False] * n
        self.decl_winner = -2
        self.decl_cards = 0
        self.decl_order: tuple[int, ...] = ()
        self.trick: list[int] = []
        self.trick_leader = self.elder
        self.tricks: list[tuple[int, tuple[int, ...], int]] = []
        self.played_by = [0] * n
        self.card_points = [0] * n
        self.tricks_won = [0] * n
        self.belote_holder = -1
        self.announcements: list[tuple[int, str, int]] = []
        self.announce_next = False
        self.public_cannot = [0] * n
        self.public_known = [0] * n
        self.actions: list[tuple[int, int]] = []
        self.deal_log.append({"dealer": self.dealer, "deck": self.deck, "actions": self.actions})
        self.deal_score: SmallDealScore | None = None
        self.void = False
        self.redeal = False
        self.phase = Phase.BIDDING
        self._legal: tuple[int, ...] | None = None

    def _complete_deal(self) -> None:
        rules, taker = self.rules, self.taker
        hands, bottom, unused, chien = small_complete(self.deck, self.dealer, taker, rules)
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
            self.combos = [small_combinations(self.hands[s], trump, rules) for s in range(n)]
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
        return small_key(self.combos[seat][0], self.denomination, self.rules) if self.combos[seat] else ()

    def _resolve_declarations(self, winner: int | None | str = "compare") -> None:
        """Decide whose combinations score among the seats that announced, and make public
        what the comparison shows: each announcer's value; the top card and trump flag of
        those tied on the best value; the winner's combination cards."""
        n = self.n
        ann = [s for s in range(n) if self.announced[s]]
        if winner == "compare":
            declared = [self.combos[s] if self.announced[s] else () for s in range(n)]
            winner = small_declaration_winner(declared, self.denomination, self.rules)
        keys = {s: self._best(s) for s in ann}
        top_value = max((k[0] for k in keys.values()), default=0)
        tied = [s for s in ann if keys[s][0] == top_value]
        for s in ann:
            k = keys[s]
            self.declared[s] = (k[0], k[-2], k[-1]) if (len(tied) > 1 and s in tied) else (k[0], -1, 0)
        self.decl_winner = -1 if winner is None else winner
        if winner is not None:
            cards = 0
            for d in self.combos[winner]:
                cards |= d.cards
            self.decl_cards = cards
            self.public_known[winner] |= cards

    def _start_play(self) -> None:
        self.step = STEPS.index("cards")
        self.current = self.trick_leader = self.elder  # the elder leads trick 1 (S001)

    # ------------------------------------------------------------------ queries
    maker = renamed("taker")  # the old names (GameState's are taker and denomination)
    trump = renamed("denomination")

    def _partner_pos(self, seat: int) -> int:
        """The trick position of ``seat``'s co-defender's card (``rules.co_defender_pos``)."""
        return co_defender_pos(seat, self.taker, self.trick_leader, len(self.trick), self.rules)

    def legal_actions(self) -> tuple[int, ...]:
        """Legal action ids (ascending) for ``current_seat``; ``()`` once the deal is over."""
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal

    def _compute_legal(self) -> tuple[int, ...]:
        if self.phase == Phase.BIDDING:
            return self.auction.legal_bids()
        if self.phase != Phase.PLAY:
            return ()
        seat, step = self.current, STEPS[self.step]
        hand = self.hands[seat]
        if step == "exchange":
            return (EXCHANGE_SEVEN, KEEP) if hand >> card(_SEVEN, self.denomination) & 1 else (KEEP,)
        if step == "discard":
            return tuple(cards_of(hand))
        if step == "declare":
            return self._declare_legal(seat)
        cards = legal_cards(hand, self.trick, self.denomination, self.rules, self._partner_pos(seat))
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

    def _declare_legal(self, seat: int) -> tuple[int, ...]:
        has = bool(self.combos[seat])
        if self.n == 2 and seat != self.elder:
            elder = self.elder
            if self.announced[elder]:  # answer the elder's announced value (§2.6)
                mine, theirs = self._best(seat), self._best(elder)
                out = [ANSWER_ENOUGH]
                if mine and mine[0] > theirs[0]:
                    out.append(ANSWER_NOT_ENOUGH)
                if mine and mine[0] == theirs[0]:
                    out.append(ANSWER_EQUAL)
                return tuple(out)
        return (DECLARE, DECLINE_DECLARE) if has else (DECLINE_DECLARE,)

    # ------------------------------------------------------------------ acting
    def apply(self, action: int) -> None:
        """Apply ``action`` for ``current_seat``.

        Raises:
            IllegalActionError: not an int, not legal now (the message names the id, the
                seat and the legal ids, never a hidden card), or the deal is over; the
                state is unchanged.
        """
        action = self._checked_action(action)
        self._legal = None
        seat = self.current
        self.actions.append((seat, action))
        if self.phase == Phase.BIDDING:
            self._apply_bid(action)
            return
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
        elif step == "declare":
            self._apply_declare(seat, action)
        elif action == ANNOUNCE_BELOTE:
            self.announce_next = True
        else:
            self._apply_card(seat, action)

    def _apply_bid(self, action: int) -> None:
        auction = self.auction
        auction.apply(action)
        if auction.contract is not None:
            self.contract = auction.contract
            self.taker = auction.contract.taker
            self.denomination = auction.contract.denomination
            self._complete_deal()
        elif auction.void:
            self.void = True
            self.redeal = auction.redeal
            self.current = -1
            self.phase = Phase.DEAL_OVER
        else:
            self.current = auction.current

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
                self._resolve_declarations(seat)
                self.declared[elder] = (self._best(elder)[0], -1, 0)
            else:  # ANSWER_EQUAL: the top cards, then trump, decide (or nobody)
                self.announced[seat] = True
                self._resolve_declarations()
            self._start_play()
            return
        if action == DECLARE:  # the announced value is public at once (§2.6: "the elder states the value")
            self.announced[seat] = True
            self.declared[seat] = (self._best(seat)[0], -1, 0)
        i = self.decl_order.index(seat) + 1
        if i < n:
            self.current = self.decl_order[i]
            return
        self._resolve_declarations()
        self._start_play()

    def _apply_card(self, seat: int, c: int) -> None:
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
        n = self.n
        if len(self.trick) < n:
            self.current = (seat + 1) % n
            return
        trick, trump = self.trick, self.denomination
        winner = (self.trick_leader + trick_winner(trick, trump)) % n
        pts = _SUIT_POINTS[trump]
        self.card_points[winner] += sum(pts[x] for x in trick)
        self.tricks_won[winner] += 1
        self.tricks.append((self.trick_leader, tuple(trick), winner))
        self.trick = []
        self.trick_leader = self.current = winner
        if not any(self.hands):
            self._score()

    def deal_totals(self) -> list[int]:
        """Per seat, its deal total so far (TWO_THREE.md §2.9): card points, the last
        trick, combinations that score, belote claimed, the capot bonus."""
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
        result = score_small_deal(self.taker, self.deal_totals(), self.rules, self.reserve)
        self.deal_score = result
        self.deal_scores.append(result)
        for s in range(self.n):
            self.scores[s] += result.points[s]
        self.reserve = result.reserve_out
        self.deal_number += 1
        over, winner = game_end(self.scores, self.rules, self.deal_number, single_deal=self.single_deal)
        self.phase = Phase.GAME_OVER if over else Phase.DEAL_OVER
        self.current = -1
        self.winner = winner

    def next_deal(self, deck: Sequence[int] | None = None) -> None:
        """Start the next deal after ``DEAL_OVER``: after a played deal or a void one the
        seat after the dealer deals (S001: "the deal passes to the elder"); after an agreed
        redeal the same dealer (``redeal_dealer="same"``) or the elder.

        Raises ``RuntimeError`` if the deal is not over or the game is over;
        ``ValueError`` for a bad deck (the state unchanged)."""
        if self.phase != Phase.DEAL_OVER:
            raise RuntimeError(f"next_deal() needs a finished deal, the game is in phase {self.phase.name}")
        deck = check_deck(deck)
        if not self.redeal or self.rules.redeal_dealer == "elder":
            self.dealer = (self.dealer + 1) % self.n
        self._start_deal(deck)

    # ------------------------------------------------------------------ views
    def information_set(self, seat: int) -> InfoSet:
        """What ``seat`` may know now (TWO_THREE.md §5)."""
        if isinstance(seat, bool) or not hasattr(seat, "__index__") or not 0 <= seat.__index__() < self.n:
            raise ValueError(f"seat must be a seat 0..{self.n - 1} (int), got {seat!r}")
        seat = seat.__index__()
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

    def clone(self) -> "SmallGameState":
        """An independent copy (the RNG too)."""
        new = SmallGameState.__new__(SmallGameState)
        for k, v in self.__dict__.items():
            setattr(new, k, list(v) if isinstance(v, list) else v)
        return self._copied(new)

    def __repr__(self) -> str:
        return (f"SmallGameState(players={self.n}, phase={self.phase.name}, dealer={self.dealer}, "
                f"current={self.current_seat}, denomination={self.denomination}, taker={self.taker}, "
                f"tricks={len(self.tricks)}, scores={self.scores})")


def new_game(rules: Rules | None = None, **kwargs):
    """A ``game.GameState`` (four seats) or a ``SmallGameState`` (``rules.players`` 2 or 3)
    for ``rules``, with ``GameState``'s keyword arguments (``games.Game.new_state``)."""
    from .game import GameState
    from .games import game_of

    if isinstance(rules, Rules):
        return game_of(rules).new_state(**kwargs)
    return GameState(rules, **kwargs)  # None or a rule mapping: GameState's own checks


__all__.append("new_game")
_ = DealError  # re-exported for callers building decks


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
    "SmallInfoSet": ("belote_env.InfoSet (one information set for every table)", lambda: _InfoSetByOldName)})
