"""The CPU executable ABI (vmfb/cpu_abi.py) and the hal module's import
signatures (vmfb/hal_imports.py) are declared once, in vmfb/, which both the
compiler and the runtime/HAL read (neither layer may import the other).
These tests prove both sides use that one declaration: the same objects,
the compiler's C and the loader's byte layout made from the same table, and
a compiled module whose entry points and imports the runtime runs."""
import re

import cffi
import numpy as np
import pytest

from tensorvm import runtime
from tensorvm.compiler.api import CompileOptions, compile_text
from tensorvm.compiler.codegen import cpu
from tensorvm.compiler.host import native_loop_c, vm_host
from tensorvm.hal.drivers import cpu_program
from tensorvm.hal.loaders import cpu_c
from tensorvm.runtime.modules import hal as hal_module
from tensorvm.vmfb import cpu_abi, hal_imports

ADD = """
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = stablehlo.add %x, %x : tensor<4xf32>
  return %y : tensor<4xf32>
}
"""


def test_compiler_and_loader_share_one_dispatch_abi():
    ffi = cffi.FFI()
    ffi.cdef(cpu.ABI)
    assert ffi.sizeof("tvm_dispatch_state_t") == cpu_c.STATE_SIZE
    addrs = cpu_c.ffi.new("uintptr_t[]", [0x1000, 0x2000])
    lens = cpu_c.ffi.new("uint64_t[]", [16, 32])
    consts = cpu_c.ffi.new("uint32_t[]", [7])
    state = cpu_c.new_state(addrs, lens, consts, (3, 4, 5))
    raw = bytes(cpu_c.ffi.buffer(state, cpu_c.STATE_SIZE))
    view = ffi.from_buffer("tvm_dispatch_state_t *", bytearray(raw))
    as_int = lambda p: int(ffi.cast("uintptr_t", p))       # noqa: E731
    assert as_int(view.bindings) == int(cpu_c.ffi.cast("uintptr_t", addrs))
    assert as_int(view.binding_lengths) == int(cpu_c.ffi.cast("uintptr_t", lens))
    assert as_int(view.constants) == int(cpu_c.ffi.cast("uintptr_t", consts))
    assert list(view.workgroup_count) == [3, 4, 5]
    assert cpu_c.state_binding(state, 1) == 0x2000


def test_state_struct_and_layout_come_from_one_table():
    """The compiler's struct text is vmfb's, and the loader's offsets, computed
    from the same field table, are where a C compiler (cffi's) puts them."""
    assert cpu.ABI is cpu_abi.STATE_C
    ffi = cffi.FFI()
    ffi.cdef(cpu_abi.STATE_C)
    for f in cpu_abi.STATE_FIELDS:
        assert ffi.offsetof(cpu_abi.STATE_STRUCT, f.name) == cpu_c.STATE_OFFSETS[f.name]
    assert list(cpu_c.STATE_OFFSETS) == [f.name for f in cpu_abi.STATE_FIELDS]


def test_entry_and_runner_signatures_come_from_one_table():
    """The C the compiler writes declares each entry point and the packet
    runner with vmfb's parameter lists, and the loader calls them through
    function-pointer types derived from the same lists."""
    ffi = cffi.FFI()
    ffi.cdef(cpu_abi.STATE_C + "typedef " + cpu_abi.declarator("(*entry_t)") + ";\n"
             "typedef " + cpu_abi.declarator("(*runner_t)", "int", cpu_abi.PACKET_PARAMS) + ";")
    entry, runner = ffi.typeof("entry_t"), ffi.typeof("runner_t")
    assert entry.result.cname == cpu_c.ENTRY_TYPE.result.cname == "int"
    assert [a.cname for a in entry.args[1:]] == [a.cname for a in cpu_c.ENTRY_TYPE.args[1:]]
    assert entry.args[0].kind == cpu_c.ENTRY_TYPE.args[0].kind == "pointer"
    assert [a.cname for a in runner.args] == [a.cname for a in cpu_c.RUNNER_TYPE.args]
    assert cpu_abi.declarator(cpu_abi.PACKET_RUNNER, "int", cpu_abi.PACKET_PARAMS) \
        in cpu_abi.PACKET_RUNNER_C

    res = compile_text(ADD, CompileOptions(targets=["cpu"], keep_source=True))
    entries = [e.name for x in res.module.executables for v in x.variants
               for e in v.entry_points]
    src = res.stats["c_source"]
    assert entries
    for name in entries:
        assert cpu_abi.declarator(name) + " {" in src
    assert cpu_abi.PACKET_RUNNER_C in src
    out = runtime.load_module(res.vmfb, device="local-sync").main(np.arange(4, dtype=np.float32))
    np.testing.assert_array_equal(np.asarray(out), np.arange(4) * 2.0)


