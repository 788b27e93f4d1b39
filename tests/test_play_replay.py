"""``belote play`` (help, quit, saving a stopped game, cards and bids in words) and
``belote replay`` (deep JSON, hands / auction / tricks / scores)."""

import io
import random
import re

import pytest

from belote_env import GameState, Rules, load_rules
from belote_env.actions import NAME_CONTRACT, PASS, TAKE
from belote_env.cards import parse_card
from belote_env.records import RecordError, game_record, read_record, replay, replay_text, save_game, write_record
from training.cli import main
from training.play import HELP_TEXT, HumanPolicy, parse_input, play_game_interactive


class _Last:
    """A deterministic bot: the highest legal id (takes at once, then its highest card)."""

    name = "last"

    def act(self, info):
        return info.legal_actions[-1]


class _Interrupted:
    """A bot interrupted by Ctrl-C while it thinks, on its ``n``-th decision."""

    name = "slow"

    def __init__(self, n):
        self.n = n

    def act(self, info):
        self.n -= 1
        if self.n == 0:
            raise KeyboardInterrupt
        return info.legal_actions[-1]


def _scripted(answers):
    """An input_fn returning ``answers`` in order; an exception class in the list is raised."""
    it = iter(answers)

    def input_fn(prompt):
        a = next(it)
        if isinstance(a, type) and issubclass(a, BaseException):
            raise a
        return a

    return input_fn


def _play(answers, tmp_path, bots=None, save_path=None, rules=None, seed=5):
    out = io.StringIO()
    human = HumanPolicy(input_fn=_scripted(answers), output=out)
    pols = [human] + (bots or [_Last(), _Last(), _Last()])
    st = play_game_interactive(pols, rules or Rules(), seed, 0, output=out, save_path=save_path)
    return st, human, out.getvalue()


def _assert_replays_as(path, st):
    """The saved file is a valid record whose replay is ``st``'s game so far."""
    rec = read_record(path)
    again = replay(rec)
    assert [d["actions"] for d in rec["deals"]] == [[list(a) for a in d["actions"]] for d in st.deal_log]
    assert again.hands == st.hands and again.trick == st.trick and again.scores == st.scores
    assert rec["result"] == {"scores": list(st.scores), "winner": st.winner, "game_over": st.is_game_over}


# ------------------------------------------------------------------ task 1: deep JSON
@pytest.mark.parametrize("text", ["[" * 100_000, '{"deals": ' * 100_000])
def test_read_record_nested_too_deeply_is_a_record_error(tmp_path, text):
    path = tmp_path / "deep.json"
    path.write_text(text)
    with pytest.raises(RecordError) as e:
        read_record(path)
    assert str(e.value) == f"{path} is not a game record: its JSON is nested too deeply"


