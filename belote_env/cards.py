"""Cards as ints, card sets as 32-bit masks, and the order / point tables (RULES.md §1).

A card is an ``int`` in ``0..31``: ``card = suit * 8 + rank`` with suits in the order
spades, hearts, diamonds, clubs (``Suit``) and ranks in natural order 7 8 9 10 J Q K A
(``Rank``). A set of cards (a hand, the stock, the cards played) is a 32-bit ``int`` mask
with bit ``card`` set.

Contract kinds are ints ``0..5``: the four suits (trump = that suit), ``NO_TRUMP`` (4) and
``ALL_TRUMP`` (5). Every order and point value lives once here, as tables indexed by
``[contract][card]`` and built at import, so a variant is a different table, not an ``if``.

This module is pure Python (no numpy).
"""

from __future__ import annotations

from enum import IntEnum

__all__ = [
    "Suit", "Rank", "NUM_CARDS", "NUM_SUITS", "SUITS", "NO_TRUMP", "ALL_TRUMP", "NUM_CONTRACTS",
    "SUIT_MASK", "FULL_DECK", "card", "suit_of", "rank_of", "card_to_str", "parse_card",
    "parse_cards", "cards_of", "mask_of", "popcount", "lowest_card", "STRENGTH", "POINTS",
    "BEATS", "TRUMP_MASK", "CONTRACT_NAMES", "cards_to_str", "SUIT_SYMBOLS",
]


class Suit(IntEnum):
    """The four suits, in card-id order (RULES.md §1)."""

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3


class Rank(IntEnum):
    """The eight ranks in natural (sequence) order 7 < 8 < ... < A (RULES.md §1)."""

    SEVEN = 0
    EIGHT = 1
    NINE = 2
    TEN = 3
    JACK = 4
    QUEEN = 5
    KING = 6
    ACE = 7


NUM_CARDS = 32
NUM_SUITS = 4
#: every suit id, 0..3 (spades, hearts, diamonds, clubs)
SUITS = range(NUM_SUITS)
NO_TRUMP = 4
ALL_TRUMP = 5
NUM_CONTRACTS = 6
CONTRACT_NAMES = ("spades", "hearts", "diamonds", "clubs", "no-trump", "all-trump")

SUIT_SYMBOLS = "♠♥♦♣"
SUIT_LETTERS = "SHDC"
RANK_NAMES = ("7", "8", "9", "10", "J", "Q", "K", "A")

SUIT_MASK = tuple(0xFF << (8 * s) for s in SUITS)
FULL_DECK = (1 << NUM_CARDS) - 1


def card(rank: int, suit: int) -> int:
    """Card id (int 0..31) of ``rank`` (``Rank``) of ``suit`` (``Suit``)."""
    return suit * 8 + rank


def suit_of(c: int) -> int:
    """Suit (0..3) of card id ``c``."""
    return c >> 3


def rank_of(c: int) -> int:
    """Rank (0..7, natural order) of card id ``c``."""
    return c & 7


def card_to_str(c: int, ascii: bool = False) -> str:
    """``"J♠"`` (or ``"JS"`` with ``ascii=True``) for card id ``c``.

    Raises ``ValueError`` if ``c`` is not an int in 0..31.
    """
    if not isinstance(c, int) or not 0 <= c < NUM_CARDS:
        raise ValueError(f"card id must be an int in 0..31, got {c!r}")
    return RANK_NAMES[c & 7] + (SUIT_LETTERS if ascii else SUIT_SYMBOLS)[c >> 3]


_SUIT_BY_CHAR = {ch: i for i, ch in enumerate(SUIT_SYMBOLS)}
_SUIT_BY_CHAR.update({ch: i for i, ch in enumerate(SUIT_LETTERS)})
_SUIT_BY_CHAR.update({"\u2664": 0, "\u2661": 1, "\u2662": 2, "\u2667": 3})  # outline glyphs
_RANK_BY_NAME = {name: i for i, name in enumerate(RANK_NAMES)}
_RANK_BY_NAME["T"] = Rank.TEN
_RANK_BY_NAME["V"] = Rank.JACK  # French valet
_RANK_BY_NAME["D"] = Rank.QUEEN  # French dame
_RANK_BY_NAME["R"] = Rank.KING  # French roi


def parse_card(text: str) -> int:
    """Parse ``"J♠"``, ``"JS"``, ``"10H"``, ``"th"``, ``"A♦"`` into a card id (int 0..31).

    Rank first (7 8 9 10/T J Q K A; French V D R accepted), then the suit as a symbol or
    a letter S H D C (case-insensitive). Raises ``ValueError`` naming the text otherwise.
    """
    s = str(text).strip().upper()
    if len(s) < 2 or s[-1] not in _SUIT_BY_CHAR or s[:-1] not in _RANK_BY_NAME:
        raise ValueError(
            f"cannot parse card {text!r}: expected a rank (7 8 9 10 J Q K A) followed by a "
            f"suit (S H D C or ♠ ♥ ♦ ♣), e.g. 'J♠', 'JS', '10H'"
        )
    return card(_RANK_BY_NAME[s[:-1]], _SUIT_BY_CHAR[s[-1]])


