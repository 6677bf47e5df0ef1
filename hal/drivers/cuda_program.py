"""The cuda driver's replayable form of a command buffer: prepared launches,
replayed as CUDA graphs.

``prepare`` (at ``finalize``) turns each dispatch into a ``_Launch``: its
function, grid and a parameter array (one box per binding pointer and push
constant) filled in once; binding-table slots are boxes that each
submission writes (``bind(table)``, then enqueue).  Transfers on slots are
resolved per submission.  Every command of a submission goes on the
device's one stream with no host wait between them; one event at the end is
what the completion thread synchronises on.

Graphs: a run of two or more consecutive launches of a program that is
submitted a second time becomes one CUDA graph (kernel nodes in a chain,
``cuGraphInstantiateWithFlags``), and every later submission is one
``cuGraphLaunch`` of it, after ``cuGraphExecKernelNodeSetParams`` for each
node whose slot pointers differ from what the instantiated graph holds.
Launch parameters are copied by the driver when a launch is enqueued or a
node's parameters set, and one submit thread per device does both, so
bound programs of one template may be in flight together.  Where the
driver lacks the graph calls, or building a graph fails, the run stays a
list of ``cuLaunchKernel``s (``stats``: ``graph_failures``).

Untested on a GPU: the tests drive this on a stand-in libcuda
(``tests/hal/fake_libcuda.c``) that records the graph calls.
"""
from __future__ import annotations

import numpy as np

from tensorvm.vmfb.gpu_abi import CUDA as ABI

from ..command_buffer import Barrier, Copy, Dispatch, Fill, Update, is_slot
from ..errors import HalError

#: A run of at least this many consecutive launches becomes a graph.
GRAPH_MIN_LAUNCHES = 2


class GraphStats:
    """Graph counters of one device (written by its submit thread only)."""

    __slots__ = ("built", "launches", "node_updates", "failures")

    def __init__(self):
        self.built = self.launches = self.node_updates = self.failures = 0

    def as_dict(self) -> dict:
        return {"graphs_built": self.built, "graph_launches": self.launches,
                "graph_node_updates": self.node_updates, "graph_failures": self.failures}


class CudaProgram:
    """Prepared ops (``_Launch``, ``_GraphRun``, ``_SlotTransfer`` or a
    transfer function of the stream) and what they keep alive.  Unbound
    (no slots) it is its own template, with no table."""

    __slots__ = ("ops", "keep", "submitted")
    table = None

    def __init__(self, ops, keep):
        self.ops = ops
        self.keep = keep
        self.submitted = 0              # (by the submit thread: graphs from the second on)

    def bind(self, table, keep: bool = False) -> "_Bound":
        return _Bound(self, table, keep)

    @property
    def template(self) -> "CudaProgram":
        return self

    def release(self) -> None:
        pass


class _Bound:
    """A template program with one submission's binding table."""

    __slots__ = ("template", "table", "keep_table")

    def __init__(self, template, table, keep):
        self.template, self.table, self.keep_table = template, table, keep

    def release(self) -> None:
        if not self.keep_table:
            self.table = None


class _Launch:
    """One kernel launch: its parameter boxes; ``slot_args`` are
    ``(box index, slot, byte offset)`` written per submission."""

    __slots__ = ("fn", "grid", "block", "boxes", "params", "slot_args", "name", "node",
                 "node_params")

    def set_slots(self, table) -> bool:
        """Write the table's pointers into the slot boxes; True if any changed."""
        changed = False
        boxes = self.boxes
        for i, slot, off in self.slot_args:
            b = table[slot]
            ptr = b.device_ptr + off if b.device_ptr else 0
            if boxes[i][0] != ptr:
                boxes[i][0] = ptr
                changed = True
        return changed

    def launch(self, api, stream) -> None:
        (gx, gy, gz), (bx, by, bz) = self.grid, self.block
        rc = api.lib.cuLaunchKernel(self.fn, gx, gy, gz, bx, by, bz, 0, stream, self.params,
                                    api.ffi.NULL)
        if rc != 0:
            raise HalError(f"{self.name} failed to launch: {api.error_text(rc)}")


