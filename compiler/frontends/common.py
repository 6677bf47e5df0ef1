"""What every frontend shares: typed errors, lazy framework imports, tensor
specs with symbolic dims, the pytree description the runtime rebuilds, and
the last step (StableHLO text + reflection -> .vmfb)."""
from __future__ import annotations

import collections.abc
import importlib
from dataclasses import dataclass, field

from ..errors import CompileError


class FrontendError(CompileError):
    """A framework program this frontend cannot export (the message says what)."""


class FrameworkMissingError(FrontendError):
    """The framework a frontend needs is not installed; names the extra to install."""


def require(module: str, extra: str):
    """Import ``module`` or raise ``FrameworkMissingError`` naming ``pip install tensorvm[extra]``."""
    try:
        return importlib.import_module(module)
    except ImportError as e:
        raise FrameworkMissingError(f"this frontend needs '{module}' ({e}); install it with "
                                    f"pip install 'tensorvm[{extra}]'") from None


@dataclass(frozen=True)
class TensorSpec:
    """An input's shape and dtype without data; a dim may be a symbol (``"b"``)
    or an expression jax.export accepts (``"2*b"``)."""
    shape: tuple
    dtype: str = "float32"

    @property
    def symbolic(self) -> bool:
        return any(isinstance(d, str) for d in self.shape)


def spec(shape, dtype="float32") -> TensorSpec:
    """``spec("b, 784", "float32")`` or ``spec(("b", 784))``: an example input
    by shape only; string dims become symbolic (one scope per compile)."""
    if isinstance(shape, str):
        parts = [p.strip() for p in shape.split(",")] if shape.strip() else []
        shape = tuple(int(p) if p.lstrip("-").isdigit() else p for p in parts)
    for d in shape:
        if isinstance(d, bool) or not isinstance(d, (int, str)) or (isinstance(d, int) and d < 0):
            raise FrontendError(f"spec shape {tuple(shape)!r}: a dim is a non-negative int "
                                f"or a symbol name, got {d!r}")
    import numpy as np
    return TensorSpec(tuple(shape), np.dtype(dtype).name)


@dataclass
class Exported:
    """A framework program as StableHLO text, with the reflection the runtime
    needs to take and return the program's own nesting."""
    mlir: str
    name: str
    reflection: dict = field(default_factory=dict)   # for the exported "main"

    def compile(self, targets=("cpu",), **options) -> bytes:
        from ..api import CompileOptions, compile_text
        opts = CompileOptions(targets=tuple(targets), module_name=options.pop("module_name",
                                                                                self.name),
                              **options)
        opts.reflection = {"main": {**self.reflection, **opts.reflection.get("main", {})}}
        return compile_text(self.mlir, opts, f"<{self.name}>").vmfb


def describe_treedef(treedef, jax_tree_util) -> dict:
    """JAX's PyTreeDef as runtime/pytree.py's plain nesting (no jax types)."""
    tu = jax_tree_util
    if tu.treedef_is_leaf(treedef) and treedef.num_leaves == 1:
        return {"t": "leaf"}
    kind, aux = treedef.node_data()        # an empty list/tuple/dict is a node, None too
    if kind is type(None):
        return {"t": "none"}
    children = [describe_treedef(c, tu) for c in tu.treedef_children(treedef)]
    if kind is tuple:
        return {"t": "tuple", "c": children}
    if kind is list:
        return {"t": "list", "c": children}
    if issubclass(kind, collections.abc.Mapping):   # dict, OrderedDict, FrozenDict: JAX's order
        keys = aux[1] if issubclass(kind, collections.defaultdict) else aux
        return {"t": "dict", "k": _keys(list(keys), kind), "c": children}
    if issubclass(kind, tuple) and hasattr(kind, "_fields"):
        return {"t": "namedtuple", "name": kind.__name__, "k": list(kind._fields), "c": children}
    raise FrontendError(f"pytree node type {kind.__module__}.{kind.__qualname__} cannot be "
                        "rebuilt by the runtime; pass plain tuples, lists, dicts or namedtuples "
                        "(e.g. convert with flax.core.unfreeze or dataclasses.asdict)")


def _keys(keys, kind):
    for k in keys:
        if not isinstance(k, (str, int)) or isinstance(k, bool):
            raise FrontendError(f"{kind.__name__} key {k!r}: only str and int keys can be "
                                "recorded in a module")
    return keys
