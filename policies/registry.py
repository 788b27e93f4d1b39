"""Names of the AI tiers, and ``make_policy`` to build any of them, load a checkpoint, or
call a user's policy factory (``"mypkg.agents:make"``)."""

from __future__ import annotations

import importlib
import os
import re
from pathlib import Path
from typing import Any, Callable

from belote_env.deprecation import renamed_in
from belote_env.games import game_of

from .base import Policy, RandomPolicy
from .easy import EasyPolicy
from .hard import HardPolicy, hard_oracle
from .normal import NormalPolicy

__all__ = ["TIERS", "CUTTHROAT_TIERS", "check_policy_rules", "make_policy", "check_policy_spec", "is_factory_spec", "load_factory", "factory_spec",
           "make_batch_policy"]


def _expert(seed: int | None = None) -> Policy:
    from .search import expert_policy  # numba and the solver only when asked for

    return expert_policy(seed)


#: Built-in tiers: name -> factory(seed) (RULES.md §12). ``hard`` plays the model of the
#: rules' contract mode (classic or coinche, ``policies.hard.HardPolicy.for_rules``).
TIERS: dict[str, Callable[[int | None], Policy]] = {
    "random": RandomPolicy,
    "easy": EasyPolicy,
    "normal": NormalPolicy,
    "hard": HardPolicy,
    "expert": _expert,
    "hard_oracle": hard_oracle,
}


#: Built-in tiers that play the two- and three-player games (TWO_THREE.md; ``Rules(players=2|3)``):
#: ``easy`` and ``normal`` through ``policies.cutthroat_play``, ``hard`` with the models of
#: ``policies/models/hard_2p`` and ``hard_3p``, ``expert`` through ``policies.search``,
#: ``random`` as everywhere, and ``<tier>+search`` of these (``policies.search``: the
#: tier's top cards searched). A tier that gains a small-table mode is added here
#: (``check_policy_rules`` is the one check).
CUTTHROAT_TIERS: tuple[str, ...] = ("random", "easy", "normal", "hard", "expert")


def check_policy_rules(spec: Any, rules: Any, load_folders: bool = True) -> None:
    """Raise ``ValueError`` when the policy ``spec`` cannot play under ``rules``, before any
    game starts: at two and three seats (``rules.players`` 2 or 3, TWO_THREE.md) only
    ``CUTTHROAT_TIERS`` can, alone or under ``+search`` (no teams); every tier plays every
    four-seat game; a model folder plays the game it was made for
    (``policies.network.RulesMismatchError`` naming both, ``CheckpointError`` for a folder
    that does not load); a team is checked member by member. Policy objects and factories
    pass; ``rules=None`` means four seats. ``load_folders=False`` passes model folders
    unloaded (``make_policy`` checks the one it loads)."""
    if rules is None or not isinstance(spec, str):
        return
    game = game_of(rules)
    players = rules.players
    supported = f"tiers for {players} players: {', '.join(CUTTHROAT_TIERS)} (or a policy factory 'module.path:attribute')"
    team = team_spec(spec)
    if team is not None:
        if not game.has_partners:
            raise ValueError(f"policy {spec!r} is a team (lead,partner) and the {players}-player game has no "
                             f"partners (TWO_THREE.md); {supported}")
        for member in team:
            check_policy_rules(member, rules, load_folders)
        return
    if spec.endswith("+search") and len(spec) > len("+search"):
        return check_policy_rules(spec[:-len("+search")], rules, load_folders)
    if (spec not in TIERS and timed_expert_budget(spec) is None and not is_factory_spec(spec)
            and Path(spec).is_dir()):  # a model folder (make_policy takes no other path): the game it reads
        if load_folders:
            from .network import NetworkPolicy

            NetworkPolicy.from_path(Path(spec)).check_rules(rules)
        return
    if game.has_partners:
        return
    if (spec in TIERS and spec not in CUTTHROAT_TIERS) or (timed_expert_budget(spec) is not None
                                                            and "expert" not in CUTTHROAT_TIERS):
        raise ValueError(f"tier {spec!r} does not play the {players}-player game (TWO_THREE.md) yet; {supported}")


#: ``expert@<N>ms``: the expert with a time budget of N milliseconds a move (1..MAX_BUDGET_MS)
_TIMED_EXPERT = re.compile(r"expert@([1-9][0-9]{0,5})ms")
MAX_BUDGET_MS = 600_000


