"""One numba kernel per card-play rule, shared by the batched engine (``vector.engine``, every
table) and the double-dummy solver (``belote_env.solver``): the compiled twin of
``rules.trick_winner``, ``rules._legal`` and ``inference.reveals`` (what a played card shows the
seat cannot hold; RULES.md §4; TWO_THREE.md §2.8, §3), held equal to them by
``tests/test_vector_kernels.py`` and by the engines' differential harnesses.

Beside them, what every batched table does whatever its size: the tables' random streams
(splitmix64, one ``uint64`` state per table: ``seed_tables``, ``below``), the shuffle of a
table's deck (``shuffle``), the action mask of a card mask (``mark_cards``), a uniformly
random legal action per table (``random_legal``) and what a new deal clears
(``clear_table``).

The kernels read a trick as a 1-D int64 array of card ids (its first ``n`` entries: a row
slice of an engine's state, or the solver's trick) and the tables of ``cards`` / ``rules``
as arrays: ``power[denomination, led suit, card]`` (``rules.POWER``), ``beats`` the row
``cards.BEATS[denomination]`` of the contract (cards that beat a card), ``suit`` the 4
suit masks (``cards.SUIT_MASK``).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ..cards import ALL_TRUMP, NO_TRUMP, NUM_CARDS

__all__ = ["trick_winner_pos", "legal_cards", "card_reveals", "seed_tables", "below", "shuffle", "mark_cards",
           "random_legal", "clear_table"]


@nb.njit(cache=True, inline="always")
def card_reveals(trick, n, c, k, partner_pos, two_player, partner_master_free, must_overtrump_partner,
                 undertrump_required, power, beats, suit):
    """Mask of the cards a seat shows it cannot hold by playing ``c`` on the first ``n``
    cards of ``trick`` (one body for every table: ``inference.reveals``); the arguments
    as ``legal_cards``'."""
    if n == 0:
        return 0
    led = trick[0] >> 3
    wp = trick_winner_pos(trick, n, k, power)
    win = trick[wp]
    if c >> 3 == led:
        if (k == ALL_TRUMP or led == k) and not (beats[win] >> c) & 1:
            return beats[win]
        return 0
    cannot = suit[led]
    if k >= NO_TRUMP:
        return cannot
    partner_winning = wp == partner_pos
    if not (suit[k] >> c) & 1:  # discarded
        if partner_winning and partner_master_free:
            return cannot
        if not undertrump_required and not two_player and win >> 3 == k and not partner_winning:
            return cannot | beats[win]
        return cannot | suit[k]
    if (not two_player and win >> 3 == k and (not partner_winning or must_overtrump_partner)
            and not (beats[win] >> c) & 1):
        return cannot | beats[win]
    return cannot


# ------------------------------------------------------------------ random streams (splitmix64)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


