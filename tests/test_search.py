"""The search tier ``expert`` (policies/search.py): legal actions under every preset, no
reading of hidden cards (RULES.md §11), determinism for a seed, its key choices in
hand-checked positions, search on top of a policy, and argument checks."""

import random
from dataclasses import replace

import numpy as np
import pytest


from belote_env import GameState, InfoSet, Rules, load_rules, preset_names
from belote_env.actions import PASS, TAKE
from belote_env.cards import parse_card, parse_cards
from belote_env.contract import Contract
from belote_env.rules import legal_cards
from belote_env.sampling import sample_hidden_hands
from policies import make_policy
from policies.normal import NormalPolicy
from policies.search import SearchPolicy, plain_weight

_normal = NormalPolicy(0)


class _FavourPrior:
    """A stand-in prior whose card values favour one card by ``edge`` (in units of 162
    points, like ``NetworkPolicy.card_values``)."""

    def __init__(self, favoured: int, edge: float):
        self.favoured, self.edge = favoured, edge

    def card_values(self, info):
        return {c: (self.edge if c == self.favoured else 0.0) for c in info.legal_actions if c < 32}


_FAVOUR = _FavourPrior(0, 0.1)


def _cheap(seed=0, **kw):
    """An expert with few samples: the same code paths, fast enough for many positions."""
    return SearchPolicy(seed, samples=3, bid_samples=2, min_samples=1, **kw)


@pytest.mark.parametrize("preset", preset_names())
def test_expert_plays_only_legal_actions_under_every_preset(preset):
    """Every decision of the expert is legal, in random positions (other seats play random
    legal actions a quarter of the time), under every preset with no-trump / all-trump."""
    rules = load_rules(preset, target=None)
    if rules.contract_mode == "classic" and rules.players == 4:
        rules = rules.replace(round2_no_trump_all_trump=True)
    pol = _cheap(1, prefilter=None)
    rng = random.Random(0)
    decisions = 0
    for seed in range(4):
        st = GameState(rules, seed=seed, dealer=seed % rules.players)
        while not st.is_deal_over:
            info = st.information_set(st.current)
            if rng.random() < 0.75:
                a = pol.act(info)
                assert a in info.legal_actions
                decisions += 1
            else:
                a = info.legal_actions[rng.randrange(len(info.legal_actions))]
            st.apply(a)
    assert decisions > (60 if rules.players == 4 else 40)  # 4 deals: 8-card hands at four seats, 9 at two


def _resampled_info(st: GameState, seat: int, rng: random.Random) -> InfoSet:
    """``seat``'s information set in a copy of ``st`` whose hidden cards (the other hands
    and, while bidding, the stock's order) were dealt again consistently with it."""
    info = st.information_set(seat)
    deal = sample_hidden_hands(info, rng)
    alt = st.clone()
    for s in range(4):
        if s != seat:
            alt.hands[s] = deal.hands[s]
    if st.phase == 0:
        stock = [c for c in range(32) if deal.stock >> c & 1]
        rng.shuffle(stock)
        alt.stock = tuple(stock)
    alt._legal = None
    return alt.information_set(seat)


def test_expert_does_not_read_hidden_cards():
    """The decision on the real information set equals the one on the information set of
    a state whose hidden cards were dealt again (same policy seed for both)."""
    pol = _cheap()
    rng = random.Random(4)
    checked = 0
    for seed in range(3):
        st = GameState(Rules(target=None, round2_no_trump_all_trump=True), seed=seed)
        while not st.is_deal_over:
            seat = st.current
            info = st.information_set(seat)
            alt = _resampled_info(st, seat, rng)
            pol.rng.seed(f"{seed}-{len(st.actions)}")
            a = pol.act(info)
            pol.rng.seed(f"{seed}-{len(st.actions)}")
            assert pol.act(alt) == a
            checked += 1
            st.apply(a)
    assert checked > 75


def _play_deal(pols, rules, seed, disturb=False):
    st = GameState(rules, seed=seed)
    actions = []
    while not st.is_deal_over:
        if disturb:  # global RNGs must not matter
            random.seed(len(actions))
            np.random.seed(len(actions) + 7)
        a = pols[st.current % 2].act(st.information_set(st.current))
        actions.append(a)
        st.apply(a)
    return actions


def test_expert_is_deterministic_for_a_seed():
    rules = Rules(target=None)
    for seed in range(3):
        first = _play_deal([_cheap(5), make_policy("normal")], rules, seed)
        again = _play_deal([_cheap(5), make_policy("normal")], rules, seed, disturb=True)
        assert first == again


