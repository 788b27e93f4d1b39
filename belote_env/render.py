"""Text rendering of one seat's view of the table (RULES.md §11: only what that seat knows),
at four seats and at two or three (``render_text``, TWO_THREE.md §5).

Pure Python (no numpy).
"""

from __future__ import annotations

from .deprecation import deprecated_names

from .actions import NAME_CONTRACT, PASS, TAKE, action_to_string, bid_denomination, coinche_bid_level, is_coinche_bid
from .cards import (
    CONTRACT_NAMES, NUM_CARDS, NUM_SUITS, RANK_NAMES, SUIT_MASK, SUIT_SYMBOLS, SUITS, card_to_str, cards_of,
)
from .infoset import InfoSet
from .table import SEAT_NAMES, TEAM_OF, other_team, partner_of, seats_from

__all__ = ["render_text", "hand_by_suit", "action_label", "contract_label", "contract_text", "render_play_text",
           "trick_text", "coinche_contract_label", "coinche_bids_text"]


def hand_by_suit(hand: int, legal: tuple[int, ...] = ()) -> str:
    """A hand grouped by suit, one group per suit; legal cards marked with ``*``."""
    groups = []
    for s in SUITS:
        cs = cards_of(hand & SUIT_MASK[s])
        if cs:
            groups.append(" ".join(card_to_str(c) + ("*" if c in legal else "") for c in cs))
    return "  |  ".join(groups) if groups else "(empty)"


def render_text(info: InfoSet) -> str:
    """A readable multi-line table from ``info.seat``'s point of view: contract, bids,
    the trick in progress, the seat's hand (legal cards starred), points and scores; at
    two and three seats the per-seat table (TWO_THREE.md §5)."""
    from .games import game_of

    if not game_of(info.rules).has_partners:
        return _per_seat_text(info)
    me = info.seat
    us, them = TEAM_OF[me], other_team(TEAM_OF[me])
    lines = [f"You: seat {me} ({SEAT_NAMES[me]}), dealer seat {info.dealer}, "
             f"game scores us {info.scores[us]} - them {info.scores[them]}"]
    if info.denomination >= 0 and info.turned_card < 0:  # coinche: the contract with its level (COINCHE.md)
        lines.append(f"Contract: {info.contract.name}, bid by seat {info.taker} ({SEAT_NAMES[info.taker]})")
    elif info.denomination >= 0:
        lines.append(f"Contract: {CONTRACT_NAMES[info.denomination]}, taken by seat {info.taker} "
                     f"({SEAT_NAMES[info.taker]}); turned card {card_to_str(info.turned_card)}")
    elif info.turned_card < 0:
        lines.append("Auction (coinche)")
    else:
        lines.append(f"Turned card: {card_to_str(info.turned_card)} (bidding round {info.bid_round})")
    if info.auction:
        lines.append("Bids: " + ", ".join(f"{s}:{action_to_string(a)}" for s, a in info.auction))
    if info.denomination >= 0:
        lines.append(f"Tricks played: {len(info.tricks)}; card points us {info.card_points[us]}"
                     f" - them {info.card_points[them]}")
        lines.append(f"Trick: {trick_text(info.trick_leader, info.trick) or '(empty)'}")
    for seat, kind, c in info.announcements:
        lines.append(f"Seat {seat} announced {kind} ({card_to_str(c)})")
    lines.append(f"Your hand: {hand_by_suit(info.hand, info.legal_actions)}")
    if info.legal_actions:
        lines.append("Legal: " + ", ".join(f"{a}={action_to_string(a)}" for a in info.legal_actions))
    elif info.current_seat >= 0:
        lines.append(f"Waiting for seat {info.current_seat}")
    return "\n".join(lines)


def render_rgb(info: InfoSet, width: int = 720, height: int = 400):
    """A picture of ``render_text(info)`` on a green table: uint8 array ``(height, width, 3)``.

    Needs Pillow (imported here, not at module import).
    """
    import numpy as np
    from PIL import Image, ImageDraw

    img = Image.new("RGB", (width, height), (20, 100, 50))
    draw = ImageDraw.Draw(img)
    y = 10
    for line in render_text(info).splitlines():
        # the default bitmap font has no suit symbols: use letters
        line = line.translate(str.maketrans({"♠": "s", "♥": "h", "♦": "d", "♣": "c"}))
        while line:
            draw.text((10, y), line[:110], fill=(255, 255, 255))
            line = line[110:]
            y += 14
    return np.asarray(img, dtype=np.uint8)


def render_view(info: InfoSet, mode: str):
    """``info`` rendered per ``mode``: ``"ansi"`` returns the text, ``"human"`` prints it
    (returns None), ``"rgb_array"`` returns the picture. ``info`` is an ``InfoSet`` of any table."""
    if mode == "rgb_array":
        return render_rgb(info)
    text = render_text(info)
    if mode == "human":
        print(text + "\n")
        return None
    return text


def contract_label(contract: int) -> str:
    """A contract as a player says it: ``"♠ trump"`` .. ``"♣ trump"``, ``"no-trump"``, ``"all-trump"``."""
    return f"{SUIT_SYMBOLS[contract]} trump" if 0 <= contract < NUM_SUITS else CONTRACT_NAMES[contract]


