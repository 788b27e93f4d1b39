"""The batched engine at two and three seats (``belote_env.vector.BatchedGame``) against the
reference engine (``belote_env.small_game.GameState``, TWO_THREE.md): the same decks,
the same seeded random legal actions, and at every decision identical legal masks, seat to
act, hands, played cards, public constraints, trick, contract, exchange, bottom card, cards
out of play, declaration winner and card points; at the end of every deal identical per-seat
totals, recorded points, outcome and rewards. Two and three seats, the seed-001 presets and
seeded mixes of every option of TWO_THREE.md §4 (``small_mixes``).

``run_small`` is also the long run of ``scripts/check_vector.py`` (``--small-mixes``, ``--only-small``).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from belote_env import Rules
from belote_env.actions import (
    AGREE_REDEAL, DECLARE, EXCHANGE_SEVEN, PASS, PROPOSE_REDEAL, num_actions,
)
from belote_env.config import OPTION_CHOICES, RuleOptionError, CUTTHROAT_CHOICES, applies, load_rules
from belote_env.game import Phase
from belote_env.game import GameState
from belote_env.vector.cutthroat import (
    PHASE_OVER, SCOL, CUTTHROAT_OUTCOMES, check_cutthroat_supported, cutthroat_infoset_of,
)
from belote_env.vector.engine import BatchedGame

#: the options a small mix draws from (those of TWO_THREE.md §4 that apply at ``players``
#: seats, the game-length ones left out: each deal is an episode)
_UNREAD = ("target", "target_rule", "max_deals", "contract_mode", "players")


def small_options(players: int) -> dict[str, tuple]:
    out = {}
    for name, values in OPTION_CHOICES.items():
        if name in _UNREAD or not applies(name, "classic", players):
            continue
        out[name] = CUTTHROAT_CHOICES.get(name, values)
    return out


def small_mixes(count: int, seed: int, players: int) -> list[Rules]:
    """The ``seed001_2p`` / ``seed001_3p`` preset, then ``count - 1`` seeded random mixes of
    every option of TWO_THREE.md §4 that applies at ``players`` seats."""
    rng = random.Random(seed)
    out = [load_rules(f"seed001_{players}p")]
    opts = small_options(players)
    while len(out) < count:
        out.append(Rules(players=players, **{k: rng.choice(v) for k, v in opts.items()}))
    return out


def _reference(g: BatchedGame, j: int) -> GameState:
    return GameState(g.rules, dealer=int(g.state[j, SCOL["dealer"]]), deck=[int(c) for c in g.deck[j]],
                          single_deal=True)


def _choose(g: BatchedGame, rng: np.random.Generator) -> np.ndarray:
    """Random legal actions: in the bidding pass 60% of the time (round 2 and void deals
    come up), propose and agree often; exchange and declare most of the time."""
    out = np.empty(g.n, dtype=np.int64)
    for j in range(g.n):
        legal = np.flatnonzero(g.mask[j])
        x = rng.random()
        if PASS in legal and x < 0.55:
            out[j] = PASS
        elif PROPOSE_REDEAL in legal and x < 0.65:
            out[j] = PROPOSE_REDEAL
        elif AGREE_REDEAL in legal and x < 0.4:
            out[j] = AGREE_REDEAL
        elif EXCHANGE_SEVEN in legal and x < 0.8:
            out[j] = EXCHANGE_SEVEN
        elif DECLARE in legal and x < 0.8:
            out[j] = DECLARE
        else:
            out[j] = legal[rng.integers(len(legal))]
    return out


def compare(g: BatchedGame, refs: list[GameState], infosets: bool = True) -> None:
    """Assert table by table that the batched state equals the reference's (and, with
    ``infosets``, every seat's ``cutthroat_infoset_of`` its ``information_set``)."""
    s = g.state
    n = g.players
    c = SCOL
    for j, ref in enumerate(refs):
        where = f"table {j}, actions {ref.actions}"
        assert ref.phase <= Phase.PLAY, where
        assert int(s[j, c["current"]]) == ref.current, where
        want = np.zeros(g.n_actions, dtype=np.int8)
        want[list(ref.legal_actions())] = 1
        np.testing.assert_array_equal(g.mask[j], want, err_msg=where)
        for seat in range(n):
            assert int(s[j, c["hand0"] + seat]) == ref.hands[seat], where
            assert int(s[j, c["played0"] + seat]) == ref.played_by[seat], where
            assert int(s[j, c["cannot0"] + seat]) == ref.public_cannot[seat], (where, seat)
            assert int(s[j, c["known0"] + seat]) == ref.public_known[seat], (where, seat)
            assert int(s[j, c["points0"] + seat]) == ref.card_points[seat], where
        assert int(s[j, c["turned"]]) == ref.turned_card, where
        assert int(s[j, c["trump"]]) == ref.denomination and int(s[j, c["maker"]]) == ref.taker, where
        assert int(s[j, c["step"]]) == (ref.step if ref.phase == Phase.PLAY else -1), where
        assert int(s[j, c["bottom"]]) == ref.bottom_card, where
        assert int(s[j, c["out_of_play"]]) == ref.out_of_play, where
        assert int(s[j, c["unused"]]) == ref.unused, where
        assert int(s[j, c["exchanged"]]) == ref.exchanged, where
        assert int(s[j, c["decl_winner"]]) == ref.decl_winner, where
        assert int(s[j, c["decl_cards"]]) == ref.decl_cards, where
        assert int(s[j, c["belote_holder"]]) == ref.belote_holder, where
        if ref.phase == Phase.PLAY:
            assert int(s[j, c["discarded"]]) == ref.discarded, where
        tl = int(s[j, c["trick_len"]])
        assert [int(x) for x in s[j, c["trick0"]:c["trick0"] + tl]] == ref.trick, where
        hist = ref.auction.history
        assert [tuple(int(v) for v in b) for b in g.bids[j, :len(hist)]] == hist, where
        assert len(hist) == g.bids.shape[1] or int(g.bids[j, len(hist), 0]) == -1, where
        if infosets:
            for seat in range(n):
                assert cutthroat_infoset_of(g, j, seat) == ref.information_set(seat), (where, seat)


