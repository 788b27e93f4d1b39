"""Each rule in one place: dealing (``belote_env.dealing``), what a played
card reveals (``inference.card_reveals`` / ``belote_reveals``) and the belote, declaration
and deal-difference points (``scoring``), each used by the engine, the records, the
inference and the search; deals from explicit hands and resumed games (public
constructors). Values are checked by hand against RULES.md §3-§7 and §13."""

from __future__ import annotations

import ast
import dataclasses
import pathlib
import random
from types import SimpleNamespace

import pytest

from belote_env import GameState, Rules
from belote_env import dealing, inference, scoring
from belote_env.actions import NAME_CONTRACT, PASS, TAKE
from belote_env.cards import ALL_TRUMP, BEATS, NO_TRUMP, SUIT_MASK, parse_card, parse_cards
from belote_env.dealing import DealError, complete, deal, deck_for_final_hands, deck_from_hands
from belote_env.declarations import best_declarations
from belote_env.inference import belote_reveals, card_reveals, public_constraints
from belote_env.records import RecordError, game_record, replay
from belote_env.scoring import deal_difference, team_belote_points, team_declaration_points
from tests.conftest import play_random_deal

ROOT = pathlib.Path(__file__).resolve().parent.parent
C = parse_card
S, H, D, CL = 0, 1, 2, 3  # suits = trump contracts


def bits(*cards: int) -> int:
    return sum(1 << c for c in cards)


# ----------------------------------------------------------------------------- dealing
def test_the_deal_of_a_deck_by_hand():
    """RULES.md §3.1: packets of 3 then 2 from eldest, then the turned card and the stock."""
    deck = list(range(32))
    hands, turned, stock = deal(deck, dealer=0)  # eldest 1
    assert hands == [bits(9, 10, 11, 18, 19), bits(0, 1, 2, 12, 13), bits(3, 4, 5, 14, 15), bits(6, 7, 8, 16, 17)]
    assert turned == 20 and stock == list(range(21, 32))
    hands, _, _ = deal(deck, dealer=2)  # eldest 3
    assert hands == [bits(3, 4, 5, 14, 15), bits(6, 7, 8, 16, 17), bits(9, 10, 11, 18, 19), bits(0, 1, 2, 12, 13)]
    assert (dealing.FIRST_HAND, dealing.TURNED_AT, dealing.STOCK_SIZE) == (5, 20, 11)


def test_the_completion_by_hand():
    """RULES.md §3.5: the taker gets the turned card + 2, the others 3, from eldest."""
    hands, turned, stock = deal(list(range(32)), dealer=0)
    full = complete(hands, turned, stock, taker=2, dealer=0)
    assert full[1] == hands[1] | bits(21, 22, 23)  # eldest first
    assert full[2] == hands[2] | bits(20, 24, 25)  # the taker: turned card + 2
    assert full[3] == hands[3] | bits(26, 27, 28) and full[0] == hands[0] | bits(29, 30, 31)
    assert hands == deal(list(range(32)), dealer=0)[0]  # a new list: the 5-card hands are untouched
    # the engine deals the same
    st = GameState(deck=list(range(32)), dealer=0)
    st.apply(PASS)
    st.apply(TAKE)
    assert st.hands == full


_HANDS = [["JS", "9S", "AS", "10S", "KS"], ["7H", "8H", "9H", "10H", "JH"],
          ["QH", "KH", "AH", "7D", "8D"], ["9D", "10D", "JD", "QD", "KD"]]
_STOCK = ["AD", "7C", "8C", "9C", "10C", "JC", "QC", "KC", "AC", "7S", "8S"]


def test_deck_from_hands_by_hand():
    """Dealer 3, so eldest is seat 0: first packets 0, 1, 2, 3, then second packets."""
    deck = deck_from_hands(_HANDS, "QS", _STOCK, dealer=3)
    want = "JS 9S AS 7H 8H 9H QH KH AH 9D 10D JD 10S KS 10H JH 7D 8D QD KD QS".split() + _STOCK
    assert deck == [C(x) for x in want]
    st = GameState.from_hands(_HANDS, "QS", _STOCK, dealer=3)
    assert st.deck == tuple(deck) and st.dealer == 3 and st.turned_card == C("QS")
    assert st.hands == [parse_cards(" ".join(h)) for h in _HANDS]
    st.apply(TAKE)  # eldest (seat 0) takes spades: QS + AD 7C; seat 1 gets 8C 9C 10C ...
    assert st.hands[0] == parse_cards("JS 9S AS 10S KS QS AD 7C")
    assert st.hands[1] == parse_cards("7H 8H 9H 10H JH 8C 9C 10C")
    assert st.hands[3] == parse_cards("9D 10D JD QD KD 7S 8S") | 1 << C("AC")
    # ids work as names do, and a record with these hands replays to the same deal
    ids = [[C(x) for x in h] for h in _HANDS]
    assert deck_from_hands(ids, C("QS"), [C(x) for x in _STOCK], 3) == deck
    rec = {"format": "belote-rl-record", "version": 1, "rules": {},
           "deals": [{"dealer": 3, "hands": _HANDS, "turned": "QS", "stock": _STOCK, "actions": [[0, TAKE]]}]}
    assert replay(rec).hands == st.hands


