"""The classic auction's legal bids and resulting denomination (RULES.md §3).

Kept for its functions' callers: the auction itself is ``auction.ClassicAuction``.

Pure Python (no numpy).
"""

from __future__ import annotations

from .auction import classic_bid_denomination, classic_legal_bids

__all__ = ["classic_legal_bids", "classic_bid_denomination"]