def _play_info(hand, trick, contract, seat, taker, played, hand_sizes, turned, card_points=(0, 0), tricks=()):
    """An InfoSet in card play for ``seat``; ``trick`` cards led by the seat
    ``len(trick)`` places before it; ``played`` maps seats to the cards they played."""
    trick = tuple(parse_card(c) for c in trick.split())
    leader = (seat - len(trick)) % 4
    hand_mask = parse_cards(hand)
    played_by = [0, 0, 0, 0]
    for s, cards in played.items():
        played_by[s] |= parse_cards(cards)
    for i, c in enumerate(trick):
        played_by[(leader + i) % 4] |= 1 << c
    legal = tuple(c for c in range(32) if legal_cards(hand_mask, list(trick), contract, Rules()) >> c & 1)
    return InfoSet(seat=seat, dealer=3, phase=1, current_seat=seat, hand=hand_mask, turned_card=parse_card(turned),
                   auction=((0, TAKE),), bid_round=0, contract=Contract(taker, contract), denomination=contract, taker=taker, trick=trick,
                   trick_leader=leader, tricks=tricks, played_by=tuple(played_by), hand_sizes=hand_sizes,
                   card_points=card_points, announcements=(), declared=((), (), (), ()), scores=(0, 0), reserve=0,
                   deal_number=0, legal_actions=legal, rules=Rules())


def _last_trump_info(hand="JS AH", hand_sizes=(2, 2, 2, 2), card_points=(0, 0)):
    """Trump spades, two tricks left, South (taker) to lead ``hand``; the cards still out
    are 7♠ 7♦ 8♦ 9♦ 10♦ A♦ (see the test below)."""
    played = {0: "8S 9S 10S QS KS AS", 1: "7H 8H 9H 10H JH QH", 2: "KH 7C 8C 9C 10C JC",
              3: "QC KC AC JD QD KD"}
    return _play_info(hand, "", 0, 0, 0, played, hand_sizes=hand_sizes, turned="AS", card_points=card_points)


def test_expert_draws_the_last_trump_before_cashing():
    """Trump spades, two tricks left, South (taker) leads holding J♠ A♥; the cards still
    out are 7♠ 7♦ 8♦ 9♦ 10♦ A♦. Leading J♠ draws the 7♠ and A♥ then wins: all the
    points in every deal of the hidden cards. A♥ first is ruffed whenever an opponent holds
    the 7♠ (no heart is out, so that opponent is void and must trump, RULES.md §4.2)."""
    info = _last_trump_info()
    pol = SearchPolicy(0, samples=8)
    assert pol.act(info) == parse_card("JS")
    assert pol.last_stats["samples"] == 8


def test_expert_takes_a_strong_hand_and_passes_a_weak_one():
    """Round 1 (RULES.md §3.2): J♠ 9♠ A♠ with the turned 10♠ and two side aces is a clear
    take; 7♥ 8♦ 7♣ 8♣ 9♦ under a turned 7♠ is a clear pass (not even searched)."""
    def bid_info(hand, turned):
        return InfoSet(seat=1, dealer=0, phase=0, current_seat=1, hand=parse_cards(hand),
                       turned_card=parse_card(turned), auction=(), bid_round=1, contract=None, denomination=-1, taker=-1, trick=(),
                       trick_leader=1, tricks=(), played_by=(0, 0, 0, 0), hand_sizes=(5, 5, 5, 5),
                       card_points=(0, 0), announcements=(), declared=((), (), (), ()), scores=(0, 0), reserve=0,
                       deal_number=0, legal_actions=(PASS, TAKE), rules=Rules())

    pol = SearchPolicy(0, bid_samples=6)
    assert pol.act(bid_info("JS 9S AS AH AD", "10S")) == TAKE
    assert pol.last_stats["samples"] == 6
    assert pol.act(bid_info("7H 8D 7C 8C 9D", "7S")) == PASS
    assert pol.last_stats["samples"] == 0


def test_search_on_top_of_a_policy_keeps_to_its_top_choices():
    """``hard+search`` plays legal actions and only among the hard policy's top 3."""
    pol = make_policy("hard+search", seed=0)
    hard = make_policy("hard", seed=0)
    assert pol.name == "hard+search"
    pol.samples, pol.bid_samples = 3, 2
    st = GameState(Rules(target=None), seed=3)
    checked = 0
    while not st.is_deal_over:
        info = st.information_set(st.current)
        a = pol.act(info)
        probs = hard.action_probabilities(info)
        top = sorted(info.legal_actions, key=lambda x: (-probs[x], x))[:3]
        assert a in top or (a not in range(32) and a in info.legal_actions)
        checked += 1
        st.apply(a)
    assert checked >= 32


