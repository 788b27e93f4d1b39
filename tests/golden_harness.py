"""Golden outputs: what the engine, the encoders and the tiers produce on seeded games.

Recorded before the core redesigns (which change no game, no decision and no figure)
and checked by ``tests/test_golden.py``; ``python scripts/make_golden.py`` rewrites
``tests/golden/`` (only for a change that is meant to alter them, said so in its commit).

* ``games``: one seeded whole game per rule mix (every preset and a spread of options),
  random legal play: its game record (records.py), the sha256 of every seat's
  observation (both encoders) and action mask at every decision, the final scores.
* ``tiers``: at every decision of the default-rules game (and of the first deals of some
  other mixes), the action each tier chooses for the acting seat; ``hard+search`` and
  ``expert`` on the first decisions only (they are slow).
* ``tier_games``: whole games played by tiers against each other (records).
* ``eval``: ``duplicate_match("hard", "normal", 100 game pairs, seed 97, workers 2)``
  without its timing fields (the JSON of ``belote eval hard normal --games 100 --seed 97
  --workers 2``).
* ``variant_games``: the same as ``games`` for the other games of the one engine (two and
  three seats, coinche, three coinche profiles of COINCHE.md §8 and option mixes of each),
  recorded before the two- and three-player engines are folded into the four-seat one;
  every seat's observation (and, at four seats, history) and action mask at every
  decision, hashed.
* ``variant_tiers``: at every decision of those games, the action of ``easy``, ``normal``
  and ``hard`` (``hard_2p`` / ``hard_3p`` / the coinche hard by the rules); the expert's at
  two and three seats on the first card decisions.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import numpy as np

from belote_env import GameState, Rules, load_rules
from belote_env.actions import num_actions
from belote_env.observation import (
    HISTORY_SHAPE, OBS_SIZE, action_mask, encode_history, encode_infoset, history_shape, obs_size,
)
from belote_env.records import game_record
from belote_env.game import STEPS
from belote_env.observation import encode_cutthroat, cutthroat_obs_size

#: Rule mixes of the golden games: (name, preset, options), each game to a small target.
MIXES: list[tuple[str, str | None, dict]] = [
    ("seed004", "seed004", {}),
    ("seed004_b", "seed004", {}),
    ("seed004_c", "seed004", {}),
    ("seed000", "seed000", {}),
    ("seed001_4p", "seed001_4p", {}),
    ("seed002", "seed002", {}),
    ("seed003", "seed003", {}),
    ("declarations_auto", None, {"declarations": "auto"}),
    ("declarations_choice_belote_optional", None, {"declarations": "choice", "belote": "optional"}),
    ("no_trump_all_trump", None, {"round2_no_trump_all_trump": True}),
    ("all_trump_ffb2015", None, {"round2_no_trump_all_trump": True, "all_trump_points": "ffb2015"}),
    ("undertrump_partner", None, {"undertrump": "discard_allowed", "partner_master_free": False}),
    ("two_player_obligations", None, {"obligations": "two_player"}),
    ("next_dealer", None, {"all_pass_redeal": "next_dealer"}),
    ("tie_takers_made", None, {"tie": "takers_made", "declarations": "auto"}),
    ("tie_takers_fail", None, {"tie": "takers_fail"}),
    ("tie_defenders_keep", None, {"tie": "defenders_keep", "declarations": "auto"}),
    ("bonuses_off", None, {"contract_counts_bonuses": False, "declarations": "auto"}),
    ("bonuses_declarations_only", None, {"contract_counts_bonuses": "declarations_only", "declarations": "auto"}),
    ("declaration_tie_none", None, {"declaration_tie": "none", "declarations": "auto"}),
    ("declaration_tie_taker_first", None, {"declaration_tie": "taker_first", "declarations": "auto"}),
    ("max_deals", None, {"max_deals": 6, "target": 5000}),
]
TARGET = 1000
#: The tiers asked at every decision of these games (their names for make_policy).
FAST_TIERS = ("random", "easy", "normal", "hard")
SLOW_TIERS = ("hard+search", "expert")
SLOW_DECISIONS = 40  # the first decisions of the default game asked to the slow tiers


def rules_of(preset: str | None, options: dict) -> Rules:
    base = load_rules(preset) if preset else Rules()
    d = base.to_dict()
    d.update(options)
    if "target" not in options:
        d["target"] = TARGET
    return Rules.from_dict(d)


def _sha(h: "hashlib._Hash", arr: np.ndarray) -> None:
    h.update(np.ascontiguousarray(arr).tobytes())


def _random_game(st, seed: int, seat_views) -> tuple[list, int]:
    """Play ``st``'s game to its end with random legal actions (``random.Random(seed + 1)``),
    calling ``seat_views(st)`` before each decision; returns the states before each decision
    (clones, with the acting seat) and the number of decisions."""
    rng = random.Random(seed + 1)
    positions, decisions = [], 0
    while True:
        while not st.is_deal_over:
            positions.append((st.clone(), _acting(st)))
            seat_views(st)
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
            decisions += 1
        if st.is_game_over:
            return positions, decisions
        st.next_deal()


def play_random_game(rules: Rules, seed: int) -> tuple[GameState, list[tuple[GameState, int]], dict]:
    """A whole seeded game with random legal play; returns the final state, the states
    before each decision (clones, with the acting seat) and the hashes of every seat's
    observations and masks at every decision."""
    st = GameState(rules, seed=seed)
    obs, hist, mask = np.zeros(OBS_SIZE, np.float32), np.zeros(HISTORY_SHAPE, np.int16), np.zeros(112, np.int8)
    h_obs, h_hist, h_mask = hashlib.sha256(), hashlib.sha256(), hashlib.sha256()

    def seat_views(st: GameState) -> None:
        for seat in range(4):
            info = st.information_set(seat)
            _sha(h_obs, encode_infoset(info, obs))
            _sha(h_hist, encode_history(info, hist))
            _sha(h_mask, action_mask(info.legal_actions, mask))

    positions, decisions = _random_game(st, seed, seat_views)
    hashes = {"decisions": decisions, "observations": h_obs.hexdigest(), "history": h_hist.hexdigest(),
              "masks": h_mask.hexdigest()}
    return st, positions, hashes


def _golden_of(mixes, make_rules, play, first_seed: int, names=None) -> tuple[dict[str, Any], dict[str, list]]:
    """Each mix's game (seed ``first_seed + k``): record, hashes, scores; and its positions.
    ``names``: only the mixes of these names (default: all)."""
    out, positions = {}, {}
    for k, (name, preset, options) in enumerate(mixes):
        if names is not None and name not in names:
            continue
        st, pos, hashes = play(make_rules(preset, options), seed=first_seed + k)
        out[name] = {"record": game_record(st), **hashes, "scores": list(st.scores), "winner": st.winner}
        positions[name] = pos
    return out, positions


def golden_games(names=None) -> tuple[dict[str, Any], dict[str, list[tuple[GameState, int]]]]:
    """The ``games`` golden: every mix of ``MIXES`` (``names``: only those)."""
    return _golden_of(MIXES, rules_of, play_random_game, 1000, names)


def golden_record_rules(rules: dict[str, Any], recorded) -> dict[str, Any]:
    """A game record's ``rules`` as the ``games`` golden keeps them (its records were made
    before most options existed, ``tests/test_golden.py``'s ``_ADDED``): the options
    ``recorded`` (those the golden's records hold), and every other option whose value
    differs from a classic four-seat game's (``Rules()``), for a mix rewritten since under
    such a value (``make_golden.py --mixes``)."""
    classic = Rules().to_dict()
    return {k: v for k, v in rules.items() if k in recorded or v != classic[k]}


def tier_decisions(positions: dict[str, list[tuple[GameState, int]]]) -> dict[str, Any]:
    """Each tier's action at each recorded position (a fresh policy per mix, seed 5); the
    slow tiers on the ``seed004`` game's card play, when ``positions`` hold it."""
    from policies import make_policy

    out: dict[str, Any] = {}
    for tier in FAST_TIERS:
        out[tier] = {}
        for name, pos in positions.items():
            if tier == "hard" and name not in ("seed004", "declarations_choice_belote_optional",
                                              "no_trump_all_trump", "seed000"):
                continue  # hard's network reads any rules; four mixes keep the test short
            pol = make_policy(tier, seed=5)
            out[tier][name] = [int(pol.act(st.information_set(seat))) for st, seat in pos]
    for tier in SLOW_TIERS if "seed004" in positions else ():
        pol = make_policy(tier, seed=5)
        pos = [p for p in positions["seed004"] if p[0].information_set(p[1]).phase == 1][:SLOW_DECISIONS]  # card play
        out[tier] = {"seed004_cards": [int(pol.act(st.information_set(seat))) for st, seat in pos]}
    return out


def tier_games() -> dict[str, Any]:
    """Whole games (default rules, to ``TARGET``) played by tiers, North-South vs East-West."""
    from policies import make_policy
    from training.evaluate import play_game

    out = {}
    for k, (a, b) in enumerate([("normal", "easy"), ("hard", "normal"), ("easy", "random")]):
        st = GameState(rules_of(None, {}), seed=2000 + k)
        pa, pb = make_policy(a, seed=7), make_policy(b, seed=8)
        play_game(st, [pa, pb, pa, pb])
        out[f"{a}_vs_{b}"] = {"record": game_record(st), "scores": list(st.scores), "winner": st.winner}
    return out


def _drop_timing(d: Any) -> Any:
    """A MatchResult's JSON without the fields that measure time (``*_ms_per_move``, ``*time*``)."""
    if isinstance(d, dict):
        return {k: _drop_timing(v) for k, v in d.items() if "time" not in k and "_ms_" not in k}
    if isinstance(d, list):
        return [_drop_timing(v) for v in d]
    return d


def cpu_name() -> str:
    """The CPU's model name and vector extensions (``/proc/cpuinfo``), naming a platform golden."""
    try:
        info = open("/proc/cpuinfo").read()
    except OSError:  # pragma: no cover - not Linux
        import platform

        return platform.processor() or platform.machine()
    model = next((ln.split(":", 1)[1].strip() for ln in info.splitlines() if ln.startswith("model name")), "?")
    flags = next((ln.split(":", 1)[1].split() for ln in info.splitlines() if ln.startswith("flags")), [])
    return f"{model} ({' '.join(sorted(f for f in flags if f.startswith(('avx', 'amx'))))})"


def golden_eval() -> dict[str, Any]:
    from training.evaluate import duplicate_match

    res = duplicate_match("hard", "normal", 100, seed=97, mode="game", workers=2)
    return _drop_timing(json.loads(json.dumps(res.to_dict())))


#: The other games of the one engine: (name, preset, options), each a whole game to the
#: preset's target (coinche: 5000, for several deals of random bidding).
VARIANT_MIXES: list[tuple[str, str, dict]] = [
    ("seed001_2p", "seed001_2p", {}),
    ("seed001_3p", "seed001_3p", {}),
    ("2p_choice_optional_belote", "seed001_2p", {
        "declarations": "choice", "belote": "optional", "dix_exchange": "auto", "deal_packets": "2-2-2",
        "sequence_compare": "length_then_top", "carres": True, "capot_bonus": 90, "failure": "maker_zero",
        "dealer_round2_proposal": True}),
    ("2p_no_redeal_no_exchange", "seed001_2p", {
        "redeal_proposal": False, "dix_exchange": "off", "sequence_order": "plain_trick_order", "run5_value": 100,
        "deal_packets": "1-by-1", "redeal_dealer": "elder"}),
    ("3p_10_each_choice", "seed001_3p", {
        "three_player_deal": "10_each", "declarations": "choice", "belote": "optional",
        "redeal_consent": "next_player", "defender_partner_free": True, "ruff_overtrump": "only_trump_lead",
        "defender_split": "proportional"}),
    ("3p_24_card", "seed001_3p", {
        "three_player_deal": "24_card", "defender_split": "half_ceil_next", "carres": True, "failure": "maker_zero",
        "capot_bonus": 50}),
    ("coinche", "coinche", {"target": 5000}),
    ("coinche_bga", "coinche_bga", {"target": 5000}),
    ("coinche_colver", "coinche_colver", {"target": 5000}),
    ("coinche_pagat", "coinche_pagat", {"target": 5000}),
    ("coinche_sa_ta_generale", "coinche", {
        "target": 5000, "coinche_denominations": "suits_sa_ta", "generale": True, "generale_leads": True,
        "generale_value": 1000, "capot_scoring": "flat", "capot_fail_value": 410}),
    ("coinche_bid_only_beat_defence", "coinche", {
        "target": 5000, "scoring": "bid_only", "surcoinche_allowed": False,
        "contract_condition": "reach_bid_and_beat_defence", "tie_with_defence": "litige", "rounding": "six_up",
        "round_last_deal": True, "declarations": "auto"}),
    ("coinche_four_passes_whole_score", "coinche", {
        "target": 5000, "passes_to_end": 4, "self_overbid": "change_denomination", "coinche_window": "immediate",
        "coinche_freezes": False, "capot_bid": False,
        "multiplier_scope": "whole_score", "surcoinche_multiplier": 3, "belote_prenable": True,
        "target_rule": "exceed", "no_win_on_belote_alone": True}),
]
#: The tiers asked at every decision of the variant games, and the mixes ``hard`` is asked on.
VARIANT_TIERS = ("easy", "normal", "hard")
VARIANT_HARD_MIXES = ("seed001_2p", "seed001_3p", "coinche", "coinche_colver")
VARIANT_EXPERT_DECISIONS = 12  # the first card decisions of the 2p and 3p games asked to the expert


def variant_rules(preset: str, options: dict) -> Rules:
    d = load_rules(preset).to_dict()
    d.update(options)
    return Rules.from_dict(d)


def _seat_hashes(rules: Rules):
    """The encoders of ``rules``' game: a function hashing every seat's view of a state."""
    n = rules.players
    mask = np.zeros(num_actions(rules), np.int8)
    if n == 4:
        obs = np.zeros(obs_size(rules), np.float32)
        hist = np.zeros(history_shape(rules), np.int16)
    else:
        obs = np.zeros(cutthroat_obs_size(rules), np.float32)
    hs = {"observations": hashlib.sha256(), "masks": hashlib.sha256()}
    if n == 4:
        hs["history"] = hashlib.sha256()

    def seat_views(st) -> None:
        for seat in range(n):
            info = st.information_set(seat)
            _sha(hs["masks"], action_mask(info.legal_actions, mask))
            if n == 4:
                _sha(hs["observations"], encode_infoset(info, obs))
                _sha(hs["history"], encode_history(info, hist))
            else:
                _sha(hs["observations"], encode_cutthroat(info, obs))

    return hs, seat_views


def _acting(st) -> int:
    return st.current


def play_random_variant_game(rules: Rules, seed: int):
    """``play_random_game`` for any table and auction (``GameState``)."""
    st = GameState(rules, seed=seed)
    hs, seat_views = _seat_hashes(rules)
    positions, decisions = _random_game(st, seed, seat_views)
    return st, positions, {"decisions": decisions, **{k: h.hexdigest() for k, h in hs.items()}}


def golden_variant_games() -> tuple[dict[str, Any], dict[str, list]]:
    return _golden_of(VARIANT_MIXES, variant_rules, play_random_variant_game, 3000)


def variant_tier_decisions(positions: dict[str, list]) -> dict[str, Any]:
    """Each tier's action at each recorded position of the variant games (a fresh policy
    per mix, seed 5); the expert's on the first card decisions of the 2p and 3p games."""
    from policies import make_policy

    out: dict[str, Any] = {}
    for tier in VARIANT_TIERS:
        out[tier] = {}
        for name, pos in positions.items():
            if tier == "hard" and name not in VARIANT_HARD_MIXES:
                continue
            pol = make_policy(tier, seed=5)
            out[tier][name] = [int(pol.act(st.information_set(seat))) for st, seat in pos]
    out["expert"] = {}
    for name in ("seed001_2p", "seed001_3p"):
        pol = make_policy("expert", seed=5)
        pos = [(st, seat) for st, seat in positions[name] if st.information_set(seat).step == STEPS.index("cards")]
        out["expert"][name] = [int(pol.act(st.information_set(seat))) for st, seat in pos[:VARIANT_EXPERT_DECISIONS]]
    return out