def parse_cards(text: str) -> int:
    """Parse a space- or comma-separated list of cards into a 32-bit mask.

    Raises ``ValueError`` on a bad card or a repeated card.
    """
    mask = 0
    for tok in text.replace(",", " ").split():
        c = parse_card(tok)
        if mask >> c & 1:
            raise ValueError(f"card {tok!r} appears twice in {text!r}")
        mask |= 1 << c
    return mask


def popcount(mask: int) -> int:
    """Number of cards in a 32-bit mask."""
    return mask.bit_count()


def lowest_card(mask: int) -> int:
    """Lowest card id in a non-empty mask."""
    return (mask & -mask).bit_length() - 1


def cards_of(mask: int) -> list[int]:
    """Card ids in ``mask``, ascending (spades 7 first)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_of(cards) -> int:
    """32-bit mask of an iterable of card ids."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_to_str(mask: int, ascii: bool = False) -> str:
    """Cards of ``mask`` as text, grouped by suit, e.g. ``"7♠ J♠ A♥"``."""
    return " ".join(card_to_str(c, ascii) for c in cards_of(mask))


# ---------------------------------------------------------------------------------------
# Order and point tables (RULES.md §1). Strength: 0 = weakest .. 7 = strongest in a suit.
#                    7  8  9  10 J  Q  K  A
_PLAIN_STRENGTH = (0, 1, 2, 6, 3, 4, 5, 7)  # A 10 K Q J 9 8 7
_TRUMP_STRENGTH = (0, 1, 6, 4, 7, 2, 3, 5)  # J 9 A 10 K Q 8 7
_PLAIN_POINTS = (0, 0, 0, 10, 2, 3, 4, 11)  # 30 per suit
_TRUMP_POINTS = (0, 0, 14, 10, 20, 3, 4, 11)  # 62 per suit
_NO_TRUMP_POINTS = (0, 0, 0, 10, 2, 3, 4, 19)  # 38 per suit
ALL_TRUMP_POINTS = {
    "pagat": (0, 0, 9, 5, 14, 1, 3, 6),  # 38 per suit
    "ffb2015": (0, 0, 9, 5, 13, 2, 3, 6),  # 38 per suit
}


def _tables(all_trump_points: str):
    strength, points = [], []
    for contract in range(NUM_CONTRACTS):
        st, pt = [0] * NUM_CARDS, [0] * NUM_CARDS
        for c in range(NUM_CARDS):
            r, s = c & 7, c >> 3
            if contract == ALL_TRUMP:
                st[c], pt[c] = _TRUMP_STRENGTH[r], ALL_TRUMP_POINTS[all_trump_points][r]
            elif contract == NO_TRUMP:
                st[c], pt[c] = _PLAIN_STRENGTH[r], _NO_TRUMP_POINTS[r]
            elif s == contract:
                st[c], pt[c] = _TRUMP_STRENGTH[r], _TRUMP_POINTS[r]
            else:
                st[c], pt[c] = _PLAIN_STRENGTH[r], _PLAIN_POINTS[r]
        strength.append(tuple(st))
        points.append(tuple(pt))
    # BEATS[contract][c]: mask of the cards of c's suit that are stronger than c.
    beats = tuple(
        tuple(
            sum(1 << d for d in range(NUM_CARDS) if d >> 3 == c >> 3 and strength[k][d] > strength[k][c])
            for c in range(NUM_CARDS)
        )
        for k in range(NUM_CONTRACTS)
    )
    return tuple(strength), tuple(points), beats


#: STRENGTH[contract][card]: rank strength 0..7 within its suit under that contract.
#: POINTS[contract][card]: card points under that contract (``pagat`` all-trump values).
#: BEATS[contract][card]: mask of same-suit cards stronger than ``card``.
STRENGTH, POINTS, BEATS = _tables("pagat")
#: POINTS tables keyed by the ``all_trump_points`` rule option (RULES.md §4).
POINTS_BY_ALL_TRUMP_OPTION = {name: _tables(name)[1] for name in ALL_TRUMP_POINTS}
#: TRUMP_MASK[contract]: cards that are trumps in the trick-taking sense (can ruff).
TRUMP_MASK = tuple(SUIT_MASK[k] if k < NUM_SUITS else 0 for k in range(NUM_CONTRACTS))

assert all(sum(POINTS[k]) == 152 for k in range(NUM_CONTRACTS))
assert all(sum(p[ALL_TRUMP]) == 152 for p in POINTS_BY_ALL_TRUMP_OPTION.values())
