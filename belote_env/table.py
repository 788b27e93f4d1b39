"""Seats and sides of a Belote table: the one place that knows how seats relate (RULES.md §2).

Seats are numbered 0..n-1 in playing order (play passes to the next seat, "to the left").
Every other module asks this one for the next seat, a seat relative to another, the
partner, the sides of a deal, the eldest and the seat names; none writes that arithmetic
out. ``FOUR`` is the four-player table of team Belote: partners sit opposite (seats 0 and
2 against 1 and 3), seats named South, West, North, East.

The module-level names (``NUM_SEATS``, ``SEATS``, ``next_seat``, ``team_of``, ...) are
``FOUR``'s, for the four-seat engine and its callers; they are plain tuples and small
functions so the hot paths stay as fast as inline arithmetic. A table of another size (the
two- and three-player games of TWO_THREE.md) is another ``Table``.

Pure Python.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Table", "FOUR", "TWO", "THREE", "table_of", "NUM_SEATS", "NUM_TEAMS", "SEATS", "TEAMS", "SEAT_NAMES", "NEXT_SEAT", "TEAM_OF",
           "PARTNER", "PARTNER_REL", "next_seat", "team_of", "partner_of", "other_team", "relative_seat", "absolute_seat",
           "eldest_of", "seats_from", "team_seats", "sides_of_deal", "is_seat"]


@dataclass(frozen=True)
class Table:
    """The seats of a table and who plays with whom.

    Args:
        n_seats: number of seats (2, 3 or 4), numbered 0..n-1 in playing order.
        names: a name per seat.
        teams: the fixed partnerships, each a tuple of seats (``()`` when every seat plays
            for itself, as in the two- and three-player games where the sides of a deal
            are the taker against the rest).

    Raises:
        ValueError: a size outside 2..4, names or teams that do not fit the seats.
    """

    n_seats: int
    names: tuple[str, ...]
    teams: tuple[tuple[int, ...], ...] = ()
    #: ``next[s]``: the seat that plays after ``s``.
    next: tuple[int, ...] = field(init=False, repr=False)
    #: ``team[s]``: the index in ``teams`` of ``s``'s team (-1 without teams).
    team: tuple[int, ...] = field(init=False, repr=False)
    #: ``relative[me][s]``: ``s`` counted from ``me`` in playing order (0 is ``me``).
    relative: tuple[tuple[int, ...], ...] = field(init=False, repr=False)
    #: ``side[s]``: the index of the score ``s`` plays for: its team, or ``s`` itself
    #: without teams (TWO_THREE.md §2.9).
    side: tuple[int, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        n = self.n_seats
        if type(n) is not int or not 2 <= n <= 4:
            raise ValueError(f"a table has 2, 3 or 4 seats, got {n!r}")
        if len(self.names) != n:
            raise ValueError(f"a table of {n} seats needs {n} seat names, got {self.names!r}")
        seen = sorted(s for t in self.teams for s in t)
        if self.teams and seen != list(range(n)):
            raise ValueError(f"teams must cover seats 0..{n - 1} once each, got {self.teams!r}")
        object.__setattr__(self, "next", tuple((s + 1) % n for s in range(n)))
        team = [-1] * n
        for i, t in enumerate(self.teams):
            for s in t:
                team[s] = i
        object.__setattr__(self, "team", tuple(team))
        object.__setattr__(self, "side", tuple(team) if self.teams else tuple(range(n)))
        object.__setattr__(self, "relative", tuple(tuple((s - me) % n for s in range(n)) for me in range(n)))

    @property
    def seats(self) -> range:
        """Every seat, in playing order from seat 0."""
        return range(self.n_seats)

    def seats_from(self, first: int) -> tuple[int, ...]:
        """Every seat in playing order starting at ``first``."""
        return tuple((first + i) % self.n_seats for i in range(self.n_seats))

    def absolute(self, rel: int, me: int) -> int:
        """The seat ``rel`` places after ``me`` in playing order (inverse of ``relative``)."""
        return (me + rel) % self.n_seats

    def eldest(self, dealer: int) -> int:
        """The seat after the dealer: first to receive cards, to bid and to lead (§3)."""
        return self.next[dealer]

    def sides(self, taker: int) -> tuple[int, ...]:
        """The side of each seat in a deal taken by ``taker``: with fixed teams, each seat's
        team index; without (the three-player game), 0 for the taker alone and 1 for the
        other seats (TWO_THREE.md: the taker plays against the two others)."""
        if self.teams:
            return self.team
        return tuple(0 if s == taker else 1 for s in range(self.n_seats))

    def partner(self, seat: int) -> int | None:
        """``seat``'s partner on a four-seat table (``None`` without fixed teams of two)."""
        t = self.team[seat]
        if t < 0 or len(self.teams[t]) != 2:
            return None
        a, b = self.teams[t]
        return b if seat == a else a


