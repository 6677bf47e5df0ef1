"""The opencl driver's replayable form of a command buffer: a prepared
enqueue list.

``prepare`` turns the recorded commands into a list of enqueue operations
once (at ``finalize``): each dispatch gets its own ``cl.Kernel`` (taken from
the executable's free list) with every argument that does not come from a
binding-table slot set there.  ``bind(table)`` gives the program for one
submission; its enqueue sets only the slot arguments whose buffer or offset
changed since that kernel last ran (``_Kernel`` remembers), then enqueues.
All of a submission's commands go on the device's in-order queue with no
host wait between them; one marker at the end is what the completion
thread waits for.  A recording without slots is bound to a template of
its shape where one fits (``gpu_templates.py``), so re-recorded calls and
loop iterations are prepared once too.

Thread safety: a kernel's arguments are captured by clEnqueueNDRangeKernel
(clSetKernelArg semantics) and every program of a device is set up and
enqueued on that device's one submit thread, so programs bound to one
template may be in flight together, and callers on many threads share
templates without sharing mutable kernel state.  Two HAL devices never
share a kernel: executables (and their kernels) are cached per HAL device.

Why not ``cl_khr_command_buffer`` (PoCL reports it): a command buffer
captures kernel arguments when it is recorded, and replaying it over new
buffers needs ``cl_khr_command_buffer_mutable_dispatch``, which PoCL does
not report; tensorvm's calls bind fresh buffers (arguments, results,
transients) every time, so each call would record a new command buffer,
which costs more than the enqueue list (measured: docs/hal.md).
"""
from __future__ import annotations

import weakref

import numpy as np

from tensorvm.vmfb.gpu_abi import OPENCL as ABI

from ..command_buffer import Barrier, Copy, Dispatch, Fill, Update, is_slot
from ..errors import HalError
from .opencl_buffer import map_unmap


def _unset():
    """``_Launch.seen``'s entry for a slot argument not set yet (a dead weak reference)."""
    return None


_PATTERN = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


class OpenCLProgram:
    """A finalized command buffer: enqueue ops in order, the host-shared
    buffers to make coherent after it ran, and (bound) its binding table.

    ``slots``: per op that uses binding-table slots, ``(op index, the
    transfer command or None for a dispatch, slots it may write)``.
    ``keep``: the table stays after a submission completes (a template bound
    at finalize serves every submission of its command buffer)."""

    __slots__ = ("ops", "shared", "slots", "table", "keep", "written")

    def __init__(self, ops, shared, slots=(), table=None, keep=False, written=None):
        self.ops = ops
        self.shared = shared
        self.slots = slots
        self.table = table
        self.keep = keep
        # the slots any command may write, once
        self.written = written if written is not None else \
            sorted({s for _, _, w in slots for s in w})

    def bind(self, table, keep: bool = False) -> "OpenCLProgram":
        shared = list(self.shared)
        for slot in self.written:
            b = table[slot]
            if b.host_shared and b.writable and b.mem is not None:
                shared.append((b.mem, b.host.nbytes))
        return OpenCLProgram(self.ops, shared, self.slots, table, keep, self.written)

    def release(self) -> None:
        if not self.keep:
            self.table = None


