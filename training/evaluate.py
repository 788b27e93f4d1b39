"""Duplicate matches: the same shuffled deals played under every seating of a set.

Luck of the cards cancels: a duplicate *set* plays the same decks (the k-th deck of every
seating comes from the same seeded shuffle) under every seating of ``SET_SEATINGS``. At
four seats a set is a mirrored *pair*: policy A sits on seats {0, 2} and B on {1, 3}, then
A on {1, 3} and B on {0, 2}; at two seats the seats are swapped, at three seats the 3
rotations of A B B and the 3 of A A B (TWO_THREE.md), so each tier sits in every seat 3
times and alone / paired equally. ``mode="deal"`` plays one *played* deal per seating
(eight passes are redealt, RULES.md §3.4); ``mode="game"`` plays whole games to the rules'
target (RULES.md §8). Intervals are 95% intervals over the independent sets. Work is
split over processes by set; every set's decks and every policy's random numbers are
seeded from (seed, set, seating), so the result does not depend on the number of
workers. A four-seat match reports team figures (``MatchResult``), a two- or three-seat
one per tier and seat role (``SetMatchResult``)."""

from __future__ import annotations

import functools
import json
import math
import multiprocessing
import os
import random
import sys
import tempfile
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from collections import namedtuple
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from belote_env.games import game_of
from belote_env import GameState, InfoSet, Rules
from belote_env import driver
from belote_env.actions import action_to_string
from belote_env.config import stored_rules_as_read
from belote_env.contract import COINCHE_LEVEL
from belote_env.deprecation import deprecated_names
from belote_env.driver import MAX_VOID_DEALS, VoidDealsError
from belote_env.game import dealer_after
from belote_env.jsonfile import DataFileError, parse_json
from belote_env.records import game_record, write_record
from belote_env.table import other_team
from policies.base import Policy, PolicyError, reseed

__all__ = ["MatchResult", "duplicate_match", "mean_ci", "play_deal", "play_game", "checked_action", "match_deck", "MAX_VOID_DEALS",
           "PolicyFailure", "use_one_torch_thread", "exit_with_parent", "init_worker", "MAX_PAIRS", "MAX_DEAL_POINTS",
           "MAX_CHUNK_SECONDS", "MAX_DEAL_DECISIONS", "BATCH_TABLES", "SetMatchResult", "SET_SEATINGS",
           "SET_POSITIONS", "set_deck"]

# MAX_VOID_DEALS (consecutive all-pass deals before a match is stopped) is belote_env.driver's.
#: Most mirrored pairs a match plays (``pairs``): 20 million deals, days of play for the
#: fastest tiers; more is refused before anything is built.
MAX_PAIRS = 10_000_000
#: The most worker processes of a match (``workers``).
MAX_WORKERS = 256
#: Bound on a pair's mean point difference per deal read from a pairs log: more than any
#: deal's score under any rules here (the largest, a coinche généralé of up to 1000
#: surcoinched four times, its card points, declarations and belote multiplied too, stays
#: well below it; a litige reserve only moves points between deals).
MAX_DEAL_POINTS = 10_000
#: Bound on each side's decision time in a pairs-log chunk (seconds, about 116 days).
MAX_CHUNK_SECONDS = 1e7
#: Bound on the decisions of a deal (played or void) counted in a pairs log: more than the
#: longest auction, declarations and 32 card plays under any rules here.
MAX_DEAL_DECISIONS = 1000


class PolicyFailure(PolicyError):
    """A policy raised or returned an illegal action. ``record`` is the game record (a
    dict, ``belote_env.records`` format) up to that position, ``policy`` its name."""

    def __init__(self, message: str, policy: str, record: dict):
        super().__init__(message)
        self.policy, self.record = policy, record

    def __reduce__(self):  # rebuilt whole in the process that gets it back from a worker
        return type(self), (str(self), self.policy, self.record)


class _Merge:
    """``merge`` of a match's tallies: the per-set lists (``_PER_SET``) joined, the two-side
    counts added side by side, the other counts added."""

    _PER_SET: tuple[str, ...] = ()

    def merge(self, o) -> None:
        for name in self.__dataclass_fields__:
            mine, theirs = getattr(self, name), getattr(o, name)
            if name in self._PER_SET:
                mine += theirs
            elif isinstance(mine, list):
                mine[:] = [x + y for x, y in zip(mine, theirs)]
            else:
                setattr(self, name, mine + theirs)


@dataclass
class _Tally(_Merge):
    """A four-seat match's figures: per pair (a duplicate set of two seatings), and counts
    per side (0 A, 1 B)."""

    diffs: list[float] = field(default_factory=list)  # per pair: mean deal-point diff per deal (A - B)
    deal_wins: list[float] = field(default_factory=list)  # per pair: fraction of deals A won
    game_wins: list[float] = field(default_factory=list)  # per pair: fraction of games A won
    deals: int = 0
    taken: list[int] = field(default_factory=lambda: [0, 0])
    made: list[int] = field(default_factory=lambda: [0, 0])
    capots: list[int] = field(default_factory=lambda: [0, 0])
    voids: int = 0
    time_s: list[float] = field(default_factory=lambda: [0.0, 0.0])
    moves: list[int] = field(default_factory=lambda: [0, 0])
    # per taking side: its contracts coinched (not surcoinched), made; surcoinched, made (COINCHE.md §3.3)
    coinched: list[int] = field(default_factory=lambda: [0, 0])
    coinched_made: list[int] = field(default_factory=lambda: [0, 0])
    surcoinched: list[int] = field(default_factory=lambda: [0, 0])
    surcoinched_made: list[int] = field(default_factory=lambda: [0, 0])
    ids: list[int] = field(default_factory=list)  # the pairs, in the order of the lists above (not logged)

    _PER_SET = ("diffs", "deal_wins", "game_wins", "ids")

    def count_contract(self, side: int, made: bool, coinched: int) -> None:
        """One played deal's contract: taken by ``side`` (0 A, 1 B), ``made`` or not, at
        coinche level ``coinched`` (0, 1 coinched, 2 surcoinched: ``DealScore.coinched``)."""
        self.taken[side] += 1
        self.made[side] += made
        if coinched:
            key = "coinched" if coinched == 1 else "surcoinched"
            getattr(self, key)[side] += 1
            getattr(self, key + "_made")[side] += made


#: The two-side counts of a ``_Tally`` (one entry per side, A then B).
_TALLY_COUNTS = ("taken", "made", "capots", "time_s", "moves", "coinched", "coinched_made", "surcoinched",
                 "surcoinched_made")
#: Counts a pairs log written before they were kept may lack (read as zeros).
_TALLY_LATER = ("coinched", "coinched_made", "surcoinched", "surcoinched_made")


@dataclass(frozen=True)
class MatchResult:
    """Result of a duplicate match, from policy A's side (points, rates in [0, 1]).

    Attributes:
        mode: ``"deal"`` or ``"game"``; pairs: mirrored pairs played; deals: deals played.
        game_win_rate, game_win_rate_ci: fraction of games A won (ties 1/2) and its 95%
            interval (``None`` in deal mode).
        deal_win_rate, deal_win_rate_ci: fraction of deals A's team scored more (ties 1/2).
        mean_diff, mean_diff_ci: mean (A points - B points) per deal.
        a_taken / a_made / a_capots (and b_...): contracts taken, made; capots won.
        a_coinched / a_coinched_made / a_surcoinched / a_surcoinched_made (and b_...): of
            A's contracts (B's), those B (A) coinched and A (B) did not surcoinche, and
            those made; those A (B) surcoinched, and those made (COINCHE.md §3.3; 0 in
            the classic game).
        void_deals: deals redealt after eight passes.
        a_ms_per_move / b_ms_per_move: mean decision time per move (milliseconds).
    """

    a: str
    b: str
    mode: str
    pairs: int
    deals: int
    game_win_rate: float | None
    game_win_rate_ci: tuple[float, float] | None
    deal_win_rate: float
    deal_win_rate_ci: tuple[float, float]
    mean_diff: float
    mean_diff_ci: tuple[float, float]
    a_taken: int
    a_made: int
    a_capots: int
    b_taken: int
    b_made: int
    b_capots: int
    void_deals: int
    a_ms_per_move: float
    b_ms_per_move: float
    seed: int
    rules: dict
    pair_scores: tuple[float, ...] = ()  # per pair: A's score (games, else deals won; ties 1/2)
    a_coinched: int = 0
    a_coinched_made: int = 0
    a_surcoinched: int = 0
    a_surcoinched_made: int = 0
    b_coinched: int = 0
    b_coinched_made: int = 0
    b_surcoinched: int = 0
    b_surcoinched_made: int = 0

    @property
    def win_rate(self) -> float:
        """The headline rate: games in game mode, deals in deal mode."""
        return self.game_win_rate if self.mode == "game" else self.deal_win_rate

    @property
    def win_rate_ci(self) -> tuple[float, float]:
        return self.game_win_rate_ci if self.mode == "game" else self.deal_win_rate_ci

    def to_dict(self) -> dict:
        d = asdict(self)
        del d["pair_scores"]
        d["win_rate"], d["win_rate_ci"] = self.win_rate, self.win_rate_ci
        return d

    def summary(self) -> str:
        lines = [f"{self.a} vs {self.b}: {self.pairs} mirrored {self.mode} pairs, {self.deals} deals (seed {self.seed})"]
        if self.mode == "game":
            lo, hi = self.game_win_rate_ci
            lines.append(f"  games won by {self.a}: {100 * self.game_win_rate:.1f}% (95% CI {100 * lo:.1f}-{100 * hi:.1f}%)")
        lo, hi = self.deal_win_rate_ci
        dlo, dhi = self.mean_diff_ci
        lines += [
            f"  deals won by {self.a}: {100 * self.deal_win_rate:.1f}% (95% CI {100 * lo:.1f}-{100 * hi:.1f}%)",
            f"  mean point difference per deal: {self.mean_diff:+.1f} (95% CI {dlo:+.1f} to {dhi:+.1f})",
            *_no_spread_note(self.pairs, "pair", self.mean_diff_ci, self.win_rate_ci),
            f"  contracts taken/made: {self.a} {self.a_taken}/{self.a_made}, {self.b} {self.b_taken}/{self.b_made}; "
            f"capots: {self.a} {self.a_capots}, {self.b} {self.b_capots}; void deals redealt: {self.void_deals}",
            f"  decision time per move: {self.a} {self.a_ms_per_move:.3f} ms, {self.b} {self.b_ms_per_move:.3f} ms",
        ]
        if self.rules.get("contract_mode") == "coinche":
            pct = lambda k, n: f"{k}/{n} ({100 * k / n:.1f}%)" if n else f"{k}/0"  # noqa: E731
            for x, y in (("a", "b"), ("b", "a")):
                X, Y = getattr(self, x), getattr(self, y)
                c, cm = getattr(self, f"{y}_coinched"), getattr(self, f"{y}_coinched_made")
                sc, sm = getattr(self, f"{y}_surcoinched"), getattr(self, f"{y}_surcoinched_made")
                lines.append(f"  {X} coinched {pct(c + sc, getattr(self, f'{y}_taken'))} of {Y}'s contracts; "
                             f"{Y} surcoinched {pct(sc, c + sc)} of those; {Y} made {pct(cm, c)} of those left "
                             f"coinched and {pct(sm, sc)} of those surcoinched")
        return "\n".join(lines)


