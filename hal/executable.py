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
        if isinstance(e, tuple) and len(e) in (3, 4, 5):
            name, nb, nc, wg, need = (*e, None, None)[:5]
        else:
            name, nb, nc, wg, need = (getattr(e, "name", None), getattr(e, "bindings", None),
                                      getattr(e, "constants", None),
                                      getattr(e, "workgroups", None),
                                      getattr(e, "binding_bytes", None))
        if need is not None:
            need = tuple(need)
            if len(need) != nb or any(type(n) is not int or n < 0 for n in need):
                raise HalError(f"entry point {name!r}: binding_bytes {list(need)} must be "
                               f"{nb} byte counts >= 0")
        if not isinstance(name, str) or type(nb) is not int or type(nc) is not int \
                or nb < 0 or nc < 0 or not (wg is None or (type(wg) is int and wg >= 0)):
            raise HalError(f"entry point {e!r}: expected a name or (name, bindings >= 0, "
                           f"constants >= 0[, workgroups >= 0 or None])")
        names.append(name)
        layouts.append(EntryLayout(nb, nc, wg, need))
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

    def entry_ordinal(self, name: str) -> int:
        try:
            return self.entry_points.index(name)
        except ValueError:
            raise HalError(f"executable '{self.name}' has no entry point '{name}' "
                           f"(it has {self.entry_points})") from None

    def __repr__(self):
        return f"<Executable {self.name} {self.format} entries={self.entry_points}>"
