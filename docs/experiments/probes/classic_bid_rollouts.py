"""Policy factory of the classic bid-rollout probe (docs/experiments/expert.md, 2026-12-06;
not shipped): the expert's classic bids searched as its coinche auction is. At a bid where
hard's bid values put another bid within ``BID_GATE`` points (30) of its own, each
candidate is applied in ``BID_SAMPLES`` (16) belief-weighted worlds, hard bids for every
seat to the auction's end, the contract is solved double-dummy from the opening lead, and
a candidate replaces hard's bid when its paired mean gain less ``BID_Z`` (1.0) standard
errors exceeds ``BID_MARGIN`` (5) points a deal (``policies.search._choose``)::

    PYTHONPATH=docs/experiments/probes belote eval classic_bid_rollouts:rollout_bid_expert expert \
        --pairs 300 --workers 2 --chunk 1 --seed 9102

``BID_LOG=FILE`` appends each searched decision's candidates and means."""
import os
import time

from belote_env.actions import PASS
from belote_env.auction import new_auction
from belote_env.dealing import complete
from belote_env.scoring import belote_points, deal_difference, declaration_points
from belote_env.solver import Position
from belote_env.table import eldest_of, team_of

from policies.search import SearchPolicy, _choose, expert_policy

GATE = float(os.environ.get("BID_GATE", "30"))      # points: search when hard's best bid is within GATE of another
MARGIN = float(os.environ.get("BID_MARGIN", "5"))
Z = float(os.environ.get("BID_Z", "1.0"))
SAMPLES = int(os.environ.get("BID_SAMPLES", "16"))
STATS = {"asked": 0, "searched": 0, "changed": 0}


class RolloutBidExpert(SearchPolicy):
    def _bid(self, info):
        legal = list(info.legal_actions)
        model = self._model(info)
        anchor = model.act(info)
        if anchor not in legal:
            anchor = PASS if PASS in legal else legal[0]
        STATS["asked"] += 1
        vals = model.bid_values(info)
        unit = getattr(model, "bid_unit", 162.0)
        cands = [anchor] + sorted((a for a in legal if a != anchor and vals[anchor] - vals.get(a, -1e9) < GATE / unit),
                                  key=lambda a: -vals[a])
        if len(cands) == 1:
            self.last_stats = {"samples": 0, "nodes": 0, "seconds": 0.0}
            return anchor
        STATS["searched"] += 1
        me, eldest, rules = info.seat, eldest_of(info.dealer), info.rules
        start = new_auction(info.dealer, info.turned_card, rules, info.auction)
        values = {a: [] for a in cands}
        ws = []
        t0, nodes, n = time.perf_counter(), 0, 0
        draws = self._draws(info, SAMPLES, self._bid_weight)
        while n < SAMPLES and self._budget_left(n, t0, nodes, self.bid_node_budget):
            deal, w = next(draws, (None, 0.0))
            if deal is None:
                break
            n += 1
            if w <= 0.0:
                continue
            stock = [c for c in range(32) if deal.stock >> c & 1]
            self.rng.shuffle(stock)
            valued = {}
            for a, auction in zip(cands, self._rollouts(info, deal.hands, start, cands)):
                c = auction.contract
                if c is None:
                    values[a].append(0)
                    continue
                key = (c.taker, c.denomination)
                v = valued.get(key)
                if v is None:
                    full = tuple(complete(deal.hands, info.turned_card, stock, c.taker, info.dealer))
                    pts = self.solver.solve(Position(full, c.denomination, c.taker, (), eldest, rules))
                    nodes += self.solver.nodes
                    v = valued[key] = deal_difference(
                        pts, team_of(c.taker), team_of(me), belote_points(info, full, c.denomination),
                        declaration_points(info, full, c.denomination, eldest, False, c.taker), info)
                values[a].append(v)
            ws.append(w)
        best, means = _choose(cands, values, ws, MARGIN, Z)
        if best != anchor:
            STATS["changed"] += 1
        self.last_stats = {"samples": n, "nodes": nodes, "seconds": time.perf_counter() - t0}
        self.last_values = means
        if os.environ.get("BID_LOG"):
            with open(os.environ["BID_LOG"], "a") as f:
                f.write(f"{os.getpid()} {STATS} n={n} {time.perf_counter()-t0:.2f}s anchor={anchor} best={best} "
                        f"{ {a: round(m, 1) for a, m in means.items()} }\n")
        return best


def rollout_bid_expert(seed=None):
    base = expert_policy(seed)
    p = RolloutBidExpert.__new__(RolloutBidExpert)
    p.__dict__.update(base.__dict__)
    p.search_bids = True
    p.name = "expert_rbid"
    return p
