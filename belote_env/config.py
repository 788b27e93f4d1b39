"""The rule options of RULES.md as one frozen, validated config object.

``Rules()`` is the default table (seed 004: classic team Belote, 32 cards). Every other
reading of the source documents is a named option (RULES.md §3-§8). Construction validates
every field: an unknown option or a bad value raises ``RuleOptionError`` naming the option
and what is allowed; nothing is silently corrected.

Pure Python (no numpy).
"""

from __future__ import annotations

import dataclasses
import functools
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from .deprecation import renamed_in

__all__ = ["Rules", "RuleOptionError", "OPTION_CHOICES", "INT_OPTION_RANGES", "load_rules", "preset_names",
           "PRESETS_DIR", "CONTRACT_MODES", "COINCHE_ONLY", "CLASSIC_ONLY", "MODE_DEFAULTS", "applies",
           "PLAYER_COUNTS", "CUTTHROAT_ONLY", "THREE_ONLY", "FOUR_ONLY", "CUTTHROAT_CHOICES", "CUTTHROAT_DEFAULTS", "variant_of",
           "COMBINATION_OPTIONS", "VARIANT_OPTIONS", "variant_rules", "stored_rules_as_read",
           "DEPENDENT_OPTIONS", "UNDEFINED_MIXES", "check_table", "check_keywords"]


class RuleOptionError(ValueError):
    """An unknown rule option, or a value outside what the option allows."""


#: The contract modes: the classic take/pass game (RULES.md §3) and the coinche auction game
#: (COINCHE.md; RULES.md §9).
CONTRACT_MODES = ("classic", "coinche")

#: Allowed values of each enumerated option, the default first (RULES.md section cited;
#: COINCHE.md §7 for the coinche options).
OPTION_CHOICES: dict[str, tuple] = {
    "contract_mode": CONTRACT_MODES,  # RULES.md §9, COINCHE.md §1.1
    "all_pass_redeal": ("same_dealer", "next_dealer"),  # §3.4 (coinche: next_dealer first, COINCHE.md §3.6)
    "round2_no_trump_all_trump": (False, True),  # §3
    "partner_master_free": (True, False),  # §4.2
    "undertrump": ("required", "discard_allowed"),  # §4.2
    "obligations": ("classic", "two_player"),  # §4
    "belote": ("auto", "optional"),  # §5
    "declarations": ("off", "auto", "choice"),  # §6
    "declaration_tie": ("eldest", "none", "taker_first"),  # §6
    "contract_counts_bonuses": (True, False, "declarations_only"),  # §7
    "tie": ("litige", "takers_made", "takers_fail", "defenders_keep"),  # §7
    "all_trump_points": ("pagat", "ffb2015"),  # §4
    "overtrump_partner": ("free", "must_overtrump"),  # COINCHE.md §4 (P2); both modes
    # ---- coinche mode only (COINCHE.md §7)
    "coinche_denominations": ("suits", "suits_sa_ta"),  # §3.5
    "denomination_order": ("none", "ranked"),  # §3.5
    "coinche_window": ("in_turn", "immediate"),  # §3.5
    "coinche_freezes": (True, False),  # §3.5
    "coincher_partner_speaks": (False, True),  # §3.3
    "capot_bid": (True, False),  # §8 (bga: no capot bid)
    "capot_coinchable": (True, False),  # §3.5
    "surcoinche_allowed": (True, False),  # §3.5
    "passes_to_end": (3, 4),  # §3.5
    "self_overbid": ("forbidden", "change_denomination"),  # §3.5 (passes_to_end 4 only)
    "generale": (False, True),  # §6.8
    "generale_value": (500, 1000),  # §6.8
    "generale_leads": (False, True),  # §4
    "belote_counts_for_contract": (True, False),  # §5
    "belote_prenable": (False, True),  # §5
    "scoring": ("made_plus_bid", "bid_only"),  # §6.3, §6.6
    "multiplier_scope": ("contract_only", "whole_score", "ffb_forfait", "bga"),  # §6.4, §6.6
    "surcoinche_multiplier": (4, 3),  # §6.1
    "contract_condition": ("reach_bid", "reach_bid_and_beat_defence"),  # §6.2
    "bid_80_means": (80, 82),  # §6.2
    "fail_base": (162, 160),  # §6.4
    "defence_capot_base": (252, 162, 160),  # §6.5
    "capot_points": (252, 250),  # §6.1
    "capot_scoring": ("contract", "flat"),  # §6.7
    "capot_value": (250, 270),  # §6.7
    "capot_fail_value": (500, 410),  # §6.7
    "tie_with_defence": ("fail", "litige"),  # §6.9
    "rounding": ("none", "half_up", "six_up"),  # §6.10
    "round_last_deal": (False, True),  # §6.10
    "target_rule": ("reach", "exceed"),  # §6.11
    "no_win_on_belote_alone": (False, True),  # §6.11
    # ---- two- and three-player Belote (TWO_THREE.md §4; ``players`` 2 or 3); ``run5_value``,
    # ``carres`` and ``failure`` also apply to the classic four-seat game (RULES.md §6-§7)
    "deal_packets": ("3-3", "2-2-2", "1-by-1"),  # A1
    "redeal_proposal": (True, False),  # A27 (adpoker-3: no proposal)
    "redeal_dealer": ("same", "elder"),  # A3
    "dealer_round2_proposal": (False, True),  # A7
    "dix_exchange": ("choice", "auto", "off"),  # A9
    "sequence_order": ("natural", "plain_trick_order"),  # A11
    "run5_value": (100, 50),  # RULES.md §6; A12 (two and three seats: CUTTHROAT_CHOICES)
    "sequence_compare": ("value_then_top", "length_then_top"),  # A12
    "carres": (True, False),  # RULES.md §6; A14 (two and three seats: CUTTHROAT_CHOICES)
    "capot_bonus": (0, 50, 90),  # A21
    "failure": ("maker_keeps_belote", "opponent_takes_all", "maker_zero"),  # RULES.md §7; A23 (CUTTHROAT_CHOICES)
    # ---- three-player Belote only (TWO_THREE.md §4)
    "three_player_deal": ("6+3", "10_each", "24_card"),  # A26
    "redeal_consent": ("both_others", "next_player"),  # A27
    "defender_partner_free": (False, True),  # A28
    "ruff_overtrump": ("required", "only_trump_lead"),  # A29
    "defender_split": ("half_floor", "half_ceil_next", "proportional"),  # A31
}

