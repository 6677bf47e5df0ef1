"""``opencl-c`` executables: OpenCL C source built on the device at load,
and the opencl driver's replayable form of a command buffer.

Kernel ABI (what tensorvm's OpenCL renderer emits; hand-written kernels
follow it too): for bindings ``0..n-1`` the ``cl_mem`` arguments, then ``n``
``ulong`` byte offsets (one per binding, the binding's offset), then the push
constants as ``uint``.  A dispatch of ``(x, y, z)`` workgroups enqueues an
NDRange of global size ``(x * L, y, z)`` and local size ``(L, 1, 1)``, where
``L`` is the variant's ``target["local_size"]`` (default 64) capped by what
the kernel allows; the kernel strides its threads over the workgroup's work.

A kernel may report failure, as a CPU kernel does with a nonzero return: one
more parameter after the push constants, ``__global uint* tvm_status`` (known
by its name: programs build with ``-cl-kernel-arg-info``), gets a word zeroed
for each launch; a nonzero value written there fails the
submission with "executable 'E' entry point 'K' failed with code N" (the
commands after it in the submission have run by then: OpenCL cannot stop a
queue).  Only kernels that take the parameter pay for it (a 4-byte buffer per
launch and a read when the submission completes).
"""
from __future__ import annotations

import hashlib
import warnings

import numpy as np

from tensorvm.vmfb import source_check
from ..command_buffer import Barrier, Copy, Dispatch, Fill, Update, is_slot
from ..errors import ExecutableRejectedError, HalError
from ..executable import Executable

FORMAT = "opencl-c"
BUILD_OPTIONS = ["-cl-std=CL1.2", "-cl-kernel-arg-info"]
#: The name of a kernel's optional last parameter, its status word (module docstring).
STATUS_PARAM = "tvm_status"
# Defined when building for a CPU device (PoCL...): tensorvm's kernels then
# take their CPU forms (barrier-free, per-thread vectors) under #ifdef.
# Set False to build the GPU forms on CPU devices too (tests of those forms on PoCL).
CPU_DEVICE_MACRO = "TVM_CPU_DEVICE"
CPU_FORMS = True


def build_options(cl_device) -> list:
    """Build options for ``cl_device``: BUILD_OPTIONS, plus
    ``-DTVM_CPU_DEVICE`` where the device is a CPU (and CPU_FORMS is set)."""
    import pyopencl as cl
    cpu = CPU_FORMS and bool(cl_device.type & cl.device_type.CPU)
    return BUILD_OPTIONS + ([f"-D{CPU_DEVICE_MACRO}"] if cpu else [])
DEFAULT_LOCAL_SIZE = 64
_PATTERN = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


class OpenCLExecutable(Executable):
    """A built cl.Program, the local size of each entry point and, per entry
    point, the free ``cl.Kernel`` objects (creating one costs ~0.1 ms in
    pyopencl, more than a small dispatch runs, and host code that records
    its command buffer per call would pay it per dispatch per call)."""

    def __init__(self, device, name, entry_points, program, local_sizes, kernels):
        super().__init__(device, name, FORMAT, entry_points)
        self.program = program
        self.local_sizes = local_sizes
        self.free_kernels = [[k] for k in kernels]
        # per entry point: the index of its status word parameter, or None
        self.status_args = [_status_arg(k.kernel) for k in kernels]

    def take_kernel(self, entry: int) -> "_Kernel":
        try:
            return self.free_kernels[entry].pop()
        except IndexError:
            import pyopencl as cl
            return _Kernel(cl.Kernel(self.program, self.entry_points[entry]))


class _Kernel:
    """A ``cl.Kernel`` and the argument values last set on it: setting a
    scalar argument costs microseconds in pyopencl, so unchanged ones are
    skipped (a reused kernel usually gets the arguments it had)."""

    __slots__ = ("kernel", "args")

    def __init__(self, kernel):
        self.kernel = kernel
        self.args = [None] * kernel.num_args

    def set_buffer(self, i: int, mem) -> None:
        if self.args[i] is not mem:
            self.kernel.set_arg(i, mem)
            self.args[i] = mem

    def set_scalar(self, i: int, value: int, dtype) -> None:
        if self.args[i] != value:
            self.kernel.set_arg(i, dtype(value))
            self.args[i] = value


def _build_log(exc) -> str:
    text = str(exc)
    marker = text.find("Build on")
    if marker >= 0:
        text = text[marker:].split("\n", 1)[-1]
    return text.strip() or "(the OpenCL compiler gave no log)"


