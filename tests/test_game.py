"""The engine: dealing, bidding, completion, play, scoring and game end (RULES.md §2-§8)."""

import os
import random
import subprocess
import sys

import pytest

from belote_env import GameState, IllegalActionError, Phase, Rules, RuleOptionError
from belote_env.actions import NAME_CONTRACT, NUM_ACTIONS, PASS, TAKE
from belote_env.cards import FULL_DECK, parse_card
from tests.conftest import play_random_deal

DECK = list(range(32))  # dealer 0: eldest 1 gets 0,1,2 then 12,13; seat 2 gets 3,4,5,14,15; ...


def test_deal_packets_and_turned_card():
    st = GameState(deck=DECK, dealer=0)
    # packets of 3 then 2 from eldest (seat 1)
    assert st.hands[1] == sum(1 << c for c in (0, 1, 2, 12, 13))
    assert st.hands[2] == sum(1 << c for c in (3, 4, 5, 14, 15))
    assert st.hands[3] == sum(1 << c for c in (6, 7, 8, 16, 17))
    assert st.hands[0] == sum(1 << c for c in (9, 10, 11, 18, 19))
    assert st.turned_card == 20 and list(st.stock) == list(range(21, 32))
    assert st.current_seat == 1 and st.legal_actions() == (PASS, TAKE)


def test_take_completes_deal_taker_gets_turned_card_plus_two():
    st = GameState(deck=DECK, dealer=0)
    st.apply(PASS)  # seat 1
    st.apply(TAKE)  # seat 2 takes diamonds (turned card 20 = 7♦)
    assert st.denomination == 2 and st.taker == 2 and st.phase == Phase.PLAY
    # completion from eldest (1): 1 gets 21,22,23; taker 2 gets 24,25; 3 gets 26,27,28; 0 gets 29,30,31
    assert st.hands[1] >> 21 & 7 == 7
    assert st.hands[2] & (1 << 20) and st.hands[2] >> 24 & 3 == 3
    assert st.hands[3] >> 26 & 7 == 7 and st.hands[0] >> 29 & 7 == 7
    assert [h.bit_count() for h in st.hands] == [8, 8, 8, 8]
    assert st.hands[0] | st.hands[1] | st.hands[2] | st.hands[3] == FULL_DECK
    assert st.current_seat == 1  # eldest leads whoever took (RULES.md §3.6)


def test_round_two_names_other_suits_only():
    st = GameState(deck=DECK, dealer=0)
    for _ in range(4):
        st.apply(PASS)
    assert st.auction.bid_round == 2 and st.current_seat == 1
    assert st.legal_actions() == (PASS, NAME_CONTRACT + 0, NAME_CONTRACT + 1, NAME_CONTRACT + 3)
    with pytest.raises(IllegalActionError):
        st.apply(NAME_CONTRACT + 2)  # the turned suit
    with pytest.raises(IllegalActionError):
        st.apply(NAME_CONTRACT + 4)  # no-trump needs round2_no_trump_all_trump
    st.apply(NAME_CONTRACT + 3)
    assert st.denomination == 3 and st.taker == 1


def test_round_two_no_trump_all_trump_option():
    st = GameState(Rules(round2_no_trump_all_trump=True), deck=DECK, dealer=0)
    for _ in range(4):
        st.apply(PASS)
    assert NAME_CONTRACT + 4 in st.legal_actions() and NAME_CONTRACT + 5 in st.legal_actions()


@pytest.mark.parametrize("option,next_dealer", [("same_dealer", 0), ("next_dealer", 1)])
def test_eight_passes_void_and_redeal(option, next_dealer):
    st = GameState(Rules(all_pass_redeal=option), deck=DECK, dealer=0)
    for _ in range(8):
        st.apply(PASS)
    assert st.is_deal_over and st.void and st.deal_score is None and st.scores == [0, 0]
    st.next_deal()
    assert st.dealer == next_dealer and st.phase == Phase.BIDDING and st.deal_number == 0


