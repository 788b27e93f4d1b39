"""Reseeding of every generator a policy owns (``policies.base.reseed``): a duplicate match's
pair is a function of the seed and the pair alone, whatever the number of workers and
whether the match was resumed from its pairs log, for every tier and every variant."""

from __future__ import annotations

import random

import pytest

from belote_env import GameState, load_rules
from policies.base import reseed
from policies.registry import make_policy
from training.evaluate import duplicate_match

VARIANTS = ("seed004", "coinche", "seed001_2p", "seed001_3p")
TIERS = ("random", "easy", "normal", "hard", "expert")


def lite_expert():
    """The expert with few samples (a policy factory: every process builds the same one);
    at two and three seats it plays through its small-table search (``_small``)."""
    from policies.hard import HardPolicy
    from policies.normal import NormalPolicy
    from policies.search import SearchPolicy

    hard = HardPolicy(0)
    return SearchPolicy(0, samples=3, min_samples=1, bid_samples=2, bid_levels=2, belief=NormalPolicy(0), base=hard,
                        prior=hard, prior_weight=1.0, belief_pool=2, name="expert-lite")


def _positions(rules, n: int, max_hand: int) -> list:
    """Up to ``n`` card decisions, each with several legal cards and at most ``max_hand``
    cards in the acting seat's hand, of seeded random deals (the info sets of the seat to
    act)."""
    rng = random.Random(1)
    out = []
    for seed in range(20):
        state = GameState(rules, seed=seed, single_deal=True)
        while not state.is_deal_over and len(out) < n:
            info = state.information_set(state.current_seat)
            cards = [a for a in info.legal_actions if a < 32]
            if len(cards) > 1 and bin(info.hand).count("1") <= max_hand:
                out.append(info)
            state.apply(rng.choice(info.legal_actions))
        if len(out) >= n:
            break
    return out


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("tier", TIERS)
def test_a_reseeded_policy_decides_as_a_fresh_one(tier, variant):
    """After ``reseed(policy, key)`` a policy that has played before decides every position
    as a fresh one reseeded with ``key`` does (its values too): nothing it owns, nested
    policies included, carries a generator's state from earlier play."""
    rules = load_rules(variant)
    spec = "tests.test_match_reseeding:lite_expert" if tier == "expert" and rules.players == 4 else tier
    infos = _positions(rules, 4 if tier == "expert" else 12, 4 if tier == "expert" else 8)
    assert len(infos) >= 3
    used, fresh = make_policy(spec, seed=5, rules=rules), make_policy(spec, seed=9, rules=rules)
    for info in infos:  # the used one plays first, drawing from every generator it owns
        used.act(info)
    for key in ("k1", "k2"):
        reseed(used, key)
        reseed(fresh, key)
        for info in infos:
            assert used.act(info) == fresh.act(info)
            assert getattr(used, "last_values", None) == getattr(fresh, "last_values", None)


def _same(x, y):
    t = {"a_ms_per_move": 0, "b_ms_per_move": 0}
    return x.to_dict() | t == y.to_dict() | t


@pytest.mark.parametrize("variant", VARIANTS)
def test_one_worker_two_workers_and_a_resumed_match_agree(variant, tmp_path):
    """The expert (its nested generators) against random (its own): the same figures with
    one worker, two workers of one pair a chunk, and (four seats) a match resumed from a
    pairs log cut after its first chunk."""
    rules = load_rules(variant)
    expert = "tests.test_match_reseeding:lite_expert"  # at two and three seats: its small-table search
    pairs = 3 if rules.players == 4 else 2
    one = duplicate_match(expert, "random", pairs, seed=3, rules=rules, chunk=pairs)
    assert _same(duplicate_match(expert, "random", pairs, seed=3, rules=rules, workers=2, chunk=1), one)
    if rules.players == 4:  # the small tables keep no pairs log
        log = tmp_path / "pairs.jsonl"
        duplicate_match(expert, "random", 1, seed=3, rules=rules, chunk=1, pairs_log=log)  # cut after pair 0
        assert _same(duplicate_match(expert, "random", pairs, seed=3, rules=rules, chunk=1, pairs_log=log), one)


def test_a_smaller_rerun_of_a_pairs_log_plays_the_cut_chunk_once_then_reuses_it(tmp_path, monkeypatch):
    """A log of 10 pairs in chunks of 4, then three reruns of 6 pairs: the first plays
    pairs 4 and 5 (logged inside the chunk 4..7, whose tally is not split) once, as a chunk
    of their own; the next two play nothing. Each prints what a 6-pair match without a
    log prints; a rerun of all 10 pairs still counts the first three chunks."""
    import training.evaluate as E

    played = []
    orig = E._play_sets

    def spy(a, b, ids, *rest):
        played.append(list(ids))
        return orig(a, b, ids, *rest)

    log = tmp_path / "pairs.jsonl"
    ten = duplicate_match("random", "normal", 10, seed=2, chunk=4, pairs_log=log)
    six = duplicate_match("random", "normal", 6, seed=2, chunk=4)
    monkeypatch.setattr(E, "_play_sets", spy)
    runs = [duplicate_match("random", "normal", 6, seed=2, chunk=4, pairs_log=log) for _ in range(3)]
    assert played == [[4, 5]]
    import json

    ids = [json.loads(line)["ids"] for line in log.read_text().splitlines()[1:]]
    assert ids == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9], [4, 5]]
    for r in runs:
        assert _same(r, six)
        assert r.summary().splitlines()[:4] == six.summary().splitlines()[:4]
    again = duplicate_match("random", "normal", 10, seed=2, chunk=4, pairs_log=log)
    assert played == [[4, 5]] and _same(again, ten)


def test_a_pairs_log_of_older_rules_dicts_resumes_as_the_same_match(tmp_path):
    """A pairs log written before carres, run5_value and failure applied at four seats holds
    ``None`` for them in its header's rules: it is the same match under today's defaults
    (its chunks count, nothing is replayed); a log of other rules is still refused."""
    import json

    log = tmp_path / "pairs.jsonl"
    first = duplicate_match("easy", "random", 4, seed=3, chunk=2, pairs_log=str(log))
    lines = log.read_text().splitlines()
    header = json.loads(lines[0])
    assert header["rules"]["carres"] is True and header["rules"]["failure"] == "maker_keeps_belote"
    header["rules"].update(carres=None, run5_value=None, failure=None)  # as the logs of 2026-12-05 say
    log.write_text("\n".join([json.dumps(header)] + lines[1:]) + "\n")
    again = duplicate_match("easy", "random", 4, seed=3, chunk=2, pairs_log=str(log))
    assert (again.pairs, again.deals, again.mean_diff, again.pair_scores) == \
        (first.pairs, first.deals, first.mean_diff, first.pair_scores) and first.deals == 8
    assert log.read_text().splitlines()[1:] == lines[1:]  # its chunks counted, none played again
    header["rules"]["tie"] = "takers_fail"
    log.write_text("\n".join([json.dumps(header)] + lines[1:]) + "\n")
    with pytest.raises(ValueError, match="it differs in rules"):
        duplicate_match("easy", "random", 4, seed=3, chunk=2, pairs_log=str(log))
