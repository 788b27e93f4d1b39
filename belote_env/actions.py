"""The single flat action-id table shared by every phase and every variant.

The table is fixed forever (``ACTION_TABLE_VERSION``): a saved model's output ``i`` always
means the same action. Ids that a rule set does not use are simply never legal.

======== ===== =====================================================================
ids      count meaning
======== ===== =====================================================================
0..31    32    play card ``id`` (``card = suit*8 + rank``, see ``cards.py``)
32       1     pass (bidding)
33       1     take the turned card's suit as trump (classic round 1)
34..39   6     name a contract (classic round 2): spades, hearts, diamonds, clubs,
               no-trump, all-trump (``34 + contract``)
40..99   60    coinche bid: level ``80, 90, ..., 160, capot`` (10 levels) x contract
               (6 kinds): id ``40 + level_index*6 + contract``
100      1     coinche (double)
101      1     surcoinche (redouble)
102      1     declare (announce one's declarations, RULES.md §6, ``choice`` mode)
103      1     decline to declare
104      1     announce belote (RULES.md §5, ``optional`` mode)
105      1     decline belote
106      1     propose a redeal (two-player bidding, RULES.md §10)
107      1     exchange the 7 of trump for the turned card (two-player, RULES.md §10)
108      1     keep (decline the exchange)
109..111 3     answer a declaration: enough / not enough / equal (two-player §10)
======== ===== =====================================================================

Extended ids, appended after the table (legal only under coinche rules that need them;
``num_actions(rules)`` is 112 otherwise, so every other rule set keeps ``NUM_ACTIONS``):

======== ===== =====================================================================
112..117 6     générale bid (COINCHE.md §6.8, ``generale: true``): ``112 + contract``
118..411 294   coinche bid above 160 (``max_numeric_bid`` > 160, COINCHE.md §3.5):
               level ``170, 180, ..., 650`` (49 levels) x contract: id
               ``118 + (level - 170) // 10 * 6 + contract``
======== ===== =====================================================================

Ids of the two- and three-player games (TWO_THREE.md §2.3; ``num_actions(rules)`` is
``PROPOSAL_NUM_ACTIONS`` (414) at two and three seats, whose bids are pass (32), accept the
turned suit (``TAKE``, 33), name a suit (34..37), propose a redeal (106) and these):

======== ===== =====================================================================
412      1     agree to a proposed redeal
413      1     refuse a proposed redeal (the proposer then plays)
======== ===== =====================================================================

Pure Python (no numpy).
"""

from __future__ import annotations

from .cards import CONTRACT_NAMES, NUM_CARDS, card_to_str
from .deprecation import renamed_in

__all__ = [
    "ACTION_TABLE_VERSION", "NUM_ACTIONS", "PASS", "TAKE", "NAME_CONTRACT", "COINCHE_BID",
    "COINCHE_LEVELS", "COINCHE", "SURCOINCHE", "DECLARE", "DECLINE_DECLARE", "ANNOUNCE_BELOTE",
    "DECLINE_BELOTE", "PROPOSE_REDEAL", "EXCHANGE_SEVEN", "KEEP", "ANSWER_ENOUGH",
    "ANSWER_NOT_ENOUGH", "ANSWER_EQUAL", "action_to_string", "is_card", "name_contract_action",
    "coinche_bid_action", "CLASSIC_BIDS", "is_bid", "bid_denomination", "GENERALE_BID", "HIGH_BID", "HIGH_LEVELS",
    "EXTENDED_NUM_ACTIONS", "GENERALE", "num_actions", "coinche_bid_level", "is_coinche_bid",
    "AGREE_REDEAL", "REFUSE_REDEAL", "PROPOSAL_NUM_ACTIONS", "PROPOSAL_BIDS", "is_name_suit", "of_auction",
]

ACTION_TABLE_VERSION = 1

PASS = 32
TAKE = 33
NAME_CONTRACT = 34  # + contract kind 0..5
COINCHE_BID = 40  # + level_index * 6 + contract kind
COINCHE_LEVELS = (80, 90, 100, 110, 120, 130, 140, 150, 160, "capot")
COINCHE = 100
SURCOINCHE = 101
DECLARE = 102
DECLINE_DECLARE = 103
ANNOUNCE_BELOTE = 104
DECLINE_BELOTE = 105
PROPOSE_REDEAL = 106
EXCHANGE_SEVEN = 107
KEEP = 108
ANSWER_ENOUGH = 109
ANSWER_NOT_ENOUGH = 110
ANSWER_EQUAL = 111
NUM_ACTIONS = 112
GENERALE_BID = 112  # + contract kind 0..5
HIGH_BID = 118  # + (level - 170) // 10 * 6 + contract kind
HIGH_LEVELS = tuple(range(170, 651, 10))
#: every action id including the extended coinche ids
EXTENDED_NUM_ACTIONS = HIGH_BID + len(HIGH_LEVELS) * 6
GENERALE = "generale"
#: the answers to a redeal proposal (two- and three-player games, TWO_THREE.md §2.3)
AGREE_REDEAL = EXTENDED_NUM_ACTIONS
REFUSE_REDEAL = EXTENDED_NUM_ACTIONS + 1
#: every action id of the two- and three-player games (the table up to ``REFUSE_REDEAL``)
PROPOSAL_NUM_ACTIONS = REFUSE_REDEAL + 1

