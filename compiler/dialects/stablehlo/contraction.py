"""StableHLO contraction ops (dot, dot_general, convolution, fft, einsum)
and their spec rules, quantized forms and dot algorithms."""
from __future__ import annotations

from ...ir.attributes import DenseElementsAttr, StructAttr, ints
from ...ir.symbolic import make
from ...ir.types import is_complex
from ...ir import einsum_config
from ..opdef import STRUCTURED, DECOMPOSED, HEAVY, OWN, POSITIVE, STRIDED, defop
from ..checks import (
    S, attr_ints, compat, component, element_of, expect_result, fail, fail_structure, in_range,
    is_quant, op_shapes, rank_of, shape_of)
from ..dims import attr_or
from ..quant_checks import quant_params
from .movement import padded_size


def _fft(op):
    xs = shape_of(op.operands[0])
    if xs is None:
        return
    n = attr_ints(op, "fft_length")
    kind = getattr(op.attributes.get("fft_type"), "value", "FFT")
    if not 1 <= len(n) <= 3:
        fail(op, f"fft_length must contain 1 to 3 elements, got {len(n)}")
    if len(xs) < len(n):
        fail(op, f"operand rank must not be less than fft rank of {len(n)} for operand of type "
                 f"{op.operands[0].type}")
    x_el, r_el = element_of(op.operands[0]), element_of(op.results[0])
    if kind in ("FFT", "IFFT"):
        if not is_complex(x_el):
            fail(op, f"{kind} takes a complex tensor as input, but is given {op.operands[0].type}")
        expect_result(op, xs)
        return
    tail = xs[len(xs) - len(n):]
    if kind == "RFFT":
        if x_el not in ("f32", "f64"):
            fail(op, f"RFFT requires f32 or f64 input type, but is given '{x_el}'.")
        for a, b in zip(tail, n):
            if a is not None and a != b:
                fail(op, f"RFFT requires innermost dimensions match fft_length. Got: "
                         f"{list(tail)} but wanted {list(n)}")
        if r_el and not is_complex(r_el):
            fail(op, "RFFT produces a complex tensor")
        expect_result(op, list(xs[:-1]) + [n[-1] // 2 + 1])
        return
    if not is_complex(x_el):                       # IRFFT
        fail(op, f"IRFFT takes a complex tensor as input, but is given {op.operands[0].type}")
    if r_el and r_el != component(x_el):
        fail(op, f"IRFFT produces a '{component(x_el)}' tensor, but the result is '{op.results[0].type}'")
    want = list(n[:-1]) + [n[-1] // 2 + 1]
    for a, b in zip(tail, want):
        if a is not None and a != b:
            fail(op, f"IRFFT requires non-final dimensions match fft_length and final "
                     f"dimension match fft_length[-1] / 2 + 1. Got: {list(tail)} but wanted {want}")
    expect_result(op, list(xs[:len(xs) - len(n)]) + list(n))


def _dot_general(op):
    ls, rs = shape_of(op.operands[0]), shape_of(op.operands[1])
    a = op.attributes.get("dot_dimension_numbers")
    if ls is None or rs is None or not isinstance(a, StructAttr):
        return
    f = a.fields
    lb, rb = tuple(f.get("lhs_batching_dimensions", ())), tuple(f.get("rhs_batching_dimensions", ()))
    lc, rc = tuple(f.get("lhs_contracting_dimensions", ())), tuple(f.get("rhs_contracting_dimensions", ()))
    if len(lb) != len(rb):
        fail(op, "lhs and rhs should have the same number of batching dimensions")
    if len(lc) != len(rc):
        fail(op, "lhs and rhs should have the same number of contracting dimensions")
    for what, dims, rank in (("lhs_batching_dimensions", lb, len(ls)), ("rhs_batching_dimensions", rb, len(rs)),
                             ("lhs_contracting_dimensions", lc, len(ls)),
                             ("rhs_contracting_dimensions", rc, len(rs))):
        in_range(op, what, dims, rank)
    if set(lb) & set(lc) or set(rb) & set(rc):
        fail(op, "has duplicated dimension from batching and contracting dimensions")
    for x, y in list(zip(lb, rb)) + list(zip(lc, rc)):
        if not compat(ls[x], rs[y]):
            fail(op, f"lhs dimension {x} ({ls[x]}) and rhs dimension {y} ({rs[y]}) should match")
    pc = op.attributes.get("precision_config")
    if pc is not None and len(getattr(pc, "elements", ())) > 2:
        fail(op, "expects precision config to be empty or have <= 2 elements.")
    out = [ls[d] for d in lb] + [d for k, d in enumerate(ls) if k not in lb and k not in lc] \
        + [d for k, d in enumerate(rs) if k not in rb and k not in rc]
    expect_result(op, out)


def _convolution(op):
    xs, ks = shape_of(op.operands[0]), shape_of(op.operands[1])
    a = op.attributes.get("dimension_numbers")
    if xs is None or ks is None or not isinstance(a, StructAttr):
        return
    f = a.fields
    if len(xs) != len(ks):
        fail(op, f"expects convolution arguments to have same number of dimensions. Got: "
                 f"{op.operands[0].type} and {op.operands[1].type}.")
    n = len(xs)
    ins = (f.get("input_batch_dimension"), f.get("input_feature_dimension")) + tuple(f.get("input_spatial_dimensions", ()))
    kern = (f.get("kernel_input_feature_dimension"), f.get("kernel_output_feature_dimension")) + \
        tuple(f.get("kernel_spatial_dimensions", ()))
    outs = (f.get("output_batch_dimension"), f.get("output_feature_dimension")) + \
        tuple(f.get("output_spatial_dimensions", ()))
    if None in ins + kern + outs:
        return
    spatial = len(ins) - 2
    if not len(kern) - 2 == len(outs) - 2 == spatial:
        fail(op, f"expects the same size for input, kernel and output spatial-dimensions, but got "
                 f"{spatial}, {len(kern) - 2}, and {len(outs) - 2} resp.")
    for what, dims in (("input", ins), ("kernel", kern), ("output", outs)):
        if len(dims) != n or any(not 0 <= d < n for d in dims) or len(set(dims)) != len(dims):
            fail(op, f"expects input, kernel, and output dimension-numbers to be in-range [0, {n}) "
                     f"and unique ({what})")
    for key in ("window_strides", "lhs_dilation", "rhs_dilation"):
        vals = attr_ints(op, key, (1,) * spatial)
        if len(vals) != spatial:
            fail(op, f"expects {key} to have {spatial} elements (the spatial rank), got {len(vals)}")
        if any(v <= 0 for v in vals):
            fail(op, f"expects {key} to be positive, got {list(vals)}")
    fgc = attr_ints(op, "feature_group_count", (1,))[0]
    bgc = attr_ints(op, "batch_group_count", (1,))[0]
    if fgc > 1 and bgc > 1:
        fail(op, "expects batch_group_count and feature_group_count not to be both greater than 1")
    for k, d in enumerate(kern[2:]):
        if ks[d] == 0:
            fail(op, f"expects window to have positive value for {k}-th window dimension, but got 0.")
    in_f, k_in, k_out = xs[ins[1]], ks[kern[0]], ks[kern[1]]
    if in_f is not None and k_in is not None and in_f != k_in * fgc:
        fail(op, f"expects input feature dimension ({in_f}) / feature_group_count = kernel input "
                 f"feature dimension ({k_in}). Got feature_group_count = {fgc}.")
    if k_out is not None and (k_out % fgc or k_out % bgc):
        fail(op, f"expects output feature dimension size ({k_out}) to be a multiple of "
                 f"feature_group_count and batch_group_count")


def _dot(op):
    ls, rs = shape_of(op.operands[0]), shape_of(op.operands[1])
    if ls is None or rs is None:
        return
    if len(ls) not in (1, 2) or len(rs) not in (1, 2):
        fail(op, "expected both lhs/rhs ranks to be either 1 or 2")
    if not compat(ls[-1], rs[0]):
        fail(op, f"expected lhs dimension {len(ls) - 1} ({ls[-1]}) to match rhs dimension 0 ({rs[0]})")
    pc = op.attributes.get("precision_config")
    if pc is not None and len(getattr(pc, "elements", ())) > 2:
        fail(op, "'precision_config' failed to satisfy constraint")
    expect_result(op, list(ls[:-1]) + list(rs[1:]))


KNOWN_DOT_ALGORITHMS = {
    ("f8", "f8", "f32"): (1,), ("bf16", "bf16", "f32"): (1, 3, 6, 9), ("bf16", "bf16", "bf16"): (1,),
    ("f16", "f16", "f16"): (1,), ("f16", "f16", "f32"): (1,), ("tf32", "tf32", "f32"): (1, 3),
    ("f32", "f32", "f32"): (1,), ("f64", "f64", "f64"): (1,),
}


def dot_algorithm_error(fields: dict) -> str | None:
    """Why a ``#stablehlo.dot_algorithm`` is not a known one (None: it is)."""
    def field(key, default=None):
        v = fields.get(key, default)
        v = getattr(v, "type", v)
        return str(getattr(v, "element", getattr(v, "value", v)))
    lhs, rhs, acc = (field(k) for k in ("lhs_precision_type", "rhs_precision_type", "accumulation_type"))
    counts = [fields.get(k, 1) for k in ("lhs_component_count", "rhs_component_count",
                                         "num_primitive_operations")]
    counts = [getattr(c, "value", c) for c in counts]
    imprecise = field("allow_imprecise_accumulation", False) in ("True", "true", "1")
    if not all(isinstance(c, int) for c in counts):
        return None
    key = ("f8", "f8", acc) if lhs == rhs and lhs.startswith("f8") else (lhs, rhs, acc)
    if counts[:2] != [1, 1] or counts[2] not in KNOWN_DOT_ALGORITHMS.get(key, ()) or \
            (imprecise and key[0] != "f8"):
        return (f"dot algorithm not known to be supported on any hardware: {{lhs:'{lhs}', "
                f"rhs:'{rhs}', accum:'{acc}', lhs_components:{counts[0]}, rhs_components:"
                f"{counts[1]}, primitive_ops:{counts[2]}, imprecise:{int(imprecise)}}}")
    return None


def _dot_algorithm(op):
    alg = op.attributes.get("algorithm")
    if not isinstance(alg, StructAttr):
        return
    pc = op.attributes.get("precision_config")
    if pc is not None and any(getattr(e, "value", "DEFAULT") != "DEFAULT" for e in getattr(pc, "elements", ())):
        fail(op, "must specify DEFAULT precision config when algorithm is set.")
    problem = dot_algorithm_error(alg.fields)     # the parser reports it where the attribute is
    if problem is not None:
        fail(op, problem)


def _dot_general_all(op):
    _dot_general(op)
    _dot_algorithm(op)
    _dot_general_quant(op)


def _conv_window(op):
    """Padding, window reversal and element types of convolution / dynamic_conv."""
    a = op.attributes.get("dimension_numbers")
    xs, ks = shape_of(op.operands[0]), shape_of(op.operands[1])
    if not isinstance(a, StructAttr) or xs is None or ks is None:
        return
    spatial = len(a.fields.get("input_spatial_dimensions", ()))
    pad = op.attributes.get("padding")
    if isinstance(pad, DenseElementsAttr) and pad.array.size:
        shape = tuple(pad.array.shape)
        if len(shape) != 2 or shape[1] != 2:
            fail(op, f"expects the shape of padding-attribute to be {{N, 2}}, but got "
                     f"{{{', '.join(map(str, shape))}}}.")
        if shape[0] != spatial:
            fail(op, f"expects padding-entries to have same dimension-size as size of window "
                     f"dimensions ({spatial}), but got: {shape[0]}.")
    if op.name == S + "dynamic_conv" and len(op.operands) > 2:
        ps = shape_of(op.operands[2])
        if ps is not None and ps != (spatial, 2):
            fail(op, f"expects padding to be of shape [{spatial}, 2], but got [{', '.join(map(str, ps))}]")
    rev = op.attributes.get("window_reversal")
    if rev is not None:
        n = len(getattr(rev, "values", ()) or getattr(rev, "elements", ()) or
                (rev.array.reshape(-1) if isinstance(rev, DenseElementsAttr) else ()))
        if n != spatial:
            fail(op, f"expects window-reversal to have same dimension-size as size of window "
                     f"dimensions ({spatial}), but got: {n}.")
    bgc = attr_ints(op, "batch_group_count", (1,))[0]
    b = a.fields.get("input_batch_dimension")
    if isinstance(b, int) and 0 <= b < len(xs) and xs[b] is not None and bgc > 0 and xs[b] % bgc:
        fail(op, f"expects input batch dimension ({xs[b]}) to be divisible by batch_group_count. "
                 f"Got batch_group_count = {bgc}.")
    pc = op.attributes.get("precision_config")
    if pc is not None and len(getattr(pc, "elements", ())) > 2:
        fail(op, "expects precision config to be empty or have <= 2 elements.")
    le, ke = element_of(op.operands[0]), element_of(op.operands[1])
    if le != ke and not (is_quant(le) or is_quant(ke)):
        fail(op, f"expects lhs and rhs to have compatible element type. Got: '{le}' and '{ke}'")


def _conv_all(op):
    _conv_window(op)
    _convolution(op)
    _conv_quant(op)


def _quant_contraction(op, rhs_out_dim, result_out_dim, rhs_contracting=None):
    """dot_general (spec C14-C20) and convolution (C28-C34) on quantized
    tensors: rhs quantized whenever anything is; lhs and result quantized
    alike; storage and expressed types agree; per-axis axes where the
    contraction allows them.  ``rhs_contracting`` given (dot_general): the
    rhs zero points must be 0 and its axis not contracted."""
    lhs, rhs, res = op.operands[0], op.operands[1], op.results[0]
    le, re_, oe = element_of(lhs), element_of(rhs), element_of(res)
    if not any(map(is_quant, (le, re_, oe))):
        return
    if not is_quant(re_) or is_quant(le) != is_quant(oe):
        fail(op, "rhs should be quantized for quantized operations and "
                 "is_quantized(lhs)=is_quantized(result) should hold")
    qr = quant_params(re_)
    if qr is None:
        return
    if rhs_contracting is not None:
        if qr[4] is None and any(zp != 0 for _, zp in qr[5]):
            fail(op, "Zero point of rhs should be 0")
        if qr[4] is not None and any(zp != 0 for _, zp in qr[5]):
            fail(op, "Zero points of rhs should be 0")
        if qr[4] is not None and qr[4] in rhs_contracting:
            fail(op, "Quantization dimension of rhs should not be in the contracting dimension of rhs")
    elif qr[4] is not None and rhs_out_dim is not None and qr[4] != rhs_out_dim:
        fail(op, "quantization dimension of rhs should be same with kernel_output_feature_dimension")
    qo = quant_params(oe) if is_quant(oe) else None
    if rhs_contracting is None and qo is not None and qo[4] is not None and \
            result_out_dim is not None and qo[4] != result_out_dim:
        fail(op, "quantization dimension of result should be same with output_feature_dimension")
    if is_quant(le):
        ql = quant_params(le)
        if ql is None or qo is None:
            return
        if ql[0] != qr[0]:
            fail(op, "mismatched lhs and rhs quantization storage types")
        if not ql[3] == qr[3] == qo[3]:
            fail(op, "mismatched lhs, rhs and result quantization expressed types")
        if qr[4] is None and qo[4] is not None:
            fail(op, "mismatched rhs and result quantization granularity")
    elif not le == qr[3] == oe:
        fail(op, "mismatched rhs quantization expressed type and lhs and result element type")


def _dot_general_quant(op):
    a = op.attributes.get("dot_dimension_numbers")
    rc = tuple(a.fields.get("rhs_contracting_dimensions", ())) if isinstance(a, StructAttr) else ()
    _quant_contraction(op, None, None, rc)


def _conv_quant(op):
    a = op.attributes.get("dimension_numbers")
    f = a.fields if isinstance(a, StructAttr) else {}
    _quant_contraction(op, f.get("kernel_output_feature_dimension"), f.get("output_feature_dimension"))


def _einsum(op):
    text = getattr(op.attributes.get("einsum_config"), "value", None)
    if not isinstance(text, str):
        fail(op, "requires attribute 'einsum_config' (a string)")
    got = op_shapes(op)
    if got is None:
        return
    ins, outs = got
    try:
        _, out_labels, sizes = einsum_config.parse(text, [len(s) for s in ins], ins)
    except ValueError as e:
        fail(op, str(e))
    want = [sizes.get(l) for l in out_labels]
    res = outs[0] if outs else ()
    if len(res) != len(want) or any(a is not None and b is not None and a != b
                                    for a, b in zip(res, want)):
        shown = "x".join("?" if w is None else str(w) for w in want)
        fail(op, f"result shape [{'x'.join('?' if d is None else str(d) for d in res)}] does "
                 f"not match einsum_config {text!r}, which gives [{shown}]")


def _dot_dims(op, dn):
    ranks = [getattr(v.type, "rank", None) for v in op.operands]
    got = {}
    for side, rank in zip(("lhs", "rhs"), ranks):
        for kind in ("batching", "contracting"):
            key = f"{side}_{kind}_dimensions"
            v = dn.get(key, ())
            if not isinstance(v, (tuple, list)) or not all(
                    isinstance(d, int) and not isinstance(d, bool) for d in v):
                fail_structure(op, f"{key} must be a list of integers, got {v!r}")
            if rank is not None and any(d < 0 or d >= rank for d in v):
                fail_structure(op, f"{key} = {list(v)} has a dimension outside [0, {rank})")
            got[key] = tuple(v)
        both = got[f"{side}_batching_dimensions"] + got[f"{side}_contracting_dimensions"]
        if len(set(both)) != len(both):
            fail_structure(op, f"{side} batching and contracting dimensions repeat a dimension")
    for kind in ("batching", "contracting"):
        if len(got[f"lhs_{kind}_dimensions"]) != len(got[f"rhs_{kind}_dimensions"]):
            fail_structure(op, f"lhs and rhs have different numbers of {kind} dimensions")



def _dot_general_dims(v, op, func):
    if rank_of(op.operands) is None:
        return
    dn = getattr(op.attributes.get("dot_dimension_numbers"), "fields", None)
    if not isinstance(dn, dict):
        fail_structure(op, "needs a dot_dimension_numbers attribute")
    _dot_dims(op, dn)


# -- shape rules (opdef ``shape``; dialects/dims.py) ----------------------------------------

def _dims_dot_general(S, op):
    lhs, rhs = (S.dims(v) for v in op.operands)
    dn = op.attr("dot_dimension_numbers").fields
    lb, rb = dn.get("lhs_batching_dimensions", ()), dn.get("rhs_batching_dimensions", ())
    lc, rc = dn.get("lhs_contracting_dimensions", ()), dn.get("rhs_contracting_dimensions", ())
    for a, b in list(zip(lb, rb)) + list(zip(lc, rc)):
        S.unify(lhs[a], rhs[b])
    lhs, rhs = (S.dims(v) for v in op.operands)
    out = [lhs[d] for d in lb]
    out += [lhs[d] for d in range(len(lhs)) if d not in lb and d not in lc]
    out += [rhs[d] for d in range(len(rhs)) if d not in rb and d not in rc]
    return [tuple(out)]


def _dims_dot(S, op):
    lhs, rhs = (S.dims(v) for v in op.operands)
    S.unify(lhs[-1], rhs[0])
    return [tuple(lhs[:-1]) + tuple(rhs[1:])]


def _dims_convolution(S, op):
    lhs, rhs = (S.dims(v) for v in op.operands[:2])
    dn = op.attr("dimension_numbers").fields
    lsp, ksp, osp = (tuple(dn[k]) for k in ("input_spatial_dimensions",
                                           "kernel_spatial_dimensions", "output_spatial_dimensions"))
    ns = len(lsp)
    if op.name == "stablehlo.dynamic_conv":
        pads = S.elements(op.operands[2])
        S.params[op] = {"padding": pads}
    else:
        pads = ints(op.attr("padding")) if op.attr("padding") is not None else (0,) * (2 * ns)
        pads = pads or (0,) * (2 * ns)
    strides, ldil, rdil = (attr_or(op, n, ns, 1) for n in ("window_strides", "lhs_dilation",
                                                       "rhs_dilation"))
    gb = getattr(op.attributes.get("batch_group_count"), "value", 1)
    out = [None] * op.result.type.rank
    out[dn["output_batch_dimension"]] = make("/", lhs[dn["input_batch_dimension"]], gb)
    out[dn["output_feature_dimension"]] = rhs[dn["kernel_output_feature_dimension"]]
    for s in range(ns):
        span = padded_size(lhs[lsp[s]], pads[2 * s], pads[2 * s + 1], ldil[s] - 1)
        w = make("+", make("*", make("-", rhs[ksp[s]], 1), rdil[s]), 1)
        out[osp[s]] = make("+", make("/", make("-", span, w), strides[s]), 1)
    return [tuple(out)]


OPS = (
    defop('stablehlo.convolution', STRUCTURED, fusion=HEAVY, operands=2, results=1, syntax=OWN, shape=_dims_convolution, int_attrs=(('feature_group_count', 64, POSITIVE), ('batch_group_count', 64, POSITIVE),), verify=(_conv_all,), traits=(STRIDED,), pull='pull_compute:convolution', parser='parse_convolution'),
    defop('stablehlo.dot', DECOMPOSED, operands=2, results=1, syntax=OWN, shape=_dims_dot, reason='rewritten as dot_general', verify=(_dot,)),
    defop('stablehlo.dot_general', STRUCTURED, fusion=HEAVY, operands=2, results=1, syntax=OWN, shape=_dims_dot_general, verify=(_dot_general_all,), structure=(_dot_general_dims,), traits=(STRIDED,)),
    defop('stablehlo.dynamic_conv', STRUCTURED, fusion=HEAVY, syntax=OWN, shape=_dims_convolution, int_attrs=(('feature_group_count', 64, POSITIVE), ('batch_group_count', 64, POSITIVE),), verify=(_conv_all,), shape_operands=(2,), static_form=('stablehlo.convolution', 2, ((2, 'padding'),)), pull='pull_compute:convolution', parser='parse_convolution'),
    defop('stablehlo.einsum', DECOMPOSED, keywords=(('config', 'einsum_config', 'string'),), reason='diagonal select + reduce, dot_general, transpose', verify=(_einsum,), rewrite='decompose_einsum:_einsum'),
    defop('stablehlo.fft', STRUCTURED, fusion=HEAVY, syntax=OWN, keywords=(('length', 'fft_length', 'dims'),), verify=(_fft,), pull='pull_compute:fft'),
    defop('stablehlo.unary_einsum', DECOMPOSED, keywords=(('config', 'einsum_config', 'string'),), reason='diagonal select + reduce, transpose', verify=(_einsum,), rewrite='decompose_einsum:_einsum'),
)