class _Launch:
    """One dispatch: its kernel (taken from the executable's free list,
    returned when the program goes), grid and the slot arguments that each
    submission fills in (``(binding, slot, byte offset)``; argument
    indices per vmfb/gpu_abi.py, the offsets' from ``offsets_at``)."""

    __slots__ = ("device", "exe", "entry", "kernel", "gsize", "lsize", "offsets_at",
                 "slot_args", "seen", "name", "status_arg", "enqueue")

    def __call__(self, q, table=None, resolved=None):
        """Enqueue the kernel, first setting the slot arguments that differ
        from what its kernel last got (``table``: the submission's binding
        table; ``resolved``: per slot, None or its ``(cl_mem, offset, weak
        reference)`` once a launch of the submission looked it up); returns
        the launch's status word buffer (kernels that report failure) or None.

        ``seen`` holds a weak reference to the table buffer each slot
        argument was last set from: a buffer object's cl_mem and offset
        never change, so a slot bound to the same buffer as last time -- a
        model's weights, call after call -- costs one identity test, and a
        slot bound anew (a call's fresh slab) is looked up once per
        submission, not per launch (weak: a finished submission's buffers
        stay free to go)."""
        k = self.kernel
        kern = k.kernel
        if self.slot_args:
            args, n, seen = k.args, self.offsets_at, self.seen
            for j, (i, slot, off) in enumerate(self.slot_args):
                b = table[slot]
                if seen[j]() is b:
                    continue
                r = resolved[slot]
                if r is None:
                    r = resolved[slot] = (_mem(self.device, b), b.offset, weakref.ref(b))
                mem, base, ref = r
                if args[i] is not mem:
                    kern.set_arg(i, mem)
                    args[i] = mem
                base += off
                if args[n + i] != base:
                    k.set_bytes(n + i, ABI.pack_offset(base))
                    args[n + i] = base
                seen[j] = ref
        try:
            if self.status_arg is None:
                self.enqueue(q, kern, self.gsize, self.lsize)
                return None
            import pyopencl as cl
            status = cl.Buffer(self.device.context,
                               cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR,
                               hostbuf=np.zeros(1, np.uint32))
            k.set_buffer(self.status_arg, status)
            self.enqueue(q, kern, self.gsize, self.lsize)
            return status
        except Exception as e:      # noqa: BLE001 - cl.Error, or a bad argument value
            raise HalError(f"{self.name} failed to launch: {e}") from None

    def __del__(self):
        kernel = getattr(self, "kernel", None)
        if kernel is not None:
            self.exe.free_kernels[self.entry].append(kernel)


def _mem(device, buf):
    mem = buf.mem
    if mem is None:                       # zero-length binding: any valid cl_mem
        mem = getattr(device, "_dummy", None)
        if mem is None:
            import pyopencl as cl
            mem = device._dummy = cl.Buffer(device.context, cl.mem_flags.READ_WRITE, 64)
    return mem


def _dispatch(device, cmd: Dispatch):
    import pyopencl as cl
    exe = cmd.executable
    wx, wy, wz = cmd.workgroups
    if not wx * wy * wz:
        return None
    entry = exe.entry_points[cmd.entry]
    local = exe.local_sizes[cmd.entry]
    what = f"executable '{exe.name}' entry point '{entry}'"
    nb = len(cmd.bindings)
    kernel = exe.take_kernel(cmd.entry)
    run = _Launch()
    run.device, run.exe, run.entry, run.name = device, exe, cmd.entry, what
    run.offsets_at = ABI.offset_arg(0, nb)
    run.kernel = kernel                   # back to the free list with ``run``
    run.status_arg = exe.status_args[cmd.entry]
    nargs = len(kernel.args) - (run.status_arg is not None)
    want = ABI.count(nb, len(cmd.constants))
    if nargs != want:
        raise HalError(f"{what}: {nb} bindings and {len(cmd.constants)} constants do not match "
                       f"the kernel's parameters: the kernel takes {nargs} arguments, not {want}")
    slot_args = []
    try:
        for i, (b, off, _) in enumerate(cmd.bindings):
            if is_slot(b):
                slot_args.append((i, b, off))
                continue
            kernel.set_buffer(ABI.binding_arg(i), _mem(device, b))
            kernel.set_scalar(ABI.offset_arg(i, nb), b.offset + off, ABI.pack_offset)
        for j, c in enumerate(cmd.constants):
            kernel.set_scalar(ABI.constant_arg(j, nb), c, ABI.pack_constant)
    except (cl.Error, TypeError, ValueError) as e:
        raise HalError(f"{what}: {nb} bindings and {len(cmd.constants)} constants do not match "
                       f"the kernel's parameters: {e}") from None
    run.gsize, run.lsize = (wx * local, wy, wz), (local, 1, 1)
    run.slot_args = tuple(slot_args)
    run.seen = [_unset] * len(slot_args)
    run.enqueue = cl.enqueue_nd_range_kernel
    return run