def run_small(rules: Rules, n_tables: int, decisions: int, seed: int, infosets_every: int = 1) -> dict:
    """Play about ``decisions`` decisions on ``n_tables`` tables under ``rules`` in both
    engines side by side, comparing at every decision; returns counts of decisions, deals
    and each outcome (``CUTTHROAT_OUTCOMES``). Every seat's information set is compared every
    ``infosets_every`` steps (the rest at every step)."""
    g = BatchedGame(n_tables, rules, seed=seed)
    n = g.players
    assert g.mask.shape == (n_tables, num_actions(rules))
    refs = [_reference(g, j) for j in range(n_tables)]
    rng = np.random.default_rng(seed)
    counts = {"decisions": 0, "deals": 0, **{o: 0 for o in CUTTHROAT_OUTCOMES}}
    step = 0
    while counts["decisions"] < decisions:
        compare(g, refs, infosets=step % infosets_every == 0)
        step += 1
        a = _choose(g, rng)
        for j, ref in enumerate(refs):
            ref.apply(int(a[j]))
        g.step(a)
        counts["decisions"] += n_tables
        for j in np.flatnonzero(g.done):
            ref = refs[j]
            assert ref.is_deal_over, f"table {j}: the batched deal ended, the reference's did not"
            outcome = CUTTHROAT_OUTCOMES[int(g.result[j, n])]
            if ref.void:
                assert outcome == ("redeal" if ref.redeal else "void"), (j, ref.actions, outcome)
                assert g.rewards[j].tolist() == [0.0] * n
                assert g.result[j, :n].tolist() == [0] * n
            else:
                score = ref.deal_score
                assert outcome == score.outcome, (j, ref.actions, outcome, score)
                assert g.result[j, :n].tolist() == list(score.points), (j, ref.actions, g.result[j], score)
                totals = g.result[j, n + 2:].tolist()
                assert totals == list(score.totals) == ref.deal_totals(), (j, ref.actions, totals, score)
                assert g.rewards[j].tolist() == [score.difference(s) for s in range(n)], (j, ref.actions)
            assert int(g.result[j, n + 1]) == len(ref.actions), (j, ref.actions)
            counts[outcome] += 1
            counts["deals"] += 1
            refs[j] = _reference(g, j)
        for j, ref in enumerate(refs):
            if not g.done[j]:
                assert not ref.is_deal_over, f"table {j}: the reference's deal ended, the batched one did not"
    assert not (g.state[:, SCOL["phase"]] == PHASE_OVER).any()
    return counts


