"""CUDA: every model compiles to PTX that ptxas accepts (where nvcc and
ptxas exist); runtime tests run where a GPU is, and otherwise skip with the
driver's reason."""
from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import tempfile

import numpy as np
import pytest
from fixtures import MODELS, load_model

from tensorvm import compiler, hal, runtime
from tensorvm.compiler import CompileError
from tensorvm.compiler.codegen import cuda as cuda_codegen
from tensorvm.vmfb import container

TOOLCHAIN = cuda_codegen.have_toolchain()
needs_nvcc = pytest.mark.skipif(TOOLCHAIN is not None, reason=f"no CUDA toolchain: {TOOLCHAIN}")
DRIVER = hal.registry.driver_availability("cuda")
needs_gpu = pytest.mark.skipif(DRIVER is not None, reason=f"cuda driver unavailable: {DRIVER}")



@functools.lru_cache(maxsize=None)
def compiled(name: str, targets=("cuda",)) -> bytes:
    return compiler.compile_str(load_model(name)[0], targets=list(targets))


def _ptxas(ptx: bytes, arch: str) -> subprocess.CompletedProcess:
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "k.ptx")
        with open(path, "wb") as f:
            f.write(ptx)
        return subprocess.run([shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas",
                               f"--gpu-name={arch}", path, "-o", os.path.join(d, "k.cubin")],
                              capture_output=True, text=True)


@needs_nvcc
@pytest.mark.parametrize("name", MODELS)
def test_model_compiles_to_ptx_that_ptxas_accepts(name):
    mdef = container.read_module(compiled(name))
    for exe in mdef.executables:
        (v,) = exe.variants
        assert v.format == "cuda-ptx" and v.target["arch"] == "sm_80"
        ptx = bytes(v.data)
        for ep in v.entry_points:
            assert re.search(rf"\.entry\s+{ep.name}\s*\(", ptx.decode()), ep.name
        proc = _ptxas(ptx, "sm_80")
        assert proc.returncode == 0, proc.stderr


@needs_nvcc
def test_cuda_arch_option_and_multi_target_order():
    data = compiler.compile_str(load_model("add4")[0], targets=["cpu", "opencl", "cuda"],
                                cuda_arch="sm_90")
    (exe,) = container.read_module(data).executables
    assert [v.format for v in exe.variants][1:] == ["opencl-c", "cuda-ptx"]
    assert exe.variants[2].target["arch"] == "sm_90"
    names = [[e.name for e in v.entry_points] for v in exe.variants]
    assert names[1] == names[2] == names[0] + ["tvm_gpu_grid"]    # codegen/grids.py GPU_MARKER
    assert re.search(r"^\.target\s+sm_90", bytes(exe.variants[2].data).decode(), re.M)


@needs_nvcc
def test_broken_kernel_fails_at_compile_time():
    with pytest.raises(CompileError, match="nvcc failed"):
        cuda_codegen.compile_ptx('extern "C" __global__ void k(float* x) { x[0] = nope; }')
    with pytest.raises(CompileError, match="sm_80"):
        cuda_codegen.compile_ptx("", arch="80")


def test_cuda_driver_reports_why_it_is_unavailable():
    if DRIVER is None:
        pytest.skip("a CUDA GPU is present")
    assert "cuda" not in hal.available_drivers()
    with pytest.raises(hal.DeviceUnavailableError, match="libcuda|cuInit|CUDA device"):
        hal.create_device("cuda")


@needs_gpu
@needs_nvcc
@pytest.mark.parametrize("name", MODELS)
def test_model_matches_jax_on_cuda(name):
    _, inputs, expected = load_model(name)
    m = runtime.load_module(compiled(name), device="cuda")
    outs = m.main(*inputs)
    outs = outs if isinstance(outs, tuple) else (outs,)
    for got, want in zip(outs, expected):
        got = np.asarray(got)
        assert got.shape == want.shape and got.dtype == want.dtype
        if want.dtype.kind in "fc":
            np.testing.assert_allclose(got, want, rtol=2e-4, atol=1e-5)
        else:
            np.testing.assert_array_equal(got, want)