def timed_expert_budget(spec: Any) -> float | None:
    """The time budget in seconds of an ``"expert@<N>ms"`` spec (N in 1..``MAX_BUDGET_MS``), else None."""
    m = _TIMED_EXPERT.fullmatch(spec) if isinstance(spec, str) else None
    return None if m is None or int(m.group(1)) > MAX_BUDGET_MS else int(m.group(1)) / 1000.0


_NAME = r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*"
_FACTORY_SPEC = re.compile(rf"({_NAME}):({_NAME})")


def team_spec(spec: Any) -> tuple[str, str] | None:
    """``(lead, partner)`` for a team spec ``"<lead>,<partner>"`` (one comma, both sides
    non-empty, and not an existing path): ``policies.team.Team`` of the two, ``lead`` at
    the team's first seat, ``partner`` at the second (four seats); else None."""
    if not isinstance(spec, str) or spec.count(",") != 1 or Path(spec).exists():
        return None
    lead, partner = spec.split(",")
    return (lead, partner) if lead and partner else None


def is_factory_spec(spec: Any) -> bool:
    """True for a policy-factory spec: ``"module.path:attribute"`` (dotted Python names on
    both sides of one colon, e.g. ``"mypkg.agents:make"``). Such a string names a factory,
    never a model folder (give a folder of that name as ``./mypkg.agents:make``)."""
    return isinstance(spec, str) and _FACTORY_SPEC.fullmatch(spec) is not None


def _exited(e: BaseException) -> str:
    """How a ``BaseException`` that is not an ``Exception`` (``SystemExit`` from ``sys.exit``
    or ``exit()``, ``GeneratorExit``, ...) ended the code of a policy factory."""
    if isinstance(e, SystemExit):
        return f"called sys.exit / exit ({e!r})"
    return f"raised {e!r}"


def load_factory(spec: str) -> Callable[[], Any]:
    """Import the policy factory ``"module.path:attribute"`` (without calling it).

    Raises ``ValueError`` naming the spec when it is not of that form, the module is not
    found (on ``sys.path`` / ``PYTHONPATH``) or raises or exits (``SystemExit``) on import,
    the attribute is missing, or it is not callable; when a file or folder of the spec's
    name exists, the message says to write it as ``./<spec>`` to load it as a model."""
    try:
        return _load_factory(spec)
    except ValueError as e:
        if isinstance(spec, str) and os.path.exists(spec):
            raise ValueError(f"{e}; note: {spec!r} is also an existing path, read as a policy factory "
                             f"'module.path:attribute': to load that model folder write it as "
                             f"{'./' + spec!r}") from e.__cause__
        raise


def _load_factory(spec: str) -> Callable[[], Any]:
    m = _FACTORY_SPEC.fullmatch(spec) if isinstance(spec, str) else None
    if m is None:
        raise ValueError(f"a policy factory must be named 'module.path:attribute' (e.g. 'mypkg.agents:make'), "
                         f"got {spec!r}")
    module, attr = m.groups()
    try:
        obj = importlib.import_module(module)
    except ModuleNotFoundError as e:
        if e.name is not None and (module == e.name or module.startswith(e.name + ".")):
            raise ValueError(f"policy factory {spec!r}: no module named {e.name!r} (the module must be importable: "
                             f"on PYTHONPATH, installed, or in the current folder for the belote command)") from None
        raise ValueError(f"policy factory {spec!r}: importing module {module!r} failed: {e}") from e
    except Exception as e:
        raise ValueError(f"policy factory {spec!r}: importing module {module!r} raised {e!r}") from e
    except KeyboardInterrupt:
        raise
    except BaseException as e:  # SystemExit (sys.exit / exit() in the module) must not end the program quietly
        raise ValueError(f"policy factory {spec!r}: importing module {module!r} {_exited(e)}; a module holding "
                         f"a policy factory must import without exiting") from None
    where = module
    for part in attr.split("."):
        missing = object()
        try:
            found = getattr(obj, part, missing)
        except KeyboardInterrupt:
            raise
        except BaseException as e:  # a module __getattr__ or property that raises or exits
            raise ValueError(f"policy factory {spec!r}: reading {part!r} of {where!r} {_exited(e)}") from None
        if found is missing:
            hint = ""
            if module == "__main__":
                hint = ("; a factory defined in __main__ is found by worker processes only when the main program "
                        "is a file: put it in an importable module")
            raise ValueError(f"policy factory {spec!r}: {where!r} ({getattr(obj, '__file__', None) or type(obj)}) "
                             f"has no attribute {part!r}{hint}")
        obj = found
        where = f"{where}.{part}"
    if not callable(obj):
        raise ValueError(f"policy factory {spec!r} is not callable: it is {obj!r}; it must be a function or class "
                         f"that returns a policy when called with no arguments")
    return obj


