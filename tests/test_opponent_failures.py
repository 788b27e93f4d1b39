"""Failing opponents and bots: an opponent policy of the Gymnasium env that fails in any way ends the
episode and its ``OpponentPolicyError`` describes only the type of what it returned or
raised (RULES.md §11); ``belote play`` with a bot that returns an illegal action or raises,
a policy factory in the current folder, and Ctrl-C before the first deal."""

import builtins
import io
import sys
import traceback

import numpy as np
import pytest

from belote_env import GameState, Rules
from belote_env.games import Game
from belote_env.actions import PASS, TAKE, action_to_string
from belote_env.cards import cards_of, parse_card
from belote_env.game import SEAT_NAMES
from belote_env.gym_env import BeloteGymEnv, OpponentPolicyError
from belote_env.records import read_record, replay
from training.cli import main
from training.play import BotFailure, HumanPolicy, play_game_interactive


def deck_for(hands: list[str], dealer: int, taker: int, turned: str) -> list[int]:
    """The deck that deals ``hands`` (8 card names per seat, the taker's holding ``turned``)
    once ``taker`` takes in round 1 (RULES.md §3.1, §3.5)."""
    cards = [[parse_card(c) for c in h.split()] for h in hands]
    t = parse_card(turned)
    first = [[c for c in h if c != t][:5] for h in cards]
    extra = [[c for c in h if c != t and c not in first[s]] for s, h in enumerate(cards)]
    order = [(dealer + 1 + i) % 4 for i in range(4)]
    deck = [c for s in order for c in first[s][:3]] + [c for s in order for c in first[s][3:]]
    deck += [t] + [c for s in order for c in extra[s]]
    assert sorted(deck) == list(range(32))
    return deck


# Seat 0 (the learner, eldest: dealer 3) takes J♠ and leads A♥; seat 1 holds one heart (7♥).
# Deals A and B differ only by 7♠ / 8♠ swapped between seats 1 and 2: seat 0's information
# set is the same in both, seat 1's hand (and lowest illegal card) is not.
HANDS_A = ["JS 9S AS AH AD AC 10D 10C", "7S 7H 8D 9D JD 7C 8C 9C",
           "8S 10S QS 8H 9H 10H JH QD", "KS KH QH KD 7D JC QC KC"]
HANDS_B = [HANDS_A[0], HANDS_A[1].replace("7S", "8S"), HANDS_A[2].replace("8S", "7S"), HANDS_A[3]]


def _bad_card(info) -> int:
    return next(c for c in cards_of(info.hand) if c not in info.legal_actions)


class _BadIndex:
    """An object whose ``__index__`` raises ``exc`` with a card name."""

    def __init__(self, card, exc=RuntimeError):
        self.card, self.exc = card, exc

    def __repr__(self):
        return f"Card({action_to_string(self.card)})"

    def __index__(self):
        raise self.exc(f"no index for {action_to_string(self.card)}")


class _IntShowingCard(int):
    def __repr__(self):
        return "I" + action_to_string(_IntShowingCard.card)

    __str__ = __repr__


class _StrSub(str):
    pass


def _raise(exc):
    raise exc


# what the policy returns (or raises) at its card play, from its information set; the
# description its error must give
BAD_RETURNS = {
    "str card": (lambda i: action_to_string(_bad_card(i)), "returned a str,"),
    "np.str_ card": (lambda i: np.str_(action_to_string(_bad_card(i))), "returned a str,"),
    "str subclass": (lambda i: _StrSub(action_to_string(_bad_card(i))), "returned a str,"),
    "bytes card": (lambda i: action_to_string(_bad_card(i)).encode(), "returned a bytes,"),
    "hand bitmask": (lambda i: i.hand, "returned an int,"),
    "card + 112": (lambda i: _bad_card(i) + 112, "returned an int,"),
    "-card - 1": (lambda i: -_bad_card(i) - 1, "returned an int,"),
    "illegal card": (lambda i: _bad_card(i), "returned an int,"),
    "np.int64 card": (lambda i: np.int64(_bad_card(i)), "returned a numpy int64,"),
    "5000-digit int": (lambda i: 10 ** 5000 + i.hand, "returned an int,"),
    "int subclass": (lambda i: _IntShowingCard(999 + _bad_card(i)), "returned an int,"),
    "float card": (lambda i: float(_bad_card(i)), "returned a float,"),
    "array sized by card": (lambda i: np.zeros(_bad_card(i) + 2, dtype=np.int64), "returned a numpy array,"),
    "array of legal ids": (lambda i: np.array(i.legal_actions + (_bad_card(i),)), "returned a numpy array,"),
    "size-1 array": (lambda i: np.array([_bad_card(i)]), "returned a numpy array,"),
    "tuple of hand": (lambda i: tuple(cards_of(i.hand)), "returned a tuple,"),
    "__index__ raises RuntimeError": (lambda i: _BadIndex(_bad_card(i)), "returned a _BadIndex,"),
    "__index__ raises ValueError": (lambda i: _BadIndex(_bad_card(i), ValueError), "returned a _BadIndex,"),
    "raises KeyError(card)": (lambda i: {}[_bad_card(i)], "raised KeyError ("),
    "raises ValueError(hand)": (lambda i: _raise(ValueError(f"hand {cards_of(i.hand)}")), "raised ValueError ("),
}


