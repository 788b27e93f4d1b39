"""Policy iteration by rollouts (``training.rollouts``, ``training.iterate``):
the labels are the acting seat's deal result after each legal action on the same deal,
the loop resumes after a kill to the same networks, and its checkpoints load as policies."""

import json
import re
from pathlib import Path

import numpy as np
import pytest
import torch

from belote_env import GameState, Rules
from belote_env.vector import COL, BatchedGame
from policies import make_policy
from policies.network import load_bid_net, load_card_net, load_model
from training.config import ConfigError
from training.iterate import IterateConfig, iterate
from training.rollouts import ValuePlayer, rollout_labels

HARD = "policies/models/hard"


@pytest.fixture(scope="module")
def hard_nets():
    return load_model(HARD)[0], load_card_net(HARD)[0], load_bid_net(HARD)[0]


def test_rollout_labels_are_the_deal_results_of_each_legal_action(hard_nets):
    """Every labelled decision has each legal action valued; replaying one label's action
    on the same deal with the same players gives that label (the acting seat's team's
    point difference / 162)."""
    policy, card, bid = hard_nets
    rules = Rules(target=None)
    player = ValuePlayer(card, bid, policy, rules, epsilon=0.0, seed=0)
    data = rollout_labels(player, rules, 8, seed=5, label_rate=1.0)
    assert data.deals == 8 and data.rollouts == int(data.cards["mask"].sum() + data.bids["mask"].sum())
    assert data.cards["obs"].shape == (len(data.cards["q"]), 618) and data.bids["q"].shape[1] == 8
    assert (data.cards["mask"].sum(1) >= 2).all() and (data.bids["mask"].sum(1) >= 2).all()
    assert (data.cards["q"][~data.cards["mask"]] == 0).all()
    # labels are whole points / 162 within a deal's range
    pts = data.cards["q"][data.cards["mask"]] * 162
    assert np.allclose(pts, np.round(pts), atol=1e-3) and np.abs(pts).max() <= 2 * 162 + 500
    # the greedy players' own choice at a root decision, played on, is the root deal's result:
    # with epsilon 0 each deal's first labelled bid valued at its chosen action equals the deal
    g = BatchedGame(8, rules, seed=5, autoreset=False)
    seat0, first = g.current.copy(), None
    rewards = np.zeros((8, 4))
    while (g.state[:, COL["phase"]] != 2).any():
        live = np.flatnonzero(g.state[:, COL["phase"]] != 2)
        acts = np.zeros(8, dtype=np.int64)
        acts[live] = player.act(g, live)
        if first is None:
            first = acts.copy()
        g.step(acts)
        rewards[g.done] = g.rewards[g.done]
    # the first decisions of the 8 deals are the first 8 bid rows (labelled in table order)
    q0 = data.bids["q"][:8]
    got = q0[np.arange(8), first - 32]
    assert np.allclose(got * 162, rewards[np.arange(8), seat0], atol=1e-3)


def test_rollout_labels_seat_the_pool_at_its_deals_and_label_only_the_player(hard_nets):
    """With ``pool_rate`` 1 every deal seats a pool member at one to three seats, in the
    deal and its rollouts: the labels change with the pool member's networks (the
    oracle-distilled ones instead of the player's), and only the player's decisions are
    labelled (fewer than without a pool, never a decision of a pool seat)."""
    policy, card, bid = hard_nets
    rules = Rules(target=None)
    player = ValuePlayer(card, bid, policy, rules, epsilon=0.0, seed=0)
    oracle = ValuePlayer(load_card_net("policies/models/hard_oracle")[0], load_bid_net("policies/models/hard_oracle")[0],
                         policy, rules, epsilon=0.0, seed=0)
    alone = rollout_labels(player, rules, 16, seed=5)
    self_pool = rollout_labels(player, rules, 16, seed=5, pool=[player], pool_rate=1.0)
    mixed = rollout_labels(player, rules, 16, seed=5, pool=[oracle], pool_rate=1.0)
    # a pool member that plays like the player: the same deals, fewer labelled decisions
    n_alone = len(alone.cards["q"]) + len(alone.bids["q"])
    n_pool = len(self_pool.cards["q"]) + len(self_pool.bids["q"])
    assert 0 < n_pool < n_alone and self_pool.decisions == alone.decisions
    # each pool-deal label is one of the labels of the pure self-play deals (same table, same players)
    rows = {r.tobytes(): q.tobytes() for r, q in zip(alone.cards["obs"], alone.cards["q"])}
    assert all(rows.get(r.tobytes()) == q.tobytes() for r, q in zip(self_pool.cards["obs"], self_pool.cards["q"]))
    # another pool member changes the games and so the labels
    assert (len(mixed.cards["q"]) != len(self_pool.cards["q"])
            or not np.array_equal(mixed.cards["q"], self_pool.cards["q"]))
    # a pool member's epsilon (pool_epsilon) is played, in the deals and their rollouts
    noisy = ValuePlayer(card, bid, policy, rules, epsilon=1.0, seed=0)
    weak = rollout_labels(player, rules, 16, seed=5, pool=[noisy], pool_rate=1.0)
    assert (len(weak.cards["q"]) != len(self_pool.cards["q"])
            or not np.array_equal(weak.cards["q"], self_pool.cards["q"]))
    with pytest.raises(ValueError, match="pool_rate must be in \\[0, 1\\]"):
        rollout_labels(player, rules, 4, seed=5, pool_rate=0.5)
    for bad in ((), (4,), [1], (1.0,), (True,)):
        with pytest.raises(ValueError, match="label_kinds must be a non-empty tuple of decision kinds 1 \\(card\\)"):
            rollout_labels(player, rules, 4, seed=5, label_kinds=bad)


