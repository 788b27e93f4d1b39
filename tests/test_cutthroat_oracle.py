"""The oracle card-value pipeline at two and three seats (TWO_THREE.md; training.oracle,
policies.network, scripts/train_oracle.py): double-dummy labels as recorded-points
margins, the data, the fit, and model folders with a ``cards/`` network."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from belote_env.actions import ANNOUNCE_BELOTE, EXCHANGE_SEVEN, TAKE
from belote_env.cards import parse_card
from belote_env.config import Rules, load_rules
from belote_env.driver import RandomPolicy, finish_deal
from belote_env.game import STEPS, GameState
from belote_env.observation import CUTTHROAT_OBS_SIZE
from belote_env.solver import Position, card_values, position_of
from policies import make_policy
from policies.base import with_belote
from policies.search import SearchPolicy, deal_margin

torch = pytest.importorskip("torch")

from policies.network import (  # noqa: E402
    CARD_VALUES_KIND, CARDS_SUBDIR, MODE_N_ACTIONS, BeloteNet, CheckpointError, NetworkPolicy, is_card_decision,
    save_model, save_value_policy_meta,
)
from training.oracle import (  # noqa: E402
    fit_card_values, generate_oracle_data, cutthroat_oracle_card_values, value_unit,
)

ROOT = Path(__file__).resolve().parents[1]
R2, R3 = load_rules("seed001_2p"), load_rules("seed001_3p")


def P(text: str) -> int:
    return parse_card(text)


# ----------------------------------------------------------------------------- labels
def _endgame_64() -> GameState:
    """TWO_THREE.md §6.4's deal (tests/test_cutthroat_game.py ``deal_64``), hearts trump,
    the elder (seat 0) maker, played to its last three tricks: seat 0 holds K♠ Q♠ 8♣ and
    has 88 card points and the K+Q of hearts (belote); seat 1 holds K♦ 10♦ A♣, 0 card
    points, and its 50 sequence scores."""
    E = ["J♥", "9♥", "7♥", "A♠", "K♠", "Q♠"]
    D = ["A♥", "10♦", "K♦", "Q♦", "J♦", "9♣"]
    g = GameState.from_hands([E, D], "Q♥", [["K♥", "10♠", "8♣"], ["10♥", "A♣", "7♦"]], R2, bottom="8♦", dealer=1,
                             single_deal=True)
    g.apply(TAKE)
    g.apply(EXCHANGE_SEVEN)
    for a, b in [("J♥", "10♥"), ("9♥", "A♥"), ("K♥", "9♣"), ("Q♥", "7♦"), ("A♠", "J♦"), ("10♠", "Q♦")]:
        g.apply(P(a))
        g.apply(P(b))
    assert g.current == 0 and g.card_points == [88, 0] and g.decl_winner == 1
    return g


def test_labels_of_a_hand_built_two_seat_endgame():
    g = _endgame_64()
    # by hand: seat 1 can win only a club lead (A♣) and its own diamond leads. K♠ / Q♠ led:
    # seat 1 keeps A♣ for the last trick, the maker wins 21 more (K♠ Q♠ K♦ 10♦), totals
    # 88 + 21 + 20 (belote) = 129 against 21 + 50 = 71: made, margin +58. 8♣ led: seat 1
    # wins all 42 (A♣, then its diamonds, the last trick): 108 against 92, made, +16.
    pts: dict[int, float] = {}
    q = cutthroat_oracle_card_values(g, pts)
    assert q == {P("K♠"): 58.0, P("Q♠"): 58.0, P("8♣"): 16.0}
    assert pts == {P("K♠"): 88.0, P("Q♠"): 88.0, P("8♣"): 46.0}  # card points 109-21, 88-42
    g.apply(P("K♠"))
    # seat 1 to follow (no spade, no trump): discarding K♦ or 10♦ leaves the maker 21 more
    # (129 against 71: -58 for seat 1); discarding A♣ lets the 8♣ win the last trick: the
    # maker takes all 42 (150 against 50: -100).
    pts = {}
    q = cutthroat_oracle_card_values(g, pts)
    assert q == {P("K♦"): -58.0, P("10♦"): -58.0, P("A♣"): -100.0}
    assert pts == {P("K♦"): -88.0, P("10♦"): -88.0, P("A♣"): -130.0}


def _minimax_state(st: GameState, maker: int) -> GameState:
    """The finished deal of perfect play from ``st`` (maker maximising its card points,
    the others minimising; the engine plays and scores every line)."""
    if st.is_deal_over:
        return st
    best = None
    for a in st.legal_actions():
        if a >= 32:
            continue
        nxt = st.clone()
        nxt.apply(a)
        end = _minimax_state(nxt, maker)
        key = end.card_points[maker] + (10 if end.tricks[-1][2] == maker else 0)
        if best is None or (key > best[0] if st.current == maker else key < best[0]):
            best = (key, end)
    return best[1]


def _endgame(rules: Rules, seed: int, left: int) -> GameState:
    """A deal played by the normal tier until at most ``left`` cards are in the hands and
    the seat to play has a choice of cards."""
    pol = make_policy("normal", seed=seed)
    for s in range(seed, seed + 200):
        st = GameState(rules, seed=s, single_deal=True)
        while not st.is_deal_over:
            info = st.information_set(st.current)
            if sum(info.hand_sizes) <= left and is_card_decision(info):
                return st
            st.apply(pol.act(info))
    raise AssertionError("no endgame found")


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_two_seat_labels_are_the_engine_score_of_perfect_play(seed):
    st = _endgame(R2, seed, 6)
    seat = st.current
    q = cutthroat_oracle_card_values(st)
    assert set(q) == {a for a in st.legal_actions() if a < 32}
    for c, v in q.items():
        nxt = st.clone()
        nxt.apply(c)
        end = _minimax_state(nxt, st.taker)
        assert v == end.deal_score.difference(seat), (c, v, end.deal_score)


def test_three_seat_maker_labels_are_the_engine_score_of_perfect_play():
    # the maker's margin does not depend on how the defenders split their side's points
    for seed in range(1, 60):
        st = _endgame(R3, seed, 6)
        if st.current == st.taker:
            break
    else:
        raise AssertionError("no maker decision found")
    q = cutthroat_oracle_card_values(st)
    for c, v in q.items():
        nxt = st.clone()
        nxt.apply(c)
        end = _minimax_state(nxt, st.taker)
        assert v == pytest.approx(end.deal_score.difference(st.taker)), c


def test_search_values_cards_by_deal_margin_on_its_samples():
    """The expert at two seats: each legal card's value is the mean of ``deal_margin`` over
    the deals it samples (the same draws, replayed from its seed)."""
    import random

    from belote_env.sampling import sample_hidden_hands

    st = _endgame(R2, 5, 10)
    info = st.information_set(st.current)
    pol = SearchPolicy(seed=3, samples=5)
    choice = pol.act(info)
    rng, want = random.Random(3), {}
    for _ in range(5):
        hands = list(sample_hidden_hands(info, rng).hands)
        vals = card_values(Position(tuple(hands), info.denomination, info.taker, tuple(info.trick), info.trick_leader,
                                    info.rules))
        for c, v in vals.items():
            want[c] = want.get(c, 0.0) + deal_margin(info, hands, v) / 5
    assert pol.last_values == pytest.approx(want)
    assert choice == max(want, key=lambda c: (want[c], -c))


# ----------------------------------------------------------------------------- data and fit
# three seats: the 24-card deal (8 cards each) keeps the first-trick solves short
@pytest.mark.parametrize("rules, deals, seed", [(R2, 6, 3), (R3.replace(three_player_deal="24_card"), 1, 0)])
def test_oracle_data_shapes_and_determinism(rules, deals, seed):
    d = generate_oracle_data(deals, seed, rules, behaviour=("normal", "easy"), epsilon=0.2)
    n = len(d["q"])
    assert n > 0 and value_unit(rules) == 162.0
    assert d["obs"].shape == (n, CUTTHROAT_OBS_SIZE[rules.players]) and d["obs"].dtype == np.float16
    assert d["mask"].shape == d["q"].shape == d["points"].shape == (n, 32) and d["mask"].dtype == bool
    assert (d["mask"].sum(1) > 1).all()
    assert not d["q"][~d["mask"]].any() and not d["points"][~d["mask"]].any()
    assert np.abs(d["q"]).max() < 3 and np.abs(d["points"]).max() <= 1.0 + 1e-6
    again = generate_oracle_data(deals, seed, rules, behaviour=("normal", "easy"), epsilon=0.2)
    for k in d:
        assert np.array_equal(d[k], again[k])


def test_oracle_data_refuses_four_seat_tiers_at_small_tables():
    with pytest.raises(ValueError, match=r"tier 'hard_oracle' does not play the 2-player game"):
        generate_oracle_data(1, 0, R2, behaviour=("hard_oracle+search",))


def test_tiny_fit_and_augment_refused():
    d = generate_oracle_data(8, 1, R2, behaviour=("normal",))
    net = BeloteNet(obs_size=CUTTHROAT_OBS_SIZE[2], n_actions=MODE_N_ACTIONS["two"], pi=[32], vf=[8])
    r = fit_card_values(net, d, epochs=2, batch=64)
    assert r["samples"] == len(d["q"]) and r["value_unit"] == 162.0 and len(r["history"]) == 2
    assert 0.0 <= r["history"][-1]["agree"] <= 1.0 and r["history"][-1]["regret"] >= 0.0
    with pytest.raises(ValueError, match="augment"):
        fit_card_values(net, d, epochs=1, augment=True)


# ----------------------------------------------------------------------------- model folders
def _card_folder(folder: Path, rules: Rules, bidder: bool) -> Path:
    mode = "two" if rules.players == 2 else "three"
    torch.manual_seed(0)
    size, n_act = CUTTHROAT_OBS_SIZE[rules.players], MODE_N_ACTIONS[mode]
    if bidder:  # a stand-in for an exported small-table PPO model
        pol = BeloteNet(obs_size=size, n_actions=n_act, pi=[16], vf=[16])
        save_model(folder, pol.state_dict(), pol.config, {"rules": rules.to_dict()})
    else:
        save_value_policy_meta(folder, rules)
    cards = BeloteNet(obs_size=size, n_actions=n_act, pi=[16], vf=[8])
    save_model(folder / CARDS_SUBDIR, cards.state_dict(), cards.config,
               {"kind": CARD_VALUES_KIND, "suit_average": False, "value_unit": 162.0, "rules": rules.to_dict()})
    return folder


@pytest.mark.parametrize("rules", [R2, R3])
@pytest.mark.parametrize("bidder", [False, True])
def test_folder_with_cards_loads_and_plays(tmp_path, rules, bidder):
    folder = _card_folder(tmp_path / "m", rules, bidder)
    pol = make_policy(str(folder), seed=0)
    assert isinstance(pol, NetworkPolicy) and pol.card_net is not None and not pol.suit_average
    assert (pol.net is None) != bidder and pol.contract_mode == ("two" if rules.players == 2 else "three")
    n = rules.players
    card_decisions = 0
    for seed in range(2):
        st = GameState(rules, seed=seed, single_deal=True, dealer=seed % n)
        while not st.is_deal_over:
            info = st.information_set(st.current)
            if st.current == 0:
                a = pol.act(info)
                assert a in info.legal_actions
                if is_card_decision(info):
                    card_decisions += 1
                    v = pol.card_values(info)
                    assert set(v) == {c for c in info.legal_actions if c < 32}
                    assert with_belote(info, max(v, key=lambda c: (v[c], -c))) == a
            else:
                a = make_policy("normal").act(info)
            st.apply(a)
        assert st.deal_score is not None or st.void
    # the whole deal through the driver, every seat the policy
    st = GameState(rules, seed=9, single_deal=True)
    finish_deal(st, [pol] * n)
    assert st.is_deal_over


def test_value_policy_other_decisions_are_the_normal_tiers():
    from policies.cutthroat_play import normal_cutthroat_act

    folder = _card_folder(Path(__import__("tempfile").mkdtemp()) / "m", R2, False)
    pol = NetworkPolicy.from_path(folder)
    seen = 0
    for seed in range(6):
        st = GameState(R2, seed=seed, single_deal=True)
        while not st.is_deal_over:
            info = st.information_set(st.current)
            a = pol.act(info)
            if not is_card_decision(info) and len(info.legal_actions) > 1:
                assert a == normal_cutthroat_act(info)
                seen += 1
            st.apply(a)
    assert seen > 0


def test_discard_step_is_not_a_card_decision_and_suit_average_refused(tmp_path):
    rules = R3.replace(three_player_deal="10_each")
    rnd = RandomPolicy(0)
    for seed in range(40):
        st = GameState(rules, seed=seed, single_deal=True)
        while not st.is_deal_over and not (st.step >= 0 and STEPS[st.step] == "discard"):
            st.apply(rnd.act(st.information_set(st.current)))
        if not st.is_deal_over:
            break
    info = st.information_set(st.current)
    assert STEPS[info.step] == "discard" and len(info.legal_actions) > 1 and not is_card_decision(info)
    folder = _card_folder(tmp_path / "m", R3, False)
    meta = json.loads((folder / CARDS_SUBDIR / "meta.json").read_text())
    meta["suit_average"] = True
    (folder / CARDS_SUBDIR / "meta.json").write_text(json.dumps(meta))
    with pytest.raises(CheckpointError, match="suit"):
        NetworkPolicy.from_path(folder)


def test_with_belote_claims_with_the_second_card_at_two_seats():
    rules = R2.replace(belote="optional")
    for seed in range(300):
        st = GameState(rules, seed=seed, single_deal=True)
        pol = make_policy("normal")
        while not st.is_deal_over:
            info = st.information_set(st.current)
            if ANNOUNCE_BELOTE in info.legal_actions:
                second = next(c for c in info.legal_actions if c < 32 and c >> 3 == info.denomination and c & 7 in (5, 6)
                              and info.played_by[info.seat] >> (c ^ 3) & 1)
                assert with_belote(info, second) == ANNOUNCE_BELOTE
                others = [c for c in info.legal_actions if c < 32 and c != second]
                assert all(with_belote(info, c) == c for c in others)
                return
            st.apply(pol.act(info))
    raise AssertionError("no belote claim found")


def test_train_oracle_script_small_table(tmp_path):
    out = tmp_path / "o2"
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "train_oracle.py"), "--rules", "seed001_2p",
                        "--deals", "4", "--chunks", "2", "--seed", "5", "--workers", "1", "--epochs", "1",
                        "--layers", "16", "--out", str(out)], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    meta = json.loads((out / "meta.json").read_text())
    cards = json.loads((out / CARDS_SUBDIR / "meta.json").read_text())
    assert meta["kind"] == "value_policy" and meta["contract_mode"] == "two"
    assert cards["contract_mode"] == "two" and cards["suit_average"] is False and cards["oracle"]["fit"]["augment"] is False
    pol = NetworkPolicy.from_path(out)
    st = GameState(R2, seed=1, single_deal=True)
    finish_deal(st, [pol, make_policy("normal")])
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "train_oracle.py"), "--rules", "seed001_2p",
                        "--target", "bids", "--deals", "2", "--out", str(tmp_path / "b")], capture_output=True,
                       text=True, cwd=ROOT, timeout=120)
    assert r.returncode != 0 and "card-value networks only" in r.stderr
