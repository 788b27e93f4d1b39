"""Seating in one module: ``belote_env/table.py`` knows the seats; nothing else in
the packages writes seat arithmetic out.

(a) the table's facts, checked by hand, for the four-seat table of team Belote and for
tables of three and two seats (no fixed teams); (b) a scan of the source of
``belote_env/``, ``policies/`` and ``training/`` (syntax trees, so comments and docstrings
never count) for written-out seat arithmetic: ``% 4``, ``^ 2``, ``1 - team`` (``1 - ``
a name containing team / us / side), a bare ``range(4)``, ``& 3``, and ``& 1`` on a plain
name, attribute or subscript (a seat's team) -- a bit test such as ``mask >> c & 1`` is
allowed, and so is a line marked ``# not a seat`` (a hash bit, say).
"""

from __future__ import annotations

import ast
import dataclasses
import pathlib
import re

import pytest

from belote_env import table
from belote_env.table import (
    FOUR, NEXT_SEAT, NUM_SEATS, NUM_TEAMS, PARTNER, SEAT_NAMES, SEATS, TEAM_OF, TEAMS, Table, absolute_seat,
    eldest_of, next_seat, other_team, partner_of, relative_seat, seats_from, team_of, team_seats,
)

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGES = ("belote_env", "policies", "training")
ALLOWED = {"belote_env/table.py"}  # the one place that writes the arithmetic out
NOT_A_SEAT = "# not a seat"  # a line's own mark: its `& 1` / `% 4` is no seat arithmetic


# ----------------------------------------------------------------------------- (a) facts
def test_four_seat_table_by_hand():
    assert NUM_SEATS == 4 and FOUR.n_seats == 4 and NUM_TEAMS == 2
    assert list(SEATS) == [0, 1, 2, 3] and list(FOUR.seats) == [0, 1, 2, 3]
    assert SEAT_NAMES == ("South", "West", "North", "East") == FOUR.names
    # next seat: play passes to the left, 3 -> 0
    assert NEXT_SEAT == (1, 2, 3, 0) == FOUR.next
    assert [next_seat(s) for s in SEATS] == [1, 2, 3, 0]
    # eldest: the seat after the dealer
    assert [eldest_of(d) for d in SEATS] == [1, 2, 3, 0] == [FOUR.eldest(d) for d in SEATS]
    # relative seats: 0 me, 1 left-hand opponent, 2 partner, 3 right-hand opponent
    assert FOUR.relative == ((0, 1, 2, 3), (3, 0, 1, 2), (2, 3, 0, 1), (1, 2, 3, 0))
    assert relative_seat(0, 1) == 3 and relative_seat(3, 2) == 1 and relative_seat(1, 3) == 2
    assert relative_seat(2, 2) == 0 and relative_seat(0, 3) == 1
    assert absolute_seat(1, 3) == 0 and absolute_seat(2, 1) == 3 and absolute_seat(3, 2) == 1
    assert absolute_seat(0, 2) == 2 and FOUR.absolute(3, 0) == 3
    for me in SEATS:
        for s in SEATS:
            assert absolute_seat(relative_seat(s, me), me) == s
    # partners sit opposite; teams 0 = {0, 2}, 1 = {1, 3}
    assert [partner_of(s) for s in SEATS] == [2, 3, 0, 1] and PARTNER == (2, 3, 0, 1)
    assert [FOUR.partner(s) for s in SEATS] == [2, 3, 0, 1]
    assert TEAM_OF == (0, 1, 0, 1) == FOUR.team and [team_of(s) for s in SEATS] == [0, 1, 0, 1]
    assert TEAMS == ((0, 2), (1, 3)) and team_seats(0) == (0, 2) and team_seats(1) == (1, 3)
    assert other_team(0) == 1 and other_team(1) == 0
    # seats in playing order from a first seat
    assert seats_from(0) == (0, 1, 2, 3) and seats_from(2) == (2, 3, 0, 1) and seats_from(3) == (3, 0, 1, 2)
    assert FOUR.seats_from(1) == (1, 2, 3, 0)


def test_three_and_two_seat_tables_have_no_partners():
    t3 = Table(3, ("A", "B", "C"))
    assert list(t3.seats) == [0, 1, 2] and t3.names == ("A", "B", "C")
    assert t3.next == (1, 2, 0) and t3.eldest(2) == 0 and t3.eldest(0) == 1
    assert t3.relative == ((0, 1, 2), (2, 0, 1), (1, 2, 0))
    assert t3.absolute(2, 2) == 1 and t3.absolute(1, 0) == 1
    assert t3.seats_from(1) == (1, 2, 0) and t3.seats_from(2) == (2, 0, 1)
    assert t3.team == (-1, -1, -1) and [t3.partner(s) for s in t3.seats] == [None, None, None]
    t2 = Table(2, ("A", "B"))
    assert t2.next == (1, 0) and t2.eldest(1) == 0 and t2.relative == ((0, 1), (1, 0))
    assert t2.absolute(1, 1) == 0 and t2.seats_from(1) == (1, 0)
    assert [t2.partner(s) for s in t2.seats] == [None, None] and t2.team == (-1, -1)


