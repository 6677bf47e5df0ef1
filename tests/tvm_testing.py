"""Helpers shared by the end-to-end tests (importable once tests/ is on sys.path)."""
from __future__ import annotations

import functools
import importlib.util
import os
import re
import shutil
import subprocess

import pytest

# The mpirun that starts the MPI tests' ranks: $TENSORVM_MPIRUN (.ci/run pins it), else
# the one on PATH.  Its ranks' mpi4py must load the same Open MPI's libmpi.
MPIRUN = os.environ.get("TENSORVM_MPIRUN") or shutil.which("mpirun")
_MISSING_MPI = [n for n, ok in (("mpirun (Debian: openmpi-bin libopenmpi-dev)", MPIRUN),
                                ("mpi4py (pip install -e '.[mpi]')",
                                 importlib.util.find_spec("mpi4py"))) if not ok]
# The MPI tests start ranks with mpirun on loopback; each rank needs mpi4py.
needs_mpi = pytest.mark.skipif(bool(_MISSING_MPI), reason="the MPI tests need "
                               + " and ".join(_MISSING_MPI))


@functools.lru_cache(maxsize=None)
def open_mpi_major() -> int:
    """The major version of the Open MPI that ``mpirun`` on PATH starts (4 or 5)."""
    out = subprocess.run([MPIRUN, "--version"], capture_output=True, text=True,
                         timeout=60).stdout
    m = re.search(r"\(Open MPI\) (\d+)\.", out)
    assert m, f"the MPI tests are written for Open MPI; {MPIRUN} --version says: {out!r}"
    return int(m.group(1))


def mpirun_surviving_a_kill() -> tuple:
    """(mpirun arguments, environment overrides) under which the ranks outlive a
    SIGKILLed one long enough to raise (hal/channels/mpi.py), and the error the
    survivors raise: Open MPI 4 keeps them with orte_abort_on_non_zero_status=0 and
    does not report the lost peer (ChannelTimeoutError at the timeout); Open MPI 5
    needs ULFM (--with-ft ulfm) and reports it (PeerFailedError at once)."""
    if open_mpi_major() >= 5:
        return ["--with-ft", "ulfm"], {}, "PeerFailedError"
    return [], {"OMPI_MCA_orte_abort_on_non_zero_status": "0"}, "ChannelTimeoutError"


@functools.lru_cache(maxsize=None)
def compiled(text: str, targets: tuple = ("cpu",)) -> bytes:
    """Compile once per distinct (MLIR text, targets) for the whole session."""
    from tensorvm import compiler
    return compiler.compile_str(text, targets=list(targets))


def run_text(text: str, *args, name: str = "main", device: str = "local-sync"):
    """Compile MLIR text, call export ``name`` through the runtime and return
    numpy results (one array, or a tuple for several results)."""
    import numpy as np

    from tensorvm import runtime
    out = runtime.load_module(compiled(text), device=device)[name](*args)
    if isinstance(out, tuple):
        return tuple(np.asarray(o) for o in out)
    return np.asarray(out)


def simplified(text: str):
    """(names of the ops left in @main's body after the algebraic simplifier
    and DCE, the simplifier's rewrite counts)."""
    from tensorvm.compiler.mlir.parser import parse_module
    from tensorvm.compiler.passes.fold import AlgebraicSimplification
    from tensorvm.compiler.passes.simplify import DeadCodeElimination
    module = parse_module(text)
    p = AlgebraicSimplification()
    p.run(module)
    DeadCodeElimination().run(module)
    ops = [o.name.split(".")[-1] for o in module.functions[0].regions[0].blocks[0].operations]
    return ops, p.counts


def innermost_loop_bodies(c_source, kernel_prefix="d"):
    """The statements of every innermost ``for`` loop of the kernels whose
    names start with ``kernel_prefix``."""
    import re
    bodies = []
    for m in re.finditer(r"^int (\w+)\(.*?^}", c_source, re.M | re.S):
        if not m.group(1).startswith(kernel_prefix):
            continue
        lines = m.group(0).splitlines()
        for i, line in enumerate(lines):
            if not line.strip().startswith("for ("):
                continue
            depth, body = 0, []
            for inner in lines[i:]:
                depth += inner.count("{") - inner.count("}")
                body.append(inner)
                if depth <= 0:
                    break
            if not any(b.strip().startswith("for (") for b in body[1:]):
                bodies.append(body[1:-1])
    return bodies


def assert_poly_model_runs(module, name, runs):
    """A batch-polymorphic model matches JAX at every stored batch size."""
    from fixtures import assert_matches

    for batch, (inputs, expected) in runs.items():
        assert all(e.shape[0] == batch for e in expected)
        assert_matches(f"{name}", module.main(*inputs), expected)


WINDOW_REVERSAL = """func.func @main(%x: tensor<1x6x7x4xf32>, %w: tensor<3x2x4x16xf32>) -> tensor<1x6x7x16xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
       window = {stride = [1, 1], pad = [[1, 1], [0, 1]], reverse = [true, false]}
       {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
       : (tensor<1x6x7x4xf32>, tensor<3x2x4x16xf32>) -> tensor<1x6x7x16xf32>
  return %0 : tensor<1x6x7x16xf32>
}"""


def window_reversal_case():
    """(MLIR text, (x, w), expected): a convolution with a reversed kh window
    (no frontend emits one), checked against JAX on the flipped filter."""
    import jax
    import numpy as np
    rng = np.random.RandomState(5)
    x, w = rng.randn(1, 6, 7, 4).astype(np.float32), rng.randn(3, 2, 4, 16).astype(np.float32)
    want = jax.lax.conv_general_dilated(x, w[::-1].copy(), (1, 1), ((1, 1), (0, 1)),
                                        dimension_numbers=("NHWC", "HWIO", "NHWC"),
                                        precision=jax.lax.Precision.HIGHEST)
    return WINDOW_REVERSAL, (x, w), np.asarray(want)


NHWC = ("NHWC", "HWIO", "NHWC")
NCHW = ("NCHW", "OIHW", "NCHW")


def jax_conv(x, w, stride=(1, 1), padding="SAME", rdil=(1, 1), groups=1, dn=NHWC):
    """jax.lax.conv_general_dilated at full precision: the reference (and the
    exported program) of the convolution kernel tests."""
    import jax
    return jax.lax.conv_general_dilated(x, w, stride, padding, rhs_dilation=rdil,
                                        dimension_numbers=dn, feature_group_count=groups,
                                        precision=jax.lax.Precision.HIGHEST)