def test_belief_weighting_and_pass_valuation_play_legal_and_are_deterministic():
    rules = Rules(target=None)
    for kw in (dict(belief=make_policy("normal")), dict(value_pass=True, prefilter=None)):
        first = _play_deal([_cheap(2, **kw), make_policy("normal")], rules, 1)
        assert _play_deal([_cheap(2, **kw), make_policy("normal")], rules, 1) == first


@pytest.mark.parametrize("kw, match", [
    (dict(samples=0), "samples"), (dict(bid_samples=1.5), "bid_samples"), (dict(min_samples=True), "min_samples"),
    (dict(node_budget=0), "node_budget"), (dict(time_budget=-1), "time_budget"), (dict(top_k=0), "top_k"),
    (dict(base="normal"), "base"), (dict(belief=3), "belief"),
    (dict(samples=4, min_samples=5), "min_samples"), (dict(bid_samples=2, min_samples=3), "min_samples"),
    (dict(take_margin=float("nan")), "take_margin"), (dict(take_margin="5"), "take_margin"),
    (dict(take_margin=float("inf")), "take_margin"), (dict(prefilter=float("nan")), "prefilter"),
    (dict(prefilter="high"), "prefilter"), (dict(value_pass="yes"), "value_pass"),
    (dict(belief=_normal, belief_bids=1), "belief_bids"), (dict(belief=_normal, belief_pool=0), "belief_pool"),
    (dict(belief=_normal, belief_pool=2.0), "belief_pool"), (dict(belief=_normal, belief_noise=0.0), "belief_noise"),
    (dict(belief=_normal, belief_noise=1.0), "belief_noise"), (dict(belief=_normal, belief_noise=float("nan")), "belief_noise"),
    (dict(belief=_normal, belief_noise=1e-30), "belief_noise"), (dict(belief=_normal, belief_pool=10**9), "belief_pool"),
    (dict(belief=NormalPolicy), "belief"), (dict(base=NormalPolicy, top_k=2), "base"),
    (dict(belief_pool=8), "belief_pool"), (dict(belief_bids=True), "belief_bids"),
    (dict(belief_partner=False), "belief_partner"), (dict(name=None), "name"), (dict(name=""), "name"),
    (dict(prior=_normal), "prior"), (dict(prior_weight=4.0), "prior_weight"), (dict(search_bids="no"), "search_bids"),
    (dict(prior=_FavourPrior, prior_weight=1), "prior"), (dict(prior=_FAVOUR, prior_weight=0), "prior_weight"),
    (dict(prior=_FAVOUR, prior_weight=-1), "prior_weight"), (dict(prior=_FAVOUR, prior_weight=1e308), "prior_weight"),
    (dict(prior=_FAVOUR, prior_weight=float("nan")), "prior_weight"), (dict(prior=_FAVOUR, prior_weight=True), "prior_weight"),
])
def test_bad_arguments_are_refused(kw, match):
    with pytest.raises(ValueError, match=match):
        SearchPolicy(0, **kw)


def test_registry_names_expert_and_search_suffix():
    assert make_policy("expert", seed=1).name == "expert"
    assert make_policy("normal+search").name == "normal+search"
    with pytest.raises(ValueError, match="unknown policy"):
        make_policy("nonsense+search")


def test_completion_deals_the_stock_from_eldest():
    """After a take (RULES.md §3.5) the taker gets the turned card and 2 stock cards, the
    others 3 each, in stock order from eldest."""
    from belote_env.dealing import complete

    hands = (0, 0, 0, 0)
    stock = list(range(11))
    # dealer 3: eldest is seat 0; seat 1 takes the turned card 31
    out = tuple(complete(hands, 31, stock, 1, 3))
    assert out == (0b111, (1 << 31) | (1 << 3) | (1 << 4), 0b111 << 5, 0b111 << 8)


def test_passing_is_valued_by_the_model_auction():
    """After South passes in round 1, West (next, holding J♠ 9♠ A♠ 10♠ A♥ under a turned
    7♠) takes by the normal tier's rule; with weak hands everywhere the deal passes out
    (``value_pass``)."""
    pol = SearchPolicy(0, value_pass=True)
    info = InfoSet(seat=0, dealer=3, phase=0, current_seat=0, hand=parse_cards("7H 8H 9H 7D 8D"),
                   turned_card=parse_card("7S"), auction=(), bid_round=1, contract=None, denomination=-1, taker=-1, trick=(),
                   trick_leader=0, tricks=(), played_by=(0, 0, 0, 0), hand_sizes=(5, 5, 5, 5), card_points=(0, 0),
                   announcements=(), declared=((), (), (), ()), scores=(0, 0), reserve=0, deal_number=0,
                   legal_actions=(PASS, TAKE), rules=Rules())
    strong = (info.hand, parse_cards("JS 9S AS 10S AH"), parse_cards("7C 8C 9C 7D 8S"), parse_cards("QD KD JD 9D QH"))
    assert pol._auction_after_pass(info, strong) == (1, 0)
    weak = (info.hand, parse_cards("8S QC 10D KH 7C"), parse_cards("9C KC QH 10S JD"), parse_cards("QD 10H AC 9D JH"))
    assert pol._auction_after_pass(info, weak) is None