def test_pool_seats_put_a_partner_pool_member_beside_each_of_the_players_seats(hard_nets):
    """``pool_seats``: ``"any"`` seats a member at one to three seats of a ``pool_rate``
    share of the deals; ``"partner"`` at two neighbouring seats, one of each team (0+2,
    1+3), so every seat the player keeps has the member as its partner. With the player
    itself as the member, a partner-seated deal's labels are the pure self-play labels of
    the two seats the player keeps (the same table, the same players)."""
    from training.rollouts import pool_seats

    anyway = pool_seats(4000, 3, 0.5, 2, "any")
    mixed = (anyway >= 0).any(1)
    assert 0.45 < mixed.mean() < 0.55
    counts = (anyway[mixed] >= 0).sum(1)
    assert set(counts) == {1, 2, 3}
    assert all(len(set(row[row >= 0])) == 1 for row in anyway[mixed])  # one member a deal
    assert set(anyway[mixed].max(1)) == {0, 1}
    partner = pool_seats(4000, 3, 1.0, 3, "partner")
    pooled = partner >= 0
    assert (pooled.sum(1) == 2).all()
    assert (pooled[:, 0] != pooled[:, 2]).all() and (pooled[:, 1] != pooled[:, 3]).all()  # one seat of each team
    seen = {tuple(row) for row in pooled.astype(int)}
    assert seen == {(1, 1, 0, 0), (0, 1, 1, 0), (0, 0, 1, 1), (1, 0, 0, 1)}
    assert (pool_seats(50, 3, 0.0, 1, "partner") == -1).all()
    assert np.array_equal(pool_seats(64, 9, 0.5, 2, "any"), pool_seats(64, 9, 0.5, 2, "any"))

    policy, card, bid = hard_nets
    rules = Rules(target=None)
    player = ValuePlayer(card, bid, policy, rules, epsilon=0.0, seed=0)
    alone = rollout_labels(player, rules, 16, seed=5)
    beside = rollout_labels(player, rules, 16, seed=5, pool=[player], pool_rate=1.0, pool_seating="partner")
    rows = {r.tobytes(): q.tobytes() for r, q in zip(alone.cards["obs"], alone.cards["q"])}
    assert 0 < len(beside.cards["q"]) < len(alone.cards["q"])
    assert all(rows.get(r.tobytes()) == q.tobytes() for r, q in zip(beside.cards["obs"], beside.cards["q"]))
    with pytest.raises(ValueError, match="pool_seating must be one of \\('any', 'partner'\\), got 'team'"):
        rollout_labels(player, rules, 4, seed=5, pool=[player], pool_rate=1.0, pool_seating="team")
    with pytest.raises(ValueError, match="pool_seating must be one of \\('any', 'partner'\\), got 'bogus'"):
        pool_seats(8, 1, 1.0, 1, "bogus")


def test_iterate_seats_its_pool_as_the_config_says(tmp_path, monkeypatch):
    """``pool_seating`` in the config reaches the seating of every iteration's deals
    (``iterate`` -> ``rollout_labels`` -> ``pool_seats``), and the run records it."""
    import training.rollouts as rollouts

    seen, original = [], rollouts.pool_seats

    def spy(deals, seed, pool_rate, members, pool_seating="any"):
        seen.append(pool_seating)
        return original(deals, seed, pool_rate, members, pool_seating)

    monkeypatch.setattr(rollouts, "pool_seats", spy)
    run = iterate(_cfg(tmp_path, iterations=1, pool_rate=0.5, pool_seating="partner", eval_every=0), progress=False)
    assert seen == ["partner"]
    info = json.loads((run / "checkpoints" / "iter_00001" / "iterate.json").read_text())
    assert info["config"]["pool_seating"] == "partner"