def check_source(name: str, text: str) -> None:
    """Refuse OpenCL C that would read other files while it builds (the trust
    model, docs/security.md): ``#include`` reaches any path the process can
    read, whatever the build's include paths.  The rules, applied after the
    preprocessor's own first phases (trigraphs, line splices, comments,
    digraphs), are tensorvm.vmfb.source_check's."""
    found = source_check.check(text)
    if found is not None:
        raise ExecutableRejectedError(
            f"executable '{name}' (opencl-c) rejected at load: "
            + rejection_text(found) + "; modules must be self-contained",
            executable=name, reason=f"{found.reason} in OpenCL source")


def rejection_text(found) -> str:
    """What a refused kernel source does, for an error message."""
    what = ("its source includes another file" if found.reason in source_check.READS_FILE
            else "its source has a construct the trust model refuses")
    return f"{what} (line {found.line}: {found.detail})"


def build_program(device, name: str, source: bytes):
    """The cl.Program for ``source`` on ``device``, built once per physical
    device (the cache is shared by every HAL device on it)."""
    import pyopencl as cl
    shared = device._shared
    options = build_options(device.cl_device)
    key = hashlib.sha256(bytes(source) + "\0".join(options).encode()).digest()
    with shared.lock:
        program = shared.programs.get(key)
        if program is not None:
            return program
        try:
            text = bytes(source).decode("utf-8")
        except UnicodeDecodeError as e:
            raise HalError(f"executable '{name}': opencl-c data is not UTF-8 OpenCL C "
                           f"source (byte {e.start})") from None
        check_source(name, text)
        try:
            with warnings.catch_warnings():     # compiler chatter on success is not news
                warnings.simplefilter("ignore", cl.CompilerWarning)
                # cache_dir=False: pyopencl's own binary cache (used where the
                # driver has none, e.g. AMD's and Intel's) hashes every file
                # that a line '#include "f"' names, comments included, so it
                # would open any file, even a FIFO that blocks the load.
                program = cl.Program(device.context, text).build(
                    options=options, devices=[device.cl_device], cache_dir=False)
        except cl.Error as e:
            raise HalError(f"executable '{name}': OpenCL C build failed on device "
                           f"'{device.name}' ({device.description}):\n{_build_log(e)}") from None
        shared.programs[key] = program
        shared.builds += 1
        return program


def _status_arg(kernel):
    """The index of ``kernel``'s status word (its last parameter, if named
    STATUS_PARAM), or None."""
    import pyopencl as cl
    n = kernel.num_args
    try:
        last = kernel.get_arg_info(n - 1, cl.kernel_arg_info.NAME) if n else None
    except cl.Error:                      # (no argument info: no status word)
        return None
    return n - 1 if last == STATUS_PARAM else None


def load(device, name, data, entry_points, target) -> OpenCLExecutable:
    import pyopencl as cl
    needed = [e for e in target.get("extensions", ()) if e not in device.extensions]
    if needed:
        raise HalError(f"executable '{name}' needs the OpenCL extension(s) {', '.join(needed)}, "
                       f"which device '{device.name}' ({device.description}) does not support "
                       f"(it uses f64 values: recompile without them for this device)")
    program = build_program(device, name, bytes(data))
    want = int(target.get("local_size", DEFAULT_LOCAL_SIZE))
    local_sizes, kernels = [], []
    for entry in entry_points:
        try:
            kernel = cl.Kernel(program, entry)
        except cl.Error:
            raise HalError(f"executable '{name}' has no kernel '{entry}' "
                           f"(its OpenCL program defines {program.kernel_names!r})") from None
        limit = kernel.get_work_group_info(cl.kernel_work_group_info.WORK_GROUP_SIZE,
                                           device.cl_device)
        local_sizes.append(max(1, min(want, int(limit))))
        kernels.append(_Kernel(kernel))
    return OpenCLExecutable(device, name, entry_points, program, local_sizes, kernels)


class OpenCLProgram:
    """A finalized command buffer: enqueue ops, in order, and the
    host-shared buffers to make coherent after it ran.

    Dispatches hold a ``cl.Kernel`` each, its arguments set once here; a
    command buffer recorded against binding-table slots keeps those
    arguments open and ``bind(table)`` returns the program for one
    submission, whose enqueue sets only the slot arguments.  A kernel's
    arguments are captured at enqueue (clSetKernelArg semantics), and one
    device enqueues from one thread, so bound programs of one template may
    be in flight together."""

    __slots__ = ("ops", "shared", "slots", "table")

    def __init__(self, ops, shared, slots=(), table=None):
        self.ops = ops
        self.shared = shared
        self.slots = slots        # (op index, [(arg, slot, offset)], written slots) per slot op
        self.table = table

    def bind(self, table) -> "OpenCLProgram":
        shared = list(self.shared)
        for _, _, written in self.slots:
            for slot in written:
                b = table[slot]
                if b.host_shared and b.writable and b.mem is not None:
                    shared.append((b.mem, b.host.nbytes))
        return OpenCLProgram(self.ops, shared, self.slots, table)

    def release(self) -> None:
        self.table = None