def checked_action(state: GameState, info: InfoSet, policy: Policy) -> int:
    """``policy``'s action at ``state`` (a ``decide`` of ``belote_env.driver``), checked:
    raises ``PolicyFailure`` when the policy raises or returns something that is not one of
    ``info.legal_actions``."""
    seat = info.seat
    try:
        action = policy.act(info)
    except Exception as e:
        raise PolicyFailure(f"policy {policy.name!r} raised at seat {seat} ({e!r}) in deal {state.deal_number}, "
                            f"decision {len(state.actions)}", policy.name, game_record(state)) from e
    if isinstance(action, bool) or not hasattr(action, "__index__") or action not in info.legal_actions:
        raise PolicyFailure(
            f"policy {policy.name!r} returned illegal action {action!r} at seat {seat} in deal {state.deal_number}, "
            f"decision {len(state.actions)}; legal: {[f'{a}={action_to_string(a)}' for a in info.legal_actions]}",
            policy.name, game_record(state))
    return action.__index__()


def play_deal(state: GameState, seat_policies: list[Policy], **kw: Any) -> int:
    """``belote_env.driver.play_deal`` (same arguments: ``timing``, ``moves``, ``teams``,
    ``decks``...) with every action checked (``checked_action``).

    Returns:
        the number of void deals redealt.
    Raises:
        PolicyFailure: a policy raised or returned an illegal action (the message names
            the policy, seat, action and legal ids; ``.record`` reproduces the position).
        PolicyError: ``MAX_VOID_DEALS`` deals in a row were passed out.
    """
    return _checked(driver.play_deal, state, seat_policies, kw)


def play_game(state: GameState, seat_policies: list[Policy], **kw: Any) -> int:
    """``belote_env.driver.play_game`` (deals until the game is over, RULES.md §8) with
    every action checked, as ``play_deal``; returns the void deals redealt."""
    return _checked(driver.play_game, state, seat_policies, kw)


def _checked(play, state: GameState, seat_policies: list[Policy], kw: dict) -> int:
    kw.setdefault("decide", checked_action)
    try:
        return play(state, seat_policies, **kw)
    except VoidDealsError as e:
        raise PolicyError(str(e)) from None


def match_deck(seed: int, pair: int, deal_number: int, redeal: int) -> list[int]:
    """The deck of a duplicate match's pair ``pair``, deal ``deal_number``, redeal
    ``redeal`` (void deals before it in that deal): a shuffle seeded by the four numbers
    alone, so both copies of a pair play the same deck at the same deal and redeal even
    when a deal is passed out in one copy only. Under ``all_pass_redeal="next_dealer"``
    (RULES.md §3.4) such a one-sided void also moves that copy's dealer on by one seat:
    from then on the two copies deal the same decks from different seats, so their hands
    are no longer each other's (with the default ``same_dealer`` they are)."""
    deck = list(range(32))
    random.Random(f"belote-deck-{seed}-{pair}-{deal_number}-{redeal}").shuffle(deck)
    return deck


def save_match_game(games_dir, name: str, state: GameState, match: dict) -> None:
    """Write ``state``'s game record (``records.game_record``, with ``match``: who sat
    where in which pair of which match) to ``games_dir/name`` atomically; the replay viewer
    (``belote serve``) and ``belote replay`` read it."""
    write_record(Path(games_dir) / name, {**game_record(state), "match": match})


def _play_sets(a: Policy, b: Policy, set_ids, seed: int, rules: Rules, mode: str, games_dir=None):
    """Play duplicate sets ``set_ids`` (a ``_Tally`` of pairs at four seats, else a
    ``_SetTally``): each set's decks under every seating of ``SET_SEATINGS`` (the first
    dealer ``set_id % players`` in all), one played deal per seating (``mode="deal"``; void
    deals and agreed redeals are redealt from the set's next deck) or a whole game
    (``"game"``)."""
    game = game_of(rules)
    kind = _kind_of(game)
    n = game.players
    tally = kind.tally()
    pols = (a, b)
    for i in set_ids:
        dealer = i % n
        decks = functools.partial(match_deck, seed, i)  # every seating: the same deck at each deal and redeal
        fig = kind.figures(n, dealer)
        for j, seating in enumerate(SET_SEATINGS[n]):
            for tier, pol in enumerate(pols):
                reseed(pol, f"{seed}-{i}-{j}-{'ab'[tier]}")
            state = game.new_state(rng=random.Random(seed * 1_000_003 + i), dealer=dealer, deck=decks(0, 0),
                                   single_deal=mode == "deal")
            kw = {"timing": tally.time_s, "moves": tally.moves, "teams": seating, "decks": decks}
            tally.voids += (play_game if mode == "game" else play_deal)(state, [pols[t] for t in seating], **kw)
            if games_dir is not None:
                save_match_game(games_dir, f"{kind.unit}{i:06d}-{j}.json", state,
                                {"a": a.name, "b": b.name, "seed": seed, kind.unit: i, "copy": j,
                                 "seats": [pols[t].name for t in seating]})
            for score in state.deal_scores:
                fig.add_score(tally, seating, score)
            fig.seatings += 1
            if mode == "game":
                fig.add_game(seating, state.winner)
        fig.finish(tally, i, mode)
    return tally


#: Tables of one ``BatchedGame`` in a batched match (``duplicate_match(batched=True)``).
BATCH_TABLES = 1024


def _batched_failure(g, t: int, hist, hist_len, message: str, name: str) -> PolicyFailure:
    """A ``PolicyFailure`` at table ``t`` of a batched match (``game.batched``): its record
    is the table's current deal replayed on the reference state (the deck, dealer and
    actions so far)."""
    dealer = int(g.state[t, g.columns["dealer"]])
    state = game_of(g.rules).new_state(dealer=dealer, deck=[int(c) for c in g.deck[t]], single_deal=True)
    for a in hist[t, :hist_len[t]].tolist():
        state.apply(int(a))
    return PolicyFailure(message, name, game_record(state))


def _batched_sides(a, b, seed: int) -> tuple:
    """A batched match's two sides: each policy reseeded once for the match and given
    ``act_batch`` (``policies.batch.as_batch_policy``)."""
    from policies.batch import as_batch_policy

    reseed(a, f"{seed}-batched-a")
    reseed(b, f"{seed}-batched-b")
    return as_batch_policy(a), as_batch_policy(b)


