"""Deal the cards a seat cannot see, consistently with everything public (RULES.md §11).

``sample_hidden_hands(info, rng)`` draws, uniformly among all deals of the hidden cards
that respect ``inference.public_constraints`` (voids, trump limits, belote and declaration
reveals, the turned card with the taker, hand sizes), one assignment of every hidden card
to a seat (or, while bidding, to the stock). It is exact: the number of completions is
counted with integer dynamic programming over groups of cards that share the same set of
possible holders, and each group's split is drawn with its exact weight, so a position
with a single consistent deal always yields that deal, and nothing ever retries blindly.

With declarations on, a seat's declarations also reveal that its first-trick hand held no
better partition (and, in ``auto`` mode, that a silent seat held none); those non-local
checks are applied by rejection over the exact sampler, with a bounded number of draws
(``max_tries``), after which ``SamplingError`` is raised rather than looping.

Pure Python (no numpy).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from math import factorial

from .cards import cards_of
from .declarations import best_declarations
from .deprecation import deprecated_names
from .games import game_of
from .inference import Constraints, public_constraints
from .infoset import InfoSet
from .table import SEATS, seats_from

__all__ = ["HiddenDeal", "HiddenHandSampler", "SamplingError", "sample_hidden_hands", "count_hidden_deals", "world_deck"]


class SamplingError(RuntimeError):
    """No consistent deal exists, or none was found within ``max_tries`` (declarations)."""


@dataclass(frozen=True)
class HiddenDeal:
    """One completion of an information set.

    Attributes:
        hands: per seat 0..n-1, the 32-bit mask of the cards it holds now (the viewer's own
            hand included, unchanged).
        stock: mask of the stock's hidden cards while bidding (0 afterwards); the turned
            card is not included. Two and three seats (TWO_THREE.md §5): the hidden cards
            nobody holds (the unused face-down cards, another seat's discards).
    """

    hands: tuple[int, ...]
    stock: int


def _groups(c: Constraints) -> tuple[list[tuple[int, tuple[int, ...]]], list[int]]:
    """Free hidden cards grouped by the tuple of locations that may hold them, and the
    capacity of each location once its known cards are placed."""
    every = range(len(c.sizes))  # LOCATIONS at four seats; the seats and the unused cards at two and three
    locs = [loc for loc in every if c.sizes[loc] > 0]
    free = c.hidden
    caps = [0] * len(every)
    for loc in every:
        free &= ~c.known[loc]
        caps[loc] = c.sizes[loc] - c.known[loc].bit_count()
        if caps[loc] < 0:
            raise SamplingError(f"location {loc} holds more known cards than its hand size")
    groups: dict[tuple[int, ...], int] = {}
    for x in cards_of(free):
        allowed = tuple(loc for loc in locs if not c.cannot[loc] >> x & 1)
        if not allowed:
            raise SamplingError(f"no seat can hold hidden card {x}: inconsistent information set")
        groups[allowed] = groups.get(allowed, 0) | (1 << x)
    return sorted(groups.items()), caps


def _splits(n: int, k: int):
    """All ways to write n as an ordered sum of k non-negative ints."""
    if k == 1:
        yield (n,)
        return
    for first in range(n + 1):
        for rest in _splits(n - first, k - 1):
            yield (first,) + rest


def _split_weights(n: int, allowed: tuple[int, ...], caps_t: tuple[int, ...]):
    """Yield ``(split, ways, caps after)`` for every way to place ``n`` distinct cards on the
    ``allowed`` locations within the capacities ``caps_t``; ``ways`` is the multinomial."""
    for split in _splits(n, len(allowed)):
        if any(split[j] > caps_t[loc] for j, loc in enumerate(allowed)):
            continue
        ways = factorial(n)
        nxt = list(caps_t)
        for j, loc in enumerate(allowed):
            ways //= factorial(split[j])
            nxt[loc] -= split[j]
        yield split, ways, tuple(nxt)


def _counter(groups, caps):
    sizes = [mask.bit_count() for _, mask in groups]

    @lru_cache(maxsize=None)
    def count(i: int, caps_t: tuple[int, ...]) -> int:
        if i == len(groups):
            return 1 if not any(caps_t) else 0
        return sum(ways * count(i + 1, nxt) for _, ways, nxt in _split_weights(sizes[i], groups[i][0], caps_t))

    return count


def count_hidden_deals(info: InfoSet) -> int:
    """Number of assignments of the hidden cards consistent with the local constraints
    (exact integer; declaration-partition checks excluded)."""
    return _Drawer(public_constraints(info)).total


class _Drawer:
    """The exact counts of one set of constraints, computed once and kept for every draw:
    per card group and remaining capacities, each split's weight (ways x completions)."""

    def __init__(self, c: Constraints):
        self.known = c.known
        self.groups, caps = _groups(c)
        self.count = _counter(self.groups, caps)
        self.caps = tuple(caps)
        self.total = self.count(0, self.caps)
        self.cards = [cards_of(mask) for _, mask in self.groups]
        self._splits: dict[tuple[int, tuple[int, ...]], list[tuple[tuple[int, ...], int, tuple[int, ...]]]] = {}

    def splits(self, i: int, caps_t: tuple[int, ...]) -> list[tuple[tuple[int, ...], int, tuple[int, ...]]]:
        key = (i, caps_t)
        out = self._splits.get(key)
        if out is None:
            allowed, mask = self.groups[i]
            out = self._splits[key] = [(split, ways * self.count(i + 1, nxt), nxt)
                                       for split, ways, nxt in _split_weights(mask.bit_count(), allowed, caps_t)]
        return out

    def draw(self, rng: random.Random) -> list[int]:
        if self.total == 0:
            raise SamplingError("no deal of the hidden cards is consistent with this information set")
        hands = list(self.known)
        caps_t, total = self.caps, self.total
        for i, (allowed, _) in enumerate(self.groups):
            x = rng.randrange(total)
            for split, w, nxt in self.splits(i, caps_t):
                if x < w:
                    break
                x -= w
            cards = list(self.cards[i])
            rng.shuffle(cards)
            pos = 0
            for j, loc in enumerate(allowed):
                for card_id in cards[pos:pos + split[j]]:
                    hands[loc] |= 1 << card_id
                pos += split[j]
            caps_t = nxt
            total = self.count(i + 1, caps_t)
        return hands


def _declarations_consistent(info: InfoSet, hands: list[int]) -> bool:
    mode = info.rules.declarations
    if mode == "off" or info.denomination < 0:
        return True
    first_trick = info.tricks[0] if info.tricks else (info.trick_leader, info.trick, -1)
    leader, cards, _ = first_trick
    for seat in seats_from(leader)[:len(cards)]:
        if seat == info.seat:
            continue
        declared = info.declared[seat]
        if mode == "choice" and not declared:
            continue  # declining reveals nothing
        hand8 = hands[seat] | info.played_by[seat]
        if tuple(best_declarations(hand8, info.denomination, info.rules)) != tuple(declared):
            return False
    return True


def _combinations_consistent(info: InfoSet, hands: list[int]) -> bool:
    """Two and three seats (TWO_THREE.md §2.6): each other seat's announced combination
    value (its points; and the top card and trump flag a tie showed) is that of its best combination
    in the hand it held when combinations were announced (its cards now and those it has
    played since), the scoring seat's combinations are the cards it showed, the announced
    combinations give the public winner and the top cards shown; under
    ``declarations="auto"``, once they are settled, a seat that announced nothing holds
    no combination."""
    from .declarations import combinations_of, combination_key, combination_winner, ties_shown
    from .game import STEPS

    rules = info.rules
    if rules.declarations == "off" or info.denomination < 0:
        return True
    n = len(info.hand_sizes)
    combos_of: dict[int, tuple] = {}

    def combos(seat: int) -> tuple:
        """The seat's combinations in the hand it held when they were announced (once a world)."""
        if seat not in combos_of:
            combos_of[seat] = combinations_of(hands[seat] | info.played_by[seat], info.denomination, rules)
        return combos_of[seat]

    settled = info.decl_winner != -2 and info.phase >= 1 and info.step == STEPS.index("cards")
    for seat in range(n):
        if seat == info.seat:
            continue
        value, top, trump = info.declared[seat]
        if value == 0 and not (settled and rules.declarations == "auto"):
            continue  # nothing announced (yet), or declined: nothing shown
        held = combos(seat)
        if not held:
            if value:
                return False
            continue
        if not value:
            return False
        k = combination_key(held[0], info.denomination, rules)
        if held[0].points != value or (top != -1 and (k[-2], k[-1]) != (top, trump)):
            return False
        if seat == info.decl_winner:  # the scoring seat showed every combination it holds
            shown = 0
            for d in held:
                shown |= d.cards
            if shown != info.decl_cards:
                return False
    if info.decl_winner != -2:  # compared: the announced combinations give the public outcome
        # and the top cards shown (``GameState._resolve_declarations``). Implied by the values
        # under "value_then_top", not under "length_then_top": a four- and a five-card run
        # both announce 50.
        announced = [combos(s) if info.declared[s][0] else () for s in range(n)]
        if combination_winner(announced, info.denomination, rules) != (
                None if info.decl_winner == -1 else info.decl_winner):
            return False
        shown_tops = ties_shown({s: combination_key(c[0], info.denomination, rules)
                                 for s, c in enumerate(announced) if c})
        if any((info.declared[s][1] != -1) != (s in shown_tops) for s in range(n) if announced[s]):
            return False
    return True


class HiddenHandSampler:
    """Draws of the hidden cards of one information set (``sample_hidden_hands``, RULES.md
    §11), with the exact counts computed once for all of them: each ``draw`` gives the
    same deal, from the same random numbers, as ``sample_hidden_hands(info, rng)`` would.

    Args:
        info: the viewer's information set.
        max_tries: bound on each draw's declaration-consistency rejection loop.
    Raises:
        SamplingError: (``draw``) no consistent deal exists, or (declarations on) none
            passed the declaration checks within ``max_tries`` draws.
    """

    def __init__(self, info: InfoSet, max_tries: int = 10_000):
        self.info, self.max_tries = info, max_tries
        self._drawer: _Drawer | None = None
        # declarations made with the first card, or combinations announced as a step (Game.play_protocol)
        self._check = (_declarations_consistent if game_of(info.rules).play_protocol == "team"
                       else _combinations_consistent)

    def draw(self, rng: random.Random) -> HiddenDeal:
        """One deal of the hidden cards; ``rng`` (the caller's ``random.Random``) is advanced."""
        if self._drawer is None:
            self._drawer = _Drawer(public_constraints(self.info))
        info = self.info
        n = len(info.hand_sizes)  # the seats; location n: the stock / the cards nobody holds
        for _ in range(self.max_tries):
            hands = self._drawer.draw(rng)
            hands[info.seat] = info.hand
            if self._check(info, hands):
                return HiddenDeal(tuple(hands[:n]), hands[n])
        raise SamplingError(f"no deal consistent with the declarations found in {self.max_tries} draws")


def sample_hidden_hands(info: InfoSet, rng: random.Random, max_tries: int = 10_000) -> HiddenDeal:
    """Draw one deal of the hidden cards consistent with ``info`` (see the module docstring).
    For many draws of one information set, ``HiddenHandSampler`` computes the counts once.

    Args:
        info: the viewer's information set.
        rng: a ``random.Random`` (the caller's; it is advanced).
        max_tries: bound on the declaration-consistency rejection loop.
    Returns:
        a ``HiddenDeal``.
    Raises:
        SamplingError: no consistent deal exists, or (declarations on) none passed the
            declaration checks within ``max_tries`` draws.
    """
    return HiddenHandSampler(info, max_tries).draw(rng)


def world_deck(info: InfoSet, hidden: HiddenDeal, rng: random.Random) -> list[int]:
    """The deck (32 card ids in ``GameState``'s and ``BatchedGame.deal``'s order) that deals
    a drawn four-seat deal around ``info``'s seat: each seat's cards now (``hidden.hands``)
    and those it played. While bidding: the 5-card hands, the turned card and the drawn
    stock, each hand's order and the stock's drawn from ``rng`` (RULES.md §3.1); after the
    auction the 8-card hands, the turned card in the taker's (§3.5); coinche: the 8-card
    hands are the deal (COINCHE.md §2). Two and three seats have their own layouts
    (``openspiel.state_from_infoset``). Raises ``dealing.DealError`` for hands that are not
    a deal of ``info`` (not four seats, cards missing or repeated)."""
    from .dealing import deck_for_final_hands, deck_from_full_hands, deck_from_hands

    if info.rules.contract_mode == "coinche":
        return deck_from_full_hands([hidden.hands[s] | info.played_by[s] for s in SEATS], info.dealer)
    if info.taker < 0:
        hands = [cards_of(h) for h in hidden.hands]
        for h in hands:
            rng.shuffle(h)
        stock = cards_of(hidden.stock)
        rng.shuffle(stock)
        return deck_from_hands(hands, info.turned_card, stock, info.dealer)
    return deck_for_final_hands([hidden.hands[s] | info.played_by[s] for s in SEATS], info.turned_card, info.taker,
                                info.dealer)


__getattr__ = deprecated_names(__name__, {
    "small_constraints": ("inference.public_constraints (every table)", lambda: public_constraints),
    "sample_small_hands": ("list(sampling.sample_hidden_hands(info, rng).hands) (every table)",
                           lambda: _hands_list)})


def _hands_list(info, rng: random.Random) -> list[int]:
    return list(sample_hidden_hands(info, rng).hands)
