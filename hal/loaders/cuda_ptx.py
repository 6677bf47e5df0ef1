"""``cuda-ptx`` executables (PTX text JIT-compiled by the driver at load) and
the cuda driver's replayable form of a command buffer.

Kernel ABI (what tensorvm's CUDA renderer emits): ``extern "C" __global__``
functions taking one device pointer per binding (the binding offset already
applied) and then the push constants as ``uint32_t``.  A dispatch of
``(x, y, z)`` workgroups launches a grid of ``(x, y, z)`` blocks of
``(L, 1, 1)`` threads, ``L`` = the variant's ``target["local_size"]``
(default 128) capped by the function's limit.
"""
from __future__ import annotations

import hashlib
import re

import numpy as np

from ..command_buffer import Barrier, Copy, Dispatch, Fill, Update
from ..errors import HalError
from ..executable import Executable

FORMAT = "cuda-ptx"
DEFAULT_LOCAL_SIZE = 128
_LOG_BYTES = 16384


class CudaExecutable(Executable):
    def __init__(self, device, name, entry_points, module, functions, local_sizes):
        super().__init__(device, name, FORMAT, entry_points)
        self.module = module
        self.functions = functions
        self.local_sizes = local_sizes


def _module(device, name, data: bytes):
    """cuModuleLoadDataEx, once per GPU and PTX text."""
    api = device.api
    ffi = api.ffi
    cache, lock = device.modules
    key = hashlib.sha256(data).digest()
    with lock:
        mod = cache.get(key)
        if mod is not None:
            return mod
        log = ffi.new("char[]", _LOG_BYTES)
        opts = ffi.new("int[]", [5, 6])           # JIT error log buffer and its size
        vals = ffi.new("void*[]", [log, ffi.cast("void*", _LOG_BYTES)])
        box = ffi.new("CUmodule*")
        image = ffi.new("char[]", data)           # NUL-terminated PTX
        device.make_current()
        rc = api.lib.cuModuleLoadDataEx(box, image, 2, opts, vals)
        if rc != 0:
            text = ffi.string(log).decode(errors="replace").strip()
            raise HalError(f"executable '{name}': the CUDA driver could not load its PTX on "
                           f"'{device.name}' ({device.description}): {api.error_text(rc)}"
                           + (f"\n{text}" if text else ""))
        cache[key] = box[0]
        return box[0]


def load(device, name, data, entry_points, target) -> CudaExecutable:
    api = device.api
    arch = str(target.get("arch", "sm_50"))
    m = re.fullmatch(r"sm_(\d+)(\d)[a-z]?", arch)
    if m is not None:
        need = (int(m.group(1)), int(m.group(2)))
        if tuple(device.compute_capability) < need:
            major, minor = device.compute_capability
            raise HalError(f"executable '{name}' was compiled for {arch}, but device "
                           f"'{device.name}' ({device.description}) is sm_{major}{minor}; "
                           f"recompile with --cuda-arch=sm_{major}{minor}")
    module = _module(device, name, bytes(data))
    want = int(target.get("local_size", DEFAULT_LOCAL_SIZE))
    functions, local_sizes = [], []
    for entry in entry_points:
        box = api.ffi.new("CUfunction*")
        rc = api.lib.cuModuleGetFunction(box, module, entry.encode())
        if rc != 0:
            raise HalError(f"executable '{name}' has no kernel '{entry}' "
                           f"({api.error_text(rc)})")
        limit = api.out("int", api.lib.cuFuncGetAttribute, 0, box[0],
                        what="cuFuncGetAttribute")
        functions.append(box[0])
        local_sizes.append(max(1, min(want, limit)))
    return CudaExecutable(device, name, entry_points, module, functions, local_sizes)


class CudaProgram:
    __slots__ = ("ops", "keep")

    def __init__(self, ops, keep):
        self.ops = ops
        self.keep = keep


def _dispatch(device, cmd: Dispatch, keep):
    api, exe = device.api, cmd.executable
    wx, wy, wz = cmd.workgroups
    if not wx * wy * wz:
        return None
    ffi = api.ffi
    boxes = [ffi.new("CUdeviceptr*", b.device_ptr + off if b.device_ptr else 0)
             for b, off, _ in cmd.bindings]
    boxes += [ffi.new("uint32_t*", c) for c in cmd.constants]
    params = ffi.new("void*[]", [ffi.cast("void*", p) for p in boxes] or [ffi.NULL])
    keep += [boxes, params] + [b.storage for b, _, _ in cmd.bindings]
    fn, local = exe.functions[cmd.entry], exe.local_sizes[cmd.entry]
    entry = exe.entry_points[cmd.entry]

    def run(stream):
        rc = api.lib.cuLaunchKernel(fn, wx, wy, wz, local, 1, 1, 0, stream, params, ffi.NULL)
        if rc != 0:
            raise HalError(f"executable '{exe.name}' entry point '{entry}' failed to launch: "
                           f"{api.error_text(rc)}")
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


def prepare(device, commands) -> CudaProgram:
    ops, keep = [], []
    for cmd in commands:
        if isinstance(cmd, Barrier):
            continue                   # one stream: commands run in order
        op = _dispatch(device, cmd, keep) if isinstance(cmd, Dispatch) \
            else _transfer(device, cmd, keep)
        if op is not None:
            ops.append(op)
    return CudaProgram(ops, keep)


def enqueue_programs(device, programs):
    """Launch every program on the device's stream; return the waiter."""
    api = device.api
    stream = device.stream
    for p in programs:
        for op in p.ops:
            op(stream)
    event = api.out("CUevent", api.lib.cuEventCreate, 2, what="cuEventCreate")
    api.check(api.lib.cuEventRecord(event, stream), "cuEventRecord")

    def done():
        try:
            api.check(api.lib.cuEventSynchronize(event), "execution (cuEventSynchronize)")
        finally:
            api.lib.cuEventDestroy_v2(event)
    return done
