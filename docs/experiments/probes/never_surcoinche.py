"""The coinche hard with its surcoinches played as passes: the control of the eleventh
session's surcoinche measurement (docs/results.md, 2026-12-07).

    PYTHONPATH=docs/experiments/probes belote eval never_surcoinche:hard_never_surcoinche normal \
        --rules coinche --pairs 2000 --batched --seed 7601
"""

import numpy as np

from belote_env.actions import PASS, SURCOINCHE
from policies.registry import make_policy


class NeverSurcoinche:
    """``inner``'s actions, a surcoinche replaced by a pass (one row or a batch)."""

    def __init__(self, inner):
        self.inner, self.name = inner, "hard_never_surcoinche"

    def act(self, info) -> int:
        action = self.inner.act(info)
        return PASS if action == SURCOINCHE else action

    def act_batch(self, batch) -> np.ndarray:
        actions = np.array(self.inner.act_batch(batch))
        actions[actions == SURCOINCHE] = PASS
        return actions

    def reseed(self, key) -> None:
        if hasattr(self.inner, "reseed"):
            self.inner.reseed(key)


def hard_never_surcoinche() -> NeverSurcoinche:
    return NeverSurcoinche(make_policy("hard"))
