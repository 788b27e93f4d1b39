"""The observation of the two- and three-player games: one seat's ``SmallInfoSet`` -> a flat
float32 vector (TWO_THREE.md §5, RULES.md §11).

The encoder reads only a ``small_game.SmallInfoSet``, so an observation cannot depend on
the other hands, the unused face-down cards, the stock or another seat's discards.
Everything is seat-relative: relative seat ``r = (seat - me) % n`` (``n`` = 2 or 3: 0 me,
1 the seat that plays after me, 2 the seat before me at three seats). There are no fixed
teams: in each deal the maker plays alone against the other seat(s) (TWO_THREE.md §3).

Layout (version ``SMALL_OBS_VERSION``) at ``n`` seats; ``small_layout(n)`` declares the
blocks once, and their offsets, ``small_obs_size`` and this table are derived from it.
Three seats ({SIZE_3} floats, ``SMALL_OBS_SIZE[3]``):

{LAYOUT_3}

Two seats ({SIZE_2} floats, ``SMALL_OBS_SIZE[2]``): the same blocks with 2 relative seats:

{LAYOUT_2}

Card blocks are indexed by card id (``suit*8 + rank``, suits ♠ ♥ ♦ ♣, ranks 7 8 9 10 J Q K
A). Auction slots hold ``(relative seat, kind)``, kinds pass, accept (take the turned
suit), propose a redeal, agree, refuse, name ♠ ♥ ♦ ♣ (TWO_THREE.md §2.3); an auction has
at most ``auction.small_length_bound(rules)`` bids (9 at three seats with every option),
below ``AUCTION_SLOTS`` (10). Values are in [0, 1] except the game scores (/ 1000, above 1
past 1000 points) and the litige reserve (/ 162).

Pure numpy; no engine state is read.
"""

from __future__ import annotations

from .actions import AGREE_REDEAL, NAME_CONTRACT, PASS, PROPOSE_REDEAL, REFUSE_REDEAL, TAKE
from .cards import FULL_DECK, NUM_CARDS, NUM_SUITS, POINTS_BY_ALL_TRUMP_OPTION
from .observation import Block, _offsets, layout_table, rename_blocks
from .rules import trick_winner

import numpy as np

__all__ = ["SMALL_OBS_VERSION", "AUCTION_SLOTS", "SMALL_PHASES", "small_layout", "small_offsets", "small_obs_size",
           "small_layout_table", "encode_small", "SMALL_OBS_SIZE", "small_suit_permutation_index"]

SMALL_OBS_VERSION = 1
#: bids the observation keeps (every legal auction fits: ``auction.small_length_bound``)
AUCTION_SLOTS = 10
#: the auction kinds of a slot after its relative seat
_KINDS = ("pass", "accept", "propose", "agree", "refuse", "name ♠", "name ♥", "name ♦", "name ♣")
_KIND_OF = {PASS: 0, TAKE: 1, PROPOSE_REDEAL: 2, AGREE_REDEAL: 3, REFUSE_REDEAL: 4,
            **{NAME_CONTRACT + s: 5 + s for s in range(NUM_SUITS)}}
#: the ``phase`` block: what the seat to act is deciding (one-hot)
SMALL_PHASES = ("bidding round 1", "bidding round 2", "exchange", "discard", "declare", "cards", "deal over")
_MAX_TRICKS = 10  # 10_each: 10 tricks; 6+3: 9; 24_card: 8
_SUIT_POINTS = POINTS_BY_ALL_TRUMP_OPTION["pagat"]  # the suit contracts' card points (RULES.md §1)


def small_layout(n: int) -> tuple[Block, ...]:
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
        Block("auction", AUCTION_SLOTS * slot,
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
        Block("phase", len(SMALL_PHASES), "the current step: " + ", ".join(SMALL_PHASES)),
        Block("to_act", n, "the seat to act (relative seat; 0 once the deal is over)"),
        Block("legal", 32, "my legal cards now (0 outside card play)", "cards"),
        Block("unseen", 32, "unseen cards: neither in my hand nor gone", "cards"),
        Block("known", 32 * others, "public: cards relative seat r = 1..n-1 is known to hold, at ``known + 32(r-1)`` "
              "(the taken turned card, shown combinations) and has not played", "cards"),
        Block("cannot", 32 * others, "public: cards relative seat r = 1..n-1 is known not to hold (voids shown by "
              "its play), at ``cannot + 32(r-1)``", "cards"),
    )