def test_sampled_worlds_keep_the_acting_seats_view_and_redraw_the_other_hands():
    """``world_snapshots``: each world of a decision gives the acting seat the true deal's
    observation and mask (RULES.md §11: its information set), the deal's public actions
    replayed; the hands it cannot see are redrawn (at card-play decisions, some world
    deals another seat other cards than the true deal)."""
    from training.rollouts import world_snapshots

    for rules in (Rules(target=None), Rules(contract_mode="coinche", target=None)):
        g = BatchedGame(24, rules, seed=3, autoreset=False)
        infos, steps, tables, obs, masks, hands, history = [], [], [], [], [], [], []
        while (g.state[:, COL["phase"]] != 2).any():
            live = np.flatnonzero(g.state[:, COL["phase"]] != 2)
            for t in live[::5]:
                seat = int(g.current[t])
                infos.append(g.infoset(int(t), seat))
                steps.append(len(history))
                tables.append(t)
                obs.append(g.encode_rows(np.array([t]), np.array([seat]))[0])
                masks.append(g.mask[t].copy())
                hands.append(g.state[t, COL["hand0"]:COL["hand0"] + 4].copy())
            acts = g.random_actions()
            history.append(acts.copy())
            g.step(acts)
        hist = np.stack(history, axis=1)[np.array(tables)]
        snap = world_snapshots(rules, infos, np.array(steps), hist, per=3, seed=9, chunk=16)
        w = BatchedGame(len(snap["state"]), rules, seed=0, autoreset=False)
        for name, arr in snap.items():
            getattr(w, name)[:] = arr
        dec = np.repeat(np.arange(len(infos)), 3)
        seats = w.current.astype(np.int64)
        assert (seats == np.array([i.seat for i in infos])[dec]).all()
        assert np.array_equal(w.encode_rows(np.arange(w.n), seats), np.array(obs)[dec])
        assert np.array_equal(w.mask, np.array(masks)[dec])
        whands = w.state[:, COL["hand0"]:COL["hand0"] + 4]
        mine = whands[np.arange(w.n), seats] == np.array(hands)[dec, seats]
        assert mine.all()
        playing = np.array([i.taker >= 0 for i in infos])[dec]
        assert (whands[playing] != np.array(hands)[dec][playing]).any(1).mean() > 0.5


def test_world_labels_are_the_mean_of_the_true_deal_and_the_worlds(hard_nets, monkeypatch):
    """With ``worlds=2`` each label is the mean of the true deal's label (``worlds=1``,
    the same root deals) and one sampled world's: twice it, less the true deal's, is a
    whole deal result; the worlds move some labels; and worlds that are the true deal
    (the deck builder replaced by the root deals' decks) give the true deal's labels."""
    import training.rollouts as ro
    from belote_env.dealing import deal

    policy, card, bid = hard_nets
    rules = Rules(target=None)
    decks = BatchedGame(6, rules, seed=4, autoreset=False).deck.copy()

    def true_deck(info, hidden, rng):  # the root deal this information set is of
        for d in decks.tolist():
            first, turned, _ = deal(d, info.dealer)
            if turned == info.turned_card and not first[info.seat] & ~(info.hand | info.played_by[info.seat]):
                return d
        raise AssertionError("no root deal")

    with monkeypatch.context() as m:
        m.setattr(ro, "world_deck", true_deck)
        same = rollout_labels(ValuePlayer(card, bid, policy, rules, epsilon=0.05, seed=1), rules, 6, seed=4,
                              label_rate=0.5, worlds=2)
    one = rollout_labels(ValuePlayer(card, bid, policy, rules, epsilon=0.05, seed=1), rules, 6, seed=4, label_rate=0.5)
    two = rollout_labels(ValuePlayer(card, bid, policy, rules, epsilon=0.05, seed=1), rules, 6, seed=4, label_rate=0.5,
                         worlds=2)
    assert two.rollouts == 2 * one.rollouts
    for kind in ("cards", "bids"):
        a, b = getattr(one, kind), getattr(two, kind)
        assert np.array_equal(a["obs"], b["obs"]) and np.array_equal(a["mask"], b["mask"])
        world = (2 * b["q"] - a["q"])[a["mask"]] * 162
        assert np.allclose(world, np.round(world), atol=2e-2) and np.abs(world).max() <= 2 * 162 + 500
        assert np.array_equal(getattr(same, kind)["q"], a["q"])
    assert not np.allclose(one.cards["q"], two.cards["q"])
    with pytest.raises(ValueError, match="worlds must be an int in 1..64"):
        rollout_labels(ValuePlayer(card, bid, policy, rules), rules, 2, seed=0, worlds=0)


