"""Coinche deal scoring and end of game: COINCHE.md §5, §6 and the worked examples of
§10.4 (every row in every profile column, the single-option changes, générale), §10.5
(declarations) and §10.6 (end of game), one test per scoring option that fails if the
option is ignored, and a property test of the §6.2 decision and the §6.3 sum.

A case "T x / D y" gives the takers ``x`` trick points, dix de der included (they won the
last trick when ``x >= 10``), the defence ``y``; capot cases give one team 8 tricks.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from belote_env.cards import parse_cards
from belote_env.config import Rules, load_rules
from belote_env.contract import CAPOT, GENERALE, Contract
from belote_env.declarations import best_declarations
from belote_env.scoring import (
    DealScore, coinche_game_end, deal_difference, round_points, score_coinche_deal, score_coinche_game_deal,
    team_declaration_points,
)
from belote_env.table import TEAM_OF, other_team
from tests.vector_harness import defined_mix

SPADES, HEARTS, DIAMONDS, CLUBS = range(4)
PROFILES = ("coinche", "coinche_colver", "coinche_ffb_contree_2016", "coinche_ffb_contree_2016_note1",
            "coinche_ffb_coinche_2015", "coinche_ffb_equipe_ludique", "coinche_cannes_2016", "coinche_pagat",
            "coinche_bga")
#: a taker seat of each team: every case is scored with team A taking and with team B
TAKERS = (0, 3)


def case(level, denomination, k=0, tp=None, takers_tricks=None, bel=(0, 0), decl=(0, 0)):
    """A §10 case. ``tp``: (takers, defence) trick points, dix de der included;
    ``takers_tricks``: 8 or 0 for a capot (then ``tp`` is ignored), or 7 as stated; ``bel``,
    ``decl``: (takers, defence)."""
    return SimpleNamespace(level=level, denomination=denomination, k=k, tp=tp, takers_tricks=takers_tricks,
                           bel=bel, decl=decl)


#: COINCHE.md §10.4, the case column
CASES = {
    "S1": case(100, HEARTS, tp=(112, 50)),
    "S2": case(100, SPADES, tp=(96, 66)),
    "S3": case(90, CLUBS, tp=(74, 88), bel=(20, 0)),
    "S4": case(80, DIAMONDS, tp=(80, 82)),
    "S5": case(110, DIAMONDS, tp=(98, 64), bel=(0, 20)),
    "S6": case(110, DIAMONDS, tp=(84, 78), bel=(20, 0)),
    "S7": case(100, HEARTS, k=1, tp=(118, 44)),
    "S8": case(100, HEARTS, k=1, tp=(110, 52), bel=(0, 20)),
    "S9": case(120, SPADES, k=1, tp=(104, 58)),
    "S10": case(90, CLUBS, k=2, tp=(95, 67)),
    "S11": case(90, CLUBS, k=2, tp=(95, 67), bel=(20, 0)),
    "S12": case(80, SPADES, k=1, tp=(60, 102), bel=(20, 0)),
    "S13": case(120, HEARTS, takers_tricks=8, bel=(20, 0)),
    "S14": case(CAPOT, SPADES, takers_tricks=8),
    "S15": case(CAPOT, SPADES, tp=(140, 22), takers_tricks=7),
    "S16": case(CAPOT, SPADES, tp=(140, 22), takers_tricks=7, bel=(20, 0)),
    "S17": case(CAPOT, SPADES, k=1, takers_tricks=8),
    "S18": case(100, CLUBS, takers_tricks=0),
    "S19": case(110, CLUBS, tp=(117, 45)),
}

#: COINCHE.md §10.4, the score table as printed (takers / defence per profile of PROFILES)
TABLE = """
S1  | 212 / 50 | 212 / 50 | 210 / 50 | 210 / 50 | 210 / 50 | 210 / 50 | 210 / 50 | 210 / 50 | 212 / 50
S2  | 0 / 262 | 0 / 262 | 0 / 260 | 0 / 260 | 0 / 260 | 0 / 260 | 0 / 260 | 0 / 260 | 0 / 262
S3  | 184 / 88 | 184 / 88 | 180 / 90 | 180 / 90 | 180 / 90 | 180 / 90 | 180 / 90 | 180 / 90 | 184 / 88
S4  | 160 / 82 | 160 / 82 | 160 / 80 | 160 / 80 | 0 / 240 | 160 / 80 | 160 / 80 | 0 / 240 | 0 / 242
S5  | 0 / 292 | 0 / 292 | 0 / 290 | 0 / 290 | 0 / 290 | 0 / 290 | 0 / 290 | 0 / 290 | 0 / 292
S6  | 20 / 272 | 0 / 292 | 0 / 290 | 0 / 290 | 20 / 270 | 0 / 290 | 0 / 290 | 20 / 270 | 20 / 272
S7  | 362 / 0 | 362 / 0 | 520 / 0 | 360 / 0 | 520 / 0 | 360 / 0 | 360 / 0 | 360 / 0 | 436 / 0
S8  | 362 / 20 | 382 / 0 | 540 / 0 | 380 / 0 | 520 / 20 | 380 / 0 | 380 / 0 | 360 / 20 | 420 / 0
S9  | 0 / 402 | 0 / 402 | 0 / 560 | 0 / 400 | 0 / 560 | 0 / 400 | 0 / 400 | 0 / 400 | 0 / 564
S10 | 522 / 0 | 432 / 0 | 1000 / 0 | 520 / 0 | 1000 / 0 | 430 / 0 | 430 / 0 | 520 / 0 | 740 / 0
S11 | 542 / 0 | 452 / 0 | 1020 / 0 | 540 / 0 | 1020 / 0 | 450 / 0 | 450 / 0 | 540 / 0 | 820 / 0
S12 | 342 / 0 | 342 / 0 | 500 / 0 | 340 / 0 | 20 / 480 | 340 / 0 | 340 / 0 | 20 / 320 | 20 / 484
S13 | 392 / 0 | 392 / 0 | 390 / 0 | 390 / 0 | 390 / 0 | 390 / 0 | 390 / 0 | 390 / 0 | 390 / 0
S14 | 502 / 0 | 502 / 0 | 500 / 0 | 500 / 0 | 500 / 0 | 500 / 0 | 520 / 0 | 500 / 0 | n/a
S15 | 0 / 412 | 0 / 412 | 0 / 500 | 0 / 500 | 0 / 500 | 0 / 410 | 0 / 430 | 0 / 500 | n/a
S16 | 20 / 412 | 0 / 432 | 0 / 520 | 0 / 520 | 20 / 500 | 0 / 430 | 0 / 450 | 20 / 500 | n/a
S17 | 752 / 0 | 752 / 0 | 1000 / 0 | 1000 / 0 | 1000 / 0 | 750 / 0 | 790 / 0 | n/a | n/a
S18 | 0 / 352 | 0 / 262 | 0 / 260 | 0 / 260 | 0 / 260 | 0 / 260 | 0 / 350 | 0 / 260 | 0 / 262
S19 | 227 / 45 | 227 / 45 | 230 / 50 | 230 / 50 | 230 / 50 | 230 / 40 | 230 / 40 | 230 / 50 | 227 / 45
"""

#: COINCHE.md §10.4, the same cases under single-option changes from ``default``
CHANGES_COLUMNS = ("S4", "S6", "S7", "S9", "S10", "S14", "S15", "S17", "S19")
CHANGES = """
surcoinche_multiplier=3 | 160/82 | 20/272 | 362/0 | 0/402 | 432/0 | 502/0 | 0/412 | 752/0 | 227/45
multiplier_scope=whole_score | 160/82 | 20/272 | 524/0 | 0/564 | 1008/0 | 502/0 | 0/412 | 1004/0 | 227/45
belote_prenable=True | 160/82 | 0/292 | 362/0 | 0/402 | 522/0 | 502/0 | 0/412 | 752/0 | 227/45
bid_80_means=82 | 0/242 | 20/272 | 362/0 | 0/402 | 522/0 | 502/0 | 0/412 | 752/0 | 227/45
contract_condition=reach_bid_and_beat_defence | 0/242 | 20/272 | 362/0 | 0/402 | 522/0 | 502/0 | 0/412 | 752/0 | 227/45
scoring=bid_only | 80/0 | 20/110 | 200/0 | 0/240 | 360/0 | 250/0 | 0/250 | 500/0 | 110/0
rounding=half_up | 160/80 | 20/270 | 360/0 | 0/400 | 520/0 | 500/0 | 0/410 | 750/0 | 230/50
rounding=six_up | 160/80 | 20/270 | 360/0 | 0/400 | 520/0 | 500/0 | 0/410 | 750/0 | 230/40
capot_scoring=flat | 160/82 | 20/272 | 362/0 | 0/402 | 522/0 | 500/0 | 0/500 | 1000/0 | 227/45
"""


def _pair(text):
    t, d = text.split("/")
    return int(t), int(d)


def _value(text):
    text = text.strip()
    return {"True": True, "False": False}.get(text, int(text) if text.isdigit() else text)


def _table_cells():
    for line in TABLE.strip().splitlines():
        name, *cells = (c.strip() for c in line.split("|"))
        assert len(cells) == len(PROFILES), name
        for profile, cell in zip(PROFILES, cells):
            yield name, profile, None if cell == "n/a" else _pair(cell)


def _change_cells():
    for line in CHANGES.strip().splitlines():
        option, *cells = (c.strip() for c in line.split("|"))
        name, value = option.split("=")
        assert len(cells) == len(CHANGES_COLUMNS), option
        for column, cell in zip(CHANGES_COLUMNS, cells):
            yield name, _value(value), column, _pair(cell)


def contract_of(c, rules, taker):
    m = (1, 2, rules.surcoinche_multiplier)[c.k]
    return Contract(taker, c.denomination, c.level, m)


def by_team(takers_team, takers, defence):
    """(team 0, team 1) from a (takers, defence) pair."""
    return (takers, defence) if takers_team == 0 else (defence, takers)


def deal_args(c, taker):
    """card_points, tricks_won, last_trick_team (team 0, team 1) of case ``c``."""
    t = TEAM_OF[taker]
    d = other_team(t)
    if c.takers_tricks == 8:
        return by_team(t, 152, 0), by_team(t, 8, 0), t
    if c.takers_tricks == 0:
        return by_team(t, 0, 152), by_team(t, 0, 8), d
    x, y = c.tp
    assert x + y == 162
    tricks = c.takers_tricks if c.takers_tricks is not None else 4
    if x >= 10:
        return by_team(t, x - 10, y), by_team(t, tricks, 8 - tricks), t
    return by_team(t, x, y - 10), by_team(t, tricks, 8 - tricks), d


def score_case(c, rules, taker=0, **kw):
    t = TEAM_OF[taker]
    cp, tricks, last = deal_args(c, taker)
    return score_coinche_deal(contract_of(c, rules, taker), cp, tricks, last, by_team(t, *c.bel),
                              by_team(t, *c.decl), rules, **kw)


def takers_defence(score: DealScore):
    t = score.taker_team
    return score.points[t], score.points[other_team(t)]


# ----------------------------------------------------------------------------- §10.4
@pytest.mark.parametrize("taker", TAKERS)
@pytest.mark.parametrize("name,profile,want", list(_table_cells()))
def test_profile_table(name, profile, want, taker):
    """COINCHE.md §10.4: each cell of the profile table, with each team taking."""
    if want is None:
        pytest.skip("n/a under this profile")
    rules = load_rules(profile)
    assert takers_defence(score_case(CASES[name], rules, taker)) == want


def test_table_cells_na_are_the_impossible_ones():
    """The n/a cells are a capot bid under bga (no capot bid) and a coinched capot under
    pagat (not coinchable): exactly the cells the rules forbid."""
    na = {(n, p) for n, p, w in _table_cells() if w is None}
    assert na == {("S14", "coinche_bga"), ("S15", "coinche_bga"), ("S16", "coinche_bga"), ("S17", "coinche_bga"),
                  ("S17", "coinche_pagat")}
    assert load_rules("coinche_bga").capot_bid is False and load_rules("coinche_pagat").capot_coinchable is False
    with pytest.raises(ValueError, match="capot_bid"):
        score_case(CASES["S14"], load_rules("coinche_bga"))


@pytest.mark.parametrize("name", list(CASES))
def test_default_profile_is_the_default_rules(name):
    """The ``coinche`` preset is ``Rules(contract_mode="coinche")``, the default of
    ``score_coinche_deal``."""
    assert load_rules("coinche") == Rules(contract_mode="coinche")
    c = CASES[name]
    cp, tricks, last = deal_args(c, 0)
    rules = Rules(contract_mode="coinche")
    assert score_coinche_deal(contract_of(c, rules, 0), cp, tricks, last, c.bel, c.decl) == score_case(c, rules)


@pytest.mark.parametrize("taker", TAKERS)
@pytest.mark.parametrize("option,value,name,want", list(_change_cells()))
def test_single_option_changes(option, value, name, want, taker):
    """COINCHE.md §10.4: each case under a single option changed from ``default``."""
    rules = load_rules("coinche", **{option: value})
    assert takers_defence(score_case(CASES[name], rules, taker)) == want


def test_each_changed_option_changes_a_cell():
    """Every option of the single-change table changes at least one cell (so each of
    those tests fails if the option is ignored)."""
    default = dict(_table_cells_of("coinche"))
    changed: dict[str, bool] = {}
    for option, value, name, want in _change_cells():
        key = f"{option}={value}"
        changed[key] = changed.get(key, False) or want != default[name]
    assert all(changed.values()), changed


def _table_cells_of(profile):
    return [(n, w) for n, p, w in _table_cells() if p == profile]


# ----------------------------------------------------------------------------- more single options
#: ``multiplier_scope: ffb_forfait`` as the rules pages define it (``config.UNDEFINED_MIXES``)
FORFAIT = {"multiplier_scope": "ffb_forfait", "fail_base": 160, "belote_prenable": True}

EXTRA = [
    # option(s), case, takers / defence (hand-computed from §6)
    ({"fail_base": 160}, "S2", (0, 260)),
    ({"fail_base": 160}, "S7", (360, 0)),  # Pagat's 160 + (100 x 2)
    ({"fail_base": 160}, "S9", (0, 400)),
    ({"fail_base": 160}, "S18", (0, 352)),  # the defence's capot base is defence_capot_base
    ({"defence_capot_base": 162}, "S18", (0, 262)),
    ({"defence_capot_base": 160}, "S18", (0, 260)),
    ({"defence_capot_base": 160}, "S2", (0, 262)),  # only a defence capot uses it
    ({"capot_points": 250}, "S13", (390, 0)),
    ({"capot_points": 250}, "S14", (500, 0)),
    ({"capot_points": 250}, "S17", (750, 0)),
    ({"capot_points": 250}, "S18", (0, 352)),  # the defence's capot base is defence_capot_base
    ({"capot_value": 270}, "S14", (522, 0)),
    ({"capot_value": 270}, "S15", (0, 432)),
    ({"capot_value": 270}, "S17", (792, 0)),
    ({"capot_scoring": "flat", "capot_fail_value": 410}, "S15", (0, 410)),
    ({"capot_scoring": "flat", "capot_fail_value": 410}, "S16", (20, 410)),
    ({"capot_scoring": "flat", "capot_fail_value": 410}, "S14", (500, 0)),  # made: 500 whatever
    ({"capot_value": 270, "capot_scoring": "flat"}, "S14", (500, 0)),  # flat ignores capot_value
    # ffb_forfait is defined with fail_base 160, x2 / x4 only and both belotes to the side that
    # wins the contract (COINCHE.md §6.6, §7)
    (FORFAIT, "S7", (520, 0)),
    (FORFAIT, "S8", (540, 0)),  # both belotes: §10.4's ffb_contree_2016 column
    (FORFAIT, "S9", (0, 560)),
    (FORFAIT, "S10", (1000, 0)),
    (FORFAIT, "S2", (0, 260)),  # not coinched: 160 + V
    (FORFAIT, "S17", (820, 0)),  # capot as a contract: (160 + 250) x 2
    ({"multiplier_scope": "bga"}, "S7", (436, 0)),
    ({"multiplier_scope": "bga"}, "S8", (420, 0)),  # the defence's belote is lost
    ({"multiplier_scope": "bga"}, "S9", (0, 564)),
    ({"multiplier_scope": "bga"}, "S11", (820, 0)),  # belote multiplied
    ({"multiplier_scope": "bga"}, "S12", (320, 0)),  # (80 + 60 + 20) x 2
    ({"multiplier_scope": "bga"}, "S1", (212, 50)),  # not coinched: §6.3
    ({"belote_counts_for_contract": False}, "S3", (20, 252)),  # 74 < 90 without the belote
    ({"belote_counts_for_contract": False}, "S12", (20, 322)),  # 60 < 80: 162 + 80 x 2
    ({"belote_counts_for_contract": False}, "S11", (542, 0)),  # made anyway: unchanged
    ({"belote_prenable": True}, "S8", (382, 0)),  # coinched made: the defence's belote to the takers
    ({"belote_prenable": True}, "S5", (0, 292)),
    ({"belote_prenable": True}, "S16", (0, 432)),
    ({"belote_prenable": True, "scoring": "bid_only"}, "S6", (0, 130)),
    ({"belote_prenable": True, "scoring": "bid_only"}, "S8", (220, 0)),
    ({"scoring": "bid_only"}, "S8", (200, 20)),
    ({"scoring": "bid_only"}, "S11", (380, 0)),
    ({"surcoinche_multiplier": 3}, "S11", (452, 0)),
]


@pytest.mark.parametrize("taker", TAKERS)
@pytest.mark.parametrize("options,name,want", EXTRA)
def test_more_single_options(options, name, want, taker):
    rules = load_rules("coinche", **options)
    assert takers_defence(score_case(CASES[name], rules, taker)) == want


# ----------------------------------------------------------------------------- générale
GEN = load_rules("coinche", generale=True)


def _generale(bidder_won_all, tricks, rules=GEN, k=0, taker=0, bel=(0, 0)):
    c = case(GENERALE, HEARTS, k=k, tp=(140, 22), takers_tricks=tricks, bel=bel)
    return takers_defence(score_case(c, rules, taker, bidder_won_all=bidder_won_all))


@pytest.mark.parametrize("taker", TAKERS)
def test_generale_table(taker):
    """COINCHE.md §10.4 générale (``generale: true``, 500, ``capot_scoring: contract``)."""
    assert _generale(True, 8, taker=taker) == (752, 0)  # the bidder won all 8 tricks himself
    assert _generale(False, 8, taker=taker) == (0, 662)  # team capot, the partner won a trick
    assert _generale(False, 7, taker=taker) == (0, 662)  # the defence won a trick


def test_generale_options():
    assert _generale(True, 8, GEN.replace(generale_value=1000)) == (1252, 0)
    assert _generale(False, 8, GEN.replace(generale_value=1000)) == (0, 1162)
    assert _generale(True, 8, k=1) == (252 + 1000, 0)
    assert _generale(False, 7, k=1) == (0, 162 + 1000)
    flat = GEN.replace(capot_scoring="flat")  # §6.8: 500 x m either way
    assert _generale(True, 8, flat) == (500, 0) and _generale(False, 7, flat) == (0, 500)
    assert _generale(True, 8, flat, k=1) == (1000, 0) and _generale(False, 8, flat, k=2) == (0, 2000)
    assert _generale(True, 8, flat.replace(generale_value=1000)) == (1000, 0)
    assert _generale(False, 7, flat.replace(generale_value=1000), k=1) == (0, 2000)
    # COINCHE.md §7's worked example: générale ♥ coinched, flat, the bidder's belote (imprenable)
    assert _generale(True, 8, flat, k=1, bel=(20, 0)) == (1020, 0)
    assert _generale(False, 8, flat, k=1, bel=(20, 0)) == (20, 1000)  # North won one trick
    assert _generale(False, 7, bel=(20, 0)) == (20, 662)  # imprenable
    with pytest.raises(ValueError, match="bidder_won_all"):
        _generale(True, 7)
    with pytest.raises(ValueError, match="generale"):
        _generale(True, 8, load_rules("coinche"))


# ----------------------------------------------------------------------------- §10.5 declarations
@pytest.mark.parametrize("taker", TAKERS)
@pytest.mark.parametrize("profile,made,failed", [
    ("coinche", (212, 100), (0, 312)),
    ("coinche_ffb_coinche_2015", (210, 100), (0, 310)),
])
def test_declarations_examples(profile, made, failed, taker):
    """COINCHE.md §10.5: 100♥, the takers hold the best declaration (a cinquante, 50);
    the defence's tierce scores nothing."""
    rules = load_rules(profile, declarations="auto")
    s = score_case(case(100, HEARTS, tp=(62, 100), decl=(50, 0)), rules, taker)
    assert s.outcome == "made" and takers_defence(s) == made
    s = score_case(case(100, HEARTS, tp=(40, 122), decl=(50, 0)), rules, taker)
    assert s.outcome == "dedans" and takers_defence(s) == failed


