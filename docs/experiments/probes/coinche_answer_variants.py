"""Policy factories of the coinche answer probe (docs/experiments/hard_coinche.md, 2026-12-06;
not shipped): the coinche hard with a surcoinche margin (``s20``: surcoinche only where its
bid values put surcoinche 0.2 units, 100 points, above pass), never surcoinching
(``nosur``), or coinching within a margin of its best bid (``c05``..``c30``)::

    PYTHONPATH=docs/experiments/probes belote eval coinche_answer_variants:s20,normal normal --rules coinche --pairs 1500 --seed 7401
"""
import math
from belote_env.actions import COINCHE, SURCOINCHE, PASS
from policies.hard import HardPolicy, hard_oracle


class Variant:
    def __init__(self, seed=None, coinche_margin=None, sur_margin=0.0, base="hard", name="v"):
        self.base = HardPolicy(seed) if base == "hard" else hard_oracle(seed)
        self.rng = self.base.rng
        self.coinche_margin, self.sur_margin, self.name = coinche_margin, sur_margin, name

    def act(self, info):
        legal = info.legal_actions
        if COINCHE in legal and self.coinche_margin is not None:
            v = self.base.bid_values(info)
            if v.get(COINCHE, -math.inf) >= max(v.values()) - self.coinche_margin:
                return COINCHE
        if SURCOINCHE in legal and self.sur_margin is not None:
            v = self.base.bid_values(info)
            if SURCOINCHE in v and PASS in v:
                return SURCOINCHE if v[SURCOINCHE] - v[PASS] > self.sur_margin else PASS
        return self.base.act(info)


def coincher(m):
    return lambda seed=None: Variant(seed, coinche_margin=m, sur_margin=None, name=f"coincher{m}")

c05 = coincher(0.05); c10 = coincher(0.10); c20 = coincher(0.20); c30 = coincher(0.30)

def nosur(seed=None):
    return Variant(seed, sur_margin=math.inf, name="nosur")

def sur(t):
    return lambda seed=None: Variant(seed, sur_margin=t, name=f"sur{t}")

s05 = sur(0.05); s10 = sur(0.10); s20 = sur(0.20)
