"""A deal as an episode of its own: ``GameState(rules, single_deal=True)`` ends the
game with its first played deal whatever the rules' target and deal limit, a void deal can
be redealt, and the callers that play single deals use it (RULES.md §8)."""

import dataclasses
import random

import pytest

from belote_env import GameState, IllegalActionError, Rules, belote_v0
from belote_env.actions import PASS, TAKE
from belote_env.cards import parse_cards
from belote_env.dealing import deck_from_hands
from belote_env.game import Phase
from belote_env.gym_env import BeloteGymEnv
from belote_env.records import game_record, replay
from belote_env.table import NEXT_SEAT, team_of

from .conftest import play_random_deal

SPADES = "JS 9S AS 10S KS QS 8S 7S"
OTHERS = ("7H 8H 9H 10H JH", "QH KH AH 7D 8D", "9D 10D JD QD KD")  # 15 of the 24 cards that are no spade
STOCK_REST = "AD 7C 8C 9C 10C JC QC KC AC".split()  # the other 9


def capot_deal(dealer: int = 0):
    """Hands, turned card and stock in which eldest holds J♠ 9♠ A♠ 10♠ K♠, the turned card
    is Q♠ and the first two stock cards (eldest's, when it takes: RULES.md §3.5) are 8♠ 7♠.
    Taking, eldest holds all eight trumps: its team wins every trick whatever is played,
    a capot with belote, 252 + 20 = 272 to 0 (RULES.md §7, §13 example 3)."""
    eldest = NEXT_SEAT[dealer]
    spades = SPADES.split()
    hands, others = [None] * 4, iter(OTHERS)
    for seat in range(4):
        hands[seat] = spades[:5] if seat == eldest else next(others).split()
    return hands, spades[5], spades[6:] + STOCK_REST


def play_first_legal(st: GameState) -> None:
    """Eldest takes, then each seat plays its first legal card, to the end of the deal."""
    st.apply(TAKE)
    while not st.is_deal_over:
        st.apply(st.legal_actions()[0])


@pytest.mark.parametrize("rules", [Rules(), Rules(target=1), Rules(target=1_000_000), Rules(max_deals=1),
                                   Rules(target=5000, max_deals=7), Rules(target=None)])
@pytest.mark.parametrize("dealer", [0, 3])
def test_a_played_deal_ends_the_game_at_any_target(rules, dealer):
    hands, turned, stock = capot_deal(dealer)
    st = GameState.from_hands(hands, turned, stock, rules, dealer=dealer, single_deal=True)
    assert st.single_deal and st.rules is rules and st.phase == Phase.BIDDING
    eldest = NEXT_SEAT[dealer]
    play_first_legal(st)
    assert st.hands == [0, 0, 0, 0] and st.taker == eldest
    takers = team_of(eldest)
    points = [0, 0]
    points[takers] = 272  # capot 252 + belote 20
    assert st.deal_score.capot == takers and st.deal_score.outcome == "made"
    assert st.deal_score.points == tuple(points) and st.scores == points
    assert st.phase == Phase.GAME_OVER and st.is_game_over and st.is_deal_over
    assert st.winner == takers and st.deal_number == 1 and len(st.deal_scores) == 1
    assert st.current_seat == -1 and st.legal_actions() == ()
    with pytest.raises(RuntimeError, match="needs a finished deal, the game is in phase GAME_OVER"):
        st.next_deal()
    with pytest.raises(IllegalActionError, match="the game is over"):
        st.apply(PASS)


def test_without_single_deal_the_same_deal_goes_on():
    hands, turned, stock = capot_deal()
    st = GameState.from_hands(hands, turned, stock, Rules())  # a game to 1000
    play_first_legal(st)
    assert st.scores == [0, 272] and st.phase == Phase.DEAL_OVER and st.winner is None
    st.next_deal()
    assert st.phase == Phase.BIDDING and st.dealer == 1


@pytest.mark.parametrize("all_pass_redeal, dealer_after", [("same_dealer", 0), ("next_dealer", 1)])
def test_a_void_deal_is_redealt(all_pass_redeal, dealer_after):
    rules = Rules(all_pass_redeal=all_pass_redeal)
    st = GameState(rules, seed=0, dealer=0, single_deal=True)
    for _ in range(8):  # eight passes: the deal is void (RULES.md §3.4)
        st.apply(PASS)
    assert st.void and st.phase == Phase.DEAL_OVER and not st.is_game_over
    assert st.deal_score is None and st.winner is None and st.scores == [0, 0] and st.deal_number == 0
    hands, turned, stock = capot_deal(dealer_after)
    st.next_deal(deck_from_hands(hands, turned, stock, dealer_after))
    assert st.dealer == dealer_after and st.phase == Phase.BIDDING and not st.void
    play_first_legal(st)
    takers = team_of(NEXT_SEAT[dealer_after])
    assert st.is_game_over and st.winner == takers and st.scores[takers] == 272 and st.scores[1 - takers] == 0
    assert st.deal_number == 1 and len(st.deal_log) == 2


def test_resumed_scores_are_carried_and_equal_totals_draw():
    hands, turned, stock = capot_deal()  # team 1 takes and scores 272
    with pytest.raises(ValueError, match="already reach the target 200"):
        GameState.from_hands(hands, turned, stock, Rules(target=200), scores=(272, 0))
    st = GameState.from_hands(hands, turned, stock, Rules(target=200), scores=(272, 0), single_deal=True)
    play_first_legal(st)
    assert st.scores == [272, 272] and st.is_game_over and st.winner is None  # a draw: no deal more (§8)
    st = GameState.from_hands(hands, turned, stock, Rules(), scores=(300, 0), deal_number=4, single_deal=True)
    play_first_legal(st)
    assert st.scores == [300, 272] and st.is_game_over and st.winner == 0 and st.deal_number == 5


