"""One seat's information set (RULES.md §11; TWO_THREE.md §5) as a plain, immutable data
object, at every table (two, three or four seats).

An ``InfoSet`` holds exactly what a seat may know: its own cards, the turned card, the
auction (every bid) and the contract it ended with, every card played and by whom, public announcements and the scores.
Policies, observation encoders and search bots read only this object, so they cannot
depend on another seat's hidden cards or on the stock order.

Pure Python (no numpy).
"""

from __future__ import annotations

from dataclasses import dataclass

from .config import Rules
from .contract import Contract
from .deprecation import renamed

__all__ = ["InfoSet"]


@dataclass(frozen=True, slots=True)
class InfoSet:
    """What ``seat`` knows at one moment of a game (RULES.md §11).

    Attributes (seats are absolute 0..n-1; cards are ids 0..31; masks are 32-bit ints):
        seat: the seat whose information set this is.
        dealer: the dealer's seat; eldest is the next seat.
        phase: ``Phase`` value (int): 0 bidding, 1 play, 2 deal over, 3 game over.
        current_seat: the seat to act (``-1`` when nobody acts).
        hand: mask of the seat's own cards.
        turned_card: the turned card id (public; after a take the taker holds it).
        auction: the auction's history (``auction.Auction.history``): ``(seat, bid id)``
            of every bid of this deal, in order, whatever the auction (classic, coinche).
        bid_round: the auction's round while bidding (classic: 1 or 2), 0 once it is over.
        contract: the ``contract.Contract`` the deal is played under, or ``None`` before
            a seat takes.
        denomination: the contract's denomination 0..5 (four suits, no-trump, all-trump),
            or ``-1`` before a seat takes.
        taker: the contract's taker, or ``-1``.
        trick: card ids of the trick in progress, in play order.
        trick_leader: seat that led the trick in progress.
        tricks: completed tricks as ``(leader seat, (4 card ids in play order), winner seat)``.
        played_by: per seat, mask of the cards it has played this deal (tricks and trick).
        hand_sizes: cards held by each seat.
        card_points: (team 0, team 1) card points of the tricks won so far this deal.
        announcements: public announcements ``(seat, kind, card id)``, kind ``"belote"``
            or ``"rebelote"``, in order.
        declared: per seat, the declarations it made (``declarations.Declaration``; their
            cards are public), ``()`` for none (RULES.md §6).
        scores: (team 0, team 1) game scores now (including this deal once it is scored).
        reserve: litige reserve pending now (points).
        deal_number: played deals finished in the game.
        legal_actions: legal action ids when ``seat`` is to act, else ``()``.
        rules: the rule options of the game (public).
        public_knowledge: ``(cannot, known)``, per seat the cards the public history shows
            it cannot hold / certainly holds (before removing the viewer's own cards), as
            kept by the engine card by card; ``None`` (hand-built info sets) makes
            ``inference.public_constraints`` derive them from the history instead. Both
            ways give the same ``Constraints`` (tested). Two and three seats: always
            given (``public_constraints`` refuses ``None`` there).

    Two and three seats (TWO_THREE.md §5; every seat its own side): the per-seat tuples
    (``played_by``, ``hand_sizes``, ``declared``) have ``players`` entries and the per-side
    ones (``card_points``, ``scores``) one per seat; ``denomination`` is the trump suit
    0..3 and ``taker`` the maker (the seat that took); ``announcements`` holds the
    ``(seat, "belote", card)`` claims; ``declared`` per seat ``(value, top, trump)`` of
    the best combination it announced (``(0, -1, 0)`` for none; the top and trump only
    when compared). And the fields of those tables' steps (their defaults at four seats):
        step: the sub-step of ``Phase.PLAY`` (``game.STEPS`` index: exchange,
            discard, declare, cards), else -1.
        bottom_card: the bottom card shown to all (-1 before the completion or none).
        exchanged: the seat that exchanged the seven of trumps for the turned card, or -1.
        out_of_play: cards every seat knows are out of play (the bottom card, the turned
            card once not taken or exchanged, the exchanged seven, the 7s and 8s of the
            24-card game).
        discarded: the viewer's own discards (``10_each``, the taker only), else 0.
        decl_winner: the seat whose combinations score (-1 none, -2 not decided yet).
        decl_cards: the winner's combination cards (public).
    """

    seat: int
    dealer: int
    phase: int
    current_seat: int
    hand: int
    turned_card: int
    auction: tuple[tuple[int, int], ...]
    bid_round: int
    contract: Contract | None
    denomination: int
    taker: int
    trick: tuple[int, ...]
    trick_leader: int
    tricks: tuple[tuple[int, tuple[int, ...], int], ...]
    played_by: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    card_points: tuple[int, ...]
    announcements: tuple[tuple[int, str, int], ...]
    declared: tuple[tuple, ...]
    scores: tuple[int, ...]
    reserve: int
    deal_number: int
    legal_actions: tuple[int, ...]
    rules: Rules
    public_knowledge: tuple[tuple[int, ...], tuple[int, ...]] | None = None
    step: int = -1
    bottom_card: int = -1
    exchanged: int = -1
    out_of_play: int = 0
    discarded: int = 0
    decl_winner: int = -1
    decl_cards: int = 0

    @property
    def players(self) -> int:
        """The table's seats (2, 3 or 4: ``rules.players``)."""
        return self.rules.players

    maker = renamed("taker")  # the two- and three-seat information set's old names
    trump = renamed("denomination")