class _Launch:
    """One dispatch: its kernel (taken from the executable's free list,
    returned when the program goes), grid and the slot arguments that each
    submission fills in (``(arg index, slot, byte offset)``)."""

    __slots__ = ("device", "exe", "entry", "kernel", "gsize", "lsize", "nbindings",
                 "slot_args", "name", "status_arg")

    def __call__(self, q, table=None):
        """Enqueue the kernel; returns its status word's buffer (kernels that
        report failure) or None."""
        import pyopencl as cl
        k = self.kernel
        if self.slot_args:
            n = self.nbindings
            for i, slot, off in self.slot_args:
                b = table[slot]
                k.set_buffer(i, _mem(self.device, b))
                k.set_scalar(n + i, b.offset + off, np.uint64)
        status = None
        try:
            if self.status_arg is not None:
                status = cl.Buffer(self.device.context,
                                   cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR,
                                   hostbuf=np.zeros(1, np.uint32))
                k.set_buffer(self.status_arg, status)
            cl.enqueue_nd_range_kernel(q, k.kernel, self.gsize, self.lsize)
        except cl.Error as e:
            raise HalError(f"{self.name} failed to launch: {e}") from None
        return status

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
    run.device, run.exe, run.entry, run.name, run.nbindings = device, exe, cmd.entry, what, nb
    run.kernel = kernel                   # back to the free list with ``run``
    run.status_arg = exe.status_args[cmd.entry]
    nargs = len(kernel.args) - (run.status_arg is not None)
    if nargs != 2 * nb + len(cmd.constants):
        raise HalError(f"{what}: {nb} bindings and {len(cmd.constants)} constants do not match "
                       f"the kernel's parameters: the kernel takes {nargs} arguments, "
                       f"not {2 * nb + len(cmd.constants)}")
    slot_args = []
    try:
        for i, (b, off, _) in enumerate(cmd.bindings):
            if is_slot(b):
                slot_args.append((i, b, off))
                continue
            kernel.set_buffer(i, _mem(device, b))
            kernel.set_scalar(nb + i, b.offset + off, np.uint64)
        for j, c in enumerate(cmd.constants):
            kernel.set_scalar(2 * nb + j, c, np.uint32)
    except (cl.Error, TypeError, ValueError) as e:
        raise HalError(f"{what}: {nb} bindings and {len(cmd.constants)} constants do not match "
                       f"the kernel's parameters: {e}") from None
    run.gsize, run.lsize = (wx * local, wy, wz), (local, 1, 1)
    run.slot_args = tuple(slot_args)
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
    """Enqueue every program on ``device``'s queue; return the function that
    waits for them."""
    import pyopencl as cl
    queue = device.queue
    statuses = []                         # (status word, what) of the launches that have one
    for p in programs:
        table = p.table
        transfers = {i: cmd for i, cmd, _ in p.slots if cmd is not None}
        for i, op in enumerate(p.ops):
            if op is None:
                op = _transfer(device, _resolve(transfers[i], table))
                if op is not None:
                    op(queue)
            elif op.__class__ is _Launch:
                word = op(queue, table)
                if word is not None:
                    statuses.append((word, op.name))
            else:
                op(queue)
    marker = cl.enqueue_marker(queue)
    shared = [s for p in programs for s in p.shared]

    def done():
        marker.wait()
        status = marker.command_execution_status
        if status < 0:
            raise HalError(f"OpenCL execution failed with status {status}")
        for mem, size in shared:          # make device writes visible in host memory
            host, _ = cl.enqueue_map_buffer(queue, mem, cl.map_flags.READ, 0, (size,), np.uint8)
            host.base.release(queue)
        for p in programs:
            p.release()
        for word, name in statuses:       # the first kernel that reported failure
            code = np.zeros(1, np.uint32)
            cl.enqueue_copy(queue, code, word, is_blocking=True)
            if code[0]:
                raise HalError(f"{name} failed with code {int(code[0])}")
    return done
