"""Classic bids by hard's bid values with every take shifted by a constant (units of 162
points), for the expert (whose card play is stronger than the hard play the values were
learned with) and for hard itself: the fourteenth session's screen (docs/experiments/expert.md,
2026-12-07; a probe, not shipped)::

    PYTHONPATH=docs/experiments/probes belote eval expert_bid_shift:h3 hard --pairs 2000 --seed 9501
    PYTHONPATH=docs/experiments/probes belote eval expert_bid_shift:e6 hard --pairs 200 --seed 9511 \
        --chunk 1 --pairs-log e6.jsonl    # and e0: the expert itself, paired deal by deal
"""
from belote_env.actions import PASS
from policies.hard import HardPolicy
from policies.search import expert_policy


class BidShift:
    """``inner``'s decisions, but the classic bids: ``hard``'s bid values, ``delta`` added to
    every bid but pass, the best taken (ties to the lowest id, as hard)."""

    def __init__(self, inner, hard, delta, name):
        self.inner, self.hard, self.delta, self.name = inner, hard, delta, name

    def act(self, info):
        if self.hard._classic(info) and self.hard._bids_by_value(info):
            v = self.hard.bid_values(info)
            v = {a: x + (0 if a == PASS else self.delta) for a, x in v.items()}
            return max(v, key=lambda a: (v[a], -a))
        return self.inner.act(info)

    def reseed(self, key):
        for p in {id(self.inner): self.inner, id(self.hard): self.hard}.values():
            if hasattr(p, "reseed"):
                p.reseed(key)


def _expert(delta):
    e = expert_policy()
    return BidShift(e, e.base, delta, f"expert_shift{delta}")


def _hard(delta):
    h = HardPolicy()
    return BidShift(h, h, delta, f"hard_shift{delta}")


def e0(): return _expert(0.0)
def e3(): return _expert(0.03)
def e6(): return _expert(0.06)
def h3(): return _hard(0.03)
def h6(): return _hard(0.06)
def hm3(): return _hard(-0.03)
