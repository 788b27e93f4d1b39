import random

import pytest

from belote_env import GameState, Rules


def play_random_deal(state: GameState, rng: random.Random) -> None:
    """Play random legal actions until the current deal is over."""
    while not state.is_deal_over:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])


@pytest.fixture
def rules() -> Rules:
    return Rules()