#: The table sizes (TWO_THREE.md: Belote for two and three; RULES.md: four in two teams).
PLAYER_COUNTS = (4, 2, 3)
#: Options of the two- and three-player game only (``None`` at four seats).
CUTTHROAT_ONLY = frozenset(("deal_packets", "redeal_proposal", "redeal_dealer", "dealer_round2_proposal", "dix_exchange",
                        "sequence_order", "sequence_compare", "capot_bonus", "three_player_deal", "redeal_consent",
                        "defender_partner_free", "ruff_overtrump", "defender_split"))
#: Options of the combinations and of a failed contract that apply at every table of the
#: take/pass game (RULES.md §6-§7 at four seats, classic mode only; TWO_THREE.md A12, A14,
#: A23 at two and three seats), with other values and defaults at two and three seats
#: (``CUTTHROAT_CHOICES``): ``run5_value`` (a run of five or more: 100 | 50), ``carres``
#: (four of a kind scores: true | false), ``failure`` (a failed contract:
#: ``maker_keeps_belote``, four seats only, RULES.md §7 "belote stays with the team that
#: holds it" | ``opponent_takes_all`` | ``maker_zero``). Until they applied at four seats
#: they held ``None`` there, which old records and model files still say: ``None`` at a
#: four-seat classic table reads as the four-seat default.
COMBINATION_OPTIONS = frozenset(("run5_value", "carres", "failure"))
#: Options of the three-player game only (``None`` at two and four seats).
THREE_ONLY = frozenset(("three_player_deal", "redeal_consent", "defender_partner_free", "ruff_overtrump",
                        "defender_split"))
#: Options of the four-seat games (classic and coinche) that do not apply at two or three
#: seats (their play, auction and scoring rules are TWO_THREE.md's): ``None`` there.
FOUR_ONLY = frozenset(("all_pass_redeal", "round2_no_trump_all_trump", "partner_master_free", "undertrump",
                       "obligations", "declaration_tie", "contract_counts_bonuses", "all_trump_points",
                       "overtrump_partner"))
#: Options shared by the four-seat and the small tables whose values differ at two and
#: three seats (TWO_THREE.md §4: A15 ``declarations``, A22 ``tie``, A24 ``target_rule``,
#: A25 ``rounding``; A12 ``run5_value``, A14 ``carres``, A23 ``failure``:
#: ``COMBINATION_OPTIONS``), the default first.
CUTTHROAT_CHOICES: dict[str, tuple] = {
    "declarations": ("auto", "choice", "off"),
    "tie": ("opponent_own", "litige"),
    "target_rule": ("reach", "exceed"),
    "rounding": ("none", "half_up"),
    "run5_value": (50, 100),  # A12
    "carres": (False, True),  # A14
    "failure": ("opponent_takes_all", "maker_zero"),  # A23
}
#: Defaults of the shared integer options at two and three seats (A24: games to 500).
CUTTHROAT_DEFAULTS: dict[str, Any] = {"target": 500}

#: Options that apply only in ``contract_mode="coinche"`` (COINCHE.md §7): in classic mode
#: they hold ``None`` and giving one is an error naming it.
COINCHE_ONLY = frozenset((
    "coinche_denominations", "max_numeric_bid", "denomination_order", "coinche_window", "coinche_freezes",
    "coincher_partner_speaks", "capot_bid", "capot_coinchable", "surcoinche_allowed", "passes_to_end",
    "self_overbid", "generale", "generale_value", "generale_leads", "belote_counts_for_contract", "belote_prenable",
    "scoring", "multiplier_scope", "surcoinche_multiplier", "contract_condition", "bid_80_means", "fail_base",
    "defence_capot_base", "capot_points", "capot_scoring", "capot_value", "capot_fail_value", "tie_with_defence",
    "rounding", "round_last_deal", "target_rule", "no_win_on_belote_alone"))
#: Options of the classic take/pass game that do not apply in coinche mode (COINCHE.md §1.1,
#: §7: the ``tie`` option is replaced by ``tie_with_defence``; there is no round 2; the
#: declarations and a failed contract score per COINCHE.md §6, ``COMBINATION_OPTIONS``).
CLASSIC_ONLY = frozenset(("tie", "round2_no_trump_all_trump")) | COMBINATION_OPTIONS
#: Options whose default depends on the mode (COINCHE.md §3.6, §6.11).
MODE_DEFAULTS: dict[str, dict[str, Any]] = {
    "all_pass_redeal": {"classic": "same_dealer", "coinche": "next_dealer"},
    "target": {"classic": 1000, "coinche": 2000},
}


def without_partners(players: int) -> bool:
    """True for a table of two or three seats, where every seat plays for itself
    (TWO_THREE.md): the rules validation's one test of the table size (above the rules,
    ``games.Game.has_partners``)."""
    return players != 4


