"""The expert tier in coinche (policies/search.py, docs/COINCHE.md): legal actions under
every coinche preset, card values scored as the coinche deal under the contract (a step
in the takers' points, COINCHE.md §9), the auction search in hand-checked positions, and
determinism for a seed."""

import random
from dataclasses import replace

import numpy as np
import pytest

from belote_env import GameState, InfoSet, load_rules, preset_names
from belote_env.auction import new_auction
from belote_env.actions import COINCHE, PASS, bid_denomination, coinche_bid_action, is_coinche_bid, num_actions
from belote_env.cards import Suit, parse_card, parse_cards
from belote_env.sampling import HiddenHandSampler, sample_hidden_hands
from belote_env.solver import Position, Solver, position_of
from belote_env.table import TEAM_OF, eldest_of, seats_from, team_of
from policies.base import reseed
from policies.normal import NormalPolicy
from policies.search import EXPERT, STOP_TIE_SHARE, SearchPolicy, _plays, expert_policy

COINCHE_PRESETS = [p for p in preset_names() if load_rules(p).contract_mode == "coinche"]
RULES = load_rules("coinche", target=None)
SPADES = int(Suit.SPADES)


def _cheap(seed=0, **kw):
    """A coinche expert with few samples: the same code paths (the auction search, the
    belief weighting of bids and cards), fast enough for many positions."""
    kw.setdefault("belief", NormalPolicy(seed))
    kw.setdefault("belief_pool", 2)
    kw.setdefault("belief_bids", True)
    kw.setdefault("belief_partner", False)
    return SearchPolicy(seed, samples=3, bid_samples=2, min_samples=1, **kw)


def test_coinche_presets_exist():
    assert "coinche" in COINCHE_PRESETS and len(COINCHE_PRESETS) >= 9


@pytest.mark.parametrize("preset", COINCHE_PRESETS)
def test_expert_plays_only_legal_actions_under_every_coinche_preset(preset):
    """Every decision is legal (auction and card play), in random positions (the other
    seats play random legal actions a quarter of the time)."""
    rules = load_rules(preset, target=None)
    pol = _cheap(1)
    rng = random.Random(0)
    decisions = bids = 0
    for seed in range(2):
        st = GameState(rules, seed=seed, dealer=seed)
        while not st.is_deal_over:
            info = st.information_set(st.current)
            if rng.random() < 0.75:
                a = pol.act(info)
                assert a in info.legal_actions
                decisions += 1
                bids += info.contract is None
            else:
                a = info.legal_actions[rng.randrange(len(info.legal_actions))]
            st.apply(a)
    assert decisions > 12 and bids > 0


def test_the_expert_tier_plays_coinche_with_the_coinche_hard_model():
    """``make_policy("expert")``'s base and prior are the hard tier, whose classic networks
    read the classic observation: in coinche the tier's coinche model
    (``HardPolicy.for_rules``) takes the base's decisions and bids for the seats in the
    auction rollouts, the prior is left out, and every decision is legal (a cheap copy of
    the tier's settings)."""
    pol = expert_policy(3)
    pol.samples, pol.bid_samples, pol.min_samples = 3, 2, 1
    st = GameState(RULES, seed=11, dealer=2)
    while not st.is_deal_over:
        info = st.information_set(st.current)
        a = pol.act(info)
        assert a in info.legal_actions
        st.apply(a)
    assert st.deal_score is not None or st.void


def test_the_classic_networks_are_kept_in_classic_and_the_coinche_model_plays_coinche():
    """The hard tier's classic networks read the classic observation: the expert keeps
    them as base and prior in classic; in coinche its base and its auction model are the
    hard tier's coinche model, and the prior is left out."""
    pol = expert_policy(0)
    assert _plays(pol.base, load_rules("seed004")) and _plays(pol.prior, load_rules("seed004"))
    assert not _plays(pol.base, RULES) and not _plays(pol.prior, RULES)
    info = _step_state().information_set(2)
    coinche_hard = pol.base.for_rules(RULES)
    assert coinche_hard is not pol.base and coinche_hard.contract_mode == "coinche"
    assert pol._base(info) is coinche_hard and pol._model(info) is coinche_hard