def _batched_step(g, live, is_a, sides, tally, hist, hist_len, actions) -> None:
    """One step of a batched match (``g``, a ``game.batched`` engine): the rows
    ``live[is_a]`` decide by side A's ``act_batch``, the others by B's; each side's time and
    moves go to ``tally``; the actions are checked (a ``PolicyFailure`` whose record replays
    the failing table's deal: a raise, a wrong shape or an illegal id), kept in ``hist`` and
    applied."""
    import numpy as np

    from belote_env.vector import SeatBatch

    actions[:] = 0
    for side, rows in ((0, live[is_a]), (1, live[~is_a])):
        if not len(rows):
            continue
        pol = sides[side]
        t0 = time.perf_counter()
        batch = SeatBatch(g, rows)
        try:
            acts = np.asarray(pol.act_batch(batch))
        except Exception as e:
            k = getattr(e, "batch_row", None)  # the row it raised on, when the policy says (LoopBatchPolicy)
            t = int(rows[0 if k is None else k])
            where = f"first: table {t}" if k is None else f"at table {t}"
            raise _batched_failure(g, t, hist, hist_len, f"policy {pol.name!r} raised in act_batch ({e!r}) on "
                                   f"{len(rows)} tables ({where}, seat {int(g.current[t])})", pol.name) from e
        tally.time_s[side] += time.perf_counter() - t0
        tally.moves[side] += len(rows)
        if acts.shape != (len(rows),) or acts.dtype.kind not in "iu":
            raise _batched_failure(g, int(rows[0]), hist, hist_len,
                                   f"policy {pol.name!r}: act_batch returned {acts.dtype} {acts.shape}, "
                                   f"expected {len(rows)} int action ids", pol.name)
        ok = (acts >= 0) & (acts < g.n_actions)
        ok[ok] = batch.mask[np.flatnonzero(ok), acts[ok]] != 0
        if not ok.all():
            k = int(np.flatnonzero(~ok)[0])
            t = int(rows[k])
            info = batch.infoset(k)
            raise _batched_failure(
                g, t, hist, hist_len,
                f"policy {pol.name!r} returned illegal action {acts[k].item()!r} at seat {info.seat} in deal 0, "
                f"decision {int(hist_len[t])}; legal: {[f'{x}={action_to_string(x)}' for x in info.legal_actions]}",
                pol.name)
        actions[rows] = acts
    hist[live, hist_len[live]] = actions[live]
    hist_len[live] += 1
    g.step(actions)


def _play_sets_batched(a: Any, b: Any, set_ids: list[int], seed: int, rules: Rules,
                       tables: int = BATCH_TABLES, on_set=None):
    """``_play_sets`` in deal mode on the batched engine (``game_of(rules).batched``):
    every seating of every set is a table (``tables`` at a time; a table whose deal is
    scored takes the next), dealt ``match_deck(seed, set, 0, redeal)`` by the set's dealer
    as the unbatched match deals it (a void deal or an agreed redeal is redealt at its
    table from the next redeal's deck, the dealer moving per ``game.dealer_after``); A's
    seats decide in one ``act_batch`` call a step, B's in another (``policies.batch``).
    ``on_set(n)`` is called as sets finish. The same tally as ``_play_sets`` for policies
    whose actions depend on the information set alone and draw no random numbers;
    decision times are the batched calls' (observations and ``InfoSet``s included) shared
    over their rows."""
    import numpy as np

    from belote_env.vector.engine import PHASE_PLAY

    game = game_of(rules)
    kind = _kind_of(game)
    n_seats = game.players
    seatings = SET_SEATINGS[n_seats]
    tally = kind.tally()
    jobs = [(i, j) for i in set_ids for j in range(len(seatings))]
    if not jobs:
        return tally
    sides = _batched_sides(a, b, seed)
    n = min(len(jobs), tables)
    g = game.batched(n, autoreset=False)
    slot_job = np.full(n, -1, dtype=np.int64)
    redeal = np.zeros(n, dtype=np.int64)
    seat_tier = np.zeros((n, n_seats), dtype=np.int64)  # per table: the side (0 = A) of each seat
    hist = np.zeros((n, 512), dtype=np.int64)  # the current deal's actions (failure records)
    hist_len = np.zeros(n, dtype=np.int64)
    figures: dict[int, Any] = {}
    left = {i: len(seatings) for i in set_ids}
    next_job = 0
    names = sorted({str(getattr(p, "name", type(p).__name__)) for p in (a, b)})
    phase, dealer_col = g.state[:, g.columns["phase"]], g.state[:, g.columns["dealer"]]

    def deal(slots: list[int], decks: list[list[int]], dealers: list[int]) -> None:
        if slots:
            g.deal(np.array(slots, dtype=np.int64), np.array(decks, dtype=np.int64), np.array(dealers, dtype=np.int64))
            hist_len[slots] = 0

    def assign(slots, decks, dealers) -> list[int]:
        nonlocal next_job
        used = []
        for t in slots:
            if next_job < len(jobs):
                i, j = jobs[next_job]
                slot_job[t], redeal[t] = next_job, 0
                seat_tier[t] = seatings[j]
                next_job += 1
                decks.append(match_deck(seed, i, 0, 0))
                dealers.append(i % n_seats)
                used.append(t)
            else:
                slot_job[t] = -1
        return used

    starts: list[list[int]] = []
    first_dealers: list[int] = []
    deal(assign(range(n), starts, first_dealers), starts, first_dealers)
    actions = np.zeros(n, dtype=np.int64)
    while True:
        live = np.flatnonzero((slot_job >= 0) & (phase <= PHASE_PLAY))
        if not len(live):
            break
        is_a = seat_tier[live, g.current[live]] == 0
        _batched_step(g, live, is_a, sides, tally, hist, hist_len, actions)
        ended = np.flatnonzero(g.done)
        if not len(ended):
            continue
        slots, decks, dealers, freed = [], [], [], []
        for t in ended.tolist():
            i, j = jobs[int(slot_job[t])]
            scored = kind.batched_deal(g, t)  # (points, taker, made, coinched, capot), or "void" / "redeal"
            if isinstance(scored, str):  # redeal this seating from the set's next deck (RULES.md §3.4)
                redeal[t] += 1
                tally.voids += 1
                if redeal[t] >= MAX_VOID_DEALS:
                    raise PolicyError(f"{MAX_VOID_DEALS} deals in a row were passed out by {names}")
                slots.append(t)
                decks.append(match_deck(seed, i, 0, int(redeal[t])))
                dealers.append(dealer_after(rules, int(dealer_col[t]), void=True, redeal=scored == "redeal"))
                continue
            fig = figures.setdefault(i, kind.figures(n_seats, i % n_seats))
            fig.add(tally, seatings[j], *scored)
            fig.seatings += 1
            left[i] -= 1
            if not left[i] and on_set is not None:
                on_set(1)
            freed.append(t)
        deal(slots + assign(freed, decks, dealers), decks, dealers)
    for i in set_ids:
        figures[i].finish(tally, i, "deal")
    return tally


def use_one_torch_thread() -> None:
    """Run torch with one thread in this process (no-op without torch). Matches play one
    decision at a time, so torch's thread pool only adds contention: a network policy ran
    at 18 ms a move instead of 0.4 ms next to another job. Each worker process of
    ``duplicate_match`` calls it, and so do ``belote eval`` / ``belote ladder``."""
    try:
        import torch

        torch.set_num_threads(1)  # one process per core
    except ImportError:  # pragma: no cover
        pass


_PR_SET_PDEATHSIG = 1  # linux/prctl.h


def exit_with_parent(parent_pid: int, poll_s: float = 0.5) -> None:
    """Make this worker process end when its parent ``parent_pid`` dies, however it dies
    (``kill -9`` included): else a worker blocked on the task queue, whose pipe it holds
    open itself, lives on forever, and so does the resource tracker the workers share.

    On Linux the kernel sends the worker ``SIGKILL`` when the parent dies
    (``prctl(PR_SET_PDEATHSIG)``); everywhere a daemon thread also checks every ``poll_s``
    seconds that ``os.getppid()`` is still ``parent_pid`` (an orphan is re-parented) and
    exits otherwise. A parent already gone when this runs is caught by the same check."""
    if sys.platform.startswith("linux"):
        import ctypes
        import signal

        try:
            ulong = ctypes.c_ulong
            ctypes.CDLL(None, use_errno=True).prctl(ctypes.c_int(_PR_SET_PDEATHSIG), ulong(signal.SIGKILL),
                                                    ulong(0), ulong(0), ulong(0))
        except (OSError, AttributeError):  # pragma: no cover - no prctl in this libc: the thread below remains
            pass
    if os.getppid() != parent_pid:  # the parent died before the death signal was armed
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(poll_s)
            if os.getppid() != parent_pid:
                os._exit(1)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def init_worker(parent_pid: int) -> None:
    """Initializer of ``duplicate_match``'s worker processes: exit with the parent
    (``exit_with_parent``) and use one torch thread (``use_one_torch_thread``)."""
    exit_with_parent(parent_pid)
    use_one_torch_thread()


def _worker(args):
    """A worker process's chunk of sets (``_play_sets``: a ``_Tally`` of pairs at four
    seats, else a ``_SetTally``), the policies built from their specs."""
    a_spec, b_spec, ids, seed, rules_dict, mode, games_dir = args
    from policies import make_policy

    rules = Rules.from_dict(rules_dict)
    return _play_sets(make_policy(a_spec, seed=seed, rules=rules), make_policy(b_spec, seed=seed + 1, rules=rules),
                      ids, seed, rules, mode, games_dir)


def _run_in_pool(policy_a, policy_b, chunks, seed: int, rules: Rules, mode: str, workers: int, keep,
                 games_dir=None) -> None:
    """Play ``chunks`` (lists of pair or set ids) in ``workers`` spawned processes, a few
    chunks per worker in flight, the next sent as one ends; ``keep(ids, tally)`` takes each
    as it ends. A failure stops the match (the other chunks cancelled) and is raised."""
    if not all(isinstance(p, (str, os.PathLike)) for p in (policy_a, policy_b)):
        raise ValueError("workers > 1 needs policy specs (tier names, model paths or policy factories: "
                         "'module.path:attribute' or an importable function), not policy objects")
    # spawn, not fork: a forked child of a process that already ran torch can deadlock
    with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                             initializer=init_worker, initargs=(os.getpid(),)) as pool:
        todo, running = iter(chunks), {}

        def send() -> bool:
            ids = next(todo, None)
            if ids is not None:
                running[pool.submit(_worker, (str(policy_a), str(policy_b), ids, seed, rules.to_dict(), mode,
                                              games_dir))] = ids
            return ids is not None

        try:
            while len(running) < 2 * workers and send():
                pass
            while running:
                ended, _ = wait(running, return_when=FIRST_COMPLETED)
                for fut in ended:  # each chunk kept (and logged) as soon as it ends
                    keep(running.pop(fut), fut.result())
                    send()
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)  # a failure stops the match
            raise


