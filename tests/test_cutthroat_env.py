"""belote_v0 and the Gymnasium env at two and three seats (TWO_THREE.md):
PettingZoo's api_test / seed_test / render_test and the Gymnasium and SB3 env checkers under
both presets and option mixes, the observation's content, per-seat rewards, argument
errors, and the information rule (TWO_THREE.md §5, RULES.md §11) proven by rebuilding each
deal with the hidden cards resampled and replaying it."""

from __future__ import annotations

import copy
import random

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

from belote_env import belote_v0
from belote_env.actions import NAME_CONTRACT, PASS, TAKE, num_actions
from belote_env.cards import NUM_CARDS, Rank, card
from belote_env.config import Rules, load_rules
from belote_env.dealing import packet_layout, dealt_pack
from belote_env.driver import seat_reward
from belote_env.game import IllegalActionError, Phase
from belote_env.gym_env import BeloteGymEnv
from belote_env.observation import obs_size
from belote_env.render import _per_seat_text, render_text
from belote_env.game import STEPS, GameState
from belote_env.observation import (
    CUTTHROAT_AUCTION_SLOTS, CUTTHROAT_OBS_SIZE, encode_cutthroat, cutthroat_layout as obs_layout, cutthroat_obs_size, cutthroat_offsets,
)
from tests.conftest import random_aec_episode

CONFIGS = [
    {"rules": "seed001_2p"},
    {"rules": "seed001_3p"},
    {"rules": "seed001_2p", "declarations": "choice", "belote": "optional"},
    {"rules": "seed001_3p", "declarations": "choice", "belote": "optional", "dix_exchange": "choice"},
    {"rules": "seed001_3p", "three_player_deal": "10_each"},
    {"rules": "seed001_3p", "three_player_deal": "24_card", "belote": "optional"},
    {"rules": "seed001_2p", "dix_exchange": "auto", "episode": "game", "target": 300},
    {"rules": "seed001_3p", "reward_mode": "win", "episode": "game", "target": 300, "redeal_consent": "next_player"},
]
IDS = ["-".join(f"{k}={v}" for k, v in c.items()) for c in CONFIGS]


@pytest.mark.parametrize("cfg", CONFIGS, ids=IDS)
def test_api_seed_render(cfg):
    api_test(belote_v0.env(**cfg), num_cycles=150, verbose_progress=False)
    seed_test(lambda **kw: belote_v0.env(**cfg, **kw), num_cycles=30)
    render_test(lambda render_mode=None: belote_v0.env(render_mode=render_mode, **cfg))


@pytest.mark.parametrize("players", [2, 3])
def test_spaces_agents_and_masks(players):
    rules = Rules(players=players)
    env = belote_v0.raw_env(rules=rules)
    assert env.possible_agents == [f"player_{i}" for i in range(players)]
    n_obs = cutthroat_obs_size(rules)
    assert n_obs == obs_size(rules) == CUTTHROAT_OBS_SIZE[players] and num_actions(rules) == 414
    assert env.observation_space("player_0")["observation"].shape == (n_obs,)
    assert env.observation_space("player_0")["action_mask"].shape == (414,)
    assert env.action_space("player_1").n == 414
    assert env.obs_encoder_version == "small-1"
    rng = random.Random(players)
    for _ in range(20):
        env.reset(seed=rng.randrange(1 << 30))
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            st = env.game
            assert isinstance(st, GameState)
            assert obs["observation"].dtype == np.float32 and obs["observation"].shape == (n_obs,)
            assert obs["action_mask"].dtype == np.int8
            assert tuple(np.flatnonzero(obs["action_mask"])) == st.legal_actions()
            for other in env.agents:
                if other != agent:
                    assert not env.observe(other)["action_mask"].any()
            legal = st.legal_actions()
            env.step(legal[rng.randrange(len(legal))])