@pytest.mark.parametrize("profile,points", [
    ("coinche_ffb_coinche_2015", [0, 0]),  # FFB: exact ties, nobody scores
    ("coinche_pagat", [20, 0]),  # Pagat: the first announced, eldest's team (seat 0 here)
])
def test_declarations_exact_tie_by_profile(profile, points):
    """COINCHE.md §6.8b: "Exact ties: nobody scores (FFB) | ``eldest`` (RULES.md default;
    Pagat "first announced")". Two equal tierces 9-10-J, neither in trump (hearts), one a
    team; eldest is seat 0."""
    rules = load_rules(profile, declarations="auto")
    declared = [best_declarations(parse_cards(hand), HEARTS) for hand in ("9S 10S JS", "9D 10D JD")] + [(), ()]
    assert team_declaration_points(declared, HEARTS, 0, rules, 0) == points


def test_declarations_rules():
    """§6.8b: they count toward the contract unless ``contract_counts_bonuses`` is False;
    a takers' capot takes the defence's; coinched made, the takers take them; multiplied
    only with ``whole_score``."""
    rules = load_rules("coinche", declarations="auto")
    made = case(100, HEARTS, tp=(62, 100), decl=(50, 0))
    assert takers_defence(score_case(made, rules.replace(contract_counts_bonuses=False))) == (0, 312)
    assert takers_defence(score_case(made, rules.replace(contract_counts_bonuses="declarations_only"))) == (212, 100)
    capot = case(100, HEARTS, takers_tricks=8, decl=(0, 50))
    assert takers_defence(score_case(capot, rules)) == (252 + 100 + 50, 0)
    defence = case(100, HEARTS, tp=(112, 50), decl=(0, 50))  # the defence holds the best
    assert takers_defence(score_case(defence, rules)) == (212, 100)
    coinched = case(100, HEARTS, k=1, tp=(112, 50), decl=(20, 0))
    assert takers_defence(score_case(coinched, rules)) == (162 + 200 + 20, 0)
    assert takers_defence(score_case(coinched, rules.replace(multiplier_scope="whole_score"))) == ((162 + 100 + 20) * 2, 0)
    coinched_d = case(100, HEARTS, k=1, tp=(112, 50), decl=(0, 20))
    assert takers_defence(score_case(coinched_d, rules)) == (162 + 200 + 20, 0)
    failed = case(100, HEARTS, k=1, tp=(60, 102), decl=(20, 0))
    assert takers_defence(score_case(failed, rules)) == (0, 162 + 200 + 20)
    assert takers_defence(score_case(failed, rules.replace(multiplier_scope="whole_score"))) == (0, (162 + 100 + 20) * 2)
    assert takers_defence(score_case(failed, rules.replace(**FORFAIT))) == (
        0, 320 + 200 + 20)
    assert takers_defence(score_case(failed, rules.replace(multiplier_scope="bga"))) == (0, (100 + 162) * 2 + 20)
    assert takers_defence(score_case(failed, rules.replace(scoring="bid_only"))) == (0, 200 + 20)
    flat = case(CAPOT, HEARTS, k=1, takers_tricks=8, decl=(0, 20))
    assert takers_defence(score_case(flat, rules.replace(capot_scoring="flat"))) == (1000 + 20, 0)
    # flat capots: declarations multiplied with whole_score only (bid_only takes contract_only alone, §7)
    whole = rules.replace(multiplier_scope="whole_score")
    assert takers_defence(score_case(flat, whole.replace(capot_scoring="flat"))) == (1000 + 40, 0)
    assert takers_defence(score_case(coinched, rules.replace(scoring="bid_only"))) == (200 + 20, 0)


