"""Framework frontends: a JAX function, PyTorch module or Keras model in, a .vmfb out.

Not to be confused with ``tensorvm.compiler.frontend`` (singular), the MLIR
text parser every input ends in: these adapters only turn a framework's
program into StableHLO (through the framework's own exporter: ``jax.export``,
``torch.export`` + torchax, Keras 3's JAX backend, TensorFlow's XLA bridge) and hand it to
``compile_text``.  Each framework is imported when its function is first
called, never at ``import tensorvm.compiler.frontends``; each is a pyproject
extra (``tensorvm[flax]``, ``tensorvm[torch]``, ``tensorvm[keras]``, ``tensorvm[tf]``).

    from tensorvm.compiler.frontends import compile_jax, spec
    vmfb = compile_jax(apply, params, spec("b, 784", "float32"))
"""
from __future__ import annotations

from .common import FrameworkMissingError, FrontendError, TensorSpec, spec  # noqa: F401
from .from_jax import compile_jax, export_jax  # noqa: F401
from .from_keras import compile_keras, export_keras  # noqa: F401
from .from_torch import compile_torch, export_torch  # noqa: F401
from .from_tf import compile_tf, export_tf  # noqa: F401
from .artifacts import read_artifact  # noqa: F401