def test_value_player_reads_only_the_observation(hard_nets):
    """Two tables whose acting seat sees the same information set (the other hands
    swapped) get the same action: the player reads the seat's observation alone (with one
    naming of the suits and averaged over the four shifts)."""
    policy, card, bid = hard_nets
    rules = Rules(target=None)
    g = BatchedGame(2, rules, seed=0, autoreset=False)
    st = GameState(rules, seed=3, single_deal=True)
    deck = np.array(st.deck)
    other = deck.copy()
    # deal order: packets from eldest; swap a card between two seats other than the one to act
    g.deal(np.array([0, 1]), np.stack([deck, deck]), np.array([0, 0]))
    hands = g.state[0, COL["hand0"]:COL["hand0"] + 4].copy()
    cur = int(g.current[0])
    a, b = [(cur + 1) % 4, (cur + 2) % 4]
    ca = int(np.flatnonzero([(hands[a] >> c) & 1 for c in range(32)])[0])
    cb = int(np.flatnonzero([(hands[b] >> c) & 1 for c in range(32)])[0])
    ia, ib = int(np.flatnonzero(deck == ca)[0]), int(np.flatnonzero(deck == cb)[0])
    other[ia], other[ib] = deck[ib], deck[ia]
    g.deal(np.array([1]), other[None], np.array([0]))
    assert g.state[0, COL["hand0"] + a] != g.state[1, COL["hand0"] + a]
    for renamings in (1, 4):
        acts = ValuePlayer(card, bid, policy, rules, renamings=renamings).act(g, np.array([0, 1]))
        assert acts[0] == acts[1]


def test_value_player_averages_over_its_renamings_as_the_hard_tier(hard_nets):
    """``renamings`` 24 plays the cards and bids the hard tier plays (the argmax of the
    average over every suit renaming, ``policies.batch.network_outputs``, over the legal
    actions); 4 averages over a set closed under the cyclic shifts of the suits (a shifted
    observation gets the shifted values); 1 and 4 play other cards on some positions; the
    count is checked."""
    from belote_env.vector.observation import encode_tables_kernel
    from policies.batch import network_outputs, outputs_by_renaming
    from policies.symmetry import RENAMING_SETS, bid_permutation_table, suit_permutation_tables

    policy, card, bid = hard_nets
    rules = Rules(target=None)
    players = {r: ValuePlayer(card, bid, policy, rules, renamings=r) for r in (1, 4, 24)}
    po, pc = suit_permutation_tables()
    g = BatchedGame(256, rules, seed=21, autoreset=False)
    moves = {r: [] for r in players}
    checked = {1: 0, 2: 0}
    for _ in range(12):  # the auction and the first tricks
        live = np.flatnonzero(g.state[:, COL["phase"]] != 2)
        kind = players[1].kinds(g, live)
        acts = {r: p.act(g, live) for r, p in players.items()}
        for r in players:
            moves[r].append(acts[r][kind == 1])
        obs = np.empty((len(live), players[1].size), dtype=np.float32)
        encode_tables_kernel(g.state, g.bids, g.mask, g.points, live, g.current[live].astype(np.int64), obs)
        legal = g.mask[live] != 0
        for k, net, first, width, table in ((1, card, 0, 32, pc), (2, bid, 32, 8, bid_permutation_table())):
            rows = np.flatnonzero(kind == k)
            if len(rows):
                tier = network_outputs(net, obs[rows], first, width, table)
                best = first + np.where(legal[rows, first:first + width], tier, -np.inf).argmax(1)
                assert (acts[24][rows] == best).all()
                checked[k] += len(rows)
        g.step(_fill(live, acts[24], 256))
    assert checked[1] > 500 and checked[2] > 500
    cards = {r: np.concatenate(m) for r, m in moves.items()}
    assert (cards[1] != cards[24]).any() and (cards[4] != cards[24]).any()
    # the four renamings are closed under the cyclic shifts: shifting the observation shifts the values
    rows = np.flatnonzero(g.state[:, COL["phase"]] != 2)
    obs = np.empty((len(rows), players[1].size), dtype=np.float32)
    encode_tables_kernel(g.state, g.bids, g.mask, g.points, rows, g.current[rows].astype(np.int64), obs)
    x = torch.from_numpy(obs)
    with torch.inference_mode():
        po4, pc4 = players[4]._tables[:2]
        four = outputs_by_renaming(card, x, 0, 32, pc4, po=po4)
        for q in RENAMING_SETS[4]:
            shifted = outputs_by_renaming(card, x[:, po[q]], 0, 32, pc4, po=po4)
            assert torch.allclose(shifted, four[:, pc[q]], atol=1e-4)
        assert not torch.allclose(four, torch.from_numpy(network_outputs(card, obs, 0, 32, pc)), atol=1e-3)
    for bad in (2, 4.0, True):
        with pytest.raises(ValueError, match="renamings must be one of \\[1, 4, 24\\]"):
            ValuePlayer(card, bid, policy, rules, renamings=bad)


def _fill(rows, values, n):
    out = np.zeros(n, dtype=np.int64)
    out[rows] = values
    return out


def _cfg(tmp_path, **kw):
    return IterateConfig(**{"exp_name": "t", "iterations": 2, "deals": 24, "label_rate": 0.3, "eval_pairs": 4,
                            "threads": 1, "fit_epochs": 1, "fit_batch": 64, "lr": 1e-4, "log_dir": str(tmp_path),
                            **kw})