# ----------------------------------------------------------------------------- tests
MIXES = [(2, r) for r in small_mixes(10, seed=5, players=2)] + [(3, r) for r in small_mixes(12, seed=6, players=3)]


@pytest.mark.parametrize("players,rules", MIXES, ids=[f"{p}p-mix{i}" for i, (p, _) in enumerate(MIXES)])
def test_small_batched_equals_reference(players, rules):
    counts = run_small(rules, n_tables=16, decisions=3000, seed=11)
    assert counts["deals"] >= 40
    played = counts["made"] + counts["equal"] + counts["failed"]
    assert played + counts["void"] + counts["redeal"] == counts["deals"] and played >= 20


@pytest.mark.parametrize("options", [
    dict(declarations="choice", belote="optional", dix_exchange="choice"),
    dict(declarations="choice", carres=True, sequence_compare="length_then_top", run5_value=100),
    dict(declarations="auto", sequence_order="plain_trick_order", dix_exchange="auto", rounding="half_up"),
])
@pytest.mark.parametrize("players", [2, 3])
def test_small_batched_option_sets(players, options):
    """Hand-picked sets: the declaration protocol, optional belote, carrés and the key orders."""
    counts = run_small(Rules(players=players, **options), n_tables=16, decisions=1600, seed=3)
    assert counts["made"] + counts["equal"] + counts["failed"] >= 15


@pytest.mark.parametrize("deal", ["10_each", "24_card"])
def test_small_batched_three_player_deals(deal):
    counts = run_small(Rules(players=3, three_player_deal=deal, defender_partner_free=True,
                             ruff_overtrump="only_trump_lead", defender_split="proportional"),
                       n_tables=16, decisions=1600, seed=4)
    assert counts["made"] + counts["equal"] + counts["failed"] >= 15


def test_worked_example_6_4_two_players():
    """TWO_THREE.md §6.4 through the batched engine: E accepts, exchanges the seven, scores
    belote; D's 50 sequence scores; E records 129, D 71."""
    from belote_env.actions import TAKE
    from belote_env.cards import parse_card as P
    from belote_env.dealing import packet_deck_from_hands

    def cards(text):
        return [P(x) for x in text.split()]

    rules = load_rules("seed001_2p")
    deck = packet_deck_from_hands([cards("J♥ 9♥ 7♥ A♠ K♠ Q♠"), cards("A♥ 10♦ K♦ Q♦ J♦ 9♣")], "Q♥",
                                 [cards("K♥ 10♠ 8♣"), cards("10♥ A♣ 7♦")], "8♦", rules, dealer=1)
    g = BatchedGame(1, rules, seed=0)
    g.deal(np.array([0]), np.array([deck]), np.array([1]))
    plays = [TAKE, EXCHANGE_SEVEN]
    for e, d in [("J♥", "10♥"), ("9♥", "A♥"), ("K♥", "9♣"), ("Q♥", "7♦"), ("A♠", "J♦"), ("10♠", "Q♦"),
                 ("K♠", "K♦"), ("Q♠", "10♦"), ("8♣", "A♣")]:
        plays += [P(e), P(d)]
    for a in plays:
        g.step(np.array([a]))
    assert g.done[0]
    assert g.result[0, :2].tolist() == [129, 71] and g.result[0, 4:].tolist() == [129, 71]
    assert CUTTHROAT_OUTCOMES[g.result[0, 2]] == "made"
    assert g.rewards[0].tolist() == [58.0, -58.0]


