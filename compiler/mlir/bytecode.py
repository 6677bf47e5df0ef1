"""MLIR bytecode (``ML\\xefR``) read natively: the container and the builtin dialect.

The format (MLIR's docs/BytecodeFormat.md): a magic, a varint version, a
producer string, then sections -- strings, dialects and op names, attribute
and type entries (an offset table and their encodings), the IR (ops, regions,
blocks, value numbers), resources, and (version 5 on) op properties.  This
module reads that structure into a small tree (``Op``, ``Region``) whose
attributes and types are decoded on demand by per-dialect hooks: the builtin
dialect's here, VHLO's in ``vhlo.py``.  Dense element data is never copied:
``Blob`` holds a read-only ``memoryview`` of the input (an mmap of the file),
which becomes a numpy view when the module is parsed (vhlo.py).

Anything the reader does not know -- a section, a dialect without a hook, an
attribute or type code, a bytecode version -- raises ``BytecodeError`` naming
it; truncated or inconsistent data does too (never an IndexError).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import CompileError
from ..ir.types import MAX_INTEGER_WIDTH

MAGIC = b"ML\xefR"
#: Bytecode versions read here (6: properties hold ODS segment sizes natively).
MAX_VERSION = 6
_PROPERTIES_VERSION = 5            # op names carry "was registered"; properties section
_ELIDED_ARG_LOC_VERSION = 4        # block arguments: (type << 1) | has location
_USE_LIST_VERSION = 3              # use-list orders (read and dropped: order only)
_LAZY_VERSION = 2                  # isolated regions are nested IR sections
_DIALECT_VERSION_VERSION = 1       # dialect entries carry an optional version

_STRING, _DIALECT, _ATTR_TYPE, _ATTR_TYPE_OFFSET, _IR, _RESOURCE, _RESOURCE_OFFSET, \
    _DIALECT_VERSIONS, _PROPERTIES = range(9)
_HAS_ATTRS, _HAS_RESULTS, _HAS_OPERANDS, _HAS_SUCCESSORS, _HAS_REGIONS, _HAS_USE_LISTS, \
    _HAS_PROPERTIES = (1 << i for i in range(7))
MAX_NESTING = 200


class BytecodeError(CompileError):
    """Malformed MLIR bytecode, or an encoding this reader does not handle
    (``unsupported`` set: a well-formed input another reader may take)."""

    def __init__(self, message: str, filename: str = "<input>", unsupported: bool = False):
        super().__init__(f"{filename}: MLIR bytecode: {message}")
        self.unsupported = unsupported


class Malformed(Exception):
    """Internal: a read past the end of a section (becomes BytecodeError)."""


class Cursor:
    """A position in a ``memoryview`` of the input, with the format's primitives."""
    __slots__ = ("buf", "pos", "end")

    def __init__(self, buf: memoryview, pos: int = 0, end: int | None = None):
        self.buf, self.pos, self.end = buf, pos, len(buf) if end is None else end

    def at_end(self) -> bool:
        return self.pos >= self.end

    def byte(self) -> int:
        if self.pos >= self.end:
            raise Malformed("unexpected end of data")
        b = self.buf[self.pos]
        self.pos += 1
        return b

    def take(self, n: int) -> memoryview:
        if n < 0 or self.pos + n > self.end:
            raise Malformed(f"a {n}-byte field runs past the end of its section")
        v = self.buf[self.pos:self.pos + n]
        self.pos += n
        return v

    def varint(self) -> int:
        """PrefixVarInt: trailing zero bits of the first byte = extra bytes."""
        first = self.byte()
        if first & 1:
            return first >> 1
        if first == 0:
            return int.from_bytes(self.take(8), "little")
        extra = (first & -first).bit_length() - 1
        rest = int.from_bytes(self.take(extra), "little")
        return ((rest << 8) | first) >> (extra + 1)

    def svarint(self) -> int:
        v = self.varint()
        return (v >> 1) ^ -(v & 1)          # zigzag

    def varint_flag(self) -> tuple:
        v = self.varint()
        return v >> 1, bool(v & 1)

    def cstring(self) -> str:
        """A NUL-terminated string (searched a window at a time: the buffer
        may be a whole model, which is not copied to find one byte)."""
        start = end = self.pos
        while True:
            window = bytes(self.buf[end:min(end + 256, self.end)])
            if not window:
                raise Malformed("unterminated string")
            nul = window.find(b"\0")
            if nul >= 0:
                end += nul
                break
            end += len(window)
        self.pos = end + 1
        return bytes(self.buf[start:end]).decode("utf-8", "replace")

    def align(self, alignment: int) -> None:
        if alignment <= 0 or alignment & (alignment - 1):
            raise Malformed(f"alignment {alignment} is not a power of 2")
        while self.pos % alignment:
            if self.byte() != 0xCB:
                raise Malformed("alignment padding is not 0xCB")

    def section(self) -> tuple:
        """(id, Cursor over its data) of the section starting here."""
        head = self.byte()
        length = self.varint()
        if head & 0x80:
            self.align(self.varint())
        start = self.pos
        self.take(length)
        return head & 0x7F, Cursor(self.buf, start, start + length)