def test_iterate_resumes_after_a_kill_to_the_same_networks(tmp_path, monkeypatch):
    pool = {"pool_rate": 0.5, "pool_past": 1}  # the starting networks and iteration 1 in the pool of iteration 2
    run = iterate(_cfg(tmp_path / "a", **pool), progress=False)
    ck = run / "checkpoints"
    assert sorted(p.name for p in ck.iterdir()) == ["iter_00001", "iter_00002"]
    info = json.loads((ck / "iter_00002" / "iterate.json").read_text())
    assert info["iteration"] == 2 and info["budget"]["deals"] == 48 and info["labels"]["cards"] > 0
    assert info["match"]["pairs"] == 4 and info["match"]["seed"] == 1000
    assert [Path(m).name for m in info["pool"]] == ["hard", "iter_00001"]
    whole = load_card_net(ck / "iter_00002")[0].state_dict()
    # a second run killed while it writes iteration 2's checkpoint (its labels are written)
    import training.train

    real = training.train._atomic_folder

    def killed(folder, write):
        if folder.name == "iter_00002":
            raise KeyboardInterrupt
        return real(folder, write)

    monkeypatch.setattr(training.train, "_atomic_folder", killed)
    with pytest.raises(KeyboardInterrupt):
        iterate(_cfg(tmp_path / "b", **pool), progress=False)
    monkeypatch.setattr(training.train, "_atomic_folder", real)
    (run,) = list((tmp_path / "b").iterdir())
    ck = run / "checkpoints"
    assert sorted(p.name for p in ck.iterdir()) == ["iter_00001"]
    again = iterate(progress=False, resume=run)
    assert again == run
    resumed = load_card_net(ck / "iter_00002")[0].state_dict()
    assert all(torch.equal(whole[k], resumed[k]) for k in whole)
    assert json.loads((ck / "iter_00002" / "iterate.json").read_text())["budget"]["deals"] == 48
    first = load_card_net(ck / "iter_00001")[0].state_dict()
    assert not all(torch.equal(first[k], resumed[k]) for k in first)  # the fit moved the networks
    pol = make_policy(str(ck / "iter_00002"), seed=0)
    st = GameState(Rules(target=None), seed=2, single_deal=True)
    while not st.is_deal_over:
        info = st.information_set(st.current)
        a = pol.act(info)
        assert a in info.legal_actions
        st.apply(a)
    assert sorted(p.name for p in (run / "data").iterdir()) == ["iter_00002.npz"]  # what a 3rd would replay


def test_iterate_grows_the_card_network_before_the_first_iteration(tmp_path):
    """``card_layers``: the run's card network has the new layers; its first checkpoint
    was fitted from the grown start (the same values as hard's before the fit)."""
    run = iterate(_cfg(tmp_path, iterations=1, eval_pairs=0, card_layers=[512, 640, 640]), progress=False)
    card = load_card_net(run / "checkpoints" / "iter_00001")[0]
    assert card.config["pi"] == [512, 640, 640]
    assert load_bid_net(run / "checkpoints" / "iter_00001")[0].config["pi"] == load_bid_net(HARD)[0].config["pi"]


def test_iterate_plays_its_renamings_in_the_deals_and_the_rollouts(tmp_path, monkeypatch):
    """The config's ``renamings`` reaches every player the loop makes (the player and the
    pool members, whose rollouts are the labels, and the outcome model's player of
    game-aware labels)."""
    import training.rollouts as rollouts

    made = []

    class Stop(Exception):
        pass

    class Recording(rollouts.ValuePlayer):
        def __init__(self, *a, **kw):
            super().__init__(*a, **kw)
            made.append(self.renamings)

    def stop(player, rules, deals, seed, pool=(), **kw):
        raise Stop([player.renamings] + [p.renamings for p in pool])

    monkeypatch.setattr(rollouts, "ValuePlayer", Recording)
    monkeypatch.setattr(rollouts, "rollout_labels", stop)
    with pytest.raises(Stop) as e:
        iterate(_cfg(tmp_path / "pool", renamings=4, pool_rate=0.5), progress=False)
    assert e.value.args[0] == [4, 4] and made == [4, 4]
    made.clear()  # with game-aware labels, the player of the outcome model too
    with pytest.raises(Stop) as e:
        iterate(_cfg(tmp_path / "game", renamings=4, game_value=True), progress=False)
    assert e.value.args[0] == [4] and made == [4, 4]


def test_iterate_fits_only_the_networks_named_in_fit(tmp_path):
    """``fit: [cards]`` fits the card-value network and leaves the bid-value network as the
    starting model has it (the same weights in the checkpoint)."""
    run = iterate(_cfg(tmp_path, iterations=1, eval_pairs=0, fit=["cards"]), progress=False)
    ck = run / "checkpoints" / "iter_00001"
    start_bid, start_card = load_bid_net(HARD)[0].state_dict(), load_card_net(HARD)[0].state_dict()
    bid, card = load_bid_net(ck)[0].state_dict(), load_card_net(ck)[0].state_dict()
    assert all(torch.equal(bid[k], start_bid[k]) for k in start_bid)
    assert not all(torch.equal(card[k], start_card[k]) for k in start_card)
    info = json.loads((ck / "iterate.json").read_text())
    assert set(info["fit"]) == {"cards"} and info["labels"]["cards"] > 0 and info["labels"]["bids"] == 0


