"""Edges of the options and the envs: no hidden card in an opponent policy's error, integer rule options bounded
(a 5,000-digit target), the AEC env after the episode, the Gymnasium env's action type,
rule options ``contract_counts_bonuses="declarations_only"`` and ``declaration_tie="taker_first"``
(RULES.md §6-§7), presets citing ``docs/sources`` instead of absolute paths."""

import json
import re
from pathlib import Path

import numpy as np
import pytest

from belote_env import GameState, Rules, belote_v0, load_rules
from belote_env.games import Game
from belote_env.actions import PASS, TAKE
from belote_env.cards import cards_of, parse_card, parse_cards
from belote_env.config import PRESETS_DIR, RuleOptionError, applies, preset_names
from belote_env.declarations import best_declarations, declaration_winner
from belote_env.gym_env import BeloteGymEnv, OpponentPolicyError
from belote_env.observation import encode_infoset
from belote_env.scoring import score_deal

ROOT = Path(__file__).resolve().parents[1]


def deck_for(hands: list[str], dealer: int, taker: int, turned: str) -> list[int]:
    """The deck that deals ``hands`` (8 card names per seat, the taker's holding ``turned``)
    once ``taker`` takes in round 1 (RULES.md §3.1, §3.5)."""
    cards = [[parse_card(c) for c in h.split()] for h in hands]
    t = parse_card(turned)
    assert all(len(h) == 8 for h in cards) and t in cards[taker]
    first = [[c for c in h if c != t][:5] for h in cards]
    extra = [[c for c in h if c != t and c not in first[s]] for s, h in enumerate(cards)]
    eldest = (dealer + 1) % 4
    order = [(eldest + i) % 4 for i in range(4)]
    deck = [c for s in order for c in first[s][:3]] + [c for s in order for c in first[s][3:]]
    deck += [t] + [c for s in order for c in extra[s]]
    assert sorted(deck) == list(range(32))
    return deck


def play_lowest(rules: Rules, deck, dealer: int) -> GameState:
    """A deal where every seat takes at its first chance and plays its lowest legal card."""
    st = GameState(rules, deck=deck, dealer=dealer)
    while not st.is_deal_over:
        legal = st.legal_actions()
        st.apply(legal[-1] if st.phase == 0 else legal[0])
    return st


def assert_same_observations(rulesets: list[Rules], deck) -> None:
    """Every decision of the ``play_lowest`` deal gives the same observation under each of
    ``rulesets``: the rule options are not in the observation (the shipped networks read it)."""
    states = [GameState(r, deck=deck, dealer=0) for r in rulesets]
    while not states[0].is_deal_over:
        obs = [encode_infoset(st.information_set(st.current)) for st in states]
        assert all((o == obs[0]).all() for o in obs)
        legal = states[0].legal_actions()
        for st in states:
            st.apply(legal[-1] if st.phase == 0 else legal[0])


# ---------------------------------------------------------------- 1. OpponentPolicyError
# Seat 0 (the learner, eldest: dealer 3) takes J♠ and leads A♥; seat 1 holds one heart (7♥)
# and plays its lowest card that is NOT legal. Deals A and B differ only by 7♠ / 8♠ swapped
# between seats 1 and 2: seat 0's information set is the same in both.
HANDS_A = ["JS 9S AS AH AD AC 10D 10C", "7S 7H 8D 9D JD 7C 8C 9C",
           "8S 10S QS 8H 9H 10H JH QD", "KS KH QH KD 7D JC QC KC"]
HANDS_B = [HANDS_A[0], HANDS_A[1].replace("7S", "8S"), HANDS_A[2].replace("8S", "7S"), HANDS_A[3]]
WRAPS = {"int": int, "np.int64": np.int64, "0-d array": np.array, "size-1 array": lambda c: np.array([c]),
         "float": float, "np.float32": np.float32}


def _opponent_error(monkeypatch, hands, wrap):
    deck = deck_for(hands, dealer=3, taker=0, turned="JS")
    monkeypatch.setattr(Game, "new_state",
                        lambda game, rng, dealer, **kw: GameState(game.rules, rng=rng, dealer=3, deck=deck, **kw))

    def illegal_card(info):
        if info.phase == 0:
            return PASS
        return wrap(next(c for c in cards_of(info.hand) if c not in info.legal_actions))

    env = BeloteGymEnv(opponents=illegal_card, learner_seat=0)
    obs = [env.reset(seed=0)[0]]
    obs.append(env.step(TAKE)[0])
    with pytest.raises(OpponentPolicyError) as exc:
        env.step(parse_card("AH"))
    return obs, exc.value