# ----------------------------------------------------------------------------- §6.9 litige
def test_tie_with_defence_litige():
    """§6.9: under ``reach_bid_and_beat_defence`` equal totals fail, or are a litige (the
    defence scores, the takers' points wait in the reserve for the next deal's winner)."""
    tie = case(80, SPADES, tp=(81, 81))
    beat = load_rules("coinche", contract_condition="reach_bid_and_beat_defence")
    assert takers_defence(score_case(tie, beat)) == (0, 242)
    litige = beat.replace(tie_with_defence="litige")
    for taker in TAKERS:
        s = score_case(tie, litige, taker)
        assert s.outcome == "litige" and takers_defence(s) == (0, 81) and s.reserve_out == 81
    s = score_case(case(80, SPADES, k=1, tp=(61, 101), bel=(20, 0)), litige)  # 81 vs 101: fails
    assert s.outcome == "dedans"
    s = score_case(case(80, SPADES, tp=(71, 91), bel=(20, 0)), litige)  # 91 = 91 with the takers' belote
    assert s.outcome == "litige" and takers_defence(s) == (20, 91) and s.reserve_out == 71
    s = score_case(case(90, SPADES, tp=(81, 81)), litige)  # a tie that misses the bid fails
    assert s.outcome == "dedans"
    s = score_case(tie, litige, reserve_in=81)  # reserves add up
    assert s.reserve_out == 162 and s.points == (0, 81) and s.reserve_won == (0, 0)
    # the next deal's winner takes the reserve: the takers when made, the defence when failed
    s = score_case(CASES["S1"], litige, 3, reserve_in=81)
    assert s.points == (50, 212 + 81) and s.reserve_won == (0, 81) and s.reserve_out == 0
    s = score_case(CASES["S2"], litige, 3, reserve_in=81)
    assert s.points == (262 + 81, 0) and s.reserve_won == (81, 0)
    s = score_case(tie, litige.replace(rounding="half_up"))  # the reserve is rounded like a score
    assert s.points == (0, 80) and s.reserve_out == 80


