"""Executables: device code loaded from one variant of a module's executable.

An executable has a name (for error messages), the format it was loaded from
and an ordered list of entry point names; commands refer to entry points by
ordinal (position).  Loaders subclass it with the device-specific handles.

Each entry point may declare its layout (how many buffer bindings and 32-bit
push constants it reads, from the module's reflection).  Native code trusts
those counts, so every dispatch is checked against them when it is recorded
(``check_dispatch``): a mismatch is a ``HalError``, never a kernel reading
past its binding or constant array.
"""
from __future__ import annotations

from typing import NamedTuple

from .errors import HalError


class EntryLayout(NamedTuple):
    """What an entry point reads: ``bindings`` buffers, ``constants`` push
    constants; ``workgroups``: the most workgroups its code handles (None:
    any, e.g. grids computed from dynamic shapes)."""
    bindings: int
    constants: int
    workgroups: int | None = None
    binding_bytes: tuple | None = None   # per binding: least bytes it needs (0: any)
    # per binding: None or (bytes of the static part, dims as DimPrograms):
    # dynamic shapes whose size the HAL computes from each dispatch's push constants
    binding_shapes: tuple | None = None
    # a native loop: its scratch binding starts with a stats record (vmfb/cpu_abi.py)
    loop_stats: bool = False


_DIM_OPS = {
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
    "/": lambda a, b: a // b if b else 0, "%": lambda a, b: a % b if b else 0,
    "max": max, "min": min,
}


class DimProgram:
    """One dynamic dim of a binding: a postfix expression over ints and the
    dispatch's i64 push constants ("$word": words word, word+1, low first),
    checked for arity and word range when the entry point is loaded."""
    __slots__ = ("tokens",)

    def __init__(self, tokens, constants: int, where: str):
        prog, depth = [], 0
        for t in tokens if isinstance(tokens, (list, tuple)) else (None,):
            if type(t) is int:
                prog.append((0, t))
                depth += 1
            elif type(t) is str and t[:1] == "$" and t[1:].isdigit() \
                    and int(t[1:]) + 1 < constants:
                prog.append((1, int(t[1:])))
                depth += 1
            elif type(t) is str and t in _DIM_OPS and depth >= 2:
                prog.append((2, _DIM_OPS[t]))
                depth -= 1
            else:
                raise HalError(f"{where}: token {t!r} of dim {tokens!r} is not an int, "
                               f"an operator with two operands or an i64 push constant "
                               f"$word below word {constants - 1}")
        if depth != 1:
            raise HalError(f"{where}: dim {tokens!r} does not reduce to one value")
        self.tokens = tuple(prog)

    def __eq__(self, other):       # layouts key the device's executable cache
        return isinstance(other, DimProgram) and self.tokens == other.tokens

    def __hash__(self):
        return hash(self.tokens)

    def evaluate(self, constants) -> int:
        stack = []
        for kind, v in self.tokens:
            if kind == 0:
                stack.append(v)
            elif kind == 1:
                x = constants[v] | (constants[v + 1] << 32)
                stack.append(x - (1 << 64) if x >> 63 else x)
            else:
                b = stack.pop()
                stack.append(v(stack.pop(), b))
        return stack[0]


def _binding_shapes(shapes, bindings: int, constants: int, name) -> tuple:
    where = f"entry point {name!r}: binding_shapes"
    if not isinstance(shapes, (list, tuple)) or len(shapes) != bindings:
        raise HalError(f"{where} must have one entry per binding ({bindings})")
    out = []
    for i, s in enumerate(shapes):
        if s is None:
            out.append(None)
            continue
        if not (isinstance(s, (list, tuple)) and len(s) == 2 and type(s[0]) is int
                and s[0] >= 0 and isinstance(s[1], (list, tuple))):
            raise HalError(f"{where}[{i}] must be [static bytes >= 0, [dims]], got {s!r}")
        out.append((s[0], tuple(DimProgram(d, constants, f"{where}[{i}]") for d in s[1])))
    return tuple(out)


def _byte_counts(need: tuple) -> bool:
    """Every item an int >= 0 (a plain loop: this runs for every binding of
    every entry point of every executable a context loads)."""
    for n in need:
        if n.__class__ is not int or n < 0:
            return False
    return True


