"""The fast observation encoder and the engine's card-by-card public knowledge against
their straightforward references, over many seeded deals under every preset and option."""

import dataclasses
import random

import numpy as np
import pytest

from belote_env import GameState, Rules, load_rules, preset_names
from belote_env.inference import possible_holdings, public_constraints
from belote_env.observation import OBS_SIZE, encode_infoset

from .reference_encoder import reference_encode

RULESETS = [r for r in (load_rules(name, target=None) for name in preset_names() if name.startswith("seed"))
            if r.players == 4] + [
    Rules(target=None, declarations="auto"),
    Rules(target=None, declarations="choice", belote="optional"),
    Rules(target=None, round2_no_trump_all_trump=True, all_trump_points="ffb2015"),
    Rules(target=None, undertrump="discard_allowed", partner_master_free=False),
    Rules(target=None, obligations="two_player", round2_no_trump_all_trump=True),
]


def _positions(rules: Rules, seed: int, deals: int):
    """Every decision of ``deals`` random deals: (state, acting seat, another seat)."""
    rng = random.Random(seed)
    for _ in range(deals):
        st = GameState(rules, rng=rng, dealer=rng.randrange(4))
        while not st.is_deal_over:
            yield st, st.current, rng.randrange(4)
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("ri", range(len(RULESETS)))
def test_engine_public_knowledge_equals_inference_from_history(ri):
    rules = RULESETS[ri]
    checked = nonempty = 0
    for st, seat, other in _positions(rules, 100 + ri, 60):
        for s in (seat, other):
            info = st.information_set(s)
            scratch = dataclasses.replace(info, public_knowledge=None)
            got, want = public_constraints(info), public_constraints(scratch)
            assert got == want, (rules, st.actions)
            assert possible_holdings(info) == possible_holdings(scratch) == tuple(
                0 if x == s else want.possible(x) for x in range(4))
            checked += 1
            nonempty += any(want.cannot[x] for x in range(4) if x != s)
    assert checked > 3000 and nonempty > 500  # voids and trump limits did occur


@pytest.mark.parametrize("ri", range(len(RULESETS)))
def test_fast_encoder_equals_reference_index_for_index(ri):
    rules = RULESETS[ri]
    buf = np.full(OBS_SIZE, 7.0, dtype=np.float32)
    n = 0
    for st, seat, other in _positions(rules, 200 + ri, 25):
        for s in (seat, other):
            info = st.information_set(s)
            want = reference_encode(info)
            got = encode_infoset(info)
            assert got.dtype == np.float32 and got.shape == (OBS_SIZE,)
            np.testing.assert_array_equal(got, want)
            encode_infoset(info, out=buf)  # a dirty buffer is fully overwritten
            np.testing.assert_array_equal(buf, want)
            n += 1
    assert n > 1000


def test_reference_encoder_hand_checked_values():
    """Anchor the reference itself: a position checked by hand (RULES.md §4)."""
    st = GameState(Rules(target=None), seed=3)
    while st.phase == 0:  # everyone takes at the first chance
        st.apply(max(st.legal_actions()) if 33 in st.legal_actions() else st.legal_actions()[0])
    me = st.current
    info = st.information_set(me)
    obs = reference_encode(info)
    hand = [c for c in range(32) if info.hand >> c & 1]
    assert sorted(np.flatnonzero(obs[0:32]).tolist()) == hand and len(hand) == 8
    assert obs[32 + info.turned_card] == 1 and obs[32:64].sum() == 1
    assert obs[100 + info.denomination] == 1 and obs[106 + (info.taker - me) % 4] == 1
    assert obs[376] == 1  # phase: card play
    assert obs[378] == 1  # no trick completed
    assert obs[433:465].sum() == 24  # unseen: 32 - my 8
    # the taker holds the turned card: the three others may not (belief block)
    taker_rel = (info.taker - me) % 4
    assert info.taker == st.taker
    for r in (1, 2, 3):
        holds = obs[518 + 3 * info.turned_card + r - 1]
        if info.taker == me:
            assert holds == 0
        else:
            assert holds == (1.0 if r == taker_rel else 0.0)


def _renamed_game(seed: int, perm):
    """The same deal and actions with suit ``s`` renamed ``perm[s]`` (cards and named contracts)."""
    rules = Rules(target=None)
    st = GameState(rules, seed=seed)
    mp = lambda c: perm[c >> 3] * 8 + (c & 7)  # noqa: E731
    st2 = GameState(rules, deck=[mp(c) for c in st.deal_log[-1]["deck"]], dealer=st.dealer)
    rng = random.Random(seed)
    while not st.is_deal_over:
        yield st, st2
        legal = st.legal_actions()
        a = legal[rng.randrange(len(legal))]
        st.apply(a)
        st2.apply(mp(a) if a < 32 else 34 + perm[a - 34] if 34 <= a < 38 else a)


def test_suit_permutation_index_renames_every_suit_block():
    """Encoding a deal whose suits were renamed equals renaming the encoding (every
    position of 12 random deals, 12 renamings)."""
    import itertools

    from belote_env.observation import suit_permutation_index

    perms = list(itertools.permutations(range(4)))
    checked = 0
    for seed in range(12):
        perm = perms[(5 * seed + 1) % 24]
        obs_index, card_index = suit_permutation_index(perm)
        assert sorted(obs_index) == list(range(OBS_SIZE)) and sorted(card_index) == list(range(32))
        for st, st2 in _renamed_game(seed, perm):
            a = encode_infoset(st.information_set(st.current))
            b = encode_infoset(st2.information_set(st2.current))
            assert np.array_equal(a[obs_index], b)
            m = np.zeros(32)
            m[[c for c in st.legal_actions() if c < 32]] = 1
            m2 = np.zeros(32)
            m2[[c for c in st2.legal_actions() if c < 32]] = 1
            assert np.array_equal(m[card_index], m2)
            checked += 1
    assert checked > 300
    for bad in [(0, 1, 1, 2), (0, 1, 2, 3.9), "3210", (True, False, 2, 3), (0, 1, 2), 5]:
        with pytest.raises(ValueError, match="permutation"):
            suit_permutation_index(bad)


def test_the_small_observation_alias_warns_and_gives_the_same_objects():
    """``belote_env.small_observation`` is a deprecated alias of ``belote_env.observation``'s
    two- and three-seat names for one release."""
    import importlib

    from belote_env import observation

    alias = importlib.import_module("belote_env.small_observation")
    with pytest.warns(DeprecationWarning, match="is belote_env.observation.encode_cutthroat"):
        assert alias.encode_small is observation.encode_cutthroat
    with pytest.warns(DeprecationWarning):
        assert alias.SMALL_OBS_SIZE == {2: 716, 3: 902}
    with pytest.raises(AttributeError):
        alias.encode_infoset  # noqa: B018 - not one of the moved names