# ----------------------------------------------------------------------------- rounding
def test_round_points():
    assert [round_points(x, "half_up") for x in (84, 85, 86, 0, 20, 45, 227)] == [80, 90, 90, 0, 20, 50, 230]
    assert [round_points(x, "six_up") for x in (84, 85, 86, 0, 20, 45, 227)] == [80, 80, 90, 0, 20, 40, 230]
    assert round_points(227, "none") == 227
    with pytest.raises(ValueError):
        round_points(5, "up")


def test_rounding_never_decides_success():
    """§6.2: 89 points for a 90 contract fail, whatever the rounding."""
    for rounding in ("half_up", "six_up"):
        rules = load_rules("coinche", rounding=rounding)
        s = score_case(case(90, HEARTS, tp=(89, 73)), rules)
        assert s.outcome == "dedans" and takers_defence(s) == (0, 250)
        s = score_case(case(90, HEARTS, tp=(89, 73)), rules, rounded=False)
        assert takers_defence(s) == (0, 252)


# ----------------------------------------------------------------------------- §10.6 end of game
def _s19(rules, scores, deal_number=0, taker=0):
    c = CASES["S19"]
    cp, tricks, last = deal_args(c, taker)
    return score_coinche_game_deal(contract_of(c, rules, taker), cp, tricks, last, (0, 0), (0, 0), rules, scores,
                                   deal_number)


