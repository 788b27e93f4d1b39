"""Coinche events: for hard-played coinche deals, force a coinche right after the final
contract bid, then value the coinched team's answer (pass / surcoinche) by playing both
branches out with hard (docs/experiments/hard_coinche.md, 2026-12-06; a probe, not shipped):

    PYTHONPATH=. python docs/experiments/probes/coinche_answer_events.py 100000 110000 EVENTS.jsonl
"""
import json, sys, time
from belote_env import load_rules
from belote_env.game import GameState
from belote_env.actions import COINCHE, SURCOINCHE, PASS, is_coinche_bid
from policies.hard import HardPolicy

rules = load_rules("coinche")
hp = HardPolicy(0).for_rules(rules)


def replay(seed, actions):
    st = GameState(rules, seed=seed, single_deal=True)
    for _, a in actions:
        st.apply(a)
    return st


def finish(st):
    while not st.is_deal_over:
        st.apply(hp.act(st.information_set(st.current_seat)))
    ds = st.deal_score
    t = ds.taker_team
    return ds.points[t] - ds.points[1 - t], ds.outcome


def margin(st, a, b):
    v = hp.bid_values(st.information_set(st.current_seat))
    return v.get(a, float("nan")) - v.get(b, float("nan")), v


def main(lo, hi, out):
    f = open(out, "a")
    t0 = time.time()
    for seed in range(lo, hi):
        st = GameState(rules, seed=seed, single_deal=True)
        while st.phase == 0:
            st.apply(hp.act(st.information_set(st.current_seat)))
        if st.phase != 1:
            continue
        acts = list(st.actions)
        if any(a in (COINCHE, SURCOINCHE) for _, a in acts):
            continue  # hard coinched itself: skip (rare)
        last = max(i for i, (_, a) in enumerate(acts) if is_coinche_bid(a))
        plain, plain_outcome = finish(st.clone())
        st1 = replay(seed, acts[:last + 1])
        if COINCHE not in st1.legal_actions():
            continue
        qc, v = margin(st1, COINCHE, PASS)
        qc_best = v[COINCHE] - max(x for k, x in v.items() if k != COINCHE)
        st1.apply(COINCHE)
        s1 = st1.current_seat
        m1, _ = margin(st1, SURCOINCHE, PASS)
        b = st1.clone(); b.apply(SURCOINCHE); B, Bo = finish(b)
        a = st1.clone(); a.apply(PASS)
        m2 = float("nan"); C = None
        while a.phase == 0:
            if SURCOINCHE in a.legal_actions() and C is None:
                m2, _ = margin(a, SURCOINCHE, PASS)
                c = a.clone(); c.apply(SURCOINCHE); C, _ = finish(c)
            a.apply(PASS)
        A, Ao = finish(a)
        rec = dict(seed=seed, contract=str(st.contract), qc=qc, qc_best=qc_best, m1=m1, m2=m2, A=A, B=B, C=C,
                   plain=plain, plain_outcome=plain_outcome, Ao=Ao, Bo=Bo, s1=s1)
        f.write(json.dumps(rec) + "\n"); f.flush()
    print("done", lo, hi, time.time() - t0)


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]), sys.argv[3])
