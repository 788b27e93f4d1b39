"""Coinche bids routed by decision type: the defence's decisions (those where a coinche or
a surcoinche is legal: coinche, surcoinche, overcall or pass over the other side's bid) by
one model folder, every other decision (the cards included) by another. The sixteenth
session's screen of where the coinche hard's head-to-head gain and partner loss lie
(docs/experiments/iterate.md, 2026-12-08). Not shipped, not tested.

    ROUTE_DEFENCE=<folder> ROUTE_REST=policies/models/hard_coinche \\
    PYTHONPATH=docs/experiments/probes belote eval routed_bids:routed hard_oracle \\
        --rules coinche --pairs 20000 --batched --seed 7501
    (and ``routed_bids:routed,normal normal ... --seed 7502``)

``ROUTE_ONLY=pick`` keeps the rest's action unless the defence model coinches (its
overcalls ignored); ``coinche`` / ``surcoinche`` route only the decisions where that
action is legal.
"""
import os
import numpy as np
from belote_env.actions import COINCHE, SURCOINCHE
from policies.registry import make_policy


class Routed:
    def __init__(self, defence, rest, name, only=None):
        self.defence, self.rest, self.name, self.only = defence, rest, name, only

    def _defence_rows(self, mask):
        m = np.asarray(mask)
        if self.only in ("coinche", "pick"):
            return m[:, COINCHE] > 0
        if self.only == "surcoinche":
            return m[:, SURCOINCHE] > 0
        return (m[:, COINCHE] > 0) | (m[:, SURCOINCHE] > 0)

    def act(self, info) -> int:
        legal = info.legal_actions
        a = self.rest.act(info)
        if self.only in ("coinche", "pick"):
            d = COINCHE in legal
        elif self.only == "surcoinche":
            d = SURCOINCHE in legal
        else:
            d = COINCHE in legal or SURCOINCHE in legal
        if not d:
            return a
        b = self.defence.act(info)
        if self.only == "pick":
            return COINCHE if b == COINCHE else (b if a == COINCHE else a)
        return b

    def act_batch(self, batch) -> np.ndarray:
        a = np.array(self.rest.act_batch(batch))
        rows = self._defence_rows(batch.mask)
        if rows.any():
            b = np.array(self.defence.act_batch(batch))
            if self.only == "pick":  # the defence's coinche only; otherwise the rest's action
                pick = rows & (b == COINCHE)
                undo = rows & (a == COINCHE) & (b != COINCHE)
                a[pick] = COINCHE
                a[undo] = b[undo]
            else:
                a[rows] = b[rows]
        return a

    def reseed(self, key) -> None:
        for p in (self.defence, self.rest):
            if hasattr(p, "reseed"):
                p.reseed(key)


def routed():
    d, r = os.environ["ROUTE_DEFENCE"], os.environ["ROUTE_REST"]
    only = os.environ.get("ROUTE_ONLY") or None
    return Routed(make_policy(d), make_policy(r), "routed", only)
