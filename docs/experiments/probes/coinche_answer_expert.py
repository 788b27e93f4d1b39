"""For the events of coinche_answer_events.py: would the expert coinche at the first
defender's turn right after the final bid? (docs/experiments/hard_coinche.md, 2026-12-06)

    PYTHONPATH=. python docs/experiments/probes/coinche_answer_expert.py EVENTS.jsonl OUT.jsonl 1000
"""
import json, sys, time
from belote_env import load_rules
from belote_env.game import GameState
from belote_env.actions import COINCHE, is_coinche_bid
from policies.hard import HardPolicy
from policies.base import reseed
from policies.registry import make_policy

rules = load_rules("coinche")
hp = HardPolicy(0).for_rules(rules)


def main(events, out, limit):
    ex = make_policy("expert", seed=0)
    f = open(out, "a")
    n = 0
    t0 = time.time()
    for line in open(events):
        e = json.loads(line)
        if n >= limit:
            break
        st = GameState(rules, seed=e["seed"], single_deal=True)
        while st.phase == 0:
            st.apply(hp.act(st.information_set(st.current_seat)))
        acts = list(st.actions)
        last = max(i for i, (_, a) in enumerate(acts) if is_coinche_bid(a))
        st1 = GameState(rules, seed=e["seed"], single_deal=True)
        for _, a in acts[:last + 1]:
            st1.apply(a)
        info = st1.information_set(st1.current_seat)
        reseed(ex, f"ev{e['seed']}")
        a = ex.act(info)
        f.write(json.dumps({"seed": e["seed"], "expert": a, "coinche": a == COINCHE}) + "\n"); f.flush()
        n += 1
    print("done", n, time.time() - t0)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
