"""The driver refuses decks and limits that would silently break a duplicate match."""

import numpy as np
import pytest

from belote_env import GameState, Rules
from belote_env.actions import PASS, TAKE
from belote_env.dealing import DealError, deck_for_final_hands
from belote_env.driver import RandomPolicy, play_deal, play_game


class _Passer:
    name = "passer"

    def act(self, info):
        return PASS if PASS in info.legal_actions else info.legal_actions[0]


@pytest.mark.parametrize("bad, why", [
    (lambda d, r: None, "must return a list or tuple of the 32 card ids, got NoneType"),
    (lambda d, r: set(range(32)), "got set"),
    (lambda d, r: (c for c in range(32)), "got generator"),
    (lambda d, r: list(range(31)), "deck must hold each card id 0..31 exactly once"),
])
def test_a_bad_deck_from_decks_is_refused_at_the_redeal(bad, why):
    st = GameState(Rules(target=None), seed=1)
    with pytest.raises(DealError, match=why):
        play_deal(st, [_Passer()] * 4, decks=bad)  # eight passes: the redeal asks decks(0, 1)


@pytest.mark.parametrize("value", [0, -1, True, 2.5, "3"])
def test_max_voids_must_be_a_positive_int(value):
    with pytest.raises(ValueError, match=f"max_voids must be an int >= 1 or None, got {value!r}"):
        play_deal(GameState(seed=1), [RandomPolicy(0)] * 4, max_voids=value)
    with pytest.raises(ValueError, match="max_voids must be an int >= 1 or None"):
        play_game(GameState(seed=1), [RandomPolicy(0)] * 4, max_voids=value)


def test_final_hands_may_be_numpy_masks():
    st = GameState(seed=3)
    while TAKE not in st.legal_actions():
        st.apply(st.legal_actions()[0])
    st.apply(TAKE)
    deck = deck_for_final_hands([np.uint32(h) for h in st.hands], st.turned_card, st.taker, st.dealer)
    again = GameState(dealer=st.dealer, deck=deck)
    for a in st.actions:
        again.apply(a[1])
    assert again.hands == st.hands


def test_play_until_stops_at_the_learners_turn_and_finish_deal_plays_to_the_end():
    from belote_env.driver import finish_deal, play_until

    st = GameState(Rules(target=None), seed=4)
    pols = [RandomPolicy(s) for s in range(4)]
    seen = []
    play_until(st, pols, until=(2,), after=lambda state, seat, a: seen.append(seat))
    # dealer 0: eldest (seat 1) bids first; seat 2 acts next, or after seat 1 takes and leads
    assert st.dealer == 0 and st.current == 2 and set(seen) == {1} and not st.is_deal_over
    play_until(st, pols, until=(2,))  # seat 2 is to act: nothing is played
    assert st.current == 2 and len(st.actions) == len(seen)
    finish_deal(st, pols)
    assert st.is_deal_over


def test_sides_of_a_deal():
    from belote_env.table import FOUR, Table, sides_of_deal

    assert sides_of_deal(3) == (0, 1, 0, 1) == FOUR.sides(0)
    three = Table(3, ("South", "West", "East"))
    assert three.sides(1) == (1, 0, 1) and three.sides(0) == (0, 1, 1)
