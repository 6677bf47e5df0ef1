"""The JAX frontend: flax models compiled with symbolic batch dims, pytrees in
and out, weights as arguments or baked in, matched against JAX."""
from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax", reason="the JAX frontend needs jax (pip install tensorvm[jax])")
pytest.importorskip("flax", reason="these models are flax modules (pip install flax)")

from tensorvm.compiler.frontends import FrontendError, compile_jax, export_jax, spec  # noqa: E402
from tensorvm.runtime import InvalidArgumentError, load_module  # noqa: E402

from frontend_models import flax_cnn, flax_transformer, rand  # noqa: E402


def _close(got, want, tol=2e-5):
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=tol, atol=tol)


def test_cnn_symbolic_batch_params_as_a_pytree_argument():
    model = flax_cnn()
    params = model.init(jax.random.PRNGKey(0), rand(1, 16, 16, 3))
    mod = load_module(compile_jax(model.apply, params, spec("b, 16, 16, 3")))
    for b in (1, 3):
        x = rand(b, 16, 16, 3, seed=b)
        _close(mod.main(params, x), model.apply(params, x))


def test_transformer_weights_baked_in_as_constants():
    model = flax_transformer()
    x = rand(2, 8, 32)
    params = model.init(jax.random.PRNGKey(1), x)
    mod = load_module(compile_jax(model.apply, params, x, constants=[0]))
    assert len(mod.main.args) == 1            # the weights are module constants now
    _close(mod.main(x), model.apply(params, x), 1e-4)


def test_nested_results_and_shared_symbolic_dims():
    def f(inputs):
        a, b = inputs["a"], inputs["b"]
        return {"sum": a + b, "parts": (a * 2.0, [b - a, None])}

    mod = load_module(compile_jax(f, {"a": spec("n, 4"), "b": spec("n, 4")}))
    a, b = rand(5, 4), rand(5, 4, seed=1)
    out = mod.main({"b": b, "a": a})
    assert sorted(out) == ["parts", "sum"] and isinstance(out["parts"], tuple)
    assert isinstance(out["parts"][1], list) and out["parts"][1][1] is None
    _close(out["sum"], a + b)
    _close(out["parts"][1][0], b - a)
    with pytest.raises(InvalidArgumentError, match="missing \\['b'\\]"):
        mod.main({"a": a})


def test_errors_name_the_problem():
    with pytest.raises(FrontendError, match="needs values"):
        export_jax(lambda w, x: x @ w, spec("4, 4"), rand(2, 4), constants=[0])
    with pytest.raises(FrontendError, match="out of range"):
        export_jax(lambda x: x, rand(2), constants=[3])

    class Box:
        def __init__(self, v):
            self.v = v

    jax.tree_util.register_pytree_node(Box, lambda b: ((b.v,), None), lambda _, c: Box(*c))
    with pytest.raises(FrontendError, match="Box cannot be rebuilt"):
        export_jax(lambda b: b.v * 2, Box(rand(3)))


def test_the_runtime_rebuilds_the_nesting_without_jax(tmp_path):
    import subprocess
    import sys
    path = tmp_path / "m.vmfb"
    path.write_bytes(compile_jax(lambda p, x: {"y": x * p["s"], "z": [x + 1.0]},
                                 {"s": rand(3)}, spec("n, 3")))
    code = ("import sys, numpy as np\n"
            "from tensorvm.runtime import load_module\n"
            f"out = load_module({str(path)!r}).main({{'s': np.ones(3, np.float32)}}, "
            "np.ones((2, 3), np.float32))\n"
            "assert sorted(out) == ['y', 'z'] and np.asarray(out['z'][0]).tolist() == [[2.0] * 3] * 2\n"
            "bad = [m for m in sys.modules if m.split('.')[0] in ('jax', 'jaxlib', 'flax') or "
            "m.startswith('tensorvm.compiler')]\n"
            "assert not bad, bad\n")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)
