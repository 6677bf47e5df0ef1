"""CUDA target: the shared GPU renderer with CUDA C++ spellings, compiled
to PTX at compile time (nvcc; there is no NVRTC path) and checked with
``ptxas`` (where installed) so a broken kernel fails here, not on the
user's GPU.

Kernels are ``extern "C" __global__`` functions taking the bindings as device
pointers (the driver applies binding offsets on the host), then the push
constants.  Helpers become ``__device__`` functions; f16 conversions use
cuda_fp16.h.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile

from tensorvm.vmfb import gpu_abi
from tensorvm.vmfb.model import EntryPoint

from ..errors import CompileError
from . import gpu_loop
from .gpu import GpuTarget
from .grids import GPU_MARKER

FORMAT = "cuda-ptx"
DEFAULT_ARCH = "sm_80"

_PROLOGUE = """/* tensorvm: CUDA C++ kernels */
#include <stdint.h>
#include <string.h>
#include <math.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <mma.h>
#define restrict __restrict__
#define __builtin_popcountll(x) __popcll((unsigned long long)(x))
#define __builtin_clzll(x) __clzll((long long)(x))
"""


class CudaTarget(GpuTarget):
    name = "cuda"
    format = FORMAT
    kernel_qualifier = 'extern "C" __global__ void'
    global_space = ""
    restrict = "__restrict__"
    group_id = "blockIdx.x"
    local_id = "threadIdx.x"
    local_size = "blockDim.x"
    abi = gpu_abi.CUDA
    helper_qualifier = "static __device__ __forceinline__"
    device_qualifier = "__device__ "
    table_prefix = "static __device__ const "
    local_size_hint = 128
    shared_space = "__shared__ "
    barrier = "__syncthreads();"

    # tensor cores through WMMA (gpu_mma.py): f16 from Volta (sm_70), bf16
    # from Ampere (sm_80); nvcc keeps the branch of the arch it compiles for
    mma_align = "__align__(32)"
    _MMA_ARCH = {"f16": 700, "bf16": 800}
    _MMA_TYPE = {"f16": "__half", "bf16": "__nv_bfloat16"}

    def mma_guard(self, element: str):
        arch = self._MMA_ARCH.get(element)
        return None if arch is None else f"defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= {arch}"

    def mma_declare(self, element: str, a: list, b: list, acc: list) -> list:
        t, w = self._MMA_TYPE[element], "nvcuda::wmma"
        return [f"  {w}::fragment<{w}::matrix_a, 16, 16, 16, {t}, {w}::row_major> {', '.join(a)};",
                f"  {w}::fragment<{w}::matrix_b, 16, 16, 16, {t}, {w}::row_major> {', '.join(b)};",
                f"  {w}::fragment<{w}::accumulator, 16, 16, 16, float> {', '.join(acc)};"]

    def mma_zero(self, acc: str) -> str:
        return f"nvcuda::wmma::fill_fragment({acc}, 0.0f);"

    def mma_load(self, element: str, frag: str, pointer: str, ld: int) -> str:
        return f"nvcuda::wmma::load_matrix_sync({frag}, (const {self._MMA_TYPE[element]}*)({pointer}), {ld});"

    def mma_step(self, acc: str, a: str, b: str) -> str:
        return f"nvcuda::wmma::mma_sync({acc}, {a}, {b}, {acc});"

    def mma_store(self, pointer: str, acc: str, ld: int) -> str:
        return f"nvcuda::wmma::store_matrix_sync({pointer}, {acc}, {ld}, nvcuda::wmma::mem_row_major);"

    def prologue(self, needs_f64: bool) -> str:
        return _PROLOGUE

    def bitcast_f32(self, bits: str) -> str:
        return f"__uint_as_float((unsigned int){bits})"

    def bitcast_f64(self, bits: str) -> str:
        return f"__longlong_as_double((long long){bits})"

    def helper_overrides(self) -> dict:
        return {
            "tvm_f16_to_f32": "static inline float tvm_f16_to_f32(uint16_t h) "
                              "{ return __half2float(__ushort_as_half(h)); }",
            "tvm_f32_to_f16": "static inline uint16_t tvm_f32_to_f16(float f) "
                              "{ return __half_as_ushort(__float2half_rn(f)); }",
        }


TARGET = CudaTarget()


def _tool(name: str):
    path = shutil.which(name)
    if path is None and os.path.exists(f"/usr/local/cuda/bin/{name}"):
        path = f"/usr/local/cuda/bin/{name}"
    return path


def have_toolchain() -> str | None:
    """None when nvcc and ptxas are usable, else what is missing."""
    missing = [t for t in ("nvcc", "ptxas") if _tool(t) is None]
    return None if not missing else f"{' and '.join(missing)} not found on PATH"


def compile_ptx(source: str, arch: str = DEFAULT_ARCH) -> str:
    """CUDA C++ -> PTX text for ``arch`` (nvcc), verified by ptxas."""
    if not re.fullmatch(r"sm_\d+[a-z]?", arch):
        raise CompileError(f"--cuda-arch must look like sm_80, got {arch!r}")
    nvcc, ptxas = _tool("nvcc"), _tool("ptxas")
    if nvcc is None:
        raise CompileError("the cuda target needs nvcc (the CUDA toolkit) on PATH or in "
                           "/usr/local/cuda/bin")
    with tempfile.TemporaryDirectory(prefix="tensorvm-cuda-") as tmp:
        cu, ptx = os.path.join(tmp, "kernels.cu"), os.path.join(tmp, "kernels.ptx")
        with open(cu, "w") as f:
            f.write(source)
        cmd = [nvcc, "-ptx", f"--gpu-architecture={arch}", "-O3", "-std=c++17", cu, "-o", ptx]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            raise CompileError(f"nvcc failed on generated CUDA kernels ({arch}):\n"
                               + (proc.stderr or proc.stdout)[-4000:])
        with open(ptx) as f:
            text = f.read()
        if ptxas is not None:
            check = subprocess.run([ptxas, f"--gpu-name={arch}", ptx, "-o",
                                    os.path.join(tmp, "kernels.cubin")],
                                   capture_output=True, text=True)
            if check.returncode != 0:
                raise CompileError(f"ptxas rejected the generated PTX ({arch}):\n"
                                   + (check.stderr or check.stdout)[-4000:])
    return text


def build_cuda_executable(kernels: list, arch: str = DEFAULT_ARCH, loops=(), entry_of=None):
    """(PTX bytes, target, entry points, workgroup counts, CUDA source);
    ``loops`` (host/native_loop.NativeLoop) add one entry point each after
    the kernels (gpu_loop.py: the whole loop in one launch)."""
    source, counts, needs_f64 = TARGET.render_program(kernels)
    source, looped = gpu_loop.add_loops(TARGET, source, kernels, counts, needs_f64, loops, entry_of)
    ptx = compile_ptx(source, arch)
    m = re.search(r"^\.version\s+(\S+)", ptx, re.M)
    entries = [EntryPoint(k.name, k.num_bindings, k.num_constant_words) for k in kernels] + looped
    entries.append(EntryPoint(GPU_MARKER, 0, 0))     # grids.py: the host's 'GPU variant' test
    target = {"arch": arch, "ptx_version": m.group(1) if m else None,
              "local_size": TARGET.local_size_hint}
    return ptx.encode("utf-8"), target, entries, counts, source