@pytest.mark.parametrize("kind", list(WRAPS))
def test_opponent_error_is_the_same_for_deals_differing_only_in_hidden_cards(monkeypatch, kind):
    obs_a, ea = _opponent_error(monkeypatch, HANDS_A, WRAPS[kind])
    obs_b, eb = _opponent_error(monkeypatch, HANDS_B, WRAPS[kind])
    assert all((a == b).all() for a, b in zip(obs_a, obs_b))  # the learner cannot tell the deals apart
    assert str(ea) == str(eb) and ea.args == eb.args and vars(ea) == vars(eb)
    assert ea.seat == 1 and ea.action is None
    returned = {"float": "a float", "np.float32": "a numpy float32", "0-d array": "a numpy array",
                "size-1 array": "a numpy array", "np.int64": "a numpy int64"}.get(kind, "an int")
    assert f"at seat 1 (deal 0, trick 1, card 2) returned {returned}" in str(ea)
    assert ea.__cause__ is None and ea.__context__ is None
    assert not any(f"returned {x}" in str(ea) for x in ("0", "1", "np.", "array(", "7♠", "8♠", "7S", "8S"))


@pytest.mark.parametrize("value,text", [(-1, "an int"), (np.int64(500), "a numpy int64"), (10 ** 5000, "an int"),
                                        ("take", "a str")], ids=["-1", "500", "5001-digits", "str"])
def test_opponent_error_shows_only_the_type_returned(monkeypatch, value, text):
    """Even an out-of-range value is not shown: a hand bitmask or card + 112 would reveal
    hidden cards (RULES.md §11)."""
    _, e = _opponent_error(monkeypatch, HANDS_A, lambda c: value)
    assert f"returned {text}" in str(e) and e.action is None
    if not isinstance(value, int) or abs(value) < 10 ** 100:
        assert str(value) not in str(e).replace("0..111", "")


# ---------------------------------------------------------------- 2. integer rule options
@pytest.mark.parametrize("option", ["target", "max_deals"])
def test_a_5000_digit_integer_option_in_yaml_names_file_option_and_range(tmp_path, option):
    path = tmp_path / "huge.yaml"
    path.write_text(f"tie: litige\n{option}: 1{'0' * 4999}\n")
    with pytest.raises(RuleOptionError) as exc:
        load_rules(path)
    assert str(exc.value) == (f"{path}: rule option {option!r} got an int of 5000 digits; "
                              "allowed values: an int 1..1000000 or None")


def test_a_5000_digit_value_of_an_enumerated_option_lists_its_values(tmp_path):
    path = tmp_path / "huge.yaml"
    path.write_text(f"tie: -{'9' * 5000}\n")
    with pytest.raises(RuleOptionError, match=re.escape(
            f"{path}: rule option 'tie' got an int of 5000 digits; allowed values: 'litige', 'takers_made'")):
        load_rules(path)


@pytest.mark.parametrize("option", ["target", "max_deals"])
def test_integer_options_are_bounded(option):
    assert getattr(Rules(**{option: 1_000_000}), option) == 1_000_000
    for bad, shown in ((1_000_001, "1000001"), (10 ** 5000, "an int of 5001 digits"), (0, "0"), (-5, "-5"),
                       (-(10 ** 30), "a negative int of 31 digits"), (True, "True"), (500.0, "500.0")):
        want = f"rule option {option!r} got {shown}; allowed values: an int 1..1000000 or None"
        with pytest.raises(RuleOptionError) as exc:
            Rules(**{option: bad})
        assert str(exc.value) == want
        with pytest.raises(RuleOptionError, match=re.escape(want)):
            load_rules("seed004", **{option: bad})
        with pytest.raises(RuleOptionError, match=re.escape(want)):
            load_rules({option: bad})


# ---------------------------------------------------------------- 3. AEC env after the episode
def _finished(env):
    env.reset(seed=1)
    for _ in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)  # a dead agent's step: allowed while agents remain
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert env.agents == []
    return env


