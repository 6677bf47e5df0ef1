"""Ref-typed VM values built into the interpreter: lists and byte buffers.

Lists are untyped (any bank's values, ``None`` for null); a typed ``get``
checks the element.  Byte buffers are ``bytearray`` (``buffer.alloc``) or
read-only ``memoryview`` (``const.ref.rodata``, zero-copy into the file).
Every misuse raises ``VmTrap`` (the interpreter adds the location).
"""
from __future__ import annotations

import struct

from ..errors import VmTrap
from .numeric import f32, wrap32, wrap64

MAX_LIST_SIZE = 1 << 26      # elements; a larger list.resize traps
MAX_BUFFER_SIZE = 1 << 30    # bytes; a larger buffer.alloc traps (device memory is the HAL's)


class VmList(list):
    """A VM list (a plain list subclass, so native modules can use it as one)."""
    __slots__ = ()


def _as_list(v) -> list:
    if isinstance(v, list):
        return v
    raise VmTrap("null list" if v is None else f"expected a list, got {type(v).__name__}")


def list_alloc(capacity: int) -> VmList:
    if capacity < 0:
        raise VmTrap(f"list.alloc with negative capacity {capacity}")
    return VmList()


def list_size(v) -> int:
    return len(_as_list(v))


def list_resize(v, size: int) -> None:
    lst = _as_list(v)
    if size < 0 or size > MAX_LIST_SIZE:
        raise VmTrap(f"list.resize to {size} (allowed 0..{MAX_LIST_SIZE})")
    n = len(lst)
    if size > n:
        lst.extend([None] * (size - n))
    else:
        del lst[size:]


def _element(v, index: int):
    lst = _as_list(v)
    if index < 0 or index >= len(lst):
        raise VmTrap(f"list index {index} out of range for a list of size {len(lst)}")
    return lst[index]


def _int_element(x, wrap, bank):
    if x is None:
        return 0
    if type(x) is int:
        return wrap(x)
    raise VmTrap(f"list element is {type(x).__name__}, not {bank}")


def _float_element(x, bank):
    if x is None:
        return 0.0
    if type(x) is float:
        return x
    raise VmTrap(f"list element is {type(x).__name__}, not {bank}")


def list_get_i32(v, i):
    return _int_element(_element(v, i), wrap32, "i32")


def list_get_i64(v, i):
    return _int_element(_element(v, i), wrap64, "i64")


def list_get_f32(v, i):
    return f32(_float_element(_element(v, i), "f32"))


def list_get_f64(v, i):
    return _float_element(_element(v, i), "f64")


def list_get_ref(v, i):
    x = _element(v, i)
    if type(x) in (int, float):
        raise VmTrap(f"list element is a {type(x).__name__} value, not a ref")
    return x


def list_set(v, index: int, value) -> None:
    lst = _as_list(v)
    if index < 0 or index >= len(lst):
        raise VmTrap(f"list index {index} out of range for a list of size {len(lst)}")
    lst[index] = value


# -- byte buffers ------------------------------------------------------------------

_BUFFER_TYPES = (bytearray, memoryview, bytes)


def _as_buffer(v):
    if type(v) in _BUFFER_TYPES:
        return v
    raise VmTrap("null buffer" if v is None else f"expected a byte buffer, got {type(v).__name__}")


def buffer_alloc(length: int) -> bytearray:
    if length < 0 or length > MAX_BUFFER_SIZE:
        raise VmTrap(f"buffer.alloc of {length} bytes (allowed 0..{MAX_BUFFER_SIZE})")
    try:
        return bytearray(length)
    except (MemoryError, OverflowError):
        raise VmTrap(f"buffer.alloc of {length} bytes: out of memory") from None


def buffer_length(v) -> int:
    b = _as_buffer(v)
    return b.nbytes if type(b) is memoryview else len(b)


def _check(b, offset: int, size: int, what: str):
    n = b.nbytes if type(b) is memoryview else len(b)
    if offset < 0 or offset + size > n:
        raise VmTrap(f"{what} of {size} bytes at offset {offset} is out of bounds "
                     f"of a buffer of {n} bytes")


def _loader(fmt, size, post=None):
    unpack = struct.Struct(fmt).unpack_from

    def load(v, offset):
        b = _as_buffer(v)
        _check(b, offset, size, "buffer.load")
        return unpack(b, offset)[0]
    return load


def _storer(fmt, size):
    pack = struct.Struct(fmt).pack_into

    def store(v, offset, value):
        b = _as_buffer(v)
        if type(b) is not bytearray and (type(b) is bytes or b.readonly):
            raise VmTrap("buffer.store into a read-only buffer")
        _check(b, offset, size, "buffer.store")
        pack(b, offset, value)
    return store


buffer_load_i32 = _loader("<i", 4)
buffer_load_i64 = _loader("<q", 8)
buffer_load_f32 = _loader("<f", 4)
buffer_load_f64 = _loader("<d", 8)
buffer_store_i32 = _storer("<i", 4)
buffer_store_i64 = _storer("<q", 8)
buffer_store_f32 = _storer("<f", 4)
buffer_store_f64 = _storer("<d", 8)
