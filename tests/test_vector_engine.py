"""The batched engine (``belote_env.vector``) against the reference engine: identical masks,
states, observations of every seat, scores and rewards at every step, under the default
rules and seeded mixes of every rule option (RULES.md §3-§7). The full run of at least
1,000,000 decisions is ``scripts/check_vector.py``; this is its slice for CI."""

from __future__ import annotations

import numpy as np
import pytest

from belote_env import Rules
from belote_env.observation import OBS_SIZE
from belote_env.vector.engine import COL, BatchedGame
from belote_env.vector.observation import encode_batch
from tests.vector_harness import combination_sets, option_mixes, play_in_both, run


@pytest.mark.parametrize("rules", option_mixes(24, seed=21), ids=[f"mix{i}" for i in range(24)])
def test_batched_engine_equals_reference(rules):
    counts = run(rules, n_tables=16, decisions=2500, seed=7)
    assert counts["deals"] >= 50
    assert counts["made"] + counts["dedans"] + counts["litige"] + counts["void"] == counts["deals"]


def test_a_tie_under_defenders_keep_costs_the_takers_their_belote_in_both_engines():
    # RULES.md §7: ``defenders_keep`` gives the takers nothing on a tie, their belote included
    # (``litige`` leaves it to them); the seed plays two such deals among about 600
    counts = run(Rules(tie="defenders_keep"), n_tables=16, decisions=20000, seed=5, check_obs_every=50)
    assert counts["tie_taker_belote"] >= 1


@pytest.mark.parametrize("rules", combination_sets(), ids=[f"combinations{i}" for i in range(len(combination_sets()))])
def test_batched_engine_equals_reference_under_carres_run5_value_and_failure(rules):
    """The options of the combinations and of a failed contract (RULES.md §6-§7; the
    seed001_4p preset and the other values): both engines agree, and their deals meet them
    (failed contracts where the takers held a belote; five-card sequences declared, with
    ``declarations="auto"``)."""
    counts = run(rules, n_tables=16, decisions=6000, seed=3, check_obs_every=4)
    assert counts["dedans_taker_belote"] >= 1, counts
    assert counts["run5_declared"] >= (rules.declarations == "auto"), counts  # "choice": seats decline half


@pytest.mark.parametrize("options,declared,points", [
    ({}, (200, 40, 100, 0), (162 + 300, 20)),  # carrés; failure maker_keeps_belote: the takers keep their belote
    ({"carres": False}, (100, 40, 0, 0), (162 + 100, 20)),
    ({"carres": False, "run5_value": 50}, (50, 40, 0, 0), (162 + 50, 20)),
    ({"failure": "opponent_takes_all"}, (200, 40, 100, 0), (162 + 300 + 20, 0)),
    ({"failure": "maker_zero"}, (200, 40, 100, 0), (147 + 300, 0)),
    ({"carres": False, "run5_value": 50, "failure": "opponent_takes_all"}, (50, 40, 0, 0), (162 + 50 + 20, 0)),
])
def test_batched_engine_declares_and_scores_by_carres_run5_value_and_failure(options, declared, points):
    """The hand-checked deal of ``tests/test_scoring.py::test_the_engine_scores_a_failed_contract_by_failure``
    in the batched engine: seat 0 holds the four jacks and 9♠-K♠, seat 2 the four aces, seat 1
    (the taker, trump hearts) two tierces and the belote; the takers win 15 trick points:
    dedans. Each seat's declared points and the deal's points, per option."""
    from belote_env.cards import parse_cards
    from belote_env.dealing import deck_for_final_hands
    from tests.test_declarations import COMBO_HANDS

    deck = deck_for_final_hands([parse_cards(h) for h in COMBO_HANDS], "KH", taker=1, dealer=0)
    rules = Rules(target=None, declarations="auto", **options)
    ref, g = play_in_both(rules, deck, 0, lambda st, legal: legal[-1] if st.phase == 0 else legal[0])
    assert tuple(int(x) for x in g.state[0, COL["decl_points0"]:COL["decl_points0"] + 4]) == declared
    assert g.result[0, :2].tolist() == list(points) and g.result[0, 2] == 1  # dedans
    assert ref.deal_score.points == points


@pytest.mark.parametrize("rules", [Rules(), Rules(declarations="auto", belote="optional"),
                                   Rules(declarations="choice", round2_no_trump_all_trump=True)])
def test_observation_ignores_hidden_cards(rules):
    """RULES.md §11: changing the other seats' hands and the deck leaves each seat's
    observation unchanged (the encoder never reads them)."""
    g = BatchedGame(64, rules, seed=3)
    rng = np.random.default_rng(0)
    for _ in range(40):
        for seat in range(4):
            want = encode_batch(g, np.full(64, seat))
            saved = g.state.copy(), g.deck.copy()
            for other in range(4):
                if other != seat:
                    g.state[:, COL["hand0"] + other] = rng.integers(0, 2 ** 32, 64)
                    g.state[:, COL["first_hand0"] + other] = rng.integers(0, 2 ** 32, 64)
            g.deck[:] = rng.integers(0, 32, g.deck.shape)
            got = encode_batch(g, np.full(64, seat))
            g.state[:], g.deck[:] = saved
            np.testing.assert_array_equal(got, want)
        g.step(g.random_actions())


