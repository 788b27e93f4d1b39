"""Scoring a deal: dix de der, capot, made / dedans, litige (RULES.md §7), and the
belote and declaration points that go into it (§5, §6).

Teams are ``0`` (seats 0 and 2) and ``1`` (seats 1 and 3). All values are points (int).

* ``score_deal``: a played deal's score from its card points, tricks, belote and
  declarations.
* ``team_belote_points`` / ``team_declaration_points``: the belote and declaration points
  per team, from the cards each seat held and the announcements and declarations made;
  the engine scores every deal with them.
* ``belote_points`` / ``declaration_points`` / ``deal_difference``: the same for a deal of
  the hidden cards drawn from an information set (the expert's search and the oracle
  labels): pairs and declarations not yet shown count as announced, and a number of card
  points for the takers (a solver's value) becomes the deal's point difference.

Pure Python (no numpy).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

from .cards import ALL_TRUMP, NO_TRUMP, NUM_CONTRACTS, SUITS, Rank, card
from .config import Rules
from .declarations import Declaration, best_declarations, declaration_winner
from .table import SEATS, TEAM_OF, other_team, team_seats

if TYPE_CHECKING:
    from .infoset import InfoSet

__all__ = ["DealScore", "score_deal", "DIX_DE_DER", "CAPOT_POINTS", "TOTAL_POINTS", "BELOTE_POINTS",
           "team_belote_points", "team_declaration_points", "belote_points", "declaration_points",
           "deal_difference"]

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


def _pair(suit: int) -> tuple[int, int, int]:
    king, queen = card(Rank.KING, suit), card(Rank.QUEEN, suit)
    return king, queen, (1 << king) | (1 << queen)


#: per contract kind, the belote pairs (king, queen, mask): the trump suit's, every suit's
#: at all-trump, none at no-trump (RULES.md §5)
_BELOTE_PAIRS = tuple(() if k == NO_TRUMP else tuple(_pair(s) for s in SUITS) if k == ALL_TRUMP else (_pair(k),)
                      for k in range(NUM_CONTRACTS))


def team_belote_points(denomination: int, rules: Rules, held: Sequence[int], played_by: Sequence[int],
                       announcements: Sequence[tuple[int, str, int]]) -> list[int]:
    """Belote points per team (RULES.md §5): ``BELOTE_POINTS`` for each K+Q of trump (every
    suit at all-trump, none at no-trump) one seat held over the deal, unless, with
    ``belote="optional"``, its first card went without the announcement; a pair none of
    whose cards is played yet counts (assumed announced).

    Args:
        denomination: the denomination 0..5.
        rules: rule options (``belote``).
        held: per seat 0..3, mask of the cards it held over the deal (hand + played).
        played_by: per seat 0..3, mask of the cards it played.
        announcements: ``(seat, "belote" | "rebelote", card)`` made so far.
    Returns:
        ``[team 0, team 1]`` points.
    """
    out = [0, 0]
    auto = rules.belote == "auto"
    for king, queen, pair in _BELOTE_PAIRS[denomination]:
        for seat in SEATS:
            if held[seat] & pair == pair and (
                    auto or not played_by[seat] & pair
                    or any(a[0] == seat and a[1] == "belote" and a[2] in (king, queen) for a in announcements)):
                out[TEAM_OF[seat]] += BELOTE_POINTS
    return out


def team_declaration_points(declared: Sequence[Sequence[Declaration]], denomination: int, eldest: int, rules: Rules,
                            taker: int | None) -> list[int]:
    """Declaration points per team that score (RULES.md §6): every declaration of the
    team holding the strongest one (``declarations.declaration_winner``, ties per
    ``rules.declaration_tie``), none with ``declarations="off"``.

    Args:
        declared: per seat 0..3, the declarations it made.
        denomination: the denomination 0..5.
        eldest: the seat after the dealer.
        rules: rule options (``declarations``, ``declaration_tie``).
        taker: the taker's seat (needed by ``declaration_tie="taker_first"``).
    Returns:
        ``[team 0, team 1]`` points.
    """
    out = [0, 0]
    if rules.declarations == "off":
        return out
    team = declaration_winner(declared, denomination, eldest, rules.declaration_tie, taker)
    if team is not None:
        out[team] = sum(d.points for s in team_seats(team) for d in declared[s])
    return out


def belote_points(info: InfoSet, hands: Sequence[int], denomination: int) -> list[int]:
    """Belote points per team (RULES.md §5) in a deal of ``info``'s hidden cards: ``hands``
    (per seat, the cards held now) plus ``info.played_by``, scored by
    ``team_belote_points`` (a pair not yet played is assumed announced)."""
    played = info.played_by
    held = [hands[s] | played[s] for s in SEATS]
    return team_belote_points(denomination, info.rules, held, played, info.announcements)


def declaration_points(info: InfoSet, hands: Sequence[int], denomination: int, eldest: int,
                       first_trick_done: bool, taker: int | None = None) -> list[int]:
    """Declaration points per team that score (RULES.md §6) in a deal of ``info``'s hidden
    cards: the declarations made, and, while the first trick is not done, the best
    declarations (``declarations.best_declarations``, assumed made) of the seats that have
    not played to it, from ``hands`` plus ``info.played_by``. ``taker``: the taker's seat
    (``declaration_tie="taker_first"``), default ``info.taker``."""
    if info.rules.declarations == "off":
        return [0, 0]
    declared = list(info.declared)
    if not first_trick_done:
        for seat in SEATS:
            if not info.played_by[seat]:
                declared[seat] = best_declarations(hands[seat] | info.played_by[seat], denomination)
    return team_declaration_points(declared, denomination, eldest, info.rules, info.taker if taker is None else taker)


def deal_difference(takers_points: int, taker_team: int, my_team: int, belote: Sequence[int],
                    declarations: Sequence[int], info: InfoSet, capot_open: tuple[bool, bool] = (True, True)) -> int:
    """The deal's point difference for ``my_team`` (RULES.md §7; ``score_deal`` with
    ``info.rules`` and ``info.reserve``) when the takers end with ``takers_points`` card
    points, dix de der included (a double-dummy solver's value), with ``belote`` and
    ``declarations`` points per team. All 162 points (0 points) are scored as a capot by
    the takers (the defenders) when that team may still win every trick (``capot_open``,
    per team): perfect play reaches 162 exactly when it wins every trick, except for a
    trick of four cards worth 0 that is not the last."""
    if takers_points >= DIX_DE_DER:
        cards, last = takers_points - DIX_DE_DER, taker_team
    else:
        cards, last = takers_points, other_team(taker_team)
    cp = (cards, 152 - cards) if taker_team == 0 else (152 - cards, cards)
    tricks = (4, 4)
    if takers_points == TOTAL_POINTS and capot_open[taker_team]:
        tricks = (8, 0) if taker_team == 0 else (0, 8)
    elif takers_points == 0 and capot_open[other_team(taker_team)]:
        tricks = (0, 8) if taker_team == 0 else (8, 0)
    result = score_deal(taker_team, cp, tricks, last, (belote[0], belote[1]), (declarations[0], declarations[1]),
                        info.rules, reserve_in=info.reserve)
    return result.difference(my_team)