@pytest.mark.parametrize("args,match", [
    ((_HANDS[:3], "QS", _STOCK), "hands must be 4 sequences of 5 cards"),
    (([h[:4] for h in _HANDS], "QS", _STOCK), r"hands\[0\] must be a sequence of 5 cards"),
    ((_HANDS, "QS", _STOCK[:10]), "stock must be a sequence of 11 cards"),
    ((_HANDS, "XX", _STOCK), "turned: cannot parse card 'XX'"),
    ((_HANDS, 32, _STOCK), "turned: a card must be an id 0..31"),
    ((_HANDS, "JS", _STOCK), r"repeated: \[4\]; missing: \[5\]"),  # JS twice, QS missing
    ((_HANDS, "QS", _STOCK, 4), "dealer must be a seat"),
])
def test_deck_from_hands_errors(args, match):
    with pytest.raises(DealError, match=match):
        deck_from_hands(*args)
    with pytest.raises(ValueError, match=match):  # DealError is a ValueError
        GameState.from_hands(*args[:3], dealer=args[3] if len(args) > 3 else 0)


def test_deck_for_final_hands():
    """The 8-card hands after a take give back a deck that deals them."""
    st = GameState(deck=list(range(32)), dealer=0)
    st.apply(PASS)
    st.apply(TAKE)
    assert deck_for_final_hands(st.hands, 20, taker=2, dealer=0) == list(range(32))
    rng = random.Random(4)
    for _ in range(30):
        st = GameState(Rules(round2_no_trump_all_trump=True), seed=rng.randrange(10**6), dealer=rng.randrange(4))
        while st.phase == 0:
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
        if st.void:
            continue
        # masks or sequences of cards, in any order
        given = [h if rng.random() < 0.5 else [c for c in range(31, -1, -1) if h >> c & 1] for h in st.hands]
        deck = deck_for_final_hands(given, st.turned_card, st.taker, st.dealer)
        again = GameState(st.rules, dealer=st.dealer, deck=deck)
        for _, a in st.auction.history:
            again.apply(a)
        assert again.hands == st.hands and again.denomination == st.denomination
    full = complete(*deal(list(range(32)), 0), taker=2, dealer=0)
    with pytest.raises(DealError, match=r"turned card 20 must be in the taker's \(seat 1\) hand"):
        deck_for_final_hands(full, 20, taker=1)
    with pytest.raises(DealError, match="must hold 8 distinct cards"):
        deck_for_final_hands([1, 2, 4, 8], 0, taker=0)


def test_check_deck_names_what_is_wrong():
    assert dealing.check_deck(None) is None
    with pytest.raises(DealError, match=r"exactly once; repeated: \[0\]; missing: \[31\]"):
        dealing.check_deck([0] + list(range(31)))
    with pytest.raises(DealError, match=r"exactly once; missing: \[31\]"):
        GameState(deck=list(range(31)))
    with pytest.raises(DealError, match=r"unknown: \[40\]"):
        dealing.check_deck(list(range(31)) + [40])


# ----------------------------------------------------------------------------- resuming
def test_a_game_resumes_with_scores_reserve_and_deals_played():
    st = GameState(Rules(), seed=3, dealer=1, scores=(420, 380), reserve=81, deal_number=6)
    assert (st.scores, st.reserve, st.deal_number, st.dealer) == ([420, 380], 81, 6, 1)
    info = st.information_set(0)
    assert (info.scores, info.reserve, info.deal_number) == ((420, 380), 81, 6)
    rng = random.Random(0)
    while st.void or not st.is_deal_over:
        if st.is_deal_over:
            st.next_deal()
        play_random_deal(st, rng)
    ds = st.deal_score
    assert ds.reserve_in == 81 and st.deal_number == 7
    assert st.scores == [420 + ds.points[0], 380 + ds.points[1]]
    if ds.outcome != "litige":  # the deal's winner takes the reserve (RULES.md §7)
        assert sum(ds.reserve_won) == 81 and st.reserve == 0
    # the record carries the start and replays to the same scores
    rec = game_record(st)
    assert rec["start"] == {"scores": [420, 380], "reserve": 81, "deal_number": 6}
    assert replay(rec).scores == st.scores
    assert "start" not in game_record(GameState(seed=1))  # a game from 0 - 0 writes none
    rec["start"]["reserve"] = -1
    with pytest.raises(RecordError, match="record 'start': reserve must be an int in 0..1000000000"):
        replay(rec)


