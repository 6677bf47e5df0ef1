"""The device base class: what every driver's device offers (internals §5).

A device owns an allocator, loads executables (cached per device by content
hash), creates command buffers, semaphores and fences, and runs queue
operations.  Queue operations never block the caller on their wait fence:
they are ordered on the device's queue, start once the wait fence is
signalled, and signal (or fail) the signal fence when done.  A failed wait
fence fails the signal fence with the same error, so failures flow through a
chain of submissions instead of stalling it.

After ``os.fork`` only the forking thread exists in the child, and locks
other threads held at that moment stay held: every live device resets its
locks and threads there (``_after_fork_in_child``), so a device created
before the fork keeps serving in the child.
"""
from __future__ import annotations

import hashlib
import os
import threading
import weakref
import weakref

from .command_buffer import CommandBuffer
from .errors import HalError, NoVariantError
from .executable import parse_entry_points
from .semaphore import Fence, Semaphore


_DIGESTS: dict = {}       # id(view) -> (weakref to the view, its SHA-256)


def content_digest(data) -> bytes:
    """SHA-256 of ``data``, remembered while ``data`` lives when it is a
    read-only view of ``bytes`` (whose contents cannot change): every
    context loading a cached module loads the same executable views."""
    if data.__class__ is memoryview and data.readonly and data.obj.__class__ is bytes:
        hit = _DIGESTS.get(id(data))
        if hit is not None and hit[0]() is data:
            return hit[1]
        digest = hashlib.sha256(data).digest()
        key = id(data)
        _DIGESTS[key] = (weakref.ref(data, lambda _, k=key: _DIGESTS.pop(k, None)), digest)
        return digest
    return hashlib.sha256(data).digest()


