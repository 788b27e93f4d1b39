"""The ``Game`` of a rule set (``belote_env.games``): its static facts per table and
auction, the factory of its states, and the checks on what it is given."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

from belote_env import GameState, Rules, load_rules
from belote_env.auction import ClassicAuction, CoincheAuction, ProposalAuction, new_auction
from belote_env.games import Game, game_of

#: (preset, players, has_partners, sides, num_actions, obs_size, obs_version, history rows, reward scale)
FACTS = [
    ("seed004", 4, True, 2, 112, 618, 1, 65, 162),
    ("coinche", 4, True, 2, 112, 1141, "coinche-1", 309, 500),
    ("coinche_bga", 4, True, 2, 412, 1141, "coinche-1", None, 500),
    ("seed001_2p", 2, False, 2, 414, 716, "small-1", None, 162),
    ("seed001_3p", 3, False, 3, 414, 902, "small-1", None, 162),
]


@pytest.mark.parametrize("preset,players,partners,sides,n_actions,size,version,rows,scale", FACTS)
def test_the_facts_of_each_game(preset, players, partners, sides, n_actions, size, version, rows, scale):
    rules = load_rules(preset)
    g = game_of(rules)
    assert (g.players, g.has_partners, g.sides, g.num_actions, g.obs_size, g.obs_version, g.reward_scale) == \
        (players, partners, sides, n_actions, size, version, scale)
    assert (g.history_shape is None) == (players != 4)
    if rows is not None:
        assert g.history_shape == (rows, 2)
    st = g.new_state(seed=3)
    assert type(st) is GameState
    seat = st.current_seat
    obs = g.encode(st.information_set(seat))
    assert obs.shape == (size,) and obs.dtype == np.float32
    auction = new_auction(0, 5 if rules.contract_mode == "classic" else -1, rules)
    assert type(auction) is (ProposalAuction if players != 4 else CoincheAuction if preset.startswith("coinche")
                             else ClassicAuction)


@pytest.mark.parametrize("preset,auction,protocol", [
    ("seed004", "classic", "team"), ("coinche", "coinche", "team"), ("coinche_bga", "coinche", "team"),
    ("seed001_2p", "proposal", "cutthroat"), ("seed001_3p", "proposal", "cutthroat"),
])
def test_each_game_names_its_auction_and_play_protocol(preset, auction, protocol):
    from belote_env.games import AUCTION_KINDS, PLAY_PROTOCOLS

    g = game_of(load_rules(preset))
    assert (g.auction_kind, g.play_protocol) == (auction, protocol)
    assert g.auction_kind in AUCTION_KINDS and g.play_protocol in PLAY_PROTOCOLS
    made = g.auction(0, 5 if auction != "coinche" else -1, g.rules)
    assert type(made) is {"classic": ClassicAuction, "coinche": CoincheAuction, "proposal": ProposalAuction}[auction]


@pytest.mark.parametrize("preset", ["seed004", "coinche", "seed001_2p", "seed001_3p"])
def test_a_game_without_teams_scores_its_deals_by_its_seat_scorer(preset):
    import random

    g = game_of(load_rules(preset))
    assert (g.score_seats is None) == g.has_partners
    st = g.new_state(seed=5, single_deal=True)
    rng = random.Random(5)
    while st.deal_score is None:
        st.apply(rng.choice(st.legal_actions()))
    if g.score_seats is not None:  # the engine's deal score is the part's, from the deal totals
        assert st.deal_score == g.score_seats(st, st.deal_totals())


def test_the_game_is_made_once_per_rules_and_not_pickled():
    rules = Rules()
    g = game_of(rules)
    assert game_of(rules) is g and g.rules is rules
    for other in (pickle.loads(pickle.dumps(rules)), copy.deepcopy(rules), copy.copy(rules)):
        assert other == rules and hash(other) == hash(rules)
        assert game_of(other).rules is other
    assert "_game" not in rules.to_dict() and "_game" not in rules.__getstate__()
    assert game_of(rules.replace(players=3)).players == 3


def test_bad_input_names_what_was_wrong():
    with pytest.raises(TypeError, match="game_of needs a Rules"):
        game_of({"players": 3})
    with pytest.raises(TypeError, match="game_of needs a Rules"):
        game_of("seed001_3p")
    g4, g3 = game_of(Rules()), game_of(load_rules("seed001_3p"))
    with pytest.raises(ValueError, match="4-seat table, got one of 3 seats"):
        g4.encode(g3.new_state(seed=1).information_set(0))
    with pytest.raises(TypeError, match="leave out rules="):
        g4.new_state(rules=Rules())
    with pytest.raises(ValueError, match="has no history observation"):
        g3.encode_history(g3.new_state(seed=1).information_set(0))


def test_an_env_asks_its_game():
    from belote_env import belote_v0

    env = belote_v0.raw_env(rules="seed001_3p")
    assert isinstance(env.variant, Game) and env.variant is game_of(env.rules)
    assert env.num_actions == 414 and env.observation_space("player_0")["observation"].shape == (902,)


@pytest.mark.parametrize("preset", [f[0] for f in FACTS])
def test_every_table_gives_its_seats_one_information_set_type(preset):
    """One ``InfoSet`` for 2, 3 and 4 seats (TWO_THREE.md §5): the per-seat tuples sized by
    the table, the sub-step only where the table has sub-steps (2/3 seats, in play)."""
    import random

    from belote_env import InfoSet

    rules = load_rules(preset)
    st = game_of(rules).new_state(seed=5, single_deal=True)
    rng, steps = random.Random(5), set()
    while not st.is_deal_over:
        info = st.information_set(st.current_seat)
        assert type(info) is InfoSet and info.players == rules.players
        assert len(info.played_by) == len(info.hand_sizes) == rules.players
        assert (info.step >= 0) == (rules.players != 4 and info.phase == 1)
        steps.add(info.step)
        st.apply(rng.choice(info.legal_actions))
    if rules.players == 4:
        assert steps == {-1}
    else:  # the bidding, then the card step (and any of the exchange, discard, declare)
        assert {-1, 3} <= steps <= {-1, 0, 1, 2, 3}


def test_the_old_two_and_three_seat_information_set_name_warns():
    from belote_env import InfoSet

    import dataclasses

    with pytest.warns(DeprecationWarning, match="one information set for every table"):
        from belote_env.small_game import SmallInfoSet
    info = game_of(load_rules("seed001_3p")).new_state(seed=1).information_set(0)
    assert isinstance(info, SmallInfoSet)  # the old name still answers isinstance
    fields = {f.name: getattr(info, f.name) for f in dataclasses.fields(info)}
    assert SmallInfoSet(**fields, players=3) == info  # and builds from its old keywords
    old_order = [fields.get(n, 3) for n in ("seat", "dealer", "players", "phase", "step", "current_seat", "hand",
                 "turned_card", "bottom_card", "auction", "bid_round", "contract", "denomination", "taker",
                 "exchanged", "out_of_play", "discarded", "declared", "decl_winner", "decl_cards", "trick",
                 "trick_leader", "tricks", "played_by", "hand_sizes", "card_points", "announcements", "scores",
                 "reserve", "deal_number", "legal_actions", "rules", "public_knowledge")]
    assert SmallInfoSet(*old_order) == info  # and from its old positions
    with pytest.raises(ValueError, match="players=2 does not match"):
        SmallInfoSet(**fields, players=2)


def test_the_old_two_and_three_seat_engine_names_warn_and_build_a_game_state():
    """``small_game.SmallGameState`` and ``new_game`` build the one ``GameState``; the old
    ``from_hands`` keeps its arguments (hands, turned, more, bottom, rules); the old class
    still answers ``isinstance`` for a two- or three-seat state only, and refuses four-seat
    rules as before."""
    from belote_env import RuleOptionError

    r2 = load_rules("seed001_2p")
    with pytest.warns(DeprecationWarning, match="one engine for every table"):
        from belote_env.small_game import SmallGameState
    with pytest.warns(DeprecationWarning, match=r"belote_env.GameState \(or games.game_of"):
        from belote_env.small_game import new_game
    st = SmallGameState(r2, seed=4)
    assert type(st) is GameState and isinstance(st, SmallGameState)
    assert not isinstance(GameState(Rules(), seed=4), SmallGameState)
    assert new_game(r2, seed=4).deck == st.deck == GameState(r2, seed=4).deck
    with pytest.raises(RuleOptionError, match="SmallGameState plays tables of 2 or 3 seats"):
        SmallGameState(Rules())
    hands = [["7C", "8C", "9C", "TC", "7D", "8D"], ["JH", "9H", "AH", "AS", "TS", "KS"]]
    more = [["8H", "JC", "QC"], ["KH", "AD", "QS"]]
    old = SmallGameState.from_hands(hands, "7H", more, "9D", r2, dealer=1)
    assert old.deck == GameState.from_hands(hands, "7H", more, r2, bottom="9D", dealer=1).deck
    assert old.turned_card == 8 and old.dealer == 1  # the 7 of hearts (suit 1, rank 0)


def test_the_auction_bound_is_the_longest_auction_of_each_game():
    """``Game.auction_bound``: two rounds of four (RULES.md §3.2-§3.4), COINCHE.md §3.4's
    bound under the coinche defaults (36), TWO_THREE.md §2.3's five decisions at two seats."""
    from belote_env import load_rules
    from belote_env.games import game_of

    assert [game_of(load_rules(p)).auction_bound for p in ("seed004", "coinche", "seed001_2p")] == [8, 36, 5]


