import os

# The golden files (tests/golden/) hold the networks' decisions to the last tie: MKL picks
# its float32 kernels by CPU (AVX2, AVX-512), whose roundings differ in the last bits and
# can flip a near-tie (one deal of the 100-game hard-vs-normal match). The tests run MKL's
# AVX2 kernels on every x86 machine, set before torch is imported; users' runs are not
# affected (their figures are reproducible on a given CPU, docs/results.md 2026-12-03).
os.environ.setdefault("MKL_ENABLE_INSTRUCTIONS", "AVX2")

import random

import pytest

from belote_env import GameState, InfoSet, Rules
from belote_env.actions import PASS, TAKE
from belote_env.cards import parse_card, parse_cards
from belote_env.contract import Contract
from belote_env.rules import legal_cards


def play_random_deal(state: GameState, rng: random.Random) -> None:
    """Play random legal actions until the current deal is over."""
    while not state.is_deal_over:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])


def random_game(rules: Rules, seed: int, max_actions: int, random_dealer: bool = False,
                seen: set[int] | None = None) -> GameState:
    """A game of seeded random legal actions (the next deal dealt after each), to its end or
    ``max_actions`` actions; the dealer drawn first from the same stream with
    ``random_dealer``; every legal id met is added to ``seen``."""
    rng = random.Random(seed)
    st = GameState(rules, seed=seed, dealer=rng.randrange(rules.players) if random_dealer else 0)
    for _ in range(max_actions):
        if st.is_game_over:
            break
        if st.is_deal_over:
            st.next_deal()
            continue
        legal = st.legal_actions()
        if seen is not None:
            seen.update(legal)
        st.apply(legal[rng.randrange(len(legal))])
    return st


@pytest.fixture
def rules() -> Rules:
    return Rules()


def random_aec_episode(env, rng: random.Random) -> dict:
    """Play one AEC episode (already reset) with random legal actions; returns each
    agent's summed reward."""
    import numpy as np

    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
    return totals


def assert_plays_legal(policy, seeds, rules: Rules | None = None) -> None:
    """Every action ``policy`` chooses in the seeded single deals is legal."""
    rules = rules or Rules(target=None)
    for seed in seeds:
        st = GameState(rules, seed=seed)
        while not st.is_deal_over:
            info = st.information_set(st.current)
            a = policy.act(info)
            assert a in info.legal_actions
            st.apply(a)


def play_info(hand, trick, contract=0, seat=0, leader=None, taker=1, tricks=(), played=None, legal=None):
    """An InfoSet of ``seat`` in card play under ``Rules()`` (dealer 3, seat 1 took by
    default): ``hand`` and ``trick`` are card names (``"JS 7H"``), the trick in play order
    led by ``leader``; ``played`` maps seats to cards they played in earlier tricks;
    ``legal`` defaults to the legal cards of the position (RULES.md §4)."""
    trick = tuple(parse_card(c) for c in trick.split())
    leader = (seat - len(trick)) % 4 if leader is None else leader
    hand_mask = parse_cards(hand)
    played_by = [0, 0, 0, 0]
    for i, c in enumerate(trick):
        played_by[(leader + i) % 4] |= 1 << c
    if played:
        for s, cards in played.items():
            played_by[s] |= parse_cards(cards)
    if legal is None:
        legal = tuple(c for c in range(32) if legal_cards(hand_mask, list(trick), contract, Rules()) >> c & 1)
    n_tricks = len(tricks)
    return InfoSet(seat=seat, dealer=3, phase=1, current_seat=seat, hand=hand_mask, turned_card=parse_card("7S"),
                   auction=((0, PASS), (1, TAKE)), bid_round=0, contract=Contract(taker, contract), denomination=contract,
                   taker=taker, trick=trick,
                   trick_leader=leader, tricks=tuple(tricks), played_by=tuple(played_by),
                   hand_sizes=(8 - n_tricks,) * 4, card_points=(0, 0), announcements=(),
                   declared=((), (), (), ()), scores=(0, 0), reserve=0, deal_number=0, legal_actions=legal,
                   rules=Rules())
