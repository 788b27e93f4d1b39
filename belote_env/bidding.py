"""The classic auction: take or pass on the turned card, then name a suit (RULES.md §3).

Pure Python (no numpy).
"""

from __future__ import annotations

from .actions import NAME_CONTRACT, PASS, TAKE
from .cards import ALL_TRUMP, NO_TRUMP, SUITS
from .config import Rules

__all__ = ["classic_legal_bids", "classic_bid_contract"]


def classic_legal_bids(bid_round: int, turned_suit: int, rules: Rules) -> tuple[int, ...]:
    """Legal bid action ids in the classic auction (RULES.md §3.2-3.3).

    Args:
        bid_round: 1 (take / pass the turned suit) or 2 (name another suit, or pass).
        turned_suit: suit 0..3 of the turned card.
        rules: ``round2_no_trump_all_trump`` adds no-trump and all-trump to round 2.
    Returns:
        ascending action ids.
    """
    if bid_round == 1:
        return (PASS, TAKE)
    bids = [PASS] + [NAME_CONTRACT + s for s in SUITS if s != turned_suit]
    if rules.round2_no_trump_all_trump:
        bids += [NAME_CONTRACT + NO_TRUMP, NAME_CONTRACT + ALL_TRUMP]
    return tuple(bids)


def classic_bid_contract(action: int, turned_suit: int) -> int:
    """Contract kind (0..5) fixed by a taking bid: ``TAKE`` or a name-a-contract id."""
    return turned_suit if action == TAKE else action - NAME_CONTRACT
