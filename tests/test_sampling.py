"""Information sets, public constraints and exact hidden-hand sampling (RULES.md §11)."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from belote_env import GameState, Rules
from belote_env.cards import FULL_DECK
from belote_env.inference import public_constraints
from belote_env.sampling import HiddenHandSampler, SamplingError, count_hidden_deals, sample_hidden_hands

RULESETS = [
    Rules(target=None),
    Rules(target=None, partner_master_free=False),
    Rules(target=None, undertrump="discard_allowed"),
    Rules(target=None, obligations="two_player"),
    Rules(target=None, round2_no_trump_all_trump=True),
    Rules(target=None, declarations="auto"),
    Rules(target=None, declarations="choice", belote="optional"),
]


def _position(rules, seed, cut):
    """A state after ``cut`` random decisions of a seeded deal (stops at the deal's end)."""
    rng = random.Random(seed)
    st = GameState(rules, seed=seed, dealer=seed % 4)
    n = 0
    while not st.is_deal_over and n < cut:
        legal = st.legal_actions()
        st.apply(legal[rng.randrange(len(legal))])
        n += 1
    return st


def _replays_identically(st, viewer, hands):
    """Build a deck giving every seat its sampled cards (plus what it played), replay the
    deal's public actions on it: every action must be legal, and the public events equal."""
    if st.denomination < 0:
        return True  # bids do not depend on the cards
    eldest = (st.dealer + 1) % 4
    turned = st.turned_card
    first5, rest = {}, {}
    for s in range(4):
        full = (st.hands[s] if s == viewer else hands[s]) | st.played_by[s]
        cards = sorted(c for c in range(32) if full >> c & 1 and not (s == st.taker and c == turned))
        if s == viewer:  # keep the viewer's own first five cards: it saw them
            own5 = sorted(c for c in st.deck[:20] if full >> c & 1)
            first5[s] = [c for c in cards if c in own5]
            rest[s] = [c for c in cards if c not in own5]
        else:
            first5[s], rest[s] = cards[:5], cards[5:]
    order = [(eldest + i) % 4 for i in range(4)]
    deck = [c for s in order for c in first5[s][:3]] + [c for s in order for c in first5[s][3:]] + [turned]
    deck += [c for s in order for c in rest[s]]
    assert sorted(deck) == list(range(32))
    alt = GameState(st.rules, dealer=st.dealer, deck=deck)
    for seat, action in st.actions:
        assert alt.current == seat
        if action not in alt.legal_actions():
            return False
        alt.apply(action)
    return alt.announcements == st.announcements and alt.declared == st.declared


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rule_i=st_.integers(0, len(RULESETS) - 1), seed=st_.integers(0, 10**6), cut=st_.integers(0, 40),
       sample_seed=st_.integers(0, 10**6))
def test_samples_are_consistent_with_the_information_set(rule_i, seed, cut, sample_seed):
    st = _position(RULESETS[rule_i], seed, cut)
    if st.is_deal_over:
        return
    viewer = st.current
    info = st.information_set(viewer)
    rng = random.Random(sample_seed)
    for _ in range(3):
        deal = sample_hidden_hands(info, rng)
        assert deal.hands[viewer] == st.hands[viewer]
        all_cards = deal.stock | (1 << st.turned_card if st.denomination < 0 else 0)
        for s in range(4):
            assert deal.hands[s] & all_cards == 0
            all_cards |= deal.hands[s] | st.played_by[s]
            if st.denomination >= 0:
                assert deal.hands[s].bit_count() == st.hands[s].bit_count()
        assert all_cards == FULL_DECK
        assert _replays_identically(st, viewer, deal.hands)


@settings(max_examples=60, deadline=None)
@given(rule_i=st_.integers(0, len(RULESETS) - 1), seed=st_.integers(0, 10**6), cut=st_.integers(8, 36))
def test_constraints_hold_for_the_true_deal(rule_i, seed, cut):
    """The real hidden hands always satisfy what the public history implies."""
    st = _position(RULESETS[rule_i], seed, cut)
    for viewer in range(4):
        c = public_constraints(st.information_set(viewer))
        for s in range(4):
            if s != viewer:
                assert c.cannot[s] & st.hands[s] == 0
                assert c.known[s] & ~st.hands[s] == 0


def test_no_card_ever_dealt_to_a_seat_that_cannot_hold_it():
    rng = random.Random(0)
    for seed in range(40):
        st = _position(Rules(target=None), seed, 25)
        if st.is_deal_over:
            continue
        info = st.information_set(st.current)
        c = public_constraints(info)
        for _ in range(50):
            deal = sample_hidden_hands(info, rng)
            for s in range(4):
                if s != info.seat:
                    assert deal.hands[s] & c.cannot[s] == 0
                    assert deal.hands[s] & c.known[s] == c.known[s]


