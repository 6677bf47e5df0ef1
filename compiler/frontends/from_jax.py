"""JAX frontend: ``compile_jax(fn, *example_args_or_specs)`` through ``jax.export``.

Example arguments may be arrays, ``jax.ShapeDtypeStruct``s or
``spec("b, 784")`` (string dims become symbolic: one ``jax.export`` scope
per call, so ``"b"`` in two inputs is the same extent).  Arguments may be
pytrees; the module takes and returns the same nesting (recorded in the
reflection, rebuilt by runtime/pytree.py).  ``constants=(i, ...)`` bakes
those positional arguments (weights, say) into the module as constants, so
the compiled function no longer takes them.
"""
from __future__ import annotations

from .common import Exported, FrontendError, TensorSpec, describe_treedef, require


def _jax():
    jax = require("jax", "jax")
    require("jax.export", "jax")
    return jax


def export_jax(fn, *example_args, constants=(), name=None, platform="cpu") -> Exported:
    """``fn`` exported as StableHLO for ``example_args``; see the module docstring."""
    jax = _jax()
    from jax import export
    n = len(example_args)
    constants = sorted({i + n if i < 0 else i for i in constants})
    for i in constants:
        if not 0 <= i < n:
            raise FrontendError(f"constants: argument index {i} out of range ({n} arguments)")
    baked = {i: example_args[i] for i in constants}
    for i, v in baked.items():
        if any(isinstance(x, (TensorSpec, jax.ShapeDtypeStruct))
               for x in jax.tree_util.tree_leaves(v)):
            raise FrontendError(f"argument {i} is baked in as a constant, so it needs values, "
                                "not a shape spec")
    rest = [a for i, a in enumerate(example_args) if i not in baked]
    specs = _specs(jax, export, rest)

    def program(*args):
        it = iter(args)
        return fn(*[baked[i] if i in baked else next(it) for i in range(n)])

    program.__name__ = name or getattr(fn, "__name__", "program")
    try:
        exp = export.export(jax.jit(program), platforms=[platform])(*specs)
    except (TypeError, ValueError) as e:
        raise FrontendError(f"jax.export of {program.__name__} failed: {e}") from e
    if exp.ordered_effects or exp.unordered_effects:
        raise FrontendError(f"{program.__name__} has side effects "
                            f"({[*exp.ordered_effects, *exp.unordered_effects]}); "
                            "a module export must be pure")
    if len(exp.module_kept_var_idx) != len(exp.in_avals):
        raise FrontendError("jax.export dropped unused arguments; the runtime would not "
                            "match the pytree (use every argument or bake it as a constant)")
    args_tree, kwargs_tree = jax.tree_util.treedef_children(exp.in_tree)
    return Exported(exp.mlir_module(), program.__name__, {
        "pytree_args": describe_treedef(args_tree, jax.tree_util),
        "pytree_results": describe_treedef(exp.out_tree, jax.tree_util)})


def compile_jax(fn, *example_args, targets=("cpu",), constants=(), **options) -> bytes:
    """Compile the JAX function ``fn`` to a .vmfb (bytes); ``options`` as
    ``compile_str``.  The module's ``main`` takes ``fn``'s arguments minus the
    ``constants``, nested as given, and returns ``fn``'s result nesting."""
    return export_jax(fn, *example_args, constants=constants,
                      name=options.pop("module_name", None)).compile(targets, **options)


def _specs(jax, export, args):
    """``jax.ShapeDtypeStruct`` pytrees for ``args``; symbolic dims share one scope."""
    import numpy as np
    scope = export.SymbolicScope()

    def one(x):
        if isinstance(x, jax.ShapeDtypeStruct):
            return x
        if isinstance(x, TensorSpec):
            if not x.symbolic:
                return jax.ShapeDtypeStruct(x.shape, x.dtype)
            dims = export.symbolic_shape(", ".join(str(d) for d in x.shape), scope=scope)
            return jax.ShapeDtypeStruct(dims, x.dtype)
        a = x if hasattr(x, "shape") and hasattr(x, "dtype") else np.asarray(x)
        return jax.ShapeDtypeStruct(a.shape, a.dtype)

    return [jax.tree_util.tree_map(one, a, is_leaf=lambda v: isinstance(v, TensorSpec))
            for a in args]