def _first_info(pred, max_seed=400):
    """The first information set, over seeded deals bid and played by ``normal``, that
    satisfies ``pred(info)``."""
    normal = make_policy("normal")
    for seed in range(max_seed):
        st = GameState(Rules(target=None), seed=seed, dealer=seed % 4)
        while not st.is_deal_over:
            info = st.information_set(st.current)
            if pred(info):
                return info
            st.apply(normal.act(info))
    raise AssertionError("no such position in the seeded deals")


def test_belief_resampling_keeps_bidding_samples_consistent_with_the_models_passes():
    """Dealer to bid in round 1 after three passes (RULES.md §3.2): under a ``normal``
    model with almost no noise, every resampled deal gives each passing seat a hand that
    ``normal`` would pass; uniform samples of the same position do not."""
    from policies.normal import TAKE_THRESHOLD, NormalPolicy, hand_value

    info = _first_info(lambda i: i.denomination < 0 and i.bid_round == 1 and len(i.auction) == 3)
    k, turned = info.turned_card >> 3, 1 << info.turned_card

    def passes(hands):
        return all(hand_value(hands[s] | turned, k) < TAKE_THRESHOLD[0] for s, _ in info.auction)

    pol = SearchPolicy(0, belief=NormalPolicy(0), belief_pool=20, belief_noise=1e-6)
    drawn = [d for d, _ in pol._draws(info, 10, pol._bid_weight)]
    assert len(drawn) == 10 and all(passes(d.hands) for d in drawn)
    rng = random.Random(0)
    assert not all(passes(sample_hidden_hands(info, rng).hands) for _ in range(200))


def test_belief_resampling_in_card_play_gives_the_taker_a_taking_hand():
    """A defender's first card after a round-1 take (RULES.md §3.2): with ``belief_bids``,
    every resampled deal gives the taker 5 of its cards that with the turned card make a
    ``normal`` take; uniform samples do not always."""
    from itertools import combinations

    from policies.normal import TAKE_THRESHOLD, NormalPolicy, hand_value

    info = _first_info(lambda i: i.denomination >= 0 and not i.tricks and not i.trick and len(i.auction) <= 4
                       and (i.seat - i.taker) & 1 == 1 and len(i.legal_actions) > 1)
    k, turned = info.denomination, 1 << info.turned_card

    def taking(hands):
        rest = [c for c in range(32) if (hands[info.taker] & ~turned) >> c & 1]
        return any(hand_value(sum(1 << c for c in five) | turned, k) >= TAKE_THRESHOLD[0]
                   for five in combinations(rest, 5))

    pol = SearchPolicy(0, belief=NormalPolicy(0), belief_pool=20, belief_noise=1e-6, belief_bids=True)
    drawn = [d for d, _ in pol._draws(info, 10, pol._weight)]
    assert len(drawn) == 10 and all(taking(d.hands) for d in drawn)
    rng = random.Random(0)
    assert not all(taking(sample_hidden_hands(info, rng).hands) for _ in range(200))


def test_expert_tier_uses_the_normal_model_posterior_and_bids_as_hard():
    """The expert's samples come from a ``normal`` model's posterior; it bids as ``hard``
    (its base), and hard's card values are its prior."""
    from policies.hard import HardPolicy
    from policies.normal import NormalPolicy
    from policies.search import EXPERT

    pol = make_policy("expert", seed=0)
    assert isinstance(pol.belief, NormalPolicy) and pol.belief_pool == EXPERT["belief_pool"] > 1
    assert pol.belief_bids and not pol.belief_partner
    assert isinstance(pol.base, HardPolicy) and pol.prior is pol.base and pol.prior_weight == EXPERT["prior_weight"] > 0
    assert not pol.search_bids
    hard = make_policy("hard", seed=0)
    bids = 0
    for seed in range(6):
        st = GameState(Rules(target=None), seed=seed, dealer=seed % 4)
        while st.phase == 0:
            info = st.information_set(st.current)
            a = pol.act(info)
            assert a == hard.act(info)
            bids += 1
            st.apply(a)
    assert bids >= 12


