"""The differential harness of the batched engine (``belote_env.vector``) against the
reference engine (``belote_env.GameState``): the same decks, the same actions, and at every
step identical legal masks, states, observations (every seat), scores and rewards, in the
classic game and in coinche (``contract_mode="coinche"``, COINCHE.md: its presets and
seeded mixes of its options, ``coinche_mixes``).

Used by ``tests/test_vector_engine.py`` and ``tests/test_vector_coinche.py`` (slices in
CI) and ``scripts/check_vector.py`` (the full run of at least 1,000,000 decisions).
"""

from __future__ import annotations

import random
from types import SimpleNamespace

import numpy as np

from belote_env import GameState, Rules
from belote_env.actions import COINCHE, PASS, SURCOINCHE, bid_denomination, coinche_bid_level, num_actions
from belote_env.auction import DENOMINATION_RANK
from belote_env.config import (
    COINCHE_ONLY, DEPENDENT_OPTIONS, OPTION_CHOICES, CUTTHROAT_ONLY, UNDEFINED_MIXES, RuleOptionError, applies, load_rules,
    preset_names,
)
from belote_env.driver import point_reward, reward_scale
from belote_env.game import Phase
from belote_env.table import team_of
from belote_env.observation import encode_infoset, obs_size
from belote_env.vector.engine import COL, OUTCOMES, PHASE_OVER, BatchedGame
from belote_env.vector.envs import point_rewards
from belote_env.vector.infoset import infoset_of
from belote_env.vector.observation import encode_all_kernel

#: the options a classic mix draws from (every option of the classic mode but the game
#: length ones: neither ``contract_mode`` nor the coinche-only options of COINCHE.md §7,
#: which ``coinche_mixes`` draws; ``overtrump_partner``, an option of both modes, is drawn
#: by both)
MIX_OPTIONS = {k: v for k, v in OPTION_CHOICES.items()
               if k != "contract_mode" and k not in COINCHE_ONLY and k not in CUTTHROAT_ONLY}


def option_mixes(count: int, seed: int) -> list[Rules]:
    """The default rules, then ``count - 1`` seeded random mixes of every option."""
    rng = random.Random(seed)
    out = [Rules()]
    while len(out) < count:
        out.append(Rules(**{k: rng.choice(v) for k, v in MIX_OPTIONS.items()}))
    return out


def combination_sets() -> list[Rules]:
    """Classic four-seat rule sets where the options of the combinations and of a failed
    contract (``config.COMBINATION_OPTIONS``: ``carres``, ``run5_value``, ``failure``,
    RULES.md §6-§7) meet declarations: the ``seed001_4p`` preset (no carrés, five cards 50,
    the opponent takes all; belote optional, no declaration tie), then each other value
    with declarations on."""
    return [load_rules("seed001_4p"),
            Rules(declarations="auto", carres=False, failure="maker_zero"),
            Rules(declarations="auto", run5_value=50, failure="opponent_takes_all"),
            Rules(declarations="choice", belote="optional", carres=False, run5_value=50, tie="defenders_keep")]


def play_in_both(rules: Rules, deck, dealer: int, choose) -> tuple[GameState, BatchedGame]:
    """One deal of ``deck`` (the reference's deck order) under ``rules`` in both engines,
    ``choose(state, legal)`` picking every action from the reference's legal ones; checks
    the engines agree at every step (``compare``) and returns the reference's state and
    the batched one (one table, ``autoreset=False``: its ``result`` holds the deal's points
    and outcome)."""
    g = BatchedGame(1, rules, autoreset=False)
    g.deal(np.array([0]), np.array([deck]), np.array([dealer]))
    ref = GameState(rules, deck=list(deck), dealer=dealer, single_deal=True)
    obs = np.zeros((1, 4, obs_size(rules)), dtype=np.float32)
    while not ref.is_deal_over:
        compare(g, [ref], obs)
        a = choose(ref, ref.legal_actions())
        ref.apply(a)
        g.step(np.array([a]))
    assert g.done[0] and int(g.state[0, COL["phase"]]) == PHASE_OVER
    score = ref.deal_score
    assert g.result[0, :2].tolist() == list(score.points) and OUTCOMES[g.result[0, 2]] == score.outcome
    return ref, g


#: the coinche rule presets (COINCHE.md §8)
COINCHE_PRESETS = tuple(name for name in preset_names() if name.startswith("coinche"))
#: the options a coinche mix draws from: every option that applies in coinche mode, both
#: modes' (``overtrump_partner``, ``undertrump``, ``declarations``, ...) and the coinche
#: ones (COINCHE.md §7), with ``max_numeric_bid`` drawn from ``COINCHE_MAX_BIDS``
COINCHE_MIX_OPTIONS = {k: v for k, v in OPTION_CHOICES.items() if k != "contract_mode" and applies(k, "coinche")}
COINCHE_MAX_BIDS = (160, 160, 160, 170, 200, 250)


