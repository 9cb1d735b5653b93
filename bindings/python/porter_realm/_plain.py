"""Objects from one cursor of plain JSON (``porter export --format json``: dates to the nanosecond),
turned into the Python values :func:`porter_realm.decode` gives for Extended JSON by the schema.

Plain JSON does not say a value's type, the schema does: a converter is built once per class, so
that only the properties whose JSON form is not already their Python value (dates, ObjectIds,
UUIDs, decimals, bytes, float32, links to such keys, embedded objects) are touched per object. A
class holding ``mixed`` values anywhere has no converter (plain JSON cannot say a mixed value's
type); :class:`Unconvertible` is raised for a value whose plain form is outside what is converted
here (a date outside years 1-9999), and the caller reads on from the two-cursor path.
"""

from __future__ import annotations

import base64
import decimal
import struct
import uuid
from typing import Any, Callable, Dict, List, Optional, Tuple

from ._ejson import ObjectId, Timestamp

Converter = Callable[[Any], Any]

_FLOAT32 = struct.Struct("<f")


class Unconvertible(Exception):
    """A class or a value the plain form cannot give exactly."""


def _float(value: Any) -> float:
    # JSON numbers, or "NaN", "Infinity", "-Infinity" as strings.
    return float(value)


def _float32(value: Any) -> float:
    # The shortest text of a float32 ("3.4028235e+38") read back as that float32, widened exactly:
    # what Extended JSON's "$numberDouble" holds for a float property.
    return _FLOAT32.unpack(_FLOAT32.pack(float(value)))[0]


def _date(text: str) -> Timestamp:
    # "YYYY-MM-DDTHH:MM:SS[.fffffffff]Z" (what porter export --format json writes in years 1-9999):
    # datetime's own parser (it keeps six of the nine digits, truncating, as the two-cursor path
    # does), the nanoseconds from the text.
    if len(text) < 20 or text[10] != "T" or text[-1] != "Z" or text[19] not in ".Z" or len(text) > 30:
        raise Unconvertible(text)
    try:
        value = _from_iso(text)
        nanoseconds = int(text[20:-1].ljust(9, "0")) if len(text) > 20 else 0
    except ValueError as error:
        raise Unconvertible(text) from error
    value.nanoseconds = nanoseconds
    return value


_from_iso = Timestamp.fromisoformat


def _object_id(text: str) -> ObjectId:
    # 24 hexadecimal digits, as porter export --format json writes an ObjectId.
    value = object.__new__(ObjectId)
    value.binary = bytes.fromhex(text)
    if len(value.binary) != 12:
        raise Unconvertible(text)
    return value


def _data(text: str) -> bytes:
    return base64.b64decode(text)


_SCALARS: Dict[str, Optional[Converter]] = {
    "int": None, "bool": None, "string": None,
    "float": _float32, "double": _float, "decimal128": decimal.Decimal, "objectId": _object_id,
    "uuid": uuid.UUID, "data": _data, "date": _date,
}


def _parse(spec: Any) -> Tuple[str, str]:
    """A property's spec ("int?", "Dog[]", "int?{}", {"type": "string", ...}) as (base, collection)."""
    text = spec if isinstance(spec, str) else str(spec.get("type", ""))
    collection = ""
    if text[-2:] in ("[]", "<>", "{}"):
        collection, text = text[-2:], text[:-2]
    return text.rstrip("?"), collection


class _Builder:
    def __init__(self, schema: Dict[str, Any]) -> None:
        self.classes = {c["name"]: c for c in schema.get("classes", [])}
        self.objects: Dict[str, Converter] = {}

    def value(self, base: str) -> Optional[Converter]:
        if base in _SCALARS:
            return _SCALARS[base]
        if base == "mixed":
            raise Unconvertible("mixed")
        target = self.classes.get(base)
        if target is None:
            raise Unconvertible(base)
        if target.get("embedded"):
            return self.object(base)
        # A link is written as the target's primary key (or its object key, an int).
        key = target.get("primaryKey")
        if not key:
            return None
        return self.value(_parse(target["properties"][key])[0])

    def object(self, name: str) -> Converter:
        if name in self.objects:
            return self.objects[name]
        # Registered before its properties are read (embedded classes may hold themselves): the
        # generated function looks the converters up when it runs, not when it is made.
        cell: List[Converter] = []
        self.objects[name] = lambda document: cell[0](document)
        fields: List[Tuple[str, Converter]] = []
        for key, spec in self.classes[name].get("properties", {}).items():
            base, collection = _parse(spec)
            inner = self.value(base)
            if inner is None:
                continue
            if collection == "{}":
                fields.append((key, _map_of(inner)))
            elif collection:
                fields.append((key, _list_of(inner)))
            else:
                fields.append((key, inner))
        cell.append(_generated(fields))
        self.objects[name] = cell[0]
        return cell[0]


def _generated(fields: List[Tuple[str, Converter]]) -> Converter:
    """One function converting the fields in place, written out (no loop over the fields): this
    runs once per object read, so each field costs one lookup, one test and one call."""
    lines = ["def convert(d):"]
    for i, (key, _) in enumerate(fields):
        lines += [f"    v = d.get({key!r})", "    if v is not None:", f"        d[{key!r}] = f{i}(v)"]
    lines.append("    return d")
    scope: Dict[str, Any] = {f"f{i}": field for i, (_, field) in enumerate(fields)}
    exec("\n".join(lines), scope)  # noqa: S102 - the source above, from the schema's names quoted by repr
    return scope["convert"]


def _list_of(inner: Converter) -> Converter:
    return lambda values: [None if v is None else inner(v) for v in values]


def _map_of(inner: Converter) -> Converter:
    return lambda values: {k: None if v is None else inner(v) for k, v in values.items()}


def object_converter(schema: Dict[str, Any], class_name: str) -> Converter:
    """The converter of ``class_name``'s plain JSON objects; raises :class:`Unconvertible` when
    the class (or an embedded class in it) holds mixed values."""
    return _Builder(schema).object(class_name)