# -- decoded attributes and types (what the dialect hooks return) --

@dataclass(frozen=True)
class Attr:
    """An attribute: ``kind`` names it (``builtin.integer``, ``vhlo.tensor_v1``),
    ``args`` its decoded fields (other Attrs, types, ints, strings, Blobs)."""
    kind: str
    args: tuple = ()


@dataclass(frozen=True)
class Type:
    """A type: ``kind`` (``f32``, ``tensor``, ``function``, ``tuple``, ...)
    and its fields (a tensor's shape and element type, a function's inputs and
    results)."""
    kind: str
    args: tuple = ()


@dataclass(frozen=True, eq=False)
class Blob:
    """Raw bytes of the input (a ``memoryview``; nothing copied)."""
    data: memoryview


@dataclass(frozen=True)
class Asm:
    """An attribute or type written in its textual form (the assembly fallback)."""
    text: str


@dataclass(eq=False)
class Region:
    blocks: list = field(default_factory=list)     # [Block]


@dataclass(eq=False)
class Block:
    args: list = field(default_factory=list)       # [(value id, Type)]
    ops: list = field(default_factory=list)        # [Op]


@dataclass(eq=False)
class Op:
    """One operation: its name, discardable attributes (an ``Attr`` dict or
    None), properties (a list of Attrs in the op's own order, or None),
    operand and result value ids, result types and regions."""
    name: str
    attrs: object
    properties: object
    operands: list
    results: list                 # [(value id, Type)]
    regions: list


class DialectReader:
    """What a dialect hook reads with: the primitives plus table references."""
    __slots__ = ("cur", "file")

    def __init__(self, cur: Cursor, file: "BytecodeFile"):
        self.cur, self.file = cur, file

    def varint(self):
        return self.cur.varint()

    def svarint(self):
        return self.cur.svarint()

    def svarints(self) -> list:
        return [self.cur.svarint() for _ in range(self.cur.varint())]

    def attribute(self):
        return self.file.attribute(self.cur.varint())

    def optional_attribute(self):
        idx, present = self.cur.varint_flag()
        return self.file.attribute(idx) if present else None

    def attributes(self) -> list:
        return [self.attribute() for _ in range(self.cur.varint())]

    def type(self):
        return self.file.type(self.cur.varint())

    def types(self) -> list:
        return [self.type() for _ in range(self.cur.varint())]

    def string(self) -> str:
        return self.file.string(self.cur.varint())

    def blob(self) -> Blob:
        return Blob(self.cur.take(self.cur.varint()))

    def apint(self, width: int) -> int:
        """An integer of ``width`` bits (as its unsigned bit pattern)."""
        if width <= 8:
            v = self.cur.byte()
        elif width <= 64:
            v = self.cur.svarint()
        else:
            words = [self.cur.svarint() for _ in range(self.cur.varint())]
            v = sum((w & (2**64 - 1)) << (64 * i) for i, w in enumerate(words))
        return v & ((1 << width) - 1)

    def typed_number(self, width_of) -> tuple:
        """(type, bit pattern) of an integer or float attribute: its type, then
        the value in that type's width (``width_of``: int_width/float_width)."""
        t = self.type()
        return t, self.apint(width_of(t))

    def fail(self, what: str, unsupported: bool = True):
        raise self.file.error(what, unsupported)


