"""Duplicate matches: the same shuffled deals played twice with the teams swapping seats.

Luck of the cards cancels: in each deal pair, policy A sits on seats {0, 2} and B on
{1, 3}, then the same deck (and the same redeal decks after eight passes) is played again
with A on {1, 3} and B on {0, 2}. A deal here is one *played* deal (RULES.md §3.4: eight
passes are redealt by the same dealer). Figures are per deal, with 95% intervals computed
over the independent deal pairs (normal approximation).
"""

from __future__ import annotations

import math
import random
from dataclasses import asdict, dataclass

from belote_env import GameState, Rules
from belote_env.actions import action_to_string
from policies.base import Policy, PolicyError

__all__ = ["MatchResult", "duplicate_match", "play_deal", "MAX_VOID_DEALS"]

MAX_VOID_DEALS = 100  # consecutive all-pass deals before a match is stopped


@dataclass(frozen=True)
class MatchResult:
    """Result of a duplicate match, from policy A's side.

    Attributes:
        pairs: deal pairs played (each pair = 2 deals).
        deals: deals played (``2 * pairs``).
        win_rate: fraction of deals A's team scored more points than B's (ties count 1/2).
        win_rate_ci: 95% interval of ``win_rate``.
        mean_diff: mean (A points - B points) per deal.
        mean_diff_ci: 95% interval of ``mean_diff``.
        a_taken, a_made: contracts A took / made; ``b_taken``, ``b_made`` likewise.
        void_deals: deals redealt after eight passes.
    """

    a: str
    b: str
    pairs: int
    deals: int
    win_rate: float
    win_rate_ci: tuple[float, float]
    mean_diff: float
    mean_diff_ci: tuple[float, float]
    a_taken: int
    a_made: int
    b_taken: int
    b_made: int
    void_deals: int
    seed: int

    def to_dict(self) -> dict:
        return asdict(self)

    def summary(self) -> str:
        lo, hi = self.win_rate_ci
        dlo, dhi = self.mean_diff_ci
        return (f"{self.a} vs {self.b}: {self.deals} deals ({self.pairs} mirrored pairs, seed {self.seed})\n"
                f"  deals won by {self.a}: {100 * self.win_rate:.1f}% (95% CI {100 * lo:.1f}-{100 * hi:.1f}%)\n"
                f"  mean point difference per deal: {self.mean_diff:+.1f} (95% CI {dlo:+.1f} to {dhi:+.1f})\n"
                f"  contracts taken/made: {self.a} {self.a_taken}/{self.a_made}, "
                f"{self.b} {self.b_taken}/{self.b_made}; void deals redealt: {self.void_deals}")


def play_deal(state: GameState, seat_policies: list[Policy]) -> int:
    """Play ``state`` until a deal is scored, redealing void deals (same dealer per the rules).

    Args:
        state: a fresh ``GameState`` (its rules should have ``target=None``).
        seat_policies: the policy of each seat 0..3.
    Returns:
        the number of void deals redealt.
    Raises:
        PolicyError: a policy raised or returned an illegal action (the message names
            the policy, the seat, the action and the deck / actions that reproduce it), or
            ``MAX_VOID_DEALS`` deals in a row were passed out.
    """
    voids = 0
    while True:
        while not state.is_deal_over:
            seat = state.current
            info = state.information_set(seat)
            pol = seat_policies[seat]
            try:
                action = pol.act(info)
            except Exception as e:
                raise PolicyError(f"policy {pol.name!r} raised at seat {seat}: {e!r}; "
                                  f"{_position(state)}") from e
            if action not in info.legal_actions:
                raise PolicyError(
                    f"policy {pol.name!r} returned illegal action {action!r} at seat {seat}; legal: "
                    f"{[f'{a}={action_to_string(a)}' for a in info.legal_actions]}; {_position(state)}")
            state.apply(int(action))
        if state.deal_score is not None:
            return voids
        voids += 1
        if voids >= MAX_VOID_DEALS:
            raise PolicyError(f"{MAX_VOID_DEALS} deals in a row were passed out by "
                              f"{sorted({p.name for p in seat_policies})}")
        state.next_deal()


def _position(state: GameState) -> str:
    return f"position: rules={state.rules.to_dict()}, dealer={state.dealer}, deck={list(state.deck)}, actions={state.actions}"


def _ci(values: list[float]) -> tuple[float, float, float]:
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, mean, mean
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = 1.96 * math.sqrt(var / n)
    return mean, mean - half, mean + half


def duplicate_match(policy_a: Policy, policy_b: Policy, pairs: int, seed: int = 0,
                    rules: Rules | None = None, progress: bool = False) -> MatchResult:
    """Play ``pairs`` mirrored deal pairs between two policies.

    Args:
        policy_a, policy_b: the two policies (each plays both seats of its team).
        pairs: number of deal pairs (int >= 1); ``2 * pairs`` deals are played.
        seed: seeds every deck (pair ``i`` uses ``random.Random(seed * 1_000_003 + i)``).
        rules: rule options; the match plays single deals (``target`` is set to None).
        progress: show a tqdm progress bar.
    Returns:
        a ``MatchResult`` from A's side.
    Raises:
        ValueError: ``pairs < 1``. PolicyError: see ``play_deal``.
    """
    if not isinstance(pairs, int) or pairs < 1:
        raise ValueError(f"pairs must be a positive int, got {pairs!r}")
    rules = (rules or Rules()).replace(target=None, max_deals=None)
    wins, diffs = [], []
    taken = [0, 0]
    made = [0, 0]
    voids = 0
    it = range(pairs)
    if progress:
        from tqdm import tqdm

        it = tqdm(it, desc=f"{policy_a.name} vs {policy_b.name}", unit="pair")
    for i in it:
        pair_win = pair_diff = 0.0
        for a_team in (0, 1):
            seats = [policy_a if s & 1 == a_team else policy_b for s in range(4)]
            state = GameState(rules, rng=random.Random(seed * 1_000_003 + i), dealer=i % 4)
            voids += play_deal(state, seats)
            score = state.deal_score
            d = score.difference(a_team)
            pair_diff += d / 2
            pair_win += (1.0 if d > 0 else 0.5 if d == 0 else 0.0) / 2
            who = 0 if score.taker_team == a_team else 1
            taken[who] += 1
            made[who] += score.outcome == "made"
        wins.append(pair_win)
        diffs.append(pair_diff)
    w, wlo, whi = _ci(wins)
    d, dlo, dhi = _ci(diffs)
    return MatchResult(
        a=policy_a.name, b=policy_b.name, pairs=pairs, deals=2 * pairs, win_rate=w,
        win_rate_ci=(max(0.0, wlo), min(1.0, whi)), mean_diff=d, mean_diff_ci=(dlo, dhi),
        a_taken=taken[0], a_made=made[0], b_taken=taken[1], b_made=made[1], void_deals=voids, seed=seed)