assert COINCHE_BID + len(COINCHE_LEVELS) * 6 == COINCHE

#: the contract bids of the two- and three-player auction, ascending: pass, accept the
#: turned suit (``TAKE``), name spades .. clubs (32..37; TWO_THREE.md §2.3)
PROPOSAL_BIDS = range(PASS, NAME_CONTRACT + 4)


def is_name_suit(action: int) -> bool:
    """True for a bid naming a suit as trump (ids 34..37: classic round 2, two- and
    three-player round 2)."""
    return NAME_CONTRACT <= action < NAME_CONTRACT + 4


#: the classic auction's bid ids, ascending: pass, take, name spades .. all-trump (32..39;
#: also the outputs a bid-value network values, ``policies.network.BID_ACTIONS``)
CLASSIC_BIDS = range(PASS, COINCHE_BID)

_FIXED_NAMES = {
    PASS: "pass", TAKE: "take", COINCHE: "coinche", SURCOINCHE: "surcoinche",
    DECLARE: "declare", DECLINE_DECLARE: "decline declaration",
    ANNOUNCE_BELOTE: "announce belote", DECLINE_BELOTE: "decline belote",
    PROPOSE_REDEAL: "propose redeal", EXCHANGE_SEVEN: "exchange 7 of trump", KEEP: "keep",
    ANSWER_ENOUGH: "enough", ANSWER_NOT_ENOUGH: "not enough", ANSWER_EQUAL: "equal",
    AGREE_REDEAL: "agree redeal", REFUSE_REDEAL: "refuse redeal",
}


def is_card(action: int) -> bool:
    """True for the card ids 0..31."""
    return 0 <= action < NUM_CARDS


def is_bid(action: int) -> bool:
    """True for an auction action: pass, take, name a contract, a coinche bid, coinche,
    surcoinche (ids 32..101), a générale or a coinche bid above 160 (112..411), a redeal
    proposal or its answer (106, 412, 413)."""
    return (PASS <= action <= SURCOINCHE or GENERALE_BID <= action < EXTENDED_NUM_ACTIONS
            or action in (PROPOSE_REDEAL, AGREE_REDEAL, REFUSE_REDEAL))


def is_coinche_bid(action: int) -> bool:
    """True for a coinche contract bid: a level and a denomination (40..99, 112..411)."""
    return COINCHE_BID <= action < COINCHE or GENERALE_BID <= action < EXTENDED_NUM_ACTIONS


