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

__all__ = ["Rules", "RuleOptionError", "OPTION_CHOICES", "INT_OPTION_RANGES", "load_rules", "preset_names",
           "PRESETS_DIR"]


class RuleOptionError(ValueError):
    """An unknown rule option, or a value outside what the option allows."""


#: Allowed values of each enumerated option, the default first (RULES.md section cited).
OPTION_CHOICES: dict[str, tuple] = {
    "all_pass_redeal": ("same_dealer", "next_dealer"),  # §3.4
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
}

#: Allowed range (inclusive) of each integer option; ``None`` is also allowed (RULES.md §8).
INT_OPTION_RANGES: dict[str, tuple[int, int]] = {
    "target": (1, 1_000_000),
    "max_deals": (1, 1_000_000),
}


def _show(value: Any) -> str:
    """``repr(value)`` cut to 80 characters (``...``), except for an int of more than 64
    bits: its number of digits (Python refuses to write an int of more than 4300 digits as
    text)."""
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
    return r if len(r) <= 80 else r[:77] + "..."


class _LongYamlInt:
    """An integer of a YAML file too long to convert (``_LongIntLoader``): it reaches
    ``Rules`` as this value, which every option rejects, naming its number of digits."""

    def __init__(self, text: str):
        self.digits = sum(ch not in "+-_" for ch in text)

    def __repr__(self) -> str:
        return f"an int of {self.digits} digits"


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

    Raises:
        RuleOptionError: on a bad value (at construction) or an unknown option
            (``from_dict`` / ``replace``).
    """

    all_pass_redeal: str = "same_dealer"
    round2_no_trump_all_trump: bool = False
    partner_master_free: bool = True
    undertrump: str = "required"
    obligations: str = "classic"
    belote: str = "auto"
    declarations: str = "off"
    declaration_tie: str = "eldest"
    contract_counts_bonuses: bool = True
    tie: str = "litige"
    all_trump_points: str = "pagat"
    target: int | None = 1000
    max_deals: int | None = None

    def __new__(cls, *args: Any, **kwargs: Any) -> "Rules":
        known = {f.name for f in dataclasses.fields(cls)}
        for key in kwargs:
            if key not in known:
                raise RuleOptionError(f"unknown rule option {_show(key)}; known options: {', '.join(sorted(known))}")
        if args:
            raise RuleOptionError("rule options are keyword-only, e.g. Rules(tie='litige')")
        return super().__new__(cls)

    def __post_init__(self) -> None:
        for name, allowed in OPTION_CHOICES.items():
            value = getattr(self, name)
            # bool options take exactly True/False (not 0/1, not "yes")
            if not any(type(value) is type(a) and value == a for a in allowed):
                raise RuleOptionError(
                    f"rule option {name!r} got {_show(value)}; allowed values: "
                    + ", ".join(repr(a) for a in allowed)
                )
        for name, (low, high) in INT_OPTION_RANGES.items():
            value = getattr(self, name)
            if value is not None and (type(value) is not int or not low <= value <= high):
                raise RuleOptionError(
                    f"rule option {name!r} got {_show(value)}; allowed values: an int {low}..{high} or None"
                )

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
                raise RuleOptionError(f"unknown rule option {_show(key)}; known options: {', '.join(known)}")
        return cls(**dict(options))

    def replace(self, **overrides: Any) -> "Rules":
        """A copy with some options changed; validated like ``from_dict``."""
        return Rules.from_dict({**self.to_dict(), **overrides})

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able dict of every option."""
        return dataclasses.asdict(self)


PRESETS_DIR = Path(__file__).resolve().parent / "presets"


def preset_names() -> list[str]:
    """Names of the rule presets shipped in ``belote_env/presets`` (``configs/rules``), sorted."""
    return sorted(p.stem for p in PRESETS_DIR.glob("*.yaml"))


@functools.cache
def _long_int_loader():
    """A ``yaml.SafeLoader`` whose integers longer than 100 characters become
    ``_LongYamlInt`` (PyYAML would raise Python's bare int-conversion ``ValueError`` for one
    of more than 4300 digits, naming neither the file nor the option)."""
    import yaml

    class _LongIntLoader(yaml.SafeLoader):
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
    import yaml  # only needed for presets / YAML files

    from .jsonfile import DataFileError, read_text

    try:
        text = read_text(path, MAX_RULES_BYTES)
    except DataFileError as e:  # unreadable, over the bound, not UTF-8
        raise RuleOptionError(f"cannot read rules file {path}: {str(e).removeprefix(f'{path}: ')}") from None
    try:  # not jsonfile.parse_yaml: this loader reports a huge int by the option it sets
        data = yaml.load(text, Loader=_long_int_loader())
    except RecursionError:
        raise RuleOptionError(f"rules file {path} is not valid YAML: nested too deeply") from None
    except (yaml.YAMLError, ValueError) as e:  # ValueError: a bad date (2020-13-01), ...
        raise RuleOptionError(f"rules file {path} is not valid YAML: {e}") from None
    if data is None:
        data = {}
    if not isinstance(data, Mapping):
        raise RuleOptionError(f"rules file {path} must hold a mapping of rule options")
    try:
        return Rules.from_dict(data)
    except RuleOptionError as e:
        raise RuleOptionError(f"{path}: {e}") from None


def load_rules(spec: "Rules | Mapping[str, Any] | str | os.PathLike | None" = None, **overrides: Any) -> Rules:
    """Rules from a ``Rules``, a dict of options, a preset name (``"seed000"``, see
    ``preset_names()``) or a YAML file path, with keyword ``overrides`` applied on top.

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
        elif Path(name).suffix in (".yaml", ".yml") or Path(name).exists():
            rules = _read_yaml_rules(Path(name))
        else:
            raise RuleOptionError(f"unknown rules preset {name!r}; presets: {', '.join(preset_names())} "
                                  "(or give a path to a YAML file)")
    else:
        raise RuleOptionError(f"rules must be a Rules, a dict, a preset name or a YAML path, got {type(spec).__name__}")
    return rules.replace(**overrides) if overrides else rules