def test_prior_card_values_count_as_prior_weight_samples():
    """In the draws-the-last-trump position at 50 card points each (J♠ first wins every
    deal and the contract; A♥ first is ruffed when an opponent holds the 7♠), a prior's
    card values (units of 162 points) count as ``prior_weight`` more samples: each card's score is (sum over the 8 samples + weight x
    162 x prior) / (8 + weight), the choice flips to A♥ exactly when the prior's edge
    passes 8 x the search's gap / (weight x 162), and weighted samples (belief_pool 1:
    their weights multiply the values) are rescaled to counts first, so tiny weights do not
    hand the decision to the prior."""
    info = _last_trump_info(card_points=(50, 50))
    js, ah = parse_card("JS"), parse_card("AH")
    plain = SearchPolicy(0, samples=8)
    assert plain.act(info) == js
    v0 = plain.last_values
    gap = v0[js] - v0[ah]
    assert gap > 0
    edge = 8 * gap / (2 * 162)  # the A♥ edge at which prior_weight 2 makes the two cards equal
    for e, chosen in ((edge * 0.95, js), (edge * 1.05, ah)):
        pol = SearchPolicy(0, samples=8, prior=_FavourPrior(ah, e), prior_weight=2)
        assert pol.act(info) == chosen
        assert pol.last_values[js] == pytest.approx(8 * v0[js] / 10)
        assert pol.last_values[ah] == pytest.approx((8 * v0[ah] + 2 * 162 * e) / 10)
    for prior in (dict(), dict(prior=_FavourPrior(ah, edge * 0.95), prior_weight=2)):
        pol = SearchPolicy(0, samples=8, **prior)
        real = pol._draws
        pol._draws = lambda i, n, weight: ((deal, 1e-4) for deal, _ in real(i, n, weight))
        assert pol.act(info) == js
        assert pol.last_stats["samples"] == 8
        if prior:
            assert pol.last_values[ah] == pytest.approx((8 * v0[ah] + 2 * 162 * edge * 0.95) / 10)
        else:
            assert pol.last_values == pytest.approx(v0)
    assert pol.act(_last_trump_info("JS", (1, 2, 2, 2), (50, 50))) == js  # one legal card: nothing searched
    assert pol.last_values == {} and pol.last_stats == {}


def test_a_prior_without_a_legal_cards_value_is_an_error():
    info = _last_trump_info(card_points=(50, 50))

    class Partial(_FavourPrior):
        def card_values(self, info):
            return {parse_card("JS"): 0.0}

    with pytest.raises(ValueError, match=r"no value for legal card\(s\) \[15\]"):
        SearchPolicy(0, samples=2, prior=Partial(0, 0.0), prior_weight=1).act(info)


def test_belief_gives_the_true_deal_of_a_model_played_game_full_likelihood():
    """Deals bid and played by ``normal`` with declarations by choice (preset seed000,
    RULES.md §6): at later decisions the true hidden hands have likelihood about 1 under a
    ``normal`` model with noise 1e-6, for every seat's bids, declarations and cards (a
    declaration is scored on the view before it, the card on the view after it)."""
    rules = load_rules("seed000", target=None, declarations="choice")
    normal = make_policy("normal")
    pol = SearchPolicy(0, belief=NormalPolicy(0), belief_pool=2, belief_noise=1e-6, belief_partner=True)
    checked = declared = 0
    for seed in range(40):
        st = GameState(rules, seed=seed, dealer=seed % 4)
        while not st.is_deal_over:
            info = st.information_set(st.current)
            if info.denomination >= 0 and info.tricks and len(info.legal_actions) > 1:
                assert pol._weight(info, tuple(st.hands)) > 0.999
                assert pol._bid_weight(info, (0, 0, 0, 0)) >= 0.0  # runs on a card-play view
                checked += 1
                declared += any(info.declared[s] for s in range(4) if s != info.seat)
            st.apply(normal.act(info))
    assert checked > 100 and declared > 10


def test_replayed_play_views_carry_the_games_context():
    """The belief replays a deal from its first lead (RULES.md §11: public bids, sampled
    hands); in deal 2+ of a game its views carry the real scores, litige reserve, deal
    number and rules (a model may read them)."""
    from policies.search import _state_with_hands

    normal = make_policy("normal")
    st = GameState(Rules(), seed=5)
    while st.deal_number < 2 or st.phase != 1 or not st.tricks:
        if st.is_deal_over:
            st.next_deal()
        else:
            st.apply(normal.act(st.information_set(st.current)))
    info = st.information_set(st.current)
    start = [st.hands[s] | info.played_by[s] for s in range(4)]
    replay = _state_with_hands(info, start).information_set(info.seat)
    assert info.deal_number >= 2 and info.scores != (0, 0)
    assert (replay.scores, replay.reserve, replay.deal_number, replay.rules) == \
        (info.scores, info.reserve, info.deal_number, info.rules)


