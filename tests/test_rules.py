"""Legal plays and trick winners: RULES.md §4 and the worked examples of §13."""

import re

import pytest

from belote_env import Rules
from belote_env.cards import ALL_TRUMP, NO_TRUMP, cards_to_str, parse_card, parse_cards
from belote_env.rules import legal_cards, trick_winner

SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3
DEFAULT = Rules()


def legal(hand, trick, contract, rules=DEFAULT):
    return cards_to_str(legal_cards(parse_cards(hand), [parse_card(c) for c in trick.split()], contract, rules), True)


def norm(cards):
    return cards_to_str(parse_cards(cards), True)


CASES = [
    # name, hand, trick (in play order), contract, expected legal
    ("ex4_must_trump", "7S JS AH KC 8H", "10D", SPADES, "7S JS"),
    ("ex4_must_overtrump", "7S JS AH 8C", "10D 9S", SPADES, "JS"),
    ("ex4_undertrump_required", "7S 8S AH 8C", "10D 9S", SPADES, "7S 8S"),
    ("ex4_partner_master_free", "7S JS AH 8C 9H", "AD 7D", SPADES, "7S JS AH 8C 9H"),
    ("ex5_overtrump_on_trump_lead", "7S QS 9S AH", "8S 10S", SPADES, "9S"),
    ("ex5_cannot_overtrump", "7S QS AH", "8S 10S", SPADES, "7S QS"),
    ("follow_suit", "7D KD 9S AH", "10D", SPADES, "7D KD"),
    ("lead_anything", "7D KD 9S", "", SPADES, "7D KD 9S"),
    ("trump_led_void", "7D AH KC", "JS", SPADES, "7D AH KC"),
    ("no_trump_in_hand_discard", "7D AH KC", "10S", HEARTS, "AH"),
    ("no_trumps_at_all_free", "7D 8D KC", "10S", HEARTS, "7D 8D KC"),
    ("partner_ruffed_any_trump_or_card", "7S JS AH", "10D 9S 8D", SPADES, "7S JS AH"),
    ("opponent_overruffed_partner", "7S JS AH", "10D 8S 9S", SPADES, "JS"),
    ("trump_led_partner_winning_still_overtrump", "7S 9S", "JS 8S 10S", SPADES, "7S 9S"),
    ("trump_led_partner_winning_overtrump_10", "7S AS", "8S 10S", SPADES, "AS"),
    ("no_trump_follow", "7D KD AS", "10D", NO_TRUMP, "7D KD"),
    ("no_trump_void_free", "7S AS KH", "10D", NO_TRUMP, "7S AS KH"),
    ("all_trump_beat_winner", "7D 9D KD", "10D", ALL_TRUMP, "9D"),
    ("all_trump_cannot_beat", "7D KD", "9D", ALL_TRUMP, "7D KD"),
    ("all_trump_void_free", "7S KH", "9D", ALL_TRUMP, "7S KH"),
]


@pytest.mark.parametrize("name,hand,trick,contract,expected", CASES, ids=[c[0] for c in CASES])
def test_legal_cards_default(name, hand, trick, contract, expected):
    assert legal(hand, trick, contract) == norm(expected)


def test_partner_master_free_false_seed000():
    # partner (seat led A♦... second seat played 7♦; we are 3rd, partner led and wins): must still trump
    r = Rules(partner_master_free=False)
    assert legal("7S JS AH 8C", "AD 7D", SPADES, r) == norm("7S JS")
    assert legal("7S JS AH 8C", "AD 7D", SPADES) == norm("7S JS AH 8C")
    # partner winning with a ruff: any trump, no need to overtrump
    assert legal("7S 8S AH", "10D 9S 7D", SPADES, r) == norm("7S 8S")


def test_undertrump_discard_allowed():
    r = Rules(undertrump="discard_allowed")
    assert legal("7S 8S AH 8C", "10D 9S", SPADES, r) == norm("7S 8S AH 8C")
    assert legal("7S 8S AH 8C", "10D 9S", SPADES) == norm("7S 8S")
    # overtrump still compulsory when possible
    assert legal("7S JS AH", "10D 9S", SPADES, r) == norm("JS")


def test_two_player_obligations_no_overtrump_on_plain_lead():
    r = Rules(obligations="two_player")
    assert legal("7S JS AH 8C", "10D 9S", SPADES, r) == norm("7S JS")
    assert legal("7S JS AH 8C", "10D 9S", SPADES) == norm("JS")
    # overtrump when trump is led still applies
    assert legal("7S QS 9S AH", "8S 10S", SPADES, r) == norm("9S")