def parse_entry_points(entry_points) -> tuple:
    """(names, layouts) from entry points given as names (layout undeclared:
    None), ``(name, bindings, constants[, workgroups])`` tuples, or objects
    with those attributes (``vmfb.model.EntryPoint``)."""
    names, layouts = [], []
    for e in entry_points:
        if isinstance(e, str):
            names.append(e)
            layouts.append(None)
            continue
        if isinstance(e, tuple) and len(e) in (3, 4, 5, 6):
            name, nb, nc, wg, need, shapes = (*e, None, None, None)[:6]
        else:
            name, nb, nc, wg, need, shapes = (
                getattr(e, "name", None), getattr(e, "bindings", None),
                getattr(e, "constants", None), getattr(e, "workgroups", None),
                getattr(e, "binding_bytes", None), getattr(e, "binding_shapes", None))
        if need is not None:
            need = tuple(need)
            if len(need) != nb or not _byte_counts(need):
                raise HalError(f"entry point {name!r}: binding_bytes {list(need)} must be "
                               f"{nb} byte counts >= 0")
        if not isinstance(name, str) or type(nb) is not int or type(nc) is not int \
                or nb < 0 or nc < 0 or not (wg is None or (type(wg) is int and wg >= 0)):
            raise HalError(f"entry point {e!r}: expected a name or (name, bindings >= 0, "
                           f"constants >= 0[, workgroups >= 0 or None])")
        if shapes is not None:
            shapes = _binding_shapes(shapes, nb, nc, name)
        names.append(name)
        layouts.append(EntryLayout(nb, nc, wg, need, shapes,
                                   bool(getattr(e, "loop_stats", False)) and nb >= 2))
    return names, tuple(layouts)


class Executable:
    """Loaded device code with ordered entry points."""

    def __init__(self, device, name: str, format: str, entry_points):
        self.device = device
        self.name = name
        self.format = format
        self.entry_points = list(entry_points)
        self.layouts = (None,) * len(self.entry_points)   # set by Device.load_executable
        # seconds of the last whole single-thread run per (entry, workgroups):
        # local-task splits a dispatch over workers only when that was long
        self.run_times = {}

    def entry_name(self, ordinal: int) -> str:
        """Name of entry point ``ordinal``; HalError when out of range."""
        if not isinstance(ordinal, int) or not 0 <= ordinal < len(self.entry_points):
            raise HalError(f"executable '{self.name}' has {len(self.entry_points)} entry points; "
                           f"entry ordinal {ordinal!r} is out of range")
        return self.entry_points[ordinal]

    def check_dispatch(self, ordinal: int, bindings: int, constants: int,
                       workgroups: int = 0) -> None:
        """HalError unless a dispatch of entry ``ordinal`` with that many
        bindings, push constants and workgroups fits the entry's declared layout."""
        layout = self.layouts[ordinal]
        if layout is None:
            return
        if layout.workgroups is not None and workgroups > layout.workgroups:
            raise HalError(f"dispatch of executable '{self.name}' entry point "
                           f"'{self.entry_points[ordinal]}': {workgroups} workgroups, it "
                           f"declares at most {layout.workgroups}")
        if layout.bindings == bindings and layout.constants == constants:
            return
        raise HalError(f"dispatch of executable '{self.name}' entry point "
                       f"'{self.entry_points[ordinal]}': it declares {layout.bindings} "
                       f"bindings and {layout.constants} push constants, the dispatch passes "
                       f"{bindings} bindings and {constants} push constants")

    def check_binding_length(self, ordinal: int, i: int, length: int) -> None:
        """HalError when binding ``i`` of a dispatch of entry ``ordinal`` has
        fewer bytes than the entry declares for it (its code would run past it)."""
        layout = self.layouts[ordinal]
        need = layout.binding_bytes if layout is not None else None
        if need is not None and length < need[i]:
            raise HalError(f"dispatch of executable '{self.name}' entry point "
                           f"'{self.entry_points[ordinal]}': binding {i} has {length} "
                           f"bytes, the entry point uses {need[i]}")

    def check_binding_shapes(self, ordinal: int, constants, lengths) -> None:
        """HalError when a binding of a dispatch of entry ``ordinal`` is
        shorter than its dynamic shape at this dispatch's push constants (the
        entry's ``binding_shapes``): the dims come from the host program, so
        verified bytecode with inconsistent dims and buffers fails here
        instead of a kernel running past its buffer."""
        layout = self.layouts[ordinal]
        shapes = layout.binding_shapes if layout is not None else None
        if shapes is None:
            return
        for i, shape in enumerate(shapes):
            if shape is None:
                continue
            need, dims = shape[0], [d.evaluate(constants) for d in shape[1]]
            for d in dims:
                need *= d
            if min(dims, default=0) < 0 or lengths[i] < need:
                raise HalError(f"dispatch of executable '{self.name}' entry point "
                               f"'{self.entry_points[ordinal]}': binding {i} has {lengths[i]} "
                               f"bytes, shorter than its dynamic shape needs at this "
                               f"dispatch's dims {dims} ({need} bytes)")

    def entry_ordinal(self, name: str) -> int:
        try:
            return self.entry_points.index(name)
        except ValueError:
            raise HalError(f"executable '{self.name}' has no entry point '{name}' "
                           f"(it has {self.entry_points})") from None

    def __repr__(self):
        return f"<Executable {self.name} {self.format} entries={self.entry_points}>"