def factory_spec(factory: Callable[[], Any]) -> str:
    """The ``"module:qualified.name"`` spec of a policy factory given as an object (a
    function or class defined at the top level of a module, or a class's static / class
    method): what worker processes import. Raises ``ValueError`` when the object cannot be
    imported back by that name (a lambda, a nested function, an instance)."""
    module, qual = getattr(factory, "__module__", None), getattr(factory, "__qualname__", None)
    spec = f"{module}:{qual}"
    if not (isinstance(module, str) and isinstance(qual, str) and is_factory_spec(spec)):
        raise ValueError(f"policy factory {factory!r} is not importable by name (a lambda, a nested function or "
                         f"an instance?): define it at the top level of a module, or pass 'module.path:attribute'")
    try:
        found = load_factory(spec)
    except ValueError as e:
        raise ValueError(f"policy factory {factory!r} is not importable by name: {e}") from None
    if found is not factory and found != factory:
        raise ValueError(f"policy factory {factory!r} is not importable by name: {spec!r} names another object")
    return spec


def _call_factory(spec: str) -> Policy:
    factory = load_factory(spec)
    try:
        pol = factory()
    except Exception as e:
        raise ValueError(f"policy factory {spec!r} raised {e!r} when called with no arguments "
                         f"(a factory is called as factory() and returns a policy)") from e
    except KeyboardInterrupt:
        raise
    except BaseException as e:  # SystemExit (e.g. 'builtins:exit') must not end the program quietly
        raise ValueError(f"policy factory {spec!r} {_exited(e)} when called with no arguments (a factory is "
                         f"called as factory() and returns a policy)") from None
    if not callable(getattr(pol, "act", None)):
        raise ValueError(f"policy factory {spec!r} returned {pol!r}, not a policy: it has no act(info) method")
    if not isinstance(getattr(pol, "name", None), str):
        raise ValueError(f"policy factory {spec!r} returned {pol!r}, not a policy: its name must be a str, "
                         f"got {getattr(pol, 'name', None)!r}")
    return pol


def check_policy_spec(spec: str | os.PathLike) -> None:
    """Raise ``ValueError`` unless ``make_policy`` accepts ``spec`` by name: a tier name,
    ``"<spec>+search"`` of an accepted spec, a policy factory ``"module.path:attribute"``
    (imported and checked callable, not called), or an existing path. Builds nothing and
    reads no model file (a bad model folder still raises ``CheckpointError`` when loaded)."""
    if isinstance(spec, str) and spec in TIERS or timed_expert_budget(spec) is not None:
        return
    if team_spec(spec) is not None:
        for part in team_spec(spec):
            check_policy_spec(part)
        return
    if isinstance(spec, str) and spec.endswith("+search") and len(spec) > len("+search"):
        return check_policy_spec(spec[:-len("+search")])
    if is_factory_spec(spec):
        load_factory(spec)
        return
    if not isinstance(spec, (str, os.PathLike)):
        raise ValueError(f"a policy must be named by a tier name ({', '.join(TIERS)}), a policy factory "
                         f"'module.path:attribute' or a model folder path, got {spec!r}")
    if not spec or not Path(spec).exists():
        tier, at, _ = str(spec).partition("@")
        if at and tier in TIERS:
            raise ValueError(f"policy {str(spec)!r}: a time budget a move is written expert@<N>ms, N an int in "
                             f"1..{MAX_BUDGET_MS} (milliseconds), e.g. expert@50ms; only the expert tier takes one")
        hint = " (a policy factory is named 'module.path:attribute')" if ":" in str(spec) else ""
        raise ValueError(f"unknown policy {str(spec)!r}: expected one of {', '.join(TIERS)}, <policy>+search, a "
                         f"team <lead>,<partner>, a model folder path or a policy factory module.path:attribute{hint}")


