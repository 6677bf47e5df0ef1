"""A JAX MLP whose hidden layer is one fused custom kernel (bias + GELU).

``export()`` traces the model with ``jax.ffi.ffi_call("bias_gelu", ...)`` in
place of the layer, so ``jax.export`` writes StableHLO with a
``stablehlo.custom_call @bias_gelu``; ``kernels()`` declares that call with
its C and OpenCL sources; ``compile_model()`` builds a .vmfb that carries
them.  ``reference()`` is the same model in plain JAX (what the kernel must
match).  model.mlir is the committed export (so running needs no JAX).
"""
from __future__ import annotations

import pathlib

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
BATCH, IN, HIDDEN, OUT = 8, 32, 64, 10


def weights(seed: int = 0) -> dict:
    rng = np.random.default_rng(seed)
    return {"w1": (rng.standard_normal((IN, HIDDEN)) / np.sqrt(IN)).astype(np.float32),
            "b1": (0.1 * rng.standard_normal(HIDDEN)).astype(np.float32),
            "w2": (rng.standard_normal((HIDDEN, OUT)) / np.sqrt(HIDDEN)).astype(np.float32),
            "b2": (0.1 * rng.standard_normal(OUT)).astype(np.float32)}


def _model(bias_gelu):
    def model(w1, b1, w2, b2, x):
        return bias_gelu(x @ w1, b1) @ w2 + b2
    return model


def reference(params: dict, x):
    """The model in plain JAX (GELU's tanh form, as the kernels compute it)."""
    import jax
    import jax.numpy as jnp
    def bias_gelu(h, b):
        return jax.nn.gelu(h + b, approximate=True)
    return np.asarray(jax.jit(_model(bias_gelu))(**{k: jnp.asarray(v) for k, v in params.items()},
                                                 x=jnp.asarray(x)))


def export() -> str:
    """StableHLO text of the model with the fused layer as a custom_call."""
    import jax
    from jax import export as jexport

    def bias_gelu(h, b):
        return jax.ffi.ffi_call("bias_gelu", jax.ShapeDtypeStruct(h.shape, h.dtype))(h, b)
    spec = lambda *s: jax.ShapeDtypeStruct(s, np.float32)
    exp = jexport.export(jax.jit(_model(bias_gelu)), disabled_checks=[
        jexport.DisabledSafetyCheck.custom_call("bias_gelu")])(
        spec(IN, HIDDEN), spec(HIDDEN), spec(HIDDEN, OUT), spec(OUT), spec(BATCH, IN))
    return exp.mlir_module()


def kernels(width: int = HIDDEN) -> list:
    """The declaration of ``bias_gelu``: signature, workgroups, C and OpenCL."""
    from tensorvm.compiler import CustomKernel
    opencl = (HERE / "bias_gelu.cl").read_text().replace(
        "#define BIAS_GELU_N 64", f"#define BIAS_GELU_N {width}")
    return [CustomKernel("bias_gelu", inputs=[f"{BATCH}x{width}xf32", f"{width}xf32"],
                         outputs=[f"{BATCH}x{width}xf32"], workgroups="out0[0]",
                         c=(HERE / "bias_gelu.c").read_text(), opencl=opencl)]


def compile_model(targets=("cpu", "opencl"), text: str | None = None) -> bytes:
    from tensorvm import compiler
    text = text if text is not None else (HERE / "model.mlir").read_text()
    return compiler.compile_str(text, targets=list(targets), custom_kernels=kernels())
