"""Decoding JSON into the package's frozen dataclasses and encoding them back.

A field's JSON name is its camelCase spelling unless ``metadata["json"]`` says otherwise. A field
with ``metadata["omit"]`` may be absent from the JSON: absent decodes to its default (None, or
ABSENT where null is a value of its own) and is left out again when encoded. Fields named ``raw``
and ``extra`` are not JSON members: ``raw`` keeps the text (or object) decoded, ``extra`` the
members a type does not name (entries from other agents), re-emitted by ``to_json``.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import sys
import types
import typing
from typing import Any, Dict, Mapping, Tuple, Type, TypeVar, Union

T = TypeVar("T")

#: Any JSON value (caller-owned JSON: message content, entry data and details) as json.loads gives it.
JsonValue = Any


class Absent(enum.Enum):
    """The type of ABSENT: a member that is not there, where null is a value of its own."""

    ABSENT = "absent"

    def __repr__(self) -> str:
        return "ABSENT"

    def __bool__(self) -> bool:
        return False


ABSENT = Absent.ABSENT


class DecodeError(ValueError):
    """JSON that does not have the shape its type describes."""


def camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(p[:1].upper() + p[1:] for p in rest)


def json_name(f: "dataclasses.Field[Any]") -> str:
    return str(f.metadata.get("json", camel(f.name)))


_hints_cache: Dict[type, Dict[str, Any]] = {}


def _hints(cls: type) -> Dict[str, Any]:
    h = _hints_cache.get(cls)
    if h is None:
        h = typing.get_type_hints(cls, vars(sys.modules[cls.__module__]))
        _hints_cache[cls] = h
    return h


def convert(tp: Any, value: Any, where: str) -> Any:
    """value (from json.loads) as type tp; DecodeError when it does not fit."""
    if tp is Any:
        return value
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is Union or origin is types.UnionType:
        if value is None and type(None) in args:
            return None
        others = [a for a in args if a is not type(None) and a is not Absent]
        last: Exception = DecodeError(f"{where}: {value!r} fits none of {tp}")
        for a in others:
            try:
                return convert(a, value, where)
            except DecodeError as e:
                last = e
        raise last
    if origin is tuple:
        if not isinstance(value, list):
            raise DecodeError(f"{where}: expected an array, got {value!r}")
        return tuple(convert(args[0], v, f"{where}[{i}]") for i, v in enumerate(value))
    if origin is dict:
        if not isinstance(value, dict):
            raise DecodeError(f"{where}: expected an object, got {value!r}")
        return {k: convert(args[1], v, f"{where}.{k}") for k, v in value.items()}
    if tp is bool:
        if not isinstance(value, bool):
            raise DecodeError(f"{where}: expected a boolean, got {value!r}")
        return value
    if tp is int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise DecodeError(f"{where}: expected an integer, got {value!r}")
        return value
    if tp is float:
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise DecodeError(f"{where}: expected a number, got {value!r}")
        return value  # an int stays an int: re-encoding keeps its spelling
    if tp is str:
        if not isinstance(value, str):
            raise DecodeError(f"{where}: expected a string, got {value!r}")
        return value
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        try:
            return tp(value)
        except ValueError:
            raise DecodeError(f"{where}: {value!r} is not a {tp.__name__}") from None
    if dataclasses.is_dataclass(tp):
        decoder = getattr(tp, "from_json", None)
        if decoder is not None:
            return decoder(value)
        return decode(tp, value, where)
    raise DecodeError(f"{where}: no decoder for {tp}")


def decode(cls: Type[T], obj: Any, where: str = "") -> T:
    """obj (a dict from json.loads) as the dataclass cls."""
    if not isinstance(obj, dict):
        raise DecodeError(f"{where or cls.__name__}: expected an object, got {obj!r}")
    hints = _hints(cls)
    kwargs: Dict[str, Any] = {}
    named = set()
    has_extra = False
    for f in dataclasses.fields(typing.cast(Any, cls)):
        if f.metadata.get("internal"):
            continue  # raw and line: parse() or from_json sets them
        if f.metadata.get("extra"):
            has_extra = True
            continue
        name = json_name(f)
        named.add(name)
        if name not in obj:
            if f.metadata.get("omit"):
                continue  # its default: None or ABSENT
            raise DecodeError(f"{where or cls.__name__}: no member {name!r}")
        kwargs[f.name] = convert(hints[f.name], obj[name], f"{where or cls.__name__}.{name}")
    if has_extra:
        kwargs["extra"] = {k: v for k, v in obj.items() if k not in named}
    return cls(**kwargs)


def encode(value: Any) -> Any:
    """A decoded value back as JSON data (json.dumps-able)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        custom = getattr(value, "to_json", None)
        if custom is not None and getattr(type(value), "_custom_to_json", False):
            return custom()
        return encode_fields(value)
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, (tuple, list)):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        return {k: encode(v) for k, v in value.items()}
    return value