def test_iterate_config_refuses_bad_values(tmp_path):
    with pytest.raises(ConfigError, match="'label_rate' must be a number in \\(0, 1\\]"):
        _cfg(tmp_path, label_rate=0)
    with pytest.raises(ConfigError, match="'deals' must be an int >= 1"):
        _cfg(tmp_path, deals=0)
    with pytest.raises(ConfigError, match="rules players 4"):
        _cfg(tmp_path, rules={"players": 2})
    with pytest.raises(ConfigError, match="'pool' must be a list of model folders"):
        _cfg(tmp_path, pool="policies/models/hard")
    with pytest.raises(ConfigError, match="'pool_rate' must be a number in \\[0, 1\\]"):
        _cfg(tmp_path, pool_rate=1.5)
    with pytest.raises(ConfigError, match="'pool_rate' is 0.5 with an empty 'pool' and 'pool_past' 0"):
        _cfg(tmp_path, pool=[], pool_rate=0.5)
    with pytest.raises(ConfigError, match="pool /nonexistent_model: does not exist; give a model folder holding "
                                          "cards/ and bids/ value networks"):
        iterate(_cfg(tmp_path / "bad", pool=["/nonexistent_model"], pool_rate=0.5), progress=False)
    assert not (tmp_path / "bad").exists()  # refused before a run folder is made
    with pytest.raises(ConfigError, match="'card_layers' must be a list of hidden layer sizes"):
        _cfg(tmp_path, card_layers=[512, 0])
    with pytest.raises(ConfigError, match="'card_layers': pi must keep every hidden layer of \\[512, 512\\]"):
        iterate(_cfg(tmp_path / "narrow", card_layers=[256, 256]), progress=False)
    assert not (tmp_path / "narrow").exists()
    with pytest.raises(ConfigError, match="'renamings' must be one of \\[1, 4, 24\\], got 3"):
        _cfg(tmp_path, renamings=3)
    for bad in ([], ["cards", "cards"], ["policy"], "cards", [{"cards": 1}]):
        with pytest.raises(ConfigError, match="'fit' must be a list of the networks to fit, 'cards' and/or 'bids'"):
            _cfg(tmp_path, fit=bad)
    for bad in (0, 65, 2.0, True):
        with pytest.raises(ConfigError, match="'worlds' must be"):
            _cfg(tmp_path, worlds=bad)
    for bad in ("partners", "", None, 2):
        with pytest.raises(ConfigError, match="'pool_seating' must be one of 'any', 'partner'"):
            _cfg(tmp_path, pool_seating=bad)
    with pytest.raises(ConfigError, match="unknown config key 'lr0'"):
        IterateConfig.from_dict({"lr0": 1})
    for bad in (-0.1, 11, True, "0.1", float("nan")):
        with pytest.raises(ConfigError, match="'coinche_bias' must be a number in \\[0, 10\\]"):
            _cfg(tmp_path, rules={"contract_mode": "coinche"}, coinche_bias=bad)
    with pytest.raises(ConfigError, match="'coinche_bias' is 0.1 with classic rules: it applies to coinche rules only"):
        _cfg(tmp_path, coinche_bias=0.1)
    assert _cfg(tmp_path, rules={"contract_mode": "coinche"}, coinche_bias=0.1).coinche_bias == 0.1


def test_a_coinche_bias_makes_the_value_player_coinche_more_readily():
    """``coinche_bias`` raises the bid value of coinche before the greedy choice: 0 plays
    as the networks value, a large bias coinches at every decision where coinche is legal,
    a middle one in between; the other decisions are the unbiased player's. Refused under
    classic rules and when negative."""
    from belote_env import load_rules
    from belote_env.actions import COINCHE

    rules = load_rules("coinche")
    model = "policies/models/hard_coinche"
    nets = (load_card_net(model)[0], load_bid_net(model)[0], None)
    counts = {}
    for bias in (0.0, 0.1, 10.0):
        player, plain = ValuePlayer(*nets, rules, coinche_bias=bias), ValuePlayer(*nets, rules)
        g = BatchedGame(256, rules, seed=3, autoreset=False)
        legal = chosen = 0
        while True:
            live = np.flatnonzero(g.mask.any(1))
            if not len(live):
                break
            acts, base = player.act(g, live), plain.act(g, live)
            can = g.mask[live, COINCHE] != 0
            legal += int(can.sum())
            chosen += int((acts == COINCHE).sum())
            assert (acts[~can] == base[~can]).all()  # only a decision where coinche is legal changes
            g.step(_fill(live, acts, g.n))
        counts[bias] = (chosen, legal)
    assert counts[10.0][0] == counts[10.0][1] > 0
    assert counts[0.0][0] < counts[0.1][0] < counts[0.1][1]
    with pytest.raises(ValueError, match="coinche_bias is 0.1 under classic rules: it applies to coinche rules"):
        ValuePlayer(*nets, Rules(), coinche_bias=0.1)
    for bad in (-1.0, 10.5, float("nan"), True, "0.1"):
        with pytest.raises(ValueError, match="coinche_bias must be a number in \\[0, 10\\]"):
            ValuePlayer(*nets, rules, coinche_bias=bad)