def test_end_of_game_examples():
    """COINCHE.md §10.6 (target 2000): A 1890, B 1750 before the deal; A makes 110 with 117."""
    rules = load_rules("coinche")
    s, over, winner = _s19(rules, (1890, 1750))
    assert s.points == (227, 45) and over and winner == 0  # A 2117, B 1795
    assert coinche_game_end((2117, 1795), rules, 5, s) == (True, 0)
    exceed = rules.replace(target_rule="exceed")
    assert _s19(exceed, (1890, 1750))[1:] == (True, 0)
    # A ends on exactly 2000: reach -> A wins; exceed -> another deal
    assert coinche_game_end((2000, 1795), rules, 5) == (True, 0)
    assert coinche_game_end((2000, 1795), exceed, 5) == (False, None)
    assert _s19(rules, (1773, 1750))[1:] == (True, 0) and _s19(exceed, (1773, 1750))[1:] == (False, None)
    # both teams over the target: the higher total wins; equal totals: another deal
    assert coinche_game_end((2010, 2150), rules, 5) == (True, 1)
    assert coinche_game_end((2150, 2150), rules, 5) == (False, None)
    assert coinche_game_end((1999, 1500), rules, 5) == (False, None)
    assert coinche_game_end((1999, 1500), rules.replace(target=1500), 5) == (True, 0)