def test_raw_env_step_and_last_after_every_agent_is_done_say_reset():
    env = _finished(belote_v0.raw_env())
    done = r"called after the episode is over: every agent is done \(env\.agents is empty\); call reset\(\)"
    for call, action in (("step", None), ("step", PASS)):
        with pytest.raises(RuntimeError, match=rf"^{call}\(\) {done}"):
            env.step(action)
    with pytest.raises(RuntimeError, match=rf"^last\(\) {done}"):
        env.last()
    env.reset(seed=2)  # a new episode works as before
    assert env.agents == env.possible_agents and env.last()[2] is False


def test_wrapped_env_last_after_the_episode_says_reset():
    env = _finished(belote_v0.env())
    with pytest.raises(RuntimeError, match=r"^last\(\) called after the episode is over"):
        env.last()


# ---------------------------------------------------------------- 4. Gymnasium action types
@pytest.mark.parametrize("illegal_action", ["penalize", "raise"])
@pytest.mark.parametrize("bad,name", [("7", "a str"), (7.0, "a float"), (np.float64(7), "a numpy float64"),
                                      (True, "a bool"), (np.bool_(True), "a numpy bool"), (None, "None"),
                                      ([7], "a list"), (np.array([7.0]), "a numpy array of dtype float64"),
                                      (np.array(True), "a numpy array of dtype bool"),
                                      (np.array([7], dtype=object), "a numpy array of dtype object")])
def test_gym_step_with_a_non_integer_raises_type_error(illegal_action, bad, name):
    env = BeloteGymEnv(learner_seat=0, illegal_action=illegal_action)
    env.reset(seed=0)
    n = len(env.game.actions)
    with pytest.raises(TypeError) as exc:
        env.step(bad)
    assert str(exc.value) == ("an action must be an action id 0..111: an int, a numpy integer, or a 0-d / size-1 "
                              f"numpy integer array; got {name}")
    assert len(env.game.actions) == n and env.action_masks().any()  # nothing applied, the episode goes on


def test_gym_step_accepts_what_sb3_passes():
    vec_env = pytest.importorskip("stable_baselines3.common.vec_env")
    for wrap in (np.int64, np.int32, np.uint8, lambda a: np.array(a, dtype=np.int16), lambda a: np.array([a])):
        env, ref = BeloteGymEnv(learner_seat=0), BeloteGymEnv(learner_seat=0)
        env.reset(seed=0)
        ref.reset(seed=0)
        a = int(np.flatnonzero(env.action_masks())[-1])
        assert env.step(wrap(a))[1:4] == ref.step(a)[1:4] and env.game.actions == ref.game.actions
    venv = vec_env.DummyVecEnv([lambda: BeloteGymEnv(learner_seat=0)])  # MaskablePPO's rollouts: an int64 array
    venv.seed(0)
    venv.reset()
    masks = np.array(venv.env_method("action_masks"))
    venv.step(masks.argmax(axis=1))


# ---------------------------------------------------------------- 5a. contract_counts_bonuses
def test_score_deal_declarations_only_counts_declarations_not_belote():
    # RULES.md §13 example 9: takers (team 0) 80 trick points with a tierce (20, the strongest
    # declaration), defenders 82 with belote (20)
    kw = dict(taker_team=0, card_points=(70, 82), tricks_won=(4, 4), last_trick_team=0, belote=(0, 20),
              declarations=(20, 0))
    both = score_deal(**kw, rules=Rules(contract_counts_bonuses=True))  # 100 < 102: dedans
    neither = score_deal(**kw, rules=Rules(contract_counts_bonuses=False))  # 80 < 82: dedans
    decl = score_deal(**kw, rules=Rules(contract_counts_bonuses="declarations_only"))  # 100 > 82: made
    assert (both.outcome, both.points) == ("dedans", (0, 202))
    assert (neither.outcome, neither.points) == ("dedans", (0, 202))
    assert (decl.outcome, decl.points, decl.trick_points) == ("made", (100, 102), (80, 82))


