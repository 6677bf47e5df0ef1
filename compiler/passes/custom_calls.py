"""Binds each ``stablehlo.custom_call`` to its declaration (custom_kernels.py).

A call to a ``CustomKernel`` is tagged ``tvm.custom_kernel`` (dispatch
formation gives it a dispatch of its own); a call to a ``HostCall`` is tagged
``tvm.host_call`` (it stays in the host program, which waits for the device
and calls the function bound at load time).  Each call's operand and result
types must be its declaration's; results must be row-major (the default
layout).  An undeclared target is an ``UnsupportedOpError`` that names it,
except JAX's LAPACK calls, which get tensorvm's own kernels (lapack_calls.py).
"""
from __future__ import annotations

from ..custom_kernels import HOST_CALL_ATTR, KERNEL_ATTR, CustomKernel, CustomKernelError
from ..errors import UnsupportedOpError
from ..ir.attributes import DenseElementsAttr, StringAttr, ints
from ..ir.types import TensorType
from .base import Pass
from .canonicalize import IDENTITY_CUSTOM_CALLS
from .lapack_calls import declaration as linalg_declaration, is_linalg_target
from .shapes import is_shape_assertion


def call_target(op) -> str:
    a = op.attributes.get("call_target_name")
    return getattr(a, "name", None) or getattr(a, "value", None) or ""


class BindCustomCalls(Pass):
    name = "bind-custom-calls"

    def __init__(self, declarations: dict):
        self.declarations = declarations

    def run(self, module) -> None:
        for op in module.walk():
            if op.name != "stablehlo.custom_call" or is_shape_assertion(op):
                continue
            target = call_target(op)
            if target in IDENTITY_CUSTOM_CALLS:
                continue
            decl = self.declarations.get(target)
            if decl is None and is_linalg_target(target):     # JAX's LAPACK calls: our kernels
                decl = linalg_declaration(op, target)
                self.declarations.setdefault(decl.name, decl)
                op.attributes[KERNEL_ATTR] = StringAttr(decl.name)
                continue
            if decl is None:
                known = ", ".join(sorted(self.declarations)) or "none"
                raise UnsupportedOpError(
                    "stablehlo.custom_call", f"@{target} is not declared (declared: {known}); "
                    "pass compile_str(..., custom_kernels=[CustomKernel(...) or HostCall(...)])",
                    op.location)
            for v in (*op.operands, *op.results):
                if not isinstance(v.type, TensorType):
                    raise CustomKernelError(target, f"takes and returns tensors only, not {v.type}")
            _check_layouts(op, target)
            decl.check_call(op)
            op.attributes[KERNEL_ATTR if isinstance(decl, CustomKernel) else HOST_CALL_ATTR] = \
                StringAttr(target)


def _check_layouts(op, target) -> None:
    for key in ("operand_layouts", "result_layouts"):
        for i, lay in enumerate(getattr(op.attributes.get(key), "elements", ())):
            perm = list(ints(lay)) if isinstance(lay, DenseElementsAttr) else []
            if perm != sorted(perm, reverse=True):
                raise CustomKernelError(target, f"{key}[{i}] = {perm} is not row-major; "
                                        "custom kernels take row-major (descending) layouts")
