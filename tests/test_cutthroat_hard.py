"""The hard tier at two and three seats: the shipped models of
``policies/models/hard_2p`` and ``hard_3p`` load with torch alone, play only legal actions
under both presets and option mixes, and refuse the other table's rules by name."""

from __future__ import annotations

import json
import random

import pytest

from belote_env.actions import PROPOSAL_NUM_ACTIONS
from belote_env.config import Rules, load_rules
from belote_env.game import GameState
from policies import make_policy
from policies.hard import HARD_2P_MODEL_DIR, HARD_3P_MODEL_DIR
from policies.network import NetworkPolicy, RulesMismatchError


@pytest.mark.parametrize("folder, mode, players", [(HARD_2P_MODEL_DIR, "two", 2), (HARD_3P_MODEL_DIR, "three", 3)])
def test_shipped_model_files(folder, mode, players):
    meta = json.loads((folder / "meta.json").read_text())
    assert meta["contract_mode"] == mode and meta["rules"]["players"] == players
    assert (folder / "model.safetensors").stat().st_size < 8_000_000
    assert not list(folder.glob("*.pt")) and not list(folder.glob("*.pkl"))  # weights in safetensors only


@pytest.mark.parametrize("preset, overrides", [
    ("seed001_2p", {}), ("seed001_3p", {}),
    ("seed001_2p", {"declarations": "choice", "belote": "optional", "dix_exchange": "auto"}),
    ("seed001_3p", {"three_player_deal": "10_each"}), ("seed001_3p", {"three_player_deal": "24_card"}),
])
def test_hard_plays_legal_actions(preset, overrides):
    rules = load_rules(preset, target=None, **overrides)
    hard = make_policy("hard", seed=1)
    rng = random.Random(0)
    decisions = 0
    for seed in range(8):
        st = GameState(rules, seed=seed, dealer=seed % rules.players)
        while not st.is_deal_over:
            info = st.information_set(st.current)
            a = hard.act(info) if rng.random() < 0.8 else info.legal_actions[rng.randrange(len(info.legal_actions))]
            assert a in info.legal_actions
            st.apply(a)
            decisions += 1
    assert decisions > 40


def test_a_two_player_model_refuses_three_player_rules():
    pol = NetworkPolicy.from_path(HARD_2P_MODEL_DIR, name="hard_2p")
    st = GameState(load_rules("seed001_3p"), seed=0)
    with pytest.raises(RulesMismatchError, match="two"):
        pol.act(st.information_set(st.current))


@pytest.mark.parametrize("preset, overrides", [
    ("seed001_2p", {}), ("seed001_3p", {}),
    ("seed001_2p", {"declarations": "choice", "belote": "optional", "dix_exchange": "auto"}),
    ("seed001_3p", {"three_player_deal": "10_each"}), ("seed001_3p", {"three_player_deal": "24_card"}),
])
def test_small_suit_permutation_index_renames_every_suit_block(preset, overrides):
    """Encoding a two- or three-seat deal whose suits were renamed equals renaming the
    encoding (every decision of 10 random deals, 10 renamings), and the action table moves
    the legal actions with their suits."""
    import itertools

    import numpy as np

    from belote_env.game import GameState
    from belote_env.observation import CUTTHROAT_OBS_SIZE, encode_cutthroat, cutthroat_suit_permutation_index
    from policies.symmetry import action_permutation_table

    rules = load_rules(preset, target=None, **overrides)
    n = rules.players
    perms = list(itertools.permutations(range(4)))
    table = action_permutation_table(PROPOSAL_NUM_ACTIONS)
    checked = 0
    for seed in range(10):
        p = (7 * seed + 3) % 24
        perm = perms[p]
        obs_index, card_index = cutthroat_suit_permutation_index(perm, n)
        assert sorted(obs_index) == list(range(CUTTHROAT_OBS_SIZE[n]))
        mp = lambda c: perm[c >> 3] * 8 + (c & 7)  # noqa: E731
        st = GameState(rules, seed=seed, dealer=seed % n)
        st2 = GameState(rules, deck=[mp(c) for c in st.deck], dealer=st.dealer)
        rng = random.Random(seed)
        while not st.is_deal_over:
            a, b = encode_cutthroat(st.information_set(st.current)), encode_cutthroat(st2.information_set(st2.current))
            assert np.array_equal(a[obs_index], b)
            m = np.zeros(PROPOSAL_NUM_ACTIONS)
            m[list(st.legal_actions())] = 1
            m2 = np.zeros(PROPOSAL_NUM_ACTIONS)
            m2[list(st2.legal_actions())] = 1
            assert np.array_equal(m[table[p].numpy()], m2)
            legal = st.legal_actions()
            act = legal[rng.randrange(len(legal))]
            st.apply(act)
            st2.apply(mp(act) if act < 32 else 34 + perm[act - 34] if 34 <= act < 38 else act)
            checked += 1
        assert [d.points for d in st.deal_scores] == [d.points for d in st2.deal_scores]
    assert checked > 150
    with pytest.raises(ValueError, match="permutation"):
        cutthroat_suit_permutation_index((0, 1, 1, 2), n)
    with pytest.raises(ValueError, match="2 or 3 seats"):
        cutthroat_suit_permutation_index((0, 1, 2, 3), 4)


