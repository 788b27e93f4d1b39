"""The hard tier at two and three seats (issue #23): the shipped models of
``policies/models/hard_2p`` and ``hard_3p`` load with torch alone, play only legal actions
under both presets and option mixes, and refuse the other table's rules by name."""

from __future__ import annotations

import json
import random

import pytest

from belote_env.config import load_rules
from belote_env.small_game import new_game
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
        st = new_game(rules, seed=seed, dealer=seed % rules.players)
        while not st.is_deal_over:
            info = st.information_set(st.current)
            a = hard.act(info) if rng.random() < 0.8 else info.legal_actions[rng.randrange(len(info.legal_actions))]
            assert a in info.legal_actions
            st.apply(a)
            decisions += 1
    assert decisions > 40


def test_a_two_player_model_refuses_three_player_rules():
    pol = NetworkPolicy.from_path(HARD_2P_MODEL_DIR, name="hard_2p")
    st = new_game(load_rules("seed001_3p"), seed=0)
    with pytest.raises(RulesMismatchError, match="two"):
        pol.act(st.information_set(st.current))
