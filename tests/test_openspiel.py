"""The OpenSpiel game ``python_belote`` (``belote_env.openspiel``) and the ISMCTS policy
(``policies.openspiel``): OpenSpiel's own random-simulation test on every table, the
information rule on its strings and tensors, the resampler, the state built from an
information set, the parameters, and a duplicate match through ``belote eval``.
``scripts/openspiel_random_sim.py`` runs the random simulations at full length."""

from __future__ import annotations

import random
import re
from pathlib import Path

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install -e \".[openspiel]\")")

import belote_env.openspiel as bo  # noqa: E402  (registers python_belote)
from belote_env import Rules, load_rules  # noqa: E402
from belote_env.config import RuleOptionError, preset_names  # noqa: E402

PRESETS = ["seed004", "coinche", "seed001_2p", "seed001_3p"]


@pytest.mark.parametrize("spec", [f"python_belote(rules={p})" for p in PRESETS] + [
    "python_belote(rules=coinche_bga)", "python_belote(declarations=choice,belote=optional)",
    "python_belote(rules=seed001_3p,three_player_deal=10_each,declarations=choice)",
    "python_belote(rules=seed001_2p,declarations=choice,belote=optional,dix_exchange=choice)"])
def test_openspiels_random_simulation_test_passes(spec):
    """``pyspiel.random_sim_test``: legal actions sorted and empty for the others, chance
    outcomes summing to one, clones equal, returns in the utility range and equal to the
    rewards summed, zero-sum, the game within ``max_game_length``."""
    pyspiel.random_sim_test(pyspiel.load_game(spec), num_sims=15, serialize=False, verbose=False)


def test_random_simulation_of_game_episodes():
    for spec in ("python_belote(episode=game,target=300)", "python_belote(rules=seed001_3p,episode=game,reward=win,"
                                                            "target=150)"):
        pyspiel.random_sim_test(pyspiel.load_game(spec), num_sims=3, serialize=False, verbose=False)


def test_the_game_reports_its_table_and_spaces():
    for preset, players, actions, obs in (("seed004", 4, 112, 618), ("coinche", 4, 112, 1141),
                                          ("seed001_2p", 2, 414, 716), ("seed001_3p", 3, 414, 902)):
        game = pyspiel.load_game(f"python_belote(rules={preset})")
        assert (game.num_players(), game.num_distinct_actions(), game.information_state_tensor_size(),
                game.observation_tensor_size(), game.max_chance_outcomes()) == (players, actions, obs, obs, 32)
        assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    game = pyspiel.load_game("python_belote(rules=seed001_3p,episode=game,reward=win)")
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM and game.max_utility() == 1.0
    assert pyspiel.load_game("python_belote(rules=coinche,generale=1)").num_distinct_actions() == 412


def test_action_strings_name_only_the_games_own_action_ids():
    state = pyspiel.load_game("python_belote()").new_initial_state()
    state.apply_action(0)  # the dealer
    for c in range(32):
        state.apply_action(c)
    p = state.current_player()
    assert state.action_to_string(p, 33) == "take" and state.action_to_string(p, 8) == "7♥"
    # ids of the table that another game's auction or steps use (coinche, two / three seats)
    assert state.action_to_string(p, 101) == "id 101 (not an action of this game)"
    assert state.action_to_string(p, 111) == "id 111 (not an action of this game)"  # the last id of the game
    for bad in (112, 200, 413):  # ids of the coinche extension and of two / three seats
        with pytest.raises(Exception, match=rf"action id must be an int in 0\.\.111 \(this game's "
                                            rf"num_distinct_actions\), got {bad}"):
            state.action_to_string(p, bad)
    two = pyspiel.load_game("python_belote(rules=seed001_2p)").new_initial_state()
    two.apply_action(0)
    for c in range(32):
        two.apply_action(c)
    assert two.action_to_string(two.current_player(), 413) == "refuse redeal"
    assert two.action_to_string(two.current_player(), 138) == "id 138 (not an action of this game)"


def test_parameters_are_the_rule_options_and_bad_ones_are_named():
    game = pyspiel.load_game("python_belote", {"rules": "coinche", "target": 1500, "belote_prenable": 1})
    assert game.rules == load_rules("coinche", target=1500, belote_prenable=True)
    assert pyspiel.load_game("python_belote(target=0)").rules.target is None
    for preset in preset_names():  # params_of gives back every preset's rules
        assert bo.rules_from_params(bo.params_of(load_rules(preset))) == load_rules(preset)
    for spec, match in (("python_belote(belote=sometimes)", "belote"), ("python_belote(rules=nope)", "nope"),
                        ("python_belote(carres=3)", "carres: give 1"), ("python_belote(episode=match)", "episode"),
                        ("python_belote(reward=elo)", "reward")):
        with pytest.raises(RuleOptionError, match=match):
            pyspiel.load_game(spec)


