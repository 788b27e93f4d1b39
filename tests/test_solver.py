"""Double-dummy solver: exact against brute-force minimax, and its line replays to its value."""

import random

import pytest

from belote_env import GameState, Rules
from belote_env.cards import POINTS_BY_ALL_TRUMP_OPTION
from belote_env.rules import legal_cards, trick_winner
from belote_env.solver import card_values, position_of, solve

RULESETS = [Rules(target=None), Rules(target=None, round2_no_trump_all_trump=True, all_trump_points="ffb2015"),
            Rules(target=None, undertrump="discard_allowed", partner_master_free=False),
            Rules(target=None, obligations="two_player")]


def brute(hands, trick, leader, k, team, rules):
    pts = POINTS_BY_ALL_TRUMP_OPTION[rules.all_trump_points][k]
    seat = (leader + len(trick)) % 4
    if not trick and not any(hands):
        return 0
    legal = legal_cards(hands[seat], trick, k, rules)
    vals = []
    for c in range(32):
        if not legal >> c & 1:
            continue
        h = list(hands)
        h[seat] &= ~(1 << c)
        t = trick + [c]
        if len(t) == 4:
            w = (leader + trick_winner(t, k)) % 4
            p = sum(pts[x] for x in t) + (10 if not any(h) else 0)
            v = (p if (w & 1) == team else 0) + brute(h, [], w, k, team, rules)
        else:
            v = brute(h, t, leader, k, team, rules)
        vals.append(v)
    return max(vals) if (seat & 1) == team else min(vals)


def _endgame(rules, seed, tricks_left):
    rng = random.Random(seed)
    st = GameState(rules, seed=seed)
    while not st.is_deal_over and (st.contract < 0 or len(st.tricks) < 8 - tricks_left):
        legal = st.legal_actions()
        choices = [a for a in legal if a < 32 or rules.round2_no_trump_all_trump] or legal
        st.apply(choices[rng.randrange(len(choices))])
    for _ in range(rng.randrange(4)):
        if st.is_deal_over or len(st.trick) == 3:
            break
        legal = [a for a in st.legal_actions() if a < 32]
        st.apply(legal[rng.randrange(len(legal))])
    return st


@pytest.mark.parametrize("rules_i", range(len(RULESETS)))
def test_solver_agrees_with_brute_force(rules_i):
    rules = RULESETS[rules_i]
    checked = 0
    for seed in range(400):
        st = _endgame(rules, seed, 3 if seed % 3 else 2)
        if st.is_deal_over or st.phase != 1 or st.legal_actions()[0] >= 32:
            continue
        pos = position_of(st)
        want = brute(list(pos.hands), list(pos.trick), pos.leader, pos.contract, pos.taker & 1, rules)
        assert solve(pos) == want
        checked += 1
    assert checked > 150


def test_solver_line_replays_to_its_value():
    rules = Rules(target=None)
    for seed in range(60):
        st = _endgame(rules, seed, 3)
        if st.is_deal_over or st.legal_actions()[0] >= 32:
            continue
        team = st.taker & 1
        start = st.card_points[team]
        value = solve(position_of(st))
        while not st.is_deal_over:
            vals = card_values(position_of(st))
            pick = max if (st.current & 1) == team else min
            best = pick(vals.values())
            st.apply(next(c for c, v in sorted(vals.items()) if v == best))
        last = 10 if st.tricks[-1][2] & 1 == team else 0
        assert st.card_points[team] + last - start == value
