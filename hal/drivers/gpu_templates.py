"""Prepared-program templates of the GPU drivers (opencl, cuda): command
buffers recorded anew for every call or loop iteration, prepared once.

Host code that cannot keep its recording (a function with a ``while`` whose
condition is read back, or with host-side loops: docs/hal.md "Dynamic
shapes") records the same commands over and over, on other buffers each
time: the same loop body every iteration, the same call every call.
Preparing a GPU program costs far more than binding one (OpenCL: a
``cl.Kernel`` per dispatch with every argument set; CUDA: the launch
parameter arrays, a graph), so a device keeps the programs it prepared by
the *shape* of their command list -- every command with its buffers
replaced by binding-table slots, numbered by first use -- and a recording
of the same shape is its template bound to this recording's buffers
(``program.bind(table)``), exactly as a recording against slots is.

What a shape holds: each dispatch's executable (the object: a template
keeps it alive, so its identity cannot be reused), entry point, grid, push
constants and per binding (slot, offset, length); each fill's and copy's
slots, offsets, lengths and pattern.  Barriers are left out (both GPU
drivers run one in-order queue).  A recording with ``update`` commands
(host data inside the command) or binding-table slots of its own is
prepared as it is.
"""
from __future__ import annotations

import threading

from ..command_buffer import Barrier, Copy, Dispatch, Execute, Fill, is_slot

#: Shapes each device keeps (least recently made go first): a model has a
#: few recordings per function and loop, not hundreds.
MAX_TEMPLATES = 64


def slot_form(commands):
    """``(shape, table)`` of a recording without slots, or None when it has
    commands a template does not cover (see module doc).  The shape is a
    tuple of rows ``(command class, its fields with slots for buffers)``;
    ``slot_commands(shape)`` turns it back into commands."""
    slots, table, shape = {}, [], []

    def slot_of(buf):
        s = slots.get(id(buf))
        if s is None:
            if buf.__class__ is int:
                return None
            s = slots[id(buf)] = len(table)
            table.append(buf)
        return s
    for cmd in commands:
        cls = cmd.__class__
        if cls is Dispatch:
            binds = []
            for buf, off, n in cmd.bindings:
                s = slot_of(buf)
                if s is None:
                    return None
                binds.append((s, off, n))
            shape.append((Dispatch, cmd.executable, cmd.entry, cmd.workgroups, cmd.constants,
                          tuple(binds)))
        elif cls is Barrier:
            continue
        elif cls is Execute:          # a replayed loop body: one row, its table as slots
            outer = []
            for buf in cmd.table:
                outer.append(slot_of(buf))
                if outer[-1] is None:
                    return None
            shape.append((Execute, cmd.commands, tuple(outer)))
        elif cls is Fill or cls is Copy:
            row = [cls, *cmd]
            for k in ((1,) if cls is Fill else (1, 3)):
                row[k] = slot_of(row[k])
                if row[k] is None:
                    return None
            shape.append(tuple(row))
        else:
            return None
    return tuple(shape), table


def slot_commands(shape) -> list:
    """The commands of a shape, their buffers as binding-table slots."""
    out = []
    for row in shape:
        if row[0] is Execute:
            out += _nested(row[1], row[2])
        else:
            out.append(row[0](*row[1:]))
    return out


def _nested(cb, table) -> list:
    """``cb``'s commands with its slots replaced by ``table``'s entries
    (buffers, or the outer recording's slots)."""
    def at(b):
        return table[b] if is_slot(b) else b
    out = []
    for c in cb.commands:
        cls = c.__class__
        if cls is Dispatch:
            c = c._replace(bindings=tuple((at(b), o, n) for b, o, n in c.bindings))
        elif cls is Fill:
            c = c._replace(buffer=at(c.buffer))
        elif cls is Copy:
            c = c._replace(src=at(c.src), dst=at(c.dst))
        out.append(c)
    return out


def expand(commands) -> list:
    """``commands`` with every Execute replaced by its nested commands."""
    if not any(c.__class__ is Execute for c in commands):
        return commands
    out = []
    for c in commands:
        if c.__class__ is Execute:
            out += _nested(c.commands, c.table)
        else:
            out.append(c)
    return out


class TemplateCache:
    """One device's templates by shape, and how often programs were
    prepared and templates reused (counters for ``device.stats()``)."""

    def __init__(self, prepare, limit: int = MAX_TEMPLATES):
        self._prepare = prepare      # commands (slots allowed) -> a program with bind(table)
        self._limit = limit
        self._programs = {}
        self._lock = threading.Lock()
        self.prepared = 0            # programs prepared (templates and others)
        self.built = 0               # of which templates
        self.reused = 0              # recordings bound to an existing template

    def program(self, commands):
        """The device's program for recorded ``commands``: a recording with
        its own slots (or updates) prepared as it is; any other, its
        shape's template bound to its buffers."""
        form = slot_form(commands)
        if form is None:
            return self._prepared(expand(commands))
        shape, table = form
        with self._lock:
            template = self._programs.pop(shape, None)
            if template is not None:
                self._programs[shape] = template        # most recently used goes last
                self.reused += 1
        if template is None:
            template = self._prepared(slot_commands(shape))
            with self._lock:
                if shape not in self._programs:
                    self._programs[shape] = template
                    self.built += 1
                    while len(self._programs) > self._limit:
                        self._programs.pop(next(iter(self._programs)))
        return template.bind(table, keep=True)

    def _prepared(self, commands):
        program = self._prepare(commands)
        with self._lock:
            self.prepared += 1
        return program

    def counts(self) -> dict:
        return {"programs_prepared": self.prepared, "templates_built": self.built,
                "templates_reused": self.reused}

    def clear(self) -> None:
        with self._lock:
            self._programs.clear()