@pytest.mark.parametrize("args", [
    (5, ("a", "b", "c", "d", "e")), (1, ("a",)), (4, ("a", "b", "c")), (4, ("a", "b", "c", "d"), ((0, 1), (1, 3))),
])
def test_bad_tables_are_refused(args):
    with pytest.raises(ValueError):
        Table(*args)


def test_engine_and_solver_use_the_table():
    from belote_env import game, render, solver
    from belote_env.actions import PASS, TAKE

    assert game.SEAT_NAMES is table.SEAT_NAMES and game.team_of is table.team_of
    assert game.partner_of is table.partner_of
    assert not hasattr(render, "_SEAT_NAMES")
    assert solver._NS == NUM_SEATS
    assert [[int(x) for x in row] for row in solver._AFTER] == [list(seats_from(s)) for s in SEATS]
    # the side that maximises is the taker's team (table.side): partners are one side, and
    # the two sides share the 162 card points of a whole deal
    st = game.GameState(seed=5, single_deal=True)
    while st.phase == 0:
        st.apply(TAKE if TAKE in st.legal_actions() else PASS)
    pos = solver.position_of(st)
    values = [solver.solve(dataclasses.replace(pos, taker=s)) for s in SEATS]
    assert values[0] == values[2] and values[1] == values[3] and values[0] + values[1] == 162


# ------------------------------------------------------------------------- (b) the scan
_SIDE = re.compile(r"team|side|(^|_)us($|_)", re.IGNORECASE)


def _name(node: ast.AST) -> str | None:
    """The name a plain name, attribute or subscript reads (``seat``, ``self.seat``,
    ``seats[0]``), else None."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Subscript):
        return _name(node.value)
    return None


def _is_const(node: ast.AST, value: int) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int and node.value == value


def seat_arithmetic(source: str) -> list[tuple[int, str]]:
    """``(line, what)`` for each piece of written-out seat arithmetic in ``source``
    (parsed: comments and docstrings are not code and never match); a line that carries
    the comment ``# not a seat`` is skipped."""
    lines = source.splitlines()
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.BinOp):
            left, op, right = node.left, node.op, node.right
        elif isinstance(node, ast.AugAssign):
            left, op, right = node.target, node.op, node.value
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "range"
              and len(node.args) == 1 and not node.keywords and _is_const(node.args[0], 4)):
            found.append((node.lineno, "range(4)"))
            continue
        else:
            continue
        what = None
        if isinstance(op, ast.Mod) and _is_const(right, 4):
            what = "% 4"
        elif isinstance(op, ast.BitXor) and (_is_const(right, 2) or _is_const(left, 2)):
            what = "^ 2"
        elif isinstance(op, ast.BitAnd) and _is_const(right, 3):
            what = "& 3"
        elif isinstance(op, ast.BitAnd) and _is_const(right, 1) and _name(left) is not None:
            what = "& 1"  # a seat's team; (mask >> i) & 1 has a shift on the left
        elif isinstance(op, ast.Sub) and _is_const(left, 1) and _SIDE.search(_name(right) or ""):
            what = "1 - team"
        if what and NOT_A_SEAT not in lines[node.lineno - 1]:
            found.append((node.lineno, what))
    return sorted(found)


def _offences() -> list[str]:
    out = []
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel in ALLOWED:
                continue
            lines = path.read_text(encoding="utf-8").splitlines()
            for line, what in seat_arithmetic(path.read_text(encoding="utf-8")):
                out.append(f"{rel}:{line}: {what}: {lines[line - 1].strip()}")
    return out


def test_scanner_flags_seat_arithmetic_and_spares_bit_tests():
    src = '''
"""A docstring: (seat + 1) % 4, seat ^ 2, 1 - team, range(4), seat & 1."""
# a comment: (seat - me) % 4
a = (seat + 1) % 4
b = seat ^ 2
c = 1 - team
d = 1 - self.us
e = range(4)
f = seat & 1
g = self.taker & 1
h = tricks[-1][2] & 1
i = (leader + p) & 3
x %= 4
ok1 = mask >> c & 1
ok2 = (m >> i) & 1
ok3 = range(4, 8)
ok4 = 1 - rate
ok5 = n % 8
ok6 = range(NUM_SEATS)
ok7 = "(seat - me) % 4"
ok8 = h & 1  # not a seat: a hash bit
'''
    assert seat_arithmetic(src) == [(4, "% 4"), (5, "^ 2"), (6, "1 - team"), (7, "1 - team"), (8, "range(4)"),
                                    (9, "& 1"), (10, "& 1"), (11, "& 1"), (12, "& 3"), (13, "% 4")]


def test_no_seat_arithmetic_outside_the_table():
    offences = _offences()
    assert not offences, "seat arithmetic written out (use belote_env/table.py):\n" + "\n".join(offences)