def coinche_bid_level(action: int) -> int | str:
    """The level of a coinche contract bid: an int 80..650, ``"capot"`` or ``"generale"``.
    Raises ``ValueError`` for an id that is no coinche contract bid."""
    if COINCHE_BID <= action < COINCHE:
        return COINCHE_LEVELS[(action - COINCHE_BID) // 6]
    if GENERALE_BID <= action < HIGH_BID:
        return GENERALE
    if HIGH_BID <= action < EXTENDED_NUM_ACTIONS:
        return HIGH_LEVELS[(action - HIGH_BID) // 6]
    raise ValueError(f"action {action!r} is not a coinche contract bid (ids 40..99, 112..411)")


def num_actions(rules) -> int:
    """Size of the action space ``rules`` play (``games.Game.num_actions``): ``NUM_ACTIONS``
    (112; also for ``rules=None``), or ``EXTENDED_NUM_ACTIONS`` (412) for coinche rules with
    a générale or bids above 160, or ``PROPOSAL_NUM_ACTIONS`` (414) at two and three seats
    (TWO_THREE.md)."""
    if rules is None:
        return NUM_ACTIONS
    from .games import game_of

    return game_of(rules).num_actions


def bid_denomination(action: int, turned_suit: int) -> int | None:
    """The denomination 0..5 a bid would fix: the turned suit for ``TAKE``, the one named
    by a name-a-contract id or a coinche bid; ``None`` for any other id (pass, coinche,
    cards, ...)."""
    if action == TAKE:
        return turned_suit
    if NAME_CONTRACT <= action < COINCHE_BID:
        return action - NAME_CONTRACT
    if COINCHE_BID <= action < COINCHE:
        return (action - COINCHE_BID) % 6
    if GENERALE_BID <= action < EXTENDED_NUM_ACTIONS:
        return (action - GENERALE_BID) % 6
    return None


def name_contract_action(contract: int) -> int:
    """Action id naming contract kind ``contract`` (0..5) in classic round 2."""
    if not 0 <= contract < 6:
        raise ValueError(f"contract kind must be 0..5, got {contract!r}")
    return NAME_CONTRACT + contract


def coinche_bid_action(level: int | str, contract: int) -> int:
    """Action id of a coinche bid (``level`` 80..650 by 10, ``"capot"`` or ``"generale"``)."""
    if not 0 <= contract < 6:
        raise ValueError(f"contract kind must be 0..5, got {contract!r}")
    if level == GENERALE:
        return GENERALE_BID + contract
    if level in HIGH_LEVELS and type(level) is int:
        return HIGH_BID + (level - 170) // 10 * 6 + contract
    if level not in COINCHE_LEVELS:
        raise ValueError(f"coinche level must be 80..650 by 10, 'capot' or 'generale', got {level!r}")
    return COINCHE_BID + COINCHE_LEVELS.index(level) * 6 + contract


def action_to_string(action: int) -> str:
    """Human-readable name of any action id, e.g. ``"J♠"``, ``"take"``, ``"name hearts"``,
    ``"bid 90 no-trump"``. Raises ``ValueError`` for an id outside the ids of every game,
    ``0..PROPOSAL_NUM_ACTIONS-1`` (a game's own range: ``Game.num_actions``).
    """
    if isinstance(action, bool) or not hasattr(action, "__index__"):
        raise ValueError(f"action id must be an int in 0..{PROPOSAL_NUM_ACTIONS - 1}, got {action!r:.40}")
    action = action.__index__()  # numpy integers
    if not 0 <= action < PROPOSAL_NUM_ACTIONS:
        raise ValueError(f"action id must be an int in 0..{PROPOSAL_NUM_ACTIONS - 1}, got {action!r}")
    if action >= AGREE_REDEAL:
        return _FIXED_NAMES[action]
    if GENERALE_BID <= action:
        return f"bid {coinche_bid_level(action)} {CONTRACT_NAMES[(action - GENERALE_BID) % 6]}"
    if action < NUM_CARDS:
        return card_to_str(action)
    if NAME_CONTRACT <= action < COINCHE_BID:
        return "name " + CONTRACT_NAMES[action - NAME_CONTRACT]
    if COINCHE_BID <= action < COINCHE:
        level, contract = divmod(action - COINCHE_BID, 6)
        return f"bid {COINCHE_LEVELS[level]} {CONTRACT_NAMES[contract]}"
    return _FIXED_NAMES[action]


def of_auction(action: int, auction_kind: str) -> bool:
    """Whether id ``action`` (an int in a game's range) is an action of a game of
    ``auction_kind`` (``games.Game.auction_kind``: the auctions of RULES.md §3, COINCHE.md §3,
    TWO_THREE.md §2.3): ``False`` for the ids of another game's auction (a coinche
    bid at two seats, a take in coinche) and of the two- and three-seat steps at four seats
    (a redeal proposal, the seven's exchange, the answers), which no deal of that game makes
    legal; its error texts say so rather than name them. A few step ids that some games never
    use are not told apart (decline belote, 105, declining being to play the card; decline
    declaration at four seats; the answers at three seats): they read "not legal now"."""
    if auction_kind == "coinche":
        return not (TAKE <= action < COINCHE_BID or PROPOSE_REDEAL <= action <= ANSWER_EQUAL)
    if auction_kind == "classic":
        return not (COINCHE_BID <= action <= SURCOINCHE or PROPOSE_REDEAL <= action <= ANSWER_EQUAL)
    # the proposals of two and three seats: pass, take, name a suit, the redeal and the steps
    return not (NAME_CONTRACT + 4 <= action <= SURCOINCHE or GENERALE_BID <= action < AGREE_REDEAL)


#: the old names of the two- and three-seat (cutthroat) game's parts, for one release
__getattr__ = renamed_in(__name__, globals(), {
    "SMALL_NUM_ACTIONS": "PROPOSAL_NUM_ACTIONS",
    "SMALL_BIDS": "PROPOSAL_BIDS",
})
