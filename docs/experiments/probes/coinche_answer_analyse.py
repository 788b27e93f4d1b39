"""The coinche answer probe's table: per coincher, the gain of each surcoinche margin over
never surcoinching (docs/experiments/hard_coinche.md, 2026-12-06)::

    python docs/experiments/probes/coinche_answer_analyse.py EVENTS.jsonl [EXPERT.jsonl]
"""
import json, math, sys
import numpy as np
ev = [json.loads(l) for l in open(sys.argv[1])]
exp = {}
if len(sys.argv) > 2:
    for l in open(sys.argv[2]):
        d = json.loads(l); exp[d["seed"]] = d["coinche"]
N = len(ev)
def team(e, t):
    if e["m1"] > t: return e["B"]
    if e["C"] is not None and not math.isnan(e["m2"]) and e["m2"] > t: return e["C"]
    return e["A"]
pops = {"all": lambda e: True,
        "oracle(fails plain)": lambda e: e["plain_outcome"] != "made",
        "hard qc>-0.05": lambda e: e["qc_best"] > -0.05,
        "hard qc>-0.15": lambda e: e["qc_best"] > -0.15,
        "hard qc>-0.25": lambda e: e["qc_best"] > -0.25}
if exp:
    pops["expert"] = lambda e: exp.get(e["seed"]) is True
    pops["expert-asked"] = lambda e: e["seed"] in exp
ts = [0.0, 0.05, 0.1, 0.2, 0.3, math.inf]
print(f"{N} events")
for name, p in pops.items():
    sel = [e for e in ev if p(e)]
    if not sel: continue
    A = np.array([e["A"] for e in sel])
    line = f"{name:22s} n={len(sel):5d} madeA={np.mean([e['Ao']=='made' for e in sel]):.2f} "
    for t in ts:
        d = np.array([team(e, t) for e in sel]) - A
        se = d.std(ddof=1) / math.sqrt(len(d)) if len(d) > 1 else 0
        rate = np.mean([team(e, t) != e["A"] or (e["m1"] > t) for e in sel])
        line += f"| t={t}: {d.mean():+6.1f}±{1.96*se:4.1f} sur{rate:.2f} "
    print(line)