def test_observation_blocks_hold_the_information_set():
    """Each block says what its layout row says, from the seat's point of view."""
    rules = load_rules("seed001_3p")
    o = cutthroat_offsets(3)
    rng = random.Random(5)
    seen_trick = seen_decl = 0
    for _ in range(30):
        g = GameState(rules, seed=rng.randrange(1 << 30), dealer=rng.randrange(3), single_deal=True)
        while not g.is_deal_over:
            for me in range(3):
                info = g.information_set(me)
                x = encode_cutthroat(info)
                hand = x[o["hand"]:o["hand"] + 32]
                assert {int(c) for c in np.flatnonzero(hand)} == {c for c in range(32) if g.hands[me] >> c & 1}
                assert np.flatnonzero(x[o["turned"]:o["turned"] + 32]).tolist() == [g.turned_card]
                assert x[o["dealer"] + (g.dealer - me) % 3] == 1
                if g.taker >= 0:
                    assert x[o["maker"] + (g.taker - me) % 3] == 1 and x[o["trump"] + g.denomination] == 1
                    assert np.flatnonzero(x[o["bottom"]:o["bottom"] + 32]).tolist() == [g.bottom_card]
                for i, (seat, a) in enumerate(g.auction.history):
                    base = o["auction"] + i * 12
                    kind = {PASS: 0, TAKE: 1}.get(a, 5 + a - NAME_CONTRACT if NAME_CONTRACT <= a < 38 else None)
                    assert x[base + (seat - me) % 3] == 1
                    if kind is not None:
                        assert x[base + 3 + kind] == 1
                for k, c in enumerate(g.trick):
                    r = (g.trick_leader + k - me) % 3
                    assert x[o["trick"] + 32 * r + c] == 1
                    seen_trick += 1
                for seat in range(3):
                    r = (seat - me) % 3
                    played = x[o["played"] + 32 * r:o["played"] + 32 * r + 32]
                    assert {int(c) for c in np.flatnonzero(played)} == {c for c in range(32)
                                                                       if g.played_by[seat] >> c & 1}
                    assert x[o["card_points"] + r] == pytest.approx(g.card_points[seat] / 162)
                if g.decl_winner >= 0:
                    seen_decl += 1
                    assert x[o["decl_winner"] + (g.decl_winner - me) % 3] == 1
                phase = x[o["phase"]:o["phase"] + 7]
                want = (0 if g.auction.bid_round == 1 else 1) if g.phase == Phase.BIDDING else 2 + g.step
                assert np.flatnonzero(phase).tolist() == [want]
                assert x[o["to_act"] + (g.current - me) % 3] == 1
            legal = g.legal_actions()
            g.apply(legal[rng.randrange(len(legal))])
    assert seen_trick > 100 and seen_decl > 0


def test_layout_and_errors():
    for n in (2, 3):
        lay = obs_layout(n)
        assert sum(b.size for b in lay) == CUTTHROAT_OBS_SIZE[n]
        assert len({b.name for b in lay}) == len(lay)
    assert CUTTHROAT_OBS_SIZE == {2: 716, 3: 902}  # the sizes the env's docstring states
    assert CUTTHROAT_AUCTION_SLOTS >= 9
    with pytest.raises(ValueError, match="2 or 3 seats"):
        obs_layout(4)
    with pytest.raises(ValueError, match="players 2 or 3"):
        cutthroat_obs_size(Rules())
    from belote_env import GameState

    with pytest.raises(ValueError, match="two- or three-seat"):
        encode_cutthroat(GameState(Rules(), seed=0).information_set(0))
    g = GameState(Rules(players=2), seed=0)
    with pytest.raises(ValueError, match="float32 array of shape"):
        encode_cutthroat(g.information_set(0), out=np.zeros(3, dtype=np.float32))
    out = np.full(CUTTHROAT_OBS_SIZE[2], 7.0, dtype=np.float32)
    assert np.array_equal(encode_cutthroat(g.information_set(0), out=out), encode_cutthroat(g.information_set(0)))
    with pytest.raises(ValueError, match="four-seat only"):
        belote_v0.raw_env(rules="seed001_3p", obs_mode="history")
    with pytest.raises(ValueError, match="render_seat must be a seat 0..1"):
        belote_v0.raw_env(rules="seed001_2p", render_seat=2)
    with pytest.raises(ValueError, match="learner='team'"):
        BeloteGymEnv(rules="seed001_3p", learner="team")
    with pytest.raises(ValueError, match="learner_seat must be a seat 0..2"):
        BeloteGymEnv(rules="seed001_3p", learner_seat=3)
    with pytest.raises(ValueError, match="partner"):
        BeloteGymEnv(rules="seed001_2p", partner=lambda info: info.legal_actions[0])
    with pytest.raises(ValueError, match=r"lacks a policy for seat\(s\) \[2\]"):
        BeloteGymEnv(rules="seed001_3p", learner_seat=0, opponents={1: None})
    with pytest.raises(ValueError, match="keys must be seats 0..1"):
        BeloteGymEnv(rules="seed001_2p", opponents={0: None, 1: None, 2: None})