def test_unsupported_and_bad_input_are_named():
    from belote_env.vector import cutthroat

    with pytest.warns(DeprecationWarning, match="CutthroatBatchedGame is belote_env.vector.BatchedGame now"):
        old = cutthroat.CutthroatBatchedGame  # the old name, for one release: the one engine, at 2/3 seats only
    assert issubclass(old, BatchedGame) and type(old(2, Rules(players=3))) is old
    with pytest.raises(RuleOptionError, match="CutthroatBatchedGame plays tables of 2 or 3 seats, got rules with players 4"):
        old(2, Rules())
    check_cutthroat_supported(Rules(players=3, three_player_deal="24_card"))
    g = BatchedGame(2, Rules(players=2), seed=0)
    with pytest.raises(ValueError, match=r"illegal action 5 at table 0 by seat \d; legal ids: \[32, 33, 106\]"):
        g.step(np.array([5, 32]))
    with pytest.raises(ValueError, match="shape"):
        g.step(np.array([32]))
    with pytest.raises(ValueError, match="each dealer must be a seat 0..1: dealer 2 given for table 1"):
        g.deal(np.array([1]), np.arange(32)[None], np.array([2]))
    with pytest.raises(ValueError, match=r"deck 0 \(for table 1\) does not"):
        g.deal(np.array([1]), np.zeros((1, 32), dtype=np.int64), np.array([0]))
    with pytest.raises(ValueError, match="got int64 \\(1,\\), float64 \\(1, 32\\)"):
        g.deal(np.array([1]), np.arange(32.0)[None], np.array([0]))
    for view in (g.current, g.state[:, 0], g.result[:, 0]):
        with pytest.raises(ValueError, match="must not share memory with the engine"):
            g.random_actions(out=view)  # the kernel would write into the engine's own state


def test_same_seed_same_games_any_batch_size():
    rules = Rules(players=3)
    a, b = BatchedGame(16, rules, seed=11), BatchedGame(4, rules, seed=11)
    for _ in range(200):
        x, y = a.random_actions(), b.random_actions()
        np.testing.assert_array_equal(x[:4], y)
        a.step(x)
        b.step(y)
        np.testing.assert_array_equal(a.state[:4], b.state)
    assert (a.state[:4, SCOL["deals"]] > 3).all()


@pytest.mark.parametrize("players", [2, 3])
def test_small_observation_slow_path(players):
    """``encode_cutthroat`` (``belote_env.observation``) of the batched engine's information
    sets equals that of the reference's, seat by seat, along random play (the slow path a
    vector env can use until a compiled small-table encoder exists)."""
    from belote_env import observation as small_observation
    rules = Rules(players=players, declarations="choice", belote="optional")
    g = BatchedGame(8, rules, seed=2)
    refs = [_reference(g, j) for j in range(g.n)]
    for _ in range(120):
        for j, ref in enumerate(refs):
            for seat in range(players):
                np.testing.assert_array_equal(small_observation.encode_cutthroat(cutthroat_infoset_of(g, j, seat)),
                                              small_observation.encode_cutthroat(ref.information_set(seat)))
        a = g.random_actions()
        for j, ref in enumerate(refs):
            ref.apply(int(a[j]))
        g.step(a)
        for j in np.flatnonzero(g.done):
            refs[j] = _reference(g, j)


