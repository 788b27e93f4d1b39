"""Reading JSON and YAML files a user may have edited or damaged, with clear errors.

Every loader of the project (model metadata, checkpoints, records, pairs logs, configs,
rules) reads its files through these functions, so a damaged file always gives a
``DataFileError`` naming the file and what is wrong, never a traceback: a file over its
size bound, bytes that are not UTF-8, text that is not JSON / YAML, nesting too deep for
the parser (Python's ``RecursionError``), or an integer over Python's 4300-digit limit.
Callers turn it into their own error class (``CheckpointError``, ``ConfigError``,
``RecordError``, ...) with ``raise TheirError(str(e)) from None``.

Pure Python (``yaml`` only in ``parse_yaml``).
"""

from __future__ import annotations

import functools
import json
import os
import reprlib
from pathlib import Path
from typing import Any

__all__ = ["DataFileError", "MAX_JSON_BYTES", "read_text", "parse_json", "read_json", "parse_yaml", "short_repr",
           "strict_yaml_loader"]

#: Default bound on a JSON / YAML file's size (bytes): metadata, records and configs are
#: far smaller; a larger file is refused before it is read.
MAX_JSON_BYTES = 64 * 1024 * 1024


class DataFileError(ValueError):
    """A file that cannot be read as the JSON / YAML it should hold; the message names it."""


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


@functools.cache
def strict_yaml_loader():
    """``yaml.SafeLoader`` that refuses a mapping with the same key twice (PyYAML keeps the
    last value silently): a ``yaml.constructor.ConstructorError`` naming the key and the
    line of both places. Merge keys (``<<: *base``) work as in ``yaml.safe_load``: a key
    of the merged mapping given again is its override, not a repeat. Every YAML file of the project (rules, training configs) is read
    with it."""
    import yaml

    class StrictLoader(yaml.SafeLoader):
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


def parse_yaml(text: str, where: str) -> Any:
    """``yaml.safe_load(text)`` with ``strict_yaml_loader`` (a key given twice is an error);
    ``where`` names the source in the error.

    Raises:
        DataFileError: not YAML, a key given twice in a mapping, nested too deeply, or an
            integer over Python's digit limit.
    """
    import yaml

    try:
        return yaml.load(text, Loader=strict_yaml_loader())
    except RecursionError:
        raise DataFileError(f"{where}: not valid YAML (nested too deeply)") from None
    except yaml.YAMLError as e:
        raise DataFileError(f"{where}: not valid YAML ({e})") from None
    except ValueError as e:  # an integer over sys.get_int_max_str_digits()
        raise DataFileError(f"{where}: not valid YAML ({e})") from None
