"""Read Realm files from Python: ``porter_realm.open(path, key=None)``.

Porter's Realm file reader (no realm-core; file formats 2-11 and 20-24, encrypted or not, read-only) through
its C library, libporter.so. Objects come as dicts of Python values, exactly the documents
``porter export --format ejson-canonical`` writes, decoded: ``int``, ``float``, ``str``, ``bool``,
``None``, :class:`decimal.Decimal`, :class:`uuid.UUID`, ``bytes``, :class:`ObjectId`,
:class:`Timestamp` (a UTC ``datetime`` with ``nanoseconds``), embedded objects as dicts,
lists/sets as lists, maps as dicts, links as the target's primary key (or ``_key``), links in
``mixed`` values as :class:`Link`.

Forensic mode: :func:`inspect` summarizes any file, readable or not (format, SDK era, both top
refs, and the reason it does not open); :func:`check` is ``porter check --json``.
"""

from __future__ import annotations

import ctypes
import json
import os
from typing import Any, Callable, Dict, Iterator, List, Optional, TypeVar, Union

from . import _native, _plain
from ._ejson import Link, ObjectId, Timestamp, decode, with_nanoseconds
from ._native import Cancelled, PorterError

__all__ = [
    "open", "inspect", "check", "RealmFile", "PorterError", "Cancelled", "ObjectId", "Timestamp", "Link",
    "Cursor", "decode", "EXPORT_FORMATS", "library_version",
]

Key = Union[bytes, str, None]
PathLike = Union[str, "os.PathLike[str]"]

#: ``porter_open``'s ``PORTER_OPEN_SKIP_CHECK`` (``open(..., check=False)``).
SKIP_CHECK = 1

#: What :meth:`RealmFile.export` writes (as ``porter export --format``).
EXPORT_FORMATS = ("bson", "json", "ejson", "ejson-canonical", "csv", "sqlite", "realm")


def library_version() -> str:
    """The version of Porter the loaded libporter.so was built from."""
    return _native.lib().porter_version().decode()


def _path(path: PathLike) -> bytes:
    return os.fsencode(os.fspath(path))


def _take_json(call: Callable[[Any, Any], int], handle: Optional[int] = None) -> Any:
    buffer = ctypes.c_void_p()
    length = ctypes.c_size_t()
    _native.raise_for(call(ctypes.byref(buffer), ctypes.byref(length)), handle)
    return json.loads(_native.take_bytes(buffer, length.value))


def inspect(path: PathLike, key: Key = None) -> Dict[str, Any]:
    """The forensic summary of the file at ``path``, made whether or not it opens: ``diagnosis``
    and ``message``, ``header`` (``topRefs`` of both snapshots, ``selectedSlot``, ``fileFormats``)
    for a plaintext header, ``readable``, and either ``reason`` (why it does not open: encrypted,
    unsupported format, empty, damaged and where) or ``fileFormat``, ``writers`` (the SDK era),
    ``encrypted``, ``schemaVersion``, ``classes`` with their object counts."""
    data, length = _native.key_bytes(key)
    lib = _native.lib()
    return _take_json(lambda out, n: lib.porter_inspect_json(_path(path), data, length, out, n))


def check(path: PathLike, key: Key = None) -> Dict[str, Any]:
    """``porter check --json``: ``ok``, ``diagnosis``, ``message``, ``evidence``, ``problems``."""
    data, length = _native.key_bytes(key)
    lib = _native.lib()
    return _take_json(lambda out, n: lib.porter_check_json(_path(path), data, length, out, n))


class _Closing:
    """Something to close: a context manager that closes on exit, and closes when collected."""

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self: "T") -> "T":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass


T = TypeVar("T", bound=_Closing)