def test_return_codes_are_declared_once():
    """The loop and kernel return codes the compiler emits are the ones the
    CPU driver decodes."""
    assert cpu_program.STOP_CODES is cpu_abi.STOP_CODES
    assert cpu_program.RC_BINDING_SHORT == cpu_abi.RC_BINDING_SHORT
    assert native_loop_c.RC_CANCELLED in cpu_abi.STOP_CODES
    assert native_loop_c.RC_TIMED_OUT in cpu_abi.STOP_CODES


def test_hal_import_signatures_are_one_table():
    """The compiler's import table is vmfb's table, and the runtime's hal
    module binds exactly its names with its calling-convention objects."""
    assert vm_host.HAL_IMPORTS is hal_imports.SIGNATURES
    assert list(hal_module.FUNCTIONS) == list(hal_imports.SIGNATURES)
    for name, (conv, fn) in hal_module.FUNCTIONS.items():
        assert conv is hal_imports.SIGNATURES[name] and callable(fn)
    assert hal_module.HalModule().functions() == hal_module.FUNCTIONS


def test_compiled_imports_are_the_declared_lines():
    """Each hal import of a compiled module carries the declared convention."""
    res = compile_text(ADD, CompileOptions(targets=["cpu"], keep_source=True))
    hal = [i for i in res.module.imports if i.module == "hal"]
    assert hal
    for imp in hal:
        assert imp.signature == hal_imports.SIGNATURES[imp.name]
        assert hal_imports.import_line(imp.name) in res.stats["vm_assembly"]


def test_a_hal_module_missing_a_declared_function_is_refused():
    impls = {n: fn for n, (_, fn) in hal_module.FUNCTIONS.items()}
    del impls["fence.signal"]
    with pytest.raises(ValueError, match=r"missing \['fence.signal'\]"):
        hal_imports.bind(impls)
    impls["fence.signal"] = impls["fence.create"]
    impls["fence.extra"] = impls["fence.create"]
    with pytest.raises(ValueError, match=r"undeclared \['fence.extra'\]"):
        hal_imports.bind(impls)


def _probe_library(tmp_path, body: str, runner_c: str):
    """A shared object (ctypes) of entry point ``probe`` (``body``, written
    with the compiler's declarator) and ``runner_c``, built by the system C
    compiler; the test is skipped without one."""
    import ctypes
    import shutil
    import subprocess
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler")
    (tmp_path / "p.c").write_text("#include <stdint.h>\n" + cpu_abi.STATE_C
                                  + cpu_abi.declarator("probe") + " {\n" + body + "}\n" + runner_c)
    so = tmp_path / "p.so"
    subprocess.run([cc, "-shared", "-fPIC", "-O1", str(tmp_path / "p.c"), "-o", str(so)], check=True)
    return ctypes.CDLL(str(so))