@pytest.mark.parametrize("preset", ["seed001_2p", "seed001_3p"])
@pytest.mark.parametrize("reward_mode", ["scaled", "points", "win"])
def test_rewards_are_each_seats_own_score(preset, reward_mode):
    env = belote_v0.raw_env(rules=preset, reward_mode=reward_mode)
    n = env.n_seats
    rng = random.Random(17)
    played = 0
    for _ in range(40):
        env.reset(seed=rng.randrange(1 << 30))
        totals, infos = dict.fromkeys(env.possible_agents, 0.0), {}
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            totals[agent] += reward
            infos[agent] = info
            legal = np.flatnonzero(obs["action_mask"])
            env.step(None if term or trunc else int(legal[rng.randrange(len(legal))]))
        g = env.game
        s = g.deal_score
        for seat in range(n):
            assert totals[f"player_{seat}"] == pytest.approx(seat_reward(s, seat, reward_mode, g.rules))
        if reward_mode != "win":
            assert sum(totals.values()) == pytest.approx(0.0, abs=1e-9)  # own points against the others' mean
        if s is None:
            assert all(v == 0 for v in totals.values())
            continue
        played += 1
        if reward_mode == "points":
            assert totals["player_0"] == pytest.approx(s.points[0] - sum(s.points[1:]) / (n - 1))
        info = infos["player_1"]
        assert info["deal_points"] == tuple(s.points[(1 + i) % n] for i in range(n))
        assert info["outcome"] == s.outcome and info["scores"] == tuple(g.scores[(1 + i) % n] for i in range(n))
    assert played > 20


@pytest.mark.parametrize("preset", ["seed001_2p", "seed001_3p"])
def test_game_episode_win_reward(preset):
    env = belote_v0.raw_env(rules=preset, episode="game", reward_mode="win", target=250)
    rng = random.Random(3)
    for _ in range(4):
        env.reset(seed=rng.randrange(1 << 30))
        totals = random_aec_episode(env, rng)
        g = env.game
        assert g.is_game_over and g.winner is not None and max(g.scores) >= 250
        assert totals[f"player_{g.winner}"] == 1.0
        assert all(v == -1.0 for a, v in totals.items() if a != f"player_{g.winner}")


@pytest.mark.filterwarnings("ignore:.*illegal action", "ignore:.*maximum value is infinity")
@pytest.mark.parametrize("preset", ["seed001_2p", "seed001_3p"])
def test_gymnasium_and_sb3_env_checkers(preset):
    from gymnasium.utils.env_checker import check_env
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    check_env(BeloteGymEnv(rules=preset), skip_render_check=True)
    sb3_check_env(BeloteGymEnv(rules=preset, render_mode="ansi"))
    check_env(BeloteGymEnv(rules=preset, episode="game", reward_mode="win", target=200, learner_seat=1),
              skip_render_check=True)
    env = BeloteGymEnv(rules=preset, render_mode="ansi", three_player_deal="10_each") if preset.endswith("3p") \
        else BeloteGymEnv(rules=preset, render_mode="rgb_array")
    env.reset(seed=0)
    out = env.render()
    if isinstance(out, str):
        assert "Your hand" in out and "of 3" in out
    else:
        assert out.dtype == np.uint8 and out.ndim == 3


@pytest.mark.parametrize("preset", ["seed001_2p", "seed001_3p"])
def test_gym_env_plays_a_deal_with_per_seat_reward(preset):
    rules = load_rules(preset)
    n = rules.players
    env = BeloteGymEnv(rules=preset, learner_seat=n - 1)
    rng = random.Random(2)
    for _ in range(15):
        obs, info = env.reset(seed=rng.randrange(1 << 30))
        assert obs.shape == (CUTTHROAT_OBS_SIZE[n],) and info["seat"] == n - 1
        total, done = 0.0, False
        while not done:
            legal = np.flatnonzero(env.action_masks())
            obs, r, done, _, info = env.step(int(legal[rng.randrange(len(legal))]))
            total += r
        s = env.game.deal_score
        assert total == pytest.approx(seat_reward(s, n - 1, "scaled", rules))
        if s is not None:
            assert info["deal_points"] == tuple(s.points[(n - 1 + i) % n] for i in range(n))


