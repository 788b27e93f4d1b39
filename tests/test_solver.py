"""Double-dummy solver (RULES.md §4, §7): its legal-card bit operations equal
``rules.legal_cards``; its values equal brute-force minimax on thousands of random
endgames under every contract kind and play option; the line it chooses, replayed
through the engine, scores exactly its value; bad positions are refused."""

import random
from functools import lru_cache

import numpy as np
import pytest

from belote_env import GameState, Rules
from belote_env.cards import POINTS_BY_ALL_TRUMP_OPTION, parse_card, parse_cards
from belote_env.rules import legal_cards, trick_winner
from belote_env.solver import Position, Solver, card_values, position_of, solve

#: every play option of RULES.md §4 (the others do not change card play)
RULESETS = [
    Rules(target=None),
    Rules(target=None, partner_master_free=False),
    Rules(target=None, undertrump="discard_allowed"),
    Rules(target=None, undertrump="discard_allowed", partner_master_free=False),
    Rules(target=None, obligations="two_player"),
    Rules(target=None, obligations="two_player", partner_master_free=False, all_trump_points="ffb2015"),
]


def brute_force(pos: Position) -> int:
    """Takers' card points from ``pos`` on by exhaustive minimax (no pruning; memoised on
    the whole position, which is exact)."""
    k, team, rules = pos.denomination, pos.taker & 1, pos.rules
    pts = POINTS_BY_ALL_TRUMP_OPTION[rules.all_trump_points][k]

    @lru_cache(maxsize=None)
    def value(hands, trick, leader):
        seat = (leader + len(trick)) % 4
        if not trick and not any(hands):
            return 0
        vals = []
        legal = legal_cards(hands[seat], list(trick), k, rules)
        for c in range(32):
            if not legal >> c & 1:
                continue
            h = list(hands)
            h[seat] &= ~(1 << c)
            t = trick + (c,)
            if len(t) == 4:
                w = (leader + trick_winner(t, k)) % 4
                p = sum(pts[x] for x in t) + (10 if not any(h) else 0)
                vals.append((p if (w & 1) == team else 0) + value(tuple(h), (), w))
            else:
                vals.append(value(tuple(h), t, leader))
        return max(vals) if (seat & 1) == team else min(vals)

    return value(tuple(pos.hands), tuple(pos.trick), pos.leader)


def brute_card_values(pos: Position) -> dict[int, int]:
    """Brute-force value after each legal card of the seat to play."""
    seat, k, rules = pos.to_play, pos.denomination, pos.rules
    pts = POINTS_BY_ALL_TRUMP_OPTION[rules.all_trump_points][k]
    out = {}
    legal = legal_cards(pos.hands[seat], list(pos.trick), k, rules)
    for c in range(32):
        if not legal >> c & 1:
            continue
        h = list(pos.hands)
        h[seat] &= ~(1 << c)
        t = pos.trick + (c,)
        if len(t) == 4:
            w = (pos.leader + trick_winner(t, k)) % 4
            p = sum(pts[x] for x in t) + (10 if not any(h) else 0)
            gain = p if (w & 1) == (pos.taker & 1) else 0
            out[c] = gain + brute_force(Position(tuple(h), k, pos.taker, (), w, rules))
        else:
            out[c] = brute_force(Position(tuple(h), k, pos.taker, t, pos.leader, rules))
    return out


def random_endgame(rng: random.Random, rules: Rules, tricks: int) -> Position:
    """A random position with ``tricks`` tricks to finish (the current one included): a
    random contract kind, taker and leader, and 0..3 cards already in the trick."""
    deck = list(range(32))
    rng.shuffle(deck)
    in_trick = rng.randrange(4)
    leader = rng.randrange(4)
    hands = [0, 0, 0, 0]
    pos = 0
    for s in range(4):
        n = tricks - (1 if (s - leader) % 4 < in_trick else 0)
        for c in deck[pos:pos + n]:
            hands[s] |= 1 << c
        pos += n
    trick = tuple(deck[pos:pos + in_trick])
    return Position(tuple(hands), rng.randrange(6), rng.randrange(4), trick, leader, rules)


