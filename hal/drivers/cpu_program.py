"""The CPU drivers' replayable form of a command buffer.

``prepare(commands)`` runs once, at ``CommandBuffer.finalize()``: each
dispatch becomes a ``DispatchPacket`` whose native ``tvm_dispatch_state_t``
(binding pointers, lengths, push constants, grid) is built now, so a replay
costs one native call per workgroup range and nothing else; fills, copies and
updates become ``HostOp``s over numpy views.  Commands are grouped into
segments at execution barriers: ops inside a segment may run concurrently,
segments run one after the other.  The packets keep the buffers' storage
alive, so a buffer released while a command buffer still uses it stays valid
memory.

Commands recorded against binding-table slots become ``IndirectDispatch`` /
``IndirectHostOp`` templates; ``CpuProgram.bind(table)`` returns a program
whose packets point at this submission's buffers.  Bound programs are
pooled per template: each owns its packets' native states and address
arrays, built once, and a bind only patches the slot addresses (one store
per slot binding).  A bound program belongs to one submission until the
driver calls ``release()`` after running it (the next bind may reuse it);
concurrent submissions take different pool entries (list pop/append are
atomic under the GIL), so they never share state.
"""
from __future__ import annotations

import time

import numpy as np

from tensorvm.vmfb.cpu_abi import (LOOP_STATS_FIELDS, RC_BINDING_SHORT, STOP_CODES, TEAM_FAILED,
                                   packet, team_control_words)

from ..command_buffer import Barrier, Copy, Dispatch, Fill, Update, is_slot
from ..errors import DispatchStoppedError, HalError
from ..loaders.cpu_c import ffi, new_state

_clock = time.perf_counter
_UNTIMED = (None,)

_PATTERN_DTYPES = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
_UINTPTR_ARRAY = ffi.typeof("uintptr_t[]")
_UINTPTR = ffi.typeof("uintptr_t")
_U64_ARRAY = ffi.typeof("uint64_t[]")
_U32_ARRAY = ffi.typeof("uint32_t[]")
_U64_POINTER = ffi.typeof("uint64_t*")
_VOIDPP = ffi.typeof("void**")


def loop_trace_args(rec: dict) -> dict:
    """A native loop's stats record as trace args: counts, and the time spent
    outside its kernels (its host work: scalar math, branches, the loop
    itself) per iteration of the root loop."""
    its = rec["iterations"]
    host_ns = max(0, rec["total_ns"] - rec["kernel_ns"])
    return {"iterations": its, "inner_iterations": rec["inner_iterations"],
            "dispatches": rec["dispatches"], "kernel_us": rec["kernel_ns"] / 1e3,
            "host_us": host_ns / 1e3,
            "host_us_per_iteration": host_ns / 1e3 / its if its else 0.0}


def _total(cmd: Dispatch) -> int:
    """Workgroups of a dispatch (the command buffer bounded it at record time)."""
    wx, wy, wz = cmd.workgroups
    return wx * wy * wz


#: A dispatch whose whole run took less than this keeps the GIL while it
#: runs (``CpuExecutable.held_entry``): releasing it for a few microseconds
#: handed it to another calling thread and cost each call a context switch
#: (add4 from 8 threads on local-sync: 46k -> 100k calls/s).  Longer kernels
#: release it, so that other threads and the workers run meanwhile.
HOLD_GIL_S = 20e-6
HOLD_GIL_TRIES = 8           # whole runs measured before a packet is called long