@pytest.mark.parametrize("players", [2, 3])
def test_compiled_observation_equals_the_reference_encoder(players):
    """``encode_cutthroat_batch`` (compiled, from the batched rows) gives every seat's
    ``observation.encode_cutthroat`` of its information set, float for float, at every step of
    random play under seeded option mixes (TWO_THREE.md §5)."""
    from belote_env.observation import encode_cutthroat
    from belote_env.vector.cutthroat import encode_cutthroat_batch, cutthroat_infoset_of

    checked = 0
    for k, rules in enumerate([Rules(players=players)] + small_mixes(3, seed=40 + players, players=players)):
        g = BatchedGame(8, rules, seed=k)
        tables, seats = np.repeat(np.arange(8), players), np.tile(np.arange(players), 8)
        for _ in range(60):
            got = encode_cutthroat_batch(g, tables, seats)
            for i, (t, s) in enumerate(zip(tables.tolist(), seats.tolist())):
                assert np.array_equal(got[i], encode_cutthroat(cutthroat_infoset_of(g, t, s))), (k, t, s)
                checked += 1
            g.step(g.random_actions())
    assert checked == 4 * 60 * 8 * players


@pytest.mark.parametrize("rules", [Rules(), Rules(contract_mode="coinche"), Rules(players=2), Rules(players=3)],
                         ids=["classic", "coinche", "2p", "3p"])
def test_game_batched_is_the_engine_of_its_table_and_encode_rows_its_observation(rules):
    """``Game.batched`` makes the batched engine of the rules' table; its ``encode_rows``
    equals ``Game.encode`` of each row's information set, into a given slice too, and
    refuses a seat or table out of range."""
    from belote_env.games import game_of
    from belote_env.vector import SeatBatch

    game = game_of(rules)
    g = game.batched(16, seed=3)
    assert type(g).__name__ == "BatchedGame" and g.rules is rules  # one engine for every table
    tables = np.arange(16)
    for _ in range(25):
        wide = np.zeros((16, game.obs_size + 5), dtype=np.float32)
        got = g.encode_rows(tables, g.current[tables], wide[:, :game.obs_size])
        batch = SeatBatch(g, tables)
        want = np.stack([game.encode(batch.infoset(i)) for i in range(16)])
        np.testing.assert_array_equal(got, want)
        assert (wide[:, game.obs_size:] == 0).all()
        g.step(g.random_actions())
    with pytest.raises(ValueError, match=f"seats 0..{rules.players - 1}"):
        g.encode_rows([0], [rules.players])
    with pytest.raises(ValueError, match="tables must be indices 0..15"):
        g.encode_rows([16], [0])
    with pytest.raises(ValueError, match="out must be float32 of shape"):
        g.encode_rows([0], [0], np.zeros((1, game.obs_size), dtype=np.float64))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_batched_engine_infoset_is_the_reference_information_set_and_checks_its_row(players):
    """``TableBatch.infoset(j, seat)`` at every table: the reference engine's
    ``information_set`` of the same deal; a table or seat out of range and a finished deal
    are refused by name."""
    from belote_env.games import game_of

    rules = Rules(players=players)
    g = game_of(rules).batched(4, seed=9, autoreset=False)
    refs = [game_of(rules).new_state(dealer=int(g.state[t, g.columns["dealer"]]),
                                     deck=[int(c) for c in g.deck[t]], single_deal=True) for t in range(4)]
    out = np.zeros(4, dtype=np.int64)
    checked = 0
    live = np.ones(4, dtype=bool)
    while live.any():
        for t in np.flatnonzero(live):
            s = int(g.current[t])
            assert g.infoset(int(t), s) == refs[t].information_set(s)
            checked += 1
        g.random_actions(out)
        for t in np.flatnonzero(live):
            refs[t].apply(int(out[t]))
        g.step(out)
        live &= ~g.done
    assert checked > 20
    with pytest.raises(ValueError, match="deal is over"):
        g.infoset(0, 0)
    if players < 4:  # the module function still gives a finished table's final view
        assert cutthroat_infoset_of(g, 0, 0).phase >= 2
    with pytest.raises(ValueError, match="table must be an int in 0..3, got 4"):
        g.infoset(4, 0)
    with pytest.raises(ValueError, match=f"seat must be an int in 0..{players - 1}, got {players}"):
        g.infoset(0, players)