def applies(option: str, mode: str, players: int = 4) -> bool:
    """True when rule ``option`` applies in contract mode ``mode`` (COINCHE.md §7) at a
    table of ``players`` seats (TWO_THREE.md §4: the two- and three-player games are
    take/pass games, ``mode`` ``"classic"``)."""
    if option == "players":
        return True
    if without_partners(players):
        if option in FOUR_ONLY or (option in THREE_ONLY and players != 3):
            return False
        return option in CUTTHROAT_ONLY or option in CUTTHROAT_CHOICES or option in ("belote", "target", "max_deals",
                                                                           "contract_mode")
    if option in CUTTHROAT_ONLY:
        return False
    return option not in (COINCHE_ONLY if mode == "classic" else CLASSIC_ONLY)


def variant_of(rules: "Rules") -> str:
    """The game ``rules`` play: ``"classic"``, ``"coinche"``, ``"two"`` or ``"three"``."""
    if without_partners(rules.players):
        return "two" if rules.players == 2 else "three"
    return rules.contract_mode


#: The options that make each variant's default rule set (``variant_rules``): the name
#: ``variant_of`` gives it, then what sets it apart from ``Rules()``.
VARIANT_OPTIONS: dict[str, dict[str, Any]] = {
    "classic": {}, "coinche": {"contract_mode": "coinche"}, "two": {"players": 2}, "three": {"players": 3},
}


def variant_rules(variant: str) -> "Rules":
    """The default rule set of a variant (``VARIANT_OPTIONS``): the facts a saved network's
    variant implies (its observation size, its action ids: ``games.game_of``). Raises
    ``ValueError`` for an unknown variant name."""
    if variant not in VARIANT_OPTIONS:
        raise ValueError(f"unknown variant {variant!r}: one of {', '.join(VARIANT_OPTIONS)}")
    return Rules(**VARIANT_OPTIONS[variant])


def stored_rules_as_read(options: Any) -> Any:
    """A rules dict stored by an earlier version (a pairs log's header, a checkpoint's
    ``iterate.json``) as ``Rules.to_dict()`` writes it today, for comparing with today's:
    an option stored as ``None`` before it applied (``COMBINATION_OPTIONS`` at four seats,
    RULES.md §6-§7) reads as its default. ``options`` is returned as it is when it is not a
    dict of valid rules (the caller's comparison then names it as different); never raises."""
    if not isinstance(options, dict):
        return options
    try:
        return Rules.from_dict(options).to_dict()
    except RuleOptionError:
        return options


class _Unset:
    """The default of an option whose value depends on the mode (resolved at construction)."""

    def __repr__(self) -> str:
        return "<mode default>"


_UNSET: Any = _Unset()

#: Allowed range (inclusive) of each integer option; ``None`` is also allowed (RULES.md §8).
INT_OPTION_RANGES: dict[str, tuple[int, int]] = {
    "target": (1, 1_000_000),
    "max_deals": (1, 1_000_000),
}
#: ``max_numeric_bid`` (COINCHE.md §3.5): a multiple of 10 in this range (coinche mode only)
MAX_NUMERIC_BID_RANGE = (160, 650)


def _show(value: Any) -> str:
    """``repr(value)`` cut to 80 characters (``...``), except for an int of more than 64
    bits: its number of digits (Python refuses to write an int of more than 4300 digits as
    text); an integer of another type (numpy's) says that a Python int is needed."""
    if type(value) is int and value.bit_length() > 64:
        a = abs(value)
        digits = int(a.bit_length() * 0.30102999566398120)  # floor(log10(a)) or one less
        if a >= 10 ** digits:
            digits += 1
        return f"{'a negative' if value < 0 else 'an'} int of {digits} digits"
    try:
        r = repr(value)
    except (ValueError, RecursionError):  # an int over the digit limit inside a list, ...
        return f"a value ({type(value).__name__}) too large to show"
    r = r if len(r) <= 80 else r[:77] + "..."
    if type(value) is not int and not isinstance(value, bool) and hasattr(value, "__index__"):
        r += f" (type {type(value).__name__}: rule options take Python ints, int(value))"  # numpy ints
    return r


def _unknown_option(key: Any, known, owner: str = "", arguments: tuple[str, ...] = ()) -> str:
    """The message for an unknown option: the closest known names, then every classic
    option (the coinche options are those of COINCHE.md §7, ``COINCHE_ONLY``); for a keyword
    of ``owner``, whose own ``arguments`` come first among the names offered."""
    import difflib

    names = [*arguments, *known]
    close = difflib.get_close_matches(key, names, n=3) if isinstance(key, str) and len(key) < 100 else []
    hint = f" (did you mean {', '.join(map(repr, close))}?)" if close else ""
    classic = [k for k in known if k not in COINCHE_ONLY and k not in CUTTHROAT_ONLY]
    shown = _show(key)
    shown = shown if len(shown) <= 40 else shown[:37] + "..."  # a key is a name: 40 characters show it
    what = (f"{owner} got an unknown keyword {shown}{hint}: its arguments are {', '.join(arguments)}, and any "
            "other keyword is a rule option; known options" if owner else f"unknown rule option {shown}{hint}; "
            "known options")
    return f"{what}: {', '.join(classic)}; more: COINCHE.md §7, TWO_THREE.md §4"


