"""``cuda-ptx`` executables: PTX text JIT-compiled by the driver at load (the
driver's replayable form of a command buffer is
``hal/drivers/cuda_program.py``).

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