def test_a_resumed_game_ends_at_its_target():
    """RULES.md §8: a deal that brings a team to the target ends the game."""
    rng = random.Random(2)
    st = GameState(Rules(target=1000), seed=5, scores=(999, 998))
    while st.void or not st.is_deal_over:
        if st.is_deal_over:
            st.next_deal()
        play_random_deal(st, rng)
    assert st.is_game_over or st.scores[0] == st.scores[1]
    # equal totals at the target play on; numpy ints are ints
    np = pytest.importorskip("numpy")
    st = GameState(Rules(target=1000), scores=np.array([1000, 1000]), reserve=np.int64(0))
    assert st.scores == [1000, 1000] and type(st.scores[0]) is int


@pytest.mark.parametrize("kwargs,match", [
    (dict(scores=(1,)), r"scores must be \(team 0, team 1\)"),
    (dict(scores="ab"), r"scores must be \(team 0, team 1\)"),
    (dict(scores=(-1, 0)), r"scores\[0\] must be an int in 0..1000000000"),
    (dict(scores=(True, 0)), r"scores\[0\] must be an int in 0..1000000000"),
    (dict(scores=(0, 1.5)), r"scores\[1\] must be an int in 0..1000000000"),
    (dict(reserve=-5), "reserve must be an int in 0..1000000000"),
    (dict(deal_number=1.0), "deal_number must be an int in 0..1000000000"),
    (dict(scores=(10 ** 400, 0)), r"scores\[0\] must be an int in 0..1000000000, got an int of 401 digits$"),
    (dict(reserve=10 ** 5000), "reserve must be an int in 0..1000000000, got an int of over 4000 digits$"),
    (dict(scores={1, 2}), r"scores must be \(team 0, team 1\)"),
    (dict(reserve=10, rules=Rules(tie="takers_made")), "reserve must be 0 under tie='takers_made'"),
    (dict(scores=(1000, 990)), "already reach the target 1000"),
    (dict(deal_number=3, scores=(5, 0), rules=Rules(max_deals=3)), "already reaches max_deals 3"),
])
def test_resume_errors(kwargs, match):
    rules = kwargs.pop("rules", Rules())
    with pytest.raises(ValueError, match=match):
        GameState(rules, **kwargs)


def test_resume_edges_that_are_games():
    GameState(Rules(max_deals=3), deal_number=3, scores=(5, 5))  # equal totals play on (§8)
    GameState(Rules(target=None), scores=(5, 9))  # one-deal games carry any scores
    GameState(Rules(tie="defenders_keep"), scores=(1, 2), reserve=0)


# ----------------------------------------------------------------------------- reveals
def test_card_reveals_by_hand():
    """RULES.md §4 and §13 example 4-5, as masks of the cards the seat cannot hold."""
    r = Rules()
    # trump spades; 10♦ led, 9♠ ruffs: an opponent who plays 7♠ had to overtrump: no J♠ (above 9♠)
    ruff = (C("10D"), C("9S"))
    assert card_reveals(ruff, C("7S"), S, r) == SUIT_MASK[D] | bits(C("JS"))
    # discarding there shows no trump at all (undertrump "required")
    assert card_reveals(ruff, C("7H"), S, r) == SUIT_MASK[D] | SUIT_MASK[S]
    # with undertrump "discard_allowed" it shows only no trump above the ruff
    assert card_reveals(ruff, C("7H"), S, Rules(undertrump="discard_allowed")) == SUIT_MASK[D] | bits(C("JS"))
    # A♦ led, 7♦: the partner of the leader (winning) discards freely (partner_master_free)
    assert card_reveals((C("AD"), C("7D")), C("7H"), S, r) == SUIT_MASK[D]
    assert card_reveals((C("AD"), C("7D")), C("7H"), S, Rules(partner_master_free=False)) == SUIT_MASK[D] | SUIT_MASK[S]
    # example 5: 8♠ led, 10♠; playing 7♠ shows no J♠ 9♠ A♠ (above 10♠ in trump order)
    assert card_reveals((C("8S"), C("10S")), C("7S"), S, r) == bits(C("JS"), C("9S"), C("AS"))
    # a lead reveals nothing; following a plain suit lower reveals nothing
    assert card_reveals((), C("7S"), S, r) == 0
    assert card_reveals((C("AH"),), C("7H"), S, r) == 0
    # all-trump: following under the winner shows no higher card of that suit (J 9 A 10 above K)
    assert card_reveals((C("KH"),), C("7H"), ALL_TRUMP, r) == bits(C("JH"), C("9H"), C("AH"), C("10H"))
    assert card_reveals((C("KH"),), C("7S"), ALL_TRUMP, r) == SUIT_MASK[H]
    # no-trump: no obligation to beat; a discard shows only the void
    assert card_reveals((C("KH"),), C("7H"), NO_TRUMP, r) == 0
    assert card_reveals((C("KH"),), C("7S"), NO_TRUMP, r) == SUIT_MASK[H]
    assert BEATS[S][C("9S")] == bits(C("JS"))