def check_keywords(owner: str, init: Any, overrides: Mapping[str, Any]) -> None:
    """For a constructor ``init`` that reads every keyword it does not name as a rule
    option (the environments): ``RuleOptionError`` for a keyword of ``overrides`` that is
    neither one of ``init``'s arguments nor a rule option, naming the closest names of both
    and ``owner``'s own arguments (a misspelt ``episode`` is not reported as a rule option
    alone)."""
    import inspect

    known = Rules.option_names()
    params = inspect.signature(init).parameters.values()
    arguments = tuple(p.name for p in params if p.name != "self" and p.kind is not p.VAR_KEYWORD)
    for key in overrides:
        if key not in known and key not in arguments:  # init's own arguments may be among them
            raise RuleOptionError(_unknown_option(key, known, owner, arguments))


class _LongYamlInt:
    """An integer of a YAML file too long to convert (``_LongIntLoader``): it reaches
    ``Rules`` as this value, which every option rejects, naming its number of digits."""

    def __init__(self, text: str):
        self.digits = sum(ch not in "+-_" for ch in text)

    def __repr__(self) -> str:
        return f"an int of {self.digits} digits"


#: Coinche options that act only under another option's value (COINCHE.md §7 "Validation"):
#: option -> (its neutral value, the condition under which it acts, that condition in words,
#: the section). A value other than the neutral one where the condition is false has no
#: effect, and is refused naming both options.
DEPENDENT_OPTIONS: dict[str, tuple[Any, Any, str, str]] = {
    "self_overbid": ("forbidden", lambda r: r.passes_to_end == 4, "passes_to_end 4", "§3.5"),
    "coincher_partner_speaks": (False, lambda r: r.coinche_freezes, "coinche_freezes true", "§3.5"),
    "generale_value": (500, lambda r: r.generale, "generale true", "§6.8"),
    "generale_leads": (False, lambda r: r.generale, "generale true", "§4, §6.8"),
    "capot_value": (250, lambda r: r.capot_bid, "capot_bid true", "§6.7"),
    "capot_coinchable": (True, lambda r: r.capot_bid, "capot_bid true", "§3.5"),
    "capot_scoring": ("contract", lambda r: r.capot_bid or r.generale, "capot_bid true or generale true", "§6.7"),
    "capot_fail_value": (500, lambda r: r.capot_bid and r.capot_scoring == "flat",
                         "capot_bid true and capot_scoring 'flat'", "§6.7"),
    "surcoinche_multiplier": (4, lambda r: r.surcoinche_allowed, "surcoinche_allowed true", "§6.1"),
    "tie_with_defence": ("fail", lambda r: r.contract_condition == "reach_bid_and_beat_defence",
                         "contract_condition 'reach_bid_and_beat_defence'", "§6.9"),
    "round_last_deal": (False, lambda r: r.rounding != "none", "rounding 'half_up' or 'six_up'", "§6.10"),
}

#: Coinche option mixes the rules pages do not define, refused (COINCHE.md §7 "Validation"):
#: (option, value, the other option, a test of the other option's value that is refused,
#: why). Each names a scoring family whose source gives it only with certain values.
UNDEFINED_MIXES: tuple[tuple[str, Any, str, Any, str], ...] = (
    ("multiplier_scope", "ffb_forfait", "surcoinche_multiplier", lambda v: v != 4,
     "the FFB table (§6.6) gives coinched x2 and surcoinched x4 only: surcoinche_multiplier must be 4"),
    ("multiplier_scope", "ffb_forfait", "fail_base", lambda v: v != 160,
     "the FFB table (§6.6) scores a failed contract 160 + V: fail_base must be 160"),
    ("multiplier_scope", "ffb_forfait", "belote_prenable", lambda v: v is False,
     "the FFB table (§6.6) gives both belotes to the side that wins the contract: belote_prenable must be true"),
    ("multiplier_scope", "bga", "belote_prenable", lambda v: v is True,
     "BGA's code (§6.6) loses the defence's belote and never moves the takers': belote_prenable must be false"),
    ("scoring", "bid_only", "multiplier_scope", lambda v: v != "contract_only",
     "'points annoncés' (§6.6) multiplies the bid alone: multiplier_scope must be 'contract_only'"),
    ("scoring", "bid_only", "capot_scoring", lambda v: v == "flat",
     "'points annoncés' (§6.6) scores a capot bid as its value: capot_scoring must be 'contract'"),
    ("generale", True, "capot_coinchable", lambda v: v is False,
     "no source says whether a générale can be coinched where a capot cannot (§6.8): capot_coinchable must be true"),
    ("generale", True, "denomination_order", lambda v: v == "ranked",
     "no source ranks one générale over another (§3.5, §6.8): denomination_order must be 'none'"),
)


def _check_coinche_mix(r: "Rules") -> None:
    """Refuse a coinche option that has no effect under the others (``DEPENDENT_OPTIONS``)
    and the option mixes the rules pages do not define (``UNDEFINED_MIXES``), naming both
    options (COINCHE.md §7 "Validation")."""
    for name, (neutral, acts, condition, section) in DEPENDENT_OPTIONS.items():
        value = getattr(r, name)
        if value != neutral and not acts(r):
            raise RuleOptionError(f"rule option {name!r} applies only with {condition} (COINCHE.md {section}); got "
                                  f"{name} {_show(value)} without it: leave {name} at {_show(neutral)} or set "
                                  f"{condition}")
    for name, value, other, refused, why in UNDEFINED_MIXES:
        if getattr(r, name) == value and refused(getattr(r, other)):
            raise RuleOptionError(f"rule options {name} {_show(value)} and {other} {_show(getattr(r, other))} "
                                  f"together are not defined by the rules pages: {why}")