#: the two- and three-seat (cutthroat) game's old names, each (module, old, new)
_OLD_NAMES = [
    ("belote_env.actions", "SMALL_NUM_ACTIONS", "PROPOSAL_NUM_ACTIONS"), ("belote_env.actions", "SMALL_BIDS", "PROPOSAL_BIDS"),
    ("belote_env.auction", "SmallAuction", "ProposalAuction"),
    ("belote_env.auction", "small_length_bound", "proposal_length_bound"),
    ("belote_env.config", "SMALL_ONLY", "CUTTHROAT_ONLY"), ("belote_env.config", "SMALL_CHOICES", "CUTTHROAT_CHOICES"),
    ("belote_env.config", "SMALL_DEFAULTS", "CUTTHROAT_DEFAULTS"),
    ("belote_env.dealing", "SmallLayout", "PacketLayout"), ("belote_env.dealing", "small_layout", "packet_layout"),
    ("belote_env.dealing", "small_pack", "dealt_pack"), ("belote_env.dealing", "small_deal", "packet_deal"),
    ("belote_env.dealing", "small_complete", "packet_complete"),
    ("belote_env.dealing", "small_deck_from_hands", "packet_deck_from_hands"),
    ("belote_env.declarations", "small_combinations", "combinations_of"),
    ("belote_env.declarations", "small_key", "combination_key"),
    ("belote_env.declarations", "small_declaration_winner", "combination_winner"),
    ("belote_env.observation", "encode_small", "encode_cutthroat"),
    ("belote_env.observation", "small_layout", "cutthroat_layout"),
    ("belote_env.observation", "SMALL_OBS_SIZE", "CUTTHROAT_OBS_SIZE"),
    ("belote_env.scoring", "SmallDealScore", "CutthroatDealScore"),
    ("belote_env.scoring", "score_small_deal", "score_cutthroat_deal"),
    ("belote_env.vector.cutthroat", "encode_small_batch", "encode_cutthroat_batch"),
    ("belote_env.vector.cutthroat", "small_infoset_of", "cutthroat_infoset_of"),
    ("policies.model_files", "SMALL_BID_ACTIONS", "PROPOSAL_BID_ACTIONS"),
    ("policies.network", "is_small_bid_decision", "is_proposal_bid_decision"),
    ("policies.registry", "SMALL_TABLE_TIERS", "CUTTHROAT_TIERS"),
    ("policies.cutthroat_play", "normal_small_act", "normal_cutthroat_act"),
    ("training.oracle", "small_oracle_card_values", "cutthroat_oracle_card_values"),
]