def _opponent_error(monkeypatch, hands, returned):
    deck = deck_for(hands, dealer=3, taker=0, turned="JS")
    monkeypatch.setattr(Game, "new_state",
                        lambda game, rng, dealer, **kw: GameState(game.rules, rng=rng, dealer=3, deck=deck, **kw))

    def policy(info):
        if info.phase == 0:
            return PASS
        _IntShowingCard.card = _bad_card(info)
        return returned(info)

    env = BeloteGymEnv(opponents=policy, learner_seat=0)
    obs = [env.reset(seed=0)[0]]
    obs.append(env.step(TAKE)[0])
    with pytest.raises(OpponentPolicyError) as exc:
        env.step(parse_card("AH"))
    return env, obs, exc.value


def _shown(e: BaseException) -> str:
    """Everything a traceback of ``e`` prints, without the file lines (paths, line numbers)."""
    return "".join(line for line in traceback.format_exception(e) if not line.startswith("  File "))


@pytest.mark.parametrize("kind", list(BAD_RETURNS))
def test_opponent_error_describes_only_the_type_the_same_for_deals_differing_in_hidden_cards(monkeypatch, kind):
    returned, want = BAD_RETURNS[kind]
    env_a, obs_a, ea = _opponent_error(monkeypatch, HANDS_A, returned)
    env_b, obs_b, eb = _opponent_error(monkeypatch, HANDS_B, returned)
    assert env_a.game.hands[1] != env_b.game.hands[1]
    assert all((a == b).all() for a, b in zip(obs_a, obs_b))  # the learner cannot tell the deals apart
    assert str(ea) == str(eb) and ea.args == eb.args and vars(ea) == vars(eb)
    assert ea.__cause__ is None and ea.__context__ is None and eb.__cause__ is None and eb.__context__ is None
    assert _shown(ea) == _shown(eb)
    assert ea.seat == 1 and ea.action is None and ea.policy.endswith("policy")
    assert f"at seat 1 (deal 0, trick 1, card 2) {want}" in str(ea)
    for text in ("7♠", "8♠", "7S", "8S", "shape", "legal ids:", "(1,)", "array(", "secret"):
        assert text not in str(ea)
    for env in (env_a, env_b):
        with pytest.raises(RuntimeError, match=r"call reset\(\)"):
            env.action_masks()
        with pytest.raises(RuntimeError, match=r"call reset\(\)"):
            env.step(parse_card("AS"))
        env.reset(seed=1)  # usable again after reset


class _Flaky:
    """A policy that fails on its ``n``-th decision by raising ``exc`` or returning an object
    whose ``__index__`` raises it; legal actions otherwise."""

    name = "flaky"

    def __init__(self, n, exc, via_index):
        self.n, self.exc, self.via_index = n, exc, via_index

    def act(self, info):
        self.n -= 1
        if self.n == 0:
            if self.via_index:
                return _BadIndex(info.legal_actions[0], self.exc)
            raise self.exc("stop")
        return info.legal_actions[0]


def _run_until(env, exc_type):
    env.reset(seed=1)
    for _ in range(40):
        env.step(int(np.flatnonzero(env.action_masks())[0]))
    raise AssertionError(f"no {exc_type.__name__}")


@pytest.mark.parametrize("via_index", [False, True], ids=["act raises", "__index__ raises"])
@pytest.mark.parametrize("exc", [KeyboardInterrupt, SystemExit, RuntimeError, MemoryError])
def test_any_failure_of_an_opponent_policy_ends_the_episode(exc, via_index):
    env = BeloteGymEnv(opponents=_Flaky(6, exc, via_index), learner_seat=0)
    expected = exc if not issubclass(exc, Exception) else OpponentPolicyError
    with pytest.raises(expected) as info:
        _run_until(env, expected)
    if expected is OpponentPolicyError:
        e = info.value
        assert e.__cause__ is None and e.__context__ is None and "stop" not in str(e)
        assert ("returned a _BadIndex," if via_index else f"raised {exc.__name__} (") in str(e)
    # the opponent is to act: neither its legal ids nor a move for it may come from the learner
    assert env.game.current not in env.seats
    with pytest.raises(RuntimeError, match=r"episode is over.*call reset\(\)"):
        env.action_masks()
    n = len(env.game.actions)
    with pytest.raises(RuntimeError, match=r"episode is over.*call reset\(\)"):
        env.step(int(env.game.legal_actions()[0]))
    assert len(env.game.actions) == n
    env.reset(seed=2)
    assert env.action_masks().any()