def defined_mix(options: dict) -> dict:
    """``options`` (coinche options drawn at random) made a mix the rules pages define: an
    option of an undefined mix (``config.UNDEFINED_MIXES``) back to its default, then an
    option without effect (``config.DEPENDENT_OPTIONS``) back to its neutral value. Only
    the keys of ``options`` change; the rest of the draw stays as it was."""
    defaults = Rules(contract_mode="coinche").to_dict()
    r = SimpleNamespace(**{**defaults, **options})
    for name, value, other, refused, _ in UNDEFINED_MIXES:
        if getattr(r, name) == value and refused(getattr(r, other)):
            setattr(r, name, defaults[name])
    for name, (neutral, acts, _, _) in DEPENDENT_OPTIONS.items():
        if getattr(r, name) != neutral and not acts(r):
            setattr(r, name, neutral)
    return {k: getattr(r, k) for k in options}


def coinche_mixes(count: int, seed: int) -> list[Rules]:
    """The coinche defaults (``Rules(contract_mode="coinche")``), then ``count - 1`` seeded
    random mixes of every option that applies in coinche mode (a draw that ``Rules``
    refuses, ``self_overbid`` without ``passes_to_end`` 4, is drawn again)."""
    rng = random.Random(seed)
    out = [Rules(contract_mode="coinche")]
    while len(out) < count:
        options = {k: rng.choice(v) for k, v in COINCHE_MIX_OPTIONS.items()}
        options["max_numeric_bid"] = rng.choice(COINCHE_MAX_BIDS)
        try:
            out.append(Rules(contract_mode="coinche", **defined_mix(options)))
        except RuleOptionError:
            continue
    return out


def coinche_presets() -> list[Rules]:
    """The rules of every coinche preset (``load_rules(name)``, COINCHE.md §8)."""
    return [load_rules(name) for name in COINCHE_PRESETS]


def _reference(g: BatchedGame, j: int, rules: Rules) -> GameState:
    return GameState(rules, dealer=int(g.state[j, COL["dealer"]]), deck=[int(c) for c in g.deck[j]],
                     single_deal=True)


def _choose(g: BatchedGame, rng: np.random.Generator) -> np.ndarray:
    """Random legal actions, passing more often than uniform in the auction (so round 2
    and void deals come up) and taking announce / declare choices half the time. In a
    coinche auction: coinche or surcoinche a quarter of the time when legal, the lowest
    legal bid often (long auctions), else pass or any legal action."""
    out = np.empty(g.n, dtype=np.int64)
    for j in range(g.n):
        legal = np.flatnonzero(g.mask[j])
        if PASS in legal and g.rules.contract_mode == "coinche":
            doubles = legal[(legal == COINCHE) | (legal == SURCOINCHE)]
            bids = legal[(legal != PASS) & (legal != COINCHE) & (legal != SURCOINCHE)]
            x = rng.random()
            if len(doubles) and x < 0.25:
                out[j] = doubles[rng.integers(len(doubles))]
            elif x < 0.6:
                out[j] = PASS
            elif len(bids) and x < 0.85:
                out[j] = min(bids, key=_bid_order)  # the lowest bid: long auctions
            else:
                out[j] = legal[rng.integers(len(legal))]
        elif PASS in legal and rng.random() < 0.6:
            out[j] = PASS
        else:
            out[j] = legal[rng.integers(len(legal))]
    return out


def _bid_order(a: int) -> tuple[int, int]:
    """A coinche bid id's order: its level (ids 40..99 below 160 and capot, 112.. générale,
    118.. above 160), then its denomination's rank (``denomination_order="ranked"``)."""
    level = coinche_bid_level(int(a))
    return (10_000 if level == "generale" else 1000 if level == "capot" else level,
            DENOMINATION_RANK[bid_denomination(int(a), -1)])


def compare(g: BatchedGame, refs: list[GameState], obs: np.ndarray) -> None:
    """Assert table by table that the batched state equals the reference's."""
    s = g.state
    coinche = g.rules.contract_mode == "coinche"
    encode_all_kernel(g.state, g.bids, g.mask, g.points, obs)
    for j, ref in enumerate(refs):
        where = f"table {j}, decision {len(ref.actions)}, actions {ref.actions}"
        assert ref.phase <= Phase.PLAY, where
        assert int(s[j, COL["current"]]) == ref.current, where
        want_mask = np.zeros(g.n_actions, dtype=np.int8)
        want_mask[list(ref.legal_actions())] = 1
        np.testing.assert_array_equal(g.mask[j], want_mask, err_msg=where)
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
        if coinche and ref.phase == Phase.BIDDING:  # the auction's own state (auction.CoincheAuction)
            auc = ref.auction
            high = auc.highest
            assert int(s[j, COL["auc_bidder"]]) == (-1 if high is None else high[2]), where
            assert int(s[j, COL["auc_k"]]) == auc.coinche_level, where
            assert int(s[j, COL["auc_coincher"]]) == auc.coincher, where
            assert int(s[j, COL["auc_passes"]]) == auc.passes, where
            assert (int(s[j, COL["auc_turn"]]) == 1) == auc.in_window, where
        for seat in range(4):
            info = ref.information_set(seat)
            assert infoset_of(g, j, seat) == info, f"{where}, seat {seat}"
            want = encode_infoset(info)
            np.testing.assert_array_equal(obs[j, seat], want, err_msg=f"{where}, seat {seat}")