class _ScriptedSolver:
    """A stand-in solver whose card values (the takers' remaining points) follow a script,
    one dict per ``card_values`` call."""

    def __init__(self, script):
        self.script, self.calls, self.nodes = list(script), 0, 1

    def card_values(self, pos):
        self.calls += 1
        return self.script[(self.calls - 1) % len(self.script)]


def test_a_sides_162_points_are_scored_as_its_capot():
    """RULES.md §7: a team that wins all 8 tricks scores 252, the other 0. The solver
    counts card points, so the search scores a total of 162 as the takers' capot and 0 as
    the defenders', unless the other team has already won a trick. With J♠ worth 162 in
    one of two samples and 130 in the other, and A♥ worth 150 in both (South played K♠ Q♠:
    a belote of 20 for the takers), J♠ is the better card only when the capot counts:
    (252 + (130 - 32) + 2 x 20) / 2 = 195 against 150 - 12 + 20 = 158 points, but
    (162 + (130 - 32) + 2 x 20) / 2 = 150 against 158 once West has won a trick."""
    from belote_env.scoring import deal_difference as _difference

    info = _last_trump_info()
    assert _difference(162, 0, 0, [0, 0], [0, 0], info) == 252
    assert _difference(162, 1, 0, [0, 0], [20, 0], info) == 20 - 252  # made: each team scores its declarations
    assert _difference(0, 0, 0, [0, 0], [0, 0], info) == -252
    assert _difference(162, 0, 0, [0, 0], [0, 0], info, (False, True)) == 162
    assert _difference(0, 0, 1, [0, 0], [0, 0], info, (True, False)) == 162
    assert _difference(152, 0, 0, [0, 0], [0, 0], info) == 142
    js, ah = parse_card("JS"), parse_card("AH")
    script = [{js: 162, ah: 150}, {js: 130, ah: 150}]
    west_won = ((1, tuple(parse_card(c) for c in "7H 8S 7C QC".split()), 1),)
    for tricks, chosen, values in (((), js, (195.0, 158.0)), (west_won, ah, (150.0, 158.0))):
        pol = SearchPolicy(0, samples=2, min_samples=2)
        pol.solver = _ScriptedSolver(script)
        info = replace(_last_trump_info(), tricks=tricks)
        assert pol.act(info) == chosen
        assert pol.solver.calls == 2
        assert (pol.last_values[js], pol.last_values[ah]) == pytest.approx(values)


def test_early_stop_uses_a_prefix_of_the_same_worlds_and_is_off_by_default():
    """``stop_z``: off by default (every planned world is solved); set, the expert stops
    once the leader cannot be overtaken, after at least ``min_samples`` worlds, drawing
    the same worlds in the same order (a prefix); a bad value is refused by name."""
    from policies.base import reseed

    from policies.hard import HardPolicy

    hard = HardPolicy(7)
    full = SearchPolicy(7, samples=16, min_samples=4, prior=hard, prior_weight=4.0, node_budget=None)
    quick = SearchPolicy(7, samples=16, min_samples=4, prior=hard, prior_weight=4.0, node_budget=None, stop_z=1.0)
    assert full.stop_z is None
    stopped = 0
    for seed in range(2):
        st = GameState(Rules(target=None), seed=seed, single_deal=True)
        while not st.is_deal_over:
            info = st.information_set(st.current)
            if st.phase == 1 and len([a for a in info.legal_actions if a < 32]) > 1:
                reseed(full, f"{seed}-{len(st.actions)}")
                reseed(quick, f"{seed}-{len(st.actions)}")
                full.act(info)
                quick.act(info)
                n_full, n_quick = full.last_stats.get("samples", 0), quick.last_stats.get("samples", 0)
                if n_full:
                    assert 4 <= n_quick <= n_full == 16
                    stopped += n_quick < n_full
            st.apply(33 if 33 in info.legal_actions else info.legal_actions[0])  # TAKE at once: a played deal
    assert stopped > 0
    with pytest.raises(ValueError, match="stop_z must be a number in"):
        SearchPolicy(0, stop_z=0)