# -- the builtin dialect (BuiltinDialectBytecode.td's codes, in order) --

_FLOAT_WIDTH = {"bf16": 16, "f16": 16, "f32": 32, "f64": 64, "f80": 80, "f128": 128,
                "tf32": 19}


def float_width(t) -> int:
    """Bit width of a float type's encoding (its APFloat semantics)."""
    if isinstance(t, Type) and t.kind in _FLOAT_WIDTH:
        return _FLOAT_WIDTH[t.kind]
    if isinstance(t, Type) and t.kind.startswith("f8"):
        return 8
    if isinstance(t, Type) and t.kind.startswith("f6"):
        return 6
    if isinstance(t, Type) and t.kind.startswith("f4"):
        return 4
    raise Malformed(f"a float attribute of type {t}")


def int_width(t) -> int:
    """Bit width of an integer type (index: 64)."""
    if isinstance(t, Type) and t.kind == "index":
        return 64
    if not (isinstance(t, Type) and t.kind[:1] in "iu" and t.args):
        raise Malformed(f"an integer attribute of type {t}")
    return t.args[0]


class BuiltinHooks:
    """Decoders of the builtin dialect's attributes and types."""
    name = "builtin"

    def read_attribute(self, r: DialectReader):
        code = r.varint()
        if code == 0:
            return Attr("builtin.array", tuple(r.attributes()))
        if code == 1:
            return Attr("builtin.dict", tuple((r.attribute(), r.attribute())
                                              for _ in range(r.varint())))
        if code in (2, 3):                # string (with a type: the type is dropped)
            s = r.string()
            if code == 3:
                r.type()
            return Attr("builtin.string", (s,))
        if code in (4, 5):
            root = r.attribute()
            nested = tuple(r.attributes()) if code == 5 else ()
            return Attr("builtin.symbol", (root, nested))
        if code == 6:
            return Attr("builtin.type", (r.type(),))
        if code == 7:
            return Attr("builtin.unit")
        if code == 8:
            return Attr("builtin.integer", r.typed_number(int_width))
        if code == 9:
            return Attr("builtin.float", r.typed_number(float_width))
        if 10 <= code <= 15:              # locations: read so the entry is consumed
            return _read_location(r, code)
        if code == 17:
            t = r.type()
            return Attr("builtin.dense_array", (t, r.varint(), r.blob()))
        if code == 18:
            return Attr("builtin.dense", (r.type(), r.blob()))
        names = {16: "dense_resource", 19: "dense string elements", 20: "sparse elements",
                 21: "distinct"}
        r.fail(f"builtin attribute kind {names.get(code, code)} is not supported")

    def read_type(self, r: DialectReader):
        code = r.varint()
        if code == 0:
            ws = r.varint()
            width, signedness = ws >> 2, ws & 3
            prefix = ("i", "si", "ui")[signedness] if signedness < 3 else None
            if prefix is None:
                r.fail(f"integer signedness {signedness}", unsupported=False)
            if not 0 < width <= MAX_INTEGER_WIDTH:
                r.fail(f"integer width {width} (MLIR allows 1 to {MAX_INTEGER_WIDTH})",
                       unsupported=False)
            return Type(prefix + str(width), (width,))
        simple = {1: "index", 3: "bf16", 4: "f16", 5: "f32", 6: "f64", 7: "f80", 8: "f128",
                  12: "none"}
        if code in simple:
            return Type(simple[code])
        if code in _BUILTIN_COMPOSITES:
            return composite_type(r, _BUILTIN_COMPOSITES[code])
        r.fail(f"builtin type code {code} (memref, vector or a newer float) is not supported")


_BUILTIN_COMPOSITES = {2: "function", 9: "complex", 13: "tensor", 14: "encoded tensor",
                       15: "tuple", 18: "unranked tensor"}