def test_exact_when_few_deals_remain():
    # Build a late position: play a deal to 7 tricks, then from a seat's view the last
    # cards of the others are heavily constrained; the sampler must still find them and
    # the count must match an enumeration.
    import itertools

    rng = random.Random(3)
    for seed in range(200):
        st = _position(Rules(target=None), seed, 4 + 28)  # bids + 7 tricks (roughly)
        if st.is_deal_over or st.denomination < 0 or len(st.tricks) < 6:
            continue
        info = st.information_set(st.current)
        c = public_constraints(info)
        others = [s for s in range(4) if s != info.seat]
        hidden = [x for x in range(32) if c.hidden >> x & 1]
        # brute-force count of assignments respecting sizes and constraints
        count = 0
        sizes = [c.sizes[s] for s in others]
        for perm in set(itertools.permutations([0] * sizes[0] + [1] * sizes[1] + [2] * sizes[2])):
            ok = all(not c.cannot[others[perm[i]]] >> x & 1 for i, x in enumerate(hidden))
            ok = ok and all(not (c.known[s] >> x & 1) or others[perm[i]] == s
                            for i, x in enumerate(hidden) for s in others)
            count += ok
        assert count_hidden_deals(info) == count
        seen = set()
        for _ in range(200):
            d = sample_hidden_hands(info, rng)
            seen.add(tuple(d.hands))
        assert len(seen) == count  # every consistent deal is reachable, nothing else
        return
    pytest.fail("no late position found")


def test_inconsistent_information_set_raises():
    import dataclasses

    st = _position(Rules(target=None), 1, 20)
    assert st.denomination >= 0 and not st.is_deal_over
    info = st.information_set(st.current)
    other = (info.seat + 1) % 4
    sizes = list(info.hand_sizes)
    sizes[other] += 1  # one more hidden card than exists
    bad = dataclasses.replace(info, hand_sizes=tuple(sizes))
    with pytest.raises(SamplingError, match="no deal"):
        sample_hidden_hands(bad, random.Random(0))


def test_belote_reveal_and_turned_card_known():
    for seed in range(3000):
        st = GameState(Rules(target=None), seed=seed)
        rng = random.Random(seed)
        while not st.is_deal_over:
            if st.announcements and st.announcements[-1][1] == "belote":
                seat, _, c = st.announcements[-1]
                other = c - 1 if c & 7 == 6 else c + 1  # K <-> Q
                viewer = (seat + 1) % 4
                info = st.information_set(viewer)
                cons = public_constraints(info)
                if st.hands[seat] >> other & 1:
                    assert cons.known[seat] >> other & 1
                    for _ in range(10):
                        assert sample_hidden_hands(info, rng).hands[seat] >> other & 1
                    return
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
    pytest.fail("no belote announcement found")


def test_taker_holds_turned_card_in_samples():
    st = GameState(Rules(target=None), seed=0, dealer=0)
    st.apply(33)  # eldest takes
    viewer = 2
    info = st.information_set(viewer)
    rng = random.Random(1)
    for _ in range(20):
        assert sample_hidden_hands(info, rng).hands[st.taker] >> st.turned_card & 1


@settings(max_examples=60, deadline=None)
@given(rule_i=st_.integers(0, len(RULESETS) - 1), seed=st_.integers(0, 10**6), cut=st_.integers(0, 40),
       sample_seed=st_.integers(0, 10**6))
def test_a_sampler_keeps_its_counts_and_draws_as_sample_hidden_hands(rule_i, seed, cut, sample_seed):
    """``HiddenHandSampler`` computes the exact counts once: its draws are the deals that
    ``sample_hidden_hands`` gives from the same random numbers, one after another."""
    st = _position(RULESETS[rule_i], seed, cut)
    if st.is_deal_over:
        return
    info = st.information_set(st.current)
    sampler, a, b = HiddenHandSampler(info), random.Random(sample_seed), random.Random(sample_seed)
    for _ in range(6):
        assert sampler.draw(a) == sample_hidden_hands(info, b)
    assert a.getstate() == b.getstate()


def _small_positions(rules, want, seeds=range(400)):
    """Random-play states of ``rules`` (two or three seats) at which ``want(state)`` holds,
    one per seed at most."""
    for seed in seeds:
        rng = random.Random(seed)
        st = GameState(rules, seed=seed, dealer=seed % rules.players)
        while not st.is_deal_over:
            if want(st):
                yield st
                break
            st.apply(rng.choice(st.legal_actions()))