# Dealer 0; seat 1 takes 8♠ and every seat plays its lowest legal card. Hand-checked tricks
# (leader: cards in play order -> winner, points): 1: 8♠ A♠ 9♠ 7♠ -> 3, 25; 3: Q♠ 10♠ J♠ 8♥ -> 1, 33;
# 1: 9♥ J♥ 10♥ 7♥ -> 3, 12; 3: K♠ 8♣ Q♥ K♥ -> 3, 11; 3: 8♦ 9♣ 7♦ J♦ -> 2, 2; 2: A♦ 9♦ 10♣ 10♦ -> 2, 31;
# 2: J♣ 7♣ Q♣ A♥ -> 0, 16; 0: A♣ K♦ K♣ Q♦ -> 0, 22 + 10. Trick points 81 / 81; seat 0 declares
# 8♣ 9♣ 10♣ (20), seat 3 holds K♠ Q♠ (belote 20, takers).
DECK_227 = (4, 10, 15, 12, 20, 9, 6, 18, 17, 31, 0, 27, 16, 19, 28, 30, 24, 5, 8, 3, 1, 22, 13, 23, 7, 14, 2, 11, 21,
            26, 29, 25)


def test_engine_contract_counts_bonuses_declarations_only():  # a tie becomes dedans
    base = Rules(target=None, declarations="auto")
    got = {v: play_lowest(base.replace(contract_counts_bonuses=v), DECK_227, 0).deal_score
           for v in (True, False, "declarations_only")}
    for s in got.values():
        assert (s.taker_team, s.trick_points, s.belote, s.declarations) == (1, (81, 81), (0, 20), (20, 0))
    # True: 101 = 101 (litige); False: 81 = 81 (litige): defenders 81 + 20, takers their belote, 81 in reserve
    for v in (True, False):
        assert (got[v].outcome, got[v].points, got[v].reserve_out) == ("litige", (101, 20), 81)
    # declarations_only: takers 81 < defenders 101: dedans, defenders 162 + 20, takers keep their belote
    s = got["declarations_only"]
    assert (s.outcome, s.points, s.reserve_out) == ("dedans", (182, 20), 0)
    assert_same_observations([base.replace(contract_counts_bonuses=v) for v in (True, False, "declarations_only")],
                             DECK_227)


def test_search_values_a_deal_by_contract_counts_bonuses():
    from belote_env.scoring import deal_difference

    for value, diff in ((True, -81), (False, -81), ("declarations_only", -162)):
        info = GameState(Rules(target=None, contract_counts_bonuses=value), seed=0).information_set(0)
        # the deal above, for the takers (team 1): 81 trick points, belote (0, 20), declarations (20, 0)
        assert deal_difference(81, 1, 1, [0, 20], [20, 0], info) == diff


# ---------------------------------------------------------------- 5b. declaration_tie="taker_first"
def test_declaration_winner_taker_counts_from_the_taker():
    def d(h):
        return best_declarations(parse_cards(h), 0)
    tied = [(), d("8H 9H 10H"), d("8D 9D 10D"), ()]  # seats 1 and 2: equal tierces, no trump (♠)
    assert declaration_winner(tied, 0, eldest=1, tie="eldest") == 1
    assert declaration_winner(tied, 0, eldest=1, tie="none") is None
    # counting from the taker: taker 0 -> seats 0, 1 (holds): team 1; taker 2 -> seat 2 holds: team 0;
    # taker 3 -> 3, 0, 1 (holds): team 1; taker 1 -> seat 1: team 1
    assert [declaration_winner(tied, 0, eldest=1, tie="taker_first", taker=t) for t in range(4)] == [1, 1, 0, 1]
    assert declaration_winner(tied, 0, eldest=3, tie="taker_first", taker=2) == 0  # eldest does not matter
    with pytest.raises(ValueError, match=r"declaration_tie='taker_first' needs the taker's seat 0\.\.3, got "
                                         r"taker=None"):
        declaration_winner(tied, 0, eldest=1, tie="taker_first")
    with pytest.raises(ValueError, match=r"must be 'eldest', 'none' or 'taker_first', got 'first'"):
        declaration_winner(tied, 0, eldest=1, tie="first")