def composite_type(r: DialectReader, form: str) -> Type:
    """A type built of other types, encoded alike by builtin and VHLO."""
    if form == "function":
        return Type("function", (tuple(r.types()), tuple(r.types())))
    if form == "complex":
        return Type("complex", (r.type(),))
    if form == "tuple":
        return Type("tuple", tuple(r.types()))
    if form == "unranked tensor":
        return Type("tensor", (None, r.type(), None))
    enc = r.attribute() if form == "encoded tensor" else None
    shape = tuple(r.svarints())
    return Type("tensor", (shape, r.type(), enc))


def _read_location(r: DialectReader, code: int) -> Attr:
    if code == 10:
        r.attribute(), r.attribute()
    elif code == 11:
        r.attribute()
        for _ in range(2):
            r.varint()
    elif code in (12, 13):
        r.attributes()
        if code == 13:
            r.attribute()
    elif code == 14:
        r.attribute(), r.attribute()
    return Attr("builtin.location")


class BytecodeFile:
    """A parsed MLIR bytecode buffer: tables, lazily decoded attributes and
    types, and the IR tree (``self.top``: the top-level ops)."""

    def __init__(self, data, filename: str = "<input>", hooks=()):
        self.filename = filename
        self.buf = memoryview(data).cast("B") if not isinstance(data, memoryview) else data
        self.hooks = {h.name: h for h in (BuiltinHooks(), *hooks)}
        try:
            self._read()
        except Malformed as e:
            raise self.error(str(e), False) from None
        except RecursionError:
            raise self.error("attributes nested too deeply", False) from None
        except (IndexError, ValueError, AttributeError, TypeError, OverflowError) as e:
            raise self.error(f"inconsistent data ({type(e).__name__}: {e})", False) from None

    def error(self, message: str, unsupported: bool) -> BytecodeError:
        return BytecodeError(message, self.filename, unsupported)

    # -- container --
    def _read(self):
        cur = Cursor(self.buf)
        if bytes(cur.take(4)) != MAGIC:
            raise self.error("not MLIR bytecode (no ML\\xefR magic)", False)
        self.version = cur.varint()
        if self.version > MAX_VERSION:
            raise self.error(f"bytecode version {self.version} is newer than the {MAX_VERSION} "
                             "this reader knows", True)
        self.producer = cur.cstring()
        sections = {}
        while not cur.at_end():
            sid, sec = cur.section()
            if sid > _PROPERTIES or sid in sections:
                raise self.error(f"{'duplicate' if sid in sections else 'unknown'} section "
                                 f"id {sid}", False)
            sections[sid] = sec
        for sid in (_STRING, _DIALECT, _ATTR_TYPE, _ATTR_TYPE_OFFSET, _IR):
            if sid not in sections:
                raise self.error(f"section {sid} is missing", False)
        self._strings(sections[_STRING])
        self.properties = self._properties(sections.get(_PROPERTIES))
        self._dialects(sections[_DIALECT])
        if _RESOURCE in sections or _RESOURCE_OFFSET in sections:
            self._resources(sections.get(_RESOURCE_OFFSET))
        self._attr_types(sections[_ATTR_TYPE], sections[_ATTR_TYPE_OFFSET])
        self.next_value = 0
        self.top = self._ir(sections[_IR])

    def _strings(self, cur: Cursor):
        n = cur.varint()
        if n > cur.end - cur.pos:
            raise Malformed(f"{n} strings in a {cur.end - cur.pos}-byte section")
        lengths = [cur.varint() for _ in range(n)][::-1]
        self.strings = []
        for ln in lengths:
            self.strings.append(bytes(cur.take(ln)).decode("utf-8", "replace").rstrip("\0"))

    def string(self, i: int) -> str:
        return _at(self.strings, i, "string")

    def _properties(self, cur):
        if cur is None:
            return []
        out = []
        for _ in range(cur.varint()):
            out.append(cur.take(cur.varint()))
        return out

    def _dialects(self, cur: Cursor):
        self.dialects = []
        for _ in range(cur.varint()):
            if self.version < _DIALECT_VERSION_VERSION:
                self.dialects.append(self.string(cur.varint()))
                continue
            idx, versioned = cur.varint_flag()
            if versioned:
                sid, _ = cur.section()
                if sid != _DIALECT_VERSIONS:
                    raise Malformed("expected a dialect version section")
            self.dialects.append(self.string(idx))
        if self.version >= _ELIDED_ARG_LOC_VERSION:
            cur.varint()                            # the op name count (a hint)
        self.op_names = []
        while not cur.at_end():
            dialect = _at(self.dialects, cur.varint(), "dialect")
            for _ in range(cur.varint()):
                if self.version >= _PROPERTIES_VERSION:
                    idx, registered = cur.varint_flag()
                else:
                    idx, registered = cur.varint(), None
                self.op_names.append((f"{dialect}.{self.string(idx)}", registered))

    def _resources(self, cur):
        if cur is None:
            raise Malformed("resource section without its offset section")
        if cur.varint() or not cur.at_end():
            raise self.error("resources (dense_resource blobs) in bytecode are not supported",
                             True)

    def _attr_types(self, data: Cursor, offsets: Cursor):
        n_attrs, n_types = offsets.varint(), offsets.varint()
        if n_attrs + n_types > offsets.end - offsets.pos:     # a byte or more each
            raise Malformed(f"{n_attrs} attributes and {n_types} types in a "
                             f"{offsets.end - offsets.pos}-byte offset table")
        entries, pos = [], data.pos
        for count in (n_attrs, n_types):
            group = []
            while len(group) < count:
                dialect = _at(self.dialects, offsets.varint(), "dialect")
                for _ in range(offsets.varint()):
                    size, custom = offsets.varint_flag()
                    if pos + size > data.end:
                        raise Malformed("an attribute/type entry runs past its section")
                    group.append((dialect, pos, size, custom))
                    pos += size
            if len(group) != count:
                raise Malformed(f"{len(group)} entries where the offset table declares {count}")
            entries.append(group)
        self._attr_entries, self._type_entries = entries
        self._attrs = [None] * n_attrs
        self._types = [None] * n_types

    def attribute(self, i: int):
        return self._entry(i, self._attr_entries, self._attrs, "attribute")

    def type(self, i: int):
        return self._entry(i, self._type_entries, self._types, "type")

    def _entry(self, i, entries, cache, what):
        if i >= len(entries):
            raise Malformed(f"{what} index {i} out of range")
        got = cache[i]
        if got is None:
            dialect, pos, size, custom = entries[i]
            cur = Cursor(self.buf, pos, pos + size)
            if not custom:
                got = Asm(cur.cstring())
            else:
                hook = self.hooks.get(dialect)
                if hook is None:
                    raise self.error(f"no decoder for the {what}s of dialect '{dialect}'", True)
                r = DialectReader(cur, self)
                got = hook.read_attribute(r) if what == "attribute" else hook.read_type(r)
            cache[i] = got
        return got

    # -- IR --
    def _ir(self, cur: Cursor) -> list:
        self.scopes = [_Scope()]
        self.scopes[-1].push(0)
        block = Block()
        self._block_header(cur, block)
        return self._block_ops(cur, block, 0)

    def _block_header(self, cur: Cursor, block: Block) -> int:
        n_ops, has_args = cur.varint_flag()
        block.n_ops = n_ops
        if has_args:
            for _ in range(cur.varint()):
                if self.version >= _ELIDED_ARG_LOC_VERSION:
                    t, has_loc = cur.varint_flag()
                    ty = self.type(t)
                    if has_loc:
                        cur.varint()
                else:
                    ty = self.type(cur.varint())
                    cur.varint()
                block.args.append((self._define(), ty))
            if self.version >= _USE_LIST_VERSION and cur.byte():
                self._use_lists(cur, len(block.args))
        return n_ops

    def _block_ops(self, cur: Cursor, block: Block, depth: int) -> list:
        for _ in range(block.n_ops):
            block.ops.append(self._op(cur, depth))
        return block.ops

    def _define(self) -> int:
        """A fresh value id, in the next slot its region reserved."""
        vid = self.next_value
        self.next_value += 1
        scope = self.scopes[-1]
        slot = scope.next[-1]
        if slot >= len(scope.values):
            raise Malformed("a region defines more values than it declared")
        scope.values[slot] = vid
        scope.next[-1] = slot + 1
        return vid

    def _operand(self, cur: Cursor) -> int:
        idx = cur.varint()
        values = self.scopes[-1].values
        vid = values[idx] if idx < len(values) else None
        if vid is None:
            raise self.error(f"operand refers to value #{idx}, which is not defined before its "
                             "use (forward references are not supported)", False)
        return vid

    def _use_lists(self, cur: Cursor, n_values: int):
        count = cur.varint() if n_values > 1 else 1
        for _ in range(count):
            if n_values > 1:
                cur.varint()
            n, _ = cur.varint_flag()
            for _ in range(n):
                cur.varint()

    def _op(self, cur: Cursor, depth: int) -> Op:
        if depth > MAX_NESTING:
            raise self.error(f"regions nested deeper than {MAX_NESTING}", False)
        idx = cur.varint()
        if idx >= len(self.op_names):
            raise Malformed(f"op name index {idx} out of range")
        name, registered = self.op_names[idx]
        mask = cur.byte()
        cur.varint()                                   # location (not kept)
        attrs = self.attribute(cur.varint()) if mask & _HAS_ATTRS else None
        props = None
        if mask & _HAS_PROPERTIES:
            if registered is None:
                raise Malformed("properties without the op's registration flag")
            if registered:
                pidx = cur.varint()
                if pidx >= len(self.properties):
                    raise Malformed(f"properties index {pidx} out of range")
                props = Cursor(self.properties[pidx])
            else:
                props = self.attribute(cur.varint())
        types = [self.type(cur.varint()) for _ in range(cur.varint())] \
            if mask & _HAS_RESULTS else []
        operands = [self._operand(cur) for _ in range(cur.varint())] \
            if mask & _HAS_OPERANDS else []
        if mask & _HAS_SUCCESSORS:
            raise self.error(f"'{name}' has block successors, which are not supported", True)
        if mask & _HAS_USE_LISTS and self.version >= _USE_LIST_VERSION:
            self._use_lists(cur, len(types))
        n_regions, isolated = cur.varint_flag() if mask & _HAS_REGIONS else (0, False)
        op = Op(name, attrs, props, operands, [], [])
        op.results = [(self._define(), t) for t in types]
        if n_regions:
            rcur = cur
            if isolated and self.version >= _LAZY_VERSION:
                sid, rcur = cur.section()
                if sid != _IR:
                    raise Malformed("an isolated region is not an IR section")
            if isolated:
                self.scopes.append(_Scope())
            for _ in range(n_regions):
                op.regions.append(self._region(rcur, depth + 1))
            if isolated:
                self.scopes.pop()
        return op

    def _region(self, cur: Cursor, depth: int) -> Region:
        region = Region()
        n_blocks = cur.varint()
        if not n_blocks:
            return region
        n_values = cur.varint()
        if n_values > cur.end - cur.pos:               # each value needs a byte or more
            raise Malformed(f"a region declares {n_values} values")
        scope = self.scopes[-1]
        scope.push(n_values)
        for i in range(n_blocks):
            block = Block()
            self._block_header(cur, block)
            self._block_ops(cur, block, depth)
            region.blocks.append(block)
        scope.pop(n_values)
        return region


def _at(table: list, i: int, what: str):
    if i >= len(table):
        raise Malformed(f"{what} index {i} out of range")
    return table[i]


class _Scope:
    """Value slots of one isolated-from-above scope: each region being read
    reserves its declared count after those of its parents."""
    __slots__ = ("values", "next")

    def __init__(self):
        self.values, self.next = [], []

    def push(self, n: int):
        self.next.append(len(self.values))
        self.values.extend([None] * n)

    def pop(self, n: int):
        del self.values[len(self.values) - n:]
        self.next.pop()