class _GraphRun:
    """Consecutive launches replayed as one CUDA graph (built on the second
    submission of their program; None: not yet, or not possible)."""

    __slots__ = ("launches", "graph", "exec", "api", "broken")

    def __init__(self, launches):
        self.launches = launches
        self.graph = self.exec = None
        self.broken = False

    def build(self, device) -> bool:
        api = device.api
        lib, ffi = api.lib, api.ffi
        self.api = api
        try:
            graph = api.out("CUgraph", lib.cuGraphCreate, 0, what="cuGraphCreate")
            self.graph = graph
            prev = ffi.new("CUgraphNode[1]")
            for k, run in enumerate(self.launches):
                p = ffi.new("CUDA_KERNEL_NODE_PARAMS*")
                p.func = run.fn
                p.gridDimX, p.gridDimY, p.gridDimZ = run.grid
                p.blockDimX, p.blockDimY, p.blockDimZ = run.block
                p.sharedMemBytes = 0
                p.kernelParams = run.params
                p.extra = ffi.NULL
                run.node_params = p
                run.node = api.out("CUgraphNode", lib.cuGraphAddKernelNode, graph,
                                   prev if k else ffi.NULL, 1 if k else 0, p,
                                   what="cuGraphAddKernelNode")
                prev[0] = run.node
            self.exec = api.out("CUgraphExec", lib.cuGraphInstantiateWithFlags, graph, 0,
                                what="cuGraphInstantiateWithFlags")
        except (AttributeError, HalError):     # no graph API in this driver, or it failed
            self.broken = True
            self._destroy()
            return False
        return True

    def launch(self, table, stream, stats) -> None:
        api = self.api
        lib = api.lib
        ex = self.exec
        for run in self.launches:
            if run.slot_args and run.set_slots(table):
                api.check(lib.cuGraphExecKernelNodeSetParams(ex, run.node, run.node_params),
                          "cuGraphExecKernelNodeSetParams")
                stats.node_updates += 1
        api.check(lib.cuGraphLaunch(ex, stream), "cuGraphLaunch")
        stats.launches += 1

    def _destroy(self) -> None:
        try:
            if self.exec is not None:
                self.api.lib.cuGraphExecDestroy(self.exec)
            if self.graph is not None:
                self.api.lib.cuGraphDestroy(self.graph)
        except Exception:   # noqa: BLE001 - interpreter shutdown, context gone
            pass
        self.exec = self.graph = None

    def __del__(self):
        self._destroy()


def _dispatch(device, cmd: Dispatch, keep):
    api, exe = device.api, cmd.executable
    wx, wy, wz = cmd.workgroups
    if not wx * wy * wz:
        return None
    ffi = api.ffi
    run = _Launch()
    # one box per kernel argument, at the index vmfb/gpu_abi.py gives it (the
    # binding offsets are added to the pointers here: the ABI has none)
    nb = len(cmd.bindings)
    slot_args, boxes = [], [None] * ABI.count(nb, len(cmd.constants))
    for i, (b, off, _) in enumerate(cmd.bindings):
        at = ABI.binding_arg(i)
        if is_slot(b):
            slot_args.append((at, b, off))
            boxes[at] = ffi.new("CUdeviceptr*", 0)
        else:
            boxes[at] = ffi.new("CUdeviceptr*", b.device_ptr + off if b.device_ptr else 0)
            keep.append(b.storage)
    for j, c in enumerate(cmd.constants):
        boxes[ABI.constant_arg(j, nb)] = ffi.new(f"{ABI.constant_ctype}*", c)
    run.boxes, run.slot_args = boxes, tuple(slot_args)
    run.params = ffi.new("void*[]", [ffi.cast("void*", p) for p in boxes] or [ffi.NULL])
    run.fn, run.grid = exe.functions[cmd.entry], (wx, wy, wz)
    run.block = (exe.local_sizes[cmd.entry], 1, 1)
    run.name = f"executable '{exe.name}' entry point '{exe.entry_points[cmd.entry]}'"
    run.node = run.node_params = None
    keep.append(exe)
    return run