# ------------------------------------------------------------------ belote play
class _Leaky:
    """A bot that plays a card of its hand that is not legal (its first illegal card)."""

    name = "leaky"

    def act(self, info):
        bad = [c for c in cards_of(info.hand) if c not in info.legal_actions]
        return bad[0] if bad and info.phase == 1 else info.legal_actions[-1]


class _Raising:
    name = "raiser"

    def act(self, info):
        if info.phase == 1:
            raise KeyError(f"hand {cards_of(info.hand)}")
        return info.legal_actions[-1]


def _human(answers):
    it = iter(answers)
    return HumanPolicy(input_fn=lambda prompt: next(it), output=io.StringIO())


@pytest.mark.parametrize("bot,what", [(_Leaky, "returned an illegal action"), (_Raising, "raised KeyError")])
def test_play_bot_failure_hides_the_value_and_saves_the_game(tmp_path, bot, what):
    save = tmp_path / "g.json"
    out = io.StringIO()
    pols = [_human(["1"] * 40), bot(), bot(), bot()]
    with pytest.raises(ValueError) as exc:
        play_game_interactive(pols, Rules(), 5, 0, output=out, save_path=save)
    msg = str(exc.value)
    assert exc.value.__cause__ is None and exc.value.__context__ is None
    st = replay(read_record(save))
    seat = st.current
    assert not st.is_game_over and seat != 0 and st.phase == 1
    assert msg == (f"policy {bot.name!r} at seat {seat} ({SEAT_NAMES[seat]}) {what} (not shown: it could reveal "
                   f"that seat's hidden cards, RULES.md §11); the game so far is saved to {save} "
                   f"(belote replay {save} shows it)")
    assert isinstance(exc.value, BotFailure) and exc.value.path == save and exc.value.seat == seat


def test_play_cli_bot_failure_exits_2_with_the_saved_path(tmp_path, monkeypatch, capsys):
    (tmp_path / "leakymod_rgp.py").write_text(
        "from tests.test_opponent_failures import _Leaky\n\ndef make():\n    return _Leaky()\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))] + [str(tmp_path)])
    monkeypatch.setattr(builtins, "input", lambda prompt: "1")
    save = tmp_path / "g.json"
    assert main(["play", "--opponents", "leakymod_rgp:make", "--partner", "random", "--save", str(save)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("belote play: error: policy 'leaky' at seat ") and "returned an illegal action" in err
    assert f"saved to {save}" in err and len(err.splitlines()) == 1
    replay(read_record(save))


def test_play_finds_a_factory_module_in_the_current_folder(tmp_path, monkeypatch, capsys):
    (tmp_path / "cwdmod_rgp.py").write_text(
        "from policies.base import RandomPolicy\n\ndef make():\n    return RandomPolicy(0)\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    monkeypatch.delitem(sys.modules, "cwdmod_rgp", raising=False)
    monkeypatch.setattr(builtins, "input", lambda prompt: "quit")
    save = tmp_path / "g.json"
    assert main(["play", "--opponents", "cwdmod_rgp:make", "--partner", "random", "--save", str(save)]) == 0, \
        capsys.readouterr().err
    replay(read_record(save))


@pytest.mark.parametrize("where", ["load_rules", "make_policy"])
def test_play_ctrl_c_before_the_first_deal_exits_130_without_traceback(monkeypatch, capsys, where):
    import belote_env
    import policies

    def interrupted(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(belote_env if where == "load_rules" else policies, where, interrupted)
    assert main(["play"]) == 130
    out, err = capsys.readouterr()
    assert err == "belote play: interrupted (Ctrl-C) before the game started; nothing to save\n"


class _Passer:
    """Passes whenever it may (a match of two of them passes every deal out)."""

    name = "passer"

    def act(self, info):
        return PASS if PASS in info.legal_actions else info.legal_actions[0]


@pytest.mark.parametrize("batched", [False, True])
def test_eval_of_policies_that_pass_every_deal_exits_2_in_one_line(tmp_path, monkeypatch, capsys, batched):
    (tmp_path / "passmod_rgp.py").write_text(
        "from tests.test_opponent_failures import _Passer\n\ndef make(seed=None):\n    return _Passer()\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))] + [str(tmp_path)])
    monkeypatch.delitem(sys.modules, "passmod_rgp", raising=False)
    argv = ["eval", "passmod_rgp:make", "passmod_rgp:make", "--pairs", "2", "--no-progress"]
    assert main(argv + (["--batched"] if batched else [])) == 2
    err = capsys.readouterr().err
    assert err.startswith("belote eval: error: ") and "deals in a row were passed out" in err
    assert len(err.splitlines()) == 1