@pytest.mark.parametrize("compare", ["value_then_top", "length_then_top"])
@pytest.mark.parametrize("players", [2, 3])
def test_drawn_hands_hold_the_combination_values_announced(players, compare):
    """TWO_THREE.md §2.6: a seat announces the value of its best combination (20 or 50,
    whatever ``sequence_compare`` compares first: A12); in every drawn deal a seat that
    announced holds a best combination of that value (its cards now and those played
    since), the scoring seat holds exactly the combinations it showed, and the announced
    combinations give the public outcome (under ``length_then_top`` a four- and a
    five-card run both announce 50: the values alone do not imply it)."""
    from belote_env.declarations import combination_key, combination_winner, combinations_of

    rules = Rules(players=players, declarations="choice", sequence_compare=compare)
    checked = 0
    for st in _small_positions(rules, lambda s: s.phase == 1 and s.step == 3 and any(d[0] for d in s.declared)):
        for viewer in range(players):
            info = st.information_set(viewer)
            assert all(d[0] in (0, 20, 50) for d in info.declared), info.declared
            sampler, rng = HiddenHandSampler(info), random.Random(checked)
            for _ in range(20):
                world = sampler.draw(rng).hands
                announced = []
                for seat in range(players):
                    combos = combinations_of(world[seat] | info.played_by[seat], info.denomination, rules)
                    value = info.declared[seat][0]
                    announced.append(combos if value else ())
                    if value:
                        assert combos and combos[0].points == value
                    if seat == info.decl_winner:
                        shown = 0
                        for d in combos:
                            shown |= d.cards
                        assert shown == info.decl_cards
                winner = combination_winner(announced, info.denomination, rules)
                assert (-1 if winner is None else winner) == info.decl_winner
                first = {s: combination_key(c[0], info.denomination, rules)[:-2] for s, c in enumerate(announced) if c}
                tied = [s for s in first if first[s] == max(first.values())]
                for s in first:  # the top cards shown: exactly those tied on what is compared before them
                    assert (info.declared[s][1] != -1) == (len(tied) > 1 and s in tied)
            checked += 1
    assert checked >= 10


def test_a_drawn_world_keeps_the_length_a_tie_would_have_shown():
    """``length_then_top``, three seats: seat 0 announced a four-card run (50), seat 1 a
    five-card run (50, the winner), seat 2 a tierce; no top card was shown, so no seat tied
    seat 1 on length (TWO_THREE.md §2.6). No drawn world gives seat 0 a five-card run."""
    from belote_env.declarations import combinations_of

    rules = Rules(players=3, declarations="auto", sequence_compare="length_then_top")
    rng = random.Random(25)
    st = GameState(rules, seed=25, dealer=25 % 3)
    while not (st.phase >= 1 and st.step == 3):
        st.apply(rng.choice(st.legal_actions()))
    info = st.information_set(1)
    assert info.declared == ((50, -1, 0), (50, -1, 0), (20, -1, 0)) and info.decl_winner == 1
    assert combinations_of(st.hands[0] | info.played_by[0], info.denomination, rules)[0].length == 4
    sampler, draws = HiddenHandSampler(info), random.Random(0)
    for _ in range(2000):
        hand = sampler.draw(draws).hands[0] | info.played_by[0]
        assert combinations_of(hand, info.denomination, rules)[0].length == 4


def test_a_turned_card_taken_with_the_chien_is_never_drawn_for_another_seat():
    """``three_player_deal="10_each"`` (TWO_THREE.md §4 A26): the turned card goes to the
    taker with the chien; once he has discarded two cards nobody sees whether it is among
    them, but it is in his hand or the discards: never another seat's."""
    rules = Rules(players=3, three_player_deal="10_each")
    checked = 0
    for st in _small_positions(rules, lambda s: s.phase == 1 and s.discarded.bit_count() == 2):
        for viewer in range(3):
            if viewer == st.taker:
                continue
            info = st.information_set(viewer)
            rng = random.Random(checked)
            for _ in range(30):
                hands = sample_hidden_hands(info, rng).hands
                for s in range(3):
                    if s != st.taker:
                        assert not hands[s] >> info.turned_card & 1
            checked += 1
    assert checked >= 20


def test_the_seven_of_trumps_nobody_exchanged_is_never_drawn_for_a_seat():
    """``dix_exchange="auto"`` (TWO_THREE.md A9): the holder of the seven of trumps exchanges
    it for the turned card at once; when nobody did, nobody held it."""
    checked = 0
    for players in (2, 3):
        rules = Rules(players=players, dix_exchange="auto")
        want = lambda s: (s.phase == 1 and s.exchanged < 0 and s.denomination == s.turned_card >> 3  # noqa: E731
                          and s.turned_card & 7 != 0)
        for st in _small_positions(rules, want, seeds=range(150)):
            seven = 1 << (8 * st.denomination)
            for viewer in range(players):
                info = st.information_set(viewer)
                if info.hand & seven:
                    continue
                rng = random.Random(checked)
                for _ in range(20):
                    hands = sample_hidden_hands(info, rng).hands
                    assert not any(hands[s] & seven for s in range(players) if s != viewer)
                checked += 1
    assert checked >= 30