def test_belote_reveals_by_hand():
    """RULES.md §5: announcing shows the other card; with "auto", silence shows its absence."""
    auto, optional = Rules(), Rules(belote="optional")
    assert inference.belote_partner(C("KS")) == C("QS") and inference.belote_partner(C("QH")) == C("KH")
    assert belote_reveals(C("KS"), True, False, auto) == (0, bits(C("QS")))
    assert belote_reveals(C("KS"), False, False, auto) == (bits(C("QS")), 0)
    assert belote_reveals(C("QS"), False, False, optional) == (0, 0)
    assert belote_reveals(C("QS"), True, False, optional) == (0, bits(C("KS")))
    assert belote_reveals(C("QS"), True, True, auto) == (0, 0)  # rebelote: nothing new


@pytest.mark.parametrize("rules", [
    Rules(), Rules(undertrump="discard_allowed"), Rules(partner_master_free=False),
    Rules(round2_no_trump_all_trump=True, belote="optional"), Rules(declarations="auto"),
])
def test_engine_and_public_constraints_reveal_the_same(rules):
    """The engine's card-by-card knowledge equals ``public_constraints`` rebuilt from the
    whole history (both go through ``card_reveals`` / ``belote_reveals``)."""
    rng = random.Random(7)
    checked = 0
    for _ in range(12):
        st = GameState(rules, seed=rng.randrange(10**6))
        while not st.is_deal_over:
            if st.phase == 1:
                info = st.information_set(st.current)
                fast = public_constraints(info)
                slow = public_constraints(dataclasses.replace(info, public_knowledge=None))
                assert (fast.cannot, fast.known) == (slow.cannot, slow.known)
                checked += 1
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
    assert checked > 100


# ----------------------------------------------------------------------------- scoring
def test_belote_points_by_hand():
    auto, optional = Rules(), Rules(belote="optional")
    kh, qh = C("KH"), C("QH")
    played = [0, 0, bits(kh, qh), 0]
    ann = [(2, "belote", kh), (2, "rebelote", qh)]
    assert team_belote_points(H, auto, played, played, ann) == [20, 0]
    assert team_belote_points(H, optional, played, played, []) == [0, 0]  # declined
    assert team_belote_points(H, optional, played, played, ann[:1]) == [20, 0]
    assert team_belote_points(NO_TRUMP, auto, played, played, ann) == [0, 0]
    assert team_belote_points(S, auto, played, played, ann) == [0, 0]  # not trump
    at = [0, bits(C("KS"), C("QS")), 0, bits(C("KD"), C("QD"))]
    assert team_belote_points(ALL_TRUMP, auto, at, at, []) == [0, 40]
    # a pair not yet played counts (assumed announced), even with "optional"
    assert team_belote_points(H, optional, [0, 0, bits(kh, qh), 0], [0] * 4, []) == [20, 0]


def test_declaration_points_by_hand():
    """RULES.md §13 example 10: seat 2 and seat 3 each declare a tierce, neither trump."""
    declared = [(), (), best_declarations(parse_cards("JH QH KH"), S), best_declarations(parse_cards("JC QC KC"), S)]
    assert [d.points for d in declared[2] + declared[3]] == [20, 20]
    on = dict(declarations="auto")
    assert team_declaration_points(declared, S, 1, Rules(**on), 1) == [0, 20]  # eldest (1): the takers
    assert team_declaration_points(declared, S, 1, Rules(**on, declaration_tie="none"), 1) == [0, 0]
    assert team_declaration_points(declared, S, 1, Rules(**on, declaration_tie="taker_first"), 1) == [20, 0]
    assert team_declaration_points(declared, S, 1, Rules(), 1) == [0, 0]  # declarations off