@pytest.mark.parametrize("module,old,new", _OLD_NAMES)
def test_the_cutthroat_game_s_old_names_warn_and_give_the_new_objects(module, old, new):
    import importlib

    mod = importlib.import_module(module)
    with pytest.warns(DeprecationWarning, match=f"{module}.{old} is {module}.{new} now"):
        assert getattr(mod, old) is getattr(mod, new)


@pytest.mark.parametrize("old,new", [("belote_env.vector.small", "belote_env.vector.cutthroat"),
                                     ("policies.small_play", "policies.cutthroat_play")])
def test_the_renamed_modules_warn_and_serve_the_old_names(old, new):
    import importlib
    import sys

    sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning, match=f"{old} is {new} now"):
        mod = importlib.import_module(old)
    name = "SmallBatchedGame" if "vector" in old else "easy_small_act"
    with pytest.warns(DeprecationWarning):
        assert getattr(mod, name) is getattr(importlib.import_module(new), name.replace("Small", "Cutthroat").replace(
            "small", "cutthroat"))


@pytest.mark.parametrize("preset,variant", [("seed004", "classic"), ("coinche", "coinche"), ("seed001_2p", "two"),
                                            ("seed001_3p", "three")])
def test_a_game_is_named_by_its_variant(preset, variant):
    """``Game.variant`` names the game the hard tier's model and the model files' sizes
    follow (the one name ``config.variant_of`` gives)."""
    assert game_of(load_rules(preset)).variant == variant