def test_render_shows_only_own_hand():
    env = belote_v0.raw_env(rules="seed001_3p", render_mode="ansi", render_seat=1)
    env.reset(seed=4)
    text = env.render()
    g = env.game
    from belote_env.cards import card_to_str, cards_of

    assert "You: West (seat 1) [you] of 3" in text
    for c in cards_of(g.hands[0] | g.hands[2]):
        assert card_to_str(c) not in text.split("Your hand:")[1]
    with pytest.raises(ValueError, match="two- or three-seat"):
        from belote_env import GameState

        _per_seat_text(GameState(Rules(), seed=0).information_set(0))


# ----------------------------------------------------------------------------- the information rule
def _public(g: GameState) -> tuple:
    """The public record of a deal (TWO_THREE.md §5): bids, trump and maker, the turned and
    bottom cards, the exchange, announced combinations and who scores them with the cards
    shown, belote claims, every card played, whose turn it is."""
    return (tuple(g.auction.history), g.taker, g.denomination, g.turned_card, g.bottom_card, g.exchanged, g.out_of_play,
            tuple(g.declared), g.decl_winner, g.decl_cards, tuple(g.announcements), tuple(g.tricks), tuple(g.trick),
            tuple(g.played_by), g.phase, g.step, g.current)


def _resample(g: GameState, seat: int, rng: random.Random, tries: int = 200):
    """A state of the same deal rebuilt from a deck whose cards hidden from ``seat`` are
    redrawn (the other hands, the unused face-down cards, the bottom card before it is
    shown, the stock before the completion, another seat's discards), keeping what ``seat``
    has seen (its own cards, the turned card, the bottom card once shown), and replayed
    through the same actions; a draw the public record (``_public``) rules out is redrawn.
    Returns ``None`` if no draw fits within ``tries``."""
    rules, n = g.rules, g.n
    lay = packet_layout(rules, g.dealer)
    pack = list(dealt_pack(g.deck, rules))
    completed = g.taker >= 0
    more = lay.more if lay.more_by_taker is None else (lay.more_by_taker[g.taker] if completed else None)
    fixed = {lay.turned: pack[lay.turned]}
    fixed.update({p: pack[p] for p in lay.first[seat]})
    owner: dict[int, int] = {}  # hidden position -> seat holding it (completed deals)
    if completed:
        fixed.update({p: pack[p] for p in more[seat]})
        if lay.bottom >= 0:
            fixed[lay.bottom] = pack[lay.bottom]
        if lay.chien and seat == g.taker:
            fixed.update({p: pack[p] for p in lay.chien})
        for t in range(n):
            if t != seat:
                for p in (*lay.first[t], *more[t], *(lay.chien if t == g.taker else ())):
                    owner[p] = t
    hidden_pos = [p for p in range(len(pack)) if p not in fixed]
    pool = [pack[p] for p in hidden_pos]
    cannot = g.public_cannot
    seven = card(Rank.SEVEN, g.denomination) if g.denomination >= 0 else -1
    must = {t: 0 for t in range(n)}
    if completed:
        for t in range(n):
            if t != seat:
                m = g.played_by[t] | (g.decl_cards if g.decl_winner == t else 0)
                if g.exchanged == t:
                    m |= 1 << seven
                must[t] = m & ~(1 << g.turned_card)
    for _ in range(tries):
        alt = list(pack)
        if not completed:  # the bidding depends on no card: any redraw fits
            cards = pool[:]
            rng.shuffle(cards)
            for p, c in zip(hidden_pos, cards):
                alt[p] = c
        else:
            free = [c for c in pool if not any(must[t] >> c & 1 for t in range(n))]
            rng.shuffle(free)
            ok = True
            for t in sorted((t for t in range(n) if t != seat), key=lambda t: -cannot[t].bit_count()):
                pos = [p for p in hidden_pos if owner.get(p) == t]
                cards = [c for c in pool if must[t] >> c & 1]
                need = len(pos) - len(cards)
                loose = 2 if lay.chien and t == g.taker else 0  # 10_each: its discards may be any cards
                take = [c for c in free if not cannot[t] >> c & 1][:need - loose]
                take += [c for c in free if c not in take][:need - len(take)]
                if len(take) < need:
                    ok = False
                    break
                for c in take:
                    free.remove(c)
                cards += take
                rng.shuffle(cards)
                for p, c in zip(pos, cards):
                    alt[p] = c
            if not ok:
                continue
            rest = [p for p in hidden_pos if p not in owner]
            for p, c in zip(rest, free):
                alt[p] = c
        deck = alt if not lay.pack24 else alt + [c for c in range(NUM_CARDS) if c & 7 < 2]
        scores, reserve, deal_number = g.start
        st = GameState(rules, dealer=g.dealer, deck=deck, scores=list(scores), reserve=reserve,
                            deal_number=deal_number, single_deal=g.single_deal)
        try:
            for who, a in g.actions:
                if st.current != who:
                    raise IllegalActionError("out of turn", a, who, ())
                if st.phase == Phase.PLAY and STEPS[st.step] == "discard" and who != seat:
                    keep = must[who] | g.played_by[who]  # the cards it plays later stay in hand
                    can = [c for c in st.legal_actions() if not keep >> c & 1]
                    void = [c for c in can if cannot[who] >> c & 1]  # it showed it lacks them later
                    a = rng.choice(void or can)
                st.apply(a)
        except IllegalActionError:
            continue
        if _public(st) == _public(g):
            return st
    return None