def test_expert_at_a_time_budget_weighs_lazily_and_stops_at_its_budget():
    """``expert@<N>ms``: the expert with ``time_budget`` N ms and ``belief_lazy``; a 1 ms
    budget searches only the ``min_samples`` worlds it always searches."""
    import random as _random

    from belote_env import GameState, Rules
    from policies import make_policy
    from policies.registry import check_policy_spec

    policy = make_policy("expert@1ms", seed=3)
    assert (policy.name, policy.time_budget, policy.belief_lazy) == ("expert@1ms", 0.001, True)
    check_policy_spec("expert@250ms")
    for bad in ("expert@0ms", "expert@1s", "expert@-5ms", "expert@1000000ms"):
        with pytest.raises(ValueError):
            make_policy(bad)
    rng = _random.Random(5)
    st = GameState(Rules(), seed=5, single_deal=True)
    searched = 0
    while not st.is_deal_over and searched < 3:
        info = st.information_set(st.current_seat)
        if st.phase == 1 and sum(a < 32 for a in info.legal_actions) > 1 and len(st.tricks) < 5:
            st.apply(policy.act(info))
            if policy.last_stats.get("samples"):
                assert policy.last_stats["samples"] == policy.min_samples
                searched += 1
        else:
            st.apply(rng.choice(info.legal_actions))
    assert searched == 3


@pytest.mark.parametrize("rules", [Rules(target=None), Rules(target=None, declarations="choice", belote="optional"),
                                   load_rules("coinche")], ids=["classic", "declarations-choice", "coinche"])
def test_world_weights_kept_per_seat_equal_a_replay_of_each_world(rules):
    """The expert's belief weight of each candidate world, with the per-(seat, hand)
    factors kept across the worlds of a decision and the copied first lead
    (``GameState.replace_hands``), is the same float as one plain replay per world."""
    expert, normal = make_policy("expert", seed=1), NormalPolicy(0)
    checked = 0
    for d in range(2):
        st = GameState(rules, seed=60 + d, single_deal=True)
        while not st.is_deal_over:
            info = st.information_set(st.current)
            if st.phase == 1 and len(info.legal_actions) > 1 and info.tricks:
                worlds = expert._uniform(info)
                hands = [next(worlds).hands for _ in range(24)]
                rng = expert.rng.getstate()
                expert._lead = None
                kept = [expert._weight(info, h) for h in hands]
                expert.rng.setstate(rng)
                assert kept == [plain_weight(expert, info, h) for h in hands]
                checked += len(hands)
            st.apply(normal.act(info))
    assert checked > 300


def test_replace_hands_gives_the_state_the_deck_would_deal():
    """At a four-seat first lead, ``replace_hands`` makes the state a deck of those hands
    deals (hands, belote pairs, legal cards, information sets); elsewhere, or for hands
    that are not a deal, a ``ValueError``."""
    from belote_env.dealing import deck_for_final_hands

    rules = Rules(target=None)
    st = GameState(rules, seed=3, single_deal=True)
    normal = NormalPolicy(0)
    while st.phase != 1:
        st.apply(normal.act(st.information_set(st.current)))
    hands = list(st.hands)  # two seats' hands swapped, the turned card kept with the taker
    hands[0], hands[1] = hands[1], hands[0]
    if not hands[st.taker] >> st.turned_card & 1:
        holder = next(s for s in range(4) if hands[s] >> st.turned_card & 1)
        hands[holder], hands[st.taker] = hands[st.taker], hands[holder]
    copy = st.clone()
    copy.replace_hands(hands)
    fresh = GameState(rules, dealer=st.dealer, deck=deck_for_final_hands(hands, st.turned_card, st.taker, st.dealer),
                      single_deal=True)
    for _, a in st.auction.history:
        fresh.apply(a)
    assert copy.hands == fresh.hands and copy.belote_pairs == fresh.belote_pairs
    for seat in range(4):
        assert copy.information_set(seat) == fresh.information_set(seat)
    with pytest.raises(ValueError, match="8 cards covering the deck"):
        st.clone().replace_hands([hands[0]] * 4)
    copy.apply(copy.legal_actions()[0])
    with pytest.raises(ValueError, match="only at the first lead of a four-seat deal"):
        copy.replace_hands(hands)