#: The four-player table of team Belote (RULES.md §2).
FOUR = Table(4, ("South", "West", "North", "East"), ((0, 2), (1, 3)))
#: The two-player table (TWO_THREE.md §2.1): each seat plays for itself.
TWO = Table(2, ("South", "North"))
#: The three-player table (TWO_THREE.md §3): each seat keeps its own score; in each deal
#: the taker plays alone against the other two (``Table.sides``).
THREE = Table(3, ("South", "West", "East"))
_TABLES = {2: TWO, 3: THREE, 4: FOUR}


def table_of(players: int) -> Table:
    """The table of ``players`` seats (2, 3 or 4; ``Rules.players``). Raises ``ValueError``
    for another count."""
    try:
        return _TABLES[players]
    except (KeyError, TypeError):
        raise ValueError(f"a table has 2, 3 or 4 seats, got {players!r}") from None

NUM_SEATS = FOUR.n_seats
NUM_TEAMS = len(FOUR.teams)
SEATS = FOUR.seats
TEAMS = FOUR.teams
SEAT_NAMES = FOUR.names
NEXT_SEAT = FOUR.next
TEAM_OF = FOUR.team
PARTNER = tuple(FOUR.partner(s) for s in SEATS)
#: The partner counted from a seat in playing order (2: opposite), so in a trick the
#: partner's card lies ``PARTNER_REL`` places before the card about to be played.
PARTNER_REL = FOUR.relative[0][PARTNER[0]]
_RELATIVE = FOUR.relative


def is_seat(x, n: int = NUM_SEATS) -> bool:
    """Whether ``x`` is a seat 0..n-1: an int or a numpy integer, not a bool nor a float
    (``1.0 in range(4)`` is true in Python, and a float seat fails later as an index)."""
    return not isinstance(x, bool) and hasattr(x, "__index__") and 0 <= x.__index__() < n


def next_seat(seat: int) -> int:
    """The seat that plays after ``seat``."""
    return NEXT_SEAT[seat]


def team_of(seat: int) -> int:
    """``seat``'s team: 0 for seats 0 and 2, 1 for seats 1 and 3."""
    return TEAM_OF[seat]


def partner_of(seat: int) -> int:
    """The partner sitting opposite ``seat``."""
    return PARTNER[seat]


def other_team(team: int) -> int:
    """The other team of the four-seat table."""
    return 1 - team


def relative_seat(seat: int, me: int) -> int:
    """``seat`` counted from ``me`` in playing order: 0 me, 1 the next seat (left-hand
    opponent), 2 partner, 3 right-hand opponent."""
    return _RELATIVE[me][seat]


def absolute_seat(rel: int, me: int) -> int:
    """The seat ``rel`` places after ``me`` (inverse of ``relative_seat``)."""
    return (me + rel) % NUM_SEATS


def eldest_of(dealer: int) -> int:
    """The seat after ``dealer``."""
    return NEXT_SEAT[dealer]


def seats_from(first: int) -> tuple[int, ...]:
    """The four seats in playing order starting at ``first``."""
    return _FROM[first]


def sides_of_deal(taker: int) -> tuple[int, ...]:
    """The side of each seat in a deal taken by ``taker`` (``FOUR``: the teams)."""
    return FOUR.sides(taker)


def team_seats(team: int) -> tuple[int, ...]:
    """The seats of ``team``."""
    return TEAMS[team]


_FROM = tuple(FOUR.seats_from(s) for s in SEATS)