def _no_spread_note(n: int, unit: str, *intervals: tuple[float, float]) -> list[str]:
    """A line saying that an interval of zero width is not a certainty (``n`` pairs or
    sets without spread, or a single one: too few to estimate it), or nothing."""
    if any(lo == hi for lo, hi in intervals):
        return [f"  (an interval of zero width above: {n} {unit}{'s' * (n != 1)} without spread, too few to "
                "estimate it; play more)"]
    return []


def mean_ci(values, level: float = 0.95) -> tuple[float, float, float]:
    """``(mean, low, high)``: the mean of ``values`` (per-pair or per-set figures: point
    differences, or scores in 0..1) and its two-sided ``level`` interval, Student's t with
    ``n - 1`` degrees of freedom (``n`` values; near the normal's 1.96 for hundreds of
    pairs, wider for a few: 3.18 at 4). One value, or none spread: an interval of zero
    width (``_no_spread_note`` says so). The one interval of every match figure.

    Raises:
        ValueError: no values, or ``level`` outside (0, 1).
    """
    values = [float(v) for v in values]
    n = len(values)
    if not n or not 0 < level < 1:
        raise ValueError(f"an interval needs one value or more and a level in (0, 1), got {n} values, "
                         f"level {level!r}")
    mean = sum(values) / n
    if n < 2:
        return mean, mean, mean
    from scipy.stats import t

    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = float(t.ppf(0.5 + level / 2, n - 1)) * math.sqrt(var / n)
    return mean, mean - half, mean + half