class RealmFile(_Closing):
    """An open Realm file (read-only). Use it as a context manager, or call :meth:`close`.

    Calls on one file may come from several threads (the library serializes them); iterators of
    :meth:`objects` read their own copy of the file and stay usable after :meth:`close`.
    """

    def __init__(self, path: PathLike, key: Key = None, check: bool = True) -> None:
        data, length = _native.key_bytes(key)
        self.path: str = os.fspath(path)
        self._key = key
        handle = ctypes.c_void_p()
        flags = 0 if check else SKIP_CHECK
        _native.raise_for(_native.lib().porter_open(_path(path), data, length, flags, ctypes.byref(handle)))
        self._handle: Optional[int] = handle.value
        self._schema: Optional[Dict[str, Any]] = None

    # -- lifetime --------------------------------------------------------------------------

    def close(self) -> None:
        """Closes the file (a second close does nothing)."""
        if self._handle is not None:
            handle, self._handle = self._handle, None
            _native.raise_for(_native.lib().porter_close(handle))


    def __repr__(self) -> str:
        return f"<porter_realm.RealmFile {self.path!r}{'' if self._handle else ' (closed)'}>"

    def _live(self) -> int:
        if self._handle is None:
            raise PorterError(2, f"{self.path}: the file is closed")
        return self._handle

    # -- what the file holds ----------------------------------------------------------------

    @property
    def schema(self) -> Dict[str, Any]:
        """The schema as the schema-file JSON ``porter schema FILE`` prints, parsed."""
        if self._schema is None:
            handle = self._live()
            lib = _native.lib()
            self._schema = _take_json(lambda out, n: lib.porter_schema_json(handle, out, n), handle)
        return self._schema

    @property
    def classes(self) -> List[str]:
        """Every class's name, in schema order (embedded classes included)."""
        handle = self._live()
        lib = _native.lib()
        count = ctypes.c_size_t()
        _native.raise_for(lib.porter_class_count(handle, ctypes.byref(count)), handle)
        names = []
        for index in range(count.value):
            buffer = ctypes.c_void_p()
            _native.raise_for(lib.porter_class_name(handle, index, ctypes.byref(buffer)), handle)
            names.append(ctypes.string_at(buffer).decode())
            lib.porter_free(buffer)
        return names

    def count(self, class_name: str) -> int:
        """The number of objects of ``class_name``."""
        handle = self._live()
        count = ctypes.c_uint64()
        _native.raise_for(_native.lib().porter_object_count(handle, class_name.encode(), ctypes.byref(count)), handle)
        return count.value

    def summary(self) -> Dict[str, Any]:
        """:func:`inspect` of this file with its key."""
        return inspect(self.path, self._key)

    def check(self) -> Dict[str, Any]:
        """:func:`check` of this file with its key (``porter check --json``)."""
        return check(self.path, self._key)

    # -- objects ----------------------------------------------------------------------------

    def documents(self, class_name: str, query: Optional[str] = None, canonical: bool = True) -> Iterator[str]:
        """The objects of the top-level class ``class_name`` as Extended JSON text, one string each,
        byte for byte what ``porter export --class C --format ejson-canonical`` (or ``ejson`` with
        ``canonical=False``) writes; ``query``: a Realm Query Language predicate (``--query``)."""
        return self._cursor(class_name, query, 1 if canonical else 0, lambda data: data.decode("utf-8"))

    def bson_documents(self, class_name: str, query: Optional[str] = None) -> Iterator[bytes]:
        """The objects as BSON documents (``porter export --format bson``)."""
        return self._cursor(class_name, query, 2, lambda data: data)

    def objects(
        self, class_name: str, query: Optional[str] = None, nanoseconds: bool = True
    ) -> Iterator[Dict[str, Any]]:
        """The objects of the top-level class ``class_name`` as dicts of Python values, in
        object-key order, those matching ``query`` (Realm Query Language, as ``Results.filter``
        and ``porter export --query`` take it: ``"age > 3 AND owner.name BEGINSWITH[c] 'a'"``).

        Dates are :class:`Timestamp` values with their ``nanoseconds``. Objects come from one
        cursor of the plain JSON export (dates to the nanosecond), converted by the schema; a
        class with mixed values (whose types only Extended JSON says) reads Extended JSON with a
        second cursor of plain JSON in step for the nanoseconds (``nanoseconds=False``: Extended
        JSON alone, dates to the millisecond)."""
        if nanoseconds:
            try:
                convert = _plain.object_converter(self.schema, class_name)
            except _plain.Unconvertible:
                pass  # mixed values: their types are in Extended JSON only
            else:
                return _Batched(self, class_name, query, convert)
        return self._slow_objects(class_name, query, nanoseconds)

    def _slow_objects(self, class_name: str, query: Optional[str], nanoseconds: bool) -> Iterator[Dict[str, Any]]:
        """Canonical Extended JSON decoded, with the dates' nanoseconds from a second cursor over
        the plain JSON when the class holds dates: what any class, mixed values included, needs."""
        objects = self._cursor(class_name, query, 1, lambda data: decode(json.loads(data)))
        if not nanoseconds or not self._holds_dates(class_name):
            return objects
        return _InStep(objects, self._cursor(class_name, query, 3, json.loads))

    def _holds_dates(self, class_name: str) -> bool:
        """Whether objects of ``class_name`` (or the embedded objects inside them) can hold a date."""
        classes = {c["name"]: c for c in self.schema["classes"]}
        seen = set()
        pending = [class_name]
        while pending:
            name = pending.pop()
            if name in seen or name not in classes:
                continue
            seen.add(name)
            for spec in classes[name].get("properties", {}).values():
                text = spec if isinstance(spec, str) else str(spec.get("objectType") or spec.get("type") or "")
                base = text.rstrip("?[]<>{}")
                if base in ("date", "mixed"):
                    return True
                if base in classes and classes[base].get("embedded"):
                    pending.append(base)
        return False

    def _cursor(self, class_name: str, query: Optional[str], flags: int, convert: Callable[[bytes], Any]) -> Iterator[Any]:
        handle = self._live()
        lib = _native.lib()
        cursor = ctypes.c_void_p()
        _native.raise_for(
            lib.porter_cursor_open(
                handle, class_name.encode(), None if query is None else query.encode(), flags, ctypes.byref(cursor)
            ),
            handle,
        )
        return Cursor(cursor.value, convert)

    # -- export -----------------------------------------------------------------------------

    def export(
        self, out: PathLike, format: str = "ejson", progress: Optional[Callable[[int, int], Optional[bool]]] = None
    ) -> None:
        """Writes the file as ``porter export FILE --out OUT --format FORMAT`` does (one of
        :data:`EXPORT_FORMATS`; folders for bson/json/ejson/ejson-canonical/csv, one file for
        sqlite and realm), atomically. ``progress(done, total)`` is called as objects are written;
        returning ``True`` cancels (raising :class:`Cancelled`; nothing is left behind)."""
        handle = self._live()
        callback = _native.PROGRESS(0)
        raised: List[BaseException] = []
        if progress is not None:

            def report(done: int, total: int, _context: Any) -> int:
                try:
                    return 1 if progress(done, total) else 0
                except BaseException as error:  # stop, and raise it once the export returned
                    raised.append(error)
                    return 1

            callback = _native.PROGRESS(report)
        status = _native.lib().porter_export(handle, _path(out), format.encode(), callback, None)
        if raised:
            raise raised[0]
        _native.raise_for(status, handle)