_LAYOUTS = {n: small_layout(n) for n in (2, 3)}
_OFFSETS = {n: _offsets(lay) for n, lay in _LAYOUTS.items()}
#: the observation's length at 2 and 3 seats
SMALL_OBS_SIZE = {n: sum(b.size for b in lay) for n, lay in _LAYOUTS.items()}


def small_offsets(n: int) -> dict[str, int]:
    """First index of each block at ``n`` seats (2 or 3); ``ValueError`` otherwise."""
    small_layout(n)
    return _OFFSETS[n]


def small_layout_table(n: int) -> str:
    """The layout at ``n`` seats as a reStructuredText table (range, size, content)."""
    return layout_table(_LAYOUTS[n], small_offsets(n))


def small_obs_size(rules) -> int:
    """The observation length (floats) of ``encode_small`` under ``rules``
    (``rules.players`` 2 or 3). Raises ``ValueError`` for any other table size."""
    n = getattr(rules, "players", None)
    if n not in (2, 3):
        raise ValueError(f"small_obs_size needs rules with players 2 or 3 (TWO_THREE.md), got players={n!r}")
    return SMALL_OBS_SIZE[n]


def small_suit_permutation_index(perm, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Index arrays that rename the suits of an ``n``-seat observation (2 or 3): the game is
    the same up to the suits' names (TWO_THREE.md §2: no rule names a suit), so a network
    can be averaged over the 24 renamings.

    Args:
        perm: a permutation of ``(0, 1, 2, 3)``: suit ``s`` becomes suit ``perm[s]``.
        n: the number of seats.
    Returns:
        ``(obs_index, card_index)``, int64 arrays of shapes ``(SMALL_OBS_SIZE[n],)`` and
        ``(32,)``, as ``observation.suit_permutation_index``: every card block, the trump
        and led suit and the auction's "name a suit" kinds move; the rest stays.
    Raises:
        ValueError: ``perm`` is not a permutation of 0..3, or ``n`` is not 2 or 3.
    """
    lay = small_layout(n)
    offsets = _OFFSETS[n]
    return rename_blocks([(b, offsets[b.name]) for b in lay], perm, SMALL_OBS_SIZE[n])


__doc__ = (__doc__.replace("{LAYOUT_3}", small_layout_table(3)).replace("{LAYOUT_2}", small_layout_table(2))
           .replace("{SIZE_3}", str(SMALL_OBS_SIZE[3])).replace("{SIZE_2}", str(SMALL_OBS_SIZE[2])))


def encode_small(info, out: np.ndarray | None = None) -> np.ndarray:
    """Encode one seat's information set of the two- or three-player game (layout in the
    module docstring; TWO_THREE.md §5).

    Args:
        info: the seat's ``small_game.SmallInfoSet`` (``SmallGameState.information_set``).
        out: optional float32 array of shape ``(small_obs_size(info.rules),)`` to fill
            (fully overwritten).
    Returns:
        float32 array of shape ``(small_obs_size(info.rules),)``.
    Raises:
        ValueError: ``info`` is not a two- or three-seat information set (a four-seat
            ``InfoSet`` goes to ``observation.encode_infoset``), ``out`` has the wrong
            shape or dtype, or the auction holds a bid the small games do not have.
    """
    n = getattr(info, "players", None)
    if n not in (2, 3):
        raise ValueError("encode_small encodes a two- or three-seat SmallInfoSet (SmallGameState.information_set); "
                         f"got {type(info).__name__}" + (f" with players={n!r}" if n is not None else ""))
    o = _OFFSETS[n]
    size = SMALL_OBS_SIZE[n]
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
    trump = info.trump
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
    if len(info.auction) > AUCTION_SLOTS:
        raise ValueError(f"an auction of {len(info.auction)} bids does not fit the observation's {AUCTION_SLOTS} slots")
    for i, (seat, action) in enumerate(info.auction):
        kind = _KIND_OF.get(action)
        if kind is None:
            raise ValueError(f"bid {action!r} of seat {seat} is not a bid of the two- or three-player game")
        base = o["auction"] + slot * i
        ones += (base + rel(seat), base + n + kind)
    if trump >= 0:
        ones.append(o["trump"] + trump)
    if info.maker >= 0:
        ones.append(o["maker"] + rel(info.maker))
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