@pytest.mark.parametrize("rules,dealer,void,redeal,want", [
    (Rules(), 3, False, False, 0),  # a played deal: the next seat (RULES.md §2)
    (Rules(all_pass_redeal="same_dealer"), 2, True, False, 2),  # §3.4
    (Rules(all_pass_redeal="next_dealer"), 2, True, False, 3),
    (Rules(players=3), 2, True, False, 0),  # two and three seats: a void deal always moves on
    (Rules(players=3, redeal_dealer="same"), 1, True, True, 1),  # an agreed redeal (TWO_THREE.md A3)
    (Rules(players=2, redeal_dealer="elder"), 1, True, True, 0),
])
def test_dealer_after(rules, dealer, void, redeal, want):
    """The next deal's dealer, as ``GameState.next_deal`` and the batched matches move it."""
    from belote_env.game import dealer_after

    assert dealer_after(rules, dealer, void=void, redeal=redeal) == want


def test_dealer_rotates_after_played_deal():
    st = GameState(seed=3, dealer=2)
    rng = random.Random(0)
    while st.void or not st.is_deal_over:
        if st.is_deal_over:
            st.next_deal()
        play_random_deal(st, rng)
    st.next_deal()
    assert st.dealer == 3 and st.current_seat == 0


def test_invariants_over_random_deals():
    rng = random.Random(12345)
    played = 0
    for g in range(300):
        st = GameState(seed=g, dealer=g % 4)
        while not st.is_game_over:
            while not st.is_deal_over:
                legal = st.legal_actions()
                assert legal, "legal set never empty"
                if st.phase == Phase.PLAY:
                    # every legal card is in the acting seat's hand
                    assert all(st.hands[st.current] >> c & 1 for c in legal)
                    # 32 cards conserved: hands + played are a partition of the deck
                    total = 0
                    for s in range(4):
                        assert st.hands[s] & st.played_by[s] == 0
                        total += st.hands[s].bit_count() + st.played_by[s].bit_count()
                    assert total == 32
                st.apply(legal[rng.randrange(len(legal))])
            if not st.void:
                played += 1
                s = st.deal_score
                assert sum(st.card_points) == 152
                assert sum(s.trick_points) == (252 if s.capot is not None else 162)
                assert sum(st.tricks_won) == 8
                assert all(st.played_by[x].bit_count() == 8 for x in range(4))
            if not st.is_game_over:
                st.next_deal()
        assert max(st.scores) >= 1000 and st.scores[0] != st.scores[1]
        assert st.winner == (0 if st.scores[0] > st.scores[1] else 1)
        if played > 3000:
            break
    assert played > 1000


def test_belote_auto_announced_and_scored():
    # find a seeded deal where someone holds K+Q of trump, play it out, check the +20
    rng = random.Random(7)
    for seed in range(2000):
        st = GameState(Rules(target=None), seed=seed)
        play_random_deal(st, rng)
        if st.void or not st.belote_pairs:
            continue
        (seat, suit), = st.belote_pairs
        kinds = [k for s, k, _ in st.announcements if s == seat]
        assert kinds == ["belote", "rebelote"]
        assert st.deal_score.belote[seat & 1] == 20 and st.deal_score.belote[1 - (seat & 1)] == 0
        return
    pytest.fail("no deal with belote found")


