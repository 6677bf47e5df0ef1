"""benchmarks/cuda_check.py, the one-run GPU check of issue 36, on the
stand-in libcuda of tests/hal (no kernel runs there, so every value check
must report its mismatch) and with no driver at all."""
from __future__ import annotations

import os
import pathlib
import subprocess
import sys

import pytest

from tensorvm.compiler.codegen import cuda as cuda_codegen

REPO = pathlib.Path(__file__).resolve().parents[1]
SCRIPT = REPO / "benchmarks" / "cuda_check.py"
TOOLCHAIN = cuda_codegen.have_toolchain()


def _run(env, *args):
    return subprocess.run([sys.executable, str(SCRIPT), "--no-install", *args], env=env,
                          capture_output=True, text=True, cwd=REPO, timeout=600)


@pytest.mark.skipif(TOOLCHAIN is not None, reason=f"no CUDA toolchain: {TOOLCHAIN}")
def test_on_the_stand_in_libcuda_every_check_runs_and_reports_its_mismatch(tmp_path):
    lib = tmp_path / "libcuda.so.1"
    subprocess.run([os.environ.get("CC", "cc"), "-shared", "-fPIC", "-O1",
                    str(REPO / "tests" / "hal" / "fake_libcuda.c"), "-o", str(lib)], check=True)
    proc = _run(dict(os.environ, TENSORVM_LIBCUDA=str(lib)),
                "--no-tests", "--no-iree", "--only", "gru", "--gemm", "64", "--reps", "1")
    out = proc.stdout
    assert proc.returncode == 1, out + proc.stderr
    assert "GPU: Fake GPU, compute capability 8.0: compiling for sm_80" in out
    for el in ("f16", "bf16", "f32"):
        assert any(line.strip().startswith(f"{el}:") and line.endswith("MISMATCH")
                   for line in out.splitlines()), out
    gru = next(line for line in out.splitlines() if line.startswith("gru "))
    assert "tvm MISMATCH out0" in gru
    assert "SOME CHECKS FAILED" in out


def test_without_a_driver_it_says_why_and_stops(tmp_path):
    proc = _run(dict(os.environ, TENSORVM_LIBCUDA=str(tmp_path / "missing.so")), "--no-tests")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.startswith("cuda driver unavailable:")


def test_install_asks_pip_only_for_what_is_missing(monkeypatch):
    sys.path.insert(0, str(SCRIPT.parent))
    import cuda_check
    calls = []
    monkeypatch.setattr(cuda_check.subprocess, "run",
                        lambda cmd, **kw: calls.append(cmd) or subprocess.CompletedProcess(cmd, 1))
    monkeypatch.setattr(cuda_check, "_have", lambda module: module not in ("msgpack", "iree.runtime"))
    assert cuda_check.install("/wheels") == ["msgpack", "iree-base-runtime"]
    assert [c[-1] for c in calls] == ["msgpack", "iree-base-runtime"]
    assert all(c[c.index("--find-links") + 1] == "/wheels" and "--no-index" in c for c in calls)