def test_iterate_starts_from_the_shipped_hard_model_wherever_it_runs(tmp_path, monkeypatch):
    """``init_from`` left out is the shipped classic hard model of the installed package
    (``policies.hard.HARD_MODEL_DIR``), as ``belote eval hard`` finds it, not a path read
    from the current folder."""
    from policies.hard import HARD_MODEL_DIR
    from training.iterate import _nets, load_iterate_config

    monkeypatch.chdir(tmp_path)
    (tmp_path / "empty.yaml").write_text("")
    cfg = load_iterate_config(tmp_path / "empty.yaml")
    assert cfg.init_from == IterateConfig().init_from == str(HARD_MODEL_DIR)
    policy, card, bid = _nets(Path(cfg.init_from), cfg.rules_obj)
    shipped = load_card_net(HARD_MODEL_DIR)[0].state_dict()
    assert all(torch.equal(v, shipped[k]) for k, v in card.state_dict().items()) and bid.config["obs_size"] == 618


def test_iterate_names_a_starting_model_folder_that_does_not_exist(tmp_path, monkeypatch):
    """A relative ``init_from`` is read from the current folder: one that is not there is
    said to be missing, with that folder and the shipped model's path, before a run folder
    is made (it used to say the folder lacked ``cards/``)."""
    from policies.hard import HARD_MODEL_DIR

    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError) as e:
        iterate(_cfg(tmp_path / "runs", init_from="policies/models/hard_oracle"), progress=False)
    assert str(e.value) == (f"init_from policies/models/hard_oracle: does not exist (a relative path is read from the "
                            f"current folder, {Path.cwd()}); give a model folder holding cards/ and bids/ value "
                            f"networks (the shipped classic hard model: {HARD_MODEL_DIR})")
    (tmp_path / "afile").write_text("x")
    with pytest.raises(ConfigError, match=f"init_from {re.escape(str(tmp_path))}/afile: is not a folder; give"):
        iterate(_cfg(tmp_path / "runs", init_from=str(tmp_path / "afile")), progress=False)
    assert not (tmp_path / "runs").exists()


def test_hard_oracle_is_the_hard_before_policy_iteration():
    """The shipped hard's value networks came from hard_oracle's by iteration (its
    iterate.json says so); hard_oracle loads the models of that name, classic and coinche
    (``hard_oracle_coinche``); the coinche hard's cards are iteration 8's of a run from the
    coinche hard before it and its bid values a [256, 256] network (``belote distil``)
    fitted to the blend of 0.5 x the oracle's + 0.5 x iteration 8's (``belote blend``)."""
    from policies.hard import HARD_COINCHE_MODEL_DIR, HARD_ORACLE_COINCHE_MODEL_DIR, HARD_ORACLE_MODEL_DIR
    from policies.network import load_bid_net

    hard, oracle = make_policy("hard", seed=0), make_policy("hard_oracle", seed=0)
    assert (hard.name, oracle.name) == ("hard", "hard_oracle")
    info = json.loads((Path(HARD) / "iterate.json").read_text())
    assert info["init_from"] == "policies/models/hard" and info["iteration"] == 35  # the folder's name then
    assert json.loads((Path(HARD) / "meta.json").read_text())["iterated_from"] == "policies/models/hard_oracle"
    a, b = hard.card_net.state_dict(), oracle.card_net.state_dict()
    assert not all(torch.equal(a[k], b[k]) for k in a)
    assert torch.equal(load_model(HARD)[0].state_dict()["action_net.weight"],
                       load_model(HARD_ORACLE_MODEL_DIR)[0].state_dict()["action_net.weight"])  # same policy network
    st = GameState(Rules(contract_mode="coinche", target=None), seed=1)
    assert oracle.for_rules(st.rules).card_net is not None
    assert oracle.coinche_dir == HARD_ORACLE_COINCHE_MODEL_DIR and hard.coinche_dir == HARD_COINCHE_MODEL_DIR
    info = json.loads((HARD_COINCHE_MODEL_DIR / "iterate.json").read_text())
    assert info["init_from"] == "policies/models/hard_coinche" and info["iteration"] == 8  # the tier before
    assert info["config"]["pool_seating"] == "partner"
    a = hard.for_rules(st.rules).card_net.state_dict()
    b = oracle.for_rules(st.rules).card_net.state_dict()
    assert not all(torch.equal(a[k], b[k]) for k in a)
    distilled = json.loads((HARD_COINCHE_MODEL_DIR / "bids" / "meta.json").read_text())["distilled"]
    blend = distilled["teacher_blend"]
    assert blend["a"] == "policies/models/hard_oracle_coinche" and blend["weight"] == 0.5
    assert distilled["teacher_net"] == [512, 512] and load_bid_net(HARD_COINCHE_MODEL_DIR)[0].config["pi"] == [256, 256]
    x = torch.rand(3, hard.for_rules(st.rules).obs_size)
    mine, start = load_bid_net(HARD_COINCHE_MODEL_DIR)[0], load_bid_net(HARD_ORACLE_COINCHE_MODEL_DIR)[0]
    assert not torch.allclose(mine.logits(x), start.logits(x), atol=1e-3)