@pytest.mark.parametrize("bad", ["yes", 1, 0, None, 1.0])
def test_bad_single_deal_raises(bad):
    with pytest.raises(ValueError, match=r"single_deal must be True or False, got " + repr(bad).replace(".", r"\.")):
        GameState(single_deal=bad)


def test_other_arguments_are_still_checked():
    with pytest.raises(ValueError, match="reserve must be 0 under tie='takers_made'"):
        GameState(Rules(tie="takers_made"), reserve=10, single_deal=True)
    with pytest.raises(ValueError, match="scores must be"):
        GameState(scores=(1, 2, 3), single_deal=True)
    with pytest.raises(ValueError, match="dealer must be a seat"):
        GameState(dealer=4, single_deal=True)


def _without_rules(info):
    return dataclasses.replace(info, rules=Rules())


@pytest.mark.parametrize("rules", [Rules(), Rules(target=5000, max_deals=3, declarations="auto"),
                                   Rules(belote="optional", declarations="choice", target=301)])
def test_single_deal_plays_as_target_none(rules):
    """Same decks and actions: the same views (but for ``rules``), scores, winner and phases
    as the rules rewritten with ``target=None, max_deals=None``, the same record."""
    old_rules = rules.replace(target=None, max_deals=None)
    for seed in range(40):
        new, old = GameState(rules, seed=seed, single_deal=True), GameState(old_rules, seed=seed)
        rng = random.Random(seed)
        while True:
            while not new.is_deal_over:
                for seat in range(4):
                    a, b = new.information_set(seat), old.information_set(seat)
                    assert a.rules is rules and b.rules is old_rules
                    assert _without_rules(a) == _without_rules(b)
                legal = new.legal_actions()
                assert legal == old.legal_actions()
                action = legal[rng.randrange(len(legal))]
                new.apply(action)
                old.apply(action)
            assert (new.phase, new.scores, new.winner, new.void) == (old.phase, old.scores, old.winner, old.void)
            if new.is_game_over:
                break
            new.next_deal()
            old.next_deal()
        assert game_record(new) == game_record(old)
        assert new.deal_score == old.deal_score


def test_a_single_deal_record_replays():
    st = GameState(Rules(target=500, max_deals=2), seed=3, single_deal=True)
    rng = random.Random(3)
    while not st.is_game_over:
        play_random_deal(st, rng)
        if not st.is_game_over:
            st.next_deal()
    rec = game_record(st)
    assert rec["rules"]["target"] is None and rec["rules"]["max_deals"] is None  # a one-deal game (§8)
    assert rec["result"]["game_over"] is True
    back = replay(rec)
    assert back.scores == st.scores and back.winner == st.winner and back.is_game_over


def test_clone_keeps_single_deal():
    st = GameState(Rules(), seed=1, single_deal=True)
    assert st.clone().single_deal
    assert not GameState(Rules(), seed=1).clone().single_deal


def test_envs_play_deal_episodes_as_single_deals():
    env = belote_v0.raw_env()  # default rules: target 1000
    env.reset(seed=5)
    assert env.game.single_deal and env.game.rules is env.rules and env.rules.target == 1000
    env = belote_v0.raw_env(episode="game", target=300)
    env.reset(seed=5)
    assert not env.game.single_deal and env.game.rules.target == 300
    gym = BeloteGymEnv()
    gym.reset(seed=5)
    assert gym.game.single_deal and gym.game.rules is gym.rules
    gym = BeloteGymEnv(episode="game")
    gym.reset(seed=5)
    assert not gym.game.single_deal


def test_deal_episodes_do_not_depend_on_the_target():
    """The deal episodes of ``raw_env`` under a target of 1000 or none: the same
    observations, masks, rewards and infos (the target was rewritten away before)."""
    import numpy as np

    for seed in range(5):
        envs = [belote_v0.raw_env(), belote_v0.raw_env(target=None)]
        for e in envs:
            e.reset(seed=seed)
        rng = random.Random(seed)
        for agent in envs[0].agent_iter():
            outs = [e.last() for e in envs]
            for k in ("observation", "action_mask"):
                assert np.array_equal(outs[0][0][k], outs[1][0][k])
            assert outs[0][1:] == outs[1][1:]
            if outs[0][2]:
                action = None
            else:
                legal = np.flatnonzero(outs[0][0]["action_mask"])
                action = int(legal[rng.randrange(len(legal))])
            for e in envs:
                e.step(action)
            assert envs[1].agent_selection == envs[0].agent_selection


def test_training_data_does_not_depend_on_the_target():
    """The imitation and bid-oracle data, and the self-play tables, play single deals under
    the rules as given: the same data as under the rules rewritten to ``target=None``."""
    import numpy as np

    from training.imitation import generate_teacher_data
    from training.oracle import generate_bid_data
    from training.selfplay import SelfPlayCollector

    for make in (lambda r: generate_teacher_data("easy", 6, 3, r),
                 lambda r: generate_bid_data(4, 3, r, behaviour=("random", "easy"))):
        a, b = make(Rules(target=700, max_deals=2)), make(Rules(target=None))
        assert a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)
    rules = Rules(target=700)
    col = SelfPlayCollector(rules, n_tables=2, seed=0)
    assert col.rules is rules and all(t.single_deal and t.rules is rules for t in col.tables)