def coinche_contract_label(contract) -> str:
    """A coinche contract as a player says it: ``"100 ♥ trump"``, ``"capot no-trump,
    coinched"`` (COINCHE.md §3)."""
    out = f"{contract.level} {contract_label(contract.denomination)}"
    return out + {1: "", 2: ", coinched", 3: ", surcoinched", 4: ", surcoinched"}[contract.multiplier]


def contract_text(contract) -> str:
    """A ``contract.Contract`` as a player says it, whatever the game: with its level and
    coinche where the auction bids one (``coinche_contract_label``: ``"110 ♥ trump,
    coinched"``, COINCHE.md §3), by its trump alone for a take (``"♥ trump"``, RULES.md
    §3; TWO_THREE.md §2.3)."""
    return contract_label(contract.denomination) if contract.level is None else coinche_contract_label(contract)


def coinche_bids_text(rules) -> str:
    """What a coinche auction under ``rules`` offers, in words: ``"bids 80..160 or capot,
    coinche, surcoinche"`` under the defaults (COINCHE.md §3.1, §3.5, §6.8)."""
    levels = f"bids 80..{rules.max_numeric_bid}"
    tops = [name for name, on in (("capot", rules.capot_bid), ("générale", rules.generale)) if on]
    if tops:
        levels += " or " + " or ".join(tops)
    if rules.coinche_denominations == "suits_sa_ta":
        levels += " (suits, no-trump, all-trump)"
    return levels + ", coinche" + (", surcoinche" if rules.surcoinche_allowed else "")


def action_label(action: int, turned_card: int | None = None) -> str:
    """An action as a player reads it, never a raw id: a card ``"8♦"``, ``"pass"``,
    ``"take"`` (``"take (♦ trump)"`` when the turned card is given), a named contract
    ``"♠ trump"`` / ``"no-trump"`` / ``"all-trump"``; any other action by its name
    (``"announce belote"``, ``"declare"``, ...)."""
    if 0 <= action < NUM_CARDS:
        return card_to_str(action)
    if action == PASS:
        return "pass"
    if action == TAKE:
        return "take" if turned_card is None else f"take ({contract_label(turned_card >> 3)})"
    if NAME_CONTRACT <= action < NAME_CONTRACT + len(CONTRACT_NAMES):
        return contract_label(action - NAME_CONTRACT)
    if is_coinche_bid(action):
        return f"{coinche_bid_level(action)} {contract_label(bid_denomination(action, -1))}"
    return action_to_string(action)


def trick_text(leader: int, cards) -> str:
    """``"West 7♠, North A♠, ..."``: the cards of a trick led by ``leader``, in play order."""
    return ", ".join(f"{SEAT_NAMES[seat]} {card_to_str(c)}" for seat, c in zip(seats_from(leader), cards))


def render_play_text(info: InfoSet) -> str:
    """The table as the person at ``info.seat`` reads it in ``belote play``: like
    ``render_text`` but every bid and action in words (``"take"``, ``"♠ trump"``), the
    last finished trick shown, and no legal-action ids (the caller lists the choices); at
    two and three seats the per-seat table without its ids (TWO_THREE.md §5).
    Only ``info`` is read, so nothing depends on other seats' cards (RULES.md §11)."""
    from .games import game_of

    if not game_of(info.rules).has_partners:
        return "\n".join(line for line in _per_seat_text(info).splitlines() if not line.startswith("Legal: "))
    me = info.seat
    us, them = TEAM_OF[me], other_team(TEAM_OF[me])
    lines = [f"You: {SEAT_NAMES[me]} (seat {me}), partner {SEAT_NAMES[partner_of(me)]}; dealer {SEAT_NAMES[info.dealer]}; "
             f"game score us {info.scores[us]} - them {info.scores[them]}"]
    if info.denomination >= 0 and info.turned_card < 0:  # coinche (COINCHE.md)
        lines.append(f"Contract: {coinche_contract_label(info.contract)}, bid by {SEAT_NAMES[info.taker]}")
    elif info.denomination >= 0:
        lines.append(f"Contract: {contract_label(info.denomination)}, taken by {SEAT_NAMES[info.taker]}; "
                     f"turned card {card_to_str(info.turned_card)}")
    elif info.turned_card < 0:
        lines.append(f"Auction (coinche): {coinche_bids_text(info.rules)}")
    else:
        lines.append(f"Turned card: {card_to_str(info.turned_card)} (bidding round {info.bid_round})")
    if info.auction:
        lines.append("Bids: " + ", ".join(f"{SEAT_NAMES[s]} {action_label(a, info.turned_card)}"
                                          for s, a in info.auction))
    if info.denomination >= 0:
        lines.append(f"Tricks played: {len(info.tricks)}; card points us {info.card_points[us]} - them "
                     f"{info.card_points[them]}")
        if info.tricks:
            leader, cards, winner = info.tricks[-1]
            lines.append(f"Last trick: {trick_text(leader, cards)} (won by {SEAT_NAMES[winner]})")
        lines.append(f"Trick: {trick_text(info.trick_leader, info.trick) or '(empty)'}")
    for seat, decls in enumerate(info.declared):
        for d in decls:
            lines.append(f"{SEAT_NAMES[seat]} declared {d.kind} {' '.join(map(card_to_str, cards_of(d.cards)))} "
                         f"({d.points})")
    for seat, kind, c in info.announcements:
        lines.append(f"{SEAT_NAMES[seat]} announced {kind} ({card_to_str(c)})")
    lines.append(f"Your hand: {hand_by_suit(info.hand, info.legal_actions)}")
    if not info.legal_actions and info.current_seat >= 0:
        lines.append(f"Waiting for {SEAT_NAMES[info.current_seat]}")
    return "\n".join(lines)