@pytest.mark.parametrize("trick,contract,winner", [
    ("10D 9S 8D AD", SPADES, 1),
    ("10D 9S JS 7S", SPADES, 2),
    ("10D AD 7H JH", SPADES, 1),
    ("8S 10S 9S AS", SPADES, 2),
    ("9H AH 10H 8H", HEARTS, 0),  # 9 of trump beats the ace
    ("KD AC 10D QD", CLUBS, 1),
    ("KD 10D AS QD", NO_TRUMP, 1),
    ("10D 9D JS JD", ALL_TRUMP, 3),
    ("AD 9D 10D 7D", ALL_TRUMP, 1),
])
def test_trick_winner(trick, contract, winner):
    assert trick_winner([parse_card(c) for c in trick.split()], contract) == winner


# ----------------------------------------------------------------------------- coinche option mixes
from belote_env.config import DEPENDENT_OPTIONS, UNDEFINED_MIXES, RuleOptionError  # noqa: E402

#: COINCHE.md §7 "Validation": a value with no effect, the option it needs, and a value of it that makes it act
NO_EFFECT = [
    ("self_overbid", "change_denomination", "passes_to_end 4", {"passes_to_end": 4}),
    ("coincher_partner_speaks", True, "coinche_freezes true", {"coinche_freezes": True}),
    ("generale_value", 1000, "generale true", {"generale": True}),
    ("generale_leads", True, "generale true", {"generale": True}),
    ("capot_value", 270, "capot_bid true", {"capot_bid": True}),
    ("capot_coinchable", False, "capot_bid true", {"capot_bid": True}),
    ("capot_scoring", "flat", "capot_bid true or generale true", {"generale": True}),
    ("capot_fail_value", 410, "capot_bid true and capot_scoring 'flat'", {"capot_bid": True, "capot_scoring": "flat"}),
    ("surcoinche_multiplier", 3, "surcoinche_allowed true", {"surcoinche_allowed": True}),
    ("tie_with_defence", "litige", "contract_condition 'reach_bid_and_beat_defence'",
     {"contract_condition": "reach_bid_and_beat_defence"}),
    ("round_last_deal", True, "rounding 'half_up' or 'six_up'", {"rounding": "six_up"}),
]
#: the option that turns each of them off (so the value has no effect)
OFF = {"self_overbid": {"passes_to_end": 3}, "coincher_partner_speaks": {"coinche_freezes": False}, "generale_value": {}, "generale_leads": {},
       "capot_value": {"capot_bid": False}, "capot_coinchable": {"capot_bid": False},
       "capot_scoring": {"capot_bid": False}, "capot_fail_value": {}, "surcoinche_multiplier": {"surcoinche_allowed": False},
       "tie_with_defence": {}, "round_last_deal": {}}


@pytest.mark.parametrize("name, value, needs, on", NO_EFFECT, ids=[c[0] for c in NO_EFFECT])
def test_coinche_option_without_effect_is_refused_naming_what_it_needs(name, value, needs, on):
    """An option set where it has no effect is an error naming the option it needs; with
    that option set it is accepted."""
    with pytest.raises(RuleOptionError, match=rf"rule option '{name}' applies only with {re.escape(needs)}"):
        Rules(contract_mode="coinche", **OFF[name], **{name: value})
    assert getattr(Rules(contract_mode="coinche", **on, **{name: value}), name) == value
    assert {c[0] for c in NO_EFFECT} == set(DEPENDENT_OPTIONS)


UNDEFINED = [
    ({"multiplier_scope": "ffb_forfait", "fail_base": 160, "surcoinche_multiplier": 3},
     "multiplier_scope 'ffb_forfait' and surcoinche_multiplier 3"),
    ({"multiplier_scope": "ffb_forfait"}, "multiplier_scope 'ffb_forfait' and fail_base 162"),
    ({"multiplier_scope": "ffb_forfait", "fail_base": 160}, "multiplier_scope 'ffb_forfait' and belote_prenable False"),
    ({"multiplier_scope": "bga", "belote_prenable": True}, "multiplier_scope 'bga' and belote_prenable True"),
    ({"scoring": "bid_only", "multiplier_scope": "whole_score"}, "scoring 'bid_only' and multiplier_scope 'whole_score'"),
    ({"scoring": "bid_only", "multiplier_scope": "bga"}, "scoring 'bid_only' and multiplier_scope 'bga'"),
    ({"scoring": "bid_only", "capot_scoring": "flat"}, "scoring 'bid_only' and capot_scoring 'flat'"),
    ({"generale": True, "capot_coinchable": False}, "generale True and capot_coinchable False"),
    ({"generale": True, "denomination_order": "ranked"}, "generale True and denomination_order 'ranked'"),
]


