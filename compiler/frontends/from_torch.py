"""PyTorch frontend: ``torch.export`` then torchax's JAX interpretation of the graph.

``compile_torch(module_or_fn, example_args, dynamic_shapes=...)`` exports
with ``torch.export.export`` (``dynamic_shapes`` as torch takes it, e.g.
``{"x": {0: torch.export.Dim("b")}}``), turns the ExportedProgram into a JAX
function with torchax (pinned in the ``torch`` extra) and compiles that as
``compile_jax`` does.  The module's parameters and buffers are module
constants (globals of the .vmfb), not arguments: ``main`` takes exactly the
forward's tensor inputs and returns its output nesting (tuples, lists,
dicts, HuggingFace ``ModelOutput``s as dicts).
"""
from __future__ import annotations

from .common import Exported, FrontendError, require
from .from_jax import export_jax


def export_torch(module_or_fn, example_args, dynamic_shapes=None, name=None) -> Exported:
    """``module_or_fn`` exported as StableHLO for ``example_args`` (a tuple of tensors)."""
    torch = require("torch", "torch")
    module = module_or_fn
    if not isinstance(module, torch.nn.Module):
        if not callable(module_or_fn):
            raise FrontendError(f"compile_torch takes an nn.Module or a function, got "
                                f"{type(module_or_fn).__name__}")
        module = _FunctionModule(torch, module_or_fn)
    module = module.eval()
    args = tuple(example_args) if isinstance(example_args, (tuple, list)) else (example_args,)
    for i, a in enumerate(args):
        if not isinstance(a, torch.Tensor):
            raise FrontendError(f"example argument {i} is a {type(a).__name__}; the torch "
                                "frontend takes tensors (nested inputs: flatten them first)")
    from torch.nn.attention import SDPBackend, sdpa_kernel
    try:      # traced with the attention backend export_program decomposes with
        with torch.no_grad(), sdpa_kernel([SDPBackend.MATH]):
            ep = torch.export.export(module, args, dynamic_shapes=dynamic_shapes)
    except Exception as e:   # noqa: BLE001 - torch raises many kinds (UserError, guards, ...)
        raise FrontendError(f"torch.export failed: {type(e).__name__}: {e}") from e
    return export_program(ep, name or getattr(module_or_fn, "__name__", type(module).__name__))


def export_program(ep, name: str = "program") -> Exported:
    """A ``torch.export.ExportedProgram`` (e.g. ``torch.export.load("m.pt2")``) as StableHLO."""
    torch = require("torch", "torch")
    require("torchax", "torch")
    from torch.fx.passes.shape_prop import _extract_tensor_metadata
    from torchax import export as tx_export
    mutated = _mutated_buffers(torch, ep)
    if mutated:      # the module's constants cannot change between calls
        raise FrontendError(f"the program updates buffers {', '.join(mutated)} (training-mode "
                            "state such as BatchNorm running stats?); export it in eval() "
                            "without in-place buffer updates")
    for node in ep.graph.nodes:    # torch.export.load leaves out what torchax reads shapes from
        val = node.meta.get("val")
        if node.op == "placeholder" and "tensor_meta" not in node.meta and \
                isinstance(val, torch.Tensor):
            node.meta["tensor_meta"] = _extract_tensor_metadata(val)
    # Attention is decomposed with the backend the program was traced with:
    # the exported graph's ``view``s rely on the strides of that backend's
    # output (CPU's flash kernel and the math one differ), and a mismatch
    # fails in torch's decomposition with "Cannot view a tensor with shape
    # ... and strides ...".  export_torch traces with the math backend (the
    # flash one's GPT-2 graph fails to decompose at all: its ``.view`` after a
    # dropped ``.contiguous()``); a program exported elsewhere (``.pt2``) was
    # most likely traced with torch's default, tried second.
    # 64-bit types are on while converting and exporting: torch's int64
    # (token ids, position buffers, indices) and float64 stay what torch
    # says, where JAX's default would narrow them to 32 bits and the module
    # would refuse the int64 tensors the model is called with.
    import contextlib

    import jax
    from torch.nn.attention import SDPBackend, sdpa_kernel
    tries = [lambda: sdpa_kernel([SDPBackend.MATH]), contextlib.nullcontext]
    for i, backend in enumerate(tries):
        try:
            with backend(), jax.enable_x64(True):
                return _export_converted(ep, name, tx_export)
        except ValueError as e:
            if "Cannot view a tensor" not in str(e) or i == len(tries) - 1:
                raise FrontendError(f"torch's decomposition of the exported program failed: "
                                    f"{str(e).splitlines()[0]}") from e