def test_replay_cli_nested_too_deeply_exits_2_without_traceback(tmp_path, capsys):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000)
    assert main(["replay", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == f"belote replay: error: {path} is not a game record: its JSON is nested too deeply\n"


# ------------------------------------------------------------------ task 2: belote play
def test_play_help_then_quit_saves_a_record_that_replays(tmp_path, capsys):
    save = tmp_path / "g.json"
    st, human, out = _play(["help", "zz", "1", "1", "quit"], tmp_path, save_path=save)
    assert HELP_TEXT in out and "refused: cannot read 'zz'" in out
    assert human.quit_requested and not st.is_game_over
    # seed 5, dealer South: West takes A♠ (spades); South ruffs trick 1 with 8♠ and leads Q♠ into trick 2
    assert "  West (last): take (♠ trump)\n" in out
    assert "  trick 1 won by South (14 points)\n" in out and "  trick 2 won by North (38 points)\n" in out
    assert out.endswith(f"\ngame stopped at trick 3 of the deal (you quit); the game so far is saved to {save} "
                        f"(belote replay {save} shows it)\n")
    _assert_replays_as(save, st)
    assert main(["replay", str(save)]) == 0
    text = capsys.readouterr().out
    assert text.endswith("  trick 1: West 7♣, North A♣, East Q♣, South 8♠ -> South wins (14 points)\n"
                         "  trick 2: South Q♠, West A♠, North 9♠, East 10♠ -> North wins (38 points)\n"
                         "  trick 3 so far: North K♣, East 10♣\n"
                         "  the record stops here, South (seat 0) to act\n"
                         "final scores: team 0 0, team 1 0; winner: none yet (the game is not finished)\n")


def test_play_ctrl_c_at_the_prompt_saves_to_a_default_file(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    st, human, out = _play(["1", "2", KeyboardInterrupt], tmp_path, seed=5)
    (path,) = tmp_path.glob("belote_game_5_*.json")
    assert path.name.startswith("belote_game_5_2") and not list(tmp_path.glob(".*tmp"))  # atomic write
    assert f"(interrupted (Ctrl-C)); the game so far is saved to {path.name} " in out
    assert not human.quit_requested and len(st.tricks) == 2
    _assert_replays_as(path, st)
    assert main(["replay", str(path)]) == 0


def test_play_end_of_input_saves_and_cli_exit_code(tmp_path, monkeypatch, capsys):
    # EOF midway, through play_game_interactive
    st, _, out = _play(["1", EOFError], tmp_path, save_path=tmp_path / "eof.json")
    assert "game stopped at trick 2 of the deal (end of input)" in out
    _assert_replays_as(tmp_path / "eof.json", st)
    # and through `belote play`: saved to --save, exit 130 (not finished); quit exits 0
    import builtins

    for answers, code in ((["1", EOFError], 130), (["quit"], 0)):
        monkeypatch.setattr(builtins, "input", _scripted(answers))
        save = tmp_path / f"cli{code}.json"
        assert main(["play", "--partner", "easy", "--opponents", "easy", "--seed", "3", "--save", str(save)]) == code
        out = capsys.readouterr().out
        assert out.startswith("type help for how to enter a card or a bid, quit to save the game and stop\n")
        assert f"the game so far is saved to {save} " in out
        replay(read_record(save))


def test_play_ctrl_c_while_a_bot_thinks_saves(tmp_path):
    st, _, out = _play(["1", "1"], tmp_path, bots=[_Interrupted(3), _Last(), _Last()], save_path=tmp_path / "b.json")
    assert "(interrupted (Ctrl-C)); the game so far is saved to" in out
    assert st.current == 1 and len(st.tricks) == 1  # West's 3rd decision: its card of trick 2
    _assert_replays_as(tmp_path / "b.json", st)


def test_quit_at_the_first_prompt_gives_a_record_without_actions_that_replays(tmp_path, capsys):
    out = io.StringIO()
    human = HumanPolicy(input_fn=_scripted(["quit"]), output=out)
    st = play_game_interactive([human, _Last(), _Last(), _Last()], Rules(), 5, 0, output=out, dealer=3,
                               save_path=tmp_path / "q.json")
    assert st.actions == [] and "game stopped during the bidding (you quit)" in out.getvalue()
    assert main(["replay", str(tmp_path / "q.json")]) == 0
    assert capsys.readouterr().out.endswith(
        "  auction so far: (no bid yet)\n  the record stops here, South (seat 0) to act\n"
        "final scores: team 0 0, team 1 0; winner: none yet (the game is not finished)\n")


def test_play_finished_game_is_saved(tmp_path):
    answers = ["1"] * 20
    st, _, out = _play(answers, tmp_path, save_path=tmp_path / "f.json", rules=Rules(target=None))
    assert st.is_game_over and f"record saved to {tmp_path / 'f.json'}" in out
    _assert_replays_as(tmp_path / "f.json", st)


def test_choices_are_cards_and_bids_in_words_and_do_not_depend_on_hidden_cards():
    """RULES.md §11: South's view is the same when West's and North's hands differ."""
    deck = list(range(32))  # dealer East: South gets 7♠ 8♠ 9♠ + J♥ Q♥, J♦ turned
    other = deck[:]
    other[3], other[6] = other[6], other[3]  # West and North swap a card
    views = []
    for d in (deck, other):
        st = GameState(Rules(), dealer=3, deck=d)
        out = io.StringIO()
        hp = HumanPolicy(input_fn=_scripted(["help", "♦ trump"]), output=out)
        assert hp.act(st.information_set(0)) == TAKE  # the turned suit named in round 1 means take
        st.apply(TAKE)
        hp.input_fn = _scripted(["8s"])
        assert hp.act(st.information_set(0)) == parse_card("8♠")
        views.append(out.getvalue())
    assert views[0] == views[1]
    assert views[0].startswith(
        "\nYou: South (seat 0), partner North; dealer East; game score us 0 - them 0\n"
        "Turned card: J♦ (bidding round 1)\n"
        "Your hand: 7♠ 8♠ 9♠  |  J♥ Q♥\n"
        "Choices: [1] pass  [2] take (♦ trump)   (help, quit)\n" + HELP_TEXT + "\n")
    # after the take South holds J♦ and two stock cards (deck[21], deck[22] = Q♦ K♦)
    assert ("Contract: ♦ trump, taken by South; turned card J♦\n"
            "Bids: South take (♦ trump)\n"
            "Tricks played: 0; card points us 0 - them 0\n"
            "Trick: (empty)\n"
            "Your hand: 7♠* 8♠* 9♠*  |  J♥* Q♥*  |  J♦* Q♦* K♦*\n"
            "Choices: [1] 7♠  [2] 8♠  [3] 9♠  [4] J♥  [5] Q♥  [6] J♦  [7] Q♦  [8] K♦   (help, quit)\n"
            ) in views[0]
    assert "=" not in views[0]  # no raw ids like 17=8♦


def test_parse_input_accepts_card_text_words_and_numbers():
    cards = tuple(parse_card(c) for c in ("8♦", "10♥", "J♥"))
    assert [parse_input(t, cards)[0] for t in ("8d", "8♦", "10h", "Jh", "th", "2")] == [
        cards[0], cards[0], cards[1], cards[2], cards[1], cards[1]]
    turned_d = parse_card("J♦")
    assert parse_input("take (♦ trump)", (PASS, TAKE), turned_d) == (TAKE, "")
    assert parse_input("d trump", (PASS, TAKE), turned_d) == (TAKE, "")
    round2 = (PASS, NAME_CONTRACT + 0, NAME_CONTRACT + 1, NAME_CONTRACT + 3)
    assert parse_input("♥ trump", round2, turned_d) == (NAME_CONTRACT + 1, "")
    assert parse_input("trump clubs", round2, turned_d) == (NAME_CONTRACT + 3, "")
    assert parse_input("♦ trump", round2, turned_d) == (None, "'♦ trump' (♦ trump) is not legal now")
    assert parse_input("9s", cards) == (None, "9♠ is not legal now")


# ------------------------------------------------------------------ task 3: belote replay
def _seeded_game():
    st = GameState(Rules(), seed=7, dealer=0)
    rng = random.Random(7)
    while not st.is_game_over:
        while not st.is_deal_over:
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
        if not st.is_game_over:
            st.next_deal()
    return st


FIRST_DEAL = """\
deal 0: dealer South (seat 0), turned card 9♣
  hands dealt (5 cards):
    South (0): K♠  |  7♥ K♥ A♥  |  7♦
    West  (1): 8♥  |  10♦ A♦  |  7♣ J♣
    North (2): Q♠  |  9♥ Q♥  |  Q♦  |  Q♣
    East  (3): 7♠ A♠  |  K♦  |  8♣ 10♣
  auction: West take (♣ trump)
  contract: ♣ trump, taken by West (seat 1, team 1)
  hands after the auction (8 cards):
    South (0): J♠ K♠  |  7♥ K♥ A♥  |  7♦ J♦  |  K♣
    West  (1): 8♥ 10♥  |  9♦ 10♦ A♦  |  7♣ 9♣ J♣
    North (2): 9♠ 10♠ Q♠  |  9♥ Q♥  |  8♦ Q♦  |  Q♣
    East  (3): 7♠ 8♠ A♠  |  J♥  |  K♦  |  8♣ 10♣ A♣
  trick 1: West 9♦, North Q♦, East K♦, South 7♦ -> East wins (7 points)
  trick 2: East A♣, South K♣, West J♣, North Q♣ -> West wins (38 points)
  trick 3: West 7♣, North 10♠, East 8♣, South J♠ -> East wins (12 points)
  trick 4: East J♥, South K♥, West 8♥, North 9♥ -> South wins (6 points)
  trick 5: South K♠, West 9♣, North 9♠, East A♠ -> West wins (29 points)
  trick 6: West 10♥, North Q♥, East 10♣, South 7♥ -> East wins (23 points)
  trick 7: East 8♠, South A♥, West 10♦, North Q♠ -> North wins (24 points)
  trick 8: North 8♦, East 7♠, South J♦, West A♦ -> West wins (13 points + 10 for the last trick)
  deal 0 score: made (taker team 1); team 0 - team 1: trick points 30 - 132; deal points 30 - 132; game 30 - 132
deal 1: dealer West (seat 1), turned card 9♦
"""


def test_replay_shows_hands_auction_tricks_and_scores(tmp_path, capsys):
    st = _seeded_game()
    d0 = st.deal_scores[0]
    # hand-checked (clubs trump): trick 1 K♦ wins 0+3+4+0 = 7; trick 2 J♣ (trump) wins 11+4+20+3 = 38;
    # team 0 won tricks 4 and 7: 6 + 24 = 30, team 1 the rest + 10 for the last trick = 132; West made it
    assert (d0.outcome, d0.trick_points, d0.belote, d0.declarations, d0.points) == (
        "made", (30, 132), (0, 0), (0, 0), (30, 132))
    path = save_game(st, tmp_path / "g.json")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(FIRST_DEAL)
    assert out.count("deal 0 score") == 1 and out.count("\ndeal ") == len(st.deal_log) - 1
    assert out.endswith(f"final scores: team 0 {st.scores[0]}, team 1 {st.scores[1]}; winner: team 1 (West, East)\n")
    assert st.winner == 1
    # every deal's score line right after its 8th trick, with the engine's numbers
    lines = out.splitlines()
    for i, d in enumerate(st.deal_scores):
        k = next(n for n, line in enumerate(lines) if line.startswith(f"  deal {i} score: "))
        assert lines[k - 1].startswith("  trick 8: ")
        assert f"deal points {d.points[0]} - {d.points[1]}" in lines[k]
    assert list(replay_text(game_record(st))) == lines
    assert main(["replay", str(path), "--legal"]) == 0
    legal_out = capsys.readouterr().out
    assert "    [0] West -> take (♣ trump)   legal: pass, take (♣ trump)\n" in legal_out


def test_replay_cli_names_the_file_on_an_illegal_action(tmp_path, capsys):
    rec = game_record(_seeded_game())
    rec["deals"][0]["actions"][1] = [1, 5]  # West leads Q♠ (id 5), a card it does not hold
    bad = tmp_path / "bad.json"
    write_record(bad, rec)
    assert main(["replay", str(bad)]) == 2
    out, err = capsys.readouterr()
    assert out.startswith("deal 0: dealer South") and "  auction: West take (♣ trump)\n" in out
    assert err.startswith(f"belote replay: error: {bad}: deal 0 action 1: ")


# ------------------------------------------------------------------ two and three players
@pytest.mark.parametrize("preset", ["seed001_2p", "seed001_3p"])
def test_a_small_table_record_from_belote_play_replays(preset, tmp_path, monkeypatch, capsys):
    """``belote play --save`` at two and three seats writes a record that ``belote replay``
    shows: hands, auction, contract, completion, tricks and each deal's score per seat;
    ``--json`` gives the same steps as the game."""
    import builtins
    import json as _json

    monkeypatch.setattr(builtins, "input", _scripted(["1"] * 400 + [EOFError]))
    save = tmp_path / "small.json"
    code = main(["play", "--rules", preset, "--opponents", "easy", "--seed", "4", "--save", str(save)])
    assert code in (0, 130)
    capsys.readouterr()
    rec = read_record(save)
    st = replay(rec)
    n = load_rules(preset).players
    assert len(st.scores) == n and len(rec["result"]["scores"]) == n
    assert main(["replay", str(save)]) == 0
    text = capsys.readouterr().out
    assert text.startswith("deal 0: dealer South (seat 0), turned card ")
    assert "  hands dealt (6 cards):\n" in text and "  auction: " in text and "  contract: " in text
    assert "  hands once the deal is completed:\n" in text and "  trick 1: " in text
    assert re.search(r"\n  deal \d+ score: (made|failed|equal) \(maker \w+ \(seat \d\)\); totals South \d+", text)
    assert text.rstrip().splitlines()[-1].startswith("final scores: South ")
    assert main(["replay", str(save), "--json"]) == 0
    steps = _json.loads(capsys.readouterr().out)["steps"]
    assert [[s["seat"], s["action"]] for s in steps] == [a for d in rec["deals"] for a in d["actions"]]


class _BadAtCards:
    """Plays the lowest legal action, then an illegal card once the cards are played."""

    name = "bad-at-cards"

    def act(self, info):
        return 31 - min(info.legal_actions) if info.phase == 1 and info.legal_actions[0] < 32 and len(
            info.tricks) >= 2 else info.legal_actions[0]


def make_bad_at_cards():
    return _BadAtCards()


@pytest.mark.parametrize("preset", ["seed001_2p", "seed001_3p"])
def test_a_small_table_failure_record_from_belote_eval_replays(preset, tmp_path, monkeypatch, capsys):
    """A bot's illegal card stops ``belote eval`` with the position saved as a record
    that ``belote replay`` replays up to that decision."""
    monkeypatch.chdir(tmp_path)
    rec_path = tmp_path / "fail.json"
    assert main(["eval", "tests.test_play_replay:make_bad_at_cards", "easy", "--rules", preset, "--pairs", "1",
                 "--no-progress", "--failure-record", str(rec_path)]) == 2
    assert f"the position is saved as a replayable record: {rec_path}" in capsys.readouterr().err
    st = replay(read_record(rec_path))
    assert not st.is_deal_over and len(st.tricks) >= 2
    assert main(["replay", str(rec_path)]) == 0
    assert "the record stops here" in capsys.readouterr().out


def test_the_interactive_game_of_every_table_is_one_function(tmp_path):
    """``play_game_interactive`` plays two- and three-seat games too: each deal's end is
    the per-seat line (``deal_over_text``: the maker's fate and every seat's points, the
    person's seat marked), the game's end names the winner; the old names warn and call it."""
    import io

    from training import play

    rules = load_rules("seed001_2p", target=200)
    out = io.StringIO()
    st = play_game_interactive([_Last(), _Last()], rules, 4, 0, output=out, save_path=tmp_path / "g.json")
    text = out.getvalue()
    assert st.is_game_over and max(st.scores) >= 200
    s = st.deal_scores[-1]
    names = ("South", "North")
    assert (f"Deal over: maker {names[s.taker]} {s.outcome}; this deal South (you) {s.points[0]}, North "
            f"{s.points[1]}; game South (you) {st.scores[0]}, North {st.scores[1]}") in text
    assert text.rstrip().splitlines()[-2] == ("Game over: " + ("you win!" if st.winner == 0 else "North wins"))
    assert replay(read_record(tmp_path / "g.json")).scores == st.scores
    with pytest.warns(DeprecationWarning, match="play_game_interactive"):
        old = play.play_small_game_interactive
    assert old([_Last(), _Last()], rules, 4, 0, output=io.StringIO()).scores == st.scores
    with pytest.warns(DeprecationWarning, match="render_play_text"):
        assert play.small_play_text is play.render_play_text
