"""A hand-written module with C kernels that sleep or wait for the test
(importable once tests/ is on sys.path): calls whose duration the test
controls, without timing anything.

``sleep(us)`` dispatches a kernel that sleeps ``us`` microseconds; ``gate(flag)``
dispatches one that spins until the test writes a non-zero int32 into
``flag[0]`` (a zero-copy numpy array; at most ~30 s), then writes 1 to
``flag[1]``.  Both have ``$async`` forms (IREE's coarse-fences ABI).
"""
from __future__ import annotations

import functools
import os
import shutil
import subprocess
import tempfile

KERNELS = r"""
#include <stdint.h>
#include <unistd.h>
typedef struct { void* const* b; const uint64_t* l; const uint32_t* c; uint32_t n[3]; } st_t;
int sleepy(const st_t* s, uint32_t b, uint32_t e) { usleep(s->c[0]); return 0; }
int gate(const st_t* s, uint32_t b, uint32_t e) {
  volatile int32_t* p = (volatile int32_t*)s->b[0];
  for (int i = 0; i < 150000 && !p[0]; i++) usleep(200);
  p[1] = p[0] ? 1 : -1;
  return 0;
}
"""

_HEAD = """
module @life
import @hal.device.get() -> (ref)
import @hal.executable.load(ref, ref) -> (ref)
import @hal.command_buffer.create(ref) -> (ref)
import @hal.command_buffer.dispatch(ref, ref, i32, i32, i32, i32, *i32, *ref, *i64) -> ()
import @hal.command_buffer.finalize(ref) -> ()
import @hal.buffer_view.buffer(ref) -> (ref)
import @hal.fence.create(ref) -> (ref)
import @hal.device.queue.execute(ref, ref, ref, *ref) -> ()
import @hal.fence.await(i32, *ref) -> (i32)
"""

_RECORD = """
  %dev = call.import @hal.device.get()
  %e = const.ref.executable @k
  %exe = call.import @hal.executable.load(%dev, %e)
  %cb = call.import @hal.command_buffer.create(%dev)
  %one = const.i32 1
  {dispatch}
  call.import @hal.command_buffer.finalize(%cb)
"""

_SLEEP = ("%entry = const.i32 0\n"
          "  call.import @hal.command_buffer.dispatch(%cb, %exe, %entry, %one, %one, %one, "
          "[%a0], [], [])")
_GATE = ("%entry = const.i32 1\n  %buf = call.import @hal.buffer_view.buffer(%a0)\n"
         "  %z = const.i64 0\n  %n = const.i64 8\n"
         "  call.import @hal.command_buffer.dispatch(%cb, %exe, %entry, %one, %one, %one, "
         "[], [%buf], [%z, %n])")


# VM assembly: submit command buffer %cb on %dev, wait for it, return.
SUBMIT_AND_WAIT = """
  %f = call.import @hal.fence.create(%dev)
  %null = const.ref.null
  call.import @hal.device.queue.execute(%dev, %null, %f, [%cb])
  %m1 = const.i32 -1
  %r = call.import @hal.fence.await(%m1, [%f])
  ret
"""


def _pair(name, arg_type, dispatch) -> str:
    body = _RECORD.format(dispatch=dispatch)
    return f"""
func @{name}(%a0: {arg_type}) -> () export {{
entry:{body}{SUBMIT_AND_WAIT}}}
func @"{name}$async"(%a0: {arg_type}, %wait: ref, %signal: ref) -> () export {{
entry:{body}
  call.import @hal.device.queue.execute(%dev, %wait, %signal, [%cb])
  ret
}}
"""


def available() -> bool:
    return shutil.which(os.environ.get("CC", "cc")) is not None


def shared_object(source: str) -> bytes:
    """C ``source`` built as a shared object with the system compiler ($CC),
    without start files (the trust model refuses constructors)."""
    cc = os.environ.get("CC", "cc")
    with tempfile.TemporaryDirectory() as d:
        src, out = os.path.join(d, "k.c"), os.path.join(d, "k.so")
        with open(src, "w") as f:
            f.write(source)
        subprocess.run([cc, "-shared", "-nostartfiles", "-fPIC", "-O2", src, "-o", out], check=True,
                       capture_output=True)
        return open(out, "rb").read()


@functools.lru_cache(maxsize=None)
def vmfb() -> bytes:
    """The compiled module (the kernels built with the system C compiler)."""
    import tensorvm.hal as hal
    from tensorvm.vmfb import assembler
    from tensorvm.vmfb.container import write_module
    from tensorvm.vmfb.model import EntryPoint, ExecutableDef, ExecutableVariant, ModuleDef
    so = shared_object(KERNELS)
    fmt = hal.create_device("local-sync").supported_formats()[0]
    base = ModuleDef(name="life")
    base.executables.append(ExecutableDef("k", [ExecutableVariant(
        fmt, {"features": []}, [EntryPoint("sleepy", 0, 1), EntryPoint("gate", 1, 0)], so)]))
    asm = _HEAD + _pair("sleep", "i32", _SLEEP) + _pair("gate", "ref", _GATE)
    return write_module(assembler.assemble(asm, base=base))
