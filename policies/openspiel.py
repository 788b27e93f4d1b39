"""OpenSpiel's information-set Monte-Carlo tree search as a policy (``belote eval``'s factory
``policies.openspiel:ismcts``), over the OpenSpiel game ``python_belote``
(``belote_env.openspiel``).

    belote eval policies.openspiel:ismcts normal --pairs 20 --seed 1

At each decision with a choice the policy builds a state of its information set
(``belote_env.openspiel.state_from_infoset``: the hidden cards drawn by the project's
resampler), and OpenSpiel's ``ISMCTSBot`` (UCT over information-state nodes, a world
redrawn for every simulation by ``belote_env.openspiel.resample``, random rollouts to the
deal's end, the deal's scaled point difference as value) picks the action. It reads only
the seat's ``InfoSet`` (RULES.md §11). Every table (classic, coinche, two and three seats);
in a game to a target it searches the current deal. Needs OpenSpiel (``pip install -e
".[openspiel]"``).
"""

from __future__ import annotations

import random

import numpy as np

from belote_env import InfoSet, Rules

__all__ = ["ISMCTSPolicy", "ismcts"]


class ISMCTSPolicy:
    """OpenSpiel's ``ISMCTSBot`` on ``python_belote`` (the module docstring).

    Args:
        simulations: simulations per decision (int >= 1).
        uct_c: the UCT exploration constant (values are scaled point differences, a deal's
            162 points 1.0; 500 in coinche).
        rollouts: random rollouts per leaf.
        seed: seed of the policy's ``random.Random`` (``rng``: the worlds and the search).
    Raises:
        ValueError: a bad argument.
    """

    def __init__(self, simulations: int = 100, uct_c: float = 2.0, rollouts: int = 1, seed: int = 0):
        for name, v in (("simulations", simulations), ("rollouts", rollouts)):
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise ValueError(f"{name} must be a positive int, got {v!r}")
        if not isinstance(uct_c, (int, float)) or not uct_c > 0:
            raise ValueError(f"uct_c must be a positive number, got {uct_c!r}")
        self.simulations, self.uct_c, self.rollouts = simulations, float(uct_c), rollouts
        self.rng = random.Random(seed)
        self.name = f"ismcts{simulations}"
        self._games: dict[Rules, object] = {}

    def _game(self, rules: Rules):
        from belote_env.openspiel import BeloteGame, params_of

        game = self._games.get(rules)
        if game is None:
            game = self._games[rules] = BeloteGame(params_of(rules, episode="deal", reward="scaled"))
        return game

    def act(self, info: InfoSet) -> int:
        """A legal action id for ``info.seat`` (the module docstring)."""
        legal = info.legal_actions
        if len(legal) == 1:
            return legal[0]
        from open_spiel.python.algorithms import ismcts, mcts

        from belote_env.openspiel import resample, state_from_infoset

        game = self._game(info.rules)
        root = state_from_infoset(game, info, self.rng)
        np_rng = np.random.RandomState(self.rng.getrandbits(32))
        bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(self.rollouts, np_rng), self.uct_c, self.simulations,
                               random_state=np_rng, allow_inconsistent_action_sets=True)
        bot.set_resampler(lambda state, player: resample(state, player, self.rng))
        action = int(bot.step(root))
        if action not in legal:  # ISMCTS returns a root action: legal by construction
            raise RuntimeError(f"{self.name} chose {action}, not among the legal {list(legal)}")
        return action


def ismcts() -> ISMCTSPolicy:
    """The factory ``belote eval`` imports (``policies.openspiel:ismcts``): 100 simulations."""
    return ISMCTSPolicy()