@pytest.mark.parametrize("players", [2, 3])
def test_batched_game_of_two_and_three_seat_rules_is_their_engine(players):
    """``BatchedGame(n, rules)`` serves every table: at two and three seats it is the
    engine of those tables, deal for deal the one ``Game.batched`` makes."""
    from belote_env.games import game_of
    from belote_env.vector import BatchedGame

    rules = Rules(players=players)
    g, h = BatchedGame(8, rules, seed=3), game_of(rules).batched(8, seed=3)
    assert type(g) is BatchedGame and g.players == players  # one engine for every table
    assert g.n_actions == 414 and g.columns is SCOL
    assert (g.columns["taker"], g.columns["denomination"]) == (SCOL["maker"], SCOL["trump"])  # one name per table
    np.testing.assert_array_equal(g.deck, h.deck)
    np.testing.assert_array_equal(g.mask, h.mask)


def test_the_engine_s_old_names_warn_and_an_infoset_index_must_be_an_int():
    import warnings


    import belote_env.vector as vector
    from belote_env.vector.engine import CutthroatBatchedGame

    with pytest.warns(DeprecationWarning, match="is belote_env.vector.BatchedGame now"):
        assert vector.SmallBatchedGame is CutthroatBatchedGame
    with pytest.warns(DeprecationWarning, match="CutthroatBatchedGame is belote_env.vector.BatchedGame now"):
        CutthroatBatchedGame(2, load_rules("seed001_2p"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        g = BatchedGame(2, load_rules("seed001_3p"), seed=1)
    seat = int(g.state[0, SCOL["current"]])
    assert g.infoset(np.int64(0), np.int64(seat)).seat == seat and type(g.infoset(np.int64(0), seat).seat) is int
    for bad in (0.5, "0", True):
        with pytest.raises(ValueError, match="table must be an int in 0..1"):
            g.infoset(bad, seat)
    with pytest.raises(ValueError, match="seat must be an int in 0..2"):
        g.infoset(0, 3)


def test_batched_dealer_answers_read_only_the_announced_value():
    """The batched twin of the two-seat answers (TWO_THREE.md §2.6, RULES.md §11): elder
    hands announced at the same value (a 5-run and a 4-run under ``length_then_top``; a
    5-run and four aces under ``carres``, ``run5_value: 100``) give the dealer the same
    legal answers, equal to the reference engine's."""
    from belote_env.actions import ANSWER_ENOUGH, ANSWER_EQUAL, DECLARE, TAKE

    dealer6, dealer3 = ["8D", "9D", "10D", "JD", "7S", "8S"], ["9S", "KS", "QD"]
    base = load_rules("seed001_2p", declarations="choice", dix_exchange="off")
    cases = [(base.replace(sequence_compare="length_then_top"),
              [(["7C", "8C", "9C", "10C", "JC", "AH"], ["KH", "KC", "QS"]),
               (["7C", "8C", "9C", "10C", "QC", "AH"], ["KH", "KC", "JS"])]),
             (base.replace(carres=True, run5_value=100),
              [(["7C", "8C", "9C", "10C", "JC", "AH"], ["KH", "KC", "AD"]),
               (["AC", "AD", "AH", "7C", "8C", "JH"], ["AS", "KH", "10H"])])]
    for rules, elders in cases:
        for elder6, elder3 in elders:
            st = GameState.from_hands([elder6, dealer6], turned="QH", stock=[elder3, dealer3], rules=rules,
                                      dealer=1, bottom="7H")
            g = BatchedGame(1, rules, seed=0)
            g.deal(np.array([0]), np.array([st.deck]), np.array([1]))
            for a in (TAKE, DECLARE):
                st.apply(a)
                g.step(np.array([a]))
            legal = tuple(np.flatnonzero(g.mask[0]).tolist())
            assert legal == st.legal_actions() == (ANSWER_ENOUGH, ANSWER_EQUAL), (rules.sequence_compare, elder6)