class DispatchPacket:
    """One dispatch with its native state prebuilt."""

    __slots__ = ("fn", "state", "total", "executable", "entry", "_keep", "times", "key",
                 "held", "address", "tries")

    def __init__(self, cmd: Dispatch):
        exe = cmd.executable
        self.executable = exe
        self.entry = cmd.entry
        self.fn = exe.functions[cmd.entry]
        self.total = _total(cmd)
        storages = [buf.storage for buf, _, _ in cmd.bindings]
        addrs = ffi.new(_UINTPTR_ARRAY, [buf.address + off for buf, off, _ in cmd.bindings] or [0])
        lens = ffi.new(_U64_ARRAY, [ln for _, _, ln in cmd.bindings] or [0])
        consts = ffi.new(_U32_ARRAY, cmd.constants or [0])
        self.state = new_state(addrs, lens, consts, cmd.workgroups)
        self._keep = (addrs, lens, consts, storages, exe)
        self.times, self.key = exe.run_times, (cmd.entry, self.total)   # see local_task
        self.held, self.tries = None, 0       # held: None until decided (see run_all)

    @property
    def name(self) -> str:
        return self.executable.entry_points[self.entry]

    def error(self, rc: int) -> HalError:
        name = self.executable.entry_points[self.entry]
        if rc in STOP_CODES:
            return DispatchStoppedError(f"executable '{self.executable.name}' entry point '{name}' "
                                        f"stopped: its call was {STOP_CODES[rc]}", STOP_CODES[rc])
        if rc == RC_BINDING_SHORT:
            return HalError(f"executable '{self.executable.name}' entry point '{name}': a binding "
                            f"is shorter than its dynamic shape needs at this call's dims "
                            f"(push constants and buffer sizes disagree)")
        return HalError(f"executable '{self.executable.name}' entry point '{name}' "
                        f"failed with code {rc}")

    def loop_stats(self) -> dict | None:
        """A native loop's stats record (vmfb/cpu_abi.py: LOOP_STATS_*) after a
        run whose bounds asked for it (the device had a tracer), as trace
        args; None for any other entry point."""
        layout = self.executable.layouts[self.entry]
        if layout is None or not layout.loop_stats:
            return None
        scratch = ffi.cast(_VOIDPP, self.state)[0]          # state->bindings
        rec = ffi.cast(_U64_POINTER, ffi.cast(_VOIDPP, scratch)[layout.bindings - 2])
        return loop_trace_args({f: int(rec[w]) for f, w in LOOP_STATS_FIELDS.items()})

    def run(self, begin: int, end: int) -> None:
        """Run workgroups [begin, end) with one native call."""
        rc = self.fn(self.state, begin, end)
        if rc:
            raise self.error(rc)

    def run_all(self) -> None:
        """All workgroups on this thread; the GIL kept while a short kernel runs."""
        held = self.held
        if held:
            rc = held(self.address, 0, self.total)
            if rc:
                raise self.error(rc)
        elif self.total:
            if held is None:
                self.run_measured()                # decides held for the next runs
            else:
                self.run(0, self.total)

    def _decide_held(self, seconds: float) -> None:
        """Keep the GIL in later whole runs when this entry's whole runs are
        short and its work is fixed by its static shapes: a declared
        workgroup bound and every binding's size known.  A native loop (no
        bound) or a dynamic-shape kernel may run far longer than it was
        measured, and must leave other threads free to cancel it."""
        held = getattr(self.executable, "held_entry", None)
        verdict = _gil_verdict(self, held is not None and self.static(), seconds)
        if verdict:
            self.held = held(self.entry)
            self.address = int(ffi.cast("uintptr_t", self.state))
        elif verdict is False:
            self.held = False

    def static(self) -> bool:
        """Whether this dispatch's work is fixed by its static shapes: a
        declared workgroup bound and every binding's size known."""
        layout = self.executable.layouts[self.entry]
        return (layout is not None and layout.workgroups is not None
                and layout.binding_bytes is not None and all(layout.binding_bytes))

    def run_measured(self) -> None:
        """All workgroups on this thread (GIL released), timed as a whole run."""
        if self.total:
            t0 = _clock()
            self.run(0, self.total)
            seconds = _clock() - t0
            self.note(0, seconds)
            if self.held is None:
                self._decide_held(seconds)

    # -- run times, for local-task's split decision --------------------------
    def timing(self):
        """[seconds of a whole run on one thread, seconds split over workers,
        seconds of its segment run over workers] (running means; None until
        measured), then the whole runs since splitting was last tried, the
        whole runs before the next try, and the runs of its segment one
        dispatch after another since they last ran side by side (see
        local_task.SPLIT_RETRY); shared by every dispatch of this entry point
        with this workgroup count."""
        rec = self.times.get(self.key)
        if rec is None:
            from .local_task import SPLIT_RETRY_MIN
            rec = self.times[self.key] = [None, None, None, 0, SPLIT_RETRY_MIN, 0]
        return rec

    def note(self, slot: int, seconds: float) -> None:
        rec = self.timing()
        old = rec[slot]
        rec[slot] = seconds if old is None else 0.5 * (old + seconds)


