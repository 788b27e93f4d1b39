"""The screens of ``belote play`` (driven through a pseudo-terminal as a person sees them),
its options (``--partner`` at two and three seats), coinche bids typed in words, the
end-of-deal line, ``belote eval``'s counts of pairs, and ``belote ladder --plot``'s title."""

import codecs
import io
import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from belote_env import GameState, load_rules
from belote_env.actions import COINCHE, PASS, SURCOINCHE, coinche_bid_action
from belote_env.cards import parse_card
from belote_env.records import read_record, replay_text
from training.cli import main
from training.play import HumanPolicy, help_text, parse_input, play_game_interactive

ROOT = Path(__file__).resolve().parents[1]
PROMPT = "your move> "


class _Terminal:
    """``python -m training.cli play ARGS`` in a pseudo-terminal: ``next_screen()`` reads
    what it writes up to its next prompt (or ``marker``), ``type(line)`` types a line."""

    def __init__(self, *args: str):
        master, slave = pty.openpty()
        env = dict(os.environ, PYTHONIOENCODING="utf-8", PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen([sys.executable, "-m", "training.cli", "play", *args], stdin=slave,
                                     stdout=slave, stderr=slave, cwd=ROOT, env=env, close_fds=True)
        os.close(slave)
        self.master, self.text, self.pos = master, "", 0
        self._decode = codecs.getincrementaldecoder("utf-8")().decode

    def next_screen(self, marker: str = PROMPT, timeout: float = 15.0) -> str:
        end = time.monotonic() + timeout
        while marker not in self.text[self.pos:]:
            ready, _, _ = select.select([self.master], [], [], max(0.0, end - time.monotonic()))
            try:
                data = os.read(self.master, 65536) if ready else b""
            except OSError:  # EIO: the program closed the terminal
                data = b""
            if not data:
                raise AssertionError(f"{marker!r} did not appear; the screen ends with:\n{self.text[-3000:]}")
            self.text += self._decode(data).replace("\r\n", "\n")
        start, self.pos = self.pos, self.text.index(marker, self.pos) + len(marker)
        return self.text[start:self.pos]

    def type(self, line: str) -> None:
        os.write(self.master, (line + "\n").encode())

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)
        os.close(self.master)


@pytest.fixture
def terminal():
    opened = []

    def start(*args):
        opened.append(_Terminal(*args))
        return opened[-1]

    yield start
    for t in opened:
        t.close()


# ------------------------------------------------------------------ three seats: names, no ids, keep
KEEP_LINE = "  West (easy): keep (does not exchange the seven of trumps; every seat is asked, holding it or not)\n"


def test_three_player_screen_names_seats_as_the_table_lists_no_ids_and_explains_keep(terminal, tmp_path):
    """seed001_3p, seed 11: West accepts the turned Q♦, keeps (no exchange), East exchanges
    the seven; the move log, the trick lines and the screen all say West / East / South."""
    save = tmp_path / "g.json"
    term = terminal("--rules", "seed001_3p", "--opponents", "easy", "--seed", "11", "--save", str(save))
    screen = term.next_screen()
    assert screen.startswith("type help for how to enter a card or a bid, quit to save the game and stop\n"
                             "  West (easy): take (♦ trump)\n" + KEEP_LINE
                             + "  East (easy): exchange 7 of trump\n"
                             "  West (easy): 7♠\n"
                             "  East (easy): 8♠\n")
    assert "Bids: West take (♦ trump)\n" in screen
    assert "East (seat 2) exchanged the seven of trumps for Q♦\n" in screen
    assert screen.endswith("Trick: West 7♠, East 8♠\nStep: card play\n"
                           "Your hand: 10♠* A♠*  |  8♥ K♥  |  K♦ A♦  |  7♣ 8♣ 9♣\n"
                           "Choices: [1] 10♠  [2] A♠   (help, quit)\n" + PROMPT)
    assert "Legal:" not in screen and "  seat " not in screen  # the four-seat screen has neither
    term.type("1")
    screen = term.next_screen()
    assert screen.startswith("1\n  trick 1 won by South (10 points)\n")
    assert "Last trick: West 7♠, East 8♠, South 10♠ (won by South)\n" in screen
    term.type("quit")
    assert "the game so far is saved to" in term.next_screen("saved to")
    assert term.proc.wait(10) == 0