def test_max_deals_and_single_deal():
    """RULES.md §8: after ``max_deals`` played deals the higher total wins, equal totals
    play on; a single deal (``target`` None) is over, equal totals a draw."""
    rules = load_rules("coinche", max_deals=3)
    assert coinche_game_end((500, 400), rules, 2) == (False, None)
    assert coinche_game_end((500, 400), rules, 3) == (True, 0)
    assert coinche_game_end((400, 500), rules, 4) == (True, 1)
    assert coinche_game_end((500, 500), rules, 3) == (False, None)
    one = load_rules("coinche", target=None)
    assert coinche_game_end((45, 227), one, 1) == (True, 1) and coinche_game_end((0, 0), one, 1) == (True, None)
    s, over, winner = _s19(one, (0, 0))
    assert s.points == (227, 45) and (over, winner) == (True, 0)


def _failed_with_belote(rules, taker=0):
    """100♥ failed by team A holding belote: A 20 (imprenable), B 262."""
    return score_case(case(100, HEARTS, tp=(60, 102), bel=(20, 0)), rules, taker)


def test_no_win_on_belote_alone():
    """§6.11 (FFB): a team that failed its contract or was capot cannot win the game on
    the belote it scored in that deal."""
    rules = load_rules("coinche")
    on = rules.replace(no_win_on_belote_alone=True)
    s = _failed_with_belote(rules)
    assert s.points == (20, 262)
    totals = (1990 + 20, 1500 + 262)
    assert coinche_game_end(totals, rules, 9, s) == (True, 0)
    assert coinche_game_end(totals, on, 9, s) == (False, None)
    # capot: B makes 80 with every trick, A (the defence) holds belote
    c = score_case(case(80, HEARTS, takers_tricks=8, bel=(0, 20)), rules, taker=1)
    assert c.points == (20, 332) and c.capot == 1
    assert coinche_game_end((1985 + 20, 1000 + 332), rules, 9, c) == (True, 0)
    assert coinche_game_end((1985 + 20, 1000 + 332), on, 9, c) == (False, None)
    # a team already over the target before the deal may still win
    assert coinche_game_end((2030, 1000), on, 9, s) == (True, 0)
    # the takers who made their contract win on belote too
    m = score_case(case(80, HEARTS, tp=(70, 92), bel=(20, 0)), rules)
    assert m.outcome == "made" and coinche_game_end((1900 + m.points[0], 0), on, 9, m) == (True, 0)
    # the other team wins normally
    assert coinche_game_end((1500 + 20, 1900 + 262), on, 9, s) == (True, 1)
    # the deal limit ends the game whatever the rule says
    assert coinche_game_end(totals, on.replace(max_deals=9), 9, s) == (True, 0)
    with pytest.raises(ValueError, match="DealScore"):
        coinche_game_end(totals, on, 9)
    assert coinche_game_end((1000, 500), on, 9) == (False, None)  # nobody at the target: no deal needed
    # through score_coinche_game_deal
    contract = Contract(0, HEARTS, 100)
    assert score_coinche_game_deal(contract, (50, 102), (4, 4), 0, (20, 0), (0, 0), on, (1990, 1500), 8)[1:] == (
        False, None)
    assert score_coinche_game_deal(contract, (50, 102), (4, 4), 0, (20, 0), (0, 0), rules, (1990, 1500), 8)[1:] == (
        True, 0)


def test_profiles_round_the_last_deal_only_where_their_source_does():
    """§6.10: "FFB-Ct16 rounds it" (the final deal); FFB-EL and Cannes16 count it exactly;
    §8's table does not list the option, so every other profile keeps the §7 default (False)."""
    assert {p: load_rules(p).round_last_deal for p in PROFILES} == {
        p: p in ("coinche_ffb_contree_2016", "coinche_ffb_contree_2016_note1") for p in PROFILES}


def test_round_last_deal():
    """§6.10: with ``round_last_deal`` False the deal that ends the game counts exactly,
    the others are rounded; with True every deal is rounded."""
    exact_last = load_rules("coinche_ffb_equipe_ludique")  # six_up, round_last_deal False
    assert exact_last.round_last_deal is False and exact_last.rounding == "six_up"
    s, over, winner = _s19(exact_last, (1890, 1750))
    assert s.points == (227, 45) and (over, winner) == (True, 0)
    s, over, winner = _s19(exact_last, (0, 0))  # not the last deal: rounded
    assert s.points == (230, 40) and not over
    rounds_last = exact_last.replace(round_last_deal=True)
    s, over, winner = _s19(rounds_last, (1890, 1750))
    assert s.points == (230, 40) and (over, winner) == (True, 0)
    ffb = load_rules("coinche_ffb_contree_2016")  # half_up, round_last_deal True
    assert _s19(ffb, (1890, 1750))[0].points == (230, 50)
    assert _s19(ffb.replace(round_last_deal=False), (1890, 1750))[0].points == (227, 45)
    # exact points decide the end: 1775 + 223 = 1998 does not end it; the deal is rounded
    # (six_up: 220, so 1995) and the game goes on
    c = case(110, CLUBS, tp=(113, 49))
    cp, tricks, last = deal_args(c, 0)
    s, over, _ = score_coinche_game_deal(contract_of(c, exact_last, 0), cp, tricks, last, (0, 0), (0, 0),
                                         exact_last, (1775, 1500), 4)
    assert s.points == (220, 50) and not over
    # half_up: exact 1777 + 223 = 2000 ends it exactly
    half = exact_last.replace(rounding="half_up")
    s, over, winner = score_coinche_game_deal(contract_of(c, half, 0), cp, tricks, last, (0, 0), (0, 0), half,
                                              (1777, 1500), 4)
    assert s.points == (223, 49) and (over, winner) == (True, 0)
    # a single deal is rounded as an ordinary deal
    s, over, _ = score_coinche_game_deal(contract_of(c, half, 0), cp, tricks, last, (0, 0), (0, 0), half, (0, 0), 0,
                                         single_deal=True)
    assert s.points == (220, 50) and over