def test_legal_bit_operations_equal_rules_legal_cards():
    """The solver's compiled legality reproduces ``rules.legal_cards`` for every contract
    kind and play option (RULES.md §4), and at two and three seats for their options
    (TWO_THREE.md §3: the co-defender's card under ``defender_partner_free``)."""
    from belote_env.games import game_of
    from belote_env.rules import co_defender_pos
    from belote_env.solver import _BEATS, _CODEF, _K, _MAX, _NSEATS, _OVER, _PMF, _SUIT, _TAKER, _TWO, _UNDER, _legal

    small = [Rules(players=2), Rules(players=3), Rules(players=3, defender_partner_free=True),
             Rules(players=3, defender_partner_free=True, ruff_overtrump="required")]
    rng = random.Random(1)
    for i in range(8000):
        rules = (RULESETS + small)[i % (len(RULESETS) + len(small))]
        ns = rules.players
        obligations, pmf, undertrump, overtrump = game_of(rules).play_options
        k = rng.randrange(6 if ns == 4 else 4)
        deck = list(range(32))
        rng.shuffle(deck)
        n = rng.randrange(ns)
        trick = deck[:n]
        hand = sum(1 << c for c in deck[n:n + rng.randint(1, 8)])
        leader, taker = rng.randrange(ns), rng.randrange(ns)
        seat = (leader + n) % ns
        prm = np.zeros(10, dtype=np.int64)
        prm[_K], prm[_PMF], prm[_NSEATS], prm[_TAKER], prm[_MAX] = k, pmf, ns, taker, 1 << taker
        prm[_UNDER], prm[_TWO] = undertrump == "required", obligations == "two_player"
        prm[_OVER], prm[_CODEF] = overtrump == "must_overtrump", ns == 3 and pmf
        tr = np.array(trick + [0] * (4 - n), dtype=np.int64)
        win_pos = trick_winner(trick, k) if trick else 0
        partner = None if ns == 4 else co_defender_pos(seat, taker, leader, n, rules)
        assert _legal(hand, tr, n, win_pos, prm, _BEATS[k], _SUIT, seat, leader) == legal_cards(
            hand, trick, k, rules, partner), (rules, k, trick, hand, leader, taker)


@pytest.mark.parametrize("rules_i", range(len(RULESETS)))
def test_solver_agrees_with_brute_force_on_endgames(rules_i):
    """Values of positions and of every legal card equal exhaustive minimax on random
    endgames of 1 to 4 tricks (500 per rule set, every contract kind)."""
    rules = RULESETS[rules_i]
    rng = random.Random(100 + rules_i)
    solver = Solver(tt_bits=16)
    kinds = set()
    for i in range(500):
        pos = random_endgame(rng, rules, 1 + i % 3 if i % 10 else 4)
        kinds.add(pos.denomination)
        want = brute_force(pos)
        assert solver.solve(pos) == want, pos
        if i % 4 == 0:
            assert solver.card_values(pos) == brute_card_values(pos), pos
    assert kinds == set(range(6))


def _endgame_state(rules: Rules, seed: int, tricks_left: int) -> GameState:
    """A real engine state (random legal play) with ``tricks_left`` tricks to finish."""
    rng = random.Random(seed)
    st = GameState(rules, seed=seed)
    while not st.is_deal_over and (st.phase == 0 or len(st.tricks) < 8 - tricks_left):
        legal = st.legal_actions()
        st.apply(legal[rng.randrange(len(legal))])
    for _ in range(rng.randrange(4)):
        if st.is_deal_over or len(st.trick) == 3:
            break
        cards = [a for a in st.legal_actions() if a < 32]
        st.apply(cards[rng.randrange(len(cards))])
    return st


def _replay_best_line(st: GameState) -> tuple[int, int]:
    """Play the solver's best card at every step (ties: lowest id); returns (the value the
    solver gave at the start, the takers' card points the engine then counted)."""
    team = st.taker & 1
    start = st.card_points[team]
    value = solve(position_of(st))
    while not st.is_deal_over:
        legal = st.legal_actions()
        if legal[0] >= 32:  # an announcement: it changes nothing in card play
            st.apply(legal[0])
            continue
        vals = card_values(position_of(st))
        assert set(vals) == {a for a in legal if a < 32}
        pick = max if (st.current & 1) == team else min
        best = pick(vals.values())
        st.apply(min(c for c, v in vals.items() if v == best))
    last = 10 if st.tricks[-1][2] & 1 == team else 0
    return value, st.card_points[team] + last - start