def test_three_player_keep_offered_to_the_person_is_explained(terminal, tmp_path):
    """seed001_3p, seed 14: in deal 2 West accepts the turned Q♥ and South (without the
    seven) is asked first: its only choice, keep, says what it means."""
    term = terminal("--rules", "seed001_3p", "--opponents", "easy", "--seed", "14", "--save", str(tmp_path / "g.json"))
    for _ in range(40):  # deal 1 has 9 tricks: the keep comes within 40 prompts
        screen = term.next_screen()
        if "Choices: [1] keep" in screen:
            break
        term.type("1")
    else:
        raise AssertionError("no keep offered")
    assert screen.endswith("Step: exchange of the seven of trumps\n"
                           "Your hand: 7♠ 8♠ Q♠  |  10♥ K♥ A♥  |  J♦ K♦  |  K♣\n"
                           "Choices: [1] keep   (help, quit)\n"
                           "  (keep: does not exchange the seven of trumps; every seat is asked, holding it or not)\n"
                           + PROMPT)
    assert "Legal:" not in screen
    term.type("1")
    assert term.next_screen().startswith("1\n" + KEEP_LINE + "  East (easy): exchange 7 of trump\n")
    term.type("quit")
    term.next_screen("saved to")


# ------------------------------------------------------------------ --partner at two and three seats
@pytest.mark.parametrize("preset,n", [("seed001_2p", 2), ("seed001_3p", 3)])
def test_play_partner_at_a_small_table_exits_2_naming_the_option(preset, n, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["play", "--rules", preset, "--partner", "hard", "--opponents", "easy", "--seed", "1"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == (f"belote play: error: --partner hard: the {n}-player game has no partner (no fixed "
                                 "teams, TWO_THREE.md): every other seat plays --opponents; leave --partner out\n")
    assert not list(tmp_path.iterdir())  # no game was started, nothing saved


def test_play_partner_still_chooses_the_partner_at_four_seats(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n1\nquit\n"))
    save = tmp_path / "g.json"
    assert main(["play", "--partner", "easy", "--opponents", "random", "--seed", "3", "--save", str(save)]) == 0
    assert re.search(r"\n  North \(easy\): ", capsys.readouterr().out)


# ------------------------------------------------------------------ coinche bids in words
SA_TA = load_rules("coinche_ffb_coinche_2015")  # suits, no-trump and all-trump (coinche_denominations)
FIRST_BID = tuple(GameState(SA_TA, seed=1, dealer=0).legal_actions())  # pass, 80..160 and capot in 6


@pytest.mark.parametrize("text,level,denomination", [
    ("110 clubs", 110, 3), ("110 c", 110, 3), ("110c", 110, 3), ("110 ♣", 110, 3), ("110 C", 110, 3),
    ("110 Clubs", 110, 3), ("110♣", 110, 3), ("110 club", 110, 3), ("110 ♣ trump", 110, 3),
    ("bid 110 clubs", 110, 3), ("110 trèfle", 110, 3), ("80 sa", 80, 4), ("80 SA", 80, 4), ("80 no trump", 80, 4),
    ("80 nt", 80, 4), ("80 no-trump", 80, 4), ("80 sans atout", 80, 4), ("90 tout atout", 90, 5),
    ("90 all trump", 90, 5), ("90 ta", 90, 5), ("160 ♠", 160, 0), ("100 h", 100, 1), ("capot hearts", "capot", 1),
    ("capot ♥", "capot", 1), ("Capot H", "capot", 1), ("capot sa", "capot", 4),
])
def test_parse_input_reads_coinche_bids_as_a_value_and_a_trump(text, level, denomination):
    want = coinche_bid_action(level, denomination)
    assert want in FIRST_BID
    assert parse_input(text, FIRST_BID, None, SA_TA) == (want, "")


def _coinche_states(rules):
    """The first bid, then after 80 ♠ by West (North may coinche), then after North's coinche
    (East, West's partner, may surcoinche)."""
    st = GameState(rules, seed=1, dealer=0)
    first = tuple(st.legal_actions())
    st.apply(coinche_bid_action(80, 0))
    after_bid = tuple(st.legal_actions())
    st.apply(COINCHE)
    return first, after_bid, tuple(st.legal_actions())


def test_parse_input_reads_coinche_and_surcoinche_and_explains_what_is_not_legal():
    rules = load_rules("coinche")
    first, after_bid, after_coinche = _coinche_states(rules)
    assert after_coinche == (PASS, SURCOINCHE)
    for word in ("coinche", "Contre"):
        assert parse_input(word, after_bid, None, rules) == (COINCHE, "")
    assert parse_input("surcoinche", after_coinche, None, rules) == (SURCOINCHE, "")
    assert parse_input("coinche", first, None, rules) == (
        None, "'coinche' (coinche) is not legal now; legal now: pass, bids 80..160 or capot in ♠ ♥ ♦ ♣")
    assert parse_input("80 clubs", after_bid, None, rules) == (
        None, "'80 clubs' (80 ♣ trump) is not legal now; legal now: pass, bids 90..160 or capot in ♠ ♥ ♦ ♣, "
              "coinche")
    assert parse_input("110 hearts", after_coinche, None, rules) == (
        None, "'110 hearts' (110 ♥ trump) is not legal now; legal now: pass, surcoinche")
    # rules without no-trump, a value above the rules' top, a value or a trump missing
    assert parse_input("80 sa", first, None, rules) == (
        None, "no-trump and all-trump are not bid under these rules (coinche_denominations: suits): name a suit, "
              "♠ ♥ ♦ ♣")
    assert parse_input("170 hearts", first, None, rules) == (
        None, "values go up to 160 under these rules (max_numeric_bid)")
    assert parse_input("85 hearts", first, None, rules) == (
        None, "a bid's value is 80, 90, 100, ... (a multiple of 10 from 80), got 85")
    assert parse_input("capot", first, None, rules) == (
        None, "name the trump too: capot ♠, capot hearts, ...; legal now: pass, bids 80..160 or capot in "
              "♠ ♥ ♦ ♣")
    assert parse_input("110", first, None, rules) == (
        None, "number 110 is not in the list 1..41; name the trump too: 110 ♠, 110 hearts, ...; legal now: pass, "
              "bids 80..160 or capot in ♠ ♥ ♦ ♣")
    assert parse_input("hearts", first, None, rules) == (
        None, "a coinche bid is a value and a trump, e.g. 80 hearts; legal now: pass, bids 80..160 or capot in "
              "♠ ♥ ♦ ♣")
    # a card is still a card (10c is the ten of clubs, not a bid of 10)
    ten = parse_card("10♣")
    assert parse_input("10c", (ten, parse_card("7♣")), None, rules) == (ten, "")


def test_parse_input_coinche_capot_and_generale_follow_the_rules():
    bga = load_rules("coinche_bga")  # no capot bid, values up to 170
    assert parse_input("capot hearts", _coinche_states(bga)[0], None, bga) == (
        None, "these rules have no capot bid (capot_bid: false)")
    assert parse_input("170 ta", _coinche_states(bga)[0], None, bga) == (coinche_bid_action(170, 5), "")
    plain = load_rules("coinche")
    assert parse_input("générale ♠", _coinche_states(plain)[0], None, plain) == (
        None, "these rules have no générale bid (generale: false)")
    gen = plain.replace(generale=True)
    assert parse_input("generale spades", _coinche_states(gen)[0], None, gen) == (coinche_bid_action("generale", 0), "")


def test_help_under_coinche_rules_describes_coinche_bids():
    text = help_text(SA_TA)
    assert ("  a bid        pass, or a value 80..160 by 10 and a trump: 110 clubs, 110c,\n"
            "               110 ♣, 110 clubs trump (trumps ♠ ♥ ♦ ♣ or s h d c, spades, hearts ...)\n"
            "               or no-trump / all-trump: 80 sa, 80 no trump, 80 nt, 90 ta, 90 tout atout\n"
            "               capot and a trump: capot hearts\n"
            "               coinche (double the opponents' bid), surcoinche (redouble a coinche)\n"
            "  an action    declare, belote") in text
    assert "take" not in text and "no-trump / all-trump" not in help_text(load_rules("coinche"))
    assert "générale and a trump: générale hearts" in help_text(load_rules("coinche").replace(generale=True))
    assert "a bid        pass, take" in help_text(load_rules("seed004"))


def test_coinche_bids_typed_at_the_prompt(terminal, tmp_path):
    """--rules coinche, seed 1: West opens 80 ♦, North and East pass; South reads the
    coinche help, is refused 80 ♣ (with what is legal) and 80 sa, then bids 110C."""
    save = tmp_path / "c.json"
    term = terminal("--rules", "coinche", "--partner", "easy", "--opponents", "easy", "--seed", "1",
                    "--save", str(save))
    screen = term.next_screen()
    assert "Bids: West 80 ♦ trump, North pass, East pass\n" in screen
    term.type("help")
    screen = term.next_screen()
    assert "  a bid        pass, or a value 80..160 by 10 and a trump: 110 clubs, 110c,\n" in screen
    assert "               capot and a trump: capot hearts\n" in screen and "take (the turned card" not in screen
    term.type("80 clubs")
    assert term.next_screen() == ("80 clubs\n  refused: '80 clubs' (80 ♣ trump) is not legal now; legal now: "
                                  "pass, bids 90..160 or capot in ♠ ♥ ♦ ♣, coinche\n" + PROMPT)
    term.type("80 sa")
    assert "refused: no-trump and all-trump are not bid under these rules" in term.next_screen()
    term.type("110C")
    screen = term.next_screen()
    assert "Bids: West 80 ♦ trump, North pass, East pass, South 110 ♣ trump" in screen
    term.type("quit")
    term.next_screen("saved to")
    assert term.proc.wait(10) == 0
    assert "  contract: 110 ♣ trump, bid by South (seat 0, team 0)" in replay_text(read_record(save))


# ------------------------------------------------------------------ the end-of-deal line
class _Last:
    """The highest legal id: takes at once, then plays its highest card."""

    name = "last"

    def act(self, info):
        return info.legal_actions[-1]


def _first_deal(rules, seed, tmp_path):
    """Play deal 0 of ``seed`` with South answering 1 (at most 30 times, then end of input)
    against three ``_Last``: the printed ``Deal over`` line and the replay's score line."""
    answers = iter(["1"] * 30)

    def input_fn(prompt):
        a = next(answers, None)
        if a is None:
            raise EOFError
        return a

    out = io.StringIO()
    save = tmp_path / f"d{seed}.json"
    play_game_interactive([HumanPolicy(input_fn=input_fn, output=out), _Last(), _Last(), _Last()], rules, seed, 0,
                          output=out, save_path=save)
    printed = next(line for line in out.getvalue().splitlines() if line.startswith("Deal over"))
    replayed = next(line for line in replay_text(read_record(save)) if line.startswith("  deal 0 score"))
    return printed, replayed


def test_deal_over_line_says_belote_rebelote_and_declarations(tmp_path):
    printed, replayed = _first_deal(load_rules("seed000"), 19, tmp_path)
    assert printed == ("Deal over: made (taker West); belote-rebelote you 20 - them 0; declarations you 50 - them 0; "
                       "deal: you 141 - them 91; game: you 141 - them 91")
    assert "belote 20 - 0, declarations 50 - 0; deal points 141 - 91" in replayed  # the same figures


def test_deal_over_line_says_capot(tmp_path):
    printed, replayed = _first_deal(load_rules("seed000"), 21, tmp_path)
    assert printed == "Deal over: made (taker West), capot by them; deal: you 0 - them 252; game: you 0 - them 252"
    assert "capot by team 1" in replayed
    printed, _ = _first_deal(load_rules("seed000"), 29, tmp_path)
    assert printed == "Deal over: dedans (taker West), capot by you; deal: you 252 - them 0; game: you 252 - them 0"


# ------------------------------------------------------------------ eval: one count of pairs
@pytest.mark.parametrize("given", [["--games", "1", "--pairs", "1"], ["--pairs", "1", "--deals", "2"],
                                   ["--games", "1", "--deals", "2"]])
def test_eval_games_pairs_and_deals_are_mutually_exclusive(given, capsys):
    assert main(["eval", "random", "random", *given, "--no-progress"]) == 2
    out, err = capsys.readouterr()
    both = " and ".join(given[0::2])
    assert out == "" and err == (f"belote eval: error: {both} cannot be given together: give one of --games N (N "
                                 "mirrored game pairs), --pairs N (N mirrored deal pairs) or --deals N (N single "
                                 "deals; 1000 by default)\n")


@pytest.mark.parametrize("given,first_line", [
    ([], "random vs random: 500 mirrored deal pairs, 1000 deals (seed 0)"),
    (["--deals", "4"], "random vs random: 2 mirrored deal pairs, 4 deals (seed 0)"),
    (["--pairs", "3"], "random vs random: 3 mirrored deal pairs, 6 deals (seed 0)"),
])
def test_eval_one_count_of_pairs_keeps_its_meaning(given, first_line, capsys):
    assert main(["eval", "random", "random", *given, "--no-progress"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == first_line


# ------------------------------------------------------------------ ladder --plot: a title
def test_ladder_plot_has_a_title_naming_ratings_intervals_and_pairs(tmp_path, capsys):
    svg = tmp_path / "ladder.svg"
    assert main(["ladder", "random", "easy", "--pairs", "2", "--plot", str(svg), "--no-progress"]) == 0
    assert f"plot saved to {svg}" in capsys.readouterr().out
    text = svg.read_text()  # matplotlib writes each line of a text as an SVG comment
    assert "<!-- Ratings of 2 policies (random = 1000) with 95% bootstrap intervals -->" in text
    assert "<!-- round-robin of 2 mirrored deal pairs per match -->" in text


def test_an_input_of_thousands_of_digits_is_refused_and_asked_again():
    """``int()`` of over 4,300 digits raises in Python: the prompt refuses the input by its
    length instead of ending the game unsaved."""
    from training.play import parse_input

    action, why = parse_input("1" * 5000, (32, 33))
    assert action is None and why.startswith("input of 5,000 characters")
    action, why = parse_input("1" * 150 + " c", (32, 40), rules=load_rules("coinche"))
    assert action is None and "80, 90, 100" in why


def test_play_without_a_seed_deals_a_new_game_and_prints_its_seed_once_stopped(monkeypatch, capsys, tmp_path):
    """A card table deals a new game each time: without --seed belote play draws one of 63
    random bits and prints it only once the game is over or stopped (it decides every hand,
    RULES.md §11); --seed with that number deals the same hand again."""
    monkeypatch.chdir(tmp_path)  # a quit game is saved in the current folder
    def first_screen(argv):
        monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
        assert main(argv) in (0, 130)
        return capsys.readouterr().out

    out = first_screen(["play", "--opponents", "easy", "--partner", "easy"])
    m = re.search(r"\nseed (\d+) \(belote play --seed \1 deals this game again\)\n$", out)
    assert m, out[-300:]
    assert out.count(m.group(1)) == 2 + out.count("belote_game_")  # nowhere before the game stopped but its file
    assert "game stopped" in out[:m.start()] and "seed" not in out[:out.index("game stopped")]
    again = first_screen(["play", "--opponents", "easy", "--partner", "easy", "--seed", m.group(1)])
    hand = [ln for ln in out.splitlines() if "Your hand" in ln or ln.startswith("Hand")]
    assert hand and hand == [ln for ln in again.splitlines() if "Your hand" in ln or ln.startswith("Hand")]