@dataclass(frozen=True)
class Rules:
    """Every rule option of RULES.md with its default (seed 004).

    Attributes:
        all_pass_redeal: who deals after eight passes, ``"same_dealer"`` or
            ``"next_dealer"`` (§3.4).
        round2_no_trump_all_trump: round 2 may also name no-trump / all-trump (§3).
        partner_master_free: a seat void in the led suit may play any card while its
            partner wins the trick (§4.2).
        undertrump: ``"required"`` (must still trump when unable to overtrump) or
            ``"discard_allowed"`` (may then play any card) (§4.2).
        obligations: ``"classic"`` (§4) or ``"two_player"`` (seed 001: follow suit, must
            trump when void, overtrump only when trump is led).
        belote: ``"auto"`` or ``"optional"`` announcement of belote-rebelote (§5).
        declarations: ``"off"``, ``"auto"`` or ``"choice"`` (§6).
        declaration_tie: equal strongest declarations of both teams (§6): ``"eldest"``
            (eldest's team scores), ``"none"`` (nobody scores) or ``"taker_first"`` (the
            team of the first seat holding one, counting from the taker in play order:
            the taker, then the seat after it, and so on; a table variant requested by
            users).
        contract_counts_bonuses: what counts, besides trick points, when deciding whether
            the contract is made (§7): ``True`` (belote and declarations), ``False``
            (neither) or ``"declarations_only"`` (declarations but not belote; a table
            variant requested by users). Whatever it says, each team then scores its belote
            and declarations as §7 states.
        tie: equal totals: ``"litige"``, ``"takers_made"``, ``"takers_fail"``,
            ``"defenders_keep"`` (§7).
        all_trump_points: card values at all-trump, ``"pagat"`` or ``"ffb2015"`` (§4).
        target: game target in points (an int 1..1,000,000), or ``None`` for a single
            deal (§8).
        max_deals: deal limit (an int 1..1,000,000) or ``None`` (§8).
        contract_mode: ``"classic"`` (take/pass on the turned card, RULES.md §3) or
            ``"coinche"`` (the auction game of COINCHE.md: 3-2-3 deal, bids 80..160 and
            capot, coinche, surcoinche, scoring against the contract).
        overtrump_partner: ``"free"`` or ``"must_overtrump"`` (COINCHE.md §4, P2: a seat
            that trumps over its partner's winning trump must overtrump it when it can;
            it may still discard when ``partner_master_free``). Both modes.
        carres: whether four of a kind is a declaration (§6): ``True`` (four-seat
            default) or ``False`` (sequences only: seed 001, L45-L48). Classic mode; at two
            and three seats TWO_THREE.md A14 (default ``False``).
        run5_value: the points of a sequence of five (§6): ``100`` (four-seat default) or
            ``50`` (seed 001 lists 3 cards 20, 4 cards 50 only). At four seats a longer run
            is one sequence of that value, shown and compared as its five highest cards
            (§6: "5 or more 100 (only the five highest cards are shown)"). Classic mode; at
            two and three seats TWO_THREE.md A12 (default ``50``; one maximal run, A13).
        failure: what a failed contract ("dedans", §7) gives: ``"maker_keeps_belote"``
            (four-seat default, §7: the defenders score 162, or 252 on their capot, plus
            every declaration; each team keeps its own belote), ``"opponent_takes_all"``
            (seed 001 L98: the same, the takers' belote going to the defenders too; the
            takers score 0) or ``"maker_zero"`` (the defenders score only their own trick
            points, belote and declarations; the takers 0). Classic mode; at two and three
            seats TWO_THREE.md A23 (``"opponent_takes_all"`` default, or ``"maker_zero"``).

    The coinche options (COINCHE.md §7; ``None`` in classic mode, where giving one is an
    error): ``coinche_denominations``, ``max_numeric_bid`` (a multiple of 10, 160..650),
    ``denomination_order``, ``coinche_window``, ``coinche_freezes``,
    ``coincher_partner_speaks``, ``capot_bid`` (False: no capot bid, the ``bga``
    profile), ``capot_coinchable``, ``surcoinche_allowed``, ``passes_to_end`` (3 or 4),
    ``self_overbid`` (only with ``passes_to_end`` 4), ``generale``, ``generale_value``,
    ``generale_leads``, ``belote_counts_for_contract``, ``belote_prenable``, ``scoring``,
    ``multiplier_scope``, ``surcoinche_multiplier``, ``contract_condition``,
    ``bid_80_means``, ``fail_base``, ``defence_capot_base``, ``capot_points``,
    ``capot_scoring``, ``capot_value``, ``capot_fail_value``, ``tie_with_defence``,
    ``rounding``, ``round_last_deal``, ``target_rule``, ``no_win_on_belote_alone``; each
    takes the values of ``OPTION_CHOICES``, the default first. In coinche mode ``tie`` and
    ``round2_no_trump_all_trump`` do not apply (``None``); ``contract_counts_bonuses``
    says only whether the declarations count toward the contract (``True`` and
    ``"declarations_only"`` alike: belote is ``belote_counts_for_contract``'s, COINCHE.md
    §6.2, §6.8b); ``all_pass_redeal`` defaults to
    ``"next_dealer"`` and ``target`` to 2000 (``MODE_DEFAULTS``); ``carres``,
    ``run5_value`` and ``failure`` do not apply either (``None``: COINCHE.md §6 scores the
    declarations and a failed contract).

    Raises:
        RuleOptionError: on a bad value (at construction) or an unknown option
            (``from_dict`` / ``replace``).
    """

    all_pass_redeal: str = _UNSET
    round2_no_trump_all_trump: bool = _UNSET
    partner_master_free: bool = _UNSET
    undertrump: str = _UNSET
    obligations: str = _UNSET
    belote: str = "auto"
    declarations: str = _UNSET
    declaration_tie: str = _UNSET
    contract_counts_bonuses: bool = _UNSET
    tie: str = _UNSET
    all_trump_points: str = _UNSET
    target: int | None = _UNSET
    max_deals: int | None = None
    contract_mode: str = "classic"
    overtrump_partner: str = _UNSET
    coinche_denominations: str | None = _UNSET
    max_numeric_bid: int | None = _UNSET
    denomination_order: str | None = _UNSET
    coinche_window: str | None = _UNSET
    coinche_freezes: bool | None = _UNSET
    coincher_partner_speaks: bool | None = _UNSET
    capot_bid: bool | None = _UNSET
    capot_coinchable: bool | None = _UNSET
    surcoinche_allowed: bool | None = _UNSET
    passes_to_end: int | None = _UNSET
    self_overbid: str | None = _UNSET
    generale: bool | None = _UNSET
    generale_value: int | None = _UNSET
    generale_leads: bool | None = _UNSET
    belote_counts_for_contract: bool | None = _UNSET
    belote_prenable: bool | None = _UNSET
    scoring: str | None = _UNSET
    multiplier_scope: str | None = _UNSET
    surcoinche_multiplier: int | None = _UNSET
    contract_condition: str | None = _UNSET
    bid_80_means: int | None = _UNSET
    fail_base: int | None = _UNSET
    defence_capot_base: int | None = _UNSET
    capot_points: int | None = _UNSET
    capot_scoring: str | None = _UNSET
    capot_value: int | None = _UNSET
    capot_fail_value: int | None = _UNSET
    tie_with_defence: str | None = _UNSET
    rounding: str | None = _UNSET
    round_last_deal: bool | None = _UNSET
    target_rule: str | None = _UNSET
    no_win_on_belote_alone: bool | None = _UNSET
    players: int = 4
    deal_packets: str | None = _UNSET
    redeal_proposal: bool | None = _UNSET
    redeal_dealer: str | None = _UNSET
    dealer_round2_proposal: bool | None = _UNSET
    dix_exchange: str | None = _UNSET
    sequence_order: str | None = _UNSET
    run5_value: int | None = _UNSET
    sequence_compare: str | None = _UNSET
    carres: bool | None = _UNSET
    capot_bonus: int | None = _UNSET
    failure: str | None = _UNSET
    three_player_deal: str | None = _UNSET
    redeal_consent: str | None = _UNSET
    defender_partner_free: bool | None = _UNSET
    ruff_overtrump: str | None = _UNSET
    defender_split: str | None = _UNSET

    def __getstate__(self) -> dict[str, Any]:
        """The options alone (``games.game_of`` caches the rules' ``Game`` on the instance)."""
        return {k: v for k, v in self.__dict__.items() if k != "_game"}

    def __new__(cls, *args: Any, **kwargs: Any) -> "Rules":
        known = {f.name for f in dataclasses.fields(cls)}
        for key in kwargs:
            if key not in known:
                raise RuleOptionError(_unknown_option(key, known))
        if args:
            raise RuleOptionError("rule options are keyword-only, e.g. Rules(tie='litige')")
        return super().__new__(cls)

    def __post_init__(self) -> None:
        mode = self.contract_mode
        if not any(type(mode) is str and mode == m for m in CONTRACT_MODES):
            raise RuleOptionError(f"rule option 'contract_mode' got {_show(mode)}; allowed values: "
                                  + ", ".join(repr(m) for m in CONTRACT_MODES))
        players = self.players
        if type(players) is not int or players not in PLAYER_COUNTS:
            raise RuleOptionError(f"rule option 'players' got {_show(players)}; allowed values: 4 (team Belote, "
                                  "RULES.md), 2 or 3 (TWO_THREE.md)")
        if without_partners(players) and mode != "classic":
            raise RuleOptionError(f"rule option 'contract_mode' got {mode!r} with players {players}: the two- and "
                                  "three-player games are take/pass games (TWO_THREE.md §2.3); allowed: 'classic'")
        cutthroat = without_partners(players)
        for f in dataclasses.fields(self):  # resolve the mode-dependent defaults
            name, value = f.name, getattr(self, f.name)
            if not applies(name, mode, players):
                if value is _UNSET:
                    object.__setattr__(self, name, None)
                elif value is not None:
                    if cutthroat or name in CUTTHROAT_ONLY:
                        where = ("a three-player option, TWO_THREE.md §4" if name in THREE_ONLY else
                                 "a two- and three-player option, TWO_THREE.md §4" if name in CUTTHROAT_ONLY else
                                 "a four-player option; TWO_THREE.md §2-§3 fix that rule at two and three seats")
                        raise RuleOptionError(f"rule option {name!r} does not apply with players {players} (it is "
                                              f"{where}); got {_show(value)}")
                    other = "coinche" if mode == "classic" else "classic"
                    raise RuleOptionError(
                        f"rule option {name!r} does not apply in contract_mode {mode!r} (it is a {other} option"
                        + (", COINCHE.md §7" if other == "coinche" else
                           "; coinche uses tie_with_defence, COINCHE.md §6.9" if name == "tie" else
                           "; coinche scores the declarations and a failed contract by COINCHE.md §6, the "
                           "belote by belote_prenable" if name in COMBINATION_OPTIONS else
                           "; coinche_denominations sets the coinche denominations, COINCHE.md §3.5")
                        + f"); got {_show(value)}")
            elif value is _UNSET or (value is None and not cutthroat and name in COMBINATION_OPTIONS):
                # (None: a record of before COMBINATION_OPTIONS applied at four seats)
                if cutthroat and name in CUTTHROAT_CHOICES:
                    default = CUTTHROAT_CHOICES[name][0]
                elif cutthroat and name in CUTTHROAT_DEFAULTS:
                    default = CUTTHROAT_DEFAULTS[name]
                else:
                    default = (MODE_DEFAULTS[name][mode] if name in MODE_DEFAULTS
                               else MAX_NUMERIC_BID_RANGE[0] if name == "max_numeric_bid" else OPTION_CHOICES[name][0])
                object.__setattr__(self, name, default)
        for name, allowed in OPTION_CHOICES.items():
            value = getattr(self, name)
            if value is None and not applies(name, mode, players):
                continue
            if cutthroat and name in CUTTHROAT_CHOICES:
                allowed = CUTTHROAT_CHOICES[name]
            # bool options take exactly True/False (not 0/1, not "yes")
            if not any(type(value) is type(a) and value == a for a in allowed):
                hint = ""
                if type(value) is bool and not any(type(a) is bool for a in allowed):
                    # YAML 1.1 (PyYAML) reads unquoted off / on / no / yes as booleans
                    hint = (" (a YAML file reads unquoted off, on, no and yes as booleans: quote the value, e.g. "
                            f"{name}: '{allowed[0]}')")
                if cutthroat and name in CUTTHROAT_CHOICES:
                    hint += f" (with players {players}, TWO_THREE.md §4)"
                raise RuleOptionError(
                    f"rule option {name!r} got {_show(value)}; allowed values: "
                    + ", ".join(repr(a) for a in allowed) + hint
                )
        for name, (low, high) in INT_OPTION_RANGES.items():
            value = getattr(self, name)
            if value is not None and (type(value) is not int or not low <= value <= high):
                raise RuleOptionError(
                    f"rule option {name!r} got {_show(value)}; allowed values: an int {low}..{high} or None"
                )
        if mode == "coinche":
            low, high = MAX_NUMERIC_BID_RANGE
            v = self.max_numeric_bid
            if type(v) is not int or not low <= v <= high or v % 10:
                raise RuleOptionError(f"rule option 'max_numeric_bid' got {_show(v)}; allowed values: a multiple "
                                      f"of 10 in {low}..{high} (COINCHE.md §3.5)")
            _check_coinche_mix(self)

    @classmethod
    def option_names(cls) -> tuple[str, ...]:
        """Names of every rule option, in declaration order."""
        return tuple(f.name for f in dataclasses.fields(cls))

    @classmethod
    def from_dict(cls, options: Mapping[str, Any]) -> "Rules":
        """Build from a mapping of option names to values (missing ones take defaults).

        Raises ``RuleOptionError`` naming an unknown option and listing the known ones.
        """
        if not isinstance(options, Mapping):
            raise RuleOptionError(f"rules must be a mapping of option names to values, got {type(options).__name__}")
        known = cls.option_names()
        for key in options:
            if key not in known:
                raise RuleOptionError(_unknown_option(key, known))
        return cls(**dict(options))

    def replace(self, **overrides: Any) -> "Rules":
        """A copy with some options changed; validated like ``from_dict``.

        A change of ``contract_mode`` starts the new mode from its own defaults where the
        two modes differ: the options of the old mode that do not apply in the new one are
        dropped (``tie`` going to coinche, the coinche options going to classic), and the
        mode-dependent options (``all_pass_redeal``, ``target``; ``MODE_DEFAULTS``) that
        hold the old mode's default take the new mode's. Every other value is kept, and
        options given with the change apply on top (an option that does not apply in the
        new mode is then an error naming it)."""
        base = self.to_dict()
        mode = overrides.get("contract_mode", self.contract_mode)
        players = overrides.get("players", self.players)
        if players != self.players and players in PLAYER_COUNTS and type(players) is int:
            # a change of table size: the new table's own defaults (TWO_THREE.md §4)
            small_before, small_after = without_partners(self.players), without_partners(players)
            for name in list(base):
                if name == "players":
                    continue
                if (not applies(name, self.contract_mode, players) or not applies(name, self.contract_mode, self.players)
                        or (small_before != small_after and (name in CUTTHROAT_CHOICES or name in CUTTHROAT_DEFAULTS
                                                             or name in MODE_DEFAULTS))):
                    del base[name]
        elif mode != self.contract_mode and mode in CONTRACT_MODES:  # a change of mode: its own defaults
            for name in list(base):
                if not applies(name, mode) or not applies(name, self.contract_mode) or (
                        name in MODE_DEFAULTS and base[name] == MODE_DEFAULTS[name][self.contract_mode]):
                    del base[name]
        return Rules.from_dict({**base, **overrides})

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able dict of every option."""
        return dataclasses.asdict(self)


def check_table(rules: Any, players: tuple[int, ...], who: str, instead: str) -> "Rules":
    """``rules`` when it is a ``Rules`` whose ``players`` is one of ``players``, else a
    ``RuleOptionError`` naming ``who`` (the engine or env refusing them), the table sizes it
    plays and ``instead`` (what plays the others). Returns ``rules``."""
    if not isinstance(rules, Rules):
        raise RuleOptionError(f"{who}: rules must be a belote_env.Rules, got {type(rules).__name__}")
    if rules.players not in players:
        sizes = " or ".join(map(str, players))
        raise RuleOptionError(f"{who} plays tables of {sizes} seats, got rules with players {rules.players} "
                              f"({'TWO_THREE.md' if without_partners(rules.players) else 'RULES.md'}); {instead}")
    return rules


PRESETS_DIR = Path(__file__).resolve().parent / "presets"


def preset_names() -> list[str]:
    """Names of the rule presets shipped in ``belote_env/presets`` (``configs/rules``), sorted."""
    return sorted(p.stem for p in PRESETS_DIR.glob("*.yaml"))


@functools.cache
def _long_int_loader():
    """``jsonfile.strict_yaml_loader`` (a key given twice is an error) whose integers longer
    than 100 characters become ``_LongYamlInt`` (PyYAML would raise Python's bare
    int-conversion ``ValueError`` for one of more than 4300 digits, naming neither the
    file nor the option)."""
    from .jsonfile import strict_yaml_loader

    class _LongIntLoader(strict_yaml_loader()):
        def construct_yaml_int(self, node):
            text = self.construct_scalar(node)
            if len(text) > 100:
                return _LongYamlInt(text)
            return super().construct_yaml_int(node)

    _LongIntLoader.add_constructor("tag:yaml.org,2002:int", _LongIntLoader.construct_yaml_int)
    return _LongIntLoader


#: Bound on a rules YAML file (bytes), checked before it is read; a rules file is a few KB.
MAX_RULES_BYTES = 1 << 20


def _read_yaml_rules(path: Path) -> Rules:
    from .jsonfile import DataFileError, parse_yaml, read_text

    try:
        text = read_text(path, MAX_RULES_BYTES)
    except DataFileError as e:  # unreadable, over the bound, not UTF-8
        why = str(e).removeprefix(f"{path}: ")
        if why.startswith("cannot be read ("):  # the reason said once: "(No such file or directory)"
            raise RuleOptionError(f"cannot read rules file {path} {why.removeprefix('cannot be read ')}") from None
        raise RuleOptionError(f"cannot read rules file {path}: {why}") from None
    try:  # the loader of every YAML file (aliases bounded), reporting a huge int by the option it sets
        data = parse_yaml(text, f"rules file {path}", loader=_long_int_loader())
    except DataFileError as e:  # not YAML, nested too deeply, a bad date (2020-13-01), aliases expanding too far
        raise RuleOptionError(str(e)) from None
    if data is None:  # an empty or truncated file is not taken for the defaults
        raise RuleOptionError(f"rules file {path} holds no rule options: give at least one (the defaults are "
                              "the preset 'seed004')")
    if not isinstance(data, Mapping):
        raise RuleOptionError(f"rules file {path} must hold a mapping of rule options")
    try:
        return Rules.from_dict(data)
    except RuleOptionError as e:
        raise RuleOptionError(f"{path}: {e}") from None


def load_rules(spec: "Rules | Mapping[str, Any] | str | os.PathLike | None" = None, **overrides: Any) -> Rules:
    """Rules from a ``Rules``, a dict of options, a preset name (``"seed000"``, see
    ``preset_names()``) or a YAML file path, with keyword ``overrides`` applied on top.

    Any option of a preset or file can be overridden (COINCHE.md §8): an option the base
    sets that has no effect under the overrides (``DEPENDENT_OPTIONS``, e.g. ``coinche_bga``'s
    ``self_overbid`` once ``passes_to_end=3`` is given) goes back to its neutral value; an
    option given in ``overrides`` is never changed (one without effect is refused).

    Raises ``RuleOptionError`` for an unknown preset, an unreadable file, an unknown
    option or a bad value (naming it and what is allowed).
    """
    if spec is None:
        rules = Rules()
    elif isinstance(spec, Rules):
        rules = spec
    elif isinstance(spec, Mapping):
        rules = Rules.from_dict(spec)
    elif isinstance(spec, (str, os.PathLike)):
        name = str(spec)
        if name in preset_names():
            rules = _read_yaml_rules(PRESETS_DIR / f"{name}.yaml")
        elif name and (Path(name).suffix in (".yaml", ".yml") or Path(name).is_file()):
            rules = _read_yaml_rules(Path(name))
        elif name and Path(name).is_dir():
            raise RuleOptionError(f"rules {name!r} is a folder, not a YAML file or a preset; presets: "
                                  f"{', '.join(preset_names())}")
        else:
            raise RuleOptionError(f"unknown rules preset {name!r}; presets: {', '.join(preset_names())} "
                                  "(or give a path to a YAML file)")
    else:
        raise RuleOptionError(f"rules must be a Rules, a dict, a preset name or a YAML path, got {type(spec).__name__}")
    return _override(rules, overrides) if overrides else rules


def _override(rules: Rules, overrides: dict[str, Any]) -> Rules:
    """``rules.replace(**overrides)``, with the options of ``rules`` that lose their effect
    under ``overrides`` reset to neutral (``load_rules``)."""
    import types

    merged = {**rules.to_dict(), **overrides}
    if merged.get("contract_mode") == "coinche":
        reset: dict[str, Any] = {}
        changed = True
        while changed:  # one reset can take another option's effect away (capot_scoring, capot_fail_value)
            changed = False
            view = types.SimpleNamespace(**{**merged, **reset})
            for name, (neutral, acts, _, _) in DEPENDENT_OPTIONS.items():
                if name in overrides or name in reset or getattr(view, name, neutral) == neutral:
                    continue
                try:
                    active = acts(view)
                except (AttributeError, TypeError):  # a bad override: Rules names it below
                    continue
                if not active:
                    reset[name] = neutral
                    changed = True
        overrides = {**overrides, **reset}
    return rules.replace(**overrides)


#: the old names of the two- and three-seat (cutthroat) game's parts, for one release
__getattr__ = renamed_in(__name__, globals(), {
    "SMALL_ONLY": "CUTTHROAT_ONLY",
    "SMALL_CHOICES": "CUTTHROAT_CHOICES",
    "SMALL_DEFAULTS": "CUTTHROAT_DEFAULTS",
})
