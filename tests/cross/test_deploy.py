"""docs/deploy.md's recipe: a .vmfb plus the runtime bundle run with no
compiler package and no C compiler on PATH."""
from __future__ import annotations

import os
import pathlib
import subprocess
import sys
import zipfile

import cffi
import msgpack
import numpy as np

from tensorvm import compiler
from tensorvm.runtime.cli import bundle

ADD_TANH = """
func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %a, %b : tensor<4xf32>
  %1 = stablehlo.tanh %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}
"""


def _device_python(zip_path, *args, cwd):
    """Python as on the device: no site (no editable tensorvm), only the
    bundle and the third-party packages on the path, no compiler on PATH."""
    deps = {str(pathlib.Path(m.__file__).parent.parent) for m in (np, cffi, msgpack)}
    env = {"PYTHONPATH": os.pathsep.join([str(zip_path), *sorted(deps)]), "PATH": "/nonexistent",
           "LANG": "C.UTF-8"}
    return subprocess.run([sys.executable, "-S", *args], capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=120)


def test_bundle_runs_a_module_without_compiler_or_cc(tmp_path):
    vmfb = tmp_path / "m.vmfb"
    vmfb.write_bytes(compiler.compile_str(ADD_TANH, cpu="generic"))
    zip_path = tmp_path / "tensorvm-runtime.zip"
    names = bundle.write_bundle(zip_path)
    assert not any(n.startswith("tensorvm/compiler") for n in names)
    assert "tensorvm/hal/loaders/cpu_c.py" in names and "tensorvm/runtime/cli/run.py" in names
    with zipfile.ZipFile(zip_path) as z:
        assert sorted(z.namelist()) == sorted(names)
    r = _device_python(zip_path, "-m", "tensorvm.runtime.cli.run", f"--module={vmfb}",
                       "--device=local-sync", "--input=4xf32=1,2,3,4", "--input=4xf32=-1,0,0,0",
                       f"--output=@{tmp_path / 'y.npy'}", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    np.testing.assert_allclose(np.load(tmp_path / "y.npy"), np.tanh(np.float32([0, 2, 3, 4])),
                               rtol=1e-6)
    code = ("import importlib.util, tensorvm.runtime as r; "
            "assert r.__file__.startswith(%r), r.__file__; "
            "assert importlib.util.find_spec('tensorvm.compiler') is None; print('ok')" % str(zip_path))
    r = _device_python(zip_path, "-c", code, cwd=tmp_path)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr


def test_bundle_bytes_are_reproducible(tmp_path):
    bundle.write_bundle(tmp_path / "a.zip")
    bundle.write_bundle(tmp_path / "b.zip")
    assert (tmp_path / "a.zip").read_bytes() == (tmp_path / "b.zip").read_bytes()
