"""Legal plays and the trick winner (RULES.md §4).

Everything works on card ids (``int`` 0..31) and 32-bit card masks from ``cards.py``;
``denomination`` is a denomination 0..5 (four suits, ``NO_TRUMP``, ``ALL_TRUMP``).

Pure Python (no numpy).
"""

from __future__ import annotations

from typing import Sequence

from .cards import ALL_TRUMP, BEATS, NO_TRUMP, NUM_CARDS, NUM_CONTRACTS, NUM_SUITS, STRENGTH, SUIT_MASK, SUITS
from .config import Rules, without_partners
from .deprecation import deprecated_names
from .games import game_of
from .table import PARTNER_REL

__all__ = ["legal_cards", "trick_winner", "POWER", "co_defender_pos", "play_options"]


def _power_table():
    # POWER[denomination][led_suit][card]: 16+strength for a trump, 8+strength for a card of
    # the led suit, 0 otherwise. The trick goes to the card of highest power.
    table = []
    for k in range(NUM_CONTRACTS):
        per_led = []
        for led in SUITS:
            row = []
            for c in range(NUM_CARDS):
                s = c >> 3
                if k < NUM_SUITS and s == k:
                    row.append(16 + STRENGTH[k][c])
                elif s == led:
                    row.append(8 + STRENGTH[k][c])
                else:
                    row.append(0)
            per_led.append(tuple(row))
        table.append(tuple(per_led))
    return tuple(table)


POWER = _power_table()


def trick_winner(trick: Sequence[int], denomination: int) -> int:
    """Index (0-based position in play order) of the card winning ``trick`` so far.

    Args:
        trick: card ids in the order played (1..4 cards).
        denomination: the denomination 0..5.
    Returns:
        position in ``trick`` of the highest trump, or, with no trump in it, of the
        highest card of the led suit (RULES.md §4.3).
    """
    power = POWER[denomination][trick[0] >> 3]
    best, best_power = 0, power[trick[0]]
    for i in range(1, len(trick)):
        p = power[trick[i]]
        if p > best_power:
            best, best_power = i, p
    return best


def legal_cards(hand: int, trick: Sequence[int], denomination: int, rules: Rules, partner_pos: int | None = None
                ) -> int:
    """Mask of the cards of ``hand`` that may be played to ``trick`` (RULES.md §4; at two
    and three seats TWO_THREE.md §2.8, §3: ``play_options``).

    Args:
        hand: 32-bit mask of the acting seat's cards (non-empty).
        trick: card ids already played to the current trick, in order.
        denomination: the denomination 0..5 (two and three seats: the trump suit 0..3).
        rules: the rule options (``partner_master_free``, ``undertrump``, ``obligations``,
            ``overtrump_partner``; two and three seats: ``ruff_overtrump``,
            ``defender_partner_free``).
        partner_pos: the position in ``trick`` of the acting seat's partner's card, -1 for
            none; ``None`` (default): the table's partner, ``trick[-2]`` at four seats when
            ``len(trick) >= 2``, none at two and three (a three-seat defender's co-defender
            is ``co_defender_pos``).
    Returns:
        a non-empty sub-mask of ``hand``.

    ``overtrump_partner="must_overtrump"`` (COINCHE.md §4, example P2): when the seat is void
    in a plain led suit and its partner wins the trick with a trump, a trump it plays must
    beat the partner's when it holds a higher one. With ``partner_master_free`` it may still
    discard (legal: its non-trumps and its higher trumps); holding no higher trump, every
    card stays legal, its lower trumps included. Without ``partner_master_free`` it must
    trump: a higher trump when it has one, else any trump. Trump led and the no-trump /
    all-trump contracts already oblige beating the winner, so nothing changes there; under
    ``obligations="two_player"`` (overtrumping only when trump is led) the option has no
    effect.
    """
    if not trick:
        return hand
    game = game_of(rules)
    if partner_pos is None:
        partner_pos = len(trick) - PARTNER_REL if game.has_partners else -1
    obligations, partner_free, undertrump, overtrump_partner = game.play_options
    return _legal(hand, trick, denomination, obligations, partner_free, undertrump, overtrump_partner, partner_pos)