def _finite_number(v) -> bool:
    """An int or float (not a bool) that is a finite float (an int too large for a float
    is not: ``math.isfinite`` would raise ``OverflowError``)."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return False
    try:
        return math.isfinite(v)
    except OverflowError:
        return False


def _chunk_head(row, path, lineno: int, unit: str):
    """``(ids, tally, bad)`` of a pairs-log chunk line: its ids checked (distinct numbers
    >= 0 of ``unit``, "pairs" or "sets") and ``bad(why)``, the ``ValueError`` naming the
    line that the chunk parsers raise."""
    def bad(why: str) -> ValueError:
        return ValueError(f"pairs log {path}: line {lineno} is corrupt ({why}); delete that line to replay "
                          f"its {unit}, or give another file")

    if not isinstance(row, dict) or set(row) != {"ids", "tally"}:
        raise bad("expected a JSON object with ids and tally")
    ids, t = row["ids"], row["tally"]
    if (not isinstance(ids, list) or not ids or len(set(ids)) != len(ids)
            or not all(isinstance(i, int) and not isinstance(i, bool) and i >= 0 for i in ids)):
        raise bad(f"ids must be distinct {unit[:-1]} numbers >= 0, got {ids!r}")
    return ids, t, bad


def _is_count(v) -> bool:
    """An int (not a bool) >= 0."""
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def _check_counts(t: dict, bad, n_ids: int, mode: str, players: int, keys, unit: str) -> None:
    """Check the counts every pairs-log tally keeps (``keys``: its two-side counts, one per
    side; ``unit``: "pairs" or "sets"), raising ``bad(why)``: ints (not bools or floats) in their range, ``deals``
    exactly one per seating of each of the chunk's ``n_ids`` sets in deal mode (at least
    that in game mode), ``taken`` summing to ``deals``, ``made`` at most ``taken`` per side,
    ``voids`` at most ``MAX_VOID_DEALS - 1`` per deal, ``moves`` at most
    ``MAX_DEAL_DECISIONS`` per deal played or void, ``time_s`` numbers in
    0..``MAX_CHUNK_SECONDS``."""
    for key in keys:
        ok = _is_count if key != "time_s" else (lambda v: _finite_number(v) and v >= 0)
        if not isinstance(t[key], list) or len(t[key]) != 2 or not all(ok(v) for v in t[key]):
            raise bad(f"tally {key} must be 2 {'counts' if key != 'time_s' else 'numbers of seconds'}")
    if not _is_count(t["deals"]) or not _is_count(t["voids"]):
        raise bad("tally deals and voids must be counts")

    def out_of(key: str, value, allowed: str) -> ValueError:
        return bad(f"tally {key} is {value!r}, allowed: {allowed}")

    per = len(SET_SEATINGS[players])
    deals, least = t["deals"], per * n_ids
    if mode == "deal" and deals != least:
        raise out_of("deals", deals, f"exactly {least} ({per} deals for each of the {n_ids} {unit} of a deal-mode "
                                     f"chunk)")
    if mode == "game" and deals < least:
        raise out_of("deals", deals, f"at least {least} (a game of each of the {per} seatings of the {n_ids} {unit} "
                                     f"has 1 deal or more)")
    if sum(t["taken"]) != deals:
        raise out_of("taken", t["taken"], f"2 counts summing to deals = {deals} (each deal has one taker)")
    for k in (0, 1):
        if t["made"][k] > t["taken"][k]:
            raise out_of(f"made[{k}]", t["made"][k], f"0..{t['taken'][k]} (at most the contracts taken[{k}])")
    if t["voids"] > (MAX_VOID_DEALS - 1) * deals:
        raise out_of("voids", t["voids"], f"0..{(MAX_VOID_DEALS - 1) * deals} (at most {MAX_VOID_DEALS - 1} "
                                          f"void deals before each of the {deals} deals played)")
    most_moves = MAX_DEAL_DECISIONS * (deals + t["voids"])
    for k in (0, 1):
        if t["time_s"][k] > MAX_CHUNK_SECONDS:
            raise out_of(f"time_s[{k}]", t["time_s"][k], f"0..{MAX_CHUNK_SECONDS:.0e} seconds of decision time "
                                                         f"in a chunk")
        if t["moves"][k] > most_moves:
            raise out_of(f"moves[{k}]", t["moves"][k], f"0..{most_moves} (at most {MAX_DEAL_DECISIONS} decisions "
                                                       f"in each of the {deals + t['voids']} deals played or void)")


def _chunk_of(row, path, lineno: int, mode: str, n: int = 4) -> tuple[list[int], _Tally]:
    """The pair ids and tally of a four-seat pairs-log chunk line of a ``mode`` match;
    raises ``ValueError`` naming the line, the field, its value and the allowed range:
    the counts of ``_check_counts``, ``capots`` summing to at most ``deals``, coinched and
    surcoinched contracts within those taken and made; per-pair rates (``deal_wins``,
    ``game_wins``) numbers in 0..1 (``game_wins`` 0 in deal mode), ``diffs`` numbers in
    -``MAX_DEAL_POINTS``..``MAX_DEAL_POINTS``."""
    ids, t, bad = _chunk_head(row, path, lineno, "pairs")
    fields = set(_Tally.__dataclass_fields__) - {"ids"}
    if not isinstance(t, dict) or not fields - set(_TALLY_LATER) <= set(t) <= fields:
        raise bad(f"the tally must have exactly the fields {sorted(fields)}")
    t = {**{k: [0, 0] for k in _TALLY_LATER}, **t}
    for key in ("diffs", "deal_wins", "game_wins"):
        if not isinstance(t[key], list) or len(t[key]) != len(ids) or not all(_finite_number(v) for v in t[key]):
            raise bad(f"tally {key} must be {len(ids)} numbers, one per pair")
    _check_counts(t, bad, len(ids), mode, n, _TALLY_COUNTS, "pairs")

    def out_of(key: str, value, allowed: str) -> ValueError:
        return bad(f"tally {key} is {value!r}, allowed: {allowed}")

    for key, hi, what in (("deal_wins", 1, "the fraction of the pair's deals A won, ties 1/2"),
                          ("game_wins", 1 if mode == "game" else 0,
                           "the fraction of the pair's 2 games A won, ties 1/2" if mode == "game"
                           else "0: a deal-mode match plays no games")):
        for k, v in enumerate(t[key]):
            if not 0 <= v <= hi:
                raise out_of(f"{key}[{k}]", v, f"a number in 0..{hi} ({what})" if hi else what)
    for k in (0, 1):
        for key in ("coinched", "surcoinched"):
            if t[f"{key}_made"][k] > t[key][k]:
                raise out_of(f"{key}_made[{k}]", t[f"{key}_made"][k], f"0..{t[key][k]} (at most {key}[{k}])")
        made_c = t["coinched_made"][k] + t["surcoinched_made"][k]
        failed_c = t["coinched"][k] + t["surcoinched"][k] - made_c
        if made_c > t["made"][k] or failed_c > t["taken"][k] - t["made"][k]:
            raise out_of(f"coinched[{k}] / surcoinched[{k}]", (t["coinched"][k], t["surcoinched"][k]),
                         f"made under them at most made[{k}] = {t['made'][k]} and failed under them at most "
                         f"taken[{k}] - made[{k}] = {t['taken'][k] - t['made'][k]}")
    if sum(t["capots"]) > t["deals"]:
        raise out_of("capots", t["capots"], f"2 counts summing to at most deals = {t['deals']} (one capot a deal)")
    for k, v in enumerate(t["diffs"]):
        if not -MAX_DEAL_POINTS <= v <= MAX_DEAL_POINTS:
            raise out_of(f"diffs[{k}]", v, f"a number in -{MAX_DEAL_POINTS}..{MAX_DEAL_POINTS} (the pair's mean "
                                           f"point difference per deal; no deal scores more than {MAX_DEAL_POINTS} "
                                           f"points under any rules)")
    return ids, _Tally(**t, ids=list(ids))


def _set_chunk_of(row, path, lineno: int, mode: str, n: int) -> tuple[list[int], _SetTally]:
    """The set ids and tally of a pairs-log chunk line of a two- or three-seat ``mode``
    match (``n`` seats); raises ``ValueError`` naming the line, the field, its value and
    the allowed range, as ``_chunk_of``: the counts of ``_check_counts``, and per set a row
    of finite figures (``_SetFigures``: points within -``MAX_DEAL_POINTS``..
    ``MAX_DEAL_POINTS``, the rates in 0..1, game wins 0 in deal mode)."""
    ids, t, bad = _chunk_head(row, path, lineno, "sets")
    fields = set(_SetTally.__dataclass_fields__) - {"ids"}
    if not isinstance(t, dict) or set(t) != fields:
        raise bad(f"the tally must have exactly the fields {sorted(fields)}")
    keys = {"diff", "a_points", "b_points", "deal_wins", "game_wins", *(_ROLES if n == 3 else ()),
            *(f"{x}_{pos}" for x in "ab" for pos in SET_POSITIONS[n])}  # _SetFigures.finish's
    rows = t["rows"]
    if not isinstance(rows, list) or len(rows) != len(ids):
        raise bad(f"tally rows must be {len(ids)} objects, one per set")
    for k, r in enumerate(rows):
        if not isinstance(r, dict) or set(r) != keys or not all(_finite_number(v) for v in r.values()):
            raise bad(f"tally rows[{k}] must map exactly {sorted(keys)} to numbers")
        for key, v in r.items():
            lo, hi = ((0, 1 if mode == "game" else 0) if key == "game_wins" else (0, 1) if key == "deal_wins"
                      else (-MAX_DEAL_POINTS, MAX_DEAL_POINTS))
            if not lo <= v <= hi:
                raise bad(f"tally rows[{k}].{key} is {v!r}, allowed: a number in {lo}..{hi}")
    _check_counts(t, bad, len(ids), mode, n, ("taken", "made", "time_s", "moves"), "sets")
    return ids, _SetTally(ids=list(ids), **t)


def _chunk_line(ids: list[int], part) -> str:
    """A pairs-log chunk line (read back by ``_chunk_of`` / ``_set_chunk_of``)."""
    tally = asdict(part)
    tally.pop("ids", None)  # a set tally's own ids: the line's
    return json.dumps({"ids": ids, "tally": tally}) + "\n"


def _read_pairs_log(path: str | os.PathLike, header: dict, game) -> list[tuple[list[int], _Tally]]:
    """The chunks of a pairs log written for the match ``header`` of ``game`` (the rules'
    ``Game``: team chunks or per-seat sets; none for an empty file); a torn last line (a
    write cut by a kill) is dropped. Raises ``ValueError`` for a log of another match or a
    corrupt line."""
    with open(path, "rb") as f:
        lines = f.read().split(b"\n")
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        return []

    def parse(i: int) -> Any:  # raises DataFileError saying what is wrong with line i (not naming it)
        try:
            text = lines[i - 1].decode("utf-8")
        except UnicodeDecodeError as e:
            raise DataFileError(f"not UTF-8 text (byte {e.start})") from None
        try:
            return parse_json(text, "")
        except DataFileError as e:
            raise DataFileError(str(e).removeprefix(": ")) from None

    try:
        first = parse(1)
    except DataFileError as e:
        raise ValueError(f"pairs log {path}: line 1 is not a pairs-log header ({e}; is it a pairs log?); "
                         f"give another file") from None
    if not isinstance(first, dict) or "belote_pairs_log" not in first:
        raise ValueError(f"pairs log {path}: line 1 is not a pairs-log header (is it a pairs log?); "
                         f"give another file")
    first = {**first, "rules": stored_rules_as_read(first.get("rules"))}  # an older log's None: the default
    if first != header:
        diff = sorted(k for k in set(header) | set(first) if first.get(k) != header.get(k))
        raise ValueError(f"pairs log {path} was written for another match (it differs in {', '.join(diff)}); "
                         f"give another file or the same policies, seed, mode and rules")
    chunks = []
    for i in range(2, len(lines) + 1):
        try:
            row = parse(i)
        except DataFileError as e:
            if i == len(lines):  # cut by a kill: dropped, and its pairs played again
                break
            raise ValueError(f"pairs log {path}: line {i} is corrupt ({e}); delete that line to replay its pairs, "
                             f"or give another file") from None
        chunks.append(_kind_of(game).read_chunk(row, path, i, header["mode"], game.players))
    return chunks


def _open_pairs_log(pairs_log, policy_a, policy_b, seed: int, mode: str, rules: Rules, total: int):
    """``(parts, done, log, lock)`` of a match's pairs log (``pairs_log`` a path, or None:
    nothing kept): the chunks already played that count in this match (all their pair / set
    ids below ``total``, none counted before), their ids, the log open for appending and the
    match's lock on it (``_lock_pairs_log``; the caller closes both when the match ends).

    Where the log already holds every pair of the match (its figures read back, nothing to
    play) it is only read: no lock, no rewrite, ``log`` and ``lock`` None, so the figures of a
    log another match is still filling can be printed beside it. Otherwise the lock is taken
    first, the log read under it and rewritten whole and atomically (header, the chunks read)
    before the appends. Raises ``ValueError`` for a log of another match or a corrupt line
    (``_read_pairs_log``) and ``RuntimeError`` when another match holds the log."""
    if pairs_log is None:
        return [], set(), None, None
    header = {"belote_pairs_log": 1, "a": str(policy_a), "b": str(policy_b), "seed": seed, "mode": mode,
              "rules": rules.to_dict()}

    def read() -> tuple[list, list, set[int]]:
        chunks_in = _read_pairs_log(pairs_log, header, game_of(rules)) if os.path.exists(pairs_log) else []
        # A chunk counts when all its ids are in this match and none is counted already; the
        # largest chunks first (then in log order), so that a chunk of a smaller rerun (pairs 4, 5
        # of a log of pairs 4..7 cut by the match's end) is counted on the next rerun, and a
        # larger match reuses the chunk of more pairs. A chunk's tally is not split by pair, so a
        # chunk crossing the match's end does not count (its pairs in the match are played once,
        # logged as their own chunk, then reused).
        order = sorted(range(len(chunks_in)), key=lambda k: (-len(chunks_in[k][0]), k))
        counted, done = [], set()
        for k in order:
            ids, part = chunks_in[k]
            if all(i < total and i not in done for i in ids):
                counted.append(k)
                done.update(ids)
        return chunks_in, [chunks_in[k] for k in sorted(counted)], done

    chunks_in, parts, done = read()
    if len(done) == total:  # nothing to play: read only
        return parts, done, None, None
    lock = _lock_pairs_log(pairs_log)  # None where there is no fcntl
    try:
        chunks_in, parts, done = read()  # again under the lock: what a match that just ended added
        tmp = f"{pairs_log}.tmp"  # rewritten whole (atomically): header, the chunks read, then appends
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(json.dumps(header) + "\n")
            f.write("".join(_chunk_line(ids, part) for ids, part in chunks_in))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, pairs_log)
        return parts, done, open(pairs_log, "a", encoding="utf-8"), lock
    except BaseException:
        if lock is not None:
            lock.close()
        raise


def _lock_pairs_log(pairs_log):
    """An exclusive lock on ``pairs_log`` for one match's life: ``fcntl.flock`` on the file
    ``<pairs_log>.lock`` beside it (kept: the lock is the open file's, released when the match
    closes it or its process ends, a kill included; ``None``, no lock, where ``fcntl`` is
    missing). Two matches appending to one log would each rewrite it and lose the other's
    chunks. Raises ``RuntimeError`` naming the log when another process holds it."""
    try:
        import fcntl
    except ImportError:  # not POSIX: no lock
        return None
    f = open(f"{pairs_log}.lock", "a")
    try:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        f.close()
        raise RuntimeError(f"pairs log {pairs_log} is being written by another match (it holds {pairs_log}.lock): "
                           f"wait for that match to end, or give another file; a log whose pairs are all played "
                           f"can be read beside it (--games at most the pairs it holds)") from None
    return f


def _log_chunk(log, ids: list[int], part) -> None:
    """Append a finished chunk to an open pairs log (flushed and fsynced: a kill loses no
    finished chunk)."""
    if log is not None:
        log.write(_chunk_line(ids, part))
        log.flush()
        os.fsync(log.fileno())


def _is_factory(p: Any) -> bool:
    """A policy factory given as an object: a class, or a callable that is not a policy (no ``act``)."""
    return isinstance(p, type) or (callable(p) and not callable(getattr(p, "act", None)))


def duplicate_match(policy_a: Policy | str, policy_b: Policy | str, pairs: int, seed: int = 0,
                    rules: Rules | None = None, mode: str = "deal", workers: int = 1,
                    progress: bool = False, chunk: int = 25,
                    pairs_log: str | os.PathLike | None = None, batched: bool = False,
                    batch_tables: int = BATCH_TABLES, games_dir: str | os.PathLike | None = None) -> MatchResult:
    """Play ``pairs`` mirrored pairs (deals or games) between two policies.

    Args:
        policy_a, policy_b: policies, or specs for ``policies.make_policy``: tier names,
            model folders, or policy factories, named ``"module.path:attribute"`` or given
            as the object (a class, or a function at the top level of a module, passed on
            as its ``"module:name"``), which each process imports and calls with no
            arguments to build its policy (``make_policy``). Specs are required when
            ``workers > 1`` or with ``pairs_log``.
        pairs: number of mirrored pairs (int in 1..``MAX_PAIRS``): pairs 0 .. pairs - 1.
        seed: seeds every deck and policy RNG.
        rules: rule options (default ``Rules()``); deal mode plays single deals.
        mode: ``"deal"`` or ``"game"`` (games to ``rules.target``; it must not be None).
        workers: processes to use (1: in this process).
        progress: show a tqdm progress bar (pairs).
        chunk: pairs per task sent to a worker (int >= 1).
        pairs_log: a JSON-lines file that keeps every finished chunk (its pair ids and
            tallies, appended and fsynced as each chunk ends), so a match cut by a kill
            resumes: pairs already in the log are not played again, a torn last line is
            dropped, and a log of more pairs serves a smaller match (a chunk counts only
            when all its pairs are in the match: the pairs of a chunk crossing the
            match's end are played once more, logged as a chunk of their own that later
            runs reuse). Its first line names the match (specs,
            seed, mode, rules), not the models' contents or the code: start a new log
            after changing either. Decision times then mix the runs.
        batched: play on the batched engine (``game_of(rules).batched``): every seating of
            every pair or set is a table of it (``batch_tables`` at a time), each
            side's seats deciding in one ``act_batch`` call per step (``policies.batch``:
            the networks in one forward pass, other policies row by row). Deal mode only,
            one process, no ``pairs_log``. Same decks, dealers and redeals, so the same
            result as unbatched for policies whose action depends on the information set
            alone and that draw no random numbers (``easy``, ``normal``, ``hard``, model
            folders: deterministic); a policy drawing random numbers is seeded once per
            match (not per pair and side), so its draws, and the result, differ.
        batch_tables: tables of the batched engine (int >= 1; default ``BATCH_TABLES``).
        games_dir: a folder (created if missing) where each copy of each pair is saved as a
            game record when it ends (``pair<id>-<copy>.json``, ``copy`` the team A holds;
            at two and three seats ``set<id>-<seating>.json``), with a ``"match"`` object
            naming the policies, the seed, the pair and who sat at each seat: the replay
            viewer of ``belote serve`` and ``belote replay`` open them. Unbatched only.
    Returns:
        a ``MatchResult`` from A's side; at two and three seats (``rules.players`` 2 or 3,
        TWO_THREE.md) a ``SetMatchResult``: ``pairs`` then counts duplicate *sets*, each
        the same decks under every seating of ``SET_SEATINGS`` (2 at two seats, the
        seats swapped; 6 at three: the rotations of A B B and of A A B; a pairs log keeps
        sets).
    Raises:
        ValueError: bad ``pairs``, ``mode``, ``workers``, ``chunk``, a game mode without
            target, ``batched`` with game mode, ``workers > 1``, ``pairs_log`` or
            ``games_dir``, a ``games_dir`` that is a file or cannot be written, a bad
            ``batch_tables``, a policy factory that cannot be imported by name, is not
            callable or returns no policy, or a ``pairs_log`` that is not one, is of another match or
            has a corrupt line or an out-of-range value (naming the line and the field).
        PolicyFailure / PolicyError: see ``play_deal``.
    """
    if isinstance(pairs, bool) or not isinstance(pairs, int) or not 1 <= pairs <= MAX_PAIRS:
        raise ValueError(f"pairs must be an int in 1..{MAX_PAIRS:,} (mirrored pairs to play), got {pairs!r}")
    if mode not in ("deal", "game"):
        raise ValueError(f"mode must be 'deal' or 'game', got {mode!r}")
    if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= MAX_WORKERS:
        raise ValueError(f"workers must be an int in 1..{MAX_WORKERS} (processes), got {workers!r}")
    if isinstance(chunk, bool) or not isinstance(chunk, int) or chunk < 1:
        raise ValueError(f"chunk must be a positive int, got {chunk!r}")
    if batched:
        if mode != "deal":
            raise ValueError("batched matches play deal mode only (mode='deal'); game mode runs unbatched")
        if workers != 1:
            raise ValueError(f"a batched match runs in one process (workers=1), got workers={workers!r}")
        if pairs_log is not None:
            raise ValueError("a batched match keeps no pairs log (pairs_log=None; belote eval: --batched or "
                             "--pairs-log, not both): run it unbatched to log pairs")
        if games_dir is not None:
            raise ValueError("a batched match saves no games (games_dir=None; belote eval: --batched or "
                             "--games-dir, not both): run it unbatched to save its games")
        if isinstance(batch_tables, bool) or not isinstance(batch_tables, int) or batch_tables < 1:
            raise ValueError(f"batch_tables must be a positive int, got {batch_tables!r}")
    if games_dir is not None:
        if os.path.exists(games_dir) and not os.path.isdir(games_dir):
            raise ValueError(f"games_dir {str(games_dir)!r} is a file, not a folder")
        try:  # before any game: a folder that cannot be written is said now
            os.makedirs(games_dir, exist_ok=True)
            with tempfile.NamedTemporaryFile(dir=games_dir, prefix=".belote-write-test-"):
                pass
        except OSError as e:
            raise ValueError(f"games_dir {str(games_dir)!r} cannot be written: {e.strerror or e}") from None
        games_dir = str(games_dir)
    rules = rules or Rules()
    if mode == "deal":  # the rules a deal match records (its JSON, pairs log): a one-deal game's (RULES.md §8)
        rules = rules.replace(target=None, max_deals=None)
    elif rules.target is None and rules.max_deals is None:
        raise ValueError("game mode needs rules with a target or a deal limit")
    from policies import make_policy
    from policies.registry import factory_spec

    policy_a, policy_b = (factory_spec(p) if _is_factory(p) else p for p in (policy_a, policy_b))
    specs = all(isinstance(p, (str, os.PathLike)) for p in (policy_a, policy_b))
    if pairs_log is not None and not specs:
        raise ValueError("pairs_log needs policy specs (tier names, model paths or policy factories), not policy "
                         "objects")
    kind = _kind_of(game_of(rules))
    a_obj = make_policy(policy_a, seed=seed, rules=rules) if isinstance(policy_a, (str, os.PathLike)) else policy_a
    b_obj = make_policy(policy_b, seed=seed + 1, rules=rules) if isinstance(policy_b, (str, os.PathLike)) else policy_b
    parts, done, log, lock = _open_pairs_log(pairs_log, policy_a, policy_b, seed, mode, rules, pairs)
    tally = kind.tally()
    for _, part in parts:
        tally.merge(part)
    n_todo = pairs - len(done)  # done holds set ids of this match only
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=pairs, initial=pairs - n_todo, desc=f"{a_obj.name} vs {b_obj.name}", unit=kind.unit)

    def keep(ids: list[int], part) -> None:
        tally.merge(part)
        _log_chunk(log, ids, part)
        if bar:
            bar.update(len(ids))

    def chunks():  # the sets to play, in order, cut in chunks (built as they are sent: no list of them all)
        ids = []
        for i in range(pairs):
            if i not in done:
                ids.append(i)
                if len(ids) == chunk:
                    yield ids
                    ids = []
        if ids:
            yield ids

    try:
        if batched:  # no pairs log: every set
            tally.merge(_play_sets_batched(a_obj, b_obj, list(range(pairs)), seed, rules, batch_tables,
                                           on_set=None if bar is None else bar.update))
        elif workers == 1 or n_todo == 0:
            for ids in chunks():
                keep(ids, _play_sets(a_obj, b_obj, ids, seed, rules, mode, games_dir))
        else:
            _run_in_pool(policy_a, policy_b, chunks(), seed, rules, mode, workers, keep, games_dir)
    finally:
        if log is not None:
            log.close()
        if lock is not None:
            lock.close()
        if bar:
            bar.close()
    return kind.result(tally, a_obj.name, b_obj.name, mode, pairs, seed, rules)


def _match_result(tally: _Tally, a: str, b: str, mode: str, pairs: int, seed: int, rules: Rules) -> MatchResult:
    """A four-seat match's ``MatchResult`` from its merged tally (its pairs in any order)."""
    order = sorted(range(len(tally.ids)), key=tally.ids.__getitem__)
    diffs, deal_wins, game_wins = ([getattr(tally, k)[i] for i in order] for k in ("diffs", "deal_wins", "game_wins"))
    d, dlo, dhi = mean_ci(diffs)
    w, wlo, whi = mean_ci(deal_wins)
    g = glo = ghi = None
    if mode == "game":
        g, glo, ghi = mean_ci(game_wins)
    return MatchResult(
        a=a, b=b, mode=mode, pairs=pairs, deals=tally.deals,
        game_win_rate=g, game_win_rate_ci=None if g is None else _clip(glo, ghi),
        deal_win_rate=w, deal_win_rate_ci=_clip(wlo, whi), mean_diff=d, mean_diff_ci=(dlo, dhi),
        a_taken=tally.taken[0], a_made=tally.made[0], a_capots=tally.capots[0],
        b_taken=tally.taken[1], b_made=tally.made[1], b_capots=tally.capots[1], void_deals=tally.voids,
        a_ms_per_move=1000 * tally.time_s[0] / max(1, tally.moves[0]),
        b_ms_per_move=1000 * tally.time_s[1] / max(1, tally.moves[1]),
        seed=seed, rules=rules.to_dict(),
        **{f"{x}_{k}": getattr(tally, k)[i] for i, x in enumerate("ab") for k in _TALLY_LATER},
        pair_scores=tuple(game_wins if mode == "game" else deal_wins))