@nb.njit(cache=True)
def _next_u64(rng, j):
    """Advance table ``j``'s splitmix64 state; a uniform uint64."""
    z = rng[j] + _GOLDEN
    rng[j] = z
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@nb.njit(cache=True)
def below(rng, j, n):
    """A uniform int in ``0..n-1`` from table ``j``'s stream (n <= 2**32; Lemire's
    multiply-shift)."""
    return np.int64(((_next_u64(rng, j) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@nb.njit(cache=True)
def seed_tables(rng, seed, first):
    """Key the streams of tables ``first .. first + len(rng) - 1`` from ``seed``."""
    for j in range(rng.shape[0]):
        z = np.uint64(seed) * _M1 + np.uint64(first + j) * _GOLDEN + _M2
        z = (z ^ (z >> np.uint64(31))) * _M1
        rng[j] = z ^ (z >> np.uint64(29))


@nb.njit(cache=True)
def shuffle(d, rng, j):
    """Fill ``d`` (int64 ``(32,)``) with a uniformly shuffled deck 0..31 from table ``j``'s
    stream (Fisher-Yates)."""
    for i in range(NUM_CARDS):
        d[i] = i
    for i in range(NUM_CARDS - 1, 0, -1):
        r = below(rng, j, i + 1)
        t = d[i]
        d[i] = d[r]
        d[r] = t


@nb.njit(cache=True, inline="always")
def mark_cards(m, cards):
    """Set ``m[c] = 1`` for every card ``c`` of the 32-bit mask ``cards`` (card ids are the
    play actions 0..31)."""
    while cards:
        low = cards & -cards
        c = 0
        while (low >> c) != 1:
            c += 1
        m[c] = 1
        cards ^= low


@nb.njit(cache=True)
def random_legal(mask, rng, out, low_end, high_start):
    """A uniformly random legal action per table (its row of ``mask``) from the tables'
    streams, into ``out``; -1 where nothing is legal. Only the ids ``0..low_end-1`` and
    ``high_start..`` are read (the ids a table can make legal), in that order."""
    width = mask.shape[1]
    for j in range(mask.shape[0]):
        m = mask[j]
        count = 0
        for a in range(low_end):
            count += m[a]
        for a in range(high_start, width):
            count += m[a]
        out[j] = -1
        if count == 0:
            continue
        r = below(rng, j, count)
        for a in range(low_end):
            if m[a]:
                if r == 0:
                    out[j] = a
                    break
                r -= 1
        if out[j] >= 0:
            continue
        for a in range(high_start, width):
            if m[a]:
                if r == 0:
                    out[j] = a
                    break
                r -= 1


@nb.njit(cache=True, inline="always")
def trick_winner_pos(trick, n, k, power):
    """Position (0..n-1) of the card winning the first ``n`` cards of ``trick`` so far under
    denomination ``k`` (``rules.trick_winner``)."""
    led = trick[0] >> 3
    best = 0
    bp = power[k, led, trick[0]]
    for i in range(1, n):
        p = power[k, led, trick[i]]
        if p > bp:
            best, bp = i, p
    return best


@nb.njit(cache=True, inline="always")
def legal_cards(hand, trick, n, win_pos, k, partner_pos, two_player, partner_master_free, must_overtrump_partner,
                undertrump_required, power, beats, suit):
    """Mask of the cards of ``hand`` playable on the first ``n`` cards of ``trick`` (one body
    for every table: ``rules._legal``).

    Args:
        hand: the acting seat's 32-bit card mask.
        trick, n: the trick so far (``n`` 0..3 cards).
        win_pos: the position of the card winning it so far, or -1 (computed here, only
            where the rule needs it).
        k: the denomination 0..5 (a suit, ``NO_TRUMP``, ``ALL_TRUMP``).
        partner_pos: the trick position of the acting seat's partner's card (four seats:
            ``n - 2``; three seats: the co-defender's under ``defender_partner_free``, else
            -1).
        two_player: 1 for ``obligations="two_player"`` (and the two-seat game, three seats
            under ``ruff_overtrump="only_trump_lead"``): overtrump only when trump is led.
        partner_master_free: 1 when the partner's winning card frees the seat
            (``partner_master_free``; ``defender_partner_free``).
        must_overtrump_partner: 1 for ``overtrump_partner="must_overtrump"``.
        undertrump_required: 1 for ``undertrump="required"``.
        power, beats, suit: ``rules.POWER``, ``cards.BEATS[k]``, ``cards.SUIT_MASK``.
    """
    if n == 0:
        return hand
    led = trick[0] >> 3
    led_cards = hand & suit[led]
    if k >= NO_TRUMP:  # no-trump: follow suit; all-trump: follow and beat the winner when you can
        if led_cards == 0:
            return hand
        if k == NO_TRUMP:
            return led_cards
        if win_pos < 0:
            win_pos = trick_winner_pos(trick, n, k, power)
        higher = led_cards & beats[trick[win_pos]]
        return higher if higher else led_cards
    if led == k:  # trump led: overtrump the highest trump when you can
        if led_cards == 0:
            return hand
        if win_pos < 0:
            win_pos = trick_winner_pos(trick, n, k, power)
        higher = led_cards & beats[trick[win_pos]]
        return higher if higher else led_cards
    if led_cards:
        return led_cards
    if win_pos < 0:
        win_pos = trick_winner_pos(trick, n, k, power)
    win = trick[win_pos]
    partner_wins = win_pos == partner_pos
    # overtrump_partner "must_overtrump": a trump over the partner's ruff must beat it if it can
    over_partner = partner_wins and must_overtrump_partner != 0 and two_player == 0 and (win >> 3) == k
    if partner_master_free and partner_wins:
        if over_partner:
            over = hand & suit[k] & beats[win]
            if over:
                return (hand & ~suit[k]) | over  # discard, or overtrump the partner
        return hand
    trumps = hand & suit[k]
    if trumps == 0:
        return hand
    if (win >> 3) != k:
        return trumps  # must trump: nobody has trumped yet
    if two_player or (partner_wins and not over_partner):
        return trumps  # two-player reading, or the partner's ruff: any trump
    over = trumps & beats[win]
    if over:
        return over  # must overtrump the opponent (or, must_overtrump, the partner)
    if partner_wins:
        return trumps  # cannot beat the partner's ruff: any trump
    return trumps if undertrump_required else hand


@nb.njit(cache=True, inline="always")
def clear_table(S, bids, j, deals_col, dealer_col, dealer):
    """Start table ``j``'s new deal: its state row zeroed but for its deal count
    (``S[j, deals_col]``), ``dealer`` in ``S[j, dealer_col]``, its auction history
    ``bids[j]`` emptied (-1)."""
    deals = S[j, deals_col]
    for c in range(S.shape[1]):
        S[j, c] = 0
    S[j, deals_col] = deals
    S[j, dealer_col] = dealer
    for i in range(bids.shape[1]):
        bids[j, i, 0] = -1
        bids[j, i, 1] = -1


@nb.njit(cache=True, inline="always")
def illegal(mask, j, a):
    """True when action ``a`` is out of ``mask``'s range or not legal at table ``j``."""
    return a < 0 or a >= mask.shape[1] or mask[j, a] == 0


@nb.njit(cache=True, inline="always")
def record_bid(S, bids, j, seat, a, count_col):
    """Append ``(seat, a)`` to table ``j``'s auction history ``bids[j]`` (its length in
    ``S[j, count_col]``). Raises ``IndexError`` past the history's bound (the engine sizes
    it by its ``auction_bound``: it cannot happen in a legal auction)."""
    i = S[j, count_col]
    if i >= bids.shape[1]:
        raise IndexError("auction history longer than its bound (the engine's auction_bound)")
    bids[j, i, 0] = seat
    bids[j, i, 1] = a
    S[j, count_col] = i + 1
