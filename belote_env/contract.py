"""A deal's contract: who plays it, in what denomination, at what level and multiplier
(RULES.md §3; COINCHE.md for the level and the multiplier).

The **denomination** is the trump mode the cards are played under, an int 0..5: the four
suits (0..3, that suit is trump), ``NO_TRUMP`` (4) and ``ALL_TRUMP`` (5). Every order and
point table of ``cards`` is indexed by it, and the rules, scoring, declarations, inference
and solver take it as their ``denomination`` argument (``-1`` before a contract exists).

The **contract** adds who took it and on what terms: the classic take has no level (the
taker's side must simply make more than the defence, RULES.md §7); a coinche contract has
a level (80..160 or ``CAPOT``) and a multiplier (1, 2 coinched, 4 surcoinched). An
``auction`` (``belote_env.auction``) ends with a ``Contract`` or a void deal.

Pure Python (no numpy).
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import ALL_TRUMP, CONTRACT_NAMES, NO_TRUMP, NUM_CONTRACTS, NUM_SUITS

__all__ = ["Contract", "NO_TRUMP", "ALL_TRUMP", "NUM_DENOMINATIONS", "DENOMINATION_NAMES", "CAPOT",
           "MULTIPLIERS", "NO_DENOMINATION", "GENERALE", "COINCHE_LEVEL"]

#: the six denominations: spades, hearts, diamonds, clubs, no-trump, all-trump
NUM_DENOMINATIONS = NUM_CONTRACTS
DENOMINATION_NAMES = CONTRACT_NAMES
#: the denomination before a contract is fixed (the engine's and ``InfoSet``'s ``-1``)
NO_DENOMINATION = -1
#: a coinche contract's level when it bids every trick (COINCHE.md)
CAPOT = "capot"
#: a coinche contract's level when the bidder alone bids every trick (COINCHE.md §6.8)
GENERALE = "generale"
#: 1 plain, 2 coinched, 3 or 4 surcoinched (COINCHE.md §6.1, ``surcoinche_multiplier``)
MULTIPLIERS = (1, 2, 3, 4)
#: ``COINCHE_LEVEL[multiplier]``: 0 plain, 1 coinched, 2 surcoinched (COINCHE.md §3.3's
#: ``k``); index 0 reads 0 too (the batched engine's multiplier column before a contract)
COINCHE_LEVEL = (0, 0, 1, 2, 2)


@dataclass(frozen=True, slots=True)
class Contract:
    """The contract a deal is played under.

    Attributes:
        taker: the seat that took (its side must make the contract).
        denomination: 0..3 the trump suit, ``NO_TRUMP`` (4) or ``ALL_TRUMP`` (5).
        level: ``None`` for the classic take (no level); a coinche contract's level,
            an int 80..650 by 10, ``CAPOT`` or ``GENERALE``.
        multiplier: 1, 2 (coinched) or 3 / 4 (surcoinched, ``surcoinche_multiplier``);
            always 1 in the classic game.

    Raises:
        ValueError: a field outside those values.
    """

    taker: int
    denomination: int
    level: int | str | None = None
    multiplier: int = 1

    def __post_init__(self) -> None:
        if type(self.taker) is not int or self.taker < 0:
            raise ValueError(f"taker must be a seat (int >= 0), got {self.taker!r}")
        if type(self.denomination) is not int or not 0 <= self.denomination < NUM_DENOMINATIONS:
            raise ValueError(f"denomination must be an int 0..{NUM_DENOMINATIONS - 1}, got {self.denomination!r}")
        lv = self.level
        if not (lv is None or lv == CAPOT or lv == GENERALE or (type(lv) is int and 80 <= lv <= 650 and lv % 10 == 0)):
            raise ValueError(f"level must be None (classic), 80..650 by 10, {CAPOT!r} or {GENERALE!r}, got {lv!r}")
        if self.multiplier not in MULTIPLIERS or type(self.multiplier) is not int:
            raise ValueError(f"multiplier must be one of {MULTIPLIERS}, got {self.multiplier!r}")

    @property
    def trump_suit(self) -> int | None:
        """The trump suit 0..3 of a suit contract, else ``None`` (no-trump, all-trump)."""
        return self.denomination if self.denomination < NUM_SUITS else None

    @property
    def is_no_trump(self) -> bool:
        return self.denomination == NO_TRUMP

    @property
    def is_all_trump(self) -> bool:
        return self.denomination == ALL_TRUMP

    @property
    def name(self) -> str:
        """``"hearts"``, ``"no-trump"``, ..., with the level and ``coinched`` /
        ``surcoinched`` when there are any (``"110 hearts coinched"``)."""
        out = DENOMINATION_NAMES[self.denomination]
        if self.level is not None:
            out = f"{self.level} {out}"
        return out + {1: "", 2: " coinched", 3: " surcoinched", 4: " surcoinched"}[self.multiplier]

    @property
    def coinche_level(self) -> int:
        """0 plain, 1 coinched, 2 surcoinched (COINCHE.md §3.3's ``k``)."""
        return COINCHE_LEVEL[self.multiplier]
