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