# Dealer 0; seat 1 (eldest) takes J♠; lowest legal cards. Seat 2 declares J♥ Q♥ K♥ and seat 3
# J♣ Q♣ K♣ (equal, no trump). Hand-checked tricks: 1: 8♠ 10♠ Q♠ 9♠ -> 0, 27; 0: K♠ J♠ 7♠ 8♥ -> 1, 24;
# 1: 7♥ J♥ 10♥ 9♥ -> 3, 12; 3: A♦ 7♦ 8♦ 10♦ -> 3, 21; 3: 7♣ 8♣ 10♣ 9♣ -> 1, 10; 1: A♥ Q♥ J♣ 9♦ -> 1, 16;
# 1: Q♦ A♠ Q♣ J♦ -> 2, 19; 2: K♥ K♣ K♦ A♣ -> 2, 23 + 10. Trick points: team 0 79, takers (team 1) 83.
DECK_1797 = (17, 31, 8, 26, 7, 3, 23, 29, 11, 16, 22, 20, 15, 1, 14, 13, 30, 9, 25, 6, 4, 27, 21, 12, 19, 0, 5, 28,
             24, 2, 10, 18)


def test_engine_declaration_tie_taker_first():  # RULES.md §13 example 10
    base = Rules(target=None, declarations="auto")
    got = {v: play_lowest(base.replace(declaration_tie=v), DECK_1797, 0) for v in ("eldest", "none", "taker_first")}
    for st in got.values():
        assert (st.taker, st.eldest, st.deal_score.trick_points, st.deal_score.belote) == (1, 1, (79, 83), (0, 0))
        assert [sum(x.points for x in d) for d in st.declared] == [0, 0, 20, 20]
    score = {v: (st.deal_score.outcome, st.deal_score.declarations, st.deal_score.points) for v, st in got.items()}
    assert score["eldest"] == ("made", (0, 20), (79, 103))  # eldest's team (the takers'): 103 > 79
    assert score["none"] == ("made", (0, 0), (79, 83))
    # from the taker (seat 1, holds none): seat 2 holds one first: team 0 scores 20, 83 < 99: dedans
    assert score["taker_first"] == ("dedans", (20, 0), (182, 0))
    assert_same_observations([base.replace(declaration_tie=v) for v in ("eldest", "none", "taker_first")], DECK_1797)


def test_search_declaration_points_use_the_taker():
    from belote_env.scoring import declaration_points

    for tie, want in (("eldest", [0, 20]), ("none", [0, 0]), ("taker_first", [20, 0])):
        st = GameState(Rules(target=None, declarations="auto", declaration_tie=tie), deck=DECK_1797, dealer=0)
        st.apply(st.legal_actions()[-1])  # seat 1 takes
        info = st.information_set(1)
        assert declaration_points(info, tuple(st.hands), st.denomination, 1, False) == want  # info.taker
        # at bidding time the search names the taker it assumes: taker 3 -> seat 3 holds one: team 1;
        # taker 0 -> 0, 1, 2 (holds): team 0
        if tie == "taker_first":
            assert declaration_points(info, tuple(st.hands), st.denomination, 1, False, 3) == [0, 20]
            assert declaration_points(info, tuple(st.hands), st.denomination, 1, False, 0) == [20, 0]


def test_new_option_values_load_from_yaml_and_are_listed(tmp_path):
    path = tmp_path / "table.yaml"
    path.write_text("contract_counts_bonuses: declarations_only\ndeclaration_tie: taker_first\n")
    rules = load_rules(path)
    assert (rules.contract_counts_bonuses, rules.declaration_tie) == ("declarations_only", "taker_first")
    with pytest.raises(RuleOptionError, match=r"'contract_counts_bonuses' got 'belote_only'; allowed values: True, "
                                              r"False, 'declarations_only'"):
        Rules(contract_counts_bonuses="belote_only")
    with pytest.raises(RuleOptionError, match=r"'declaration_tie' got 'first'; allowed values: 'eldest', 'none', "
                                              r"'taker_first'"):
        Rules(declaration_tie="first")