@needs_gpu
def test_cuda_buffers_and_transfers():
    dev = hal.create_device("cuda")
    try:
        buf = dev.allocator.allocate(64)
        assert buf.read() == bytes(64)
        buf.write(8, b"abcd")
        cb = dev.create_command_buffer()
        cb.fill(buf, 16, 16, (0x01020304).to_bytes(4, "little"))
        cb.copy(buf, 8, buf, 10, 4)           # overlapping
        cb.finalize()
        fence = dev.create_fence()
        dev.queue_execute(None, fence, [cb])
        fence.wait(10)
        got = buf.read()
        assert got[8:14] == b"ababcd" and got[16:20] == b"\x04\x03\x02\x01"
        a = np.arange(8, dtype=np.float32)
        shared = dev.allocator.import_host(a, writable=True)
        assert np.frombuffer(shared.read(), np.float32).tolist() == a.tolist()
    finally:
        dev.close()


@needs_nvcc
def test_every_scalar_helper_compiles_as_cuda():
    from tensorvm.compiler.codegen import cuda
    src = cuda.TARGET.prologue(True) + cuda.TARGET.helpers(True)
    cuda.compile_ptx(src + 'extern "C" __global__ void k(int* x) { x[0] = 1; }\n')


# -- dynamic shapes: the CPU's dynamic-shape programs compile for cuda ---------------------
def _dynamic_tests():
    import importlib.util
    import pathlib
    path = pathlib.Path(__file__).resolve().parent / "compiler" / "test_dynamic.py"
    spec = importlib.util.spec_from_file_location("_tvm_dynamic_on_cuda", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


DYNAMIC = _dynamic_tests()
DYNAMIC_CASES = sorted(n for n in dir(DYNAMIC) if n.startswith("test_")
                       and n not in ("test_static_kernels_unchanged_by_dynamic_support",
                                     "test_gpu_targets_take_the_shape_push_constants"))


class _Compiled(Exception):
    pass


def _check_ptx(data: bytes):
    for exe in container.read_module(data).executables:
        v = exe.variants[-1]
        assert v.format == "cuda-ptx"
        proc = _ptxas(bytes(v.data), v.target["arch"])
        assert proc.returncode == 0, proc.stderr


@needs_nvcc
@pytest.mark.parametrize("case", DYNAMIC_CASES)
def test_dynamic_program_compiles_for_cuda(case, monkeypatch):
    """Each program of tests/compiler/test_dynamic.py compiles with the
    cuda target (dims as push constants) and ptxas accepts its PTX."""
    def module(src):
        _check_ptx(compiler.compile_str(src, targets=["cpu", "cuda"]))
        raise _Compiled
    monkeypatch.setattr(DYNAMIC, "_module", module)
    with pytest.raises(_Compiled):
        getattr(DYNAMIC, case)()


@needs_nvcc
def test_poly_model_compiles_for_cuda():
    from fixtures import load_poly_model
    text, _ = load_poly_model("mlp_batch_poly")
    _check_ptx(compiler.compile_str(text, targets=["cuda"]))


def _real_models():
    import pathlib
    import sys
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "benchmarks" / "models"))
    import load
    return load


# compile + ptxas on 2 CPUs: these take 10-25 s, the others 1-4 s
SLOW_PTX = {"mobilenet_v2", "resnet50", "bert_tiny", "gpt2_tiny", "gpt2_greedy"}


@needs_nvcc
@pytest.mark.parametrize("name", [pytest.param(n, marks=[pytest.mark.slow] if n in SLOW_PTX else [])
                                  for n in _real_models().models()])
def test_real_model_compiles_to_ptx_that_ptxas_accepts(name):
    """Every model of the real-model set (benchmarks/models: convolutions,
    attention, recurrent loops, a symbolic batch) renders as CUDA whose PTX
    ptxas assembles for the default arch."""
    model_set = _real_models()
    run = next(iter(model_set.manifest()["models"][name]["runs"]))
    text, _, _ = model_set.load(name, run)
    _check_ptx(compiler.compile_str(text, targets=["cuda"]))