def test_a_resume_removes_a_cut_checkpoint_folder_and_writes_the_log_row_a_kill_lost(tmp_path, monkeypatch):
    """A kill after iteration 1's checkpoint is published but before its log row is
    written, with a staging folder of iteration 2 left over: the resumed run removes the
    staging folder and writes iteration 1's row (from its ``iterate.json``), so the CSV rows
    and TensorBoard steps are 1 and 2, each once."""
    import csv

    from stable_baselines3.common.logger import Logger
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    real = Logger.dump

    def killed(self, step=0):
        raise KeyboardInterrupt

    monkeypatch.setattr(Logger, "dump", killed)
    with pytest.raises(KeyboardInterrupt):
        iterate(_cfg(tmp_path), progress=False)
    monkeypatch.setattr(Logger, "dump", real)
    (run,) = list(tmp_path.iterdir())
    ck = run / "checkpoints"
    (ck / ".iter_00002._vgdfh7s").mkdir()  # a kill mid-checkpoint (train._atomic_folder's staging folder)
    (ck / ".iter_00002._vgdfh7s" / "iterate.json").write_text("{")
    assert iterate(progress=False, resume=run) == run
    assert sorted(p.name for p in ck.iterdir()) == ["iter_00001", "iter_00002"]
    rows = [r for f in sorted(run.glob("progress*.csv")) for r in csv.DictReader(f.open())]
    deals = [int(float(r["iterate/deals"])) for r in rows]
    assert deals == [24, 48]
    acc = EventAccumulator(str(run))
    acc.Reload()
    assert [e.step for e in acc.Scalars("iterate/deals")] == [1, 2]
    assert json.loads((run / "logged.json").read_text()) == {"iteration": 2}


def test_a_resume_refuses_an_edited_config_and_a_train_run_naming_what_is_wrong(tmp_path):
    """A run's ``config.yaml`` edited since its checkpoints (the seed, the rules, the deals)
    is refused naming the key; more ``iterations`` are accepted. A ``belote train`` run's
    folder is said to be one, naming its config file."""
    import yaml

    from training.config import ConfigError

    run = iterate(_cfg(tmp_path, iterations=1), progress=False)
    conf = yaml.safe_load((run / "config.yaml").read_text())
    for key, value in (("seed", 5), ("rules", {"contract_mode": "coinche"}), ("deals", 48)):
        (run / "config.yaml").write_text(yaml.safe_dump({**conf, key: value}))
        with pytest.raises(ConfigError, match=f"config key '{key}' of the resumed run is .* was made with"):
            iterate(progress=False, resume=run)
    assert sorted(p.name for p in (run / "checkpoints").iterdir()) == ["iter_00001"]
    (run / "config.yaml").write_text(yaml.safe_dump({**conf, "iterations": 2}))
    iterate(progress=False, resume=run)
    assert sorted(p.name for p in (run / "checkpoints").iterdir()) == ["iter_00001", "iter_00002"]
    train_run = tmp_path / "belote_v0__x__0__1"
    train_run.mkdir()
    (train_run / "config.yaml").write_text(yaml.safe_dump({"run_name": "belote_v0__x__0__1", "seed": 0}))
    with pytest.raises(ConfigError, match=f"{train_run / 'config.yaml'} is the config of a `belote train` run, "
                                          "not of a `belote iterate` run"):
        iterate(progress=False, resume=train_run)


def test_a_checkpoint_of_older_rules_dicts_resumes_under_todays_defaults(tmp_path):
    """A checkpoint made before its config was recorded holds its rules as they were then
    written (``None`` for carres, run5_value and failure at four seats, before they applied
    there): it is the same rules under today's defaults; other rules are still refused."""
    from training.iterate import _check_resumed_config

    cfg = IterateConfig()
    rules = cfg.rules_obj.to_dict()
    info = {"rules": {**rules, "carres": None, "run5_value": None, "failure": None}, "init_from": cfg.init_from}
    _check_resumed_config(cfg, info, tmp_path)  # nothing raised
    with pytest.raises(ConfigError, match="config key 'rules'"):
        _check_resumed_config(cfg, {**info, "rules": {**info["rules"], "tie": "takers_fail"}}, tmp_path)