def _clip(lo: float, hi: float) -> tuple[float, float]:
    """A rate's interval clipped to 0..1."""
    return max(0.0, lo), min(1.0, hi)


# ---------------------------------------------------------------------------- two and three seats
#: The seatings of one duplicate set: per seating, the side (0 = A, 1 = B) of each seat
#: 0..n-1, the same decks played under each. Four seats: a mirrored pair, A on team 0's
#: seats (0 and 2) then on team 1's. Two seats (TWO_THREE.md): the seats swapped. Three
#: seats: every rotation of (A, B, B) and of (A, A, B): each tier sits alone against two of
#: the other three times and paired three times, and sits in every seat exactly 3 times of
#: the 6 (9 seat-plays each), so with the same decks and dealer neither the cards nor the
#: seat favours a tier.
SET_SEATINGS: dict[int, tuple[tuple[int, ...], ...]] = {
    4: ((0, 1, 0, 1), (1, 0, 1, 0)),
    2: ((0, 1), (1, 0)),
    3: ((0, 1, 1), (1, 0, 1), (1, 1, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)),
}
#: Names of the seat positions at the first deal of a set (the dealer is the last).
SET_POSITIONS: dict[int, tuple[str, ...]] = {2: ("elder", "dealer"), 3: ("elder", "middle", "dealer")}
#: The per-set figures of a match at two or three seats (``_SetTally.rows``), each in points per
#: seat per deal unless it is a rate: ``diff`` (A - B), ``a_points`` / ``b_points``,
#: ``deal_wins`` / ``game_wins`` (A's share, ties split, 1/2 when fair), per role
#: ``a_alone`` ... (three seats) and per position ``a_elder`` ...
_ROLES = ("a_alone", "a_paired", "b_alone", "b_paired")


