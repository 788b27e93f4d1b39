"""Scoring a deal: dix de der, capot, made / dedans, litige (RULES.md §7), and the
belote and declaration points that go into it (§5, §6); in ``contract_mode="coinche"``,
scoring against the contract and the end of the game (COINCHE.md §5, §6).

Teams are ``0`` (seats 0 and 2) and ``1`` (seats 1 and 3). All values are points (int).

* ``score_deal``: a played deal's score from its card points, tricks, belote and
  declarations (the classic take/pass game).
* ``score_coinche_deal``: the same against a coinche contract (level, coinche,
  surcoinche; COINCHE.md §6), every scoring option of ``Rules``; ``round_points`` its
  rounding (§6.10); ``score_coinche_game_deal``: the deal and the game's end, with
  ``round_last_deal`` (§6.10).
* ``game_end``: whether a game is over after a deal and who won, the one rule of every
  table (RULES.md §8, COINCHE.md §6.11, TWO_THREE.md §4 A24, A33).
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
from .contract import CAPOT, GENERALE, Contract
from .declarations import Declaration, best_declarations, declaration_winner
from .deprecation import renamed, renamed_in
from .table import SEATS, TEAM_OF, other_team, team_seats

if TYPE_CHECKING:
    from .infoset import InfoSet

__all__ = ["DealScore", "score_deal", "DIX_DE_DER", "CAPOT_POINTS", "TOTAL_POINTS", "BELOTE_POINTS",
           "team_belote_points", "team_declaration_points", "belote_points", "declaration_points",
           "deal_difference", "score_coinche_deal", "round_points", "coinche_game_end", "score_coinche_game_deal",
           "FORFAIT_BASE", "CAPOT_FLAT_VALUE", "CutthroatDealScore", "score_cutthroat_deal", "game_end"]

DIX_DE_DER = 10
TOTAL_POINTS = 162  # 152 card points + dix de der, every contract kind
CAPOT_POINTS = 252  # 162 + 90
BELOTE_POINTS = 20
#: ``multiplier_scope="ffb_forfait"`` (COINCHE.md §6.6): the fixed part of a coinched
#: (surcoinched) deal is ``FORFAIT_BASE * m``: 320 coinched, 640 surcoinched x4 (480 x3)
FORFAIT_BASE = 160
#: ``capot_scoring="flat"`` (COINCHE.md §6.7): a capot bid made scores ``CAPOT_FLAT_VALUE * m``
CAPOT_FLAT_VALUE = 500


@dataclass(frozen=True)
class DealScore:
    """The score of one played deal (RULES.md §7; a coinche deal: COINCHE.md §6,
    ``score_coinche_deal``).

    Attributes:
        outcome: ``"made"``, ``"dedans"`` or ``"litige"`` (the contract's fate; a tie
            scored under ``tie="takers_made"`` / ``"takers_fail"`` reads made / dedans,
            under ``"defenders_keep"`` it reads ``"litige"``; in coinche mode
            ``"litige"`` only under ``tie_with_defence="litige"``).
        taker_team: 0 or 1.
        trick_points: (team 0, team 1) card points + dix de der, 252/0 on capot (coinche:
            ``capot_points``/0).
        belote: (team 0, team 1) belote-rebelote points held (before a coinche
            ``belote_prenable`` transfer).
        declarations: (team 0, team 1) declaration points that count (§6).
        capot: the team that won all 8 tricks, or ``None``.
        points: (team 0, team 1) points added to the game scores by this deal,
            including a reserve won (``reserve_won``).
        reserve_in: litige reserve pending before this deal.
        reserve_won: (team 0, team 1) the part of ``points`` that is the reserve.
        reserve_out: litige reserve pending after this deal.
        coinched: the contract's coinche: 0 none (always in the classic game), 1 coinched,
            2 surcoinched (COINCHE.md §3.3; public: every seat heard it).
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
    coinched: int = 0

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
            in the comparison, ``tie``, ``failure``: what a failed contract gives);
            default ``Rules()``.
        reserve_in: pending litige reserve (points) from earlier tied deals.
    Returns:
        a ``DealScore``.
    Raises:
        ValueError: rules of another game than the classic four-seat one (coinche:
            ``score_coinche_deal``; two and three seats: ``score_cutthroat_deal``); a pair
            that is not two ints >= 0; card points that do not sum to 152 or tricks to 8; a
            team that is not 0 or 1; a reserve that is not an int >= 0.
    """
    from .games import game_of

    rules = rules or Rules()
    if game_of(rules).variant != "classic":
        raise ValueError(f"score_deal scores the classic four-seat game (RULES.md §7), got the "
                         f"{game_of(rules).variant!r} game's rules: use score_coinche_deal (coinche) or "
                         f"score_cutthroat_deal (two and three seats)")
    card_points = _check_pair("card_points", card_points)
    tricks_won = _check_pair("tricks_won", tricks_won)
    belote = _check_pair("belote", belote)
    declarations = _check_pair("declarations", declarations)
    if card_points[0] + card_points[1] != 152 or tricks_won[0] + tricks_won[1] != 8:
        raise ValueError(f"card points must sum to 152 and tricks to 8, got {card_points}, {tricks_won}")
    taker_team = _check_int("taker_team", taker_team, 0, 1)
    last_trick_team = _check_int("last_trick_team", last_trick_team, 0, 1)
    reserve_in = _check_int("reserve_in", reserve_in, 0)
    return _score_deal(taker_team, card_points, tricks_won, last_trick_team, belote, declarations, rules, reserve_in)


def _score_deal(taker_team, card_points, tricks_won, last_trick_team, belote, declarations, rules: Rules,
                reserve_in: int) -> DealScore:
    """``score_deal`` without its checks: the expert's search scores many sampled deals
    through ``deal_difference``, its values made by the solver."""
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
    elif fate == "dedans":  # the failed contract, per ``failure`` (§7)
        if rules.failure == "maker_zero":  # the defenders keep their own points only
            points[defender_team] = tp[defender_team] + belote[defender_team] + declarations[defender_team]
        else:  # maker_keeps_belote / opponent_takes_all: 162 (252) and every declaration
            base = CAPOT_POINTS if capot == defender_team else 162
            points[defender_team] = base + declarations[0] + declarations[1] + belote[defender_team]
            if rules.failure == "opponent_takes_all":  # seed 001 L98: the takers' belote too
                points[defender_team] += belote[taker_team]
            else:  # maker_keeps_belote: "belote stays with the team that holds it"
                points[taker_team] = belote[taker_team]
        reserve_won[defender_team] = reserve_in
    else:  # tie kept as litige (reserve; the takers score their belote now) or defenders_keep (takers nothing)
        points[defender_team] = tp[defender_team] + belote[defender_team] + declarations[defender_team]
        points[taker_team] = belote[taker_team] if fate == "litige" else 0
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


# ----------------------------------------------------------------------------- coinche
def round_points(points: int, rounding: str) -> int:
    """A side's deal score rounded to ten per the ``rounding`` option (COINCHE.md §6.10):
    ``"none"`` leaves it, ``"half_up"`` rounds units 5..9 up (85 -> 90, 84 -> 80),
    ``"six_up"`` rounds units 6..9 up (85 -> 80, 86 -> 90).

    Args:
        points: a deal score, an int >= 0 (points).
        rounding: ``"none"``, ``"half_up"`` or ``"six_up"``.
    Returns:
        the rounded points (int).
    Raises:
        ValueError: an unknown ``rounding``.
    """
    if rounding == "none":
        return points
    if rounding == "half_up":
        return (points + 5) // 10 * 10
    if rounding == "six_up":
        return (points + 4) // 10 * 10
    raise ValueError(f"rounding must be 'none', 'half_up' or 'six_up', got {rounding!r}")


def _as_int(value) -> int | None:
    """``value`` as an int when it is an integer (a numpy one too), not a bool; else None."""
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        return None
    return value.__index__()


def _check_int(name: str, value, low: int, high: int | None = None) -> int:
    v = _as_int(value)
    if v is None or v < low or (high is not None and v > high):
        allowed = f"an int >= {low}" if high is None else f"an int {low}..{high}"
        raise ValueError(f"{name} must be {allowed}, got {value!r} ({type(value).__name__})")
    return v


def _check_pair(name: str, pair: Sequence[int]) -> tuple[int, int]:
    values = tuple(_as_int(v) for v in pair) if isinstance(pair, (tuple, list)) else ()
    if len(values) != 2 or any(v is None or v < 0 for v in values):
        raise ValueError(f"{name} must be two ints >= 0 (team 0, team 1), got {pair!r}")
    return values[0], values[1]


def score_coinche_deal(
    contract: Contract,
    card_points: tuple[int, int],
    tricks_won: tuple[int, int],
    last_trick_team: int,
    belote: tuple[int, int] = (0, 0),
    declarations: tuple[int, int] = (0, 0),
    rules: Rules | None = None,
    *,
    bidder_won_all: bool = False,
    reserve_in: int = 0,
    rounded: bool = True,
) -> DealScore:
    """Score a played coinche deal against its contract (COINCHE.md §5, §6). All values
    are points (int); teams are 0 (seats 0, 2) and 1 (seats 1, 3). With the takers ``T``,
    the defence ``D``, trick points ``P``, belote ``B``, declarations ``A``, the contract
    value ``V`` and multiplier ``m`` (notation of §6.1):

    * **Trick points** (§6.1): card points + 10 for the last trick; a team that won all 8
      tricks has ``rules.capot_points`` (252 or 250), the other 0.
    * **Made?** (§6.2) A numeric contract ``v``: ``P_T + B_T*[belote_counts_for_contract]
      + A_T*[contract_counts_bonuses is not False] >= need(v)``, ``need(80) = 82`` under
      ``bid_80_means=82``; with ``contract_condition="reach_bid_and_beat_defence"`` also
      strictly more than the defence's total counted the same way (equal totals:
      ``tie_with_defence``, §6.9: ``"fail"``, or ``"litige"``). A capot bid: the takers
      won all 8 tricks. A générale (§6.8): the bidding seat won all 8
      (``bidder_won_all``). The test uses exact points, never rounded ones (§6.2).
    * ``V`` is the bid, ``capot_value`` for capot, ``generale_value`` for générale;
      ``m`` is 1, 2 coinched, ``rules.surcoinche_multiplier`` surcoinched (§6.1).
    * **Belote** (§5): never multiplied (except ``multiplier_scope="bga"``). Imprenable
      (``belote_prenable=False``): each team keeps its own. Prenable: a failed contract
      gives the takers' belote to the defence, a made coinched contract the defence's to
      the takers.
    * **Declarations** (§6.8b), the counted ones (``declarations``, already filtered to the
      team holding the best, RULES.md §6): failed, the takers' go to the defence; made with
      a capot by the takers or coinched, the defence's go to the takers; multiplied only
      under ``multiplier_scope="whole_score"``.
    * **Made, not coinched** (§6.3, every scope): ``T = P_T + A_T + V + B_T``,
      ``D = P_D + A_D + B_D``.
    * **Made, coinched** (§6.4, §6.6), with ``base_T = capot_points`` when the takers won
      all 8 tricks, else ``fail_base`` (162 or 160; Pagat's "160 + (100 x 2)"):
      ``contract_only``: ``T = base_T + V*m + B + A``; ``whole_score``:
      ``T = (base_T + V + A)*m + B``; ``ffb_forfait``: ``T = (FORFAIT_BASE + V)*m + B + A``
      (320 / 640 + V*2 / V*4); ``bga``: ``T = (V + P_T + B_T)*m + A`` and the defence's
      belote is lost. ``D`` = its belote when imprenable (``bga``: 0).
    * **Failed** (§6.5, §6.6), with ``base_D = defence_capot_base`` when the defence won
      all 8 tricks, else ``fail_base``: ``T = B_T`` (imprenable) and, not coinched,
      ``D = base_D + V + B + A`` (every scope); coinched, ``contract_only``:
      ``D = base_D + V*m + B + A``; ``whole_score``: ``(base_D + V + A)*m + B``;
      ``ffb_forfait``: ``(FORFAIT_BASE + V)*m + B + A``; ``bga``: ``(V + base_D + B_D)*m + A``.
    * ``scoring="bid_only"`` (§6.6): made ``T = V*m + B_T + A``, ``D = B_D + A_D``
      (belote and declarations moving as above); failed ``D = V*m + B + A``,
      ``T = B_T``; ``multiplier_scope`` then only decides whether declarations are
      multiplied (``whole_score``).
    * **Capot / générale bid** (§6.7, §6.8): ``capot_scoring="contract"`` scores them
      like a numeric contract with their ``V``; ``"flat"``: made ``T = CAPOT_FLAT_VALUE*m``
      (générale: ``generale_value*m``), failed ``D = capot_fail_value*m`` (générale:
      ``generale_value*m``), plus belote and declarations as above, under either
      ``scoring``.
    * **Litige** (§6.9, ``reach_bid_and_beat_defence`` with ``tie_with_defence="litige"``,
      the takers reaching the bid and tying the defence): RULES.md §7's litige: the
      defence scores ``P_D + B_D + A_D``, the takers ``B_T``; their ``P_T + A_T`` go to the
      reserve for the next deal's winner (takers whose contract is made, else the defence;
      successive reserves add up). No multiplier, no belote transfer.
    * **Reserve**: ``reserve_in`` goes to the takers of a made contract or the defence of a
      failed one (``reserve_won``), as in ``score_deal``.
    * **Rounding** (§6.10, when ``rounded``): ``round_points(., rules.rounding)`` of each
      side's deal score after all terms are added (the reserve a litige sets aside is
      rounded the same way; a reserve won is added as it stands).

    Args:
        contract: the ``Contract`` (its ``taker`` seat, ``level`` 80..650, ``CAPOT`` or
            ``GENERALE``, ``multiplier`` 1, 2 or ``rules.surcoinche_multiplier``).
        card_points: (team 0, team 1) card points of the tricks won, without dix de der;
            they sum to 152.
        tricks_won: (team 0, team 1) tricks won; they sum to 8.
        last_trick_team: team (0/1) that won the 8th trick (dix de der).
        belote: (team 0, team 1) belote-rebelote points each team holds (announced).
        declarations: (team 0, team 1) declaration points that count (RULES.md §6).
        rules: the rules, ``contract_mode="coinche"``; default ``Rules(contract_mode="coinche")``
            (the ``coinche`` preset).
        bidder_won_all: the bidding seat itself won all 8 tricks (générale, §6.8).
        reserve_in: pending litige reserve (points) from earlier tied deals.
        rounded: apply ``rules.rounding``; the engine passes False for a game's last deal
            when ``round_last_deal`` is False (§6.10, ``score_coinche_game_deal``).
    Returns:
        a ``DealScore`` (``points`` per team, the reserve included).
    Raises:
        ValueError: rules not in coinche mode; a contract without a level; a multiplier
            3/4 that is not ``rules.surcoinche_multiplier``; a capot contract with
            ``capot_bid`` False or a générale with ``generale`` False; card points not
            summing to 152 or tricks to 8; a negative or non-int value; ``bidder_won_all``
            while the takers did not win all 8 tricks.
    """
    rules = rules if rules is not None else Rules(contract_mode="coinche")
    if rules.contract_mode != "coinche":
        raise ValueError(f"score_coinche_deal needs rules with contract_mode 'coinche', got {rules.contract_mode!r}")
    if not isinstance(contract, Contract) or contract.level is None:
        raise ValueError(f"a coinche deal needs a Contract with a level, got {contract!r}")
    level = contract.level
    if contract.multiplier > 2 and contract.multiplier != rules.surcoinche_multiplier:
        raise ValueError(f"contract multiplier {contract.multiplier} does not match surcoinche_multiplier "
                         f"{rules.surcoinche_multiplier}")
    if level == CAPOT and not rules.capot_bid:
        raise ValueError("a capot contract under rules with capot_bid False")
    if level == GENERALE and not rules.generale:
        raise ValueError("a générale contract under rules with generale False")
    card_points = _check_pair("card_points", card_points)
    tricks_won = _check_pair("tricks_won", tricks_won)
    belote = _check_pair("belote", belote)
    declarations = _check_pair("declarations", declarations)
    if card_points[0] + card_points[1] != 152 or tricks_won[0] + tricks_won[1] != 8:
        raise ValueError(f"card points must sum to 152 and tricks to 8, got {card_points}, {tricks_won}")
    if last_trick_team not in (0, 1) or type(reserve_in) is not int or reserve_in < 0:
        raise ValueError(f"last_trick_team must be 0 or 1 and reserve_in an int >= 0, got {last_trick_team!r}, "
                         f"{reserve_in!r}")
    taker_team = TEAM_OF[contract.taker]
    defender_team = other_team(taker_team)
    if bidder_won_all and tricks_won[taker_team] != 8:
        raise ValueError(f"bidder_won_all, but the takers won {tricks_won[taker_team]} tricks")
    T, D = taker_team, defender_team
    capot = 0 if tricks_won[0] == 8 else 1 if tricks_won[1] == 8 else None
    if capot is None:
        tp = [card_points[0], card_points[1]]
        tp[last_trick_team] += DIX_DE_DER
    else:
        tp = [0, 0]
        tp[capot] = rules.capot_points
    m = (1, 2, rules.surcoinche_multiplier)[contract.coinche_level]
    value = rules.capot_value if level == CAPOT else rules.generale_value if level == GENERALE else level

    # ---- made? (§6.2; exact points)
    count_belote = rules.belote_counts_for_contract
    count_decl = rules.contract_counts_bonuses is not False
    total = [tp[t] + (belote[t] if count_belote else 0) + (declarations[t] if count_decl else 0) for t in (0, 1)]
    total[D] = tp[D] + belote[D] + declarations[D]  # §6.2: Total_D = P_D + B_D + A_D, whatever counts for the takers
    if level == CAPOT:
        fate = "made" if capot == T else "dedans"
    elif level == GENERALE:
        fate = "made" if bidder_won_all else "dedans"
    else:
        need = 82 if level == 80 and rules.bid_80_means == 82 else level
        if total[T] < need:
            fate = "dedans"
        elif rules.contract_condition == "reach_bid_and_beat_defence" and total[T] <= total[D]:
            fate = "litige" if total[T] == total[D] and rules.tie_with_defence == "litige" else "dedans"
        else:
            fate = "made"

    # ---- belote and declarations that change hands (§5, §6.8b)
    bel = [belote[0], belote[1]]
    decl = [declarations[0], declarations[1]]
    if fate == "dedans":
        decl[D] += decl[T]
        decl[T] = 0
        if rules.belote_prenable:
            bel[D] += bel[T]
            bel[T] = 0
    elif fate == "made":
        if m > 1 or capot == T:
            decl[T] += decl[D]
            decl[D] = 0
        if rules.belote_prenable and m > 1:
            bel[T] += bel[D]
            bel[D] = 0
    scope = rules.multiplier_scope
    dm = m if scope == "whole_score" else 1  # declarations multiplied only with whole_score (§6.8b)
    flat = level in (CAPOT, GENERALE) and rules.capot_scoring == "flat"

    # ---- the deal scores before rounding (§6.3-§6.8)
    pts = [0, 0]
    deferred = 0  # litige: the takers' points set aside for the reserve
    if fate == "made":
        pts[D] = bel[D] + decl[D]
        if flat:
            pts[T] = (rules.generale_value if level == GENERALE else CAPOT_FLAT_VALUE) * m + bel[T] + decl[T] * dm
        elif rules.scoring == "bid_only":
            pts[T] = value * m + bel[T] + decl[T] * dm
        elif m == 1:
            pts[T] = tp[T] + decl[T] + value + bel[T]
            pts[D] += tp[D]
        else:
            base = rules.capot_points if capot == T else rules.fail_base
            if scope == "contract_only":
                pts[T] = base + value * m + bel[T] + decl[T]
            elif scope == "whole_score":
                pts[T] = (base + value + decl[T]) * m + bel[T]
            elif scope == "ffb_forfait":
                pts[T] = (FORFAIT_BASE + value) * m + bel[T] + decl[T]
            else:  # bga: belote multiplied, the defence's lost
                pts[T] = (value + tp[T] + bel[T]) * m + decl[T]
                pts[D] = 0
    elif fate == "dedans":
        pts[T] = bel[T]
        if flat:
            pts[D] = (rules.generale_value if level == GENERALE else rules.capot_fail_value) * m + bel[D] + decl[D] * dm
        elif rules.scoring == "bid_only":
            pts[D] = value * m + bel[D] + decl[D] * dm
        else:
            base = rules.defence_capot_base if capot == D else rules.fail_base
            if m == 1 or scope == "contract_only":
                pts[D] = base + value * m + bel[D] + decl[D]
            elif scope == "whole_score":
                pts[D] = (base + value + decl[D]) * m + bel[D]
            elif scope == "ffb_forfait":
                pts[D] = (FORFAIT_BASE + value) * m + bel[D] + decl[D]
            else:  # bga
                pts[D] = (value + base + bel[D]) * m + decl[D]
    else:  # litige (§6.9): RULES.md §7's reserve
        pts[D] = tp[D] + bel[D] + decl[D]
        pts[T] = bel[T]
        deferred = tp[T] + decl[T]
    if rounded:
        pts = [round_points(pts[0], rules.rounding), round_points(pts[1], rules.rounding)]
        deferred = round_points(deferred, rules.rounding)
    reserve_won = [0, 0]
    reserve_out = 0
    if fate == "made":
        reserve_won[T] = reserve_in
    elif fate == "dedans":
        reserve_won[D] = reserve_in
    else:
        reserve_out = reserve_in + deferred
    points = (pts[0] + reserve_won[0], pts[1] + reserve_won[1])
    return DealScore(
        outcome=fate,
        taker_team=taker_team,
        trick_points=(tp[0], tp[1]),
        belote=belote,
        declarations=declarations,
        capot=capot,
        points=points,
        reserve_in=reserve_in,
        reserve_won=(reserve_won[0], reserve_won[1]),
        reserve_out=reserve_out,
        coinched=contract.coinche_level,
    )


def game_end(scores: Sequence[int], rules: Rules, deal_number: int, deal: DealScore | None = None, *,
             single_deal: bool = False) -> tuple[bool, int | None]:
    """Whether a game is over after a played deal, and who won: the one game-end rule of
    every table (RULES.md §8; COINCHE.md §6.11; TWO_THREE.md §2.10, §4 A24, A33).

    * **A single deal** (``single_deal``, or ``target`` None, RULES.md §8): over after it;
      the highest total wins, equal highest totals are a draw (winner ``None``).
    * **``max_deals``**: after ``deal_number >= max_deals`` played deals the game is over:
      the highest total wins; equal highest totals play another deal.
    * **Target** ``rules.target`` (points): a side *meets* it when its total is
      ``>= target`` (``target_rule`` ``"reach"``, and wherever the option does not apply)
      or ``> target`` (``"exceed"``). Once the leader meets it, the leader wins; equal
      highest totals play another deal (however many sides are over the target).
    * **``no_win_on_belote_alone``** (coinche, FFB): a team that failed its contract (the
      takers of a ``"dedans"`` deal) or was capot (the other team won all 8 tricks) scored
      at most its belote in that deal. Such a team cannot win the game on that deal unless
      it already met the target before it (``scores[team] - deal.points[team]``): another
      deal is played (the other team does not win instead). The deal limit ends the game
      whatever it says.

    Args:
        scores: the game totals after the deal, one per side (points): 2 teams at four
            seats, 2 or 3 seats at the small tables.
        rules: the rules (``target``, ``target_rule``, ``max_deals``,
            ``no_win_on_belote_alone``).
        deal_number: played deals finished, this one included.
        deal: this deal's ``DealScore``; needed by ``no_win_on_belote_alone``.
        single_deal: the deal is played on its own (whatever ``target`` says).
    Returns:
        ``(over, winner)``: the winning side, or ``None`` when not over or a draw.
    Raises:
        ValueError: ``no_win_on_belote_alone`` is on, the leader meets the target and
            ``deal`` is None.
    """
    top = max(scores)
    leaders = [side for side, v in enumerate(scores) if v == top]
    leader = leaders[0] if len(leaders) == 1 else None
    if single_deal or rules.target is None:
        return True, leader
    if rules.max_deals is not None and deal_number >= rules.max_deals:
        return leader is not None, leader
    target = rules.target

    def meets(total: int) -> bool:
        return total > target if rules.target_rule == "exceed" else total >= target

    if leader is None or not meets(top):
        return False, None
    if rules.no_win_on_belote_alone:
        if deal is None:
            raise ValueError("no_win_on_belote_alone needs the deal's DealScore")
        failed = deal.outcome == "dedans" and deal.taker_team == leader
        was_capot = deal.capot == other_team(leader)
        if (failed or was_capot) and not meets(scores[leader] - deal.points[leader]):
            return False, None
    return True, leader


#: ``game_end`` under its coinche name (COINCHE.md §6.11)
coinche_game_end = game_end


def score_coinche_game_deal(
    contract: Contract,
    card_points: tuple[int, int],
    tricks_won: tuple[int, int],
    last_trick_team: int,
    belote: tuple[int, int],
    declarations: tuple[int, int],
    rules: Rules,
    scores: Sequence[int],
    deal_number: int,
    *,
    bidder_won_all: bool = False,
    reserve_in: int = 0,
    single_deal: bool = False,
) -> tuple[DealScore, bool, int | None]:
    """Score a coinche deal of a game and decide the game's end, with ``round_last_deal``
    (COINCHE.md §6.10, §6.11): the deal is scored rounded per ``rules.rounding``, except
    the deal that ends a game to a target when ``round_last_deal`` is False: it counts
    exactly. Which deal ends the game is decided with the exact points (the last deal
    counts exactly, so only exact points can end the game); a deal that does not end it
    is rounded even when its rounded points would meet the target (the game then ends
    after a later deal). A single deal (``single_deal`` or ``target`` None) is scored as
    an ordinary deal (rounded).

    Args:
        contract, card_points, tricks_won, last_trick_team, belote, declarations, rules,
            bidder_won_all, reserve_in: as ``score_coinche_deal``.
        scores: (team 0, team 1) game totals before the deal (points).
        deal_number: played deals finished before this one.
        single_deal: the deal is played on its own (RULES.md §8).
    Returns:
        ``(deal score, over, winner)``, ``over``/``winner`` as ``coinche_game_end`` of the
        totals after the deal (with ``round_last_deal`` False and a rounding: of the totals
        with the exact deal points; a single deal: over, the higher total wins, else a
        draw).
    Raises:
        ValueError: as ``score_coinche_deal`` and ``coinche_game_end``.
    """
    args = (contract, card_points, tricks_won, last_trick_team, belote, declarations, rules)
    kw = dict(bidder_won_all=bidder_won_all, reserve_in=reserve_in)
    one = single_deal or rules.target is None
    result = score_coinche_deal(*args, **kw, rounded=True)
    if rules.rounding != "none" and not rules.round_last_deal and not one:
        # the exact points decide whether this deal ends the game: if they do, it counts
        # exactly; if not, it is rounded and the game goes on, even when the rounded
        # points would meet the target or break an exact tie (the end is never decided
        # on rounded points of a deal that would then count exactly)
        exact = score_coinche_deal(*args, **kw, rounded=False)
        over, winner = game_end((scores[0] + exact.points[0], scores[1] + exact.points[1]), rules,
                                deal_number + 1, exact)
        return (exact, True, winner) if over else (result, False, None)
    totals = (scores[0] + result.points[0], scores[1] + result.points[1])
    return (result, *game_end(totals, rules, deal_number + 1, result, single_deal=one))


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
                declared[seat] = best_declarations(hands[seat] | info.played_by[seat], denomination, info.rules)
    return team_declaration_points(declared, denomination, eldest, info.rules, info.taker if taker is None else taker)


def deal_difference(takers_points: int, taker_team: int, my_team: int, belote: Sequence[int],
                    declarations: Sequence[int], info: InfoSet, capot_open: tuple[bool, bool] = (True, True),
                    *, bidder_won_all: bool | None = None) -> int:
    """The deal's point difference for ``my_team`` (RULES.md §7; ``score_deal`` with
    ``info.rules`` and ``info.reserve``) when the takers end with ``takers_points`` card
    points, dix de der included (a double-dummy solver's value), with ``belote`` and
    ``declarations`` points per team. All 162 points (0 points) are scored as a capot by
    the takers (the defenders) when that team may still win every trick (``capot_open``,
    per team): perfect play reaches 162 exactly when it wins every trick, except for a
    trick of four cards worth 0 that is not the last.

    In coinche mode (``info.rules.contract_mode == "coinche"``) the deal is scored by
    ``score_coinche_deal`` against ``info.contract`` (COINCHE.md §6; rounded per
    ``rules.rounding``: the search does not know whether the deal will end the game).
    A générale (§6.8) needs the bidding seat itself to win every trick, which a team's
    card points do not tell: ``bidder_won_all`` None (default) counts a takers' capot as
    won by the bidder alone when every trick completed so far (``info.tricks``) was won
    by the bidder (the remaining tricks are assumed to be the bidder's too); True / False
    decide it for the caller. Points in, points out (int).

    Raises:
        ValueError: in coinche mode, ``info.contract`` missing, classic, or not of
            ``taker_team``; as ``score_coinche_deal``.
    """
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
    if info.rules.contract_mode == "coinche":
        contract = info.contract
        if contract is None or contract.level is None or TEAM_OF[contract.taker] != taker_team:
            raise ValueError(f"coinche deal_difference needs info.contract, a coinche contract of team {taker_team}, "
                             f"got {contract!r}")
        takers_capot = tricks[taker_team] == 8
        if bidder_won_all is None:
            bidder_won_all = takers_capot and all(t[2] == contract.taker for t in info.tricks)
        result = score_coinche_deal(contract, cp, tricks, last, (belote[0], belote[1]),
                                    (declarations[0], declarations[1]), info.rules,
                                    bidder_won_all=bidder_won_all and takers_capot, reserve_in=info.reserve)
        return result.difference(my_team)
    result = _score_deal(taker_team, cp, tricks, last, (belote[0], belote[1]), (declarations[0], declarations[1]),
                         info.rules, reserve_in=info.reserve)
    return result.difference(my_team)


# ----------------------------------------------------------------------------- two and three players
@dataclass(frozen=True)
class CutthroatDealScore:
    """The score of one played deal of the two- or three-player game (TWO_THREE.md §2.9,
    §3; ``score_cutthroat_deal``).

    Attributes:
        outcome: ``"made"`` (the taker's total beats the others'), ``"equal"`` or
            ``"failed"`` (*bête*).
        taker: the taker's seat (TWO_THREE.md's maker; ``maker`` is a deprecated alias).
        totals: per seat, its deal total: card points of its tricks, 10 for the last
            trick, its combinations if they scored, 20 for belote, ``capot_bonus`` for
            winning every trick (points).
        points: per seat, the points recorded this deal (after ``rounding``; a litige
            reserve won included).
        reserve_in: the litige reserve pending before the deal (``tie="litige"``).
        reserve_won: per seat, the part of ``points`` that is the reserve.
        reserve_out: the reserve pending after the deal.
    """

    outcome: str
    taker: int
    totals: tuple[int, ...]
    points: tuple[int, ...]
    reserve_in: int = 0
    reserve_won: tuple[int, ...] = ()
    reserve_out: int = 0

    maker = renamed("taker")  # the old name

    def difference(self, seat: int) -> int:
        """``seat``'s points less the mean of the other seats' (the seat's margin; at two
        seats, its points less the opponent's)."""
        others = [p for s, p in enumerate(self.points) if s != seat]
        return self.points[seat] - sum(others) / len(others) if len(others) > 1 else self.points[seat] - others[0]


def _share(points: int, maker: int, totals: Sequence[int], rules: Rules) -> list[int]:
    """How the defenders share ``points`` of a failed maker at three seats
    (``defender_split``, TWO_THREE.md §4 A31): per seat (the maker's 0)."""
    n = len(totals)
    a, b = (maker + 1) % n, (maker + 2) % n
    out = [0] * n
    if rules.defender_split == "half_floor":
        out[a] = out[b] = points // 2  # an odd point is lost
    elif rules.defender_split == "half_ceil_next":
        out[a], out[b] = points - points // 2, points // 2  # the seat after the maker gets the odd point
    else:  # proportional to the defenders' own totals, rounded down
        ta, tb = totals[a], totals[b]
        out[a], out[b] = points * ta // (ta + tb), points * tb // (ta + tb)
    return out


def score_cutthroat_deal(maker: int, totals: Sequence[int], rules: Rules, reserve_in: int = 0) -> CutthroatDealScore:
    """Score one played deal of the two- or three-player game (TWO_THREE.md §2.9, §3,
    §4 A22-A25, A31-A32).

    With ``M`` the maker's total and ``O`` the others' (the opponent's, or the two
    defenders' together): ``M > O`` made, every seat records its own total; ``M = O``
    the maker records 0 and the others their own (``tie="litige"``: the maker's total is
    held in a reserve won by the next deal's winning side); ``M < O`` failed, the maker
    records 0 and the others their own plus the maker's total (``failure="maker_zero"``:
    their own only), at three seats shared per ``defender_split``. A pending reserve goes
    to the winning side (the maker when made; otherwise the others, shared like the
    maker's points); it stays pending after another equal deal. Recorded points are then
    rounded (``rounding="half_up"``: to the nearest 10, 5 up).

    Args:
        maker: the maker's seat.
        totals: per seat (2 or 3), its deal total in points (ints >= 0).
        rules: the rule options (``players`` 2 or 3).
        reserve_in: the litige reserve pending (points).
    Returns:
        a ``CutthroatDealScore``.
    Raises:
        ValueError: totals that do not fit the table, or a maker that is not a seat.
    """
    from .games import game_of

    n = rules.players
    if game_of(rules).has_partners or len(totals) != n or any(type(t) is not int or t < 0 for t in totals):
        raise ValueError(f"totals must be {n} ints >= 0 (one per seat of a two- or three-player table), got "
                         f"{tuple(totals)!r}")
    if type(maker) is not int or not 0 <= maker < n:
        raise ValueError(f"maker must be a seat 0..{n - 1}, got {maker!r}")
    m = totals[maker]
    others = sum(totals) - m
    points = list(totals)
    won = [0] * n
    reserve_out = 0
    if m > others:
        outcome = "made"
        won[maker] = reserve_in
    else:
        points[maker] = 0
        outcome = "equal" if m == others else "failed"
        if outcome == "equal":
            reserve_out = reserve_in + (m if rules.tie == "litige" else 0)
        else:
            if rules.failure == "opponent_takes_all":
                gain = [m if s != maker else 0 for s in range(n)] if n == 2 else _share(m, maker, totals, rules)
                points = [p + g for p, g in zip(points, gain)]
            won = ([reserve_in if s != maker else 0 for s in range(n)] if n == 2
                   else _share(reserve_in, maker, totals, rules))
    points = [p + w for p, w in zip(points, won)]
    if rules.rounding == "half_up":
        points = [round_points(p, "half_up") for p in points]
    return CutthroatDealScore(outcome, maker, tuple(totals), tuple(points), reserve_in, tuple(won), reserve_out)


def _game_end_positional(scores: Sequence[int], rules: Rules, deal_number: int, single_deal: bool = False
                         ) -> tuple[bool, int | None]:
    return game_end(scores, rules, deal_number, single_deal=single_deal)


__getattr__ = renamed_in(__name__, globals(), {
    "SmallDealScore": "CutthroatDealScore",
    "score_small_deal": "score_cutthroat_deal",
}, {
    "small_game_end": (
    "scoring.game_end(scores, rules, deal_number, single_deal=...) (every table)", lambda: _game_end_positional)})
