"""``tensorvm-compile`` reads what jax.export serialises: the VHLO portable
artifact (``mlir_module_serialized``), plain MLIR bytecode and a whole
serialised ``Exported`` (whose pytrees the module keeps)."""
from __future__ import annotations

import io

import numpy as np
import pytest

jax = pytest.importorskip("jax", reason="the artifacts come from jax.export (pip install jax)")

from jax import export  # noqa: E402

from tensorvm.compiler import cli  # noqa: E402
from tensorvm.compiler.frontends import FrontendError  # noqa: E402
from tensorvm.compiler.frontends.artifacts import read_artifact  # noqa: E402
from tensorvm.runtime import load_module  # noqa: E402


def _model(params, x):
    h = jax.nn.gelu(x @ params["w"] + params["b"], approximate=False)   # erf: a chlo op in text
    return {"y": h, "mean": h.mean(axis=-1)}


PARAMS = {"w": np.linspace(-1, 1, 12, dtype=np.float32).reshape(4, 3),
          "b": np.array([0.1, -0.2, 0.3], np.float32)}
X = np.linspace(-2, 2, 8, dtype=np.float32).reshape(2, 4)


@pytest.fixture(scope="module")
def exported():
    return export.export(jax.jit(_model))(PARAMS, X)


def _plain_bytecode(exp) -> bytes:
    from jaxlib.mlir import ir
    from jaxlib.mlir.dialects import stablehlo
    ctx = ir.Context()
    stablehlo.register_dialect(ctx)
    with ctx:
        module = stablehlo.deserialize_portable_artifact(ctx, exp.mlir_module_serialized)
        f = io.BytesIO()
        module.operation.write_bytecode(f)
        return f.getvalue()


@pytest.mark.parametrize("form", ["portable", "plain-bytecode", "exported", "text"])
def test_cli_compiles_each_serialised_form(tmp_path, exported, form):
    data = {"portable": lambda: exported.mlir_module_serialized,
            "plain-bytecode": lambda: _plain_bytecode(exported),
            "exported": lambda: bytes(exported.serialize()),
            "text": lambda: exported.mlir_module().encode()}[form]()
    src, out = tmp_path / "m.mlirbc", tmp_path / "m.vmfb"
    src.write_bytes(data)
    assert cli.main([str(src), "-o", str(out)]) == 0
    mod = load_module(str(out))
    want = _model(PARAMS, X)
    if form == "exported":          # the pytrees travelled with the artifact
        got = mod.main(PARAMS, X)
        np.testing.assert_allclose(np.asarray(got["y"]), want["y"], rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(np.asarray(got["mean"]), want["mean"], rtol=1e-5, atol=1e-6)
    else:                           # flat: b, w, x in; mean, y out (jax's sorted dict keys)
        mean, y = mod.main(PARAMS["b"], PARAMS["w"], X)
        np.testing.assert_allclose(np.asarray(y), want["y"], rtol=1e-5, atol=1e-6)


def test_bytes_of_no_known_form_are_refused():
    with pytest.raises(FrontendError, match="neither MLIR text, MLIR bytecode nor"):
        read_artifact(b"\xff\xfe\x00garbage", "junk.bin")
    with pytest.raises(FrontendError, match="junk.mlirbc: MLIR bytecode that is neither"):
        read_artifact(b"ML\xefR\x00\x01broken", "junk.mlirbc")
