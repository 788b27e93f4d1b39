"""Rule option ``overtrump_partner`` ("free" | "must_overtrump"; COINCHE.md §4, example P2
of §10.3): a trump played over the partner's winning ruff must beat it when the seat can.

Checked here: P2 by hand under both values; the seat that cannot overtrump (its lower
trumps stay legal); trump led and the no-trump / all-trump contracts unchanged; the
``partner_master_free=False`` combination; ``obligations="two_player"`` unchanged; what a
played card reveals (``inference.card_reveals``); the compiled twins (the solver's
legality and search, the batched engine) equal to the reference under both values.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from belote_env import GameState, Rules
from belote_env.cards import ALL_TRUMP, BEATS, NO_TRUMP, SUIT_MASK, cards_to_str, parse_card, parse_cards
from belote_env.game import Phase
from belote_env.inference import card_reveals, public_constraints
from belote_env.rules import legal_cards, trick_winner
from belote_env.table import PARTNER_REL, SEATS

SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3
FREE = Rules()
MUST = Rules(overtrump_partner="must_overtrump")

#: every play option of RULES.md §4, each under both values of overtrump_partner
PLAY_OPTIONS = [
    {},
    {"partner_master_free": False},
    {"undertrump": "discard_allowed"},
    {"undertrump": "discard_allowed", "partner_master_free": False},
    {"obligations": "two_player"},
    {"obligations": "two_player", "partner_master_free": False, "all_trump_points": "ffb2015"},
]
RULESETS = [Rules(target=None, overtrump_partner=v, **o) for o in PLAY_OPTIONS for v in ("free", "must_overtrump")]


def legal(hand: str, trick: str, contract: int, rules: Rules) -> str:
    return cards_to_str(legal_cards(parse_cards(hand), [parse_card(c) for c in trick.split()], contract, rules), True)


def norm(cards: str) -> str:
    return cards_to_str(parse_cards(cards), True)


def bits(*names: str) -> int:
    return sum(1 << parse_card(n) for n in names)


# ----------------------------------------------------------------------------- by hand
def test_option_values_and_default():
    assert Rules().overtrump_partner == "free"
    assert Rules(contract_mode="coinche").overtrump_partner == "free"
    assert Rules(contract_mode="coinche", overtrump_partner="must_overtrump").overtrump_partner == "must_overtrump"


def test_p2_partner_winning_with_a_trump():
    """COINCHE.md §10.3 P2: spades; seat 0 leads 10♦, seat 1 ruffs 9♠, seat 2 plays 7♦;
    seat 3 (seat 1's partner, winning) is void in diamonds with {8♠, J♠, A♣}."""
    trick = "10D 9S 7D"
    assert trick_winner([parse_card(c) for c in trick.split()], SPADES) == len(trick.split()) - PARTNER_REL
    assert legal("8S JS AC", trick, SPADES, FREE) == norm("8S JS AC")
    assert legal("8S JS AC", trick, SPADES, MUST) == norm("JS AC")
    # the same in coinche mode (the option applies in both modes)
    coinche = Rules(contract_mode="coinche", overtrump_partner="must_overtrump")
    assert legal("8S JS AC", trick, SPADES, coinche) == norm("JS AC")
    assert legal("8S JS AC", trick, SPADES, Rules(contract_mode="coinche")) == norm("8S JS AC")


def test_cannot_overtrump_the_partner():
    """Holding no trump above the partner's, every card stays legal (the lower trumps
    included): the obligation is only to beat the partner *when one can*."""
    assert legal("8S AS AC", "10D 9S 7D", SPADES, MUST) == norm("8S AS AC")
    assert legal("8S AS AC", "10D JS 7D", SPADES, MUST) == norm("8S AS AC")  # J♠: nothing beats it
    assert legal("JS AS 8C", "10D 9S 7D", SPADES, MUST) == norm("JS 8C")  # A♠ is below 9♠
    # only trumps in hand: the higher ones
    assert legal("7S JS", "10D 9S 7D", SPADES, MUST) == norm("JS")
    assert legal("7S 8S", "10D 9S 7D", SPADES, MUST) == norm("7S 8S")
    # the partner wins as second to play (a trick of two cards so far)
    assert legal("7S JS AH", "9S 10D", SPADES, MUST) == legal("7S JS AH", "9S 10D", SPADES, FREE)  # trump led
    assert legal("7S JS AH", "10D 9S 8D", SPADES, FREE) == norm("7S JS AH")
    assert legal("7S JS AH", "10D 9S 8D", SPADES, MUST) == norm("JS AH")


def test_partner_winning_without_a_trump_is_unchanged():
    """The partner wins with a card of the led suit: nobody has trumped, nothing to beat."""
    for rules in (FREE, MUST):
        assert legal("7S JS AH 8C", "AD 7D", SPADES, rules) == norm("7S JS AH 8C")
        strict = rules.replace(partner_master_free=False)
        assert legal("7S JS AH 8C", "AD 7D", SPADES, strict) == norm("7S JS")


def test_opponent_winning_is_unchanged():
    """An opponent's ruff: overtrump when you can, else the ``undertrump`` option."""
    for value in ("free", "must_overtrump"):
        r = Rules(overtrump_partner=value)
        assert legal("7S JS AH 8C", "10D 9S", SPADES, r) == norm("JS")
        assert legal("7S 8S AH 8C", "10D 9S", SPADES, r) == norm("7S 8S")
        d = r.replace(undertrump="discard_allowed")
        assert legal("7S 8S AH 8C", "10D 9S", SPADES, d) == norm("7S 8S AH 8C")
        # the opponent over-ruffed the partner (10♦ 8♠ 9♠): overtrump the 9♠
        assert legal("7S JS AH", "10D 8S 9S", SPADES, r) == norm("JS")


def test_trump_led_is_unchanged():
    """RULES.md §4.1: with trump led one already beats the highest trump, even the
    partner's; the option changes nothing."""
    for hand, trick, want in [
        ("JS QS AC", "7S 9S 8S", "JS"),  # the partner (9♠) wins: beat it
        ("QS KS AC", "7S 9S 8S", "QS KS"),  # cannot: any trump
        ("7D AC", "7S 9S 8S", "7D AC"),  # no trump: any card
        ("7S AS", "8S 10S", "AS"),
        ("7S 9S", "JS 8S 10S", "7S 9S"),
    ]:
        assert legal(hand, trick, SPADES, FREE) == legal(hand, trick, SPADES, MUST) == norm(want)


def test_no_trump_and_all_trump_are_unchanged():
    for hand, trick, contract in [("7D 9D KD", "10D", ALL_TRUMP), ("7S KH", "9D 7D 8D", ALL_TRUMP),
                                  ("7D KD AS", "10D AD 8D", NO_TRUMP), ("7S AS KH", "10D", NO_TRUMP)]:
        assert legal(hand, trick, contract, FREE) == legal(hand, trick, contract, MUST)


def test_partner_master_free_false():
    """The seat must trump while its partner wins; must_overtrump makes that trump an
    overtrump of the partner's ruff when possible (else any trump, whatever ``undertrump``
    says: that option is about an opponent's ruff)."""
    for extra in ({}, {"undertrump": "discard_allowed"}):
        free = Rules(partner_master_free=False, **extra)
        must = free.replace(overtrump_partner="must_overtrump")
        assert legal("8S JS AC", "10D 9S 7D", SPADES, free) == norm("8S JS")
        assert legal("8S JS AC", "10D 9S 7D", SPADES, must) == norm("JS")
        assert legal("8S AS AC", "10D 9S 7D", SPADES, free) == norm("8S AS")
        assert legal("8S AS AC", "10D 9S 7D", SPADES, must) == norm("8S AS")
        assert legal("AC KH", "10D 9S 7D", SPADES, must) == norm("AC KH")  # no trump at all


def test_two_player_obligations_are_unchanged():
    """``obligations="two_player"`` obliges overtrumping only when trump is led (RULES.md
    §4): the option does not add an overtrump of the partner there."""
    for pmf in (True, False):
        free = Rules(obligations="two_player", partner_master_free=pmf)
        must = free.replace(overtrump_partner="must_overtrump")
        for hand in ("8S JS AC", "8S AS AC", "7S JS"):
            assert legal(hand, "10D 9S 7D", SPADES, must) == legal(hand, "10D 9S 7D", SPADES, free)


# ----------------------------------------------------------------------------- properties
def _random_position(rng: random.Random):
    """``(hand, trick, denomination)``: half the time any position, half the time the
    partner-ruff shape (a plain lead, a ruff, a third card that may over-ruff, the seat
    to play void in the led suit)."""
    if rng.random() < 0.5:
        deck = list(range(32))
        rng.shuffle(deck)
        n = rng.randrange(4)
        trick = deck[:n]
        hand = sum(1 << c for c in deck[n:n + rng.randint(1, 8)])
        return hand, trick, rng.randrange(6)
    k = rng.randrange(NO_TRUMP)
    led = rng.choice([s for s in range(4) if s != k])
    others = [c for c in range(32) if c >> 3 != led]
    rng.shuffle(others)
    lead, follow = rng.sample(range(8 * led, 8 * led + 8), 2)
    ruff = next(c for c in others if c >> 3 == k)
    trick = [lead, ruff, follow if rng.random() < 0.5 else others[-1]]  # the last: maybe an over-ruff
    pool = [c for c in others if c not in trick]
    return sum(1 << c for c in pool[:rng.randint(1, 8)]), trick, k


def _partner_ruff_case(hand: int, trick: list[int], k: int, rules: Rules) -> bool:
    """The one situation the option governs: a plain suit led, the seat void in it, its
    partner winning with a trump, classic obligations."""
    if not trick or k >= NO_TRUMP or trick[0] >> 3 == k or hand & SUIT_MASK[trick[0] >> 3]:
        return False
    w = trick_winner(trick, k)
    return w == len(trick) - PARTNER_REL and trick[w] >> 3 == k and rules.obligations == "classic"


def test_must_overtrump_only_narrows_the_partner_ruff_case():
    """Under every play option: the legal cards are the same under both values except
    when the partner wins with a ruff, and there they are a subset, trimmed exactly of the
    trumps below the partner's when the seat holds a higher one."""
    rng = random.Random(5)
    seen = 0
    for i in range(20000):
        hand, trick, k = _random_position(rng)
        base = RULESETS[2 * (i % len(PLAY_OPTIONS))]
        free, must = legal_cards(hand, trick, k, base), legal_cards(hand, trick, k, base.replace(
            overtrump_partner="must_overtrump"))
        if not _partner_ruff_case(hand, trick, k, base):
            assert free == must
            continue
        win = trick[trick_winner(trick, k)]
        higher = hand & SUIT_MASK[k] & BEATS[k][win]
        assert must == (free & ~(SUIT_MASK[k] & ~BEATS[k][win]) if higher else free)
        seen += free != must
    assert seen > 500


def test_solver_legality_equals_rules_legal_cards():
    """The solver's compiled legality reproduces ``rules.legal_cards`` under both values."""
    from belote_env.solver import _BEATS, _K, _NSEATS, _OVER, _PMF, _SUIT, _TWO, _UNDER, _legal

    rng = random.Random(11)
    for i in range(12000):
        rules = RULESETS[i % len(RULESETS)]
        hand, trick, k = _random_position(rng)
        prm = np.zeros(10, dtype=np.int64)
        prm[_K], prm[_PMF], prm[_NSEATS] = k, rules.partner_master_free, 4
        prm[_UNDER], prm[_TWO] = rules.undertrump == "required", rules.obligations == "two_player"
        prm[_OVER] = rules.overtrump_partner == "must_overtrump"
        tr = np.array(trick + [0] * (4 - len(trick)), dtype=np.int64)
        win_pos = trick_winner(trick, k) if trick else 0
        seat = len(trick)  # the trick led by seat 0
        assert _legal(hand, tr, len(trick), win_pos, prm, _BEATS[k], _SUIT, seat, 0) == legal_cards(hand, trick, k,
                                                                                              rules)


@pytest.mark.parametrize("extra", [{}, {"partner_master_free": False}, {"undertrump": "discard_allowed"}])
def test_solver_agrees_with_brute_force_under_must_overtrump(extra):
    """The double-dummy values under must_overtrump equal exhaustive minimax through
    ``rules.legal_cards`` (tests/test_solver.py's brute force) on random endgames."""
    from belote_env.solver import Solver
    from tests.test_solver import brute_card_values, brute_force, random_endgame

    rules = Rules(target=None, overtrump_partner="must_overtrump", **extra)
    rng = random.Random(300 + len(extra))
    solver = Solver(tt_bits=16)
    for i in range(300):
        pos = random_endgame(rng, rules, 1 + i % 3)
        assert solver.solve(pos) == brute_force(pos), pos
        if i % 3 == 0:
            assert solver.card_values(pos) == brute_card_values(pos), pos


# ----------------------------------------------------------------------------- what a card reveals
def test_card_reveals_by_hand():
    """P2: under must_overtrump the 8♠ under the partner's 9♠ shows no J♠ (the only trump
    above it); a discard shows only the void; under ``free`` the 8♠ shows nothing more."""
    p2 = tuple(parse_card(c) for c in "10D 9S 7D".split())
    void = SUIT_MASK[DIAMONDS]
    assert card_reveals(p2, parse_card("8S"), SPADES, FREE) == void
    assert card_reveals(p2, parse_card("8S"), SPADES, MUST) == void | bits("JS")
    assert card_reveals(p2, parse_card("AC"), SPADES, MUST) == void
    assert card_reveals(p2, parse_card("JS"), SPADES, MUST) == void
    strict = Rules(partner_master_free=False, overtrump_partner="must_overtrump")
    assert card_reveals(p2, parse_card("8S"), SPADES, strict) == void | bits("JS")
    assert card_reveals(p2, parse_card("AC"), SPADES, strict) == void | SUIT_MASK[SPADES]
    assert card_reveals(p2, parse_card("8S"), SPADES, Rules(partner_master_free=False)) == void
    two = Rules(obligations="two_player", overtrump_partner="must_overtrump")
    assert card_reveals(p2, parse_card("8S"), SPADES, two) == void


def test_card_reveals_never_excludes_a_held_card():
    """For every legal card of random positions under every play option and both values,
    what playing it reveals excludes no card the seat still holds; and under
    must_overtrump a trump below the partner's ruff shows every higher trump absent."""
    rng = random.Random(17)
    fired = 0
    for i in range(20000):
        rules = RULESETS[i % len(RULESETS)]
        hand, trick, k = _random_position(rng)
        legal = legal_cards(hand, trick, k, rules)
        for c in range(32):
            if legal >> c & 1:
                shown = card_reveals(tuple(trick), c, k, rules)
                assert shown & hand & ~(1 << c) == 0, (hand, trick, k, c, rules)
                if (rules.overtrump_partner == "must_overtrump" and _partner_ruff_case(hand, trick, k, rules)
                        and c >> 3 == k):
                    win = trick[trick_winner(trick, k)]
                    if not BEATS[k][win] >> c & 1:
                        assert shown & BEATS[k][win] == BEATS[k][win]
                        fired += 1
    assert fired > 20


@pytest.mark.parametrize("extra", [{}, {"partner_master_free": False}, {"undertrump": "discard_allowed"},
                                   {"round2_no_trump_all_trump": True}])
def test_public_constraints_stay_true_in_random_play(extra):
    """Random legal play under must_overtrump: after each card, the public constraints
    (the engine's card-by-card ones and ``public_constraints`` rebuilt by every viewer)
    never exclude a card a seat actually holds."""
    rules = Rules(overtrump_partner="must_overtrump", target=None, **extra)
    rng = random.Random(23)
    checked = 0
    for _ in range(25):
        st = GameState(rules, seed=rng.randrange(10 ** 6))
        while not st.is_deal_over:
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
            if st.phase != Phase.PLAY or st.is_deal_over:
                continue
            for seat in SEATS:
                assert st.public_cannot[seat] & st.hands[seat] == 0, (seat, st.actions)
            for viewer in SEATS:
                c = public_constraints(st.information_set(viewer))
                for seat in SEATS:
                    if seat != viewer:
                        assert c.cannot[seat] & st.hands[seat] == 0, (viewer, seat, st.actions)
                        assert c.known[seat] & ~st.hands[seat] == 0, (viewer, seat, st.actions)
            checked += 1
    assert checked > 500


# ----------------------------------------------------------------------------- the batched engine
def test_option_mixes_exercise_overtrump_partner():
    from tests.vector_harness import MIX_OPTIONS, option_mixes

    assert MIX_OPTIONS["overtrump_partner"] == ("free", "must_overtrump")
    values = {r.overtrump_partner for r in option_mixes(24, seed=21)}
    assert values == {"free", "must_overtrump"}


def test_rules_codes_carry_the_option():
    from belote_env.vector.engine import O_OVER, rules_codes

    assert rules_codes(FREE)[O_OVER] == 0 and rules_codes(MUST)[O_OVER] == 1


@pytest.mark.parametrize("extra", [{}, {"partner_master_free": False},
                                   {"undertrump": "discard_allowed", "round2_no_trump_all_trump": True},
                                   {"obligations": "two_player"}])
def test_batched_engine_equals_reference_under_must_overtrump(extra):
    """Identical masks, states (public constraints included), observations and rewards
    step for step (tests/vector_harness.py)."""
    from tests.vector_harness import run

    counts = run(Rules(overtrump_partner="must_overtrump", **extra), n_tables=16, decisions=2500, seed=13)
    assert counts["deals"] >= 50