@dataclass
class _SetTally(_Merge):
    """A two- or three-seat match's figures: per set a row of ``_SetFigures.row``, and
    counts per side (0 A, 1 B)."""

    rows: list[dict] = field(default_factory=list)  # per set: {figure: value}
    ids: list[int] = field(default_factory=list)
    deals: int = 0
    taken: list[int] = field(default_factory=lambda: [0, 0])
    made: list[int] = field(default_factory=lambda: [0, 0])
    voids: int = 0
    time_s: list[float] = field(default_factory=lambda: [0.0, 0.0])
    moves: list[int] = field(default_factory=lambda: [0, 0])

    _PER_SET = ("rows", "ids")


def set_deck(seed: int, set_id: int, deal_number: int, redeal: int) -> list[int]:
    """The deck of set ``set_id``'s deal ``deal_number``, redeal ``redeal`` at two and three
    seats: ``match_deck`` (the same for every seating of the set)."""
    return match_deck(seed, set_id, deal_number, redeal)


class _Figures:
    """One duplicate set's figures, fed deal by deal by the unbatched and the batched set
    players alike: ``add(tally, seating, points, taker, made, coinched, capot)`` a scored
    deal under ``seating`` (``points`` and ``taker`` per the game's scoring unit: a team at
    four seats, a seat at two and three; ``coinched`` 0, 1 or 2; ``capot`` the unit that won
    every trick, or None), ``add_game`` a game's end, ``finish`` the set into its tally."""

    def __init__(self, n: int, dealer: int):
        self.n, self.dealer = n, dealer
        self.deal_win = self.game_win = 0.0
        self.deals = self.seatings = 0

    def add_game(self, seating, winner: int | None) -> None:
        """A game ended under ``seating``, won by the unit ``winner`` (None: no winner, the
        sides' share of the seats)."""
        self.game_win += seating.count(0) / self.n if winner is None else float(seating[winner] == 0)


class _PairFigures(_Figures):
    """A mirrored pair's figures at four seats (the teams' units: team ``u``'s side is
    ``seating[u]``, seats 0 and 1 being of teams 0 and 1)."""

    def __init__(self, n: int, dealer: int):
        super().__init__(n, dealer)
        self.diff = 0.0

    def add(self, tally: _Tally, seating, points, taker: int, made: bool, coinched: int = 0,
            capot: int | None = None) -> None:
        a_team = seating[0]  # the team whose side is A
        d = points[a_team] - points[other_team(a_team)]
        self.diff += d
        self.deal_win += 1.0 if d > 0 else 0.5 if d == 0 else 0.0
        self.deals += 1
        tally.count_contract(seating[taker], made, coinched)
        if capot is not None:
            tally.capots[seating[capot]] += 1

    def add_score(self, tally: _Tally, seating, score) -> None:
        """A ``DealScore``."""
        self.add(tally, seating, score.points, score.taker_team, score.outcome == "made", score.coinched, score.capot)

    def finish(self, tally: _Tally, set_id: int, mode: str) -> None:
        tally.diffs.append(self.diff / self.deals)
        tally.deal_wins.append(self.deal_win / self.deals)
        tally.game_wins.append(self.game_win / self.seatings if mode == "game" else 0.0)
        tally.ids.append(set_id)
        tally.deals += self.deals


class _SetFigures(_Figures):
    """A duplicate set's figures at two and three seats (a row of ``_SetTally.rows``)."""

    def __init__(self, n: int, dealer: int):
        super().__init__(n, dealer)
        self.pts, self.cnt = [0.0, 0.0], [0, 0]  # per tier: points summed over its seat-deals, seat-deals
        self.role_pts, self.role_cnt = dict.fromkeys(_ROLES, 0.0), dict.fromkeys(_ROLES, 0)
        self.pos_pts, self.pos_cnt = [[0.0] * n, [0.0] * n], [[0] * n, [0] * n]

    def add(self, tally: _SetTally, seating, points, taker: int, made: bool, coinched: int = 0,
            capot: int | None = None) -> None:
        n = self.n
        top = max(points)
        leaders = [s for s in range(n) if points[s] == top]
        self.deal_win += sum(seating[s] == 0 for s in leaders) / len(leaders)
        self.deals += 1
        tally.taken[seating[taker]] += 1
        tally.made[seating[taker]] += made
        for s in range(n):
            t, pt = seating[s], points[s]
            self.pts[t] += pt
            self.cnt[t] += 1
            pos = (s - self.dealer - 1) % n
            self.pos_pts[t][pos] += pt
            self.pos_cnt[t][pos] += 1
            if n == 3:
                role = f"{'ab'[t]}_{'alone' if seating.count(t) == 1 else 'paired'}"
                self.role_pts[role] += pt
                self.role_cnt[role] += 1

    def add_score(self, tally: _SetTally, seating, score) -> None:
        """A ``CutthroatDealScore``."""
        self.add(tally, seating, score.points, score.taker, score.outcome == "made")

    def finish(self, tally: _SetTally, set_id: int, mode: str) -> None:
        pts, cnt = self.pts, self.cnt
        row = {"diff": pts[0] / cnt[0] - pts[1] / cnt[1], "a_points": pts[0] / cnt[0], "b_points": pts[1] / cnt[1],
               "deal_wins": self.deal_win / self.deals,
               "game_wins": self.game_win / self.seatings if mode == "game" else 0.0}
        if self.n == 3:
            for r in _ROLES:
                row[r] = self.role_pts[r] / max(1, self.role_cnt[r])
        for t in (0, 1):
            for pos, name in enumerate(SET_POSITIONS[self.n]):
                row[f"{'ab'[t]}_{name}"] = self.pos_pts[t][pos] / max(1, self.pos_cnt[t][pos])
        tally.rows.append(row)
        tally.ids.append(set_id)
        tally.deals += self.deals


