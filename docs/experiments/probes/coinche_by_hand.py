"""The coinche hard, coinching wherever `normal`'s hand test (its defence estimate plus its
partner's, against the contract's level plus an offset in points) says the opponents' contract
fails: the fourteenth session's probe (docs/experiments/hard_coinche.md, 2026-12-07; not shipped)::

    PYTHONPATH=docs/experiments/probes belote eval coinche_by_hand:h40 normal --rules coinche --pairs 500 \
        --batched --seed 9201
"""
import numpy as np
from belote_env.actions import COINCHE
from belote_env.auction import new_auction
from belote_env.table import partner_of
from policies.coinche_bidding import defence_points, PARTNER_DEFENCE, _numeric
from policies.registry import make_policy


def hand_says_coinche(info, offset):
    if COINCHE not in info.legal_actions:
        return False
    high = new_auction(info.dealer, info.turned_card, info.rules, info.auction).highest
    if high is None or high[2] in (info.seat, partner_of(info.seat)):
        return False
    level, d, _ = high
    return defence_points(info.hand, d) + PARTNER_DEFENCE >= 172 - min(_numeric(level), 162) + offset


class CoincheByHand:
    def __init__(self, inner, offset):
        self.inner, self.offset, self.name = inner, offset, f"hard_coinche_hand{offset}"

    def act(self, info):
        return COINCHE if hand_says_coinche(info, self.offset) else self.inner.act(info)

    def act_batch(self, batch):
        actions = np.array(self.inner.act_batch(batch))
        for i in np.flatnonzero(batch.mask[:, COINCHE]):
            if hand_says_coinche(batch.infoset(int(i)), self.offset):
                actions[i] = COINCHE
        return actions

    def reseed(self, key):
        if hasattr(self.inner, "reseed"):
            self.inner.reseed(key)


def h0(): return CoincheByHand(make_policy("hard"), 0)
def h10(): return CoincheByHand(make_policy("hard"), 10)
def h20(): return CoincheByHand(make_policy("hard"), 20)
def h40(): return CoincheByHand(make_policy("hard"), 40)
def h60(): return CoincheByHand(make_policy("hard"), 60)
