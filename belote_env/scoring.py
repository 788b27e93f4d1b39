"""Scoring a deal: dix de der, capot, made / dedans, litige (RULES.md §7).

Teams are ``0`` (seats 0 and 2) and ``1`` (seats 1 and 3). All values are points (int).

Pure Python (no numpy).
"""

from __future__ import annotations

from dataclasses import dataclass

from .config import Rules
from .table import other_team

__all__ = ["DealScore", "score_deal", "DIX_DE_DER", "CAPOT_POINTS", "TOTAL_POINTS", "BELOTE_POINTS"]

DIX_DE_DER = 10
TOTAL_POINTS = 162  # 152 card points + dix de der, every contract kind
CAPOT_POINTS = 252  # 162 + 90
BELOTE_POINTS = 20


@dataclass(frozen=True)
class DealScore:
    """The score of one played deal (RULES.md §7).

    Attributes:
        outcome: ``"made"``, ``"dedans"`` or ``"litige"`` (the contract's fate; a tie
            scored under ``tie="takers_made"`` / ``"takers_fail"`` reads made / dedans,
            under ``"defenders_keep"`` it reads ``"litige"``).
        taker_team: 0 or 1.
        trick_points: (team 0, team 1) card points + dix de der, 252/0 on capot.
        belote: (team 0, team 1) belote-rebelote points held.
        declarations: (team 0, team 1) declaration points that count (§6).
        capot: the team that won all 8 tricks, or ``None``.
        points: (team 0, team 1) points added to the game scores by this deal,
            including a reserve won (``reserve_won``).
        reserve_in: litige reserve pending before this deal.
        reserve_won: (team 0, team 1) the part of ``points`` that is the reserve.
        reserve_out: litige reserve pending after this deal.
    """

    outcome: str
    taker_team: int
    trick_points: tuple[int, int]
    belote: tuple[int, int]
    declarations: tuple[int, int]
    capot: int | None
    points: tuple[int, int]
    reserve_in: int
    reserve_won: tuple[int, int]
    reserve_out: int

    def difference(self, team: int) -> int:
        """``points[team] - points[1 - team]``: the deal's point difference for ``team``."""
        return self.points[team] - self.points[other_team(team)]


def score_deal(
    taker_team: int,
    card_points: tuple[int, int],
    tricks_won: tuple[int, int],
    last_trick_team: int,
    belote: tuple[int, int] = (0, 0),
    declarations: tuple[int, int] = (0, 0),
    rules: Rules | None = None,
    reserve_in: int = 0,
) -> DealScore:
    """Score a played deal (RULES.md §7).

    Args:
        taker_team: team (0/1) of the taker.
        card_points: (team 0, team 1) card points of the tricks won, without dix de der;
            they sum to 152.
        tricks_won: (team 0, team 1) number of tricks won; they sum to 8.
        last_trick_team: team that won the 8th trick (gets the dix de der).
        belote: belote-rebelote points per team (20 each pair, RULES.md §5).
        declarations: declaration points per team that count (already filtered to the
            team holding the strongest declaration, RULES.md §6).
        rules: rule options (``contract_counts_bonuses``: what counts besides trick points
            in the comparison, ``tie``); default ``Rules()``.
        reserve_in: pending litige reserve (points) from earlier tied deals.
    Returns:
        a ``DealScore``.
    Raises:
        ValueError: if the card points do not sum to 152 or the tricks to 8.
    """
    rules = rules or Rules()
    if card_points[0] + card_points[1] != 152 or tricks_won[0] + tricks_won[1] != 8:
        raise ValueError(f"card points must sum to 152 and tricks to 8, got {card_points}, {tricks_won}")
    defender_team = other_team(taker_team)
    capot = 0 if tricks_won[0] == 8 else 1 if tricks_won[1] == 8 else None
    if capot is None:
        tp = [card_points[0], card_points[1]]
        tp[last_trick_team] += 10
    else:
        tp = [0, 0]
        tp[capot] = CAPOT_POINTS
    counts = rules.contract_counts_bonuses  # True: belote and declarations; False: neither
    total = [tp[t] + (belote[t] if counts is True else 0) + (declarations[t] if counts else 0) for t in (0, 1)]
    taker_total, defender_total = total[taker_team], total[defender_team]
    if taker_total > defender_total:
        fate = "made"
    elif taker_total < defender_total:
        fate = "dedans"
    else:
        fate = {"litige": "litige", "takers_made": "made", "takers_fail": "dedans",
                "defenders_keep": "defenders_keep"}[rules.tie]
    points = [0, 0]
    reserve_won = [0, 0]
    reserve_out = 0
    if fate == "made":
        points = [tp[t] + belote[t] + declarations[t] for t in (0, 1)]
        reserve_won[taker_team] = reserve_in
    elif fate == "dedans":
        points[defender_team] = (CAPOT_POINTS if capot == defender_team else 162) + declarations[0] + declarations[1]
        points[defender_team] += belote[defender_team]
        points[taker_team] = belote[taker_team]
        reserve_won[defender_team] = reserve_in
    else:  # tie kept as litige (reserve) or defenders_keep (takers' points are lost)
        points[defender_team] = tp[defender_team] + belote[defender_team] + declarations[defender_team]
        points[taker_team] = belote[taker_team]
        reserve_out = reserve_in + (tp[taker_team] + declarations[taker_team] if fate == "litige" else 0)
        if fate == "defenders_keep":
            reserve_out = reserve_in  # pending reserve waits for a deal that is won
    points = [points[t] + reserve_won[t] for t in (0, 1)]
    return DealScore(
        outcome="litige" if fate in ("litige", "defenders_keep") else fate,
        taker_team=taker_team,
        trick_points=(tp[0], tp[1]),
        belote=(belote[0], belote[1]),
        declarations=(declarations[0], declarations[1]),
        capot=capot,
        points=(points[0], points[1]),
        reserve_in=reserve_in,
        reserve_won=(reserve_won[0], reserve_won[1]),
        reserve_out=reserve_out,
    )