def test_belote_optional_announce_or_decline():
    """RULES.md §5 belote: optional: announcing is a choice made with the card; declining
    is playing the card without it, and the other seats cannot tell the difference."""
    from belote_env.actions import ANNOUNCE_BELOTE

    rng = random.Random(1)
    outcomes = {True: 0, False: 0}
    for seed in range(4000):
        st = GameState(Rules(target=None, belote="optional"), seed=seed)
        announce = bool(seed % 2)
        while not st.is_deal_over:
            legal = st.legal_actions()
            if ANNOUNCE_BELOTE in legal:
                seat = st.current
                others = {s: st.information_set(s) for s in range(4) if s != seat}
                if announce:
                    st.apply(ANNOUNCE_BELOTE)
                    assert all(st.information_set(s) == others[s] for s in others), "announce step is hidden"
                    assert st.current == seat
                    assert all(c & 7 in (5, 6) for c in st.legal_actions())
                    continue
                kq = [c for c in legal if c < 32 and c & 7 in (5, 6)]
                st.apply(kq[0])
                continue
            st.apply(legal[rng.randrange(len(legal))])
        if st.deal_score is None or not st.belote_pairs:
            continue
        seat, suit = st.belote_pairs[0]
        kinds = [k for s, k, _ in st.announcements if s == seat]
        if announce and kinds:
            assert kinds == ["belote", "rebelote"]
            assert st.deal_score.belote[seat & 1] == 20
            outcomes[True] += 1
        elif not announce:
            assert kinds == [] and st.deal_score.belote == (0, 0)
            outcomes[False] += 1
        if min(outcomes.values()) >= 5:
            return
    pytest.fail(f"belote choice not reached often enough: {outcomes}")


def test_belote_auto_never_offers_announce():
    from belote_env.actions import ANNOUNCE_BELOTE

    rng = random.Random(2)
    for seed in range(300):
        st = GameState(Rules(target=None), seed=seed)
        while not st.is_deal_over:
            legal = st.legal_actions()
            assert ANNOUNCE_BELOTE not in legal
            st.apply(legal[rng.randrange(len(legal))])


def test_game_target_and_max_deals():
    rng = random.Random(5)
    st = GameState(Rules(target=None), seed=1)
    while not st.is_game_over:
        play_random_deal(st, rng)
        if st.void:
            st.next_deal()
    assert st.deal_number == 1
    for seed in range(20):
        st = GameState(Rules(target=5000, max_deals=3), seed=seed)
        history = []
        while not st.is_game_over:
            play_random_deal(st, rng)
            if not st.void:
                history.append(tuple(st.scores))
            if not st.is_game_over:
                st.next_deal()
        # the game ends at the first played deal >= 3 whose totals differ (equal totals play on)
        first = next(i for i, sc in enumerate(history) if i >= 2 and sc[0] != sc[1])
        assert len(history) == first + 1 == st.deal_number
        assert st.winner == (0 if st.scores[0] > st.scores[1] else 1)


def test_litige_reserve_carried_in_game():
    rng = random.Random(11)
    for seed in range(20000):
        st = GameState(Rules(target=100000), seed=seed)
        play_random_deal(st, rng)
        if st.void or st.deal_score.outcome != "litige":
            continue
        s = st.deal_score
        assert st.reserve == s.reserve_out > 0
        st.next_deal()
        while st.void or not st.is_deal_over:
            if st.is_deal_over:
                st.next_deal()
            play_random_deal(st, rng)
        n = st.deal_score
        assert n.reserve_in == s.reserve_out
        if n.outcome != "litige":
            assert sum(n.reserve_won) == s.reserve_out
        return
    pytest.fail("no litige found")


def test_illegal_actions_raise_clear_errors():
    st = GameState(deck=DECK, dealer=0)
    with pytest.raises(IllegalActionError, match=r"illegal action 5 by seat 1: .*legal ids: \[32 \(pass\), 33 \(take\)\]"):
        st.apply(5)
    with pytest.raises(IllegalActionError, match="out of range"):
        st.apply(NUM_ACTIONS)
    with pytest.raises(IllegalActionError, match="out of range"):
        st.apply(-1)
    with pytest.raises(IllegalActionError, match="must be an int"):
        st.apply("take")
    st.apply(TAKE)
    # seat 1 leads; 9♦? not in hand: card 18 belongs to seat 3
    with pytest.raises(IllegalActionError, match="not in seat 1's hand") as e:
        st.apply(parse_card("8D"))
    assert e.value.seat == 1 and 0 in e.value.legal
    # the message must not reveal who holds the card
    assert "seat 3" not in str(e.value)
    assert st.actions == [(1, TAKE)]  # state unchanged