@pytest.mark.parametrize("rules_i", range(len(RULESETS)))
def test_solver_line_replays_to_its_value(rules_i):
    """From endgames and from the first lead of whole deals, the solver's line played
    through ``GameState.apply`` wins the takers exactly the solver's value."""
    rules = RULESETS[rules_i].replace(round2_no_trump_all_trump=True)
    for seed in range(24):
        st = _endgame_state(rules, seed, 8 if seed % 6 == 0 else 1 + seed % 4)
        if st.is_deal_over:
            continue
        value, got = _replay_best_line(st)
        assert got == value


def test_hand_checked_endgame():
    """Trump spades, two tricks left, South (taker) leads. J♠ draws West's 7♠ and wins
    whatever North and East play; A♥ then wins the last trick: the takers take all
    20+11+10+11 card points + 10 (dix de der) = 62. Leading A♥ instead, West must ruff
    (7♠: 11+10 for the defenders) and leads 8♦, which South ruffs with J♠ for
    11 + 20 + 10 = 41 (RULES.md §4.2, §7)."""
    hands = (parse_cards("JS AH"), parse_cards("7S 8D"), parse_cards("AD 7H"), parse_cards("10H 9D"))
    pos = Position(hands, 0, 0, (), 0, Rules())
    assert solve(pos) == 62
    assert card_values(pos) == {parse_card("JS"): 62, parse_card("AH"): 41}


@pytest.mark.parametrize("bad, match", [
    (dict(denomination=6), "denomination"),
    (dict(taker=4), "taker"),
    (dict(leader=-1), "leader"),
    (dict(hands=(1, 1, 4, 8)), "two hands"),
    (dict(hands=(3, 4, 8, 16)), "hand sizes"),
    (dict(trick=(0,)), "two hands"),
    (dict(trick=(32,)), "trick"),
])
def test_bad_positions_are_refused(bad, match):
    base = dict(hands=(1, 2, 4, 8), denomination=0, taker=0, trick=(), leader=0, rules=Rules())
    with pytest.raises(ValueError, match=match):
        solve(Position(**{**base, **bad}))


def test_solver_bad_table_size():
    with pytest.raises(ValueError, match="tt_bits"):
        Solver(tt_bits=40)


def test_position_of_needs_card_play():
    with pytest.raises(ValueError, match="card-play"):
        position_of(GameState(Rules(target=None), seed=0))


@pytest.mark.parametrize("rules_i", range(len(RULESETS)))
def test_same_deal_table_reuse_gives_the_fresh_values(rules_i):
    """``card_values(..., same_deal=True)`` keeps the table across the positions of one
    deal: every decision's values equal a fresh solver's (a table kept from another deal
    would not be valid, hence the flag)."""
    rules = RULESETS[rules_i].replace(round2_no_trump_all_trump=True)
    kept, checked = Solver(), 0
    for seed in range(6):
        st = _endgame_state(rules, seed, 8)
        same = False
        rng = random.Random(seed)
        while not st.is_deal_over:
            legal = st.legal_actions()
            cards = [a for a in legal if a < 32]
            if len(cards) > 1:
                pos = position_of(st)
                assert kept.card_values(pos, same_deal=same) == Solver().card_values(pos)
                same = True
                checked += 1
            st.apply(cards[rng.randrange(len(cards))] if cards else legal[0])
    assert checked > 20


def test_same_deal_refuses_a_position_of_another_deal():
    """A hand holding a card it did not hold at the previous call, or another contract:
    the kept table would give wrong values (measured: 126 instead of 162), so it raises."""
    hands = (parse_cards("JS AH"), parse_cards("7S 8D"), parse_cards("AD 7H"), parse_cards("10H 9D"))
    s = Solver()
    s.card_values(Position(hands, 0, 0, (), 0, Rules()))
    swapped = (hands[1], hands[0], hands[2], hands[3])
    with pytest.raises(ValueError, match="same_deal"):
        s.card_values(Position(swapped, 0, 0, (), 0, Rules()), same_deal=True)
    with pytest.raises(ValueError, match="same_deal"):
        s.card_values(Position(hands, 1, 0, (), 0, Rules()), same_deal=True)
    assert s.card_values(Position(swapped, 0, 0, (), 0, Rules())) == card_values(Position(swapped, 0, 0, (), 0, Rules()))