def _export_converted(ep, name, tx_export) -> Exported:
    states, func = tx_export.exported_program_to_jax(ep)
    avals = tx_export.extract_avals(ep)
    out_spec = _describe_torch_spec(ep.call_spec.out_spec)

    def program(*inputs):
        return tuple(func(states, inputs))     # states: closed over -> module constants

    program.__name__ = name
    exported = export_jax(program, *avals, name=program.__name__)
    exported.reflection["pytree_results"] = out_spec
    return exported


def compile_torch(module_or_fn, example_args, dynamic_shapes=None, *, targets=("cpu",),
                  **options) -> bytes:
    """Compile a PyTorch module or function to a .vmfb; ``options`` as ``compile_str``."""
    return export_torch(module_or_fn, example_args, dynamic_shapes,
                        name=options.pop("module_name", None)).compile(targets, **options)


class _FunctionModule:
    """A plain function as the nn.Module torch.export wants."""

    def __new__(cls, torch, fn):
        class Wrapped(torch.nn.Module):
            def forward(self, *args):
                return fn(*args)
        Wrapped.__name__ = getattr(fn, "__name__", "function")
        return Wrapped()


def _describe_torch_spec(spec) -> dict:
    """torch's output TreeSpec as runtime/pytree.py's plain nesting."""
    import collections.abc
    if spec.is_leaf():
        return {"t": "leaf"}
    kind = spec.type
    children = [_describe_torch_spec(spec.child(i)) for i in range(spec.num_children)]
    if kind is type(None):
        return {"t": "none"}
    if kind is tuple or kind is list:
        return {"t": kind.__name__, "c": children}
    if issubclass(kind, tuple) and hasattr(kind, "_fields"):
        return {"t": "namedtuple", "name": kind.__name__, "k": list(kind._fields), "c": children}
    if issubclass(kind, collections.abc.Mapping):      # dict, OrderedDict, ModelOutput
        keys = list(spec.context)
        if all(isinstance(k, (str, int)) for k in keys):
            return {"t": "dict", "k": keys, "c": children}
    raise FrontendError(f"output node type {kind.__module__}.{kind.__qualname__} cannot be "
                        "rebuilt by the runtime; return tensors, tuples, lists or dicts")


def _mutated_buffers(torch, ep) -> list:
    """Buffers the program updates: listed by a functional (decomposed)
    program's signature, or in torch.export's training IR the targets of
    in-place ops (through views) that are buffer inputs."""
    sig = ep.graph_signature
    found = set(sig.buffers_to_mutate.values())
    buffers = sig.inputs_to_buffers

    def base(node):
        while node.op == "call_function" and isinstance(node.target, torch._ops.OpOverload) \
                and node.args and node.target._schema.returns and \
                node.target._schema.returns[0].alias_info is not None:
            node = node.args[0]        # a view of its first argument
        return node

    for node in ep.graph.nodes:
        if node.op != "call_function" or not isinstance(node.target, torch._ops.OpOverload):
            continue
        for arg, value in zip(node.target._schema.arguments, node.args):
            if arg.alias_info is not None and arg.alias_info.is_write and \
                    isinstance(value, torch.fx.Node) and base(value).name in buffers:
                found.add(buffers[base(value).name])
    return sorted(found)