def play_options(rules: Rules) -> tuple[str, bool, str, str]:
    """The options of the legal-card rule at the rules' table, as ``_legal`` and
    ``inference.reveals`` take them: ``(obligations, partner_master_free, undertrump,
    overtrump_partner)``. Four seats: the rules' own (RULES.md §4). Two and three seats
    (TWO_THREE.md §2.8, §3, A19, A20, A28, A29): follow suit, overtrump on a trump lead,
    trump when void (``"two_player"`` obligations), and at three seats under
    ``ruff_overtrump="required"`` overtrump a ruff too (``"classic"``); undertrumping
    forced; ``defender_partner_free`` frees a defender while its co-defender wins. Computed
    once per rule set: ``games.Game.play_options``."""
    if not without_partners(rules.players):
        return rules.obligations, rules.partner_master_free, rules.undertrump, rules.overtrump_partner
    obligations = "classic" if rules.players == 3 and rules.ruff_overtrump == "required" else "two_player"
    return obligations, bool(rules.defender_partner_free), "required", "free"


def co_defender_pos(seat: int, maker: int, leader: int, trick_len: int, rules: Rules) -> int:
    """The position in the current trick (0-based, play order from ``leader``) of the card of
    ``seat``'s co-defender, for ``legal_cards``' ``partner_pos`` (TWO_THREE.md §3, A28):
    only at three seats, for a defender, under ``defender_partner_free``, once that card is
    played (``trick_len`` cards so far); else -1."""
    if rules.players != 3 or seat == maker or not rules.defender_partner_free:
        return -1
    pos = (3 - seat - maker - leader) % 3  # the third seat, counted from the leader
    return pos if pos < trick_len else -1


def _legal(hand: int, trick: Sequence[int], denomination: int, obligations: str, partner_master_free: bool,
           undertrump: str, overtrump_partner: str, partner_pos: int) -> int:
    """``legal_cards`` of a non-empty trick, the rule options given one by one (the four-
    and the small tables share it); ``partner_pos``: the trick position of the acting
    seat's partner's card (-1 or out of the trick: none)."""
    led = trick[0] >> 3
    led_cards = hand & SUIT_MASK[led]
    if denomination >= 4:  # no-trump / all-trump: follow suit; at all-trump beat the winner
        if not led_cards:
            return hand
        if denomination == NO_TRUMP:
            return led_cards
        win = trick[trick_winner(trick, denomination)]
        higher = led_cards & BEATS[ALL_TRUMP][win]
        return higher or led_cards
    beats = BEATS[denomination]
    trumps_mask = SUIT_MASK[denomination]
    if led == denomination:  # trump led: overtrump the highest trump when you can
        if not led_cards:
            return hand
        win = trick[trick_winner(trick, denomination)]
        higher = led_cards & beats[win]
        return higher or led_cards
    if led_cards:
        return led_cards
    # void in a plain led suit
    win_pos = trick_winner(trick, denomination)
    win = trick[win_pos]
    partner_wins = win_pos == partner_pos
    # overtrump_partner "must_overtrump" (COINCHE.md §4, P2): a trump played over the
    # partner's winning ruff must beat it when the seat can (classic obligations only)
    over_partner = (partner_wins and overtrump_partner == "must_overtrump" and obligations == "classic"
                    and win >> 3 == denomination)
    if partner_master_free and partner_wins:
        if over_partner:
            over = hand & trumps_mask & beats[win]
            if over:
                return (hand & ~trumps_mask) | over  # discard, or overtrump the partner
        return hand
    trumps = hand & trumps_mask
    if not trumps:
        return hand
    if win >> 3 != denomination:
        return trumps  # must trump; nobody has trumped yet
    if obligations == "two_player" or (partner_wins and not over_partner):
        return trumps  # two-player reading, or the partner's ruff: any trump
    over = trumps & beats[win]
    if over:
        return over  # must overtrump the opponent (or, with "must_overtrump", the partner)
    if partner_wins:
        return trumps  # cannot beat the partner's ruff: any trump (``undertrump`` is about opponents)
    return trumps if undertrump == "required" else hand


__getattr__ = deprecated_names(__name__, {
    "small_legal_cards": ("rules.legal_cards (every table; partner_pos as before)", lambda: legal_cards)})