class Device:
    """Base device; drivers implement the ``_``-prefixed hooks.

    ``supports_binding_tables``: the driver's ``_prepare_commands`` accepts
    slot bindings and its programs have ``bind(table)``.  Otherwise command
    buffers with slots are resolved and prepared per submission here.
    ``tracer``: a ``hal.trace.Tracer`` (or None) that drivers report to.
    ``inline_queue``: the driver has no queue thread; submissions run on the
    thread that makes them (so an asynchronous caller must submit from
    another thread)."""

    supports_binding_tables = False
    tracer = None
    #: Largest workgroup count per dimension and per dispatch (the CPU ABI's
    #: uint32 range); drivers with tighter grids (CUDA) lower them.
    max_workgroup_count = (0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF)
    max_workgroups_per_dispatch = 0xFFFFFFFF
    inline_queue = False     # True: queue work runs on the submitting thread (no queue thread)
    #: The driver's ``_prepare_commands`` takes ``command_buffer.Execute``
    #: commands (gpu_templates.py); others get the nested commands resolved.
    nests_commands = False

    def __init__(self, name: str, allocator):
        self.name = name
        self.allocator = allocator
        self._exe_cache = {}
        self._exe_lock = threading.Lock()
        self.closed = False
        self.closed_reason = "is closed"     # the error a closed device's users get
        _LIVE.add(self)

    @property
    def max_allocation_bytes(self) -> int:
        """The largest single allocation on this device (its allocator's
        limit; settable, None restores the default)."""
        return self.allocator.max_allocation_bytes

    @max_allocation_bytes.setter
    def max_allocation_bytes(self, value) -> None:
        self.allocator.max_allocation_bytes = value

    # -- executables -----------------------------------------------------
    def supported_formats(self) -> list:
        """Executable formats this device loads, most preferred first."""
        raise NotImplementedError

    def variant_misfit(self, format: str, target: dict) -> str | None:
        """Why a variant of ``format`` built for ``target`` cannot run here
        (None: it can).  CPU devices check the target's required features."""
        formats = self.supported_formats()
        if format not in formats:
            return f"format '{format}' is not one this device loads ({formats})"
        return None

    def select_variant(self, name: str, variants) -> int:
        """Index of the variant of executable ``name`` to load here: of those
        that fit (``variant_misfit``), the most preferred format, then the one
        needing the most CPU features (the most specialised code), then the
        first listed.  ``NoVariantError`` naming each variant's misfit when
        none fits."""
        formats = self.supported_formats()
        best, reasons = None, []
        for i, v in enumerate(variants):
            target = dict(getattr(v, "target", None) or {})
            why = self.variant_misfit(v.format, target)
            reasons.append((v.format, target, why))
            if why is not None:
                continue
            key = (formats.index(v.format), -len(target.get("features", ()) or ()), i)
            if best is None or key < best[0]:
                best = (key, i)
        if best is None:
            other = "".join(f"; {f} {t.get('cpu', '')}".rstrip() + f": {why}"
                            for f, t, why in reasons if f in formats)
            raise NoVariantError(f"executable '{name}' has no variant this device can run: the "
                                 f"module carries {[v.format for v in variants]}, device "
                                 f"'{self.name}' takes {formats}{other}; recompile with a matching "
                                 f"target", executable=name, reasons=reasons)
        return best[1]

    def load_executable(self, name: str, format: str, data, entry_points, target=None):
        """Load (or fetch from this device's cache) an executable variant.

        ``entry_points``: names, or ``(name, bindings, constants)`` /
        ``vmfb.model.EntryPoint``s whose declared layout every dispatch of
        the entry is then checked against (``Executable.check_dispatch``)."""
        formats = self.supported_formats()
        if format not in formats:
            raise HalError(f"device '{self.name}' cannot load executable '{name}' of format "
                           f"'{format}'; it takes {formats}")
        if self.closed:
            raise HalError(f"device '{self.name}' {self.closed_reason}")
        names, layouts = parse_entry_points(entry_points)
        key = (format, content_digest(data), tuple(names), layouts)
        with self._exe_lock:
            exe = self._exe_cache.get(key)
            if exe is None:
                exe = self._load_executable(name, format, data, names, dict(target or {}))
                exe.layouts = layouts
                exe.target = dict(target or {})     # which variant was loaded (tests, tools)
                self._exe_cache[key] = exe
        return exe

    def _load_executable(self, name, format, data, entry_points, target):
        raise NotImplementedError

    # -- object factories --------------------------------------------------
    def create_command_buffer(self) -> CommandBuffer:
        return CommandBuffer(self)

    def create_semaphore(self, initial: int = 0) -> Semaphore:
        return Semaphore(initial)

    def create_fence(self) -> Fence:
        """A fence over a fresh semaphore at timepoint 1, ready to be signalled."""
        return Fence.single(Semaphore(0), 1)

    def _prepare_commands(self, commands):
        """Turn recorded commands into the driver's replayable program."""
        raise NotImplementedError

    # -- queue -------------------------------------------------------------
    def queue_execute(self, wait, signal, command_buffers, binding_tables=None, *,
                      caller_waits: bool = False) -> None:
        """Run finalized command buffers in order after ``wait``; then signal.

        ``binding_tables``: one entry per command buffer, None or the list of
        buffers its slots refer to in this submission.  ``caller_waits``: the
        caller will wait for ``signal`` right away, so a driver may run the
        work on the calling thread when its queue is idle (``_submit_waited``)
        instead of handing it to a queue thread."""
        if binding_tables is not None and len(binding_tables) != len(command_buffers):
            raise HalError(f"queue_execute: {len(command_buffers)} command buffers need as many "
                           f"binding tables, got {len(binding_tables)}")
        programs = [self._program(cb, binding_tables[i] if binding_tables is not None else None)
                    for i, cb in enumerate(command_buffers)]
        if wait is not None or signal is None or signal.__class__ is not Fence or self.closed:
            wait, signal = self._check_fence(wait, "wait"), self._check_fence(signal, "signal")
        work = self._program_runner(programs) if programs else None
        if caller_waits:
            self._submit_waited(wait, signal, work)
        else:
            self._submit(wait, signal, work)

    def _program(self, cb, table):
        """The checked program of finalized ``cb`` bound to ``table``."""
        if cb.__class__ is not CommandBuffer and not isinstance(cb, CommandBuffer):
            raise HalError(f"queue_execute: expected CommandBuffers, got {type(cb).__name__}")
        if cb.device is not self:
            raise HalError("queue_execute: command buffer was recorded for another device")
        if not cb.finalized:
            raise HalError("queue_execute: command buffer must be finalized before submission")
        if cb.constant_count:
            raise HalError(f"queue_execute: the command buffer uses {cb.constant_count} constant "
                           f"slots; submit cb.with_constants(table)")
        if not cb.slot_extents:
            return cb.program
        table = cb.check_table(table)
        if self.supports_binding_tables:
            return cb.program.bind(table)
        return self._prepare_commands(cb.resolved_commands(table))

    def execute_now(self, cb, table) -> bool:
        """Run ``cb`` with ``table`` to completion on this thread, without a
        fence, if this device can right now (an idle inline queue); False
        when the caller must submit it (``queue_execute``) instead.  A
        failure of the work raises ``rethrow(error)``, as waiting on the
        submission's fence would."""
        return False

    def queue_alloca(self, wait, signal, size: int):
        """A buffer that is usable once ``signal`` is reached."""
        buffer = self.allocator.allocate(size)
        self._submit(self._check_fence(wait, "wait"), self._check_fence(signal, "signal"), None)
        return buffer

    def queue_dealloca(self, wait, signal, buffer) -> None:
        """Release ``buffer`` once ``wait`` is reached, then signal."""
        if buffer is not None and not hasattr(buffer, "release"):
            raise HalError(f"queue_dealloca: expected a Buffer, got {type(buffer).__name__}")
        self._submit(self._check_fence(wait, "wait"), self._check_fence(signal, "signal"),
                     buffer.release if buffer is not None else None)

    def help_until(self, fence) -> None:
        """Called by a thread about to wait for ``fence``: drivers with a queue
        thread may run ready submissions on the caller meanwhile.  No-op here."""

    def _check_fence(self, fence, what):
        if fence is not None and not isinstance(fence, Fence):
            raise HalError(f"{what} fence must be a Fence or None, got {type(fence).__name__}")
        if self.closed:
            raise HalError(f"device '{self.name}' {self.closed_reason}")
        return fence

    def _program_runner(self, programs):
        raise NotImplementedError

    def _submit(self, wait, signal, work) -> None:
        """Queue ``work()`` (None: nothing) after ``wait``; signal/fail ``signal``."""
        raise NotImplementedError

    def _submit_waited(self, wait, signal, work) -> None:
        """``_submit`` for a caller that waits for ``signal`` at once; drivers
        with a queue thread may run the work on the caller instead."""
        self._submit(wait, signal, work)

    # -- lifetime ------------------------------------------------------------
    def _after_fork_in_child(self) -> None:
        """Reset what another thread of the parent may have held at the fork;
        drivers with queue state or threads extend this."""
        self._exe_lock = threading.Lock()

    def _abandon_after_fork(self, why: str) -> None:
        """For drivers whose device state cannot cross ``fork()`` (a GPU
        context, the queue threads that were the parent's): the child's copy
        takes no work and fails with ``why``, and ``runtime.get_device``
        replaces it with a device created in the child."""
        self._exe_lock = threading.Lock()
        self.closed = True
        self.closed_reason = why

    def close(self) -> None:
        """Stop the device's threads; pending work fails its fences."""
        self.closed = True

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return f"<{type(self).__name__} {self.name}>"


_LIVE = weakref.WeakSet()      # every live device, reset in a forked child


class _Donor(threading.local):
    """Whether this thread may run queued device work itself while it waits
    (``help_until``, ``caller_waits``).  A thread that serves many calls (the
    VM scheduler) must not: a long kernel there stalls every call it serves,
    and the work belongs on the device's queue threads."""
    allowed = True


donor = _Donor()


def forbid_donation() -> None:
    """Mark the calling thread as one that never runs device queue work."""
    donor.allowed = False


def _after_fork_in_child() -> None:
    for dev in list(_LIVE):
        dev._after_fork_in_child()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