def test_packet_runner_entry_and_state_agree_end_to_end(tmp_path):
    """An entry point written with the compiler's declarator and the packet
    runner's C, built by the system compiler, run through the loader's
    function-pointer type on the loader's state and vmfb's packet layout:
    the kernel sees the grid, bindings and workgroup range it was given."""
    import ctypes
    lib = _probe_library(tmp_path, "  uint64_t* out = (uint64_t*)st->bindings[0];\n"
                         "  out[0] = wg_begin; out[1] = wg_end; out[2] = st->workgroup_count[1];\n"
                         "  out[3] = st->binding_lengths[0]; out[4] = st->constants[0];\n"
                         "  return wg_end == 99 ? -7 : 0;\n", cpu_abi.PACKET_RUNNER_C)
    ffi = cpu_c.ffi
    out = ffi.new("uint64_t[]", 5)
    addrs = ffi.new("uintptr_t[]", [int(ffi.cast("uintptr_t", out))])
    lens, consts = ffi.new("uint64_t[]", [40]), ffi.new("uint32_t[]", [123])
    state = cpu_c.new_state(addrs, lens, consts, (8, 6, 1))
    entry = ctypes.cast(lib.probe, ctypes.c_void_p).value
    runner = ffi.cast(cpu_c.RUNNER_TYPE, ctypes.cast(lib.tvm_run_packets, ctypes.c_void_p).value)
    words = cpu_abi.packet(entry, int(ffi.cast("uintptr_t", state)), 2, 5)
    failed = ffi.new("uintptr_t[]", 1)
    assert runner(ffi.new("uintptr_t[]", words), 1, failed) == 0
    assert list(out) == [2, 5, 6, 40, 123]
    words += cpu_abi.packet(entry, int(ffi.cast("uintptr_t", state)), 0, 99)
    assert runner(ffi.new("uintptr_t[]", words), 2, failed) == -7 and failed[0] == 1



def test_claim_runner_claims_every_workgroup_once_and_stops_at_an_error(tmp_path):
    """``tvm_run_claimed`` built from vmfb's C and called through the
    loader's pointer type: two calls sharing one counter run each workgroup
    exactly once, ``grain`` at a time (the second finds nothing left); an
    entry point's error is returned and ends the claims; the compiler puts
    the runner in every CPU module."""
    import ctypes
    lib = _probe_library(tmp_path, "  uint32_t* seen = (uint32_t*)st->bindings[0];\n"
                         "  for (uint32_t w = wg_begin; w < wg_end; ++w) seen[w] += wg_end - wg_begin;\n"
                         "  return wg_end > st->constants[0] ? -7 : 0;\n", cpu_abi.CLAIM_RUNNER_C)
    ffi = cpu_c.ffi
    seen = ffi.new("uint32_t[]", 10)
    addrs = ffi.new("uintptr_t[]", [int(ffi.cast("uintptr_t", seen))])
    consts = ffi.new("uint32_t[]", [100])
    state = cpu_c.new_state(addrs, ffi.new("uint64_t[]", [40]), consts, (10, 1, 1))
    entry = ffi.cast(cpu_c.ENTRY_TYPE, ctypes.cast(lib.probe, ctypes.c_void_p).value)
    claim = ffi.cast(cpu_c.CLAIMER_TYPE, ctypes.cast(lib.tvm_run_claimed, ctypes.c_void_p).value)
    counter = ffi.new("uint32_t*")
    assert claim(entry, state, counter, 10, 3) == 0 and claim(entry, state, counter, 10, 3) == 0
    assert list(seen) == [3] * 9 + [1]          # claims [0,3) [3,6) [6,9) [9,10), once each
    consts[0], counter[0] = 4, 0                # a claim ending past 4 fails
    assert claim(entry, state, counter, 10, 3) == -7 and counter[0] >= 10
    assert cpu_abi.declarator(cpu_abi.CLAIM_RUNNER, "int", cpu_abi.CLAIM_PARAMS) \
        in cpu_abi.CLAIM_RUNNER_C
    res = compile_text(ADD, CompileOptions(targets=["cpu"], keep_source=True))
    assert cpu_abi.CLAIM_RUNNER_C in res.stats["c_source"]


