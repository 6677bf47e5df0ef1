"""Small C kernels for the HAL tests, compiled with the system C compiler.

They follow the CPU executable ABI of docs/internals.md §5; the bytes are what
a ``cpu-c-<arch>`` executable variant carries.
"""
from __future__ import annotations

import functools
import os
import shutil
import subprocess
import tempfile

ABI = r"""
#include <stdint.h>
typedef struct tvm_dispatch_state {
  void* const* bindings;
  const uint64_t* binding_lengths;
  const uint32_t* constants;
  uint32_t workgroup_count[3];
} tvm_dispatch_state_t;
"""

# binding 0: float in, binding 1: float out; constant 0: element count,
# constant 1: elements per workgroup.  out = in * 2 + 1.
# fail_at: returns 7 when asked to run workgroup == constants[2] (if != ~0).
# record_tid: binding 0 is int64 per workgroup <- thread id; binding 1 is a
# uint32 counter of native calls; each call sleeps 2 ms (record_tid_slow: 20 ms,
# for timing policies that must not depend on scheduling jitter).
SOURCE = ABI + r"""
#define _GNU_SOURCE
#include <unistd.h>
#include <sys/syscall.h>
int scale(const tvm_dispatch_state_t* s, uint32_t begin, uint32_t end) {
  const float* in = (const float*)s->bindings[0];
  float* out = (float*)s->bindings[1];
  uint32_t n = s->constants[0], per = s->constants[1];
  for (uint32_t wg = begin; wg < end; ++wg) {
    uint32_t lo = wg * per, hi = lo + per < n ? lo + per : n;
    for (uint32_t i = lo; i < hi; ++i) out[i] = in[i] * 2.0f + 1.0f;
  }
  return 0;
}
int fail_at(const tvm_dispatch_state_t* s, uint32_t begin, uint32_t end) {
  uint32_t bad = s->constants[0];
  for (uint32_t wg = begin; wg < end; ++wg) if (wg == bad) return 7;
  return 0;
}
static int record(const tvm_dispatch_state_t* s, uint32_t begin, uint32_t end, unsigned us) {
  int64_t* tids = (int64_t*)s->bindings[0];
  uint32_t* calls = (uint32_t*)s->bindings[1];
  __atomic_fetch_add(calls, 1, __ATOMIC_SEQ_CST);
  int64_t tid = (int64_t)syscall(SYS_gettid);
  for (uint32_t wg = begin; wg < end; ++wg) tids[wg] = tid;
  usleep(us);
  return 0;
}
int record_tid(const tvm_dispatch_state_t* s, uint32_t begin, uint32_t end) {
  return record(s, begin, end, 2000);
}
int record_tid_slow(const tvm_dispatch_state_t* s, uint32_t begin, uint32_t end) {
  return record(s, begin, end, 20000);
}
int grid_ids(const tvm_dispatch_state_t* s, uint32_t begin, uint32_t end) {
  uint32_t* out = (uint32_t*)s->bindings[0];
  for (uint32_t wg = begin; wg < end; ++wg) out[wg] = wg + s->constants[0];
  return 0;
}
int noop(const tvm_dispatch_state_t* s, uint32_t begin, uint32_t end) {
  (void)s; (void)begin; (void)end; return 0;
}
"""
ENTRIES = ["scale", "fail_at", "record_tid", "grid_ids", "noop", "record_tid_slow"]

# The same entry points as OpenCL C (the opencl-c ABI of hal/loaders/opencl_c.py:
# the bindings' buffers, their byte offsets, the push constants, then -- for
# fail_at -- the status word a kernel reports failure through).  A workgroup's
# work is done by its first thread.  record_tid*: no thread ids or sleeps in
# OpenCL C: each workgroup writes 0 and counts its call.
OPENCL_SOURCE = r"""
#define AT(T, base, off) ((__global T*)((__global uchar*)(base) + (off)))
#define WG (get_group_id(0) + get_num_groups(0) * (get_group_id(1) + get_num_groups(1) * get_group_id(2)))
__kernel void scale(__global uchar* in_, __global uchar* out_, ulong in_off, ulong out_off,
                    uint n, uint per) {
  if (get_local_id(0) != 0) return;
  __global const float* in = AT(const float, in_, in_off);
  __global float* out = AT(float, out_, out_off);
  uint lo = (uint)WG * per, hi = lo + per < n ? lo + per : n;
  for (uint i = lo; i < hi; ++i) out[i] = in[i] * 2.0f + 1.0f;
}
__kernel void fail_at(uint bad, __global uint* tvm_status) {
  if (get_local_id(0) == 0 && WG == bad) *tvm_status = 7;
}
__kernel void record_tid(__global uchar* tids_, __global uchar* calls_, ulong t_off, ulong c_off) {
  if (get_local_id(0) != 0) return;
  AT(long, tids_, t_off)[WG] = 0;
  atomic_inc(AT(uint, calls_, c_off));
}
__kernel void grid_ids(__global uchar* out_, ulong off, uint base) {
  if (get_local_id(0) == 0) AT(uint, out_, off)[WG] = (uint)WG + base;
}
__kernel void noop(void) {}
__kernel void record_tid_slow(__global uchar* tids_, __global uchar* calls_, ulong t_off,
                              ulong c_off) {
  if (get_local_id(0) != 0) return;
  AT(long, tids_, t_off)[WG] = 0;
  atomic_inc(AT(uint, calls_, c_off));
}
"""


def kernel_bytes(format: str) -> bytes:
    """The test kernels as an executable of ``format`` (cpu-c-*: a shared
    object built here; opencl-c: OPENCL_SOURCE)."""
    if format == "opencl-c":
        return OPENCL_SOURCE.encode()
    return compile_so()


def kernel_format(device):
    """The format the test kernels load as on ``device`` (None: none of theirs)."""
    formats = device.supported_formats()
    return next((f for f in formats if f.startswith("cpu-c-") and have_cc()),
                "opencl-c" if "opencl-c" in formats else None)


def have_cc() -> bool:
    return shutil.which(os.environ.get("CC", "cc")) is not None


@functools.lru_cache(maxsize=None)
def compile_so(source: str = SOURCE) -> bytes:
    """Compile C source to shared-object bytes (cc -shared -nostartfiles -fPIC -O2:
    no constructors, as the loader's trust check requires)."""
    with tempfile.TemporaryDirectory() as d:
        src, out = os.path.join(d, "k.c"), os.path.join(d, "k.so")
        with open(src, "w") as f:
            f.write(source)
        subprocess.run([os.environ.get("CC", "cc"), "-shared", "-nostartfiles", "-fPIC", "-O2", src, "-o", out],
                       check=True, capture_output=True)
        with open(out, "rb") as f:
            return f.read()
