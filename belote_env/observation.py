"""Information-set encoders: one seat's ``InfoSet`` -> a flat float32 vector (RULES.md §11).

The encoder reads only an ``InfoSet`` (``infoset.py``), so an observation cannot depend on
hidden cards. Everything is seat-relative: relative seat ``r = (seat - me) % 4`` (0 me,
1 the next seat to play after me, 2 my partner, 3 the seat before me); teams are "us"
(``r`` even) and "them".

Layout of ``encode_infoset`` (version ``OBS_ENCODER_VERSION``), index ranges (``LAYOUT``
declares the blocks once; their offsets, ``OBS_SIZE``, this table and
``suit_permutation_index`` are derived from it):

{LAYOUT_TABLE}

Blocks 401:614 are derived from the earlier ones (they
add no information) to make play easier to learn; the belief block (seed 004's hard tier:
"infers which suits each seat is void in, and ... where each unseen card lies") comes from
``inference.public_constraints`` (``possible_holdings``): while bidding the stock is a fourth holder, so a card
marked for no seat there lies in the stock.

Version history: 1 (first release).

**Coinche** (``rules.contract_mode == "coinche"``, COINCHE.md §9): the observation is the
layout above (``turned``, ``bids1`` and ``bids2`` stay 0: there is no turned card and no
take/pass round; ``phase`` marks the auction as bidding round 1) followed by
``COINCHE_LAYOUT`` (``COINCHE_OBS_SIZE`` = {COINCHE_SIZE} floats in all, version
``COINCHE_OBS_VERSION``):

{COINCHE_TABLE}

Levels are scaled by 1/160 (capot 250/160, générale 500/160). ``obs_size(rules)`` gives
the size for a rule set; the shipped classic networks read the classic 618.

**Two and three seats** (``rules.players`` 2 or 3, ``encode_cutthroat``): one seat's
``InfoSet`` -> a flat float32 vector (TWO_THREE.md §5, RULES.md §11).

The encoder reads only an ``InfoSet``, so an observation cannot depend on
the other hands, the unused face-down cards, the stock or another seat's discards.
Everything is seat-relative: relative seat ``r = (seat - me) % n`` (``n`` = 2 or 3: 0 me,
1 the seat that plays after me, 2 the seat before me at three seats). There are no fixed
teams: in each deal the maker plays alone against the other seat(s) (TWO_THREE.md §3).

Layout (version ``CUTTHROAT_OBS_VERSION``) at ``n`` seats; ``cutthroat_layout(n)`` declares the
blocks once, and their offsets, ``cutthroat_obs_size`` and this table are derived from it.
Three seats ({SIZE_3} floats, ``CUTTHROAT_OBS_SIZE[3]``):

{LAYOUT_3}

Two seats ({SIZE_2} floats, ``CUTTHROAT_OBS_SIZE[2]``): the same blocks with 2 relative seats:

{LAYOUT_2}

Card blocks are indexed by card id (``suit*8 + rank``, suits ♠ ♥ ♦ ♣, ranks 7 8 9 10 J Q K
A). Auction slots hold ``(relative seat, kind)``, kinds pass, accept (take the turned
suit), propose a redeal, agree, refuse, name ♠ ♥ ♦ ♣ (TWO_THREE.md §2.3); an auction has
at most ``auction.proposal_length_bound(rules)`` bids (9 at three seats with every option),
below ``CUTTHROAT_AUCTION_SLOTS`` (10). Values are in [0, 1] except the game scores (/ 1000, above 1
past 1000 points) and the litige reserve (/ 162).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from .actions import (
    AGREE_REDEAL, COINCHE, NAME_CONTRACT, NUM_ACTIONS, PASS, PROPOSE_REDEAL, REFUSE_REDEAL, SURCOINCHE, TAKE,
    bid_denomination, coinche_bid_level, is_coinche_bid,
)
from .cards import FULL_DECK, NUM_CARDS, NUM_CONTRACTS, NUM_SUITS, POINTS_BY_ALL_TRUMP_OPTION, STRENGTH, SUIT_MASK, SUITS
from .config import without_partners
from .deprecation import renamed_in
from .inference import possible_holdings
from .infoset import InfoSet
from .rules import trick_winner
from .table import FOUR, NUM_SEATS, SEATS, TEAM_OF, other_team, seats_from

__all__ = ["OBS_ENCODER_VERSION", "OBS_SIZE", "encode_infoset", "action_mask", "suit_permutation_index", "LAYOUT",
           "OFFSET", "Block", "layout_table", "COINCHE_LAYOUT", "COINCHE_OBS_SIZE", "COINCHE_OBS_VERSION", "obs_size",
           "AUCTION_SLOTS", "level_value", "history_shape", "COINCHE_HISTORY_SHAPE",
           "CUTTHROAT_OBS_VERSION", "CUTTHROAT_AUCTION_SLOTS", "CUTTHROAT_PHASES", "cutthroat_layout", "cutthroat_offsets", "cutthroat_obs_size",
           "cutthroat_layout_table", "encode_cutthroat", "CUTTHROAT_OBS_SIZE", "cutthroat_suit_permutation_index"]

OBS_ENCODER_VERSION = 1


@dataclass(frozen=True)
class Block:
    """One named piece of the observation.

    Attributes:
        name: the block's name (``OFFSET[name]`` is its first index).
        size: number of float32 entries.
        content: what it holds (the docstring table's text).
        suits: how a renaming of the suits moves its entries (``suit_permutation_index``):
            ``""`` not at all; ``"cards"`` 32 entries per card id, repeated ``size / 32``
            times; ``"suits"`` 4 entries per suit, repeated ``size / 4`` times;
            ``"contract"`` the 4 suits then no-trump and all-trump; ``"bids2"`` 7 entries
            per relative seat (passed, then the contract named); ``"holders"`` 3 entries
            per card id.
    """

    name: str
    size: int
    content: str
    suits: str = ""


#: The observation, version 1, block by block (the shipped networks read exactly this).
LAYOUT: tuple[Block, ...] = (
    Block("hand", 32, "my hand (card ids 0..31)", "cards"),
    Block("turned", 32, "the turned card (one-hot)", "cards"),
    Block("bids1", 8, "round-1 bids: relative seat r at ``64 + 2r``: passed, took"),
    Block("bids2", 28, "round-2 bids: relative seat r at ``72 + 7r``: passed, named contract 0..5", "bids2"),
    Block("contract", 6, "contract kind (one-hot: spades hearts diamonds clubs no-trump all-trump)", "contract"),
    Block("taker", 4, "taker (relative seat, one-hot)"),
    Block("dealer", 4, "dealer (relative seat, one-hot)"),
    Block("trick", 128, "current trick: card played by relative seat r at ``114 + 32r``", "cards"),
    Block("played", 128, "every card played this deal by relative seat r at ``242 + 32r``", "cards"),
    Block("leader", 4, "leader of the current trick (relative seat)"),
    Block("phase", 4, "phase: bidding round 1, bidding round 2, card play, a choice that is no card"),
    Block("ntricks", 8, "number of completed tricks (one-hot 0..7)"),
    Block("points", 4, "card points won this deal (us, them) / 162; tricks won (us, them) / 8"),
    Block("announcements", 8, "announcements by relative seat r at ``390 + 2r``: belote, rebelote"),
    Block("scores", 3, "game scores (us, them) / 1000 and the litige reserve / 162"),
    Block("legal", 32, "my legal cards now (0 outside card play)", "cards"),
    Block("unseen", 32, "unseen cards: neither in my hand nor played yet", "cards"),
    Block("master", 32, "my master cards: strongest card still out in its suit (contract order)", "cards"),
    Block("winner", 4, "relative seat winning the current trick (0 when the trick is empty)"),
    Block("led", 4, "led suit of the current trick", "suits"),
    Block("trick_points", 1, "card points in the current trick / 80 (the rules' point table)"),
    Block("voids", 12, "belief: relative seat r = 1..3 at ``506 + 4(r-1) + suit``: known to lack suit", "suits"),
    Block("holders", 96, "belief: card c at ``518 + 3c + (r-1)``: relative seat r = 1..3 may hold c", "holders"),
    Block("declarations", 4, "declaration points made by relative seat r / 350 (RULES.md §6)"),
)


#: the auction events the coinche observation keeps in order (the last ones)
AUCTION_SLOTS = 32
#: one auction event: relative seat (4), kind (pass, bid, coinche, surcoinche), level, denomination (6)
_SLOT = 15
_SLOT_DENOM = 9  # the denomination's first entry in a slot

#: The coinche blocks, after ``LAYOUT`` (COINCHE.md §9: the auction in order and the contract).
COINCHE_LAYOUT: tuple[Block, ...] = (
    Block("auction_seq", AUCTION_SLOTS * _SLOT,
          f"the last {AUCTION_SLOTS} auction events in order (slot 0 the earliest kept): per slot relative seat "
          "(4), pass / bid / coinche / surcoinche (4), level (1), denomination (6)", "slots"),
    Block("auction_best", 24, "highest level each relative seat r bid in each denomination (at ``6r + d``)",
          "contract"),
    Block("high_level", 1, "level of the highest bid so far (the contract once the auction is over)"),
    Block("high_denom", 6, "denomination of the highest bid so far", "contract"),
    Block("high_bidder", 4, "relative seat of the highest bid so far"),
    Block("coinche", 3, "coinche level now: plain, coinched, surcoinched (one-hot)"),
    Block("coincher", 4, "relative seat that coinched (0 if none)"),
    Block("auction_len", 1, "auction events so far / 36 (the default auction's bound, ``auction.length_bound``)"),
)

#: Entries per repeat of each ``Block.suits`` kind.
#: ``small_slots2`` / ``small_slots3``: the auction slots of the two- and three-player
#: observation (``encode_cutthroat``), relative seat (2 or 3) then 9 kinds, the last 4 the
#: named suits.
_STRIDE = {"cards": 32, "suits": 4, "contract": 6, "bids2": 7, "holders": 96, "slots": _SLOT,
           "small_slots2": 11, "small_slots3": 12}


def _offsets(layout: tuple[Block, ...]) -> dict[str, int]:
    out, pos = {}, 0
    for b in layout:
        if b.name in out or b.size < 1:
            raise ValueError(f"observation layout: block {b.name!r} repeated or empty")
        if b.suits and (b.suits not in _STRIDE or b.size % _STRIDE[b.suits]):
            raise ValueError(f"observation layout: block {b.name!r} of size {b.size} does not fit {b.suits!r}")
        out[b.name] = pos
        pos += b.size
    return out


#: First index of each block.
OFFSET: dict[str, int] = _offsets(LAYOUT)
OBS_SIZE = sum(b.size for b in LAYOUT)
assert OBS_SIZE == 618, "observation v1 is 618 floats: the shipped networks read it"


def layout_table(layout: tuple[Block, ...] = LAYOUT, offset: dict[str, int] | None = None) -> str:
    """The layout as a reStructuredText table (range, size, content), for docstrings
    (``offset``: the blocks' first indices, default ``OFFSET``)."""
    offset = OFFSET if offset is None else offset
    rule = "=========== ===== " + "=" * 74
    rows = [rule, f"{'range':<11} {'size':<5} content", rule]
    for b in layout:
        a = offset[b.name]
        rows.append(f"{f'{a}:{a + b.size}':<11} {b.size:<5} {b.content}")
    rows.append(rule)
    return "\n".join(rows)


COINCHE_OBS_VERSION = 1
_C_OFFSET = {k: v + OBS_SIZE for k, v in _offsets(COINCHE_LAYOUT).items()}
COINCHE_OBS_SIZE = OBS_SIZE + sum(b.size for b in COINCHE_LAYOUT)


__doc__ = (__doc__.replace("{LAYOUT_TABLE}", layout_table()).replace("{COINCHE_TABLE}", layout_table(COINCHE_LAYOUT, _C_OFFSET))
           .replace("{COINCHE_SIZE}", str(COINCHE_OBS_SIZE)))


def obs_size(rules) -> int:
    """The observation length (floats) under ``rules`` (``games.Game.obs_size``): ``OBS_SIZE``
    (618) for the classic game, ``COINCHE_OBS_SIZE`` for coinche (``encode_infoset``); at two or three seats
    (``rules.players``) ``cutthroat_obs_size(rules)`` (``encode_cutthroat``)."""
    from .games import game_of

    return game_of(rules).obs_size


def level_value(level) -> float:
    """A coinche level scaled for the observation: ``level / 160``; capot 250/160,
    générale 500/160 (COINCHE.md §6.1)."""
    return (250 if level == "capot" else 500 if level == "generale" else level) / 160.0

(_HAND, _TURNED, _BID1, _BID2, _CONTRACT, _TAKER, _DEALER, _TRICK, _PLAYED, _LEADER, _PHASE, _NTRICKS, _POINTS, _ANN,
 _SCORES, _LEGAL, _UNSEEN, _MASTER, _WINNER, _LED, _TRICK_PTS, _VOIDS, _HOLDERS, _DECL) = (OFFSET[b.name] for b in LAYOUT)

def _gather_table() -> np.ndarray:
    """For each observation index, where its 0/1 value sits in the unpacked mask bits."""
    g = np.full(OBS_SIZE, _ZERO_BIT, dtype=np.intp)
    for slot, base in ((_M_HAND, _HAND), (_M_TURNED, _TURNED), (_M_LEGAL, _LEGAL), (_M_UNSEEN, _UNSEEN),
                       (_M_MASTER, _MASTER)):
        g[base:base + 32] = 32 * slot + np.arange(32)
    g[_TRICK:_TRICK + 128] = 32 * _M_TRICK + np.arange(128)
    g[_PLAYED:_PLAYED + 128] = 32 * _M_PLAYED + np.arange(128)
    for r in _OTHERS:
        g[_HOLDERS + r - 1:_HOLDERS + 96:3] = 32 * (_M_POSSIBLE + r - 1) + np.arange(32)
    return g


# slots of the 32-bit masks unpacked in one call: hand, turned card, trick and played
# cards by relative seat (4 each), legal cards, unseen, master cards, possible holdings of
# relative seats 1..3, and two empty slots (the source of every index set from scalars)
_M_HAND, _M_TURNED, _M_TRICK, _M_PLAYED, _M_LEGAL, _M_UNSEEN, _M_MASTER, _M_POSSIBLE = 0, 1, 2, 6, 10, 11, 12, 13
_N_MASKS = 18
_ZERO_BIT = 32 * 16
_OTHERS = range(1, NUM_SEATS)  # the relative seats other than mine (the belief blocks)
_GATHER = _gather_table()
# per contract kind and suit: the suit's card ids, strongest first (contract order)
_ORDER = tuple(tuple(tuple(sorted(range(8 * suit, 8 * suit + 8), key=lambda c: -STRENGTH[k][c]))
                     for suit in SUITS) for k in range(NUM_CONTRACTS))
_RELATIVE = FOUR.relative  # _RELATIVE[me][seat]: seat counted from me


def encode_infoset(info: InfoSet, out: np.ndarray | None = None) -> np.ndarray:
    """Encode one seat's information set (layout in the module docstring).

    Args:
        info: the seat's ``InfoSet``.
        out: optional float32 array of shape ``(OBS_SIZE,)`` to fill (fully overwritten).
    Returns:
        float32 array of shape ``(OBS_SIZE,)``, values in [0, 1] except the game scores
        (divided by 1000 whatever the target, so above 1 past 1000 points) and the litige
        reserve (/ 162, above 1 after successive ties).

    Every 32-card block is packed as a 32-bit mask and all of them are unpacked by one
    numpy call; the one-hot scalars are then set in one more. Raises ``ValueError`` for
    an information set of a two- or three-seat table (``encode_cutthroat`` encodes those;
    ``games.Game.encode`` picks the table's encoder).
    """
    if without_partners(info.rules.players):
        raise ValueError(f"encode_infoset encodes a four-seat InfoSet, got one of {info.players} seats: "
                         "observation.encode_cutthroat (or games.game_of(rules).encode) encodes it")
    me = info.seat
    rel = _RELATIVE[me]
    hand = info.hand
    masks = [0] * _N_MASKS
    masks[_M_HAND] = hand
    coinche = info.rules.contract_mode == "coinche"
    if not coinche:
        masks[_M_TURNED] = 1 << info.turned_card
    ones: list[int] = []  # one-hot indices set from scalars
    for i, (seat, action) in enumerate(() if coinche else info.auction):
        r = rel[seat]
        if i < NUM_SEATS:  # the first round: one bid per seat
            ones.append(_BID1 + 2 * r + (action == TAKE))
        else:
            ones.append(_BID2 + 7 * r + (0 if action == PASS else 1 + action - NAME_CONTRACT))
    k = info.denomination
    if k >= 0:
        ones.append(_CONTRACT + k)
        ones.append(_TAKER + rel[info.taker])
    ones.append(_DEALER + rel[info.dealer])
    leader = info.trick_leader
    trick = info.trick
    order = seats_from(leader)  # the trick's seats in play order
    for seat, c in zip(order, trick):
        masks[_M_TRICK + rel[seat]] |= 1 << c
    pb = info.played_by
    played = 0
    for seat in SEATS:
        masks[_M_PLAYED + rel[seat]] = pb[seat]
        played |= pb[seat]
    ones.append(_LEADER + rel[leader])
    legal = info.legal_actions
    if info.phase == 0:
        ones.append(_PHASE + (0 if info.bid_round == 1 else 1))
    elif info.phase == 1:
        ones.append(_PHASE + (3 if legal and legal[0] >= NUM_CARDS else 2))
    n = len(info.tricks)
    if n < 8:
        ones.append(_NTRICKS + n)
    us, them = TEAM_OF[me], other_team(TEAM_OF[me])
    won_us = 0
    for _, _, w in info.tricks:
        won_us += TEAM_OF[w] == us
    for seat, kind, _ in info.announcements:
        ones.append(_ANN + 2 * rel[seat] + (kind == "rebelote"))
    # derived blocks
    legal_mask = 0
    for c in legal:
        if c < 32:
            legal_mask |= 1 << c
    masks[_M_LEGAL] = legal_mask
    unseen = FULL_DECK & ~(hand | played)
    masks[_M_UNSEEN] = unseen
    trick_pts = 0.0
    if k >= 0:
        out_cards = unseen | hand
        master = 0
        for suit in SUITS:
            if hand & SUIT_MASK[suit]:
                for c in _ORDER[k][suit]:
                    if out_cards >> c & 1:
                        master |= (hand >> c & 1) << c
                        break
        masks[_M_MASTER] = master
        if trick:
            ones.append(_WINNER + rel[order[trick_winner(trick, k)]])
            ones.append(_LED + (trick[0] >> 3))
            pts = POINTS_BY_ALL_TRUMP_OPTION[info.rules.all_trump_points][k]
            for c in trick:
                trick_pts += pts[c]
            trick_pts /= 80.0
    # belief block
    holdings = possible_holdings(info)
    mine = seats_from(me)  # mine[r]: the seat r places after me
    for r in _OTHERS:
        possible = holdings[mine[r]]
        masks[_M_POSSIBLE + r - 1] = possible
        base = _VOIDS + NUM_SUITS * (r - 1)
        for suit in SUITS:
            if not possible & SUIT_MASK[suit]:
                ones.append(base + suit)
    bits = np.unpackbits(np.array(masks, dtype="<u4").view(np.uint8), bitorder="little")
    if coinche:
        if out is None:
            out = np.zeros(COINCHE_OBS_SIZE, dtype=np.float32)
        else:
            out[OBS_SIZE:] = 0.0
        out[:OBS_SIZE] = bits[_GATHER]
        _encode_auction(info, rel, out)
    elif out is None:
        out = bits[_GATHER].astype(np.float32)
    else:
        out[:] = bits[_GATHER]
    out[ones] = 1.0
    out[_POINTS] = info.card_points[us] / 162.0
    out[_POINTS + 1] = info.card_points[them] / 162.0
    out[_POINTS + 2] = won_us / 8.0
    out[_POINTS + 3] = (n - won_us) / 8.0
    out[_SCORES] = info.scores[us] / 1000.0
    out[_SCORES + 1] = info.scores[them] / 1000.0
    out[_SCORES + 2] = info.reserve / 162.0
    out[_TRICK_PTS] = trick_pts
    for seat in SEATS:
        if info.declared[seat]:
            out[_DECL + rel[seat]] = sum(d.points for d in info.declared[seat]) / 350.0
    return out


_SEQ, _BEST, _HIGH_LEVEL, _HIGH_DENOM, _HIGH_BIDDER, _COINCHE_K, _COINCHER, _AUCTION_LEN = (
    _C_OFFSET[b.name] for b in COINCHE_LAYOUT)


def _encode_auction(info: InfoSet, rel, out: np.ndarray) -> None:
    """The coinche blocks (``COINCHE_LAYOUT``) of ``info``'s public auction, into ``out``
    (already zero there)."""
    history = info.auction
    high = None  # (level value, denomination, seat)
    k, coincher = 0, -1
    first = max(0, len(history) - AUCTION_SLOTS)
    for i, (seat, action) in enumerate(history):
        r = rel[seat]
        slot = _SEQ + (i - first) * _SLOT if i >= first else -1
        if is_coinche_bid(action):
            v, d = level_value(coinche_bid_level(action)), bid_denomination(action, -1)
            high, k, coincher = (v, d, r), 0, -1  # a higher bid cancels a coinche (coinche_freezes: false)
            best = _BEST + 6 * r + d
            out[best] = max(out[best], v)
            kind = 1
        elif action == COINCHE:
            k, coincher, kind = 1, r, 2
        elif action == SURCOINCHE:
            k, kind = 2, 3
        else:
            kind = 0
        if slot >= 0:
            out[slot + r] = 1.0
            out[slot + 4 + kind] = 1.0
            if kind == 1:
                out[slot + 8] = high[0]
                out[slot + _SLOT_DENOM + high[1]] = 1.0
    if high is not None:
        out[_HIGH_LEVEL] = high[0]
        out[_HIGH_DENOM + high[1]] = 1.0
        out[_HIGH_BIDDER + high[2]] = 1.0
    out[_COINCHE_K + k] = 1.0
    if coincher >= 0:
        out[_COINCHER + coincher] = 1.0
    out[_AUCTION_LEN] = len(history) / 36.0


def action_mask(legal_actions, out: np.ndarray | None = None) -> np.ndarray:
    """int8 array of shape ``(NUM_ACTIONS,)``: 1 at each legal id, else 0."""
    if out is None:
        out = np.zeros(NUM_ACTIONS, dtype=np.int8)
    else:
        out.fill(0)
    if legal_actions:
        out[list(legal_actions)] = 1
    return out


# ---------------------------------------------------------------------------------------
# obs_mode="history": the ordered public history, for sequence models.
HISTORY_ENCODER_VERSION = 1
HISTORY_TOKENS = 56  # 8 bids + 32 cards + 4 declarations + 8 belote/rebelote, rounded up
HISTORY_ROWS = 8 + 1 + HISTORY_TOKENS
HISTORY_SHAPE = (HISTORY_ROWS, 2)
#: coinche: room for an auction of up to 256 events (the default auction has at most 36,
#: ``auction.length_bound``) before the 32 cards and 12 announcements; ``history_shape``
#: makes room for more under rules whose auctions may be longer
COINCHE_HISTORY_TOKENS = 256 + 44
COINCHE_HISTORY_SHAPE = (8 + 1 + COINCHE_HISTORY_TOKENS, 2)


def history_shape(rules) -> tuple[int, int]:
    """``HISTORY_SHAPE`` (classic) or, in coinche, ``COINCHE_HISTORY_SHAPE`` (room for 256
    auction events), taller when the rules allow longer auctions
    (``auction.length_bound(rules)`` events: ``max_numeric_bid`` up to 650,
    ``denomination_order="ranked"``, ``coinche_window="immediate"``...), so that every
    legal auction fits."""
    if rules.contract_mode != "coinche":
        return HISTORY_SHAPE
    return _coinche_history_shape(rules)


@functools.lru_cache(maxsize=256)
def _coinche_history_shape(rules) -> tuple[int, int]:
    from .auction import length_bound

    rows = 8 + 1 + length_bound(rules) + COINCHE_HISTORY_TOKENS - 256
    return (max(rows, COINCHE_HISTORY_SHAPE[0]), 2)


def encode_history(info: InfoSet, out: np.ndarray | None = None) -> np.ndarray:
    """Encode ``info`` as rows of ``(relative seat, id)`` (int16, shape ``HISTORY_SHAPE``).

    ==========  ==================================================================
    rows 0..7   my cards in hand: ``(0, card id)``, ascending, padded with ``(-1, -1)``
    row 8       the turned card: ``(relative dealer, card id)`` (coinche: card id -1)
    rows 9..64  the deal's public events in order: ``(relative seat, action id)``:
                bids, cards played, and before a card the announcements made with
                it (``102`` declare, ``104`` belote or rebelote); padded ``(-1, -1)``.
                Which cards were declared is not in this encoding (use ``"infoset"``).
    ==========  ==================================================================

    Relative seat ``r = (seat - me) % 4``. Version ``HISTORY_ENCODER_VERSION``. Coinche
    (``history_shape(rules)``, ``COINCHE_HISTORY_SHAPE`` or taller): room for the longest
    legal auction (``auction.length_bound``), the 32 cards and 12 announcements;
    ``ValueError`` past that (an ``InfoSet`` no game produces).
    """
    from .actions import ANNOUNCE_BELOTE, DECLARE

    shape = history_shape(info.rules)
    if out is None:
        out = np.full(shape, -1, dtype=np.int16)
    else:
        out.fill(-1)
    me = info.seat
    rel = _RELATIVE[me]
    row = 0
    hand = info.hand
    while hand:
        low = hand & -hand
        out[row] = (0, low.bit_length() - 1)
        hand ^= low
        row += 1
    out[8] = (rel[info.dealer], info.turned_card)
    tokens = [(rel[s], a) for s, a in info.auction]
    announced = {c for _, _, c in info.announcements}
    first_card_done = set()
    plays = [(leader, cards) for leader, cards, _ in info.tricks]
    if info.trick:
        plays.append((info.trick_leader, info.trick))
    for leader, cards in plays:
        for seat, c in zip(seats_from(leader), cards):
            r = rel[seat]
            if seat not in first_card_done:
                first_card_done.add(seat)
                if info.declared[seat]:
                    tokens.append((r, DECLARE))
            if c in announced:
                tokens.append((r, ANNOUNCE_BELOTE))
            tokens.append((r, c))
    if len(tokens) > shape[0] - 9:
        raise ValueError(f"history of {len(tokens)} events does not fit the {shape[0] - 9} rows of obs_mode='history' "
                         "(an auction longer than auction.length_bound(rules))")
    if tokens:
        out[9:9 + len(tokens)] = tokens
    return out


def suit_permutation_index(perm, size: int = OBS_SIZE) -> tuple[np.ndarray, np.ndarray]:
    """Index arrays that rename the suits of an observation (the game is the same up to the
    suits' names, RULES.md §1: used to augment training data and to average a network over
    the 24 renamings).

    Args:
        perm: a permutation of ``(0, 1, 2, 3)``: suit ``s`` becomes suit ``perm[s]``.
        size: ``OBS_SIZE`` (classic) or ``COINCHE_OBS_SIZE`` (the coinche blocks are
            renamed too: their denominations).
    Returns:
        ``(obs_index, card_index)``, int64 arrays of shapes ``(size,)`` and ``(32,)``:
        ``obs[..., obs_index]`` is the observation of the renamed deal, and
        ``values[..., card_index]`` renames a per-card vector (card ``c`` of suit ``s``
        becomes the card of the same rank in suit ``perm[s]``). Every block indexed by
        card, suit or contract suit is renamed (hand, turned card, named contracts,
        contract kind, trick, played cards, legal, unseen, master cards, led suit, voids,
        possible holders); the rest is left as is.
    Raises:
        ValueError: ``perm`` is not a permutation of 0..3.
    """
    perm = _check_perm(perm)
    if size not in (OBS_SIZE, COINCHE_OBS_SIZE):
        raise ValueError(f"size must be OBS_SIZE ({OBS_SIZE}) or COINCHE_OBS_SIZE ({COINCHE_OBS_SIZE}), got {size!r}")
    return rename_blocks(team_blocks(size == COINCHE_OBS_SIZE), perm, size)


def team_blocks(coinche: bool) -> tuple[tuple[Block, int], ...]:
    """The four-seat observation's ``(Block, offset)`` pairs: ``LAYOUT``'s, then
    ``COINCHE_LAYOUT``'s after them with ``coinche`` (``games.Game.obs_blocks``)."""
    blocks = tuple((b, OFFSET[b.name]) for b in LAYOUT)
    return blocks + tuple((b, _C_OFFSET[b.name]) for b in COINCHE_LAYOUT) if coinche else blocks


def _check_perm(perm) -> list[int]:
    if not isinstance(perm, (tuple, list, np.ndarray)):
        raise ValueError(f"perm must be a permutation of (0, 1, 2, 3) as 4 ints (a tuple, list or array), "
                         f"got {perm!r}")
    try:
        ok = len(perm) == NUM_SUITS and all(type(x) is int or isinstance(x, np.integer) for x in perm)
    except TypeError:
        ok = False
    if not ok or sorted(int(x) for x in perm) != list(SUITS):
        raise ValueError(f"perm must be a permutation of (0, 1, 2, 3) as 4 ints, got {perm!r}")
    return [int(x) for x in perm]


def rename_blocks(blocks, perm, size: int) -> tuple[np.ndarray, np.ndarray]:
    """``suit_permutation_index`` of any layout (the deal is the same up to the suits'
    names, RULES.md §1): ``blocks`` the ``(Block, offset)`` pairs, each moved as its
    ``Block.suits`` kind says; ``size`` the observation's length. Returns ``(obs_index,
    card_index)``, int64 ``(size,)`` and ``(32,)``, as ``suit_permutation_index`` does.
    ``ValueError`` for a ``perm`` that is not a permutation of 0..3, a block of an unknown
    ``suits`` kind, or blocks that overlap or leave ``0 .. size - 1``."""
    perm = _check_perm(perm)
    dest = np.arange(size)
    seen = np.zeros(size, dtype=bool)
    for b, base in blocks:
        if b.suits and b.suits not in _STRIDE:
            raise ValueError(f"block {b.name!r}: unknown suits kind {b.suits!r} (allowed: {', '.join(_STRIDE)})")
        if base < 0 or base + b.size > size or seen[base:base + b.size].any():
            raise ValueError(f"block {b.name!r} at {base} (size {b.size}) overlaps another or leaves 0..{size - 1}")
        seen[base:base + b.size] = True
    card = [perm[c >> 3] * 8 + (c & 7) for c in range(32)]
    for b, base in blocks:  # each block moves as its ``suits`` kind says
        if b.suits == "cards":
            for k in range(0, b.size, 32):
                for c in range(32):
                    dest[base + k + c] = base + k + card[c]
        elif b.suits in ("suits", "contract", "bids2"):
            first = 1 if b.suits == "bids2" else 0  # bids2: "passed" comes before the contracts
            for k in range(0, b.size, _STRIDE[b.suits]):
                for suit in SUITS:
                    dest[base + k + first + suit] = base + k + first + perm[suit]
        elif b.suits in ("slots", "small_slots2", "small_slots3"):
            stride = _STRIDE[b.suits]
            first = _SLOT_DENOM if b.suits == "slots" else stride - NUM_SUITS  # the named suits end a small slot
            for k in range(0, b.size, stride):
                for suit in SUITS:
                    dest[base + k + first + suit] = base + k + first + perm[suit]
        elif b.suits == "holders":
            for c in range(32):
                for r in range(3):
                    dest[base + 3 * c + r] = base + 3 * card[c] + r
    obs_index = np.empty(size, dtype=np.int64)
    obs_index[dest] = np.arange(size)
    card_index = np.empty(32, dtype=np.int64)
    card_index[card] = np.arange(32)
    return obs_index, card_index


# ------------------------------------------------------------------ two and three seats (TWO_THREE.md §5)
CUTTHROAT_OBS_VERSION = 1
#: bids the observation keeps (every legal auction fits: ``auction.proposal_length_bound``)
CUTTHROAT_AUCTION_SLOTS = 10
#: the auction kinds of a slot after its relative seat
_KINDS = ("pass", "accept", "propose", "agree", "refuse", "name ♠", "name ♥", "name ♦", "name ♣")
_KIND_OF = {PASS: 0, TAKE: 1, PROPOSE_REDEAL: 2, AGREE_REDEAL: 3, REFUSE_REDEAL: 4,
            **{NAME_CONTRACT + s: 5 + s for s in range(NUM_SUITS)}}
#: the ``phase`` block: what the seat to act is deciding (one-hot)
CUTTHROAT_PHASES = ("bidding round 1", "bidding round 2", "exchange", "discard", "declare", "cards", "deal over")
_MAX_TRICKS = 10  # 10_each: 10 tricks; 6+3: 9; 24_card: 8
_SUIT_POINTS = POINTS_BY_ALL_TRUMP_OPTION["pagat"]  # the suit contracts' card points (RULES.md §1)


def cutthroat_layout(n: int) -> tuple[Block, ...]:
    """The observation's blocks at a table of ``n`` seats (2 or 3), in order.

    Raises:
        ValueError: ``n`` is not 2 or 3.
    """
    if type(n) is not int or n not in (2, 3):
        raise ValueError(f"the small-table observation is for 2 or 3 seats, got {n!r}")
    others = n - 1
    slot = n + len(_KINDS)
    return (
        Block("hand", 32, "my hand", "cards"),
        Block("turned", 32, "the turned card (one-hot; public)", "cards"),
        Block("bottom", 32, "the bottom card shown to every seat (0 before it is shown, or when there is none)",
              "cards"),
        Block("out_of_play", 32, "cards every seat knows are out of play (bottom card, turned card not taken, "
              "exchanged seven, the 7s and 8s of the 24-card game)", "cards"),
        Block("gone", 32, "cards that can no longer be anywhere: played, out of play, or my own discards", "cards"),
        Block("discarded", 32, "my own discards (``10_each``, the maker only)", "cards"),
        Block("auction", CUTTHROAT_AUCTION_SLOTS * slot,
              f"the bids in order, slot i at ``auction + {slot}i``: relative seat ({n}), then kind: "
              + ", ".join(_KINDS), f"small_slots{n}"),
        Block("trump", 4, "the trump suit (one-hot; 0 while bidding)", "suits"),
        Block("maker", n, "the maker (relative seat, one-hot)"),
        Block("dealer", n, "the dealer (relative seat, one-hot)"),
        Block("exchanged", n, "the seat that exchanged the seven of trumps for the turned card (relative)"),
        Block("declared", 4 * n, "per relative seat r at ``declared + 4r``: announced value / 100, compared flag, "
              "(top rank + 1) / 8 and trump flag (the last two only when compared, TWO_THREE.md §2.6)"),
        Block("decl_winner", n + 2, "whose combinations score: relative seat, then nobody, then not decided yet"),
        Block("decl_cards", 32, "the scoring seat's combination cards (shown to all)", "cards"),
        Block("belote", n, "belote claimed by relative seat r (TWO_THREE.md §2.7)"),
        Block("trick", 32 * n, "current trick: card played by relative seat r at ``trick + 32r``", "cards"),
        Block("played", 32 * n, "every card played this deal by relative seat r at ``played + 32r``", "cards"),
        Block("won", 32 * n, "the cards of the completed tricks won by relative seat r at ``won + 32r``", "cards"),
        Block("leader", n, "leader of the current trick (relative seat)"),
        Block("winner", n, "relative seat winning the current trick (0 when the trick is empty)"),
        Block("led", 4, "led suit of the current trick", "suits"),
        Block("trick_points", 1, "card points in the current trick / 80"),
        Block("ntricks", _MAX_TRICKS + 1, "completed tricks (one-hot 0..10)"),
        Block("tricks_won", n, "completed tricks won by relative seat r / 10"),
        Block("card_points", n, "card points won this deal by relative seat r / 162"),
        Block("hand_sizes", n, "cards held by relative seat r / 12"),
        Block("scores", n + 1, "game scores by relative seat r / 1000, then the litige reserve / 162"),
        Block("phase", len(CUTTHROAT_PHASES), "the current step: " + ", ".join(CUTTHROAT_PHASES)),
        Block("to_act", n, "the seat to act (relative seat; 0 once the deal is over)"),
        Block("legal", 32, "my legal cards now (0 outside card play)", "cards"),
        Block("unseen", 32, "unseen cards: neither in my hand nor gone", "cards"),
        Block("known", 32 * others, "public: cards relative seat r = 1..n-1 is known to hold, at ``known + 32(r-1)`` "
              "(the taken turned card, shown combinations) and has not played", "cards"),
        Block("cannot", 32 * others, "public: cards relative seat r = 1..n-1 is known not to hold (voids shown by "
              "its play), at ``cannot + 32(r-1)``", "cards"),
    )


_LAYOUTS = {n: cutthroat_layout(n) for n in (2, 3)}
_OFFSETS = {n: _offsets(lay) for n, lay in _LAYOUTS.items()}
#: the observation's length at 2 and 3 seats
CUTTHROAT_OBS_SIZE = {n: sum(b.size for b in lay) for n, lay in _LAYOUTS.items()}


def cutthroat_offsets(n: int) -> dict[str, int]:
    """First index of each block at ``n`` seats (2 or 3); ``ValueError`` otherwise."""
    cutthroat_layout(n)
    return _OFFSETS[n]


def cutthroat_layout_table(n: int) -> str:
    """The layout at ``n`` seats as a reStructuredText table (range, size, content)."""
    return layout_table(_LAYOUTS[n], cutthroat_offsets(n))


def cutthroat_obs_size(rules) -> int:
    """The observation length (floats) of ``encode_cutthroat`` under ``rules``
    (``rules.players`` 2 or 3). Raises ``ValueError`` for any other table size."""
    n = getattr(rules, "players", None)
    if n not in (2, 3):
        raise ValueError(f"cutthroat_obs_size needs rules with players 2 or 3 (TWO_THREE.md), got players={n!r}")
    return CUTTHROAT_OBS_SIZE[n]


def cutthroat_suit_permutation_index(perm, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Index arrays that rename the suits of an ``n``-seat observation (2 or 3): the game is
    the same up to the suits' names (TWO_THREE.md §2: no rule names a suit), so a network
    can be averaged over the 24 renamings.

    Args:
        perm: a permutation of ``(0, 1, 2, 3)``: suit ``s`` becomes suit ``perm[s]``.
        n: the number of seats.
    Returns:
        ``(obs_index, card_index)``, int64 arrays of shapes ``(CUTTHROAT_OBS_SIZE[n],)`` and
        ``(32,)``, as ``observation.suit_permutation_index``: every card block, the trump
        and led suit and the auction's "name a suit" kinds move; the rest stays.
    Raises:
        ValueError: ``perm`` is not a permutation of 0..3, or ``n`` is not 2 or 3.
    """
    return rename_blocks(cutthroat_blocks(n), perm, CUTTHROAT_OBS_SIZE[n])


def cutthroat_blocks(n: int) -> tuple[tuple[Block, int], ...]:
    """The ``n``-seat observation's ``(Block, offset)`` pairs (2 or 3; ``games.Game.obs_blocks``).
    ``ValueError`` for another ``n``."""
    if type(n) is not int or n not in _LAYOUTS:
        raise ValueError(f"the small-table observation is for 2 or 3 seats, got {n!r}")
    offsets = _OFFSETS[n]
    return tuple((b, offsets[b.name]) for b in _LAYOUTS[n])


__doc__ = (__doc__.replace("{LAYOUT_3}", cutthroat_layout_table(3)).replace("{LAYOUT_2}", cutthroat_layout_table(2))
           .replace("{SIZE_3}", str(CUTTHROAT_OBS_SIZE[3])).replace("{SIZE_2}", str(CUTTHROAT_OBS_SIZE[2])))


def encode_cutthroat(info, out: np.ndarray | None = None) -> np.ndarray:
    """Encode one seat's information set of the two- or three-player game (layout in the
    module docstring; TWO_THREE.md §5).

    Args:
        info: the seat's ``InfoSet`` (``GameState.information_set``).
        out: optional float32 array of shape ``(cutthroat_obs_size(info.rules),)`` to fill
            (fully overwritten).
    Returns:
        float32 array of shape ``(cutthroat_obs_size(info.rules),)``.
    Raises:
        ValueError: ``info`` is not a two- or three-seat information set (a four-seat
            ``InfoSet`` goes to ``observation.encode_infoset``), ``out`` has the wrong
            shape or dtype, or the auction holds a bid the small games do not have.
    """
    n = getattr(info, "players", None)
    if n not in (2, 3):
        raise ValueError("encode_cutthroat encodes a two- or three-seat InfoSet (GameState.information_set); "
                         f"got {type(info).__name__}" + (f" with players={n!r}" if n is not None else ""))
    o = _OFFSETS[n]
    size = CUTTHROAT_OBS_SIZE[n]
    if out is None:
        out = np.zeros(size, dtype=np.float32)
    else:
        if not isinstance(out, np.ndarray) or out.shape != (size,) or out.dtype != np.float32:
            raise ValueError(f"out must be a float32 array of shape ({size},), got "
                             f"{getattr(out, 'dtype', type(out).__name__)} {getattr(out, 'shape', '')}")
        out.fill(0.0)
    me = info.seat

    def rel(seat: int) -> int:
        return (seat - me) % n

    played = 0
    for m in info.played_by:
        played |= m
    gone = played | info.out_of_play | info.discarded
    trump = info.denomination
    legal_cards = 0
    for a in info.legal_actions:
        if a < NUM_CARDS:
            legal_cards |= 1 << a
    won = [0] * n
    for _, cards, w in info.tricks:
        for c in cards:
            won[rel(w)] |= 1 << c
    cannot, known = info.public_knowledge
    masks: list[tuple[int, int]] = [
        (o["hand"], info.hand), (o["out_of_play"], info.out_of_play), (o["gone"], gone),
        (o["discarded"], info.discarded), (o["decl_cards"], info.decl_cards), (o["legal"], legal_cards),
        (o["unseen"], FULL_DECK & ~(info.hand | gone)),
    ]
    if info.turned_card >= 0:
        masks.append((o["turned"], 1 << info.turned_card))
    if info.bottom_card >= 0:
        masks.append((o["bottom"], 1 << info.bottom_card))
    for seat in range(n):
        r = rel(seat)
        masks.append((o["played"] + 32 * r, info.played_by[seat]))
        masks.append((o["won"] + 32 * r, won[r]))
        if r:
            masks.append((o["known"] + 32 * (r - 1), known[seat] & ~info.played_by[seat]))
            masks.append((o["cannot"] + 32 * (r - 1), cannot[seat]))
    trick = info.trick
    for i, c in enumerate(trick):
        masks.append((o["trick"] + 32 * rel(info.trick_leader + i), 1 << c))
    bits = np.unpackbits(np.array([m for _, m in masks], dtype="<u4").view(np.uint8), bitorder="little")
    bits = bits.reshape(len(masks), 32)
    for (base, _), row in zip(masks, bits):
        out[base:base + 32] += row  # each 32-card block is written once, the trick's rows once per card
    ones: list[int] = []
    slot = n + len(_KINDS)
    if len(info.auction) > CUTTHROAT_AUCTION_SLOTS:
        raise ValueError(f"an auction of {len(info.auction)} bids does not fit the observation's {CUTTHROAT_AUCTION_SLOTS} slots")
    for i, (seat, action) in enumerate(info.auction):
        kind = _KIND_OF.get(action)
        if kind is None:
            raise ValueError(f"bid {action!r} of seat {seat} is not a bid of the two- or three-player game")
        base = o["auction"] + slot * i
        ones += (base + rel(seat), base + n + kind)
    if trump >= 0:
        ones.append(o["trump"] + trump)
    if info.taker >= 0:
        ones.append(o["maker"] + rel(info.taker))
    ones.append(o["dealer"] + rel(info.dealer))
    if info.exchanged >= 0:
        ones.append(o["exchanged"] + rel(info.exchanged))
    for seat, (value, top, is_trump) in enumerate(info.declared):
        base = o["declared"] + 4 * rel(seat)
        out[base] = value / 100.0
        if top >= 0:
            out[base + 1] = 1.0
            out[base + 2] = (top + 1) / 8.0
            out[base + 3] = float(is_trump)
    w = info.decl_winner
    ones.append(o["decl_winner"] + (rel(w) if w >= 0 else n if w == -1 else n + 1))
    for seat, _, _ in info.announcements:
        ones.append(o["belote"] + rel(seat))
    ones.append(o["leader"] + rel(info.trick_leader))
    if trick and trump >= 0:
        ones.append(o["winner"] + rel(info.trick_leader + trick_winner(trick, trump)))
        ones.append(o["led"] + (trick[0] >> 3))
        pts = _SUIT_POINTS[trump]
        out[o["trick_points"]] = sum(pts[c] for c in trick) / 80.0
    nt = len(info.tricks)
    ones.append(o["ntricks"] + min(nt, _MAX_TRICKS))
    nwon = [0] * n
    for _, _, wr in info.tricks:
        nwon[rel(wr)] += 1
    for seat in range(n):
        r = rel(seat)
        out[o["card_points"] + r] = info.card_points[seat] / 162.0
        out[o["tricks_won"] + r] = nwon[r] / 10.0
        out[o["hand_sizes"] + r] = info.hand_sizes[seat] / 12.0
        out[o["scores"] + r] = info.scores[seat] / 1000.0
    out[o["scores"] + n] = info.reserve / 162.0
    if info.phase == 0:
        ones.append(o["phase"] + (0 if info.bid_round == 1 else 1))
    elif info.phase == 1:
        ones.append(o["phase"] + 2 + info.step)  # STEPS: exchange, discard, declare, cards
    else:
        ones.append(o["phase"] + 6)
    if info.current_seat >= 0:
        ones.append(o["to_act"] + rel(info.current_seat))
    out[ones] = 1.0
    return out


#: the old names of the two- and three-seat (cutthroat) game's parts, for one release
__getattr__ = renamed_in(__name__, globals(), {
    "SMALL_OBS_VERSION": "CUTTHROAT_OBS_VERSION",
    "SMALL_AUCTION_SLOTS": "CUTTHROAT_AUCTION_SLOTS",
    "SMALL_PHASES": "CUTTHROAT_PHASES",
    "SMALL_OBS_SIZE": "CUTTHROAT_OBS_SIZE",
    "small_offsets": "cutthroat_offsets",
    "small_layout_table": "cutthroat_layout_table",
    "small_obs_size": "cutthroat_obs_size",
    "small_suit_permutation_index": "cutthroat_suit_permutation_index",
    "encode_small": "encode_cutthroat",
    "small_layout": "cutthroat_layout",
})
