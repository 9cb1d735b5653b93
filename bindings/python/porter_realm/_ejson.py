"""Extended JSON (canonical or relaxed, as ``porter export`` writes it) to Python values."""

from __future__ import annotations

import base64
import datetime as _dt
import decimal
import uuid
from typing import Any, NamedTuple

_EPOCH = _dt.datetime(1970, 1, 1, tzinfo=_dt.timezone.utc)


class ObjectId:
    """A 12-byte BSON ObjectId (``{"$oid": "…"}``): ``str()`` gives its 24 hex digits."""

    __slots__ = ("binary",)

    def __init__(self, value: "str | bytes") -> None:
        if isinstance(value, str):
            value = bytes.fromhex(value)
        if len(value) != 12:
            raise ValueError(f"an ObjectId is 12 bytes, got {len(value)}")
        self.binary = bytes(value)

    @property
    def generation_time(self) -> _dt.datetime:
        """The creation time its first four bytes hold (seconds, UTC)."""
        return _EPOCH + _dt.timedelta(seconds=int.from_bytes(self.binary[:4], "big"))

    def __str__(self) -> str:
        return self.binary.hex()

    def __repr__(self) -> str:
        return f"ObjectId('{self.binary.hex()}')"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ObjectId) and other.binary == self.binary

    def __lt__(self, other: "ObjectId") -> bool:
        return self.binary < other.binary

    def __hash__(self) -> int:
        return hash(self.binary)


class Timestamp(_dt.datetime):
    """A Realm date: an aware UTC ``datetime`` with ``nanoseconds``, the digits below the second
    (Extended JSON holds milliseconds, so from a cursor they are a multiple of 1,000,000)."""

    # A slot, not an instance dictionary: one fewer allocation per date read.
    __slots__ = ("nanoseconds",)
    nanoseconds: int

    @classmethod
    def from_milliseconds(cls, milliseconds: int) -> "Timestamp":
        seconds, millis = divmod(milliseconds, 1000)
        moment = _EPOCH + _dt.timedelta(seconds=seconds, milliseconds=millis)
        value = cls(
            moment.year, moment.month, moment.day, moment.hour, moment.minute, moment.second,
            moment.microsecond, tzinfo=_dt.timezone.utc,
        )
        value.nanoseconds = millis * 1_000_000
        return value

    def __reduce__(self):  # pickles as a plain datetime plus the nanoseconds
        return (_rebuild, (_dt.datetime(*self.timetuple()[:6], self.microsecond, tzinfo=self.tzinfo), self.nanoseconds))


def with_nanoseconds(value: Any, plain: Any) -> Any:
    """``value`` (decoded Extended JSON) with every date's digits below the millisecond taken from
    ``plain``, the same object as ``porter export --format json`` writes it (ISO 8601 dates with
    nine fractional digits), walked in parallel."""
    if isinstance(value, Timestamp):
        if isinstance(plain, str):
            nanoseconds = _fraction_nanoseconds(plain)
            if nanoseconds is not None and nanoseconds // 1_000_000 == value.nanoseconds // 1_000_000:
                exact = value.replace(microsecond=nanoseconds // 1000)
                exact.nanoseconds = nanoseconds
                return exact
        return value
    if isinstance(value, dict) and isinstance(plain, dict):
        for key, inner in value.items():
            if key in plain and isinstance(inner, (Timestamp, dict, list)):
                value[key] = with_nanoseconds(inner, plain[key])
        return value
    if isinstance(value, list) and isinstance(plain, list) and len(value) == len(plain):
        for i, inner in enumerate(value):
            if isinstance(inner, (Timestamp, dict, list)):
                value[i] = with_nanoseconds(inner, plain[i])
    return value


def _fraction_nanoseconds(text: str) -> "int | None":
    """The nanoseconds of an ISO 8601 time's fraction ("…:59.123456789Z" → 123456789)."""
    if not text.endswith("Z") or "T" not in text:
        return None
    seconds = text[:-1].rsplit(":", 1)[-1]
    if "." not in seconds:
        return 0
    digits = seconds.split(".", 1)[1]
    if not digits.isdigit() or len(digits) > 9:
        return None
    return int(digits.ljust(9, "0"))


def _rebuild(moment: _dt.datetime, nanoseconds: int) -> Timestamp:
    value = Timestamp(*moment.timetuple()[:6], moment.microsecond, tzinfo=moment.tzinfo)
    value.nanoseconds = nanoseconds
    return value


class Link(NamedTuple):
    """A link stored in a ``mixed`` value (``{"$ref": class, "$id": key}``): the target's class and
    its primary key (or object key)."""

    class_name: str
    key: Any


def _double(text: str) -> float:
    return float({"Infinity": "inf", "-Infinity": "-inf"}.get(text, text))


def decode(value: Any) -> Any:
    """Extended JSON, parsed by ``json.loads``, as Python values: ``int``, ``float``,
    ``decimal.Decimal``, ``ObjectId``, ``uuid.UUID`` (binary subtype 4), ``bytes``, ``Timestamp``,
    ``Link``, dicts and lists, recursively."""
    if isinstance(value, list):
        return [decode(v) for v in value]
    if not isinstance(value, dict):
        return value
    if len(value) == 1:
        ((tag, inner),) = value.items()
        if tag == "$numberInt" or tag == "$numberLong":
            return int(inner)
        if tag == "$numberDouble":
            return _double(inner)
        if tag == "$numberDecimal":
            return decimal.Decimal(inner)
        if tag == "$oid":
            return ObjectId(inner)
        if tag == "$date":
            try:
                if isinstance(inner, dict):
                    return Timestamp.from_milliseconds(int(inner["$numberLong"]))
                if isinstance(inner, str):
                    delta = _dt.datetime.fromisoformat(inner.replace("Z", "+00:00")) - _EPOCH
                    return Timestamp.from_milliseconds(delta // _dt.timedelta(milliseconds=1))
                return Timestamp.from_milliseconds(int(inner))
            except (OverflowError, ValueError):
                return value  # outside datetime's years 1-9999: kept as Extended JSON
        if tag == "$binary":
            data = base64.b64decode(inner["base64"])
            return uuid.UUID(bytes=data) if inner.get("subType") == "04" and len(data) == 16 else data
        if tag == "$uuid":
            return uuid.UUID(inner)
    if len(value) == 2 and "$ref" in value and "$id" in value:
        return Link(value["$ref"], decode(value["$id"]))
    return {k: decode(v) for k, v in value.items()}
