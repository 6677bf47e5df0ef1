"""The in-memory form of a .vmfb module (docs/internals.md section 2).

Plain dataclasses: the compiler and the assembler build them, the container
writer serialises them, the reader returns them with every ``data``/``code``
field as a read-only ``memoryview`` into the file bytes (zero copy).

Calling-convention strings (``"rri*I->r"``) are parsed here as well, because
the assembler, the container reader and the runtime all need the same rules.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

from .errors import VmfbError
from .isa import BANKS, CHAR_BANK


class Deferred:
    """A field value the reader computes on first read: a function's packed
    reflection is decoded and checked only when something asks for it (a
    load must not pay for every argument of every export; MobileNetV2's two
    exports list 528)."""
    __slots__ = ("compute",)

    def __init__(self, compute):
        self.compute = compute          # () -> value; raises VmfbError if damaged


@dataclass
class FunctionDef:
    name: str
    signature: str                 # calling convention, e.g. "rr->r"
    registers: dict                # {"i32": n, "i64": n, "f32": n, "f64": n, "ref": n}
    code: bytes | memoryview = b""
    exported: bool = False
    reflection: dict | None = None  # {"args": [{"name","dtype","shape"}], "results": [...]}

    @property
    def reflection_loaded(self) -> bool:
        """Whether ``reflection`` was given or decoded already (not Deferred)."""
        return self.__dict__["_reflection"].__class__ is not Deferred


def _deferred_field(cls, name: str, doc: str) -> None:
    """Make dataclass field ``name`` of ``cls`` a property that decodes a
    reader's Deferred value on first read (and keeps the result).  Called
    after @dataclass, which has read the field's default: the generated
    __init__ assigns through the property."""
    slot = "_" + name

    def get(self):
        v = self.__dict__[slot]
        if v.__class__ is Deferred:
            v = v.compute()
            self.__dict__[slot] = v
        return v

    def set_(self, value):
        self.__dict__[slot] = value

    setattr(cls, name, property(get, set_, doc=doc))


_deferred_field(FunctionDef, "reflection", "The export's reflection dict (or None); a "
                                           "reader's Deferred is decoded here on first read.")
_deferred_field(FunctionDef, "code", "The function's bytecode; a reader's Deferred checks "
                                     "the section's CRC here on first read.")


@dataclass
class ImportDef:
    module: str                    # "hal"
    name: str                      # "buffer_view.create"
    signature: str                 # "rIIi*I->r"

    @property
    def full_name(self) -> str:
        return f"{self.module}.{self.name}"


INITIALIZER_OPERANDS = ("global", "rodata", "executable")


class Initializer(NamedTuple):
    """A ref global's initial value (1.3): the result of calling import
    ``call`` with ``args``, each ``(kind, index)``: an earlier initialized
    global, a rodata or an executable (kind in INITIALIZER_OPERANDS).  A
    context runs its module's initializers in global order when it registers
    the module, before ``__init``: declared data, not code, so that a load
    decodes, verifies and lowers no function to set up its device state."""
    call: int
    args: tuple = ()


@dataclass
class GlobalDef:
    name: str
    bank: str                      # one of isa.BANKS
    # i32/i64 int, f32/f64 float; ref globals start null or take an Initializer
    initial: int | float | Initializer | None = None


@dataclass
class RodataDef:
    name: str
    data: bytes | memoryview       # or a vmfb.payload Pieces / FileRange to write
    alignment: int = 64
    # (not a field) read with checksums: the section's vmfb.chunks.RangeCheck,
    # which checks byte ranges as they are used (``data`` checks them all)
    check = None


@dataclass
class EntryPoint:
    name: str                      # symbol name inside the executable
    bindings: int                  # number of buffer bindings
    constants: int                 # number of 32-bit push constants
    workgroups: int | None = None  # most workgroups a dispatch may use (static grids)
    binding_bytes: list | None = None   # per binding: bytes the code reads/writes (0: unknown)
    # per binding: None or [bytes of the static part, [dynamic dims, each a postfix
    # token list over i64 push constants "$word"]] (docs/vmfb.md; GPU variants)
    binding_shapes: list | None = None
    # a native loop: its scratch binding starts with a stats record (cpu_abi.LOOP_STATS_*)
    loop_stats: bool = False


_deferred_field(RodataDef, "data", "The constant's bytes; a reader's Deferred checks the "
                                  "section's CRC here on first read.")


@dataclass
class ExecutableVariant:
    format: str                    # "cpu-c-x86_64", "opencl-c", "cuda-ptx"
    target: dict                   # {"triple": ..., "features": [...]}
    entry_points: list             # [EntryPoint]; ordinal = position
    data: bytes | memoryview = b""

    @property
    def entry_points_loaded(self) -> bool:
        """Whether ``entry_points`` was given or decoded already (not Deferred)."""
        return self.__dict__["_entry_points"].__class__ is not Deferred


_deferred_field(ExecutableVariant, "entry_points",
                "The variant's [EntryPoint]; a reader's Deferred (1.2 headers pack them) is "
                "decoded and checked here on first read: at the executable's first load.")
_deferred_field(ExecutableVariant, "data", "The variant's code; a reader's Deferred checks "
                                          "the section's CRC here on first read.")


@dataclass
class ExecutableDef:
    name: str
    variants: list                 # [ExecutableVariant]


@dataclass
class ModuleDef:
    name: str
    version: int = 1
    requirements: dict = field(default_factory=dict)   # {"dtypes": [...], "features": [...]}
    functions: list = field(default_factory=list)
    imports: list = field(default_factory=list)
    globals: list = field(default_factory=list)
    rodata: list = field(default_factory=list)
    executables: list = field(default_factory=list)
    strings: list = field(default_factory=list)

    def function_index(self, name: str) -> int:
        """Ordinal of the function called ``name`` (KeyError if absent)."""
        for i, f in enumerate(self.functions):
            if f.name == name:
                return i
        raise KeyError(name)


class Param(NamedTuple):
    """One position of a calling convention: a bank, possibly a variadic run."""
    bank: str
    variadic: bool = False

    def __str__(self) -> str:
        from .isa import BANK_CHAR
        return ("*" if self.variadic else "") + BANK_CHAR[self.bank]


class Signature(NamedTuple):
    args: tuple      # of Param
    results: tuple   # of Param (never variadic)

    def __str__(self) -> str:
        return "".join(map(str, self.args)) + "->" + "".join(map(str, self.results))


def parse_signature(text: str, allow_variadic: bool = True) -> Signature:
    """Parse a calling-convention string; VmfbError names the defect.

    ``allow_variadic`` is False for bytecode functions: only imports take
    variadic (``*x``) runs, and only among their arguments.
    """
    if not isinstance(text, str):
        raise VmfbError(f"signature must be a string, got {type(text).__name__}")
    return _parse_signature(text, bool(allow_variadic))


_PLAIN_PARAMS = {c: Param(b) for c, b in CHAR_BANK.items()}


@lru_cache(maxsize=4096)
def _parse_signature(text: str, allow_variadic: bool) -> Signature:
    """The parser behind ``parse_signature``, memoised: a module names the same
    few conventions over and over (every import, every load), and Signatures
    are immutable.  Defects raise, and exceptions are never cached."""
    if text.count("->") != 1:
        raise VmfbError(f"signature {text!r} must contain exactly one '->'")
    arg_text, res_text = text.split("->")
    if "*" not in text:              # the common case: one char per parameter
        try:
            return Signature(tuple(map(_PLAIN_PARAMS.__getitem__, arg_text)),
                             tuple(map(_PLAIN_PARAMS.__getitem__, res_text)))
        except KeyError:
            pass                     # the loop below names the bad character

    def parts(s: str, results: bool) -> tuple:
        out, i = [], 0
        while i < len(s):
            variadic = s[i] == "*"
            if variadic:
                if results or not allow_variadic:
                    raise VmfbError(f"signature {text!r}: variadic '*' is not allowed here")
                i += 1
            if i >= len(s) or s[i] not in CHAR_BANK:
                bad = s[i] if i < len(s) else "end of string"
                raise VmfbError(f"signature {text!r}: expected one of 'iIfFr', got {bad!r}")
            out.append(Param(CHAR_BANK[s[i]], variadic))
            i += 1
        return tuple(out)

    return Signature(parts(arg_text, False), parts(res_text, True))


def empty_registers() -> dict:
    """A register-count dict with every bank at zero."""
    return {b: 0 for b in BANKS}