def _transfer(device, cmd):
    import pyopencl as cl
    if isinstance(cmd, Fill):
        if not cmd.length:
            return None
        mem, value = cmd.buffer.mem, np.frombuffer(cmd.pattern, _PATTERN[len(cmd.pattern)])[0]
        off = cmd.buffer.offset + cmd.offset
        return lambda q: cl.enqueue_fill_buffer(q, mem, value, off, cmd.length)
    if isinstance(cmd, Copy):
        n = cmd.length
        if not n:
            return None
        src, dst = cmd.src.mem, cmd.dst.mem
        so, do = cmd.src.offset + cmd.src_offset, cmd.dst.offset + cmd.dst_offset
        if src is dst and so < do + n and do < so + n:        # overlap: go through a temp
            tmp = cl.Buffer(device.context, cl.mem_flags.READ_WRITE, n)

            def run(q):
                cl.enqueue_copy(q, tmp, src, byte_count=n, src_offset=so, dst_offset=0)
                cl.enqueue_copy(q, dst, tmp, byte_count=n, src_offset=0, dst_offset=do)
            return run
        return lambda q: cl.enqueue_copy(q, dst, src, byte_count=n, src_offset=so, dst_offset=do)
    if isinstance(cmd, Update):
        if not cmd.data:
            return None
        mem, data = cmd.dst.mem, np.frombuffer(cmd.data, np.uint8)
        off = cmd.dst.offset + cmd.dst_offset
        return lambda q: cl.enqueue_copy(q, mem, data, dst_offset=off, is_blocking=False)
    raise HalError(f"the opencl driver cannot execute command {type(cmd).__name__}")


def prepare(device, commands) -> OpenCLProgram:
    """Build the kernels and arguments of every command once (finalize);
    transfers on binding-table slots are resolved per submission."""
    ops, shared, slots = [], {}, []
    for cmd in commands:
        if isinstance(cmd, Barrier):
            continue                      # one in-order queue: commands never overlap
        if isinstance(cmd, Dispatch):
            op = _dispatch(device, cmd)
            written = [b for b, _, _ in cmd.bindings]
            if op is not None and op.slot_args:
                slots.append((len(ops), None, [s for _, s, _ in op.slot_args]))
        else:
            written = [getattr(cmd, "buffer", None) or getattr(cmd, "dst", None)]
            if any(is_slot(x) for x in (getattr(cmd, "buffer", None), getattr(cmd, "src", None),
                                        getattr(cmd, "dst", None))):
                slots.append((len(ops), cmd, [b for b in written if is_slot(b)]))
                ops.append(None)
                continue
            op = _transfer(device, cmd)
        for b in written:
            if not is_slot(b) and getattr(b, "host_shared", False) and b.writable \
                    and b.mem is not None:
                shared[id(b.mem)] = (b.mem, b.host.nbytes)
        if op is not None:
            ops.append(op)
    return OpenCLProgram(ops, list(shared.values()), tuple(slots))


def _resolve(cmd, table):
    if isinstance(cmd, Fill):
        return cmd._replace(buffer=table[cmd.buffer])
    return cmd._replace(src=table[cmd.src] if is_slot(cmd.src) else cmd.src,
                        dst=table[cmd.dst] if is_slot(cmd.dst) else cmd.dst)


def enqueue_programs(device, programs):
    """Enqueue every program on ``device``'s queue, no host wait between
    commands; return the function that waits for them (the completion
    thread calls it) and the number of commands enqueued."""
    import pyopencl as cl
    queue = device.queue
    statuses = []                         # (status word, what) of the launches that have one
    count = 0
    for p in programs:
        table = p.table
        transfers = resolved = None
        if table is not None:
            transfers = {i: cmd for i, cmd, _ in p.slots if cmd is not None}
            resolved = [None] * len(table)
        count += len(p.ops)
        for i, op in enumerate(p.ops):
            if op.__class__ is _Launch:
                word = op(queue, table, resolved)
                if word is not None:
                    statuses.append((word, op.name))
            elif op is None:
                op = _transfer(device, _resolve(transfers[i], table))
                if op is not None:
                    op(queue)
            else:
                op(queue)
    for p in programs:                    # host-memory buffers follow the device's writes
        for mem, size in p.shared:
            map_unmap(queue, mem, size)
    marker = cl.enqueue_marker(queue)

    def done():
        marker.wait()
        status = marker.command_execution_status
        if status < 0:
            raise HalError(f"OpenCL execution failed with status {status}")
        for p in programs:
            p.release()
        for word, name in statuses:       # the first kernel that reported failure
            code = np.zeros(1, np.uint32)
            cl.enqueue_copy(queue, code, word, is_blocking=True)
            if code[0]:
                raise HalError(f"{name} failed with code {int(code[0])}")
    return done, count
