"""An allocation the OS refuses is tensorvm's OutOfMemoryError (a HalError
and a MemoryError), not numpy's MemoryError (issue 37; found by the module
fuzzer, whose children run under an address-space limit).  Each case runs in
a child process whose address space is capped a little above what it uses."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap

import pytest

needs_cc = pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler")
pytestmark = pytest.mark.skipif(not hasattr(os, "fork") or sys.platform != "linux",
                                reason="needs RLIMIT_AS (Linux)")

_PRELUDE = textwrap.dedent("""
    import json, resource
    import numpy as np
    from tensorvm import hal
    from tensorvm.hal.errors import OutOfMemoryError

    def cap(extra):
        with open("/proc/self/status") as f:
            vm = next(int(l.split()[1]) * 1024 for l in f if l.startswith("VmSize:"))
        resource.setrlimit(resource.RLIMIT_AS, (vm + extra, vm + extra))

    def refused(fn):
        try:
            fn()
        except OutOfMemoryError as e:
            return [type(e).__name__, isinstance(e, hal.HalError), isinstance(e, MemoryError),
                    e.size, str(e)]
        except BaseException as e:
            return ["untyped", type(e).__name__, str(e)[:200]]
        return ["allocated"]
""")

GIB = 1 << 30


def _child(body: str) -> dict:
    proc = subprocess.run([sys.executable, "-c", _PRELUDE + textwrap.dedent(body)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_allocators_refused_by_the_os_raise_out_of_memory():
    out = _child(f"""
        sync, task = hal.create_device("local-sync"), hal.create_device("local-task")
        plain = hal.HostAllocator("host")
        cap({GIB})
        out = {{
            "host": refused(lambda: plain.allocate({3 * GIB})),
            "local-sync": refused(lambda: sync.allocator.allocate({3 * GIB})),
            "local-task": refused(lambda: task.allocator.allocate({3 * GIB})),
            "import copy": refused(lambda: plain.import_host(
                np.broadcast_to(np.float32(1), ({3 * GIB // 4},)))),
            "small still works": refused(lambda: sync.allocator.allocate(1 << 20)),
        }}
        print(json.dumps(out))
    """)
    assert out.pop("small still works") == ["allocated"]
    for name, res in out.items():
        assert res[:4] == ["OutOfMemoryError", True, True, 3 * GIB], (name, res)
        assert "out of memory" in res[4] and "3.0 GiB" in res[4], (name, res)


@needs_cc
def test_a_call_whose_result_the_os_refuses_raises_out_of_memory():
    out = _child(f"""
        from tensorvm import compiler, runtime
        from tensorvm.runtime.errors import VmTrap
        text = '''
        func.func @main(%x: tensor<?xf32>) -> tensor<?xf32> {{
          %0 = stablehlo.add %x, %x : tensor<?xf32>
          return %0 : tensor<?xf32>
        }}'''
        m = runtime.load_module(compiler.compile_str(text), device="local-sync")
        assert float(np.asarray(m.main(np.ones(4, np.float32)))[1]) == 2.0
        x = np.ones({GIB // 4}, np.float32)            # 1 GiB of input, imported zero-copy
        cap({GIB // 2})                                # no room for a 1 GiB result
        print(json.dumps({{"call": refused(lambda: m.main(x))}}))
    """)
    res = out["call"]
    assert res[:4] == ["OutOfMemoryError", True, True, GIB], res


def test_opencl_out_of_memory_codes_are_typed():
    from tensorvm.hal.drivers import opencl_buffer
    from tensorvm.hal.errors import HalError, OutOfMemoryError

    class ClError(Exception):
        def __init__(self, code):
            self.code = code
    for code in (-4, -5, -6):       # MEM_OBJECT_ALLOCATION_FAILURE, OUT_OF_RESOURCES, ..._HOST_MEMORY
        err = opencl_buffer._allocation_error("m", ClError(code), 64, "cl")
        assert isinstance(err, OutOfMemoryError) and (err.size, err.device) == (64, "cl")
    err = opencl_buffer._allocation_error("m", ClError(-30), 64, "cl")   # INVALID_VALUE
    assert type(err) is HalError