def make_policy(spec: str | os.PathLike, seed: int | None = None, rules: Any = None) -> Policy:
    """A policy from a tier name (``random``, ``easy``, ``normal``, ``hard``, ``expert``), a
    policy factory or a model folder path; ``"expert@<N>ms"`` is the expert searching within
    N milliseconds a move (``time_budget``; its candidate worlds weighed as the search draws
    them, ``belief_lazy``, so that the budget covers the weighing; at least the first
    ``min_samples`` worlds are searched whatever the budget; at two and three seats the
    budget bounds its solved card decisions, the seats' other decisions are hard's; a
    wall-clock budget: its play depends on the machine's speed, not on the seed alone);
    ``"<spec>+search"`` puts the search of ``policies.search`` on top of that policy (it
    searches the policy's top ``SEARCH_TOP_K`` actions); ``"<lead>,<partner>"`` is a team of two policies
    (``policies.team.Team``: ``lead`` at the team's first seat, ``partner`` at the second;
    four seats), e.g. ``"hard,normal"`` to measure hard as normal's partner.

    A policy factory is named ``"module.path:attribute"`` (e.g. ``"mypkg.agents:make"``): the
    module is imported and the attribute called with no arguments (the rules are in every
    ``info.rules``); it must return a policy (``name`` a str, ``act(info) -> id``). ``seed``
    is not passed to it: duplicate matches reseed a ``random.Random`` kept as the policy's
    ``rng`` attribute for every pair and side, as they do for the tiers, so keep the
    policy's random numbers there (a policy holding other generators or policies defines
    ``reseed(key)`` and reseeds them all: ``policies.base.reseed``).

    ``"hard"`` plays the hard model of the rules' contract mode (``policies.hard``): the
    classic model (``policies/models/hard``) under classic rules, the coinche one
    (``policies/models/hard_coinche``, loaded on the first coinche information set) under
    coinche rules. A model folder plays the game it was made for: given ``rules`` of another,
    ``policies.network.RulesMismatchError`` is raised here (``check_policy_rules``), else at
    its first decision.

    ``rules`` (optional ``Rules``): the rules the policy will play; at two and three seats
    a tier outside ``CUTTHROAT_TIERS`` raises ``ValueError`` naming the supported ones
    (``check_policy_rules``); ``rules`` that are not a ``Rules`` (a preset name, a dict:
    ``belote_env.load_rules`` makes one) raise ``TypeError``.

    Raises ``ValueError`` for an unknown name that is not an existing path or a factory that
    cannot be imported, is not callable or returns no policy (``load_factory``), and
    ``policies.network.CheckpointError`` for a bad model folder.
    """
    if rules is not None:  # a model folder is checked once loaded, below
        check_policy_rules(spec, rules, load_folders=False)
    if isinstance(spec, str) and spec in TIERS:
        return TIERS[spec](seed)
    budget = timed_expert_budget(spec)
    if budget is not None:  # the expert within a time budget a move: its worlds weighed as it searches them
        from .search import expert_policy

        policy = expert_policy(seed)
        policy.time_budget, policy.belief_lazy, policy.name = budget, True, spec
        return policy
    if team_spec(spec) is not None:
        from .team import Team

        lead, partner = team_spec(spec)
        return Team(make_policy(lead, seed=seed, rules=rules), make_policy(partner, seed=seed, rules=rules), name=spec)
    if isinstance(spec, str) and spec.endswith("+search") and len(spec) > len("+search"):
        from .search import SEARCH_TOP_K, SearchPolicy

        base = make_policy(spec[:-len("+search")], seed=seed, rules=rules)
        return SearchPolicy(seed, base=base, top_k=SEARCH_TOP_K, name=spec)
    if is_factory_spec(spec):
        return _call_factory(spec)
    check_policy_spec(spec)
    from .network import NetworkPolicy

    policy = NetworkPolicy.from_path(Path(spec), seed=seed)
    if rules is not None:
        policy.check_rules(rules)
    return policy


def make_batch_policy(spec: str | os.PathLike, seed: int | None = None):
    """``as_batch_policy(make_policy(spec, seed))`` (``policies.batch``): a tier name, a
    policy factory ``"module.path:attribute"`` or a model folder, deciding for a batch of
    tables (errors as ``make_policy``)."""
    from .batch import as_batch_policy

    return as_batch_policy(make_policy(spec, seed=seed))


#: the old names of the two- and three-seat (cutthroat) game's parts, for one release
__getattr__ = renamed_in(__name__, globals(), {
    "SMALL_TABLE_TIERS": "CUTTHROAT_TIERS",
})