def test_deal_difference_by_hand():
    """RULES.md §7 and §13 examples 3, 6, 8: a takers' card-point total as a difference."""
    info = SimpleNamespace(rules=Rules(), reserve=0)
    assert deal_difference(162, 0, 0, [0, 0], [0, 0], info) == 252  # capot
    assert deal_difference(162, 0, 0, [20, 0], [0, 0], info) == 272  # example 3
    assert deal_difference(162, 0, 0, [0, 0], [0, 0], info, (False, True)) == 162  # no capot left
    assert deal_difference(81, 0, 0, [0, 0], [0, 0], info) == -81  # example 6: litige
    assert deal_difference(60, 1, 1, [0, 20], [0, 0], info) == 20 - 162  # example 8: dedans, belote kept
    reserve = SimpleNamespace(rules=Rules(), reserve=81)
    assert deal_difference(100, 0, 0, [0, 0], [0, 0], reserve) == 100 + 81 - 62  # made: the takers win it


# ----------------------------------------------------------------------------- one place
def test_the_shared_functions_are_the_ones_used():
    import policies.search as search

    assert search.belote_points is scoring.belote_points
    assert search.declaration_points is scoring.declaration_points
    assert search.deal_difference is scoring.deal_difference
    assert not hasattr(GameState, "_infer_from_card") and not hasattr(GameState, "_checked_deck")
    src = (ROOT / "belote_env/game.py").read_text()
    for name in ("card_reveals(", "belote_reveals(", "team_belote_points(", "team_declaration_points(",
                 "complete(", "deal(deck"):
        assert name in src, name


def test_training_imports_no_private_name_of_policies():
    for path in sorted((ROOT / "training").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "policies":
                private = [a.name for a in node.names if a.name.startswith("_")]
                assert not private, f"{path.relative_to(ROOT)} imports {private} from {node.module}"


def test_only_dealing_knows_the_packets():
    """No other module writes the packets (3, 2), the turned card's index or the stock's
    slice out (syntax trees: docstrings do not count)."""
    for pkg in ("belote_env", "policies", "training"):
        for path in sorted((ROOT / pkg).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel == "belote_env/dealing.py":
                continue
            for node in ast.walk(ast.parse(path.read_text(), rel)):
                if isinstance(node, ast.Tuple) and [getattr(e, "value", None) for e in node.elts] == [3, 2]:
                    pytest.fail(f"{rel}:{node.lineno}: packets (3, 2) written out")
                if (isinstance(node, ast.Subscript) and "deck" in ast.unparse(node.value)
                        and ast.unparse(node.slice) in ("20", "21:", "0:20", ":20")):
                    pytest.fail(f"{rel}:{node.lineno}: {ast.unparse(node)} written out")


def test_round_two_take_completes_through_dealing():
    """A round-2 contract deals the stock as a round-1 take does (RULES.md §3.5)."""
    st = GameState(deck=list(range(32)), dealer=0)
    for _ in range(4):
        st.apply(PASS)
    st.apply(NAME_CONTRACT + 3)  # seat 1 (eldest) names clubs
    hands, turned, stock = deal(list(range(32)), 0)
    assert st.hands == complete(hands, turned, stock, 1, 0)


def test_is_whole_deal_is_what_deck_for_final_hands_rebuilds():
    """``dealing.is_whole_deal``: four 8-card hands covering the deck, the turned card in
    the taker's; each way of missing it refused (and then ``deck_for_final_hands`` raises)."""
    from belote_env.dealing import DealError, deck_for_final_hands, is_whole_deal

    hands = [0xFF << (8 * s) for s in range(4)]  # seat s holds suit s
    assert is_whole_deal(hands, turned=9, taker=1) and is_whole_deal(hands)
    deck_for_final_hands(hands, 9, 1)
    swapped = [hands[0] ^ 1 ^ (1 << 8), hands[1] ^ 1 ^ (1 << 8)] + hands[2:]  # still a deal
    assert is_whole_deal(swapped, turned=9, taker=1)
    for bad, turned, taker in ((hands, 9, 0),                               # turned card not the taker's
                               ([hands[0] | 1 << 8, hands[1] ^ 1 << 8] + hands[2:], 9, 1),  # 9 and 7 cards
                               ([hands[0], hands[0]] + hands[2:], 1, 0),   # a card twice, one missing
                               (hands[:3], 9, 1)):                         # three hands
        assert not is_whole_deal(bad, turned, taker)
        with pytest.raises(DealError):
            deck_for_final_hands(bad, turned, taker)