@pytest.mark.parametrize("preset,size,renaming", [
    ("seed004", 618, "four"), ("coinche", 1141, "four"), ("seed001_2p", 716, 2), ("seed001_3p", 902, 3),
])
def test_a_game_renames_the_suits_of_its_observation_from_its_layout(preset, size, renaming):
    """``Game.obs_blocks`` tile the observation (each float in one block, in order), and
    ``Game.suit_renaming`` (``observation.rename_blocks`` of them) gives each variant's
    renaming (``observation.suit_permutation_index`` at four seats,
    ``cutthroat_suit_permutation_index`` at two and three, tested on encoded deals in
    tests/test_observation.py and tests/test_cutthroat_hard.py); the networks' tables
    (``policies.symmetry.suit_permutation_tables``) are read from the game of that size."""
    import itertools

    from belote_env.observation import cutthroat_suit_permutation_index, suit_permutation_index
    from policies.symmetry import suit_permutation_tables

    game = game_of(load_rules(preset))
    assert game.obs_size == size
    ends = [(off, off + b.size) for b, off in game.obs_blocks]
    assert ends[0][0] == 0 and ends[-1][1] == size and all(a[1] == b[0] for a, b in zip(ends, ends[1:]))
    perms = list(itertools.permutations(range(4)))
    po, pc = suit_permutation_tables(size)
    for k, perm in enumerate(perms):
        oi, ci = game.suit_renaming(perm)
        ro, rc = suit_permutation_index(perm, size) if renaming == "four" else cutthroat_suit_permutation_index(perm,
                                                                                                              renaming)
        assert np.array_equal(oi, ro) and np.array_equal(ci, rc)
        assert np.array_equal(po[k].numpy(), oi) and np.array_equal(pc[k].numpy(), ci)
    assert not np.array_equal(game.suit_renaming(perms[5])[0], np.arange(size))  # a real renaming moves entries
    with pytest.raises(ValueError, match="perm must be a permutation of \\(0, 1, 2, 3\\)"):
        game.suit_renaming((0, 1, 2, 2))
    with pytest.raises(ValueError, match="size must be an observation size: 618 \\(classic\\), 1141 \\(coinche\\)"):
        suit_permutation_tables(size + 1)


#: (rules, overrides) whose every legal action is counted, per auction kind
_AUCTION_MIXES = [
    ("seed004", {"declarations": "choice", "belote": "optional", "round2_no_trump_all_trump": True}),
    ("coinche", {"declarations": "choice", "belote": "optional", "generale": True}), ("coinche_bga", {}),
    ("seed001_2p", {"declarations": "choice", "belote": "optional", "dealer_round2_proposal": True}),
    ("seed001_3p", {"declarations": "choice", "belote": "optional"}),
]


@pytest.mark.parametrize("preset,overrides", _AUCTION_MIXES, ids=[p for p, _ in _AUCTION_MIXES])
def test_every_legal_action_is_an_action_of_its_games_auction_and_the_others_are_refused_as_such(preset, overrides):
    """``actions.of_auction``: every id a deal of the game makes legal is of its auction
    kind; an id of another game's table (a coinche bid at two seats, a take in coinche, a
    redeal proposal at four seats) is refused naming the game, not as a bid of it."""
    from belote_env import IllegalActionError
    from belote_env.actions import COINCHE_BID, PROPOSE_REDEAL, TAKE, action_to_string, num_actions, of_auction

    rules = load_rules(preset, **overrides)
    kind = game_of(rules).auction_kind
    from tests.conftest import random_game

    seen: set[int] = set()
    for seed in range(60):
        random_game(rules, seed, 300, seen=seen)
    assert all(of_auction(a, kind) for a in seen)
    foreign = {"classic": COINCHE_BID, "coinche": TAKE, "proposal": COINCHE_BID + 6}[kind]
    assert not of_auction(foreign, kind) and of_auction(PROPOSE_REDEAL, kind) == (kind == "proposal")
    st = GameState(rules, seed=1)
    with pytest.raises(IllegalActionError) as e:
        st.apply(foreign)
    words = {"seed001_2p": "two-player", "seed001_3p": "three-player"}.get(preset, kind)
    assert f"{foreign} is not an action of the {words} game" in str(e.value)
    assert action_to_string(foreign) not in str(e.value).split(";")[0]
    assert sum(not of_auction(a, kind) for a in range(num_actions(rules))) == {
        "classic": 68, "coinche": 13, "proposal": 364}[kind]