class ClaimedRun:
    """One thread's share of a split dispatch: workgroups ``grain`` at a
    time from ``counter``, which every thread's share of this run claims
    from (the executable's ``tvm_run_claimed``, vmfb/cpu_abi.py; one native
    call, the GIL released).  local-task gives each thread one; a share
    taken after the others claimed everything returns at once."""

    __slots__ = ("packet", "counter", "grain")

    def __init__(self, packet, counter, grain: int):
        self.packet, self.counter, self.grain = packet, counter, grain

    name = property(lambda self: self.packet.name)

    def run_all(self) -> None:
        p = self.packet
        rc = p.executable.claimer(p.fn, p.state, self.counter, p.total, self.grain)
        if rc:
            raise p.error(rc)


def claimed_shares(packet, threads: int, grain: int) -> list:
    """``threads`` ClaimedRuns of ``packet`` sharing one fresh counter."""
    counter = ffi.new("uint32_t*")
    return [ClaimedRun(packet, counter, grain) for _ in range(threads)]


def _gil_verdict(runner, static: bool, seconds: float):
    """Whether a packet or batch whose whole run took ``seconds`` keeps the GIL
    from now on: True, False, or None to look again (a first run pays page
    faults; ``runner.tries`` counts the looks, HOLD_GIL_TRIES at most).  Only
    work fixed by static shapes may keep it (see DispatchPacket._decide_held)."""
    if not static:
        return False
    if seconds < HOLD_GIL_S:
        return True
    runner.tries += 1
    return False if runner.tries >= HOLD_GIL_TRIES else None


def packet_words(packets):
    """The packets as ``tvm_run_packets`` / ``tvm_run_team`` read them
    (vmfb/cpu_abi.py: PACKET_FIELDS), each over all its workgroups."""
    words = []
    for p in packets:
        words += packet(int(ffi.cast(_UINTPTR, p.fn)), int(ffi.cast(_UINTPTR, p.state)), 0, p.total)
    return ffi.new(_UINTPTR_ARRAY, words)


class PacketBatch:
    """Consecutive dispatches run in one native call (the executable's
    ``tvm_run_packets``, vmfb/cpu_abi.py): a replay of 40 small kernels is one
    call, not 40 Python-level ones.  Like a packet, a batch whose whole runs
    are short keeps the GIL (HOLD_GIL_S); longer ones release it."""

    __slots__ = ("packets", "words", "count", "failed", "runner", "held", "address", "tries",
                 "failed_address")

    def __init__(self, packets, runner):
        self.packets = packets
        self.words = packet_words(packets)
        self.address = int(ffi.cast(_UINTPTR, self.words))
        self.count = len(packets)
        self.failed = ffi.new(_UINTPTR_ARRAY, 1)
        self.failed_address = int(ffi.cast(_UINTPTR, self.failed))
        self.runner, self.held = runner, None
        self.tries = 0

    name = property(lambda self: "packets")

    def run_all(self) -> None:
        held = self.held
        if held:
            rc = held(self.address, self.count, self.failed_address)
        elif held is False:
            rc = self.runner[0](self.words, self.count, self.failed)
        else:                    # undecided: time the whole run
            t0 = _clock()
            rc = self.runner[0](self.words, self.count, self.failed)
            verdict = _gil_verdict(self, all(p.static() for p in self.packets), _clock() - t0)
            if verdict is not None:
                self.held = self.runner[1] if verdict else False
        if rc:
            raise self.packets[self.failed[0]].error(rc)


def _with_batches(entries) -> list:
    """``entries`` as (packet or None, plan item) in run order: each run of two
    or more packets (of executables with a packet runner) becomes one
    PacketBatch, every other entry stays its item."""
    plan, run = [], []
    for packet, item in entries + [(None, None)]:
        if packet is not None and getattr(packet.executable, "runner", None) is not None:
            run.append((packet, item))
            continue
        if len(run) > 1:
            plan.append(PacketBatch([p for p, _ in run], run[0][0].executable.runner))
        else:
            plan.extend(it for _, it in run)
        run.clear()
        if item is not None:
            plan.append(item)
    return plan