def lowest_bids(g: BatchedGame, rng: np.random.Generator) -> np.ndarray:
    """A chooser for ``run``: in a coinche auction the lowest legal bid whenever there is
    one (the longest chains of overcalls: every level, every denomination under
    ``denomination_order="ranked"``), but a coinche or surcoinche one time in fifty when
    legal; else pass; random legal cards in play."""
    out = np.empty(g.n, dtype=np.int64)
    for j in range(g.n):
        legal = np.flatnonzero(g.mask[j])
        bids = legal[(legal != PASS) & (legal != COINCHE) & (legal != SURCOINCHE)]
        doubles = legal[(legal == COINCHE) | (legal == SURCOINCHE)]
        if PASS not in legal:
            out[j] = legal[rng.integers(len(legal))]
        elif len(doubles) and rng.random() < 0.02:
            out[j] = doubles[0]
        elif len(bids):
            out[j] = min(bids, key=_bid_order)
        else:
            out[j] = PASS
    return out


def run(rules: Rules, n_tables: int, decisions: int, seed: int, check_obs_every: int = 1, choose=None) -> dict:
    """Play ``decisions`` decisions (about) on ``n_tables`` tables under ``rules`` in both
    engines side by side; returns counts of decisions, deals, void deals and outcomes, the
    longest auction seen (``"longest_auction"``), the classic ties that cost the takers a
    belote they held (``"tie_taker_belote"``: ``tie="defenders_keep"``, RULES.md §7), the
    classic failed contracts where the takers held a belote (``"dedans_taker_belote"``: the
    ``failure`` option) and the deals where a seat declared a five-card sequence
    (``"run5_declared"``: ``run5_value``). ``choose(g, rng)``: the actions
    (default ``_choose``: random legal actions, biased towards passes, coinches and low
    bids in the auction)."""
    choose = _choose if choose is None else choose
    g = BatchedGame(n_tables, rules, seed=seed)
    assert g.mask.shape == (n_tables, num_actions(rules))
    refs = [_reference(g, j, rules) for j in range(n_tables)]
    rng = np.random.default_rng(seed)
    obs = np.zeros((n_tables, 4, obs_size(rules)), dtype=np.float32)
    counts = {"decisions": 0, "deals": 0, **{o: 0 for o in OUTCOMES}, "longest_auction": 0, "tie_taker_belote": 0,
              "dedans_taker_belote": 0, "run5_declared": 0}
    step = 0
    while counts["decisions"] < decisions:
        if step % check_obs_every == 0:
            compare(g, refs, obs)
        a = choose(g, rng)
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
                assert g.result[j, :2].tolist() == list(score.points), (j, ref.actions, g.result[j], score)
                assert OUTCOMES[g.result[j, 2]] == score.outcome, (j, ref.actions, g.result[j], score)
                scale = reward_scale(rules)  # the envs' scaled rewards (driver.point_reward)
                assert point_rewards(g.rewards[j], "scaled", scale).tolist() == [point_reward(d, "scaled", scale)
                                                                                 for d in want]
                counts[score.outcome] += 1
                tie = score.outcome == "litige" and score.coinched == 0 and score.points[score.taker_team] == 0
                counts["tie_taker_belote"] += tie and score.belote[score.taker_team] > 0
                counts["dedans_taker_belote"] += (rules.contract_mode == "classic" and score.outcome == "dedans"
                                                  and score.belote[score.taker_team] > 0)
                counts["run5_declared"] += any(d.length == 5 for ds in ref.declared for d in ds
                                               if d.kind == "sequence")
            counts["deals"] += 1
            length = len(ref.auction.history)
            assert length <= g.auction_bound, (j, ref.actions, g.auction_bound)
            counts["longest_auction"] = max(counts["longest_auction"], length)
            refs[j] = _reference(g, j, rules)
        for j, ref in enumerate(refs):
            if not g.done[j]:
                assert not ref.is_deal_over, f"table {j}: the reference's deal ended, the batched one did not"
    assert not (g.state[:, COL["phase"]] == PHASE_OVER).any()
    return counts