def test_same_seed_same_games_any_batch_size():
    """Table j's deals and random actions depend on (seed, j) only: a batch of 4 replays the
    first 4 tables of a batch of 32, step for step; another seed gives other deals."""
    a, b = BatchedGame(32, seed=11), BatchedGame(4, seed=11)
    for _ in range(300):
        x, y = a.random_actions(), b.random_actions()
        np.testing.assert_array_equal(x[:4], y)
        a.step(x)
        b.step(y)
        np.testing.assert_array_equal(a.state[:4], b.state)
        np.testing.assert_array_equal(a.deck[:4], b.deck)
    assert (a.state[:4, COL["deals"]] > 3).all()
    assert BatchedGame(4, seed=12).deck.tolist() != BatchedGame(4, seed=11).deck.tolist()


def test_bad_input_is_named():
    g = BatchedGame(2, seed=0)
    with pytest.raises(ValueError, match=r"illegal action 5 at table 0 by seat \d; legal ids: \[32, 33\]"):
        g.step(np.array([5, 32]))
    with pytest.raises(ValueError, match="shape"):
        g.step(np.array([32]))
    with pytest.raises(ValueError, match="positive int"):
        BatchedGame(0)
    with pytest.raises(ValueError, match="float32"):
        encode_batch(g, out=np.zeros((2, OBS_SIZE), dtype=np.float64))


def test_seat_batch_holds_no_hidden_card():
    """A SeatBatch keeps copies of its tables' public rows and the acting seats' own hands:
    no game, no deck, no other hand (RULES.md §11), yet the same observations and InfoSets."""
    from belote_env.vector import SeatBatch, infoset_of

    g = BatchedGame(32, Rules(declarations="auto", belote="optional"), seed=9)
    for _ in range(120):
        g.step(g.random_actions())
        b = SeatBatch(g, np.arange(0, 32, 3))
        np.testing.assert_array_equal(b.obs, encode_batch(g)[b.tables])
        for i, j in enumerate(b.tables.tolist()):
            assert b.infoset(i) == infoset_of(g, j, int(g.current[j]))
    held = vars(b._rows) if hasattr(b._rows, "__dict__") else {k: getattr(b._rows, k) for k in b._rows.__slots__}
    assert not any(isinstance(v, BatchedGame) for v in held.values()) and not hasattr(b, "_game")
    st = b._rows.state
    for i, seat in enumerate(b.seats.tolist()):
        for other in range(4):
            if other != seat:
                assert st[i, COL["hand0"] + other] == 0
        assert st[i, COL["pairs"]] & ~(0xF << (4 * seat)) == 0


def test_step_checks_every_table_first_and_random_actions_checks_out():
    g = BatchedGame(3, seed=0)
    before = g.state.copy()
    a = g.random_actions()
    a[2] = 5  # a card id while bidding
    with pytest.raises(ValueError, match="illegal action 5 at table 2"):
        g.step(a)
    np.testing.assert_array_equal(g.state, before)  # nothing stepped
    with pytest.raises(ValueError, match="out of range 0..111"):
        g.step(np.array([2 ** 64 - 1, 32, 32], dtype=np.uint64))
    with pytest.raises(ValueError, match="int64 array of shape"):
        g.random_actions(out=np.empty(1, dtype=np.int64))
    with pytest.raises(ValueError, match="tables must be indices"):
        g.reset(tables=[-1])
    ro = np.zeros((3, OBS_SIZE), dtype=np.float32)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="writeable"):
        encode_batch(g, out=ro)


def test_a_changed_source_drops_the_cached_kernels(tmp_path, monkeypatch):
    """numba checks a kernel's own file only; the kernels call one another across files
    and read ``vector.layout``'s columns and the rule tables as constants: when any source
    of the package differs from the stamp kept beside the cache, every cached kernel of the
    package is deleted (and the stamp renewed); unchanged sources keep them."""
    from belote_env.vector import layout

    root = tmp_path / "belote_env"
    (root / "vector" / "__pycache__").mkdir(parents=True)
    (root / "__pycache__").mkdir()
    (root / "cards.py").write_text("POINTS = 1\n")
    (root / "vector" / "layout.py").write_text("COL = {}\n")
    kernels = [root / "vector" / "__pycache__" / "engine.step_kernel-1.py311.nbi",
               root / "__pycache__" / "solver._search-2.py311.1.nbc"]
    other = root / "vector" / "__pycache__" / "engine.cpython-311.pyc"
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)

    def compiled():
        for k in kernels + [other]:
            k.write_text("compiled")

    compiled()
    layout._drop_stale_kernels(root)  # no stamp yet: treated as changed
    assert not any(k.exists() for k in kernels) and other.exists()
    assert (root / "vector" / "__pycache__" / "sources.sha256").is_file()
    compiled()
    layout._drop_stale_kernels(root)
    assert all(k.exists() for k in kernels)
    (root / "cards.py").write_text("POINTS = 2\n")  # a rule table another file's kernels read
    layout._drop_stale_kernels(root)
    assert not any(k.exists() for k in kernels)
    compiled()
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "elsewhere"))
    (root / "vector" / "layout.py").write_text("COL = {'x': 0}\n")
    layout._drop_stale_kernels(root)
    assert all(k.exists() for k in kernels)  # a cache elsewhere is the user's


def test_an_information_set_is_asked_for_an_int_table_and_seat():
    """``infoset_of`` takes a table and a seat as ints (numpy integers too); a float, which
    ``in range`` would accept, or a bool is refused by name."""
    from belote_env.vector import infoset_of

    g = BatchedGame(2, Rules(), seed=3)
    seat = int(g.current[1])
    assert infoset_of(g, np.int64(1), np.int64(seat)) == infoset_of(g, 1, seat)
    for j, s in ((1, float(seat)), (1.0, seat), (True, seat), (1, True), (2, seat)):
        with pytest.raises(ValueError, match=r"table must be 0\.\.1 and seat 0\.\.3"):
            infoset_of(g, j, s)
