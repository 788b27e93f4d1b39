"""The differential harness of the batched engine (``belote_env.vector``) against the
reference engine (``belote_env.GameState``): the same decks, the same actions, and at every
step identical legal masks, states, observations (every seat), scores and rewards.

Used by ``tests/test_vector_engine.py`` (a slice in CI) and ``scripts/check_vector.py``
(the full run of at least 1,000,000 decisions).
"""

from __future__ import annotations

import random

import numpy as np

from belote_env import GameState, Rules
from belote_env.config import OPTION_CHOICES
from belote_env.game import Phase
from belote_env.table import team_of
from belote_env.observation import OBS_SIZE, action_mask, encode_infoset
from belote_env.vector.engine import COL, OUTCOMES, PHASE_OVER, BatchedGame
from belote_env.vector.infoset import infoset_of
from belote_env.vector.observation import encode_all_kernel

#: the options a mix draws from (every option of RULES.md but the game length ones)
MIX_OPTIONS = {k: v for k, v in OPTION_CHOICES.items()}


def option_mixes(count: int, seed: int) -> list[Rules]:
    """The default rules, then ``count - 1`` seeded random mixes of every option."""
    rng = random.Random(seed)
    out = [Rules()]
    while len(out) < count:
        out.append(Rules(**{k: rng.choice(v) for k, v in MIX_OPTIONS.items()}))
    return out


def _reference(g: BatchedGame, j: int, rules: Rules) -> GameState:
    return GameState(rules, dealer=int(g.state[j, COL["dealer"]]), deck=[int(c) for c in g.deck[j]],
                     single_deal=True)


def _choose(g: BatchedGame, rng: np.random.Generator) -> np.ndarray:
    """Random legal actions, passing more often than uniform in the auction (so round 2
    and void deals come up) and taking announce / declare choices half the time."""
    out = np.empty(g.n, dtype=np.int64)
    for j in range(g.n):
        legal = np.flatnonzero(g.mask[j])
        if 32 in legal and rng.random() < 0.6:
            out[j] = 32
        else:
            out[j] = legal[rng.integers(len(legal))]
    return out


def compare(g: BatchedGame, refs: list[GameState], obs: np.ndarray) -> None:
    """Assert table by table that the batched state equals the reference's."""
    s = g.state
    encode_all_kernel(g.state, g.bids, g.mask, g.points, obs)
    for j, ref in enumerate(refs):
        where = f"table {j}, decision {len(ref.actions)}, actions {ref.actions}"
        assert ref.phase <= Phase.PLAY, where
        assert int(s[j, COL["current"]]) == ref.current, where
        np.testing.assert_array_equal(g.mask[j], action_mask(ref.legal_actions()), err_msg=where)
        for seat in range(4):
            assert int(s[j, COL["hand0"] + seat]) == ref.hands[seat], where
            assert int(s[j, COL["played0"] + seat]) == ref.played_by[seat], where
            assert int(s[j, COL["cannot0"] + seat]) == ref.public_cannot[seat], where
            assert int(s[j, COL["known0"] + seat]) == ref.public_known[seat], where
        assert int(s[j, COL["denomination"]]) == ref.denomination, where
        assert int(s[j, COL["taker"]]) == ref.taker, where
        n = int(s[j, COL["trick_len"]])
        assert [int(c) for c in s[j, COL["trick0"]:COL["trick0"] + n]] == ref.trick, where
        assert (int(s[j, COL["points0"]]), int(s[j, COL["points1"]])) == tuple(ref.card_points), where
        for seat in range(4):
            info = ref.information_set(seat)
            assert infoset_of(g, j, seat) == info, f"{where}, seat {seat}"
            want = encode_infoset(info)
            np.testing.assert_array_equal(obs[j, seat], want, err_msg=f"{where}, seat {seat}")


def run(rules: Rules, n_tables: int, decisions: int, seed: int, check_obs_every: int = 1) -> dict:
    """Play ``decisions`` decisions (about) on ``n_tables`` tables under ``rules`` in both
    engines side by side; returns counts of decisions, deals, void deals and outcomes."""
    g = BatchedGame(n_tables, rules, seed=seed)
    refs = [_reference(g, j, rules) for j in range(n_tables)]
    rng = np.random.default_rng(seed)
    obs = np.zeros((n_tables, 4, OBS_SIZE), dtype=np.float32)
    counts = {"decisions": 0, "deals": 0, **{o: 0 for o in OUTCOMES}}
    step = 0
    while counts["decisions"] < decisions:
        if step % check_obs_every == 0:
            compare(g, refs, obs)
        a = _choose(g, rng)
        for j, ref in enumerate(refs):
            ref.apply(int(a[j]))
        g.step(a)
        counts["decisions"] += n_tables
        step += 1
        for j in np.flatnonzero(g.done):
            ref = refs[j]
            assert ref.is_deal_over, f"table {j}: the batched deal ended, the reference's did not"
            if ref.void:
                assert g.rewards[j].tolist() == [0.0] * 4
                counts["void"] += 1
            else:
                score = ref.deal_score
                want = [score.difference(team_of(seat)) for seat in range(4)]
                assert g.rewards[j].tolist() == want, (j, ref.actions, g.rewards[j], want, score)
                counts[score.outcome] += 1
            counts["deals"] += 1
            refs[j] = _reference(g, j, rules)
        for j, ref in enumerate(refs):
            if not g.done[j]:
                assert not ref.is_deal_over, f"table {j}: the reference's deal ended, the batched one did not"
    assert not (g.state[:, COL["phase"]] == PHASE_OVER).any()
    return counts