class Cursor(_Closing, Iterator[Any]):
    """An iterator over a class's objects, reading them one at a time from the library; closed
    at the end, by :meth:`close`, as a context manager, or when garbage-collected."""

    def __init__(self, cursor: int, convert: Callable[[bytes], Any]) -> None:
        self._cursor: Optional[int] = cursor
        self._convert = convert

    def __iter__(self) -> "Cursor":
        return self

    def __next__(self) -> Any:
        if self._cursor is None:
            raise StopIteration
        lib = _native.lib()
        buffer = ctypes.c_void_p()
        length = ctypes.c_size_t()
        status = lib.porter_cursor_next(self._cursor, ctypes.byref(buffer), ctypes.byref(length))
        if status != 0:
            cursor = self._cursor
            try:
                _native.raise_for(status, cursor)
            finally:
                self.close()
        if not buffer.value:
            self.close()
            raise StopIteration
        return self._convert(_native.take_bytes(buffer, length.value))

    def close(self) -> None:
        """Stops reading (the library's reader thread ends)."""
        if self._cursor is not None:
            cursor, self._cursor = self._cursor, None
            _native.lib().porter_cursor_close(cursor)



class _Batched(_Closing, Iterator[Any]):
    """Objects from one cursor of plain JSON (dates to the nanosecond), fetched a batch at a time
    (``porter_cursor_next_batch``: one call and one ``json.loads`` per batch) and turned into
    Python values by the class's converter. A value the converter cannot give exactly (a date
    outside years 1-9999) switches to the two-cursor path for the objects from there on."""

    BATCH = 1024
    _UNCONVERTIBLE = (_plain.Unconvertible, ValueError, TypeError, AttributeError)

    def __init__(self, realm: "RealmFile", class_name: str, query: Optional[str], convert: Callable[[Any], Any]) -> None:
        self._slow: Optional[Iterator[Any]] = None
        self._realm = realm
        self._class_name = class_name
        self._query = query
        self._convert = convert
        self._cursor: Optional[Cursor] = realm._cursor(class_name, query, 3, bytes)
        self._pending: List[Any] = []
        self._index = 0
        self._returned = 0
        # Set when a batch held a value the converter cannot give: the objects converted before it
        # are returned, then the two-cursor path takes over.
        self._switching = False

    def __iter__(self) -> "_Batched":
        return self

    def __next__(self) -> Any:
        index = self._index
        if index == len(self._pending):
            if self._slow is not None:
                return next(self._slow)
            if self._switching:
                return self._switch()
            self._fill()
            if not self._pending:  # the batch's first object could not be converted
                return self._switch()
            index = 0
        self._index = index + 1
        return self._pending[index]

    def _fill(self) -> None:
        self._returned += len(self._pending)
        self._pending = []
        self._index = 0
        cursor = self._cursor
        if cursor is None or cursor._cursor is None:
            raise StopIteration
        lib = _native.lib()
        buffer = ctypes.c_void_p()
        length = ctypes.c_size_t()
        count = ctypes.c_size_t()
        status = lib.porter_cursor_next_batch(
            cursor._cursor, self.BATCH, ctypes.byref(buffer), ctypes.byref(length), ctypes.byref(count)
        )
        if status != 0:
            try:
                _native.raise_for(status, cursor._cursor)
            finally:
                self.close()
        if count.value == 0:
            self.close()
            raise StopIteration
        converted: List[Any] = []
        append = converted.append
        convert = self._convert
        try:
            for document in json.loads(_native.take_bytes(buffer, length.value)):
                append(convert(document))
        except self._UNCONVERTIBLE:
            self._switching = True
        self._pending = converted

    def _switch(self) -> Any:
        """Reads on from the two-cursor path, past the objects already returned."""
        returned = self._returned + len(self._pending)
        self.close()
        slow = self._realm._slow_objects(self._class_name, self._query, True)
        for _ in range(returned):
            next(slow)
        self._slow = slow
        self._pending = []
        self._index = 0
        return next(slow)

    def close(self) -> None:
        """Stops the cursor (and the two-cursor path, if it was switched to)."""
        cursor = self.__dict__.get("_cursor")
        if cursor is not None:
            self._cursor = None
            cursor.close()
        slow = self.__dict__.get("_slow")
        if isinstance(slow, _Closing):
            slow.close()


class _InStep(_Closing, Iterator[Any]):
    """Two cursors over the same objects, read in step: Extended JSON decoded, with the dates'
    nanoseconds from the plain JSON of the same object."""

    def __init__(self, objects: "Cursor", plain: "Cursor") -> None:
        self._objects = objects
        self._plain = plain

    def __iter__(self) -> "_InStep":
        return self

    def __next__(self) -> Any:
        try:
            value = next(self._objects)
            return with_nanoseconds(value, next(self._plain))
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        """Stops both cursors."""
        self._objects.close()
        self._plain.close()



def open(path: PathLike, key: Key = None, check: bool = True) -> RealmFile:  # noqa: A001 - the package's verb
    """Opens the Realm file at ``path`` read-only; ``key``: the 64-byte key of an encrypted file
    (bytes, or 128 hex digits). Raises :class:`PorterError` saying why a file does not open.

    ``check=False`` is ``porter export --skip-check``: without it, the first :meth:`RealmFile.objects`
    or :meth:`RealmFile.export` runs ``porter check``'s checks (once per file) and refuses a file
    that fails them, as ``porter export`` does; with it, iteration reads on up to the first damaged
    object (forensic reading of what remains)."""
    return RealmFile(path, key, check)
