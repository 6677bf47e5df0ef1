"""Helpers the ops' verify rules share: located failures, shape and
element-type access, compatibility of (possibly dynamic) shapes, dims
attributes, bounds, and the element-family and same-type checks that
``elements`` / ``same_type`` declare.  Dynamic dims (``None``) are
compatible with any size, so a rule only rejects what is wrong for every
size."""
from __future__ import annotations

from ..errors import CompileError
from ..ir.attributes import DenseElementsAttr, ints
from ..ir.types import TensorType, is_complex, is_float, is_integer


S = "stablehlo."


def fail(op, message: str, location=None):
    """A CompileError at ``location`` (default: the op's)."""
    location = location or op.location
    where = f"{location}: " if location is not None else ""
    raise CompileError(f"{where}error: '{op.name}' op {message}")


def shape_of(v):
    return v.type.shape if isinstance(v.type, TensorType) else None


def element_of(v) -> str:
    return v.type.element if isinstance(v.type, TensorType) else ""


def compat(a, b) -> bool:
    return a is None or b is None or a == b


def compat_shapes(a, b) -> bool:
    return a is not None and b is not None and len(a) == len(b) and all(map(compat, a, b))


def compat_type(a, b) -> bool:
    if isinstance(a, TensorType) and isinstance(b, TensorType):
        return a.element == b.element and compat_shapes(a.shape, b.shape)
    return a == b


def compat_types(xs, ys) -> bool:
    xs, ys = list(xs), list(ys)
    return len(xs) == len(ys) and all(map(compat_type, xs, ys))


def attr_ints(op, key, default=()):
    a = op.attributes.get(key)
    return default if a is None else ints(a)


def expect_result(op, dims, index=0):
    """Result ``index`` must be compatible with the inferred ``dims``."""
    got = shape_of(op.results[index])
    if got is not None and not compat_shapes(got, tuple(dims)):
        want = "x".join("?" if d is None else str(d) for d in dims)
        fail(op, f"inferred shape '[{want}]' is incompatible with return type of operation "
                 f"'{op.results[index].type}' (failed to infer returned types)")


def in_range(op, what, dims, rank):
    for d in dims:
        if not 0 <= d < rank:
            fail(op, f"{what} contains invalid value {d} for rank {rank}")
    if len(set(dims)) != len(dims):
        fail(op, f"{what} should not have duplicates")


def is_quant(el: str) -> bool:
    return el.startswith("!quant.")


def is_per_axis(el: str) -> bool:
    return is_quant(el) and "{" in el


def kind_ok(kind: str, el: str) -> bool:
    if is_quant(el):
        return kind not in ("integer", "int_or_bool")
    if kind == "float_or_complex":
        return is_float(el) or is_complex(el)
    if kind == "float":
        return is_float(el)
    if kind == "integer":
        return is_integer(el) and el != "i1"
    return is_integer(el)          # int_or_bool: i1 is an integer type here


def bounds_of(t):
    """The ``#stablehlo.bounds<..>`` / ``type_extensions<bounds = [..]>`` of a
    tensor type, one entry (int or None) per dim, or None."""
    import re
    text = str(getattr(t, "encoding", None) or "")
    m = re.search(r"bounds\s*(?:<|=\s*\[)([^>\]]*)", text)
    if m is None:
        return None
    items = [x.strip() for x in m.group(1).split(",") if x.strip()]
    return [int(x) if x.lstrip("-").isdigit() else None for x in items]


def within_bounds(op, tensors):
    """A static size never exceeds the bound another type gives that dim."""
    for v in tensors:
        b = bounds_of(v.type)
        if b is None or len(b) != len(v.type.shape):
            continue
        for w in tensors:
            for k, (lim, d) in enumerate(zip(b, shape_of(w) or ())):
                if lim is not None and d is not None and v.type.shape[k] is None and d > lim:
                    fail(op, f"inferred type(s) '{v.type}' are incompatible with return type(s) of "
                             f"operation '{w.type}': dimension {k} ({d}) exceeds the bound {lim} "
                             f"(failed to infer returned types)")


def per_axis_check(op):
    for i, v in enumerate(list(op.operands) + list(op.results)):
        if is_per_axis(element_of(v)):
            what = f"operand #{i}" if i < len(op.operands) else f"result #{i - len(op.operands)}"
            fail(op, f"{what} must be ranked tensor of per-tensor quantized or non-quantized "
                     f"values, but got '{v.type}'")


def component(el: str) -> str:
    """The real element type of ``complex<T>`` (T), or ``el`` itself."""
    return el[len("complex<"):-1] if is_complex(el) else el


def symbol_ref(op, name):
    """The op of the enclosing module with ``sym_name`` == name, or None."""
    top = op
    while top.parent is not None and top.parent.parent is not None and top.parent.parent.parent is not None:
        top = top.parent.parent.parent
    block = top.parent
    for o in (block.operations if block is not None else ()):
        sym = o.attributes.get("sym_name")
        if sym is not None and getattr(sym, "value", sym) == name:
            return o
    return None


def const_ints(v):
    src = v.defining_op
    value = src.attributes.get("value") if src is not None and src.name == S + "constant" else None
    return ints(value) if isinstance(value, DenseElementsAttr) else None


def op_shapes(op):
    vals = list(op.operands) + list(op.results)
    if not all(isinstance(v.type, TensorType) for v in vals):
        return None
    return [v.type.shape for v in op.operands], [r.type.shape for r in op.results]


def element_family(op, kind: str) -> None:
    """Every operand holds an element type of the declared family."""
    for i, v in enumerate(op.operands):
        if not kind_ok(kind, element_of(v)):
            fail(op, f"operand #{i} must be ranked tensor of {kind.replace('_', ' ')} "
                     f"values, but got '{v.type}'")


def same_element_type(op) -> None:
    """Operands and results share one element type (quantized types excepted:
    their own rules compare storage and expressed types)."""
    els = {element_of(v) for v in (*op.operands, *op.results) if isinstance(v.type, TensorType)}
    if len(els) > 1 and not any(is_quant(e) for e in els):
        fail(op, "requires the same element type for all operands and results")


# -- structural checks (the verifier's wording: what codegen relies on) ------------------
def fail_structure(op, message: str):
    """A CompileError worded as the structural verifier words it."""
    where = f"{op.location}: " if op.location is not None else ""
    raise CompileError(f"{where}error: '{op.name}' {message}")


def rank_of(values, index=0):
    """The rank of ``values[index]``'s type, or None (absent, unranked, not a tensor)."""
    return getattr(values[index].type, "rank", None) if len(values) > index else None


def dims_attr(op, key, bound, *, length=None, required=True, unique=True):
    """Attribute ``key`` of ``op`` as ints, each in [0, bound)."""
    attr = op.attributes.get(key)
    if attr is None:
        if required:
            fail_structure(op, f"needs a {key} attribute")
        return ()
    try:
        v = ints(attr)
    except (TypeError, ValueError, AttributeError):
        fail_structure(op, f"{key} must be a list of integers, got {attr}")
    if length is not None and len(v) != length:
        fail_structure(op, f"{key} has {len(v)} entries, expected {length}")
    if bound is not None and any(d < 0 or d >= bound for d in v):
        fail_structure(op, f"{key} = {list(v)} has a dimension outside [0, {bound})")
    if unique and len(set(v)) != len(v):
        fail_structure(op, f"{key} = {list(v)} repeats a dimension")
    return v


def always(op) -> bool:
    """A ``noop`` rule for ops that copy their operand whenever the types match
    (convert, reshape, slice)."""
    return True