def _transfer(device, cmd, keep):
    api = device.api
    lib, ffi = api.lib, api.ffi
    if isinstance(cmd, Fill):
        n, p = cmd.length, len(cmd.pattern)
        if not n:
            return None
        dst = cmd.buffer.device_ptr + cmd.offset
        keep.append(cmd.buffer.storage)
        if p == 8:
            host = np.frombuffer(cmd.pattern * (n // 8), np.uint8)
            keep.append(host)
            return lambda s: api.check(lib.cuMemcpyHtoDAsync_v2(dst, ffi.from_buffer(host), n, s),
                                       "fill (cuMemcpyHtoDAsync)")
        value = int.from_bytes(cmd.pattern, "little")
        fn = {1: lib.cuMemsetD8Async, 2: lib.cuMemsetD16Async, 4: lib.cuMemsetD32Async}[p]
        return lambda s: api.check(fn(dst, value, n // p, s), "fill (cuMemsetAsync)")
    if isinstance(cmd, Copy):
        n = cmd.length
        if not n:
            return None
        src, dst = cmd.src.device_ptr + cmd.src_offset, cmd.dst.device_ptr + cmd.dst_offset
        keep += [cmd.src.storage, cmd.dst.storage]
        if src < dst + n and dst < src + n:               # overlap: through a temporary
            tmp = device.allocator.allocate(n)
            keep.append(tmp)
            t = tmp.device_ptr

            def run(s):
                api.check(lib.cuMemcpyDtoDAsync_v2(t, src, n, s), "copy (cuMemcpyDtoDAsync)")
                api.check(lib.cuMemcpyDtoDAsync_v2(dst, t, n, s), "copy (cuMemcpyDtoDAsync)")
            return run
        return lambda s: api.check(lib.cuMemcpyDtoDAsync_v2(dst, src, n, s),
                                   "copy (cuMemcpyDtoDAsync)")
    if isinstance(cmd, Update):
        if not cmd.data:
            return None
        dst, data = cmd.dst.device_ptr + cmd.dst_offset, ffi.from_buffer(cmd.data)
        n = len(cmd.data)
        keep += [cmd.dst.storage, cmd.data, data]
        return lambda s: api.check(lib.cuMemcpyHtoDAsync_v2(dst, data, n, s),
                                   "update (cuMemcpyHtoDAsync)")
    raise HalError(f"the cuda driver cannot execute command {type(cmd).__name__}")


def _resolve(cmd, table):
    if isinstance(cmd, Fill):
        return cmd._replace(buffer=table[cmd.buffer])
    return cmd._replace(src=table[cmd.src] if is_slot(cmd.src) else cmd.src,
                        dst=table[cmd.dst] if is_slot(cmd.dst) else cmd.dst)


class _SlotTransfer:
    """A fill or copy on binding-table slots, resolved per submission."""

    __slots__ = ("cmd",)

    def __init__(self, cmd):
        self.cmd = cmd


def prepare(device, commands) -> CudaProgram:
    """Launches and transfers, once; runs of consecutive launches grouped
    for graphs; transfers on slots left to each submission."""
    ops, keep, run = [], [], []

    def end_run():
        if len(run) >= GRAPH_MIN_LAUNCHES:
            ops.append(_GraphRun(list(run)))
        else:
            ops.extend(run)
        run.clear()
    for cmd in commands:
        if isinstance(cmd, Barrier):
            continue                   # one stream: commands run in order
        if isinstance(cmd, Dispatch):
            op = _dispatch(device, cmd, keep)
            if op is not None:
                run.append(op)
            continue
        end_run()
        if any(is_slot(getattr(cmd, f, None)) for f in ("buffer", "src", "dst")):
            ops.append(_SlotTransfer(cmd))
            continue
        op = _transfer(device, cmd, keep)
        if op is not None:
            ops.append(op)
    end_run()
    return CudaProgram(ops, keep)


def enqueue_programs(device, programs):
    """Launch every program on the device's stream (graphs where built);
    return the waiter and the number of commands enqueued."""
    api = device.api
    stream, stats = device.stream, device.graph_stats
    count = 0
    for p in programs:
        template, table = p.template, p.table
        template.submitted += 1
        graphs = template.submitted >= 2
        for op in template.ops:
            cls = op.__class__
            if cls is _Launch:
                if op.slot_args:
                    op.set_slots(table)
                op.launch(api, stream)
                count += 1
            elif cls is _GraphRun:
                if graphs and op.exec is None and not op.broken:
                    if op.build(device):
                        stats.built += 1
                    else:
                        stats.failures += 1
                if op.exec is not None:
                    op.launch(table, stream, stats)
                else:
                    for run in op.launches:
                        if run.slot_args:
                            run.set_slots(table)
                        run.launch(api, stream)
                count += len(op.launches)
            elif cls is _SlotTransfer:
                fn = _transfer(device, _resolve(op.cmd, table), [])
                if fn is not None:
                    fn(stream)
                    count += 1
            else:
                op(stream)
                count += 1
    event = api.out("CUevent", api.lib.cuEventCreate, 2, what="cuEventCreate")
    api.check(api.lib.cuEventRecord(event, stream), "cuEventRecord")

    def done():
        try:
            api.check(api.lib.cuEventSynchronize(event), "execution (cuEventSynchronize)")
        finally:
            api.lib.cuEventDestroy_v2(event)
            for p in programs:
                p.release()
    return done, count
