"""The ``expert`` tier at two- and three-seat tables (TWO_THREE.md): card play
by determinized sampling with the exact double-dummy solver of ``belote_env.small_solver``.

At each card decision with more than one legal card, ``samples`` deals of the hidden cards
are drawn uniformly among those consistent with the information set
(``sampling.sample_small_hands``: voids shown by the play, the exchanged turned card, the
scoring combination's cards, hand sizes; the unused face-down cards and the taker's
discards form one more location). Each deal is solved exactly for every legal card
(``small_card_values``: the maker's card points with both sides playing perfectly; at
three seats the two defenders share the side's value), and each value is turned into the
deal's recorded points (``scoring.score_small_deal`` of the totals: card points so far,
the solved rest, the scoring combinations, belote) and then into the acting seat's margin
(its points less the mean of the others'). The card with the best mean margin is played,
ties to the lowest id. A three-seat deal is searched exactly only once at most
``exact_cards`` cards are left in the hands (a first-trick solve takes seconds in pure
Python); before that, and at every other decision (bidding, the seven exchange, the
combinations protocol, belote claims: always claimed), the ``base`` policy decides
(default: the ``normal`` tier).
"""

from __future__ import annotations

import random

from belote_env.actions import ANNOUNCE_BELOTE
from belote_env.cards import POINTS_BY_ALL_TRUMP_OPTION, Rank, card, cards_of
from belote_env.declarations import small_combinations
from belote_env.sampling import sample_small_hands
from belote_env.scoring import score_small_deal
from belote_env.small_game import BELOTE, LAST_TRICK, STEPS
from belote_env.small_solver import SmallPosition, small_card_values

__all__ = ["SmallSearchPolicy", "deal_margin"]

_POINTS = POINTS_BY_ALL_TRUMP_OPTION["pagat"]


class SmallSearchPolicy:
    """The expert's search at two and three seats (see the module docstring).

    Args:
        seed: seed of the policy's own ``random.Random``.
        samples: hidden-card deals per card decision (int >= 1).
        exact_cards: at three seats, search once at most this many cards are left in the
            hands (int >= 3); earlier card decisions are the base policy's.
        base: the policy of the decisions the search does not cover (default ``normal``).
    Raises:
        ValueError: ``samples`` < 1 or ``exact_cards`` < 3.
    """

    name = "expert"

    def __init__(self, seed: int | None = None, samples: int = 12, exact_cards: int = 18, base=None):
        if type(samples) is not int or samples < 1:
            raise ValueError(f"samples must be an int >= 1, got {samples!r}")
        if type(exact_cards) is not int or exact_cards < 3:
            raise ValueError(f"exact_cards must be an int >= 3, got {exact_cards!r}")
        self.rng = random.Random(seed)
        self.samples = samples
        self.exact_cards = exact_cards
        if base is None:
            from .normal import NormalPolicy

            base = NormalPolicy(seed)
        self.base = base
        self.last_values: dict[int, float] = {}

    def reseed(self, key: str) -> None:
        """Reseed ``rng`` and the base policy from ``key`` (``policies.base.reseed``)."""
        from .base import reseed_nested

        reseed_nested(self, key, ("base",))

    def act(self, info) -> int:
        """A legal action id for ``info.seat`` (a ``small_game.SmallInfoSet``)."""
        legal = info.legal_actions
        self.last_values = {}
        if len(legal) == 1:
            return legal[0]
        if info.phase != 1 or STEPS[info.step] != "cards":
            return self.base.act(info)
        if ANNOUNCE_BELOTE in legal:
            return ANNOUNCE_BELOTE  # belote is worth 20 and the claim reveals nothing new
        left = sum(info.hand_sizes)
        if info.players == 3 and left > self.exact_cards:
            return self.base.act(info)
        cards = [a for a in legal if a < 32]
        totals = {c: 0.0 for c in cards}
        for _ in range(self.samples):
            hands = sample_small_hands(info, self.rng)
            pos = SmallPosition(tuple(hands), tuple(info.trick), info.trick_leader, info.trump, info.maker, info.rules)
            values = small_card_values(pos)
            for c in cards:
                totals[c] += self._margin(info, hands, values[c])
        self.last_values = {c: v / self.samples for c, v in totals.items()}
        return max(cards, key=lambda c: (totals[c], -c))

    def _margin(self, info, hands: list[int], maker_rest: int) -> float:
        """The acting seat's recorded-points margin in a sampled deal (``deal_margin``)."""
        return deal_margin(info, hands, maker_rest)


def deal_margin(info, hands, maker_rest: int) -> float:
    """The recorded-points margin of ``info.seat`` (``SmallDealScore.difference``: its
    points less the mean of the others') in a deal whose remaining cards are ``hands``
    (per seat its card mask: a sampled deal, or the true hands) and where the maker wins
    ``maker_rest`` more card points from ``info``'s position on (the last trick's 10
    included; ``small_card_values`` / ``small_solve``). The deal's totals are the card
    points so far (``info.card_points``), the rest (the maker's ``maker_rest``, the
    defenders sharing the others evenly: the solver values their side), the scoring
    combinations (``info.decl_winner``'s ``decl_cards``) and belote (20 to the seat whose
    hand held the K+Q of trumps, claimed or not); the capot bonus is not counted. They
    are scored by ``scoring.score_small_deal`` (the reserve of ``info.reserve``). The one
    place a maker card-point value becomes a seat's margin: the expert's search
    (``SmallSearchPolicy``) and the oracle labels (``training.oracle``) use it."""
    n, maker, trump = info.players, info.maker, info.trump
    pts = _POINTS[trump]
    out_rest = sum(pts[c] for h in hands for c in cards_of(h)) + sum(pts[c] for c in info.trick) + LAST_TRICK
    totals = list(info.card_points)
    others_rest = out_rest - maker_rest
    totals[maker] += maker_rest
    defenders = [s for s in range(n) if s != maker]
    # the defenders' share of the rest: split evenly (the solver values the side)
    for s in defenders:
        totals[s] += others_rest / len(defenders)
    if info.decl_winner >= 0:
        totals[info.decl_winner] += sum(d.points for d in small_combinations(info.decl_cards, trump, info.rules))
    k, q = card(Rank.KING, trump), card(Rank.QUEEN, trump)
    for s in range(n):
        held = hands[s] | info.played_by[s]
        if held >> k & 1 and held >> q & 1:
            totals[s] += BELOTE
    ints = [int(round(t)) for t in totals]
    score = score_small_deal(maker, ints, info.rules, info.reserve)
    return score.difference(info.seat)