def batched(segments) -> list:
    """local-sync's run plan: ``segments`` flattened in order (it runs them one
    after the other), consecutive dispatches batched; other ops as (segment,
    position) so a bound program's per-call host ops are looked up when run."""
    return _with_batches([(op if type(op) is DispatchPacket else None, (si, oi))
                          for si, seg in enumerate(segments) for oi, op in enumerate(seg)])


def batched_segments(segments, inline_below: int) -> list:
    """local-task's run plan: consecutive segments that each hold one dispatch
    of under ``inline_below`` workgroups (never split over the workers:
    local_task.run_segment runs them inline) batched; every other segment
    stays a list for run_segment."""
    def single(seg):
        op = seg[0] if len(seg) == 1 else None
        return op if type(op) is DispatchPacket and op.total < inline_below else None
    return _with_batches([(single(seg), seg) for seg in segments])


class TeamStretch:
    """Consecutive segments of dispatches run by a team of threads in native
    code (the executable's ``tvm_run_team``, vmfb/cpu_abi.py): every thread
    that runs one ``share()`` claims workgroups of the current segment, and
    they meet between segments without Python.  The words point at the
    packets' states, so a stretch belongs to one bound program, like its
    packets."""

    __slots__ = ("packets", "words", "segs", "nseg", "runner", "_counts", "times")

    def __init__(self, segments, runner, threads: int, claims: int):
        self.packets = [op for seg in segments for op in seg]
        self.words = packet_words(self.packets)
        segs, first = [], 0
        for seg in segments:
            total = sum(p.total for p in seg)
            segs += [first, len(seg), total, team_grain(total, threads, claims)]
            first += len(seg)
        self.segs = ffi.new(_U32_ARRAY, segs)
        self.nseg = len(segments)
        self.runner = runner
        self._counts = team_control_words(self.nseg)
        # [mean seconds as a team, mean seconds on the leader alone, runs
        # of the preferred way before the other is tried again, that interval]
        self.times = [None, None, 0, 2]

    name = property(lambda self: "team")

    def share(self) -> "TeamRun":
        """One run's shared state (fresh control words)."""
        return TeamRun(self, ffi.new(_U32_ARRAY, self._counts))


