"""Batched duplicate matches (``duplicate_match(batched=True)``, ``belote eval --batched``):
the same decks, dealers and redeals as the unbatched match, so for deterministic policies
the same tallies (point differences, deal wins, contracts taken and made, capots, void
deals, decisions per side), under the default rules and a rule mix (declarations by
choice, optional belote, no-trump / all-trump in round 2, the next dealer after a void)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from belote_env import Rules
from belote_env.actions import PASS
from policies import make_policy
from policies.base import PolicyError
from training.evaluate import PolicyFailure, _play_sets, _play_sets_batched, duplicate_match

MIX = Rules(declarations="choice", belote="optional", round2_no_trump_all_trump=True, all_pass_redeal="next_dealer")


from tests.test_policy_batch import one_torch_thread  # noqa: F401,E402  (autouse fixture: one torch thread)


def _fields(t):
    return {k: getattr(t, k) for k in ("diffs", "deal_wins", "game_wins", "deals", "taken", "made", "capots",
                                       "voids", "moves")}


@pytest.mark.parametrize("rules", [Rules(), MIX], ids=["default", "mix"])
@pytest.mark.parametrize("a,b", [("normal", "easy"), ("hard", "normal"), ("easy", "hard")])
def test_batched_tally_equals_unbatched(a, b, rules):
    pa, pb = make_policy(a, seed=0), make_policy(b, seed=1)
    ids = list(range(40))
    want = _fields(_play_sets(pa, pb, ids, 11, rules, "deal"))
    for tables in (80, 7):  # every copy at once; a few tables refilled as deals end
        got = _fields(_play_sets_batched(pa, pb, ids, 11, rules, tables=tables))
        assert got == want, tables
    assert want["deals"] == 80 and sum(want["moves"]) > 80 * 30


class _Shy:
    """easy, but passing in the auction without two jacks: many deals are passed out."""

    name = "shy"

    def __init__(self):
        self.easy = make_policy("easy")

    def act(self, info):
        if PASS in info.legal_actions and sum(info.hand >> (8 * s + 4) & 1 for s in range(4)) < 2:
            return PASS
        return self.easy.act(info)


def test_void_deals_redealt_as_unbatched():
    """Passed-out deals are redealt from the next redeal's deck at that table; under
    ``next_dealer`` the dealer moves on there only."""
    pa, pb = _Shy(), make_policy("easy")
    for rules in (Rules(), MIX):
        want = _fields(_play_sets(pa, pb, range(60), 5, rules, "deal"))
        got = _fields(_play_sets_batched(pa, pb, list(range(60)), 5, rules, tables=33))
        assert got == want and want["voids"] > 20


def test_duplicate_match_batched_result():
    u = duplicate_match("hard", "normal", 30, seed=4, rules=MIX)
    v = duplicate_match("hard", "normal", 30, seed=4, rules=MIX, batched=True, batch_tables=16)
    du, dv = u.to_dict(), v.to_dict()
    for k in ("a_ms_per_move", "b_ms_per_move"):
        del du[k], dv[k]
    assert du == dv and u.pair_scores == v.pair_scores


def test_batched_refuses_what_it_does_not_do(tmp_path):
    for kw in ({"mode": "game", "rules": Rules(target=500)}, {"workers": 2}, {"pairs_log": tmp_path / "p.jsonl"},
               {"batch_tables": 0}):
        with pytest.raises(ValueError, match="batch"):
            duplicate_match("easy", "random", 2, batched=True, **kw)


class _Bad:
    name = "bad"

    def act(self, info):
        return 200 if len(info.tricks) == 3 else info.legal_actions[0]


class _Passer:
    name = "passer"

    def act(self, info):
        return PASS if PASS in info.legal_actions else info.legal_actions[0]


def test_batched_failures():
    with pytest.raises(PolicyFailure, match="illegal action 200") as e:
        duplicate_match(_Bad(), "easy", 3, batched=True)
    rec = e.value.record
    assert e.value.policy == "bad" and rec["deals"] and len(rec["deals"][-1]["actions"]) > 12
    with pytest.raises(PolicyError, match="passed out"):
        duplicate_match(_Passer(), _Passer(), 2, batched=True)


def test_cli_batched(tmp_path, capsys):
    from training.cli import main

    out = tmp_path / "r.json"
    assert main(["eval", "normal", "easy", "--pairs", "12", "--seed", "3", "--batched", "--no-progress",
                 "--json", str(out)]) == 0
    batched = json.loads(out.read_text())
    assert main(["eval", "normal", "easy", "--pairs", "12", "--seed", "3", "--no-progress", "--json", str(out)]) == 0
    plain = json.loads(out.read_text())
    for d in (batched, plain):
        del d["a_ms_per_move"], d["b_ms_per_move"]
    assert batched == plain
    assert main(["eval", "normal", "easy", "--games", "2", "--batched", "--no-progress"]) == 2
    assert "deal mode only" in capsys.readouterr().err
    np.testing.assert_equal(batched["deals"], 24)


# ---------------------------------------------------------------------------- two and three seats
def _set_fields(t):
    return {k: getattr(t, k) for k in ("rows", "ids", "deals", "taken", "made", "voids", "moves")}


@pytest.mark.parametrize("preset", ["seed001_2p", "seed001_3p"])
@pytest.mark.parametrize("a,b", [("normal", "easy"), ("hard", "normal")])
def test_two_and_three_seat_batched_tally_equals_unbatched(preset, a, b):
    """Every seating of every duplicate set as a table of the batched small-table engine:
    the same decks, dealers, redeals and so the same per-set figures as the unbatched sets
    (TWO_THREE.md; ``hard`` is hard_2p / hard_3p, its policy network batched)."""
    from belote_env.config import load_rules
    from training.evaluate import _play_sets, _play_sets_batched

    rules = load_rules(preset).replace(target=None, max_deals=None)
    pa, pb = make_policy(a, seed=0, rules=rules), make_policy(b, seed=1, rules=rules)
    ids = list(range(12))
    want = _set_fields(_play_sets(pa, pb, ids, 11, rules, "deal"))
    for tables in (200, 5):  # every seating at once; a few tables refilled as deals end
        assert _set_fields(_play_sets_batched(pa, pb, ids, 11, rules, tables=tables)) == want, tables
    seatings = 2 if preset.endswith("2p") else 6
    assert want["deals"] == 12 * seatings and len(want["rows"]) == 12
    if preset.endswith("3p") and a == "normal":
        assert want["voids"] > 10  # redeals (passed out or agreed) are redealt from the set's next deck


def test_three_seat_duplicate_match_batched_result():
    u = duplicate_match("normal", "easy", 8, seed=2, rules=Rules(players=3))
    v = duplicate_match("normal", "easy", 8, seed=2, rules=Rules(players=3), batched=True, batch_tables=9)
    du, dv = u.to_dict(), v.to_dict()
    for k in ("a_ms_per_move", "b_ms_per_move"):
        du.pop(k, None), dv.pop(k, None)
    assert du == dv and u.sets == 8
    with pytest.raises(ValueError, match="pairs log"):
        duplicate_match("normal", "easy", 2, rules=Rules(players=2), batched=True, pairs_log="x.jsonl")


def test_two_seat_batched_failure_names_the_policy_and_its_record():
    class _Bad:
        name = "bad"

        def act(self, info):
            return 300 if len(info.tricks) == 2 else info.legal_actions[0]

    with pytest.raises(PolicyFailure, match="illegal action 300") as e:
        duplicate_match(_Bad(), "easy", 2, rules=Rules(players=2), batched=True)
    rec = e.value.record
    assert e.value.policy == "bad" and rec["rules"]["players"] == 2 and len(rec["deals"][-1]["actions"]) > 4


def test_two_and_three_seat_batch_holds_the_seats_information_sets():
    """RULES.md §11 at two and three seats: a batch row is the acting seat's own
    information set and its observation that set's encoding."""
    from belote_env.games import game_of
    from belote_env.vector import SeatBatch
    from belote_env.vector import BatchedGame
    from belote_env.vector.cutthroat import cutthroat_infoset_of

    rules = Rules(players=3)
    g = BatchedGame(6, rules, seed=3)
    for _ in range(25):
        g.step(g.random_actions())
    rows = np.arange(6)
    batch = SeatBatch(g, rows)
    for i, t in enumerate(rows):
        info = batch.infoset(i)
        assert info == cutthroat_infoset_of(g, int(t), int(g.current[t])) and info.seat == g.current[t]
        assert np.array_equal(batch.obs[i], game_of(rules).encode(info))
        assert np.array_equal(batch.mask[i], g.mask[t])