@pytest.mark.parametrize("options, named", UNDEFINED, ids=[n for _, n in UNDEFINED])
def test_coinche_mix_the_rules_pages_do_not_define_is_refused_naming_both(options, named):
    with pytest.raises(RuleOptionError, match=rf"rule options {re.escape(named)} together are not defined"):
        Rules(contract_mode="coinche", **options)
    assert {(o, v) for o, v, *_ in UNDEFINED_MIXES} == {
        ("multiplier_scope", "ffb_forfait"), ("multiplier_scope", "bga"), ("scoring", "bid_only"), ("generale", True)}


def test_defined_neighbours_of_the_refused_mixes_are_accepted():
    """The defined mixes next to the refused ones: ffb_forfait as the FFB profile has it,
    bga with imprenable belote, bid_only alone, a générale under flat scoring."""
    assert Rules(contract_mode="coinche", multiplier_scope="ffb_forfait", fail_base=160,
                 belote_prenable=True).surcoinche_multiplier == 4
    assert Rules(contract_mode="coinche", multiplier_scope="bga").belote_prenable is False
    assert Rules(contract_mode="coinche", scoring="bid_only", belote_prenable=True).scoring == "bid_only"
    assert Rules(contract_mode="coinche", generale=True, capot_scoring="flat").capot_scoring == "flat"


def test_a_rules_file_with_a_key_twice_is_refused_naming_the_key(tmp_path):
    """YAML keeps the last of two equal keys silently; a rules file must give each once."""
    from belote_env import load_rules

    p = tmp_path / "r.yaml"
    p.write_text("target: 500\ntie: litige\ntarget: 700\n")
    with pytest.raises(RuleOptionError, match=r"found the key 'target' twice \(lines 1 and 3\)"):
        load_rules(p)
    p.write_text("target: 500\ntie: litige\n")
    assert load_rules(p).target == 500


@pytest.mark.parametrize("text", ["", "\n", "# only a comment\n", "---\n"])
def test_an_empty_rules_file_is_refused_not_read_as_the_defaults(tmp_path, text):
    from belote_env import load_rules

    p = tmp_path / "r.yaml"
    p.write_text(text)
    with pytest.raises(RuleOptionError, match=f"rules file {p} holds no rule options"):
        load_rules(p)


@pytest.mark.parametrize("preset, override, reset", [
    ("coinche_bga", {"passes_to_end": 3}, "self_overbid"),
    ("coinche_ffb_contree_2016", {"rounding": "none"}, "round_last_deal"),
    ("coinche_ffb_contree_2016", {"capot_bid": False}, "capot_scoring"),
    ("coinche_pagat", {"capot_bid": False}, "capot_coinchable"),
    ("coinche_cannes_2016", {"capot_bid": False}, "capot_value"),
    ("coinche_cannes_2016", {"surcoinche_allowed": False}, "surcoinche_multiplier"),
])
def test_a_profile_option_overridden_resets_the_options_it_carried(preset, override, reset):
    """COINCHE.md §8: any option of a profile can be overridden; a profile option that then
    has no effect goes back to its neutral value (config.DEPENDENT_OPTIONS), while the
    same option given by the user is refused."""
    from belote_env import load_rules
    from belote_env.config import DEPENDENT_OPTIONS

    base = load_rules(preset)
    assert getattr(base, reset) != DEPENDENT_OPTIONS[reset][0]
    r = load_rules(preset, **override)
    assert getattr(r, reset) == DEPENDENT_OPTIONS[reset][0]
    assert all(getattr(r, k) == v for k, v in override.items())
    with pytest.raises(RuleOptionError, match=f"rule option '{reset}' applies only with"):
        load_rules(preset, **override, **{reset: getattr(base, reset)})


def test_yaml_merge_keys_work_in_rules_files(tmp_path):
    from belote_env import load_rules

    p = tmp_path / "r.yaml"
    p.write_text("contract_mode: coinche\n<<: {rounding: half_up, target: 1000}\ntarget: 1500\n")
    r = load_rules(p)
    assert (r.rounding, r.target) == ("half_up", 1500)


def test_a_numpy_integer_rule_option_is_refused_saying_a_python_int_is_needed():
    """Rule options are Python ints (a rules dict is written to JSON as it is): a numpy
    integer, whose value would be allowed, is refused saying so rather than as a bad value."""
    import numpy as np

    for name, value in (("players", np.int64(3)), ("target", np.int32(500))):
        with pytest.raises(RuleOptionError, match=rf"rule option '{name}' got np\.int\d+\({int(value)}\) \(type int\d+: "
                                                  r"rule options take Python ints, int\(value\)\)"):
            Rules(**{name: value})
        assert getattr(Rules(**{name: int(value)}), name) == int(value)
