"""Reading JSON and YAML files a user may have edited or damaged, with clear errors.

Every loader of the project (model metadata, checkpoints, records, pairs logs, configs,
rules) reads its files through these functions, so a damaged file always gives a
``DataFileError`` naming the file and what is wrong, never a traceback: a file over its
size bound, bytes that are not UTF-8, text that is not JSON / YAML, nesting too deep for
the parser (Python's ``RecursionError``), an integer over Python's 4300-digit limit, or
YAML aliases that repeat more than ``MAX_YAML_ALIAS_VALUES`` values (a few hundred bytes of
aliases of aliases would expand to billions). Callers turn it into their own error class
(``CheckpointError``, ``ConfigError``, ``RecordError``, ...) with ``raise TheirError(str(e))
from None``.

Pure Python (``yaml`` imported only when a YAML file is read).
"""

from __future__ import annotations

import functools
import json
import os
import reprlib
from pathlib import Path
from typing import Any

__all__ = ["DataFileError", "MAX_JSON_BYTES", "MAX_YAML_ALIAS_VALUES", "YamlAliasError", "read_text", "parse_json",
           "read_json", "parse_yaml", "short_repr", "strict_yaml_loader"]

#: Default bound on a JSON / YAML file's size (bytes): metadata, records and configs are
#: far smaller; a larger file is refused before it is read.
MAX_JSON_BYTES = 64 * 1024 * 1024


class DataFileError(ValueError):
    """A file that cannot be read as the JSON / YAML it should hold; the message names it."""


#: Bound on the values YAML aliases (``*name``) may add to a file, each alias counting
#: every value (scalar, list, mapping) of what it repeats: a config or rules file shares a
#: few values that way, while a few hundred bytes of aliases of aliases (a "billion
#: laughs" file) would expand to billions.
MAX_YAML_ALIAS_VALUES = 10_000


class YamlAliasError(DataFileError):
    """YAML aliases that expand past ``MAX_YAML_ALIAS_VALUES`` values, or an alias inside the
    value it names (a recursive value); raised by ``strict_yaml_loader`` while it reads the
    file, before any value is built."""


_REPR = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = _REPR.maxlong = 60


def short_repr(v: Any) -> str:
    """``repr(v)`` abbreviated (``reprlib``: long strings, ints and lists shown in part, with
    ``...``) and cut to 80 characters, for an error message: a bad value read from a file
    may be megabytes."""
    try:
        r = _REPR.repr(v)
    except (ValueError, RecursionError):  # an int over Python's digit limit, ...
        return f"a value ({type(v).__name__}) too large to show"
    return r if len(r) <= 80 else r[:77] + "..."


def read_text(path: str | os.PathLike, max_bytes: int = MAX_JSON_BYTES) -> str:
    """The UTF-8 text of ``path``, refused above ``max_bytes`` (checked before reading).

    Raises:
        DataFileError: unreadable, larger than ``max_bytes``, or not UTF-8.
    """
    path = Path(path)
    try:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size > max_bytes:
                raise DataFileError(f"{path}: {size:,} bytes, more than the {max_bytes:,} allowed for this file")
            raw = f.read(max_bytes + 1)
    except OSError as e:
        raise DataFileError(f"{path}: cannot be read ({e.strerror or e})") from None
    if len(raw) > max_bytes:
        raise DataFileError(f"{path}: more than the {max_bytes:,} bytes allowed for this file")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise DataFileError(f"{path}: not UTF-8 text (byte {e.start})") from None


def parse_json(text: str | bytes, where: str) -> Any:
    """``json.loads(text)``; ``where`` names the source in the error.

    Raises:
        DataFileError: not JSON, nested too deeply, or an integer over Python's digit limit.
    """
    try:
        return json.loads(text)
    except RecursionError:
        raise DataFileError(f"{where}: not valid JSON (nested too deeply)") from None
    except json.JSONDecodeError as e:
        raise DataFileError(f"{where}: not valid JSON ({e.msg} at line {e.lineno} column {e.colno})") from None
    except UnicodeDecodeError as e:
        raise DataFileError(f"{where}: not UTF-8 text (byte {e.start})") from None
    except ValueError as e:  # an integer over sys.get_int_max_str_digits()
        raise DataFileError(f"{where}: not valid JSON ({e})") from None


def read_json(path: str | os.PathLike, max_bytes: int = MAX_JSON_BYTES) -> Any:
    """The JSON value in ``path`` (``read_text`` then ``parse_json``); raises ``DataFileError``."""
    return parse_json(read_text(path, max_bytes), str(path))