_PER_SEAT_STEPS = ("exchange of the seven of trumps", "discard", "declarations", "card play")


def _per_seat_text(info) -> str:
    """A readable multi-line table from ``info.seat``'s point of view at a two- or
    three-seat table (``InfoSet``, TWO_THREE.md §5): the turned and bottom
    cards, the bids, the maker and trump, the exchange, announced combinations, belote
    claims, the trick in progress and the last one, per-seat points and scores, the seat's
    hand (legal cards starred) and legal ids. Reads only ``info``: never another seat's
    hand, the unused cards or another seat's discards.

    Raises:
        ValueError: ``info`` is not a two- or three-seat information set.
    """
    from .table import table_of

    n = getattr(info, "players", None)
    if n not in (2, 3):
        raise ValueError(f"render_text's per-seat table renders a two- or three-seat InfoSet, got {type(info).__name__} "
                         f"of {n} seats")
    names = table_of(n).names
    me = info.seat

    def who(seat: int) -> str:
        return f"{names[seat]} (seat {seat})" + (" [you]" if seat == me else "")

    lines = [f"You: {who(me)} of {n}; dealer {who(info.dealer)}; game scores "
             + ", ".join(f"{names[s]} {info.scores[s]}" for s in range(n))
             + (f"; reserve {info.reserve}" if info.reserve else "")]
    turned = card_to_str(info.turned_card) if info.turned_card >= 0 else "-"
    if info.taker >= 0:
        lines.append(f"Contract: {contract_text(info.contract)}, maker {who(info.taker)}; turned card {turned}")
    else:
        lines.append(f"Turned card: {turned} (bidding round {info.bid_round})")
    if info.bottom_card >= 0:
        lines.append(f"Bottom card: {card_to_str(info.bottom_card)}")
    if info.auction:
        lines.append("Bids: " + ", ".join(f"{names[s]} {action_label(a, info.turned_card)}" for s, a in info.auction))
    if info.exchanged >= 0:
        lines.append(f"{who(info.exchanged)} exchanged the seven of trumps for {turned}")
    for seat, (value, top, trump) in enumerate(info.declared):
        if value:
            lines.append(f"{who(seat)} announced {value}" + (f" (top {RANK_NAMES[top]}{', trump' if trump else ''})"
                                                              if top >= 0 else ""))
    if info.decl_winner >= 0:
        shown = " ".join(map(card_to_str, cards_of(info.decl_cards)))
        lines.append(f"Combinations scored by {who(info.decl_winner)}: {shown}")
    for seat, kind, c in info.announcements:
        lines.append(f"{who(seat)} claimed {kind} ({card_to_str(c)})")
    if info.taker >= 0:
        lines.append(f"Tricks played: {len(info.tricks)}; card points "
                     + ", ".join(f"{names[s]} {info.card_points[s]}" for s in range(n)))
        if info.tricks:
            leader, cards, winner = info.tricks[-1]
            lines.append(f"Last trick: {_per_seat_trick(leader, cards, names)} (won by {names[winner]})")
        lines.append(f"Trick: {_per_seat_trick(info.trick_leader, info.trick, names) or '(empty)'}")
    if info.phase == 1 and info.step >= 0:
        lines.append(f"Step: {_PER_SEAT_STEPS[info.step]}")
    if info.discarded:
        lines.append(f"Your discards: {' '.join(map(card_to_str, cards_of(info.discarded)))}")
    lines.append(f"Your hand: {hand_by_suit(info.hand, info.legal_actions)}")
    if info.legal_actions:
        lines.append("Legal: " + ", ".join(f"{a}={action_label(a, info.turned_card)}" for a in info.legal_actions))
    elif info.current_seat >= 0:
        lines.append(f"Waiting for {who(info.current_seat)}")
    return "\n".join(lines)


def _per_seat_trick(leader: int, cards, names) -> str:
    n = len(names)
    return ", ".join(f"{names[(leader + i) % n]} {card_to_str(c)}" for i, c in enumerate(cards))


def _old_render_text(info) -> str:
    """``render_text`` (every table); raises ``ValueError`` for a four-seat set, as before."""
    return _per_seat_text(info)


__getattr__ = deprecated_names(__name__, {"render_small_text": ("belote_env.render.render_text (every table)",
                                                                lambda: _old_render_text)})
