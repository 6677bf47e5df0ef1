"""OpenCL C 1.2 target: the shared GPU renderer with OpenCL's spellings.

The program is OpenCL C source, built by the driver on the device at load.
OpenCL C has no <stdint.h>, no memcpy, no ``_Float16`` and no ``*f`` math
names (its math built-ins are overloaded), so the prologue supplies the
fixed-width typedefs, limits and math-name #defines, and the bit-casting
helpers are rewritten with ``as_*``, ``vload_half`` / ``vstore_half_rte``
(f16 is storage only: no cl_khr_fp16 needed), ``popcount`` and ``clz``.
Programs that touch f64 enable cl_khr_fp64 and record it as a required
extension; all others are rewritten to single precision so they also run on
devices without it (the double-typed float->int helpers become float ones).
"""
from __future__ import annotations

import re

from tensorvm.vmfb.model import EntryPoint

from . import gpu_loop, scalar, vector_math
from .c_style import helper_chunks, helper_name
from .gpu import GpuTarget
from .grids import GPU_MARKER

FORMAT = "opencl-c"

# C99 math functions used with an ``f`` suffix for float; OpenCL overloads
# the plain names instead.
MATH = """acos acosh asin asinh atan atan2 atanh cbrt ceil copysign cos cosh erf erfc exp exp2
exp10 expm1 fabs fdim floor fma fmax fmin fmod frexp hypot ilogb ldexp lgamma log log10 log1p
log2 logb modf nextafter pow remainder remquo rint round sin sinh sqrt tan tanh tgamma
trunc""".split()

_TYPES = """typedef char int8_t;
typedef uchar uint8_t;
typedef short int16_t;
typedef ushort uint16_t;
typedef int int32_t;
typedef uint uint32_t;
typedef long int64_t;
typedef ulong uint64_t;
#define INT8_MIN (-128)
#define INT16_MIN (-32768)
#define INT32_MIN (-2147483647 - 1)
#define INT64_MIN (-9223372036854775807L - 1)
#define INT8_MAX 127
#define INT16_MAX 32767
#define INT32_MAX 2147483647
#define INT64_MAX 9223372036854775807L
#define UINT8_MAX 255
#define UINT16_MAX 65535
#define UINT32_MAX 4294967295U
#define UINT64_MAX 18446744073709551615UL
#define nearbyint rint
#define nearbyintf rint
#define scalbn ldexp
#define scalbnf ldexp
#define __builtin_popcountll(x) ((int)popcount((ulong)(x)))
#define __builtin_clzll(x) ((int)clz((ulong)(x)))
"""


class OpenCLTarget(GpuTarget):
    name = "opencl"
    format = FORMAT
    f64_only = ("tvm_totalorder64",)        # as_long() needs a 64-bit operand
    cpu_device_macro = "TVM_CPU_DEVICE"     # hal/loaders/opencl_c.py: build_options
    float_math_suffix = ""                  # sqrt, not sqrtf: the built-ins are overloaded

    def vector_widths(self, ctype: str) -> tuple:
        # 256-bit vectors: PoCL maps them to AVX/NEON registers, GPUs to wide loads
        return (8, 4, 2) if ctype == "float" else (4, 2) if ctype == "double" else ()

    def prologue(self, needs_f64: bool) -> str:
        ext = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" if needs_f64 else ""
        maths = "".join(f"#define {m}f {m}\n" for m in MATH)
        return "/* tensorvm: OpenCL C 1.2 kernels */\n" + ext + _TYPES + maths

    def _bit_helpers(self) -> dict:
        return {
            "tvm_totalorder32": "static inline int32_t tvm_totalorder32(float a) "
                                "{ int32_t i = as_int(a); return i < 0 ? (i ^ INT32_MAX) : i; }",
            "tvm_totalorder64": "static inline int64_t tvm_totalorder64(double a) "
                                "{ int64_t i = as_long(a); return i < 0 ? (i ^ INT64_MAX) : i; }",
            "tvm_f16_to_f32": "static inline float tvm_f16_to_f32(uint16_t h) "
                              "{ return vload_half(0, (const half*)&h); }",
            "tvm_f32_to_f16": "static inline uint16_t tvm_f32_to_f16(float f) "
                              "{ uint16_t h; vstore_half_rte(f, 0, (half*)&h); return h; }",
            "tvm_bf16_to_f32": "static inline float tvm_bf16_to_f32(uint16_t h) "
                               "{ return as_float((uint32_t)h << 16); }",
            "tvm_f32_to_bf16": "static inline uint16_t tvm_f32_to_bf16(float f) "
                               "{ uint32_t u = as_uint(f); if ((u & 0x7fffffffu) > 0x7f800000u) "
                               "return (uint16_t)((u >> 16) | 0x40); u += 0x7fffu + ((u >> 16) & 1u); "
                               "return (uint16_t)(u >> 16); }",
        }

    def helper_overrides(self) -> dict:
        return {**self._bit_helpers(), **_cpu_device_math(self.cpu_device_macro)}

    def finish(self, source: str, needs_f64: bool) -> str:
        if needs_f64:
            return source
        # No f64 values: the doubles left are helpers that compute in double
        # for float operands (float->int conversions: exact in float too;
        # special functions: float accuracy, as f32 results need).
        return re.sub(r"\bdouble\b", "float", source)


def _cpu_device_math(macro: str) -> dict:
    """exp / tanh / logistic / erf / log helpers that compile to the built-ins
    on GPUs and to vector_math.py's straight-line polynomials on CPU devices
    (``macro``): PoCL's built-ins are calls its loop vectoriser leaves
    scalar, and a persistent loop kernel (one work-item, gpu_loop.py) gets
    no SIMD across work-items, so an LSTM's gates ran one element at a time."""
    scalar_chunks = {helper_name(c): c for c in helper_chunks(scalar.HELPERS)}
    vm = {helper_name(c): c for c in helper_chunks(vector_math.C) if helper_name(c)}
    vm["tvm_vm_bits"] = "static inline uint32_t tvm_vm_bits(float f) { return as_uint(f); }"
    vm["tvm_vm_float"] = "static inline float tvm_vm_float(uint32_t u) { return as_float(u); }"
    first = min(vector_math.NAMES, key=list(scalar_chunks).index)
    out = {}
    for name in vector_math.NAMES:
        cpu = vm[name] if name != first else "\n".join(
            vm[n] for n in ("tvm_vm_bits", "tvm_vm_float", "tvm_vm_pick", name))
        out[name] = f"#ifdef {macro}\n{cpu}\n#else\n{scalar_chunks[name].strip()}\n#endif"
    return out


TARGET = OpenCLTarget()


def build_opencl_executable(kernels: list, loops=(), entry_of=None):
    """(source bytes, target, entry points, workgroup counts, source text);
    ``loops`` (host/native_loop.NativeLoop) add one entry point each after
    the kernels (gpu_loop.py: the whole loop in one launch)."""
    source, counts, needs_f64 = TARGET.render_program(kernels)
    source, looped = gpu_loop.add_loops(TARGET, source, kernels, counts, needs_f64, loops, entry_of)
    entries = [EntryPoint(k.name, k.num_bindings, k.num_constant_words) for k in kernels] + looped
    entries.append(EntryPoint(GPU_MARKER, 0, 0))     # grids.py: the host's 'GPU variant' test
    target = {"language": "OpenCL C 1.2", "extensions": ["cl_khr_fp64"] if needs_f64 else [],
              "local_size": TARGET.local_size_hint}
    return source.encode("utf-8"), target, entries, counts, source