def team_grain(total: int, threads: int, claims: int) -> int:
    """Workgroups per claim of a team segment: ``claims`` per thread, but
    one per thread in a segment of fewer than ``claims`` workgroups per
    thread (each claim is a kernel call that packs and streams its own
    operands: a 4-workgroup product claimed one workgroup at a time read
    B four times, and the stretch ran 30% slower than one call each)."""
    if total < threads * claims:
        return max(1, -(-total // threads))
    return -(-total // (threads * claims))


class TeamRun:
    """One run of a ``TeamStretch``: its control words (fresh per run, so a
    thread that arrives after the end of one run never touches the next).
    Pool threads call ``run_all``; the executing thread ``lead`` (it runs
    the one-claim segments), then ``check`` once every thread that joined
    has returned: the erring thread stored its item by then."""

    __slots__ = ("stretch", "ctl")

    def __init__(self, stretch: TeamStretch, ctl):
        self.stretch, self.ctl = stretch, ctl

    name = property(lambda self: "team")

    def _run(self, lead: int) -> int:
        t = self.stretch
        return t.runner(t.words, t.segs, t.nseg, self.ctl, lead)

    def run_all(self) -> None:
        self._run(0)          # an error stops every thread; the leader reports it

    def lead(self) -> int:
        return self._run(1)

    def check(self, rc: int) -> None:
        if rc:
            raise self.stretch.packets[self.ctl[TEAM_FAILED] - 1].error(rc)


def team_plan(plan, inline_below: int, threads: int, claims: int) -> list:
    """``plan`` (``batched_segments``) with each run of dispatch-only items
    that holds a dispatch of at least ``inline_below`` workgroups (one the
    workers would split) made a ``TeamStretch``: a batch's packets one
    segment each, a segment's packets one segment.  Items of executables
    without ``tvm_run_team`` and host work stay as they were."""
    out, run = [], []

    def flush():
        segments = [s for it in run for s in
                    ([[p] for p in it.packets] if type(it) is PacketBatch else [it])]
        if any(p.total >= inline_below for seg in segments for p in seg):
            out.append(TeamStretch(segments, segments[0][0].executable.team, threads, claims))
        else:
            out.extend(run)
        run.clear()

    for item in plan:
        ops = item.packets if type(item) is PacketBatch else item
        if all(type(op) is DispatchPacket and getattr(op.executable, "team", None) is not None
               for op in ops):
            run.append(item)
            continue
        if run:
            flush()
        out.append(item)
    if run:
        flush()
    return out


class IndirectDispatch:
    """A dispatch with slot bindings: the template of a bound packet."""

    __slots__ = ("executable", "entry", "fn", "total", "lens", "consts", "wg", "addrs",
                 "slots", "_keep")

    def __init__(self, cmd: Dispatch):
        exe = cmd.executable
        self.executable, self.entry, self.fn = exe, cmd.entry, exe.functions[cmd.entry]
        self.total = _total(cmd)
        self.wg = list(cmd.workgroups)
        self.lens = ffi.new(_U64_ARRAY, [ln for _, _, ln in cmd.bindings] or [0])
        self.consts = ffi.new(_U32_ARRAY, cmd.constants or [0])
        self.addrs = [0 if is_slot(b) else b.address + off for b, off, _ in cmd.bindings] or [0]
        self.slots = tuple((i, b, off) for i, (b, off, _) in enumerate(cmd.bindings)
                           if is_slot(b))
        self._keep = [b.storage for b, _, _ in cmd.bindings if not is_slot(b)]

    def instantiate(self):
        """(a packet owning its own address array, that array) for a bound program."""
        carr = ffi.new(_UINTPTR_ARRAY, self.addrs)
        p = DispatchPacket.__new__(DispatchPacket)
        p.executable, p.entry, p.fn, p.total = self.executable, self.entry, self.fn, self.total
        p.state = new_state(carr, self.lens, self.consts, self.wg)
        p._keep, p.times, p.key = (carr, self), self.executable.run_times, (self.entry, self.total)
        p.held, p.tries = None, 0
        return p, carr

class HostOp:
    """A fill, copy or update done with numpy on the executing thread."""

    __slots__ = ("run_all", "kind")

    def __init__(self, kind, fn):
        self.kind = kind
        self.run_all = fn

    name = property(lambda self: self.kind)


class IndirectHostOp:
    """A fill or copy with slot buffers; ``bind`` resolves it for one submission."""

    __slots__ = ("cmd",)

    def __init__(self, cmd):
        self.cmd = cmd

    def bind(self, table) -> HostOp:
        c = self.cmd
        if isinstance(c, Fill):
            c = c._replace(buffer=table[c.buffer])
        elif isinstance(c, Copy):
            c = c._replace(src=table[c.src] if is_slot(c.src) else c.src,
                           dst=table[c.dst] if is_slot(c.dst) else c.dst)
        return _host_op(c)


def _host_op(cmd) -> HostOp:
    if isinstance(cmd, Fill):
        dt = _PATTERN_DTYPES[len(cmd.pattern)]
        view = cmd.buffer.storage[cmd.offset:cmd.offset + cmd.length].view(dt)
        value = np.frombuffer(cmd.pattern, dtype=dt)[0]
        return HostOp("fill", lambda: view.fill(value))
    if isinstance(cmd, Copy):
        src = cmd.src.storage[cmd.src_offset:cmd.src_offset + cmd.length]
        dst = cmd.dst.storage[cmd.dst_offset:cmd.dst_offset + cmd.length]
        return HostOp("copy", lambda: np.copyto(dst, src))
    if isinstance(cmd, Update):
        data = np.frombuffer(cmd.data, dtype=np.uint8)
        dst = cmd.dst.storage[cmd.dst_offset:cmd.dst_offset + len(cmd.data)]
        return HostOp("update", lambda: np.copyto(dst, data))
    raise HalError(f"CPU devices cannot execute command {type(cmd).__name__}")


_INDIRECT = (IndirectDispatch, IndirectHostOp)


class CpuProgram:
    """Barrier-separated segments of packets / host ops."""

    __slots__ = ("segments", "indirect", "_keep", "_pool", "_patches", "_addresses", "_host_ops",
                 "_template", "_plan", "task_plan")

    def __init__(self, segments, keep=None):
        self.segments = segments
        self.indirect = any(type(op) in _INDIRECT for seg in segments for op in seg)
        self._keep = keep
        self._pool = []           # free bound programs (templates only)
        self._template = None     # bound programs: the template they return to
        self._plan = None         # batched(segments), made at the first run_once
        self.task_plan = None     # batched_segments(...), local-task's (made at its first run)

    def bind(self, table) -> "CpuProgram":
        """This program over one submission's binding table (buffers by slot).

        The result is exclusively the caller's until ``release()``."""
        try:
            bound = self._pool.pop()
        except IndexError:
            bound = self._instantiate()
        last = bound._addresses
        for k, (slot, targets) in enumerate(bound._patches):
            a = table[slot].address
            if last[k] != a:         # same buffer address as last time: nothing to patch
                last[k] = a
                for carr, i, off in targets:
                    carr[i] = a + off
        if bound._host_ops:
            segs = bound.segments
            for si, oi, op in bound._host_ops:
                segs[si][oi] = op.bind(table)
        bound._keep = table
        return bound

    def _instantiate(self) -> "CpuProgram":
        bound = CpuProgram.__new__(CpuProgram)
        segs, patches, host_ops = [], [], []
        for si, seg in enumerate(self.segments):
            out = []
            for oi, op in enumerate(seg):
                if type(op) is IndirectDispatch:
                    packet, carr = op.instantiate()
                    patches += [(carr, i, slot, off) for i, slot, off in op.slots]
                    out.append(packet)
                else:
                    if type(op) is IndirectHostOp:
                        host_ops.append((si, oi, op))
                    out.append(op)
            segs.append(out)
        by_slot = {}
        for carr, i, slot, off in patches:
            by_slot.setdefault(slot, []).append((carr, i, off))
        bound.segments, bound.indirect, bound._keep, bound._plan = segs, False, None, None
        bound.task_plan = None
        bound._pool, bound._host_ops = None, tuple(host_ops)
        bound._patches = tuple((slot, tuple(t)) for slot, t in by_slot.items())
        bound._addresses = [None] * len(bound._patches)
        bound._template = self
        return bound

    def release(self) -> None:
        """A bound program's submission is over: drop its buffers, return it to
        its template's pool.  No-op for programs that were not bound."""
        template = self._template
        if template is not None and self._keep is not None:
            self._keep = None
            for si, oi, op in self._host_ops:
                self.segments[si][oi] = op        # drop the bound views
            template._pool.append(self)

    def run_once(self) -> None:
        """``run_inline()`` then ``release()``: one submission's work, runs
        of dispatches batched into one native call each (``batched``)."""
        try:
            plan = self._plan
            if plan is None:
                plan = self._plan = batched(self.segments)
            segs = self.segments
            for item in plan:
                if type(item) is tuple:
                    segs[item[0]][item[1]].run_all()
                else:
                    item.run_all()
        finally:
            self.release()

    def run_inline(self, tracer=None) -> None:
        """Run everything in order on the calling thread."""
        if tracer is not None:
            from .worker_pool import run_traced
            for seg in self.segments:
                for op in seg:
                    run_traced(tracer, op, None)
            return
        for seg in self.segments:
            for op in seg:
                op.run_all()


def prepare(commands) -> CpuProgram:
    segments, current = [], []
    for cmd in commands:
        if isinstance(cmd, Barrier):
            if current:
                segments.append(current)
                current = []
        elif isinstance(cmd, Dispatch):
            if any(is_slot(b) for b, _, _ in cmd.bindings):
                packet = IndirectDispatch(cmd)
            else:
                packet = DispatchPacket(cmd)
            if packet.total:
                current.append(packet)
        elif (isinstance(cmd, Fill) and is_slot(cmd.buffer)) or \
                (isinstance(cmd, Copy) and (is_slot(cmd.src) or is_slot(cmd.dst))):
            if cmd.length:
                current.append(IndirectHostOp(cmd))
        else:
            current.append(_host_op(cmd))
    if current:
        segments.append(current)
    return CpuProgram(segments)