class _Floats:
    name = "floats"

    def act(self, info):
        return float(info.legal_actions[0]) + 0.9


class _RaisesOnTrick2:
    name = "raiser"

    def act(self, info):
        if len(info.tricks) == 1:
            raise RuntimeError("boom at the second trick")
        return info.legal_actions[0]


@pytest.mark.parametrize("rules", [Rules(), Rules(players=2)], ids=["4 seats", "2 seats"])
def test_batched_failures_name_the_row_and_never_cast(rules):
    """A non-int action is refused as the unbatched match refuses it (never cast to an id);
    a policy raising on one row is recorded at that row's table and position."""
    with pytest.raises(PolicyFailure, match=r"returned 32\.9 \(float\), not an int action id"):
        duplicate_match(_Floats(), make_policy("easy", rules=rules), 2, rules=rules, batched=True)
    with pytest.raises(PolicyFailure, match="at table") as e:
        duplicate_match(_RaisesOnTrick2(), make_policy("easy", rules=rules), 2, seed=3, rules=rules, batched=True)
    cards = [a for _, a in e.value.record["deals"][-1]["actions"] if a < 32]
    assert len(cards) >= rules.players  # the first trick is in the record: the position where it raised


def test_batched_coinche_with_the_extended_bids():
    """Coinche with bids above 160 and the générale (412 action ids, COINCHE.md §3): a legal
    id above 111 is played, not refused (the check reads the mask's width), and the batched
    match equals the unbatched one."""
    from belote_env.config import load_rules

    rules = load_rules("coinche").replace(max_numeric_bid=250, generale=True)
    u = duplicate_match("normal", "easy", 40, seed=1, rules=rules)
    v = duplicate_match("normal", "easy", 40, seed=1, rules=rules, batched=True)
    du, dv = u.to_dict(), v.to_dict()
    for k in ("a_ms_per_move", "b_ms_per_move"):
        del du[k], dv[k]
    assert du == dv
