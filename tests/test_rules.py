"""Legal plays and trick winners: RULES.md §4 and the worked examples of §13."""

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