def test_the_coinche_auction_search_anchors_on_the_coinche_hard_bid():
    """The auction search's anchor is the coinche hard model's bid: with a margin no
    candidate can clear, the expert bids as that model at every decision of seeded
    auctions, and at some of them otherwise than the normal tier would (the model the
    search used before)."""
    from policies.hard import HardPolicy

    pol = expert_policy(0)
    pol.bid_samples, pol.min_samples, pol.bid_margin = 2, 1, 1e9
    hard = HardPolicy(0).for_rules(RULES)
    normal = NormalPolicy(0)
    bids = differ = 0
    for seed in range(6):
        st = GameState(RULES, seed=seed, dealer=seed % 4)
        while st.phase == 0:
            info = st.information_set(st.current)
            a = pol.act(info)
            assert a == hard.act(info)
            bids += 1
            differ += a != normal.act(info)
            st.apply(a)
    assert bids >= 24 and differ >= 1


def test_expert_does_not_read_hidden_cards_in_coinche():
    """The decision on the real information set equals the one on the information set of
    a state whose hidden hands were dealt again (same policy seed for both), in the
    auction and in card play."""
    pol = _cheap(2)
    rng = random.Random(4)
    checked = bids = 0
    st = GameState(RULES, seed=5, dealer=1)
    while not st.is_deal_over:
        seat = st.current
        info = st.information_set(seat)
        deal = sample_hidden_hands(info, rng)
        alt = st.clone()
        for s in seats_from(0):
            if s != seat:
                alt.hands[s] = deal.hands[s]
        alt._legal = None
        pol.rng.seed(f"{len(st.actions)}")
        a = pol.act(info)
        pol.rng.seed(f"{len(st.actions)}")
        assert pol.act(alt.information_set(seat)) == a
        checked += 1
        bids += info.contract is None
        st.apply(a)
    assert checked > 30 and bids > 3


# ----------------------------------------------------------------------------- card play
#: A coinche deal (dealer West... seat 3, eldest seat 0) and its actions: 80♠ by South (seat
#: 0), three passes, then six tricks. North (seat 2, South's partner) is to lead trick 7
#: holding J♠ J♣; the takers have 31 card points. Out: 9♠ 10♠ A♠ Q♣ 10♦ Q♦.
_HANDS = ["QS AS 9H 10H QH 10C QC AC", "9S KS 7H KH 7D 10D AD KC",
          "8S JS 8H 8D 7C 8C 9C JC", "7S 10S JH AH 9D JD QD KD"]
_TRICKS = ["AC KC 7C 7S", "AH 9H KH 8H", "9D QS 7D 8D", "10H 7H 8C JH", "10C KS 9C KD", "AD 8S JD QH"]