@dataclass(frozen=True)
class SetMatchResult:
    """Result of a duplicate match at two or three seats (``duplicate_match`` with
    ``rules.players`` 2 or 3; TWO_THREE.md), from policy A's side. Every figure is a mean
    over the independent duplicate sets with a 95% normal-approximation interval.

    Attributes:
        players: 2 or 3; sets: duplicate sets (``pairs`` is the same number); deals: deals
            played; seatings: per seating of a set, the tier of each seat (``"AB"``,
            ``"ABB"``, ...; ``SET_SEATINGS``).
        mean_diff, mean_diff_ci: A's mean points per seat per deal less B's (0 for equal
            tiers).
        a_points / b_points (+ ``_ci``): each tier's mean points per seat per deal.
        by_role: three seats: ``{"a_alone": (mean, lo, hi), "a_paired", "b_alone",
            "b_paired"}``, points per seat per deal when the tier holds one seat / two
            seats; by_position: ``{"a_elder": ..., "b_dealer": ...}``, per tier and seat
            position at the set's first deal.
        deal_win_rate (+ ``_ci``): A's share of the deals' top scores (ties split; 1/2 is
            even: at three seats a deal's top score is shared among the seats that made it).
        game_win_rate (+ ``_ci``, game mode): A's share of the games won (a game won by a
            seat of A counts 1; 1/2 is even).
        a_taken / a_made / b_taken / b_made: contracts made by each tier's seats;
        void_deals: deals redealt (all passed, or a redeal agreed); a_ms_per_move /
        b_ms_per_move: mean decision time.
    """

    a: str
    b: str
    mode: str
    players: int
    sets: int
    deals: int
    seatings: tuple[str, ...]
    game_win_rate: float | None
    game_win_rate_ci: tuple[float, float] | None
    deal_win_rate: float
    deal_win_rate_ci: tuple[float, float]
    mean_diff: float
    mean_diff_ci: tuple[float, float]
    a_points: float
    a_points_ci: tuple[float, float]
    b_points: float
    b_points_ci: tuple[float, float]
    by_role: dict
    by_position: dict
    a_taken: int
    a_made: int
    b_taken: int
    b_made: int
    void_deals: int
    a_ms_per_move: float
    b_ms_per_move: float
    seed: int
    rules: dict
    pair_scores: tuple[float, ...] = ()  # per set: A's score (games, else deals; ties split)
    set_diffs: tuple[float, ...] = ()  # per set: A's mean points per seat per deal less B's

    @property
    def pairs(self) -> int:
        """The duplicate sets (``MatchResult``'s name)."""
        return self.sets

    @property
    def win_rate(self) -> float:
        return self.game_win_rate if self.mode == "game" else self.deal_win_rate

    @property
    def win_rate_ci(self) -> tuple[float, float]:
        return self.game_win_rate_ci if self.mode == "game" else self.deal_win_rate_ci

    def to_dict(self) -> dict:
        d = asdict(self)
        del d["pair_scores"], d["set_diffs"]
        d["pairs"], d["win_rate"], d["win_rate_ci"] = self.sets, self.win_rate, self.win_rate_ci
        return d

    def summary(self) -> str:
        unit = "game" if self.mode == "game" else "deal"
        k = len(self.seatings)
        lines = [f"{self.a} (A) vs {self.b} (B), {self.players} players: {self.sets} duplicate {unit} sets of {k} "
                 f"seatings ({' '.join(self.seatings)}), {self.deals} deals (seed {self.seed})"]
        if self.mode == "game":
            lo, hi = self.game_win_rate_ci
            lines.append(f"  games won by {self.a}: {100 * self.game_win_rate:.1f}% (95% CI {100 * lo:.1f}-"
                         f"{100 * hi:.1f}%; 50% is even)")
        lo, hi = self.deal_win_rate_ci
        dlo, dhi = self.mean_diff_ci
        lines += [f"  deals won by {self.a}: {100 * self.deal_win_rate:.1f}% (95% CI {100 * lo:.1f}-{100 * hi:.1f}%)",
                  f"  mean points per seat per deal: {self.a} {self.a_points:.1f} (95% CI {self.a_points_ci[0]:.1f}-"
                  f"{self.a_points_ci[1]:.1f}), {self.b} {self.b_points:.1f} (95% CI {self.b_points_ci[0]:.1f}-"
                  f"{self.b_points_ci[1]:.1f})",
                  f"  difference per seat per deal: {self.mean_diff:+.1f} (95% CI {dlo:+.1f} to {dhi:+.1f})",
                  *_no_spread_note(self.sets, "set", self.mean_diff_ci,
                                   self.game_win_rate_ci if self.mode == "game" else self.deal_win_rate_ci)]
        if self.by_role:
            lines.append("  by role (points per seat per deal): " + ", ".join(
                f"{(self.a if r[0] == 'a' else self.b)} {r[2:]} {m:.1f} ({lo:.1f}-{hi:.1f})"
                for r, (m, lo, hi) in self.by_role.items()))
        lines.append("  by position at the first deal: " + ", ".join(
            f"{(self.a if p[0] == 'a' else self.b)} {p[2:]} {m:.1f}" for p, (m, lo, hi) in self.by_position.items()))
        lines += [f"  contracts taken/made: {self.a} {self.a_taken}/{self.a_made}, {self.b} {self.b_taken}/"
                  f"{self.b_made}; void deals redealt: {self.void_deals}",
                  f"  decision time per move: {self.a} {self.a_ms_per_move:.3f} ms, {self.b} "
                  f"{self.b_ms_per_move:.3f} ms"]
        return "\n".join(lines)


def _set_match_result(tally: _SetTally, a: str, b: str, mode: str, sets: int, seed: int,
                      rules: Rules) -> SetMatchResult:
    """A two- or three-seat match's ``SetMatchResult`` from its merged tally (its sets in
    any order)."""
    rows = [tally.rows[k] for k in sorted(range(len(tally.ids)), key=tally.ids.__getitem__)]

    def stat(key: str) -> tuple[float, float, float]:
        return mean_ci([r[key] for r in rows])

    d, dlo, dhi = stat("diff")
    ap, aplo, aphi = stat("a_points")
    bp, bplo, bphi = stat("b_points")
    w, wlo, whi = stat("deal_wins")
    g = glo = ghi = None
    if mode == "game":
        g, glo, ghi = stat("game_wins")
    n = rules.players
    by_role = {r: stat(r) for r in _ROLES} if n == 3 else {}
    by_position = {f"{x}_{p}": stat(f"{x}_{p}") for x in "ab" for p in SET_POSITIONS[n]}
    return SetMatchResult(
        a=a, b=b, mode=mode, players=n, sets=sets, deals=tally.deals,
        seatings=tuple("".join("AB"[t] for t in s) for s in SET_SEATINGS[n]),
        game_win_rate=g, game_win_rate_ci=None if g is None else _clip(glo, ghi),
        deal_win_rate=w, deal_win_rate_ci=_clip(wlo, whi), mean_diff=d, mean_diff_ci=(dlo, dhi),
        a_points=ap, a_points_ci=(aplo, aphi), b_points=bp, b_points_ci=(bplo, bphi),
        by_role=by_role, by_position=by_position,
        a_taken=tally.taken[0], a_made=tally.made[0], b_taken=tally.taken[1], b_made=tally.made[1],
        void_deals=tally.voids, a_ms_per_move=1000 * tally.time_s[0] / max(1, tally.moves[0]),
        b_ms_per_move=1000 * tally.time_s[1] / max(1, tally.moves[1]), seed=seed, rules=rules.to_dict(),
        pair_scores=tuple(r["game_wins" if mode == "game" else "deal_wins"] for r in rows),
        set_diffs=tuple(r["diff"] for r in rows))


#: What a match's table chooses (``_kind_of``): ``unit`` names a set ("pair" at four seats),
#: its tally and figures, the result it makes, how a pairs-log chunk line is read
#: (``read_chunk(row, path, lineno, mode, players)``) and how the batched engine's ended
#: table is read (``batched_deal(g, t)``: ``(points, taker, made, coinched, capot)`` in the
#: figures' units, or ``"void"`` / ``"redeal"``).
_MatchKind = namedtuple("_MatchKind", "unit tally figures result read_chunk batched_deal")


def _team_batched_deal(g, t: int):
    """An ended four-seat table of ``BatchedGame`` ``g`` (``_MatchKind.batched_deal``)."""
    from belote_env.table import TEAM_OF

    p0, p1, outcome = (int(x) for x in g.result[t, :3])
    if outcome == 3:  # void (RULES.md §3.4)
        return "void"
    row, col = g.state[t], g.columns
    capot = 0 if row[col["won0"]] == 8 else 1 if row[col["won1"]] == 8 else None
    return ((p0, p1), TEAM_OF[int(row[col["taker"]])], outcome == 0, COINCHE_LEVEL[int(row[col["multiplier"]])],
            capot)


def _seat_batched_deal(g, t: int):
    """An ended two- or three-seat table (``_MatchKind.batched_deal``)."""
    from belote_env.vector.cutthroat import CUTTHROAT_OUTCOMES

    n = g.rules.players
    outcome = CUTTHROAT_OUTCOMES[int(g.result[t, n])]
    if outcome in ("void", "redeal"):
        return outcome
    return [int(x) for x in g.result[t, :n]], int(g.state[t, g.columns["taker"]]), outcome == "made"


_KINDS = (_MatchKind("pair", _Tally, _PairFigures, _match_result, _chunk_of, _team_batched_deal),
          _MatchKind("set", _SetTally, _SetFigures, _set_match_result, _set_chunk_of, _seat_batched_deal))


def _kind_of(game) -> _MatchKind:
    """The match kind of a ``Game``: pairs of team games, or per-seat sets."""
    return _KINDS[0] if game.has_partners else _KINDS[1]


__getattr__ = deprecated_names(__name__, {
    "SmallMatchResult": ("training.evaluate.SetMatchResult", lambda: SetMatchResult),
    "SMALL_SEATINGS": ("training.evaluate.SET_SEATINGS", lambda: SET_SEATINGS),
    "SMALL_POSITIONS": ("training.evaluate.SET_POSITIONS", lambda: SET_POSITIONS),
    "small_set_deck": ("training.evaluate.set_deck", lambda: set_deck)})
