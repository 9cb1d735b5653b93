"""ctypes declarations of porter.h (libporter.so): loading, status codes, calls that raise."""

from __future__ import annotations

import ctypes
import os
from typing import Optional

ABI_VERSION = 1

#: porter_status names by code (porter.h).
STATUS_NAMES = {
    0: "ok",
    1: "invalid-argument",
    2: "closed-handle",
    3: "io",
    4: "not-a-realm-file",
    5: "not-found",
    6: "usage",
    7: "cancelled",
    8: "invalid-data",
    9: "other",
}

PROGRESS = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_uint64, ctypes.c_uint64, ctypes.c_void_p)


class PorterError(Exception):
    """A failure reported by the library: ``code`` (``porter_status``), ``name`` and the one-line
    ``message`` the ``porter`` command line prints (file, class, object, property)."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.name = STATUS_NAMES.get(code, "other")
        self.message = message


class Cancelled(PorterError):
    """An export stopped by its progress callback; nothing was written."""


def _library_path() -> str:
    explicit = os.environ.get("PORTER_LIB")
    if explicit:
        return explicit
    bundled = os.path.join(os.path.dirname(os.path.abspath(__file__)), "libporter.so")
    if os.path.isfile(bundled):
        return bundled
    raise OSError(
        "libporter.so not found: it is bundled by 'pip install ./bindings/python' after 'make lib', "
        "or set PORTER_LIB to its path"
    )


def _load() -> ctypes.CDLL:
    lib = ctypes.CDLL(_library_path())
    c_char_pp = ctypes.POINTER(ctypes.c_void_p)
    handle_p = ctypes.POINTER(ctypes.c_void_p)
    size_p = ctypes.POINTER(ctypes.c_size_t)
    key_t = ctypes.c_char_p
    signatures = {
        "porter_abi_version": (ctypes.c_uint32, []),
        "porter_version": (ctypes.c_char_p, []),
        "porter_free": (None, [ctypes.c_void_p]),
        "porter_open": (ctypes.c_int, [ctypes.c_char_p, key_t, ctypes.c_size_t, ctypes.c_uint32, handle_p]),
        "porter_close": (ctypes.c_int, [ctypes.c_void_p]),
        "porter_last_error": (ctypes.c_void_p, [ctypes.c_void_p]),
        "porter_error_code": (ctypes.c_int, [ctypes.c_void_p]),
        "porter_schema_json": (ctypes.c_int, [ctypes.c_void_p, c_char_pp, size_p]),
        "porter_class_count": (ctypes.c_int, [ctypes.c_void_p, size_p]),
        "porter_class_name": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_size_t, c_char_pp]),
        "porter_object_count": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_uint64)]),
        "porter_cursor_open": (
            ctypes.c_int,
            [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_uint32, handle_p],
        ),
        "porter_cursor_next": (ctypes.c_int, [ctypes.c_void_p, c_char_pp, size_p]),
        "porter_cursor_next_batch": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_size_t, c_char_pp, size_p, size_p]),
        "porter_cursor_close": (ctypes.c_int, [ctypes.c_void_p]),
        "porter_export": (
            ctypes.c_int,
            [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p, PROGRESS, ctypes.c_void_p],
        ),
        "porter_check_json": (ctypes.c_int, [ctypes.c_char_p, key_t, ctypes.c_size_t, c_char_pp, size_p]),
        "porter_inspect_json": (ctypes.c_int, [ctypes.c_char_p, key_t, ctypes.c_size_t, c_char_pp, size_p]),
    }
    for name, (restype, argtypes) in signatures.items():
        function = getattr(lib, name)
        function.restype = restype
        function.argtypes = argtypes
    if lib.porter_abi_version() != ABI_VERSION:
        raise OSError(f"libporter.so has ABI version {lib.porter_abi_version()}; this package needs {ABI_VERSION}")
    return lib


_lib: Optional[ctypes.CDLL] = None


def lib() -> ctypes.CDLL:
    """The loaded library (loaded on first use)."""
    global _lib
    if _lib is None:
        _lib = _load()
    return _lib


def raise_for(status: int, handle: Optional[int] = None) -> None:
    """Raises the library's last error when ``status`` is not 0."""
    if status == 0:
        return
    library = lib()
    pointer = library.porter_last_error(handle)
    message = "unknown error"
    if pointer:
        message = ctypes.string_at(pointer).decode("utf-8", "replace")
        library.porter_free(pointer)
    raise (Cancelled if status == 7 else PorterError)(status, message)


def take_bytes(pointer: ctypes.c_void_p, length: int) -> bytes:
    """The bytes of a returned buffer, which is freed."""
    try:
        return ctypes.string_at(pointer, length)
    finally:
        lib().porter_free(pointer)


def key_bytes(key: "bytes | str | None") -> "tuple[Optional[bytes], int]":
    """A key as given (64 bytes, or 128 hex digits) as pointer data and length."""
    if key is None:
        return None, 0
    if isinstance(key, str):
        try:
            key = bytes.fromhex(key)
        except ValueError as error:
            raise ValueError(f"the key is not hex: {error}") from None
    if len(key) != 64:
        raise ValueError(f"an encryption key is 64 bytes (128 hex digits), got {len(key)} bytes")
    return bytes(key), 64
