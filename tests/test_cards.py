import pytest

from belote_env.cards import (
    ALL_TRUMP, BEATS, NO_TRUMP, POINTS, POINTS_BY_ALL_TRUMP_OPTION, STRENGTH, SUIT_MASK, card_to_str,
    cards_of, parse_card, parse_cards,
)


@pytest.mark.parametrize("text,expected", [
    ("J♠", 4), ("JS", 4), ("js", 4), ("10H", 11), ("TH", 11), ("10♥", 11), ("7S", 0), ("A♣", 31),
    ("9D", 18), ("Q♦", 21), ("K♣", 30), ("VS", 4),
])
def test_parse_card(text, expected):
    assert parse_card(text) == expected


@pytest.mark.parametrize("bad", ["", "J", "1S", "JX", "11H", "S J", "AA"])
def test_parse_card_rejects_bad_text(bad):
    with pytest.raises(ValueError, match="cannot parse card"):
        parse_card(bad)


def test_print_roundtrip_every_card():
    for c in range(32):
        assert parse_card(card_to_str(c)) == c
        assert parse_card(card_to_str(c, ascii=True)) == c
    assert card_to_str(11) == "10♥" and card_to_str(4, ascii=True) == "JS"
    with pytest.raises(ValueError):
        card_to_str(32)


def test_parse_cards_mask_and_duplicates():
    m = parse_cards("J♠ 9♠, A♥")
    assert cards_of(m) == [2, 4, 15]
    with pytest.raises(ValueError, match="twice"):
        parse_cards("JS J♠")


def test_point_tables_rules_1():
    # RULES.md §1: trump J20 9 14 A11 10 10 K4 Q3 = 62, plain A11 10 10 K4 Q3 J2 = 30
    hearts = 1
    assert [POINTS[hearts][parse_card(t + "H")] for t in ("J", "9", "A", "10", "K", "Q", "8", "7")] == [20, 14, 11, 10, 4, 3, 0, 0]
    assert sum(POINTS[hearts][c] for c in range(8, 16)) == 62
    assert sum(POINTS[hearts][c] for c in range(0, 8)) == 30
    assert [POINTS[NO_TRUMP][parse_card(t + "S")] for t in ("A", "10", "K", "Q", "J")] == [19, 10, 4, 3, 2]
    pagat = [POINTS[ALL_TRUMP][parse_card(t + "S")] for t in ("J", "9", "A", "10", "K", "Q")]
    assert pagat == [14, 9, 6, 5, 3, 1]
    ffb = [POINTS_BY_ALL_TRUMP_OPTION["ffb2015"][ALL_TRUMP][parse_card(t + "S")] for t in ("J", "9", "A", "10", "K", "Q")]
    assert ffb == [13, 9, 6, 5, 3, 2]
    for k in range(6):
        assert sum(POINTS[k]) == 152


def test_orders():
    spades = 0
    trump_order = sorted(range(8), key=lambda c: -STRENGTH[spades][c])
    assert [card_to_str(c, True) for c in trump_order] == ["JS", "9S", "AS", "10S", "KS", "QS", "8S", "7S"]
    plain_order = sorted(range(8, 16), key=lambda c: -STRENGTH[spades][c])
    assert [card_to_str(c, True) for c in plain_order] == ["AH", "10H", "KH", "QH", "JH", "9H", "8H", "7H"]
    assert BEATS[spades][parse_card("10S")] == parse_cards("AS 9S JS")
    assert SUIT_MASK[2] == parse_cards("7D 8D 9D 10D JD QD KD AD")


def test_action_to_string_strict():
    import numpy as np

    from belote_env.actions import EXTENDED_NUM_ACTIONS, PROPOSAL_NUM_ACTIONS, action_to_string

    assert action_to_string(np.int64(33)) == "take"
    assert action_to_string(34) == "name spades" and action_to_string(99) == "bid capot all-trump"
    assert action_to_string(112) == "bid generale spades" and action_to_string(411) == "bid 650 all-trump"
    assert all(action_to_string(i) for i in range(EXTENDED_NUM_ACTIONS))
    assert action_to_string(EXTENDED_NUM_ACTIONS) == "agree redeal" and action_to_string(413) == "refuse redeal"
    for bad in (3.7, "5", True, -1, PROPOSAL_NUM_ACTIONS):
        with pytest.raises(ValueError, match="action id must be an int"):
            action_to_string(bad)