def test_suit_renaming_refuses_bad_arguments_by_name():
    """A dict is no permutation (its keys would be read), ``n`` must be the int 2 or 3, the
    tables take observation sizes only, and a layout with an unknown kind or overlapping
    blocks is refused."""
    from belote_env.observation import Block, rename_blocks, suit_permutation_index
    from belote_env.observation import cutthroat_suit_permutation_index
    from policies.symmetry import suit_permutation_tables

    for bad in ({0: 1, 1: 0, 2: 3, 3: 2}, {0, 1, 2, 3}):
        with pytest.raises(ValueError, match="permutation"):
            cutthroat_suit_permutation_index(bad, 2)
        with pytest.raises(ValueError, match="permutation"):
            suit_permutation_index(bad)
    for n in (2.0, True, "2", 4):
        with pytest.raises(ValueError, match="2 or 3 seats"):
            cutthroat_suit_permutation_index((1, 0, 3, 2), n)
    with pytest.raises(ValueError, match="902 \\(three\\)"):
        suit_permutation_tables(0)
    with pytest.raises(ValueError, match="unknown suits kind"):
        rename_blocks([(Block("x", 4, "x", "nope"), 0)], (1, 0, 2, 3), 4)
    with pytest.raises(ValueError, match="overlaps"):
        rename_blocks([(Block("x", 4, "x", "suits"), 0), (Block("y", 4, "y", "suits"), 2)], (1, 0, 2, 3), 6)


@pytest.mark.parametrize("players,options", [(2, {}), (3, {}), (3, {"three_player_deal": "10_each"}),
                                             (2, {"declarations": "choice"})])
def test_hard_act_batch_equals_act_row_by_row(players, options):
    """The small tables' hard (its policy network in one batched pass, ``act_batch``)
    decides every row of a batch as ``act`` decides it on the row's information set (under
    a deal or a declaration choice it was not trained on too: normal's auction, declare)."""
    import numpy as np

    from belote_env.vector import SeatBatch
    from belote_env.vector import BatchedGame
    from policies import make_policy

    rules = Rules(players=players, **options)
    pol = make_policy("hard", seed=0, rules=rules)
    g = BatchedGame(32, rules, seed=9)
    checked = 0
    for _ in range(30):
        batch = SeatBatch(g, np.arange(32))
        got = pol.act_batch(batch)
        want = [pol.act(batch.infoset(i)) for i in range(32)]
        assert got.tolist() == want
        checked += int((batch.mask.sum(1) > 1).sum())
        g.step(got)
    assert checked > 400


@pytest.mark.parametrize("deal", ["10_each", "24_card"])
def test_three_seat_hard_under_a_deal_it_was_not_trained_on_plays_its_cards_and_normals_auction(deal):
    """TWO_THREE.md §4 A26: the three-seat hard network was trained under the ``6+3`` deal
    (its ``meta.json`` ``rules``); under ``10_each`` or ``24_card`` its decisions other than
    the card play are ``normal``'s, its card play stays the network's."""
    import random

    from belote_env import GameState
    from policies import make_policy
    from policies.cutthroat_play import normal_cutthroat_act
    from policies.network import is_card_decision

    rules = Rules(players=3, three_player_deal=deal)
    hard = make_policy("hard", rules=rules)
    net = hard.for_rules(rules)
    assert net.deals_untrained(rules) and not net.deals_untrained(Rules(players=3))
    kinds = {"normal": 0, "cards": 0, "cards not normal's": 0}
    for seed in range(30):
        st, rng = GameState(rules, seed=seed, single_deal=True), random.Random(seed)
        while not st.is_deal_over:
            info = st.information_set(st.current)
            if len(info.legal_actions) > 1:
                a = hard.act(info)
                if is_card_decision(info):
                    kinds["cards"] += 1
                    kinds["cards not normal's"] += a != normal_cutthroat_act(info)
                else:
                    assert a == normal_cutthroat_act(info)
                    kinds["normal"] += 1
            st.apply(rng.choice(info.legal_actions))
    assert kinds["normal"] > 50 and kinds["cards"] > 100 and kinds["cards not normal's"] > 10, kinds


def test_two_seat_hard_leaves_the_combinations_step_it_was_not_trained_on_to_normal():
    """TWO_THREE.md §2.6 under ``declarations: choice``: the two-seat hard was trained under
    ``auto`` (its ``meta.json`` rules), so declaring or declining and the dealer's answer
    (enough / not enough / equal; at chance left to the network) are ``normal``'s."""
    import random

    from belote_env import GameState, load_rules
    from belote_env.actions import ANSWER_ENOUGH, ANSWER_EQUAL, ANSWER_NOT_ENOUGH, DECLARE
    from belote_env.game import STEPS
    from policies import make_policy
    from policies.cutthroat_play import normal_cutthroat_act

    rules = load_rules("seed001_2p", declarations="choice")
    hard = make_policy("hard", rules=rules)
    asked = {"declare": 0, "answer": 0}
    for seed in range(120):
        st, rng = GameState(rules, seed=seed, single_deal=True), random.Random(seed)
        while not st.is_deal_over:
            info = st.information_set(st.current)
            if info.step == STEPS.index("declare") and len(info.legal_actions) > 1:
                assert hard.act(info) == normal_cutthroat_act(info)
                answers = {ANSWER_ENOUGH, ANSWER_NOT_ENOUGH, ANSWER_EQUAL}
                asked["answer" if answers & set(info.legal_actions) else "declare"] += DECLARE in info.legal_actions \
                    or bool(answers & set(info.legal_actions))
            st.apply(hard.act(info) if len(info.legal_actions) > 1 else info.legal_actions[0])
    assert asked["declare"] >= 10 and asked["answer"] >= 3, asked