INFO_CONFIGS = [
    {"rules": "seed001_2p"},
    {"rules": "seed001_3p"},
    {"rules": "seed001_2p", "declarations": "choice", "belote": "optional"},
    {"rules": "seed001_3p", "declarations": "choice", "belote": "optional"},
    {"rules": "seed001_3p", "three_player_deal": "10_each"},
    {"rules": "seed001_3p", "three_player_deal": "24_card", "dix_exchange": "choice"},
    {"rules": "seed001_3p", "ruff_overtrump": "only_trump_lead", "defender_partner_free": True},
]


@pytest.mark.parametrize("cfg", INFO_CONFIGS, ids=[str(c) for c in INFO_CONFIGS])
def test_information_rule_with_resampled_hidden_cards(cfg):
    """At every decision of seeded deals, the deal rebuilt with the cards hidden from the
    acting seat redrawn (other hands, unused cards, stock, discards) consistently with the
    public record gives that seat the identical information set, observation, mask, render
    and, after the same action, the same rewards and infos (TWO_THREE.md §5)."""
    env = belote_v0.raw_env(**cfg)
    rng = random.Random(23)
    checked = differed = skipped = 0
    for _ in range(12):
        env.reset(seed=rng.randrange(1 << 30))
        while not env.game.is_deal_over:
            g = env.game
            seat, agent = g.current, env.agent_selection
            alt = _resample(g, seat, rng)
            legal = g.legal_actions()
            a = legal[rng.randrange(len(legal))]
            if alt is None:
                skipped += 1
                env.step(a)
                continue
            others = [t for t in range(g.n) if t != seat]
            differed += any(alt.hands[t] != g.hands[t] for t in others) or alt.deck != g.deck
            assert alt.information_set(seat) == g.information_set(seat)
            assert render_text(alt.information_set(seat)) == render_text(g.information_set(seat))
            base = env.observe(agent)
            twin = copy.deepcopy(env)
            twin.game = alt
            other = twin.observe(agent)
            assert np.array_equal(base["observation"], other["observation"])
            assert np.array_equal(base["action_mask"], other["action_mask"])
            env.step(a)
            twin.step(a)
            assert twin.rewards == env.rewards and twin.infos == env.infos
            checked += 1
    assert checked > 150 and skipped <= checked // 10, (checked, skipped)
    assert differed > checked // 2  # the redraws do change the hidden cards


def test_render_text_renders_every_table():
    """``render.render_text`` serves two and three seats too (their table's text)."""
    from belote_env.render import render_text

    for players in (2, 3):
        info = GameState(Rules(players=players), seed=2).information_set(0)
        assert render_text(info) == _per_seat_text(info)
        with pytest.warns(DeprecationWarning, match="render_text"):
            from belote_env.render import render_small_text
        assert render_small_text(info) == render_text(info)