def test_carres_run5_value_and_failure_apply_at_four_seats_in_classic_mode_only():
    """RULES.md §6-§7 options (``config.COMBINATION_OPTIONS``): the four-seat classic
    defaults are the rules as they were (carrés, five cards 100, a failing taker keeps its
    belote); two and three seats keep TWO_THREE.md's; coinche refuses them (COINCHE.md §6);
    ``seed001_4p`` reads seed 001 (L45-L48, L98)."""
    from belote_env.config import CLASSIC_ONLY, COMBINATION_OPTIONS, CUTTHROAT_ONLY

    four, two, coinche = Rules(), Rules(players=2), Rules(contract_mode="coinche")
    assert (four.carres, four.run5_value, four.failure) == (True, 100, "maker_keeps_belote")
    assert (two.carres, two.run5_value, two.failure) == (False, 50, "opponent_takes_all")
    assert (coinche.carres, coinche.run5_value, coinche.failure) == (None, None, None)
    seed = load_rules("seed001_4p")
    assert (seed.carres, seed.run5_value, seed.failure) == (False, 50, "opponent_takes_all")
    assert COMBINATION_OPTIONS <= CLASSIC_ONLY and not COMBINATION_OPTIONS & CUTTHROAT_ONLY
    for name in COMBINATION_OPTIONS:
        assert applies(name, "classic", 4) and applies(name, "classic", 2) and not applies(name, "coinche", 4)
    with pytest.raises(RuleOptionError, match=r"'carres' does not apply in contract_mode 'coinche' \(it is a "
                                              r"classic option; coinche scores the declarations"):
        Rules(contract_mode="coinche", carres=False)
    with pytest.raises(RuleOptionError, match=r"'failure' got 'maker_keeps_belote'; allowed values: "
                                              r"'opponent_takes_all', 'maker_zero' \(with players 2"):
        Rules(players=2, failure="maker_keeps_belote")
    with pytest.raises(RuleOptionError, match=r"'run5_value' got 75; allowed values: 100, 50"):
        Rules(run5_value=75)
    # a record or model file of before they applied at four seats says None: the four-seat default
    assert Rules.from_dict({**four.to_dict(), "carres": None, "run5_value": None, "failure": None}) == four
    # a change of table or mode starts from that table's defaults
    again = Rules(players=2).replace(players=4)
    assert (again.carres, again.run5_value, again.failure) == (True, 100, "maker_keeps_belote")
    assert Rules(failure="maker_zero", carres=False).replace(players=3).failure == "opponent_takes_all"
    assert Rules(failure="opponent_takes_all").replace(contract_mode="coinche").failure is None
    assert Rules(contract_mode="coinche").replace(contract_mode="classic").failure == "maker_keeps_belote"


def test_shipped_models_recorded_rules_still_load():
    metas = sorted((ROOT / "policies" / "models").glob("*/meta.json"))
    assert metas
    for meta in metas:
        rules = json.loads(meta.read_text())["rules"]
        again = Rules.from_dict(rules).to_dict()
        assert {k: v for k, v in again.items() if k in rules} == rules  # the options added since take defaults
        assert Rules.from_dict(again) == Rules.from_dict(rules)


# ---------------------------------------------------------------- 6. presets cite docs/sources
def test_presets_cite_docs_sources_not_absolute_paths():
    sources = ROOT / "docs" / "sources"
    listed = (sources / "README.md").read_text(encoding="utf-8")
    for name in preset_names():
        text = (PRESETS_DIR / f"{name}.yaml").read_text(encoding="utf-8")
        assert text == (ROOT / "configs" / "rules" / f"{name}.yaml").read_text(encoding="utf-8")  # one preset
        if name.startswith("coinche"):  # the COINCHE.md §8 profiles (tests/test_coinche_env.py)
            assert re.search(r"^# Preset: coinche profile `\w+` of COINCHE.md §8", text, re.M)
            continue
        assert "/work/" not in text and not re.search(r"(^|\s)/\w", text)
        cited = re.findall(r"docs/sources/([\w.]+\.txt)", text)
        assert len(cited) == 1 and (sources / cited[0]).is_file() and cited[0] in listed
        assert cited[0].startswith(name[4:7] + "_")  # seed000.yaml cites 000_....txt
        preset = load_rules(name)
        for option in (o for o in Rules.option_names() if applies(o, "classic", preset.players)):  # each option's justification
            assert re.search(rf"^# {option} \(§\d", text, re.M), (name, option)
    assert sorted(p.name for p in sources.glob("*.txt")) == [f"{n}_{h}.txt" for n, h in (
        ("000", "ae5aedd2dca8450f"), ("001", "3a01298d368a19aa"), ("002", "1b44f48674f2bfcb"),
        ("003", "1a2a7e7fed2f0fcd"), ("004", "fb2e53673ea57d18"))]