# ----------------------------------------------------------------------------- checks
def test_bad_arguments():
    rules = load_rules("coinche")
    ok = dict(card_points=(102, 50), tricks_won=(5, 3), last_trick_team=0)
    c = Contract(0, HEARTS, 100)
    score_coinche_deal(c, **ok, rules=rules)
    with pytest.raises(ValueError, match="coinche"):
        score_coinche_deal(c, **ok, rules=Rules())
    with pytest.raises(ValueError, match="level"):
        score_coinche_deal(Contract(0, HEARTS), **ok, rules=rules)
    with pytest.raises(ValueError, match="surcoinche_multiplier"):
        score_coinche_deal(Contract(0, HEARTS, 100, 3), **ok, rules=rules)
    with pytest.raises(ValueError, match="152"):
        score_coinche_deal(c, (100, 50), (5, 3), 0, rules=rules)
    with pytest.raises(ValueError, match="152"):
        score_coinche_deal(c, (102, 50), (5, 4), 0, rules=rules)
    with pytest.raises(ValueError, match="belote"):
        score_coinche_deal(c, **ok, belote=(-20, 0), rules=rules)
    with pytest.raises(ValueError, match="reserve_in"):
        score_coinche_deal(c, **ok, rules=rules, reserve_in=-1)
    with pytest.raises(ValueError, match="bidder_won_all"):
        score_coinche_deal(c, **ok, rules=rules, bidder_won_all=True)


def test_deal_difference_coinche():
    """``deal_difference`` scores a coinche deal against ``info.contract``."""
    rules = load_rules("coinche", generale=True)

    def info(contract, tricks=(), reserve=0, r=rules):
        return SimpleNamespace(rules=r, reserve=reserve, contract=contract, tricks=tricks)

    c = Contract(0, HEARTS, 100)
    assert deal_difference(112, 0, 0, [0, 0], [0, 0], info(c)) == 212 - 50
    assert deal_difference(112, 0, 1, [0, 0], [0, 0], info(c)) == 50 - 212
    assert deal_difference(96, 0, 0, [0, 0], [0, 0], info(c)) == -262
    assert deal_difference(162, 0, 0, [0, 0], [0, 0], info(c)) == 352  # capot: 252 + 100
    assert deal_difference(162, 0, 0, [0, 0], [0, 0], info(c), (False, True)) == 262
    assert deal_difference(0, 0, 0, [0, 0], [0, 0], info(c)) == -352  # the defence's capot
    b = Contract(1, CLUBS, 90, 4)  # S10 by team B
    assert deal_difference(95, 1, 1, [0, 0], [0, 0], info(b)) == 522
    cap = Contract(3, SPADES, CAPOT, 2)
    assert deal_difference(162, 1, 1, [0, 0], [0, 0], info(cap)) == 752
    assert deal_difference(140, 1, 1, [0, 0], [0, 0], info(cap)) == -(162 + 500)
    g = Contract(2, HEARTS, GENERALE)
    won_by_2 = ((0, (0, 1, 2, 3), 2),)
    won_by_0 = ((0, (0, 1, 2, 3), 0),)
    assert deal_difference(162, 0, 0, [0, 0], [0, 0], info(g, won_by_2)) == 752
    assert deal_difference(162, 0, 0, [0, 0], [0, 0], info(g, won_by_0)) == -662  # the partner won a trick
    assert deal_difference(162, 0, 0, [0, 0], [0, 0], info(g, won_by_2), bidder_won_all=False) == -662
    assert deal_difference(140, 0, 0, [0, 0], [0, 0], info(g, won_by_2)) == -662
    assert deal_difference(162, 0, 0, [0, 0], [0, 0], info(g, won_by_0), bidder_won_all=True) == 752
    with pytest.raises(ValueError, match="contract"):
        deal_difference(100, 0, 0, [0, 0], [0, 0], info(None))
    with pytest.raises(ValueError, match="contract"):
        deal_difference(100, 1, 1, [0, 0], [0, 0], info(c))
    half = info(c, r=rules.replace(rounding="half_up"))
    assert deal_difference(117, 0, 0, [0, 0], [0, 0], half) == 220 - 50  # 217 -> 220, 45 -> 50


# ----------------------------------------------------------------------------- property
OPTION_VALUES = {
    "belote_counts_for_contract": (True, False), "belote_prenable": (False, True),
    "scoring": ("made_plus_bid", "bid_only"),
    "multiplier_scope": ("contract_only", "whole_score", "ffb_forfait", "bga"),
    "surcoinche_multiplier": (4, 3), "contract_condition": ("reach_bid", "reach_bid_and_beat_defence"),
    "bid_80_means": (80, 82), "fail_base": (162, 160), "defence_capot_base": (252, 162, 160),
    "capot_points": (252, 250), "capot_scoring": ("contract", "flat"), "capot_value": (250, 270),
    "capot_fail_value": (500, 410), "tie_with_defence": ("fail", "litige"), "rounding": ("none", "half_up", "six_up"),
    "generale": (False, True), "generale_value": (500, 1000), "contract_counts_bonuses": (True, False,
                                                                                           "declarations_only"),
}


@st.composite
def coinche_deals(draw):
    opts = {name: draw(st.sampled_from(values)) for name, values in OPTION_VALUES.items()}
    rules = Rules(contract_mode="coinche", declarations="auto", **defined_mix(opts))
    levels = list(range(80, 170, 10)) + [CAPOT] + ([GENERALE] if rules.generale else [])
    level = draw(st.sampled_from(levels))
    k = draw(st.sampled_from((0, 1, 2)))
    taker = draw(st.sampled_from((0, 1, 2, 3)))
    contract = Contract(taker, draw(st.integers(0, 5)), level, (1, 2, rules.surcoinche_multiplier)[k])
    t = TEAM_OF[taker]
    takers_tricks = draw(st.integers(0, 8))
    takers_cards = 0 if takers_tricks == 0 else 152 if takers_tricks == 8 else draw(st.integers(0, 152))
    last = t if takers_tricks == 8 else other_team(t) if takers_tricks == 0 else draw(st.sampled_from((0, 1)))
    bel = (draw(st.sampled_from((0, 20, 40))), draw(st.sampled_from((0, 20, 40))))
    best = draw(st.sampled_from((0, 1)))
    amount = draw(st.sampled_from((0, 20, 50, 70, 100, 150, 200)))
    decl = (amount, 0) if best == 0 else (0, amount)
    won_all = takers_tricks == 8 and draw(st.booleans())
    return SimpleNamespace(rules=rules, contract=contract, t=t, cp=by_team(t, takers_cards, 152 - takers_cards),
                           tricks=by_team(t, takers_tricks, 8 - takers_tricks), last=last, bel=bel, decl=decl,
                           won_all=won_all, reserve=draw(st.sampled_from((0, 0, 80, 81))))