def test_team_runner_runs_segments_in_order_on_every_thread_and_stops_at_an_error(tmp_path):
    """``tvm_run_team`` built from vmfb's C, called by three threads on one
    run's control words: each workgroup of each segment runs exactly once,
    a segment's workgroups only after every workgroup of the one before
    (each records the step counter it saw, which a barrier-free team
    would mix), a thread arriving after the end returns at once; an
    error stops every thread, which all return it, with its item."""
    import ctypes
    import threading
    lib = _probe_library(tmp_path, "  uint32_t* seen = (uint32_t*)st->bindings[0];\n"
                         "  uint32_t* step = (uint32_t*)st->bindings[1];\n"
                         "  const uint32_t seg = st->constants[0];\n"
                         "  for (uint32_t w = wg_begin; w < wg_end; ++w) {\n"
                         "    seen[seg * 64 + w] += 1 + 1000 * __atomic_load_n(step, __ATOMIC_ACQUIRE);\n"
                         "    if (w + 1 == st->constants[1]) return -7;\n"
                         "  }\n"
                         "  __atomic_fetch_add(step + 1 + seg, wg_end - wg_begin, __ATOMIC_ACQ_REL);\n"
                         "  if (__atomic_load_n(step + 1 + seg, __ATOMIC_ACQUIRE) == st->workgroup_count[0])\n"
                         "    __atomic_fetch_add(step, 1, __ATOMIC_ACQ_REL);\n"
                         "  return 0;\n", cpu_abi.TEAM_RUNNER_C)
    ffi = cpu_c.ffi
    entry = ctypes.cast(lib.probe, ctypes.c_void_p).value
    team = ffi.cast(cpu_c.TEAM_TYPE, ctypes.cast(lib.tvm_run_team, ctypes.c_void_p).value)
    totals = [37, 5, 64, 1]
    seen, step = ffi.new("uint32_t[]", 64 * len(totals)), ffi.new("uint32_t[]", 1 + len(totals))
    keep, words, segs = [], [], []
    for i, total in enumerate(totals):
        addrs = ffi.new("uintptr_t[]", [int(ffi.cast("uintptr_t", seen)), int(ffi.cast("uintptr_t", step))])
        consts = ffi.new("uint32_t[]", [i, 0])
        state = cpu_c.new_state(addrs, ffi.new("uint64_t[]", [4 * 64 * 4, 4 * 5]), consts, (total, 1, 1))
        keep += [addrs, consts, state]
        words += cpu_abi.packet(entry, int(ffi.cast("uintptr_t", state)), 0, total)
        segs += [i, 1, total, 3]
    words, segs = ffi.new("uintptr_t[]", words), ffi.new("uint32_t[]", segs)

    def run(ctl, leads):
        rcs = [None] * len(leads)

        def one(k):
            rcs[k] = team(words, segs, len(totals), ctl, leads[k])
        threads = [threading.Thread(target=one, args=(k,)) for k in range(len(leads))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return rcs

    ctl = ffi.new("uint32_t[]", cpu_abi.team_control_words(len(totals)))
    assert run(ctl, [1, 0, 0]) == [0, 0, 0] and ctl[cpu_abi.TEAM_STAGE] == len(totals)
    for i, total in enumerate(totals):
        assert list(seen[64 * i:64 * i + total]) == [1 + 1000 * i] * total, i
        assert not any(seen[64 * i + total:64 * (i + 1)])
    assert team(words, segs, len(totals), ctl, 0) == 0          # after the end: nothing runs
    assert seen[0] == 1
    keep[4][1] = 3                                               # segment 1's workgroup 2 fails
    ctl = ffi.new("uint32_t[]", cpu_abi.team_control_words(len(totals)))
    for i in range(len(step)):
        step[i] = 0
    assert run(ctl, [1, 0, 0]) == [-7, -7, -7]
    assert ctl[cpu_abi.TEAM_RC] == ffi.cast("uint32_t", -7) and ctl[cpu_abi.TEAM_FAILED] == 2
    assert ctl[cpu_abi.TEAM_STAGE] == len(totals) and step[0] == 1   # stopped in segment 1
    assert cpu_abi.declarator(cpu_abi.TEAM_RUNNER, "int", cpu_abi.TEAM_PARAMS) in cpu_abi.TEAM_RUNNER_C
    res = compile_text(ADD, CompileOptions(targets=["cpu"], keep_source=True))
    assert cpu_abi.TEAM_RUNNER_C in res.stats["c_source"]


# -- GPU kernel arguments (vmfb/gpu_abi.py) -------------------------------------------------
DYNAMIC_SINE = """
func.func @main(%a: tensor<?xf32>) -> tensor<?xf32> {
  %0 = stablehlo.sine %a : tensor<?xf32>
  return %0 : tensor<?xf32>
}
"""


def test_gpu_renderers_and_drivers_share_one_argument_layout():
    """The OpenCL and CUDA renderers and their drivers hold the same
    vmfb/gpu_abi.py layout objects (neither layer imports the other)."""
    from tensorvm.compiler.codegen import cuda, opencl
    from tensorvm.hal.drivers import cuda_program, opencl_program
    from tensorvm.hal.loaders import opencl_c
    from tensorvm.vmfb import gpu_abi
    assert opencl.TARGET.abi is opencl_program.ABI is gpu_abi.OPENCL
    assert cuda.TARGET.abi is cuda_program.ABI is gpu_abi.CUDA
    assert opencl_c.STATUS_PARAM is gpu_abi.STATUS_PARAM


def _kernel_params(source: str, name: str) -> list:
    head = re.search(rf"\b{name}\(([^)]*)\)\s*{{", source)
    assert head, name
    return [p.strip() for p in head.group(1).split(",")]


@pytest.mark.parametrize("dialect", ["opencl", "cuda"])
def test_gpu_kernel_parameters_sit_where_the_layout_puts_them(dialect):
    """Each rendered kernel's parameter list has the bindings' pointers,
    offsets and push-constant words at the argument indices the drivers
    set them at (the layout's), and as many as its entry point declares."""
    from tensorvm.compiler.codegen.grids import GPU_MARKER
    from tensorvm.vmfb import gpu_abi
    abi = {"opencl": gpu_abi.OPENCL, "cuda": gpu_abi.CUDA}[dialect]
    res = compile_text(DYNAMIC_SINE, CompileOptions(targets=[dialect], keep_source=True))
    src = res.stats[f"{dialect}_source"]
    entries = [e for x in res.module.executables for v in x.variants
               for e in v.entry_points if e.name != GPU_MARKER]
    assert entries and all(e.constants == 2 for e in entries)      # s0 as two words
    for e in entries:
        params = _kernel_params(src, e.name)
        assert len(params) == abi.count(e.bindings, e.constants)
        names = ["b0", "o0"]
        for k, name in enumerate(names):
            assert re.search(rf"\b{name}(_base)?$", params[abi.binding_arg(k)])
            if abi.binding_offsets:
                assert params[abi.offset_arg(k, e.bindings)] == \
                    f"{abi.offset_ctype} {abi.offset_name(name)}"
        for w in range(e.constants):
            assert params[abi.constant_arg(w, e.bindings)] == \
                f"{abi.constant_ctype} {abi.constant_name(w)}"
    if not abi.binding_offsets:
        with pytest.raises(ValueError, match="no binding offsets"):
            abi.offset_arg(0, 2)


def test_opencl_driver_sets_the_rendered_kernel_arguments():
    """The compiled OpenCL kernel, dispatched through the opencl driver with
    both bindings at byte offsets and the dynamic dim as its two words, reads
    and writes where it should: the driver put the pointers, offsets and
    words at the indices the renderer declared them."""
    from tensorvm import hal
    from tensorvm.compiler.codegen.grids import GPU_MARKER
    from tensorvm.vmfb import container
    reason = hal.registry.driver_availability("opencl")
    if reason is not None:
        pytest.skip(f"opencl unavailable: {reason}")
    (v,) = container.read_module(compile_text(DYNAMIC_SINE, CompileOptions(
        targets=["opencl"])).vmfb).executables[0].variants
    (entry,) = [e.name for e in v.entry_points if e.name != GPU_MARKER]
    n, pad = 1000, 12
    x = np.linspace(-3, 3, n, dtype=np.float32)
    dev = hal.create_device("opencl")
    try:
        exe = dev.load_executable("sine", v.format, bytes(v.data), [entry], dict(v.target))
        xin = dev.allocator.allocate(pad + 4 * n)
        xin.write(pad, x.tobytes())
        out = dev.allocator.allocate(2 * pad + 4 * n)
        out.write(0, bytes(2 * pad + 4 * n))
        cb = dev.create_command_buffer()
        cb.dispatch(exe, 0, (n, 1, 1), [n & 0xFFFFFFFF, n >> 32],
                    [(xin, pad, 4 * n), (out, 2 * pad, 4 * n)])
        cb.finalize()
        fence = dev.create_fence()
        dev.queue_execute(None, fence, [cb])
        fence.wait(10.0)
        got = np.frombuffer(out.read(0), np.float32)
        assert not got[:2 * pad // 4].any()
        np.testing.assert_allclose(got[2 * pad // 4:], np.sin(x), rtol=1e-5, atol=1e-6)
    finally:
        dev.close()