def parse_card_list(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def _step_state(rules=RULES) -> GameState:
    st = GameState.from_hands([parse_card_list(h) for h in _HANDS], rules=rules, dealer=3)
    for a in (coinche_bid_action(80, SPADES), PASS, PASS, PASS):
        st.apply(a)
    for trick in _TRICKS:
        for c in trick.split():
            st.apply(parse_card(c))
    return st


def test_step_position_is_as_described():
    st = _step_state()
    info = st.information_set(2)
    assert st.current == 2 and st.contract.level == 80 and st.contract.taker == 0
    assert info.hand == parse_cards("JS JC") and info.card_points == (31, 48)
    assert sorted(info.legal_actions) == sorted(parse_card_list("JS JC"))


def test_card_play_maximises_the_deal_score_not_the_card_points():
    """Trump ♠, 80♠ by South; North leads trick 7 with J♠ J♣, the takers at 31 card
    points; 9♠ 10♠ A♠ Q♣ 10♦ Q♦ are out (two in each other hand). J♠ first draws a
    trump: when the two other trumps are split the takers win both tricks (114 points),
    but when one defender holds two of 9♠ 10♠ A♠ his second trump wins a trick and the
    takers end on 75 or 78 (< 80: failed, the defence scores 162 + 80). J♣ first gives
    the last trick to J♠ whoever holds the Q♣: 84 to 88, made in every deal. J♠ wins more
    card points on average (about 101 against 86), J♣ a better deal score (about +73 a
    deal): the expert leads J♣ (COINCHE.md §9)."""
    info = _step_state().information_set(2)
    pol = SearchPolicy(0, samples=24, bid_samples=24, min_samples=24, node_budget=None)
    assert pol.act(info) == parse_card("JC")
    js, jc = pol.last_values[parse_card("JS")], pol.last_values[parse_card("JC")]
    assert jc > js + 30
    # the mean card points of the same kind of samples favour J♠
    sampler, rng, solver = HiddenHandSampler(info), random.Random(1), Solver()
    pts = {parse_card("JS"): 0, parse_card("JC"): 0}
    for _ in range(60):
        hands = sampler.draw(rng).hands
        vals = solver.card_values(Position(hands, SPADES, 0, (), 2, RULES))
        for c in pts:
            pts[c] += vals[c]
    assert pts[parse_card("JS")] > pts[parse_card("JC")]


def _play_out(st: GameState, solver: Solver) -> None:
    """Play ``st`` to the end with perfect play (the solver's best card for the side to play)."""
    while not st.is_deal_over:
        legal = st.legal_actions()
        cards = [a for a in legal if a < 32]
        if len(cards) != len(legal):  # an announcement or declaration: make it
            st.apply(next(a for a in legal if a >= 32))
            continue
        vals = solver.card_values(position_of(st))
        takers = TEAM_OF[st.current] == TEAM_OF[st.taker]
        st.apply((max if takers else min)(cards, key=lambda c: (vals[c], -c)))


@pytest.mark.parametrize("preset", ["coinche", "coinche_colver", "coinche_ffb_contree_2016"])
def test_a_sampled_deals_value_is_the_coinche_score_of_the_solvers_points(preset):
    """With one sample, each card's value is the deal's score difference for the seat's
    team (``score_coinche_deal`` through the engine) when that card is played and both
    sides then play the sample perfectly: the deal score of the solver's exact points."""
    rules = load_rules(preset, target=None)
    st = _step_state(rules)
    info = st.information_set(2)
    pol = SearchPolicy(5, samples=1, bid_samples=1, min_samples=1, node_budget=None)
    rng = random.Random()
    rng.setstate(pol.rng.getstate())
    hands = HiddenHandSampler(info).draw(rng).hands  # the policy's one sample
    pol.act(info)
    assert pol.last_stats["samples"] == 1
    start = [hands[s] | info.played_by[s] for s in seats_from(0)]
    solver = Solver()
    for c in parse_card_list("JS JC"):
        alt = GameState.from_hands(start, rules=rules, dealer=3)
        for _, a in st.actions:
            alt.apply(a)
        alt.apply(c)
        _play_out(alt, solver)
        assert pol.last_values[c] == alt.deal_score.difference(team_of(2))


# ----------------------------------------------------------------------------- the auction
def _bid_info(hand: str, auction=(), dealer=3, rules=RULES) -> InfoSet:
    """The bidding view of the seat to speak after ``auction`` (bids in order from
    eldest), holding ``hand``; the other hands are dealt around it."""
    mine = parse_cards(hand)
    rest = [c for c in range(32) if not mine >> c & 1]
    random.Random(0).shuffle(rest)
    who = new_auction(dealer, -1, rules, tuple(zip(_bidders(dealer), auction))).current
    hands, i = [], 0
    for s in seats_from(0):
        if s == who:
            hands.append(mine)
        else:
            m = 0
            for c in rest[i:i + 8]:
                m |= 1 << c
            hands.append(m)
            i += 8
    st = GameState.from_hands(hands, rules=rules, dealer=dealer)
    for a in auction:
        st.apply(a)
    assert st.current == who
    return st.information_set(who)


def _bidders(dealer: int):
    """The seats in auction order from eldest, round after round (an auction without a
    coinche)."""
    while True:
        yield from seats_from(eldest_of(dealer))


def _bidder(seed=0, **kw):
    """The expert tier's auction search (``EXPERT``: 16 samples, a bid_margin of 10 points
    and 1.5 standard errors), uniform samples, no node budget."""
    return SearchPolicy(seed, samples=16, bid_samples=16, min_samples=16, node_budget=None,
                        bid_margin=EXPERT["bid_margin"], bid_z=EXPERT["bid_z"], **kw)


def test_a_strong_spade_hand_bids_spades():
    """J♠ 9♠ A♠ 10♠ with the aces of hearts and diamonds, first to speak: a spade bid,
    worth more than passing."""
    info = _bid_info("JS 9S AS 10S AH AD 7C 8C")
    pol = _bidder()
    a = pol.act(info)
    assert is_coinche_bid(a) and bid_denomination(a, -1) == SPADES
    assert pol.last_values[a] > pol.last_values[PASS]
    assert pol.last_stats["samples"] == 16


def test_a_hand_that_wins_every_trick_bids_capot():
    """J♠ 9♠ A♠ 10♠ K♠ A♥ A♦ 10♦, first to speak (eldest leads): the trumps drawn, every
    card is a winner in nearly every deal. The normal tier stops at a numeric bid; the
    search bids capot (250, COINCHE.md §6.7): a made capot scores 252 + 250 against at most
    252 + 160."""
    info = _bid_info("JS 9S AS 10S KS AH AD 10D")
    normal = NormalPolicy(0).act(info)
    assert normal != coinche_bid_action("capot", SPADES)
    pol = _bidder()
    assert pol.act(info) == coinche_bid_action("capot", SPADES)
    assert pol.last_values[coinche_bid_action("capot", SPADES)] > pol.last_values[normal] + 100


def test_a_hand_with_nothing_passes():
    """7♥ 8♥ 7♦ 8♦ 9♦ 7♣ 8♣ 9♣ (no jack, nine, ace or ten) passes."""
    pol = _bidder()
    assert pol.act(_bid_info("7H 8H 7D 8D 9D 7C 8C 9C")) == PASS
    assert pol.last_stats["samples"] == 16


def test_the_opponents_160_is_coinched_with_their_jack_nine_and_ace_of_trump():
    """South passes, West bids 160♥, North and East pass; South, the last to speak, holds
    J♥ 9♥ A♥: the J♥ wins a trick whatever happens, so West's side cannot make 160 (a
    trick with the J♥ is worth 22 or more). Passed, the contract fails for 162 + 160;
    coinched, for 162 + 2 x 160 (COINCHE.md §6.5; plus the belotes, 252 on a defence
    capot): coinche."""
    auction = (PASS, coinche_bid_action(160, parse_card("JH") >> 3), PASS, PASS)
    info = _bid_info("JH 9H AH 7S 8S 7D 8D 7C", auction)
    assert info.seat == 0 and COINCHE in info.legal_actions
    pol = _bidder()
    assert pol.act(info) == COINCHE
    # failed in every sample: the coinche adds 160 (belote and a defence capot aside)
    assert pol.last_values[COINCHE] - pol.last_values[PASS] == pytest.approx(160)
    assert pol.last_values[PASS] >= 162 + 160 - 20


def test_the_auction_search_keeps_to_its_budget():
    pol = SearchPolicy(0, bid_samples=12, min_samples=2, bid_node_budget=1)
    pol.act(_bid_info("JS 9S AS 10S AH AD 7C 8C"))
    assert pol.last_stats["samples"] == 2


def test_bid_arguments_are_checked():
    for kw in ({"bid_levels": 0}, {"bid_margin": -1.0}, {"bid_node_budget": 0}, {"bid_denominations": 0},
               {"search_coinche_bids": 1}, {"bid_slack": float("nan")}, {"bid_z": -0.5}):
        with pytest.raises(ValueError):
            SearchPolicy(0, **kw)


def test_search_coinche_bids_off_leaves_the_auction_to_the_base():
    info = _bid_info("JS 9S AS 10S AH AD 7C 8C")
    pol = SearchPolicy(0, search_coinche_bids=False)
    assert pol.act(info) == NormalPolicy(0).act(info)
    assert pol.last_stats == {}


# ----------------------------------------------------------------------------- determinism
def _play_deal(pols, rules, seed, disturb=False):
    st = GameState(rules, seed=seed, dealer=seed)
    actions = []
    while not st.is_deal_over:
        if disturb:  # global RNGs must not matter
            random.seed(len(actions))
            np.random.seed(len(actions) + 7)
        a = pols[TEAM_OF[st.current]].act(st.information_set(st.current))
        actions.append(a)
        st.apply(a)
    return actions


def test_expert_is_deterministic_for_a_seed_in_coinche():
    for seed in range(2):
        first = _play_deal([_cheap(5), NormalPolicy(0)], RULES, seed)
        again = _play_deal([_cheap(5), NormalPolicy(0)], RULES, seed, disturb=True)
        assert first == again


def test_cards_tied_in_every_sample_stop_the_search_after_a_quarter_of_its_samples():
    """A coinche score is flat wherever the contract's fate is settled (COINCHE.md §9), so
    two cards often score the same in every sample. With ``stop_z`` and no prior, a card
    decision whose candidates all tied in every sample so far stops once
    ``samples // STOP_TIE_SHARE`` samples are solved: not at ``min_samples`` (a few tied
    samples give a spread of 0, not a settled order; a full search then often parts the
    cards), nor only after every planned sample (an exact tie used to block the stop);
    the cards then go by the same tie-breaks as a search of those samples."""
    pol = SearchPolicy(0, samples=16, min_samples=2, stop_z=1.5, node_budget=None, search_coinche_bids=False)
    floor = 16 // STOP_TIE_SHARE
    assert floor == 4
    same = SearchPolicy(0, samples=floor, min_samples=floor, node_budget=None, search_coinche_bids=False)
    tied = 0
    for seed in range(3):
        st = GameState(RULES, seed=seed, dealer=seed % 4)
        while not st.is_deal_over:
            info = st.information_set(st.current)
            if st.phase == 1 and len([a for a in info.legal_actions if a < 32]) > 1:
                reseed(pol, f"{seed}-{len(st.actions)}")
                reseed(same, f"{seed}-{len(st.actions)}")
                a = pol.act(info)
                assert pol.last_stats["samples"] >= floor or len(set(pol.last_values.values())) > 1
                if len(pol.last_values) > 1 and len(set(pol.last_values.values())) == 1:
                    tied += 1
                    assert pol.last_stats["samples"] == floor
                    assert a == same.act(info)  # the same four worlds, the same tie-breaks
                st.apply(a)
            else:
                st.apply(pol.act(info))
    assert tied >= 3


class _OneByOne:
    """A policy's ``act`` alone (no ``act_batch``): the auction rollouts bid auction
    after auction."""

    def __init__(self, policy):
        self.policy = policy

    def act(self, info):
        return self.policy.act(info)


def test_batched_auction_rollouts_bid_as_the_model_does_one_by_one():
    """The coinche hard model bids for the auctions of a sample in one batch a round
    (``act_batch``); the rollouts, values and choices are those of bidding auction after
    auction with ``act``, at every auction decision of seeded deals."""
    pol = expert_policy(0)
    pol.bid_samples, pol.min_samples = 3, 3
    slow = expert_policy(0)
    slow.bid_samples, slow.min_samples = 3, 3
    slow._bid_model = _OneByOne(slow.base.for_rules(RULES))
    assert not hasattr(slow._model(_bid_info("JS 9S AS 10S AH AD 7C 8C")), "act_batch")
    searched = 0
    for seed in range(3):
        st = GameState(RULES, seed=seed, dealer=seed % 4)
        while st.phase == 0:
            info = st.information_set(st.current)
            reseed(pol, f"{seed}-{len(st.actions)}")
            reseed(slow, f"{seed}-{len(st.actions)}")
            a = pol.act(info)
            assert slow.act(info) == a and slow.last_values == pol.last_values
            searched += bool(pol.last_values)
            st.apply(a)
    assert searched >= 4


#: coinche rules of the extended action table (412 ids: a générale, bids above 160)
EXTENDED = {
    "coinche_bga": lambda: load_rules("coinche_bga", target=None),
    "coinche+generale": lambda: replace(load_rules("coinche", target=None), generale=True),
}


@pytest.mark.parametrize("name", sorted(EXTENDED))
def test_the_expert_tier_plays_coinche_rules_of_the_extended_action_table_on_the_coinche_hard(name):
    """Under coinche rules of 412 action ids the expert's base and auction model are the
    coinche hard model (it plays them with the ids it knows), its auction search batches
    the model's rollout bids over 412-wide masks, and every decision is legal."""
    rules = EXTENDED[name]()
    assert num_actions(rules) > 112
    pol = expert_policy(0)
    pol.samples, pol.bid_samples, pol.min_samples = 2, 2, 1
    coinche_hard = pol.base.for_rules(rules)
    st = GameState(rules, seed=1, dealer=0)
    decisions = searched = 0
    while st.phase == 0 and decisions < 8:
        info = st.information_set(st.current)
        a = pol.act(info)
        assert a in info.legal_actions
        assert pol._base(info) is coinche_hard and pol._model(info) is coinche_hard
        searched += bool(pol.last_values)
        decisions += 1
        st.apply(a)
    assert decisions >= 1 and searched >= 1


def test_double_dummy_card_points_are_zero_sum_between_the_teams():
    """The auction search solves one contract per denomination and leader in a sample,
    whichever team takes: it relies on one team's double-dummy card points being 162 less
    the other's (RULES.md §4: 152 card points and the last trick's 10). Held on seeded
    coinche deals in every denomination, no-trump and all-trump included, from every
    leader."""
    rules = load_rules("coinche", target=None, coinche_denominations="suits_sa_ta")
    solver = Solver()
    pairs = 0
    for seed in range(8):
        hands = tuple(GameState(rules, seed=seed, dealer=seed % 4).hands)
        for k in range(6):
            leader = (seed + k) % 4
            takers = solver.solve(Position(hands, k, leader, (), leader, rules))
            others = solver.solve(Position(hands, k, (leader + 1) % 4, (), leader, rules))
            assert takers + others == 162
            pairs += 1
    assert pairs == 48