def _expanded_values(node, sizes: dict, bound: int) -> int:
    """How many values (scalars, sequences, mappings) the YAML ``node`` stands for with every
    alias in it written out, counted up to ``bound + 1``; ``sizes`` memoizes it by node."""
    import yaml

    if id(node) in sizes:
        return sizes[id(node)]
    n = 1
    if isinstance(node, yaml.SequenceNode):
        children = node.value
    elif isinstance(node, yaml.MappingNode):
        children = [part for pair in node.value for part in pair]
    else:
        children = []
    for child in children:
        n = min(bound + 1, n + _expanded_values(child, sizes, bound))
    sizes[id(node)] = n
    return n


@functools.cache
def strict_yaml_loader():
    """``yaml.SafeLoader`` that refuses a mapping with the same key twice (PyYAML keeps the
    last value silently): a ``yaml.constructor.ConstructorError`` naming the key and the
    line of both places. Merge keys (``<<: *base``) work as in ``yaml.safe_load``: a key
    of the merged mapping given again is its override, not a repeat. Aliases (``*name``)
    work while the values they repeat add up to at most ``MAX_YAML_ALIAS_VALUES`` in all;
    past that, or for an alias inside the value it names, ``YamlAliasError`` naming the
    alias and its line (PyYAML would build a recursive value, or hand the caller a value
    of billions of elements from a file of a few hundred bytes). Every YAML file of the
    project (rules, training configs) is read with it (``parse_yaml``)."""
    import yaml

    class StrictLoader(yaml.SafeLoader):
        def __init__(self, stream):
            super().__init__(stream)
            self._open_anchors: set = set()  # anchors of the values being read: an alias to one is recursive
            self._alias_values = 0  # values the aliases read so far repeat
            self._sizes: dict = {}

        def compose_node(self, parent, index):
            event = self.peek_event()
            anchor = event.anchor
            if isinstance(event, yaml.AliasEvent):
                where = f"*{anchor} on line {event.start_mark.line + 1}"
                if anchor in self._open_anchors:
                    raise YamlAliasError(f"the alias {where} is inside the value &{anchor} it names (a recursive "
                                         "value); write the value out")
                if anchor in self.anchors:  # else PyYAML's own error: found undefined alias
                    self._alias_values += _expanded_values(self.anchors[anchor], self._sizes, MAX_YAML_ALIAS_VALUES)
                    if self._alias_values > MAX_YAML_ALIAS_VALUES:
                        raise YamlAliasError(f"its aliases expand to more than {MAX_YAML_ALIAS_VALUES:,} values (by "
                                             f"{where}); aliases may repeat a few values: write the values out")
                return super().compose_node(parent, index)
            if anchor is None:
                return super().compose_node(parent, index)
            self._open_anchors.add(anchor)
            try:
                return super().compose_node(parent, index)
            finally:
                self._open_anchors.discard(anchor)

        def construct_mapping(self, node, deep=False):
            if isinstance(node, yaml.MappingNode):
                seen: dict = {}
                for key_node, _ in node.value:
                    if key_node.tag == "tag:yaml.org,2002:merge":  # `<<: *base`: merged keys may be overridden
                        continue
                    try:
                        key = self.construct_object(key_node, deep=True)
                        hash(key)
                    except TypeError:  # an unhashable key: PyYAML's own error follows
                        continue
                    if key in seen:
                        raise yaml.constructor.ConstructorError(
                            "while reading a mapping", node.start_mark,
                            f"found the key {short_repr(key)} twice (lines {seen[key] + 1} and "
                            f"{key_node.start_mark.line + 1}); give each key once", key_node.start_mark)
                    seen[key] = key_node.start_mark.line
            return super().construct_mapping(node, deep=deep)

    StrictLoader.add_constructor("tag:yaml.org,2002:map", StrictLoader.construct_yaml_map)
    return StrictLoader


def parse_yaml(text: str, where: str, loader=None) -> Any:
    """``yaml.safe_load(text)`` with ``strict_yaml_loader`` (a key given twice, or aliases
    expanding past ``MAX_YAML_ALIAS_VALUES`` values, are errors); ``where`` names the source
    in the error; ``loader``: a subclass of ``strict_yaml_loader()`` to use instead (the
    rules files', ``belote_env.config``).

    Raises:
        DataFileError: not YAML, a key given twice in a mapping, nested too deeply, an
            integer over Python's digit limit; ``YamlAliasError`` (a ``DataFileError``):
            aliases that expand too far or into themselves.
    """
    import yaml

    try:
        return yaml.load(text, Loader=loader or strict_yaml_loader())
    except RecursionError:
        raise DataFileError(f"{where}: not valid YAML (nested too deeply)") from None
    except YamlAliasError as e:
        raise YamlAliasError(f"{where}: {e}") from None
    except yaml.YAMLError as e:
        raise DataFileError(f"{where}: not valid YAML ({e})") from None
    except ValueError as e:  # an integer over sys.get_int_max_str_digits(), a bad date (2020-13-01)
        raise DataFileError(f"{where}: not valid YAML ({e})") from None