@settings(max_examples=400, deadline=None)
@given(coinche_deals())
def test_property_random_contracts(d):
    rules, contract = d.rules, d.contract
    s = score_coinche_deal(contract, d.cp, d.tricks, d.last, d.bel, d.decl, rules, bidder_won_all=d.won_all,
                           reserve_in=d.reserve)
    t, o = d.t, other_team(d.t)
    assert all(type(p) is int and p >= 0 for p in s.points)
    assert s.reserve_out >= 0 and sum(s.reserve_won) + s.reserve_out >= s.reserve_in
    # §6.2: the decision
    capot = t if d.tricks[t] == 8 else o if d.tricks[o] == 8 else None
    tp = [d.cp[0] + 10 * (d.last == 0), d.cp[1] + 10 * (d.last == 1)]
    if capot is not None:
        tp = [0, 0]
        tp[capot] = rules.capot_points
    assert s.trick_points == tuple(tp)
    cd = rules.contract_counts_bonuses is not False
    total = [tp[x] + d.bel[x] * rules.belote_counts_for_contract + d.decl[x] * cd for x in (0, 1)]
    total[other_team(d.t)] = tp[other_team(d.t)] + d.bel[other_team(d.t)] + d.decl[other_team(d.t)]  # §6.2: Total_D
    if contract.level == CAPOT:
        want = "made" if capot == t else "dedans"
    elif contract.level == GENERALE:
        want = "made" if d.won_all else "dedans"
    else:
        need = 82 if contract.level == 80 and rules.bid_80_means == 82 else contract.level
        beat = rules.contract_condition == "reach_bid_and_beat_defence"
        if total[t] < need or (beat and total[t] < total[o]):
            want = "dedans"
        elif beat and total[t] == total[o]:
            want = "litige" if rules.tie_with_defence == "litige" else "dedans"
        else:
            want = "made"
    assert s.outcome == want
    # the reserve goes to the deal's winner
    if want == "made":
        assert s.reserve_won[t] == d.reserve and s.reserve_out == 0
    elif want == "dedans":
        assert s.reserve_won[o] == d.reserve and s.reserve_out == 0
        # a failed contract leaves the takers at most their belote
        assert s.points[t] <= d.bel[t]
    else:
        assert s.reserve_out >= d.reserve and s.reserve_won == (0, 0)
    # rounding: every deal score is a multiple of ten
    if rules.rounding != "none":
        assert all((s.points[x] - s.reserve_won[x]) % 10 == 0 for x in (0, 1))
        exact = score_coinche_deal(contract, d.cp, d.tricks, d.last, d.bel, d.decl, rules, bidder_won_all=d.won_all,
                                   reserve_in=d.reserve, rounded=False)
        assert exact.outcome == s.outcome
        assert all(abs(exact.points[x] - s.points[x]) <= 5 for x in (0, 1))
    # §6.3: made, not coinched, points faits + demandés, exact: the whole deal is shared
    plain = (rules.rounding == "none" and rules.scoring == "made_plus_bid"
             and rules.multiplier_scope == "contract_only" and contract.multiplier == 1
             and not (contract.level in (CAPOT, GENERALE) and rules.capot_scoring == "flat"))
    if plain and want == "made":
        value = (rules.capot_value if contract.level == CAPOT else rules.generale_value if contract.level == GENERALE
                 else contract.level)
        base = rules.capot_points if capot is not None else 162
        assert sum(s.points) - d.reserve == base + value + sum(d.bel) + sum(d.decl)
    # the same deal with the teams' roles swapped scores the mirror image
    mirror = Contract(_seat_of_other_team(contract.taker), contract.denomination, contract.level, contract.multiplier)
    m = score_coinche_deal(mirror, d.cp[::-1], d.tricks[::-1], other_team(d.last), d.bel[::-1], d.decl[::-1], rules,
                           bidder_won_all=d.won_all, reserve_in=d.reserve)
    assert m.points == s.points[::-1] and m.outcome == s.outcome and m.reserve_out == s.reserve_out


def _seat_of_other_team(seat):
    from belote_env.table import next_seat

    return next_seat(seat)


def test_defence_total_always_holds_its_belote_under_beat_defence():
    """§6.2: ``Total_D = P_D + B_D + A_D`` whatever counts for the takers. 100♥ by team
    0 under reach_bid_and_beat_defence with belote_counts_for_contract false: takers 100
    trick points (reach 100); defence 62 + its belote 20 = 82 < 100: made. With the
    defence at 81 + 20 = 101 > 100 (takers 81: below the bid anyway) it fails; the case
    that tells the rule: takers 91 reach a 90 contract, defence 71 + 20 = 91: a tie, which
    fails (tie_with_defence fail), while leaving the defence's belote out (71) would make it."""
    rules = Rules(contract_mode="coinche", contract_condition="reach_bid_and_beat_defence",
                  belote_counts_for_contract=False)
    c = Contract(0, 1, 90, 1)
    s = score_coinche_deal(c, (81, 71), (5, 3), 0, (0, 20), (0, 0), rules)  # takers 81 + 10 = 91
    assert s.trick_points == (91, 71) and s.outcome == "dedans"
    s = score_coinche_deal(c, (82, 70), (5, 3), 0, (0, 20), (0, 0), rules)  # takers 92, defence 70 + 20 = 90
    assert s.outcome == "made"
