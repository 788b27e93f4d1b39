"""Declarations ("annonces", RULES.md §6): carrés and sequences, the best partition of a
hand, and which team's declarations score.

Cards are ids 0..31 (``card = suit*8 + rank``, ranks in natural order 7 8 9 10 J Q K A,
which is also the sequence order). A ``Declaration`` is one carré or one sequence.

Pure Python (no numpy).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from .cards import NO_TRUMP, NUM_SUITS, SUIT_MASK
from .deprecation import renamed_in
from .table import NUM_SEATS, TEAM_OF, is_seat, relative_seat, seats_from

__all__ = ["Declaration", "best_declarations", "declaration_winner", "CARRE_POINTS", "SEQUENCE_POINTS",
           "sequence_points", "combinations_of", "combination_key", "combination_winner", "ties_shown"]

#: carré points by rank (natural index 0..7): suit and all-trump contracts / no-trump.
CARRE_POINTS = {
    "suit": (0, 0, 150, 100, 200, 100, 100, 100),  # 7 8 9 10 J Q K A
    "no_trump": (0, 0, 100, 150, 100, 100, 100, 200),
}


def sequence_points(run5_value: int = 100) -> dict[int, int]:
    """Sequence points by length at four seats (RULES.md §6): 3 cards 20, 4 cards 50, 5
    ``run5_value`` (the option: 100, or 50 as seed 001 reads; longer runs show their five
    highest)."""
    return {3: 20, 4: 50, 5: run5_value}


#: sequence points by length under the default ``run5_value`` (100)
SEQUENCE_POINTS = sequence_points()


@dataclass(frozen=True, order=True)
class Declaration:
    """One declaration.

    Attributes:
        kind: ``"carre"`` or ``"sequence"``.
        cards: 32-bit mask of the declared cards.
        points: its value (int points).
        rank: carré rank, or the sequence's top rank (natural index 0..7).
        length: cards in a sequence (3..5 at four seats, a longer run shown as its five
            highest; the whole run at two and three seats), 4 for a carré.
        suit: the sequence's suit, or -1 for a carré.
    """

    kind: str
    cards: int
    points: int
    rank: int
    length: int
    suit: int

    def strength(self, denomination: int) -> tuple:
        """Comparison key (RULES.md §6): any carré beats any sequence; carrés by points
        then rank; sequences by length, top card, then a trump sequence first."""
        if self.kind == "carre":
            return (1, self.points, self.rank, 0)
        return (0, self.length, self.rank, int(self.suit == denomination))


def _carre_table(denomination: int) -> tuple[int, ...]:
    return CARRE_POINTS["no_trump" if denomination == NO_TRUMP else "suit"]


def _sequences(hand: int, run5_value: int = 100) -> list[Declaration]:
    """The sequences of ``hand`` at four seats (RULES.md §6: "5 or more 100 (only the five
    highest cards are shown)"): each maximal run of 3 or more cards of a suit is one
    sequence, worth 20, 50 or ``run5_value``; a run longer than five is shown, and compared,
    as its five highest cards."""
    out = []
    for d in _maximal_runs(hand, None, run5_value):
        if d.length > 5:  # only the five highest cards are shown
            top5 = sum(1 << (8 * d.suit + r) for r in range(d.rank - 4, d.rank + 1))
            d = Declaration("sequence", top5, d.points, d.rank, 5, d.suit)
        out.append(d)
    return out


def _carres_of(hand: int, table: tuple[int, ...]) -> list[Declaration]:
    out = []
    for r in range(8):
        mask = sum(1 << (8 * s + r) for s in range(NUM_SUITS))
        if hand & mask == mask and table[r] > 0:
            out.append(Declaration("carre", mask, table[r], r, 4, -1))
    return out


def _best_split(hand: int, carres: list[Declaration], sequences, key) -> tuple[Declaration, ...]:
    """RULES.md §6 "a card belongs to at most one declaration; a seat declares the partition
    of its hand that scores most": over the subsets of ``carres`` kept, the kept carrés and
    ``sequences(the other cards)``, sorted by ``key`` strongest first; the most points, then
    the stronger declarations in order. Empty when nothing scores."""
    best, best_key = (), None
    for pick in range(1 << len(carres)):
        rest, decls = hand, []
        for i, c in enumerate(carres):
            if pick >> i & 1:
                decls.append(c)
                rest &= ~c.cards
        decls += sequences(rest)
        decls.sort(key=key, reverse=True)
        k = (sum(d.points for d in decls), [key(d) for d in decls])
        if best_key is None or k > best_key:
            best, best_key = tuple(decls), k
    return best if best_key[0] > 0 else ()


def best_declarations(hand: int, denomination: int, rules=None) -> tuple[Declaration, ...]:
    """The partition of ``hand`` (32-bit mask, usually 8 cards) into declarations that
    scores most, a card belonging to at most one (RULES.md §6). Among equal totals the
    one with the stronger best declaration is kept. Returns declarations sorted strongest
    first (empty tuple when there is none).

    ``rules``: the rule options it reads, ``carres`` (``False``: no four of a kind,
    sequences only) and ``run5_value`` (a five-card sequence's points); ``None`` (the
    default), like an option that does not apply (coinche, COINCHE.md §6), reads as
    RULES.md §6: carrés, and 100 for five."""
    carres = rules is None or rules.carres is not False
    run5 = 100 if rules is None or rules.run5_value is None else rules.run5_value
    return _best_split(hand, _carres_of(hand, _carre_table(denomination)) if carres else [],
                       lambda rest: _sequences(rest, run5), lambda d: d.strength(denomination))


def declaration_winner(declared: Sequence[Sequence[Declaration]], denomination: int, eldest: int,
                       tie: str = "eldest", taker: int | None = None) -> int | None:
    """The team (0/1) whose declarations score, or ``None`` (RULES.md §6).

    Args:
        declared: per seat 0..3, the declarations it made (possibly empty).
        denomination: the denomination 0..5 (for the trump-sequence tiebreak).
        eldest: the seat after the dealer (tiebreak ``"eldest"``).
        tie: ``"eldest"``, ``"none"`` or ``"taker_first"`` (``declaration_tie`` option).
        taker: the taker's seat 0..3; needed by ``tie="taker_first"`` only.
    Returns:
        the team holding the single strongest declaration; on a tie between the teams,
        eldest's team ("the team of the seat that plays first in the deal", seed 000 L73)
        with ``"eldest"``; ``None`` with ``"none"``; with ``"taker_first"``, the team of the
        first seat holding one of the equal strongest declarations, counting from the
        taker in play order (the taker, then the seat after it, then the taker's partner,
        then the seat before the taker).
    Raises:
        ValueError: ``tie`` is not one of the three, or ``tie="taker_first"`` without a taker
            seat 0..3.
    """
    if tie not in ("eldest", "none", "taker_first"):
        raise ValueError(f"declaration tie rule must be 'eldest', 'none' or 'taker_first', got {tie!r}")
    if tie == "taker_first" and not is_seat(taker):
        raise ValueError(f"declaration_tie='taker_first' needs the taker's seat 0..{NUM_SEATS - 1}, got taker={taker!r}")
    best_key, holders = None, []
    for seat in seats_from(eldest):
        for d in declared[seat]:
            k = d.strength(denomination)
            if best_key is None or k > best_key:
                best_key, holders = k, [seat]
            elif k == best_key:
                holders.append(seat)
    if best_key is None:
        return None
    teams = {TEAM_OF[s] for s in holders}
    if len(teams) == 1:
        return TEAM_OF[holders[0]]
    if tie == "eldest":
        return TEAM_OF[eldest]
    if tie == "taker_first":
        return TEAM_OF[min(holders, key=lambda s: relative_seat(s, taker))]
    return None


# ----------------------------------------------------------------------------- two and three players
#: the plain trick order A 10 K Q J 9 8 7 as positions of the natural ranks 7..A (0 lowest),
#: for ``sequence_order="plain_trick_order"`` (TWO_THREE.md §4 A11)
_TRICK_ORDER_POS = (0, 1, 2, 6, 3, 4, 5, 7)


def _maximal_runs(hand: int, order, run5_value: int) -> list[Declaration]:
    """Each maximal run of 3 or more of ``hand``'s cards in one suit as one sequence
    (RULES.md §6; TWO_THREE.md A13), worth 20, 50 or ``run5_value`` (5 or more cards), in
    natural order or, with ``order`` (positions of the natural ranks), in that order."""
    points = sequence_points(run5_value)
    out = []
    for s in range(NUM_SUITS):
        bits = (hand & SUIT_MASK[s]) >> (8 * s)
        if order is not None:  # the suit's cards as positions in the trick order
            pos_bits = 0
            for r in range(8):
                if bits >> r & 1:
                    pos_bits |= 1 << order[r]
        else:
            pos_bits = bits
        p = 0
        while p < 8:
            if not pos_bits >> p & 1:
                p += 1
                continue
            start = p
            while p < 8 and pos_bits >> p & 1:
                p += 1
            length = p - start
            if length >= 3:
                ranks = range(start, p) if order is None else [r for r in range(8) if start <= order[r] < p]
                mask = sum(1 << (8 * s + r) for r in ranks)
                out.append(Declaration("sequence", mask, points[min(length, 5)], p - 1, length, s))
    return out


def combinations_of(hand: int, trump: int, rules) -> tuple[Declaration, ...]:
    """The combinations ``hand`` (32-bit mask) holds at a two- or three-seat table
    (TWO_THREE.md §2.6, §4 A11-A14): each maximal run of 3 or more consecutive cards of a
    suit (``sequence_order``: natural A K Q J 10 9 8 7, or the plain trick order) is one
    sequence worth 20 (3 cards), 50 (4) or ``run5_value`` (5 or more); with ``carres``,
    each four of a kind worth its RULES.md §6 value (jacks 200, nines 150, aces, tens,
    kings, queens 100). A card belongs to at most one combination (RULES.md §6, which
    TWO_THREE.md extends): with carrés, the hand is split into the carrés it keeps and the
    runs of its other cards so as to score most (among equal totals, the stronger
    combinations in order). A
    ``Declaration``'s ``rank`` is the top card's position in the sequence order (0..7).
    Sorted strongest first (``combination_key``)."""
    order = _TRICK_ORDER_POS if rules.sequence_order == "plain_trick_order" else None
    carres = _carres_of(hand, CARRE_POINTS["suit"]) if rules.carres else []
    return _best_split(hand, carres, lambda rest: _maximal_runs(rest, order, rules.run5_value),
                       lambda d: combination_key(d, trump, rules))


def combination_key(d: Declaration, trump: int, rules) -> tuple:
    """How a combination compares at a two- or three-seat table (TWO_THREE.md §2.6, A12;
    RULES.md §6 "any carré beats any sequence"): a carré first, then
    ``sequence_compare="value_then_top"``: its value, then its top card, then a trump
    sequence first; ``"length_then_top"``: its length, then its value, top card and trump.
    The last two components are always the top card's rank and the trump flag; two
    combinations tied on what comes before them show those (``ties_shown``). The protocol's
    answers read the announced values alone (``Declaration.points``: a higher value wins
    whatever else is compared)."""
    trumpness = int(d.suit == trump)
    carre = int(d.kind == "carre")
    if rules.sequence_compare == "length_then_top":
        return (carre, d.length, d.points, d.rank, trumpness)
    return (carre, d.points, d.rank, trumpness)


def combination_winner(declared: Sequence[Sequence[Declaration]], trump: int, rules) -> int | None:
    """The seat whose combinations score at a two- or three-seat table, or ``None``
    (TWO_THREE.md §2.6, §3 A30): the seat holding the single strictly best combination
    (``combination_key``) scores all of its own; an exact tie for the best, or nobody holding
    one, scores nothing.

    Args:
        declared: per seat, the combinations it announced (``combinations_of``).
        trump: the trump suit 0..3.
        rules: the rule options (``sequence_compare``).
    """
    best, holders = None, []
    for seat, decls in enumerate(declared):
        if not decls:
            continue
        k = max(combination_key(d, trump, rules) for d in decls)
        if best is None or k > best:
            best, holders = k, [seat]
        elif k == best:
            holders.append(seat)
    return holders[0] if len(holders) == 1 else None


def ties_shown(keys: dict[int, tuple]) -> frozenset[int]:
    """The seats whose top card and trump flag a comparison makes public at a two- or
    three-seat table (TWO_THREE.md §2.6: "same — the top cards are compared"): those whose
    best ``combination_key`` ties with the highest on all but its last two components (its
    kind and value, and its length under ``sequence_compare="length_then_top"``), when two
    or more do.

    Args:
        keys: per announcing seat, the ``combination_key`` of its best combination.
    Returns:
        a frozenset of seats (empty when fewer than two tie).
    """
    if not keys:
        return frozenset()
    top = max(k[:-2] for k in keys.values())
    tied = frozenset(s for s, k in keys.items() if k[:-2] == top)
    return tied if len(tied) > 1 else frozenset()


#: the old names of the two- and three-seat (cutthroat) game's parts, for one release
__getattr__ = renamed_in(__name__, globals(), {
    "small_combinations": "combinations_of",
    "small_key": "combination_key",
    "small_declaration_winner": "combination_winner",
})