def test_apply_after_deal_over_raises():
    st = GameState(Rules(target=None), seed=0)
    play_random_deal(st, random.Random(0))
    with pytest.raises(IllegalActionError, match=r"illegal action 32: the deal is over.*legal ids: \[\]"):
        st.apply(PASS)


def test_unknown_and_bad_rule_options():
    with pytest.raises(RuleOptionError, match="unknown rule option 'trumps'"):
        Rules.from_dict({"trumps": 3})
    with pytest.raises(RuleOptionError, match=r"'undertrump' got 'maybe'; allowed values: 'required', 'discard_allowed'"):
        Rules(undertrump="maybe")
    with pytest.raises(RuleOptionError, match="target"):
        Rules(target=0)
    with pytest.raises(RuleOptionError, match="partner_master_free"):
        Rules(partner_master_free=1)


def test_clone_is_independent():
    st = GameState(seed=4)
    st.apply(st.legal_actions()[0])
    c = st.clone()
    c.apply(c.legal_actions()[0])
    assert len(st.actions) == 1 and len(c.actions) == 2


_SCRIPT = """
import random
from belote_env import GameState
st = GameState(seed=99)
rng = random.Random(3)
for _ in range(3):
    while not st.is_deal_over:
        la = st.legal_actions(); st.apply(la[rng.randrange(len(la))])
    st.next_deal()
print(st.deck, st.scores, st.actions)
"""


def test_same_seed_same_game_across_processes():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    outs = []
    for hashseed in ("0", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": hashseed, "PYTHONPATH": root}
        outs.append(subprocess.run([sys.executable, "-c", _SCRIPT], env=env, capture_output=True, text=True, check=True).stdout)
    assert outs[0] == outs[1] and len(outs[0]) > 100


def test_bad_constructor_arguments():
    import numpy as np

    with pytest.raises(ValueError, match="dealer must be a seat"):
        GameState(dealer=1.0)
    with pytest.raises(ValueError, match="dealer must be a seat"):
        GameState(dealer=True)
    with pytest.raises(ValueError, match="deck must be a sequence of 32 int"):
        GameState(deck=[float(i) for i in range(32)])
    with pytest.raises(ValueError, match="exactly once"):
        GameState(deck=[0] * 32)
    st = GameState(deck=np.arange(32), dealer=np.int64(1))
    assert type(st.deck[0]) is int and type(st.dealer) is int
    with pytest.raises(ValueError, match="seat must be a seat"):
        st.information_set(True)
    with pytest.raises(RuleOptionError, match="unknown rule option 'foo'"):
        Rules(foo=1)


@pytest.mark.parametrize("deck", [[0] * 32, list(range(31)), [float(i) for i in range(32)], 5, "JS" * 16])
def test_next_deal_bad_deck_leaves_state_unchanged(deck):
    st = GameState(seed=1, dealer=0)
    play_random_deal(st, random.Random(0))
    before = (st.dealer, st.phase, st.deck, st.hands, len(st.deal_log))
    with pytest.raises(ValueError, match=r"deck must (be a sequence of 32 int card ids|hold each card id 0\.\.31)"):
        st.next_deal(deck=deck)
    assert (st.dealer, st.phase, st.deck, st.hands, len(st.deal_log)) == before
    st.next_deal(deck=list(range(32)))
    assert st.dealer == 1 and st.deck == tuple(range(32))


def test_apply_non_int_action_is_illegal_not_type_error():
    import numpy as np

    st = GameState(seed=0)
    for bad in (np.array([32]), np.array([32, 33]), 32.0, np.True_, None, "32"):
        with pytest.raises(IllegalActionError, match=r"illegal action .* by seat \d: an action id must be an int; "
                                                     r"legal ids: \["):
            st.apply(bad)
    st.apply(np.array(32))  # a 0-d integer array is an index
    assert st.actions[-1][1] == 32