def _random_play(game, seed, stop=None):
    """The states of a seeded random episode (each decision node), or until ``stop``."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        yield state
        state.apply_action(rng.choice(state.legal_actions()))


_PUBLIC = ("auction", "announcements", "declared", "decl_cards", "decl_winner", "exchanged", "bottom_card", "tricks",
           "trick", "public_cannot", "public_known", "scores", "card_points")


def _public(gs) -> tuple:
    return tuple(str(getattr(gs, name)) for name in _PUBLIC)


def _swap_hidden(state, viewer, rng):
    """The same history on a deck where two cards hidden from ``viewer`` in two places
    (other seats' unplayed cards known to nobody, the cards nobody holds) are swapped, or
    None when no such pair replays legally with the same public events (the engine's
    auction, announcements, declarations, tricks, public voids and known cards)."""
    gs = state.game_state
    seen = gs.hands[viewer] | gs.out_of_play | (gs.discarded if viewer == gs.taker else 0)
    for c in (gs.turned_card, gs.bottom_card):
        seen |= 1 << c if c >= 0 else 0
    for p in gs.played_by:
        seen |= p
    held = 0
    places = []
    for s in range(gs.n):
        held |= gs.hands[s]
        if s != viewer:
            places.append(gs.hands[s] & ~gs.public_known[s])
    places.append(0xFFFFFFFF & ~seen & ~held)  # nobody's: the stock, the unused cards, others' discards
    places = [[c for c in range(32) if m >> c & 1] for m in places]
    places = [p for p in places if p]
    if len(places) < 2:
        return None
    a, b = rng.sample(places, 2)
    x, y = rng.choice(a), rng.choice(b)
    swap = {x: y, y: x}
    deck = [swap.get(c, c) for c in gs.deck]
    world = bo._deal(state, deck)
    try:
        for _, action in gs.actions:
            world.apply(swap.get(action, action) if action < 32 else action)
    except ValueError:
        return None
    if _public(world) != _public(gs):
        return None  # the swap changed what the table saw (a belote, a combination): another history
    other = bo.BeloteState(state.get_game(), state.parts)
    other.dealer, other.deal_start, other.game_state = state.dealer, state.deal_start, world
    other.dealt = [swap_mask(h, swap) for h in state.dealt]
    return other


def swap_mask(mask, swap):
    out = 0
    for c in range(32):
        if mask >> c & 1:
            out |= 1 << swap.get(c, c)
    return out


@pytest.mark.parametrize("preset", PRESETS + ["coinche_bga"])
def test_a_seats_strings_and_tensors_do_not_depend_on_the_other_seats_hidden_cards(preset):
    """RULES.md §11: swapping two hidden cards between two other seats (same history)
    leaves a seat's information-state and observation strings and tensors unchanged."""
    game = pyspiel.load_game(f"python_belote(rules={preset})")
    rng, checked = random.Random(7), 0
    for seed in range(12):
        for state in _random_play(game, seed):
            viewer = rng.randrange(game.num_players())
            other = _swap_hidden(state, viewer, rng)
            if other is None:
                continue
            assert other.game_state.hands != state.game_state.hands
            assert other.information_state_string(viewer) == state.information_state_string(viewer)
            assert other.observation_string(viewer) == state.observation_string(viewer)
            assert np.array_equal(other.information_state_tensor(viewer), state.information_state_tensor(viewer))
            assert np.array_equal(other.observation_tensor(viewer), state.observation_tensor(viewer))
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("spec", ["python_belote(declarations=choice,belote=optional)", "python_belote(rules=coinche)",
                                  "python_belote(rules=seed001_2p,declarations=choice,belote=optional)",
                                  "python_belote(rules=seed001_3p,three_player_deal=10_each,declarations=auto)",
                                  "python_belote(rules=seed001_3p,three_player_deal=24_card)",
                                  "python_belote(episode=game,target=300)"])
def test_a_resampled_state_keeps_the_seats_information_set_and_varies_the_rest(spec):
    """``resample_from_infostate``: every seat's information state is the same, the
    hidden cards vary from draw to draw, and the acting seat's legal actions are kept."""
    game = pyspiel.load_game(spec)
    varied = total = 0
    for seed in range(6):
        for state in _random_play(game, seed):
            p = state.current_player()
            for q in range(game.num_players()):
                new = state.resample_from_infostate(q, pyspiel.UniformProbabilitySampler(0.0, 1.0))
                assert new.information_state_string(q) == state.information_state_string(q)
                assert np.array_equal(new.information_state_tensor(q), state.information_state_tensor(q))
                if q == p:
                    assert new.legal_actions() == state.legal_actions()
                varied += new.game_state.hands != state.game_state.hands
                total += 1
    assert varied > total // 3


@pytest.mark.parametrize("options", [
    {"declarations": "choice", "belote": "optional"}, {"rules": "coinche"}, {"rules": "coinche_bga"},
    {"declarations": "auto", "episode": "game", "target": 400},
    {"rules": "seed001_2p", "declarations": "choice", "belote": "optional", "dix_exchange": "choice"},
    {"rules": "seed001_2p", "dix_exchange": "auto", "deal_packets": "1-by-1"},
    {"rules": "seed001_3p", "three_player_deal": "10_each", "declarations": "choice"},
    {"rules": "seed001_3p", "three_player_deal": "24_card", "belote": "optional"}])
def test_a_state_built_from_an_information_set_has_that_information_set(options):
    """``state_from_infoset`` (every table): the state's ``information_set`` of every seat
    is the ``InfoSet`` it was built from, at every decision of random episodes."""
    game = bo.BeloteGame(options)
    n = 0
    for seed in range(6):
        for state in _random_play(game, seed):
            for seat in range(game.num_players()):
                info = state.game_state.information_set(seat)
                built = bo.state_from_infoset(game, info, random.Random(n))
                assert built.game_state.information_set(seat) == info
                n += 1
    other = next(_random_play(bo.BeloteGame({"rules": "seed001_2p"}), 0)).information_set(0)
    with pytest.raises(ValueError, match="other rules"):
        bo.state_from_infoset(game if game.rules != other.rules else bo.BeloteGame({}), other, random.Random(0))


@pytest.mark.parametrize("rules, says", [("seed004", "ismcts8 vs random: 2 mirrored deal pairs"),
                                         ("seed001_3p", "ismcts8 (A) vs random (B), 3 players: 2 duplicate deal sets")])
def test_an_ismcts_bot_plays_a_duplicate_match_through_belote_eval(rules, says, capsys):
    from training.cli import main

    assert main(["eval", "tests.test_openspiel:small_ismcts", "random", "--pairs", "2", "--seed", "3", "--rules",
                 rules, "--no-progress"]) == 0
    assert capsys.readouterr().out.startswith(says)


def small_ismcts():
    """A quick ISMCTS policy for the match test (8 simulations)."""
    from policies.openspiel import ISMCTSPolicy

    return ISMCTSPolicy(simulations=8)


def test_the_openspiel_quickstart_runs_as_written():
    page = (Path(__file__).parents[1] / "docs" / "openspiel.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", page, re.S)
    assert blocks and len(blocks[0].strip().splitlines()) <= 10
    exec(compile(blocks[0], "docs/openspiel.md", "exec"), {})


def test_three_seat_win_rewards_are_general_sum_and_pass_the_random_simulation():
    game = pyspiel.load_game("python_belote(rules=seed001_3p,reward=win)")
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    pyspiel.random_sim_test(game, num_sims=10, serialize=False, verbose=False)


def test_two_and_three_seat_states_serialize():
    for preset in ("seed001_2p", "seed001_3p"):
        pyspiel.random_sim_test(pyspiel.load_game(f"python_belote(rules={preset})"), num_sims=3, serialize=True,
                                verbose=False)


@pytest.mark.parametrize("preset", ["seed004", "coinche", "seed001_3p"])
def test_deepcopy_of_a_state_keeps_its_history_and_is_independent(preset):
    """``copy.deepcopy`` gives what ``clone`` gives, as OpenSpiel's own Python games do."""
    import copy

    state = pyspiel.load_game(f"python_belote(rules={preset})").new_initial_state()
    rng = random.Random(5)
    for _ in range(50):
        state.apply_action(rng.choice(state.legal_actions()))
    twin = copy.deepcopy(state)
    assert twin.history() == state.history() and len(twin.history()) == 50 and twin.move_number() == 50
    assert twin.serialize().split("__dict__")[0] == state.serialize().split("__dict__")[0]
    assert [twin.information_state_string(p) for p in range(twin.num_players())] == \
        [state.information_state_string(p) for p in range(state.num_players())]
    twin.apply_action(twin.legal_actions()[0])
    assert len(state.history()) == 50 and len(twin.history()) == 51


def test_game_episodes_need_a_target_and_bound_their_length():
    with pytest.raises(RuleOptionError, match="needs a target"):
        pyspiel.load_game("python_belote(episode=game,target=0,max_deals=10)")
    long_game = pyspiel.load_game("python_belote(episode=game,target=100000,max_deals=400)")
    assert long_game.max_game_length() > 400 * 2 * (32 + 40)  # 400 played deals and as many void ones


def test_the_observer_refuses_observation_types_it_does_not_give():
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game("python_belote")
    public = pyspiel.IIGObservationType(perfect_recall=False, public_info=True,
                                        private_info=pyspiel.PrivateInfoType.NONE)
    with pytest.raises(ValueError, match="one seat's information set"):
        make_observation(game, public)


def test_bad_chance_outcomes_are_refused_before_anything_changes():
    game = pyspiel.load_game("python_belote")
    state = game.new_initial_state()
    with pytest.raises(ValueError, match="first dealer"):
        state.apply_action(7)
    state.apply_action(1)
    state.apply_action(5)
    with pytest.raises(ValueError, match="not drawn yet"):
        state.apply_action(5)
    assert state.drawn == [5] and state.current_player() == pyspiel.PlayerId.CHANCE


def test_a_resampled_state_keeps_the_history():
    game = pyspiel.load_game("python_belote")
    state = next(s for i, s in enumerate(_random_play(game, 2)) if i == 10)
    new = state.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert len(new.history()) == len(state.history()) > 40


def test_a_state_built_with_the_seats_own_pending_announcement_and_declaration():
    """A seat that took, announced belote and declared waits to play its card: the state
    built from its information set has both choices made."""
    game = bo.BeloteGame({"declarations": "choice", "belote": "optional"})
    state = game.new_initial_state()
    for a in [0, 31, 24, 8, 1, 0, 6, 26, 22, 19, 15, 14, 2, 13, 27, 11, 25, 7, 9, 21, 20, 30, 12, 29, 4, 23, 10, 3, 17,
              28, 16, 18, 5, 33, 104, 102]:
        state.apply_action(a)
    info = state.game_state.information_set(1)
    built = bo.state_from_infoset(game, info, random.Random(0))
    assert built.game_state.information_set(1) == info and list(info.legal_actions) == [29, 30]


@pytest.mark.parametrize("spec", ["python_belote(declarations=choice,belote=optional)", "python_belote(rules=coinche)",
                                  "python_belote(rules=seed001_2p,declarations=choice,belote=optional)",
                                  "python_belote(rules=seed001_3p,three_player_deal=10_each)",
                                  "python_belote(episode=game,target=300)"])
def test_replaying_a_resampled_states_history_gives_the_resampled_deal(spec):
    """``resample_from_infostate``: the copy's ``history()`` is the actions that lead to it
    (OpenSpiel's History): replayed from the initial state, and through
    ``serialize`` / ``deserialize_state``, it gives the redrawn hands, not the true ones."""
    game = pyspiel.load_game(spec)
    redrawn = 0
    for seed in range(3):
        for k, state in enumerate(_random_play(game, seed)):
            if k % 7:
                continue
            p = state.current_player()
            new = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
            replayed = game.new_initial_state()
            for a in new.history():
                replayed.apply_action(a)
            for copy in (replayed, game.deserialize_state(new.serialize())):
                assert copy.game_state.hands == new.game_state.hands
                assert copy.game_state.actions == new.game_state.actions
                assert copy.dealt == new.dealt and copy.returns() == new.returns()
                assert copy.information_state_string(p) == state.information_state_string(p)
            assert new.history_str() == ", ".join(map(str, new.history()))
            assert [pa.action for pa in new.full_history()] == new.history()
            redrawn += new.game_state.hands != state.game_state.hands
    assert redrawn >= 3


@pytest.mark.parametrize("options", [{}, {"rules": "coinche", "declarations": "choice", "belote": "optional"},
                                     {"rules": "seed001_2p"}, {"rules": "seed001_3p", "three_player_deal": "10_each"},
                                     {"rules": "seed001_3p", "three_player_deal": "24_card"}])
def test_a_state_built_from_an_information_set_and_the_seats_dealt_cards_has_its_information_state_string(options):
    """``state_from_infoset(..., dealt=)``: the seat knows which cards it was dealt first
    (RULES.md §11), its ``InfoSet`` does not keep them: given them, the built state's
    ``information_state_string`` of the seat is the original's, at every decision."""
    game = bo.BeloteGame(options)
    n = 0
    for seed in range(4):
        for state in _random_play(game, seed):
            for seat in range(game.num_players()):
                built = bo.state_from_infoset(game, state.information_set(seat), random.Random(n),
                                              dealt=state.dealt[seat])
                assert built.dealt[seat] == state.dealt[seat]
                assert built.information_state_string(seat) == state.information_state_string(seat)
                n += 1
    state = next(s for i, s in enumerate(_random_play(game, 0)) if i == 3)
    info = state.information_set(0)
    with pytest.raises(ValueError, match=r"dealt=\d+ is not the seat's cards"):
        bo.state_from_infoset(game, info, random.Random(0), dealt=state.dealt[1])