def test_replace_hands_refuses_a_state_after_an_action_of_play():
    """A pending belote announcement or declaration is an action of play: ``replace_hands``
    refuses the state then (the new hands might not allow it); numpy ints are stored as ints."""
    import numpy as np

    from belote_env.actions import ANNOUNCE_BELOTE, DECLARE

    rules = Rules(target=None, declarations="choice", belote="optional")
    normal = NormalPolicy(0)
    for seed in range(200):
        st = GameState(rules, seed=seed, single_deal=True)
        while st.phase != 1:
            st.apply(normal.act(st.information_set(st.current)))
        if st.turned_card < 0 or not (set(st.legal_actions()) & {ANNOUNCE_BELOTE, DECLARE}):
            continue
        copy = st.clone()
        copy.replace_hands(np.array(st.hands, dtype=np.int64))
        assert all(type(h) is int for h in copy.hands)
        copy.apply(next(a for a in copy.legal_actions() if a in (ANNOUNCE_BELOTE, DECLARE)))
        with pytest.raises(ValueError, match="before any action of play"):
            copy.replace_hands(st.hands)
        break
    else:
        pytest.fail("no first lead with a declaration or a belote announcement to make")
    with pytest.raises(ValueError, match="hands must be 4 ints"):
        st.clone().replace_hands([True] * 4)


def test_the_expert_tier_weighs_lazily_and_stops_and_full_expert_solves_every_world():
    """The ``expert`` tier weighs its candidate worlds lazily and stops once the leading
    card is settled (``stop_z`` 1.5); ``full_expert``, the tier before, weighs every
    candidate first and solves every planned world. At mid-deal card decisions of a seeded
    deal the tier solves fewer worlds, never fewer than ``min_samples``."""
    from policies import make_policy
    from policies.search import full_expert

    expert, full = make_policy("expert", seed=1), full_expert(1)
    assert (expert.belief_lazy, expert.stop_z, full.belief_lazy, full.stop_z) == (True, 1.5, False, None)
    assert full.name == "expert_full" and expert.name == "expert"
    st = GameState(Rules(target=None), seed=3, single_deal=True)
    fewer = searched = 0
    while not st.is_deal_over:
        info = st.information_set(st.current)
        a = expert.act(info)
        if st.phase == 1 and 2 <= len(info.tricks) <= 5 and expert.last_stats.get("samples", 0):
            full.act(info)
            assert expert.min_samples <= expert.last_stats["samples"] <= full.last_stats["samples"]
            fewer += expert.last_stats["samples"] < full.last_stats["samples"]
            searched += 1
        st.apply(a)
    assert searched >= 4 and fewer >= searched // 2


def test_uniform_expert_draws_uniform_worlds_with_the_tiers_other_settings():
    """``uniform_expert``: the tier's settings but the belief model (uniform worlds) and a
    later stop (``stop_z`` 3); it plays legal cards and its worlds carry weight 1."""
    from policies.search import expert_policy, uniform_expert

    pol, tier = uniform_expert(2), expert_policy(2)
    assert pol.belief is None and tier.belief is not None and pol.stop_z == 3.0
    assert (pol.samples, pol.prior_weight, pol.node_budget) == (tier.samples, tier.prior_weight, tier.node_budget)
    searched = 0
    for seed in range(4):
        st = GameState(Rules(target=None), seed=seed, single_deal=True)
        while not st.is_deal_over and len(st.actions) < 20:
            info = st.information_set(st.current)
            a = pol.act(info)
            assert a in info.legal_actions
            searched += st.phase == 1 and pol.last_stats.get("samples", 0) > 0
            st.apply(a)
    assert searched >= 3


@pytest.mark.parametrize("preset", ["seed001_2p", "seed001_3p"])
def test_expert_at_a_time_budget_bounds_its_card_search_at_two_and_three_seats(preset):
    """At two and three seats ``expert@1ms`` solves only its ``min_samples`` deals a card
    decision, where the expert solves all its ``samples`` (the same first deals: the
    same sampler stream); both report them in ``last_stats``."""
    import random as _random

    from belote_env import GameState

    quick, plain, normal = make_policy("expert@1ms", seed=4), make_policy("expert", seed=4), NormalPolicy(6)
    rng = _random.Random(6)
    st = GameState(load_rules(preset), seed=6, single_deal=True)
    searched = 0
    while not st.is_deal_over and searched < 2:
        info = st.information_set(st.current)
        cards = [a for a in info.legal_actions if a < 32]
        if len(cards) > 1 and sum(info.hand_sizes) <= 12:
            quick.act(info)
            plain.act(info)
            if quick.last_stats.get("samples"):
                assert (quick.last_stats["samples"], plain.last_stats["samples"]) == (quick.min_samples, plain.samples)
                assert quick.min_samples < plain.samples
                searched += 1
        # a played deal: the first seat asked takes, normal makes the other decisions
        st.apply(rng.choice(cards) if cards else TAKE if TAKE in info.legal_actions else normal.act(info))
    assert searched == 2
