"""``opencl-c`` executables: OpenCL C source built on the device at load,
and the opencl driver's replayable form of a command buffer.

Kernel ABI (what tensorvm's OpenCL renderer emits; hand-written kernels
follow it too): for bindings ``0..n-1`` the ``cl_mem`` arguments, then ``n``
``ulong`` byte offsets (one per binding, the binding's offset), then the push
constants as ``uint``.  A dispatch of ``(x, y, z)`` workgroups enqueues an
NDRange of global size ``(x * L, y, z)`` and local size ``(L, 1, 1)``, where
``L`` is the variant's ``target["local_size"]`` (default 64) capped by what
the kernel allows; the kernel strides its threads over the workgroup's work.
"""
from __future__ import annotations

import hashlib
import warnings

import numpy as np

from ..command_buffer import Barrier, Copy, Dispatch, Fill, Update
from ..errors import HalError
from ..executable import Executable

FORMAT = "opencl-c"
BUILD_OPTIONS = ["-cl-std=CL1.2"]
DEFAULT_LOCAL_SIZE = 64
_PATTERN = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


class OpenCLExecutable(Executable):
    """A built cl.Program and the local size of each entry point."""

    def __init__(self, device, name, entry_points, program, local_sizes):
        super().__init__(device, name, FORMAT, entry_points)
        self.program = program
        self.local_sizes = local_sizes


def _build_log(exc) -> str:
    text = str(exc)
    marker = text.find("Build on")
    if marker >= 0:
        text = text[marker:].split("\n", 1)[-1]
    return text.strip() or "(the OpenCL compiler gave no log)"


def build_program(device, name: str, source: bytes):
    """The cl.Program for ``source`` on ``device``, built once per physical
    device (the cache is shared by every HAL device on it)."""
    import pyopencl as cl
    shared = device._shared
    key = hashlib.sha256(source).digest()
    with shared.lock:
        program = shared.programs.get(key)
        if program is not None:
            return program
        try:
            text = bytes(source).decode("utf-8")
        except UnicodeDecodeError as e:
            raise HalError(f"executable '{name}': opencl-c data is not UTF-8 OpenCL C "
                           f"source (byte {e.start})") from None
        try:
            with warnings.catch_warnings():     # compiler chatter on success is not news
                warnings.simplefilter("ignore", cl.CompilerWarning)
                program = cl.Program(device.context, text).build(options=BUILD_OPTIONS,
                                                                  devices=[device.cl_device])
        except cl.Error as e:
            raise HalError(f"executable '{name}': OpenCL C build failed on device "
                           f"'{device.name}' ({device.description}):\n{_build_log(e)}") from None
        shared.programs[key] = program
        shared.builds += 1
        return program


def load(device, name, data, entry_points, target) -> OpenCLExecutable:
    import pyopencl as cl
    needed = [e for e in target.get("extensions", ()) if e not in device.extensions]
    if needed:
        raise HalError(f"executable '{name}' needs the OpenCL extension(s) {', '.join(needed)}, "
                       f"which device '{device.name}' ({device.description}) does not support "
                       f"(it uses f64 values: recompile without them for this device)")
    program = build_program(device, name, bytes(data))
    want = int(target.get("local_size", DEFAULT_LOCAL_SIZE))
    local_sizes = []
    for entry in entry_points:
        try:
            kernel = cl.Kernel(program, entry)
        except cl.Error:
            raise HalError(f"executable '{name}' has no kernel '{entry}' "
                           f"(its OpenCL program defines {program.kernel_names!r})") from None
        limit = kernel.get_work_group_info(cl.kernel_work_group_info.WORK_GROUP_SIZE,
                                           device.cl_device)
        local_sizes.append(max(1, min(want, int(limit))))
    return OpenCLExecutable(device, name, entry_points, program, local_sizes)


class OpenCLProgram:
    """A finalized command buffer: enqueue functions, in order, and the
    host-shared buffers to make coherent after it ran."""

    __slots__ = ("ops", "shared")

    def __init__(self, ops, shared):
        self.ops = ops
        self.shared = shared


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
    kernel = cl.Kernel(exe.program, entry)
    args = [_mem(device, b) for b, _, _ in cmd.bindings]
    args += [np.uint64(b.offset + off) for b, off, _ in cmd.bindings]
    args += [np.uint32(c) for c in cmd.constants]
    try:
        if kernel.num_args != len(args):
            raise ValueError(f"the kernel takes {kernel.num_args} arguments, not {len(args)}")
        kernel.set_args(*args)
    except (cl.Error, TypeError, ValueError) as e:
        raise HalError(f"executable '{exe.name}' entry point '{entry}': {len(cmd.bindings)} "
                       f"bindings and {len(cmd.constants)} constants do not match the "
                       f"kernel's parameters: {e}") from None
    gsize, lsize = (wx * local, wy, wz), (local, 1, 1)

    def run(q):
        try:
            cl.enqueue_nd_range_kernel(q, kernel, gsize, lsize)
        except cl.Error as e:
            raise HalError(f"executable '{exe.name}' entry point '{entry}' failed to "
                           f"launch: {e}") from None
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
    """Build the kernels and arguments of every command once (finalize)."""
    ops, shared = [], {}
    for cmd in commands:
        if isinstance(cmd, Barrier):
            continue                      # one in-order queue: commands never overlap
        if isinstance(cmd, Dispatch):
            op = _dispatch(device, cmd)
            written = [b for b, _, _ in cmd.bindings]
        else:
            op = _transfer(device, cmd)
            written = [getattr(cmd, "buffer", None) or getattr(cmd, "dst", None)]
        for b in written:
            if getattr(b, "host_shared", False) and b.writable and b.mem is not None:
                shared[id(b.mem)] = (b.mem, b.host.nbytes)
        if op is not None:
            ops.append(op)
    return OpenCLProgram(ops, list(shared.values()))


def enqueue_programs(queue, programs):
    """Enqueue every program; return the function that waits for them."""
    import pyopencl as cl
    for p in programs:
        for op in p.ops:
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
    return done