INTERNAL = {"internal": True}


def encode_fields(value: Any) -> Dict[str, Any]:
    """A dataclass's members as a JSON object: absent ones left out, ``extra`` merged in."""
    out: Dict[str, Any] = {}
    for f in dataclasses.fields(value):
        if f.metadata.get("internal"):
            continue
        v = getattr(value, f.name)
        if f.metadata.get("extra"):
            out.update(v)
            continue
        if f.metadata.get("omit") and (v is ABSENT or (v is None and f.default is None)):
            continue
        out[json_name(f)] = encode(v)
    return out


def opt(json: str = "", default: Any = None) -> Any:
    """A member that may be absent (default None; pass default=ABSENT where null is a value)."""
    meta: Dict[str, Any] = {"omit": True}
    if json:
        meta["json"] = json
    return dataclasses.field(default=default, metadata=meta)


def named(json: str) -> Any:
    """A required member whose JSON name is not the field's camelCase spelling."""
    return dataclasses.field(metadata={"json": json})


def raw_field() -> Any:
    """The JSON text (top-level results) or object (nested values) the value was decoded from."""
    return dataclasses.field(default="", compare=False, repr=False, metadata=INTERNAL)


def extra_field() -> Any:
    """Members the type does not name, kept so that re-encoding loses nothing."""
    return dataclasses.field(default_factory=dict, compare=False, repr=False, metadata={"extra": True})


def loads(text: bytes) -> Any:
    return json.loads(text.decode("utf-8"))


class JsonResult:
    """Mixin of decoded outputs: ``to_json()`` gives the JSON data back."""

    def to_json(self) -> Any:
        return encode(self)


def parse(cls: Type[T], text: bytes) -> T:
    """A top-level output: decoded, with ``raw`` set to the exact text."""
    value = decode(cls, loads(text))
    object.__setattr__(value, "raw", text.decode("utf-8"))
    return value


class Results(Tuple[T, ...]):
    """A decoded JSON array: a tuple of typed values that also keeps the exact text in ``raw``."""

    raw: str

    def __new__(cls, items: Any, raw: str = "") -> "Results[T]":
        self = super().__new__(cls, items)
        self.raw = raw
        return self

    def to_json(self) -> Any:
        return [encode(v) for v in self]


def parse_list(tp: Any, text: bytes) -> "Results[Any]":
    data = loads(text)
    if not isinstance(data, list):
        raise DecodeError(f"expected an array, got {data!r}")
    return Results([convert(tp, v, f"[{i}]") for i, v in enumerate(data)], text.decode("utf-8"))


def same_json(a: Any, b: Any) -> bool:
    """Equal as JSON values: objects order-insensitively, numbers by value, types kept apart."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_json(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b))
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    return type(a) is type(b) and a == b


def mapping_of(value: Mapping[str, Any]) -> Dict[str, Any]:
    return dict(value)
