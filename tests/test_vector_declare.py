"""belote_env/vector/declare.py against the reference (RULES.md §6): declarations.py's
best_declarations / Declaration.strength and scoring.py's team_declaration_points."""

import random
from collections import Counter

import numpy as np
import pytest

from belote_env.cards import ALL_TRUMP, NO_TRUMP, card, parse_cards
from belote_env.config import Rules
from belote_env.declarations import CARRE_POINTS, best_declarations
from belote_env.scoring import team_declaration_points
from belote_env.vector.declare import TIE_CODES, declaration_summary, declaration_team_points

S, H, D, C = 0, 1, 2, 3
DENOMINATIONS = range(6)
RULES = {tie: Rules(declarations="auto", declaration_tie=tie) for tie in TIE_CODES}


def mask(cards):
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def reference(hand, denomination, rules=None):
    """(cards, points, strongest strength or None) of the reference's best_declarations."""
    decls = best_declarations(hand, denomination, rules)
    cards = 0
    for d in decls:
        cards |= d.cards
    return cards, sum(d.points for d in decls), decls[0].strength(denomination) if decls else None


def random_hands(n, first_seed):
    return [mask(random.Random(seed).sample(range(32), 8)) for seed in range(first_seed, first_seed + n)]


def rich_hands(n, seed):
    """8-card hands drawn from a few whole ranks and whole suits: carrés, long runs and
    carrés that cut runs are frequent."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        pool = set()
        for r in rng.sample(range(8), rng.choice((0, 1, 1, 2, 2, 3))):
            pool |= {card(r, s) for s in range(4)}
        for s in rng.sample(range(4), rng.choice((0, 1, 1, 2))):
            lo = rng.choice((0, 0, 1, 2))
            pool |= {card(r, s) for r in range(lo, 8)}
        if len(pool) < 8:
            pool |= set(rng.sample(range(32), 8 - len(pool) + 4))
        out.append(mask(rng.sample(sorted(pool), 8)))
    return out


def check_summaries(hands, keys_by_strength, rules=None):
    """Compare cards and points for every hand and denomination (under ``rules``'
    ``carres`` and ``run5_value``, default ``Rules()``'s); collect the keys seen per
    reference strength (None: no declaration)."""
    r = Rules() if rules is None else rules
    for denomination in DENOMINATIONS:
        for hand in hands:
            cards, points, strength = reference(hand, denomination, rules)
            got = declaration_summary(hand, denomination, int(r.carres), r.run5_value)
            assert (got[0], got[1]) == (cards, points), (hex(hand), denomination, got, cards, points)
            keys_by_strength.setdefault(strength, set()).add(int(got[2]))


def check_key_order(keys_by_strength):
    """key_a > key_b iff strength_a > strength_b, key_a == key_b iff equal, over every pair
    of hands seen: one key per strength, keys strictly increasing with the strength."""
    assert keys_by_strength.get(None, {0}) == {0}
    order = sorted((s for s in keys_by_strength if s is not None))
    keys = []
    for s in order:
        assert len(keys_by_strength[s]) == 1, (s, keys_by_strength[s])
        keys.append(next(iter(keys_by_strength[s])))
    assert keys[0] > 0
    assert all(a < b for a, b in zip(keys, keys[1:])), list(zip(order, keys))


def test_summary_random_hands():
    hands = random_hands(20_000, 0)
    seen = {}
    check_summaries(hands, seen)
    check_key_order(seen)
    assert len(seen) > 30  # many distinct strengths compared


@pytest.mark.parametrize("rules", [Rules(carres=False), Rules(run5_value=50), Rules(carres=False, run5_value=50)],
                         ids=["no_carres", "run5_50", "seed001"])
def test_summary_under_carres_and_run5_value(rules):
    """RULES.md §6 options: the kernel's ``carres`` / ``run5`` arguments give the
    reference's partition under them, keys ordered as its strengths; on a hand where they
    matter (four jacks and 9♠-K♠, one card in both) each changes the points."""
    seen = {}
    check_summaries(rich_hands(2_000, 777) + random_hands(2_000, 50), seen, rules)
    check_key_order(seen)
    hand = parse_cards("JS JH JD JC 9S 10S QS KS")
    want = 200 if rules.carres else rules.run5_value  # the carré of jacks, else the five 9♠-K♠
    assert declaration_summary(hand, H, int(rules.carres), rules.run5_value)[1] == want
    assert declaration_summary(hand, H)[1] == 200  # the defaults: carrés, five cards 100


def test_summary_rich_hands():
    hands = rich_hands(6_000, 12345)
    seen = {}
    check_summaries(hands, seen)
    check_key_order(seen)
    kinds = coverage(hands)
    assert kinds["carre"] > 2000 and kinds["two_carres"] > 300 and kinds["quinte"] > 1000, kinds
    assert kinds["two_sequences"] > 200 and kinds["carre_and_sequence"] > 200, kinds


def coverage(hands):
    """How often the reference declares carrés, two carrés, a quinte, two sequences,
    carrés and sequences together, and leaves a scoring carré undeclared (at spades and
    at no-trump)."""
    kinds = Counter()
    for hand in hands:
        for denomination in (S, NO_TRUMP):
            decls = best_declarations(hand, denomination)
            carres = sum(d.kind == "carre" for d in decls)
            sequences = [d for d in decls if d.kind == "sequence"]
            kinds["carre"] += carres > 0
            kinds["two_carres"] += carres == 2
            kinds["quinte"] += any(d.length == 5 for d in sequences)
            kinds["two_sequences"] += len(sequences) >= 2
            kinds["carre_and_sequence"] += carres > 0 and len(sequences) > 0
            table = CARRE_POINTS["no_trump" if denomination == NO_TRUMP else "suit"]
            held = sum(1 for r in range(8) if table[r] and all(hand >> (8 * s + r) & 1 for s in range(4)))
            kinds["carre_left_out"] += held > carres
    return kinds


def test_summary_any_mask():
    """Masks of 0..32 cards (up to six scoring carrés), and bits above 31 ignored."""
    rng = random.Random(7)
    hands = [mask(rng.sample(range(32), rng.randrange(33))) for _ in range(1_500)]
    seen = {}
    check_summaries(hands, seen)
    check_key_order(seen)
    assert coverage(hands)["carre_left_out"] > 20  # the (points, strengths) comparison of partitions
    full = (1 << 32) - 1
    sevens_eights = mask(card(r, s) for r in (0, 1) for s in range(4))
    assert declaration_summary(full, S)[:2] == (full & ~sevens_eights, 150 + 100 + 200 + 100 + 100 + 100)
    assert declaration_summary(full | (1 << 40), S) == declaration_summary(full, S)
    assert declaration_summary(0, S) == (0, 0, 0)


@pytest.mark.parametrize("hand,denomination,declared,points", [
    # RULES.md §6: carrés J 200, 9 150, A K Q 10 100 at a suit contract
    ("JS JH JD JC 7S 8H 9D AC", S, "JS JH JD JC", 200),
    ("9S 9H 9D 9C 7S 8H KD AC", H, "9S 9H 9D 9C", 150),
    ("AS AH AD AC 7S 8H KD 10C", ALL_TRUMP, "AS AH AD AC", 100),
    # no-trump: A 200, 10 150, K Q J 9 100
    ("AS AH AD AC 7S 8H 9D KC", NO_TRUMP, "AS AH AD AC", 200),
    ("10S 10H 10D 10C 7S 8H 9D KC", NO_TRUMP, "10S 10H 10D 10C", 150),
    ("JS JH JD JC 7S 8H 9D KC", NO_TRUMP, "JS JH JD JC", 100),
    ("9S 9H 9D 9C 7S 8H KD AC", NO_TRUMP, "9S 9H 9D 9C", 100),
    # four 8s score nothing; 8S still makes the tierce 7-8-9 of spades
    ("8S 8H 8D 8C 7S 9S KD AC", S, "7S 8S 9S", 20),
    ("7S 7H 7D 7C 8S 8H 8D 8C", S, "", 0),
    # four jacks and J-Q-K of spades: the jack of spades is in one declaration only, the
    # carré (200 / 100) beats the tierce (20)
    ("JS JH JD JC QS KS 7D 8C", S, "JS JH JD JC", 200),
    ("JS JH JD JC QS KS 7D 8C", NO_TRUMP, "JS JH JD JC", 100),
    # 10-A of spades + three other jacks: carré J + tierce Q-K-A (220) beats the quinte (100)
    ("10S JS QS KS AS JH JD JC", S, "JS JH JD JC QS KS AS", 220),
    ("10S JS QS KS AS JH JD JC", NO_TRUMP, "JS JH JD JC QS KS AS", 120),
    # carré of 10s (100) or the quinte 8-Q (100): equal totals, the carré is stronger
    ("8S 9S 10S JS QS 10H 10D 10C", S, "10S 10H 10D 10C", 100),
    # runs: tierce 20, 4 cards 50, 5 cards 100, 6 to 8 cards one sequence showing its five
    # highest (100)
    ("7H 8H 9H KS AD 10C QC 8D", S, "7H 8H 9H", 20),
    ("7H 8H 9H 10H KS AD QC 8D", S, "7H 8H 9H 10H", 50),
    ("9H 10H JH QH KH 7S AD 8C", S, "9H 10H JH QH KH", 100),
    ("8H 9H 10H JH QH KH 7S AD", S, "9H 10H JH QH KH", 100),
    ("7H 8H 9H 10H JH QH KH AD", S, "9H 10H JH QH KH", 100),
    ("7S 8S 9S 10S JS QS KS AS", H, "10S JS QS KS AS", 100),
    # two carrés, and two tierces
    ("KS KH KD KC QS QH QD QC", S, "KS KH KD KC QS QH QD QC", 200),
    ("7S 8S 9S JD QD KD 10H AC", C, "7S 8S 9S JD QD KD", 40),
])
def test_summary_hand_checked(hand, denomination, declared, points):
    got = declaration_summary(parse_cards(hand), denomination)
    assert (got[0], got[1]) == (parse_cards(declared) if declared else 0, points)
    assert (got[2] > 0) == (points > 0)


def key(hand, denomination):
    return declaration_summary(parse_cards(hand), denomination)[2]


def test_key_ladder():
    """Keys rise with RULES.md §6 strength: sequences by length, then top card, then a trump
    sequence first; any carré above any sequence; carrés by points, then rank."""
    at_spades = ["7H 8H 9H", "7S 8S 9S", "8H 9H 10H", "8S 9S 10S", "QH KH AH", "QS KS AS", "7H 8H 9H 10H",
                 "JD QD KD AD", "7H 8H 9H 10H JH", "10C JC QC KC AC", "10S JS QS KS AS",
                 "10S 10H 10D 10C", "QS QH QD QC", "KS KH KD KC", "AS AH AD AC", "9S 9H 9D 9C", "JS JH JD JC"]
    keys = [key(h, S) for h in at_spades]
    assert 0 < keys[0] and all(a < b for a, b in zip(keys, keys[1:]))
    assert key("8H 9H 10H", S) == key("8D 9D 10D", S) == key("8C 9C 10C", S)
    assert key("7S 8S 9S", H) == key("7D 8D 9D", H) < key("7H 8H 9H", H)
    at_no_trump = ["8H 9H 10H", "QS KS AS", "10S JS QS KS AS", "9S 9H 9D 9C", "JS JH JD JC", "QS QH QD QC",
                   "KS KH KD KC", "10S 10H 10D 10C", "AS AH AD AC"]
    keys = [key(h, NO_TRUMP) for h in at_no_trump]
    assert all(a < b for a, b in zip(keys, keys[1:]))
    # no sequence is a trump sequence at no-trump or all-trump
    for denomination in (NO_TRUMP, ALL_TRUMP):
        assert len({key(f"8{s} 9{s} 10{s}", denomination) for s in "SHDC"}) == 1
    assert key("7S 9S JS KS 7H 9H", S) == 0


def team_check(hands):
    """Kernel team points == reference for every denomination, eldest, taker and tie rule;
    returns how many (denomination, eldest) cases had the strongest key tied between teams."""
    team_ties = 0
    for denomination in DENOMINATIONS:
        declared = [best_declarations(h, denomination) for h in hands]
        summaries = [declaration_summary(h, denomination) for h in hands]
        keys = np.array([s[2] for s in summaries], dtype=np.int64)
        points = np.array([s[1] for s in summaries], dtype=np.int64)
        best = keys.max()
        if best > 0 and (keys[0] == best or keys[2] == best) and (keys[1] == best or keys[3] == best):
            team_ties += 1
        for eldest in range(4):
            for taker in range(4):
                for tie, code in TIE_CODES.items():
                    want = team_declaration_points(declared, denomination, eldest, RULES[tie], taker)
                    got = declaration_team_points(keys, points, denomination, eldest, taker, code)
                    assert list(got) == want, (hands, denomination, eldest, taker, tie, got, want)
    return team_ties


def deal(rng):
    cards = list(range(32))
    rng.shuffle(cards)
    return [mask(cards[8 * s:8 * s + 8]) for s in range(4)]


def test_team_points_random_deals():
    rng = random.Random(2024)
    for _ in range(2_000):
        team_check(deal(rng))


def forced_tie_deal(rng):
    """Two to four seats (both teams) each get a sequence of the same length and top card
    in a different suit; the other cards are dealt at random."""
    length = rng.choice((3, 3, 4, 5))
    top = rng.randrange(length - 1, 8)
    seats = rng.choice(([0, 1], [0, 3], [1, 2], [2, 3], [0, 1, 2], [1, 2, 3], [0, 1, 2, 3]))
    suits = rng.sample(range(4), len(seats))
    hands = [0, 0, 0, 0]
    used = 0
    for seat, suit in zip(seats, suits):
        hands[seat] = mask(card(r, suit) for r in range(top - length + 1, top + 1))
        used |= hands[seat]
    rest = [c for c in range(32) if not used >> c & 1]
    rng.shuffle(rest)
    for seat in range(4):
        need = 8 - bin(hands[seat]).count("1")
        hands[seat] |= mask(rest[:need])
        rest = rest[need:]
    return hands


def test_team_points_forced_ties():
    rng = random.Random(99)
    ties = sum(team_check(forced_tie_deal(rng)) for _ in range(800))
    assert ties > 1_000  # of 4800 (deal, denomination) cases


@pytest.mark.parametrize("denomination,eldest,taker,tie,expected", [
    # seat 0 tierce 8-10 of hearts, seat 1 tierce 8-10 of diamonds (equal, neither trump at
    # spades), seat 2 tierce 7-9 of clubs, seat 3 nothing: team 0 would score 40, team 1 20
    (S, 0, 1, "eldest", (40, 0)),
    (S, 1, 0, "eldest", (0, 20)),
    (S, 3, 0, "eldest", (0, 20)),
    (S, 1, 0, "none", (0, 0)),
    (S, 0, 3, "taker_first", (40, 0)),  # from seat 3: 3 (none), 0 holds one
    (S, 0, 1, "taker_first", (0, 20)),  # from seat 1: 1 holds one
    (S, 1, 2, "taker_first", (40, 0)),  # from seat 2: 2 (a lower tierce), 3 (none), then 0
    (NO_TRUMP, 2, 2, "none", (0, 0)),
    (ALL_TRUMP, 1, 2, "eldest", (0, 20)),
    # a trump tierce breaks the tie whatever the rule
    (H, 1, 1, "eldest", (40, 0)),
    (H, 1, 1, "none", (40, 0)),
    (D, 0, 0, "taker_first", (0, 20)),
])
def test_team_points_hand_checked(denomination, eldest, taker, tie, expected):
    hands = [parse_cards(h) for h in ("8H 9H 10H", "8D 9D 10D", "7C 8C 9C", "JS KS")]
    summaries = [declaration_summary(h, denomination) for h in hands]
    keys = np.array([s[2] for s in summaries], dtype=np.int64)
    points = np.array([s[1] for s in summaries], dtype=np.int64)
    got = declaration_team_points(keys, points, denomination, eldest, taker, TIE_CODES[tie])
    assert tuple(got) == expected
    declared = [best_declarations(h, denomination) for h in hands]
    assert team_declaration_points(declared, denomination, eldest, RULES[tie], taker) == list(expected)


def test_team_points_nothing_declared_and_bad_codes():
    zero = np.zeros(4, dtype=np.int64)
    for code in range(3):
        assert declaration_team_points(zero, zero, S, 0, 0, code) == (0, 0)
    keys = np.array([5, 0, 0, 0], dtype=np.int64)
    with pytest.raises(ValueError):
        declaration_team_points(keys, keys, S, 0, 0, 3)
    with pytest.raises(ValueError):
        declaration_team_points(keys, keys, S, 0, 4, TIE_CODES["taker_first"])
    assert TIE_CODES == {"eldest": 0, "none": 1, "taker_first": 2}
