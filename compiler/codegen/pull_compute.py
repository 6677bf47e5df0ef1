"""Pull forms of the computing ops: convolution, fft (as a direct DFT with
exact integer phase reduction), reduce_precision and bitcast_convert.

Like ``pull_ops``: ``handler(em, op, idx)`` returns one C expression per
result for the element at ``idx``, reading operand elements through
``BodyEmitter.value``.
"""
from __future__ import annotations

from ..errors import UnsupportedOpError
from ..ir.attributes import ints
from ..ir.types import bit_width, is_complex
from . import scalar
from .pull_ops import _attr_ints, _padding, _window_source


def convolution(em, op, idx):
    lhs, rhs = op.operands[:2]
    dn = op.attr("dimension_numbers").fields
    el = op.result.type.element
    ct = scalar.ctype(el)
    lsp = tuple(dn["input_spatial_dimensions"])
    ksp = tuple(dn["kernel_spatial_dimensions"])
    osp = tuple(dn["output_spatial_dimensions"])
    ns = len(lsp)
    strides = _attr_ints(op, "window_strides", ns, 1)
    ldil = _attr_ints(op, "lhs_dilation", ns, 1)
    rdil = _attr_ints(op, "rhs_dilation", ns, 1)
    rev = _attr_ints(op, "window_reversal", ns, 0)
    pad = _padding(op, ns)
    gf = getattr(op.attributes.get("feature_group_count"), "value", 1)
    gb = getattr(op.attributes.get("batch_group_count"), "value", 1)
    lshape, kshape = lhs.type.shape, rhs.type.shape
    n_out_feat = kshape[dn["kernel_output_feature_dimension"]]
    cg = kshape[dn["kernel_input_feature_dimension"]]
    ob, of = idx[dn["output_batch_dimension"]], idx[dn["output_feature_dimension"]]
    lb = ob
    if gb > 1:
        lb = em.tmp("int64_t", f"({of} / {n_out_feat // gb}) * {lshape[dn['input_batch_dimension']] // gb} + {ob}")
    acc = em.var(ct, scalar.literal(el, 0))
    k = em.fresh("f")
    em.open(f"for (int64_t {k} = 0; {k} < {cg}; ++{k})")
    lf = k if gf == 1 else em.tmp("int64_t", f"({of} / {n_out_feat // gf}) * {cg} + {k}")
    lidx, kidx = [None] * lhs.type.rank, [None] * rhs.type.rank
    lidx[dn["input_batch_dimension"]] = lb
    lidx[dn["input_feature_dimension"]] = lf
    kidx[dn["kernel_input_feature_dimension"]] = k
    kidx[dn["kernel_output_feature_dimension"]] = of
    conds, opened = [], 0
    for s in range(ns):
        wsize = kshape[ksp[s]]
        w = em.fresh("w")
        em.open(f"for (int64_t {w} = 0; {w} < {wsize}; ++{w})")
        opened += 1
        kidx[ksp[s]] = f"({wsize - 1} - {w})" if rev[s] else w
        lidx[lsp[s]] = _window_source(em, None, idx[osp[s]], strides[s], w, rdil[s], pad[s][0],
                                      ldil[s], lshape[lsp[s]], conds)
    if conds:
        em.open(f"if ({' && '.join(conds)})")
        opened += 1
    x = scalar.convert(lhs.type.element, el, em.value(lhs, lidx))
    y = scalar.convert(rhs.type.element, el, em.value(rhs, kidx))
    em.line(f"{acc} = {scalar.binary('add', el, acc, scalar.binary('multiply', el, x, y))};")
    for _ in range(opened + 1):
        em.close()
    return [acc]


def _twiddles(em, n):
    """Name of a file-scope table of (cos, sin)(2 pi m / n), m < n."""
    import math
    name = f"tvm_tw{n}"
    vals = []
    for m in range(n):
        a = 2.0 * math.pi * m / n
        vals += [repr(math.cos(a)), repr(math.sin(a))]
    em.decls.append(f"#ifndef TVM_TW{n}\n#define TVM_TW{n}\nstatic const double {name}[{2 * n}] = "
                    f"{{{', '.join(vals)}}};\n#endif")
    return name


def fft(em, op, idx):
    x = op.operands[0]
    kind = getattr(op.attr("fft_type"), "value", op.attr("fft_type"))
    lengths = ints(op.attr("fft_length"))
    r = len(lengths)
    rank = x.type.rank
    out_el = op.result.type.element
    inverse = kind in ("IFFT", "IRFFT")
    sign = "+" if inverse else "-"
    re, im = em.var("double", "0.0"), em.var("double", "0.0")
    tr, ti = "1.0", "0.0"
    js = []
    for d in range(r):
        n = lengths[d]
        j = em.fresh("j")
        em.open(f"for (int64_t {j} = 0; {j} < {n}; ++{j})")
        js.append(j)
        tw = _twiddles(em, n)
        m = em.tmp("int64_t", f"({j} * {idx[rank - r + d]}) % {n}")
        c, s = f"{tw}[2 * {m}]", f"({sign}{tw}[2 * {m} + 1])"
        if tr == "1.0":
            tr, ti = em.tmp("double", c), em.tmp("double", s)
        else:
            tr, ti = (em.tmp("double", f"{tr} * {c} - {ti} * {s}"),
                      em.tmp("double", f"{tr} * {s} + {ti} * {c}"))
    src = list(idx[:rank - r]) + js
    if kind == "IRFFT":
        half = x.type.shape[-1]
        xr, xi = em.var("double", "0.0"), em.var("double", "0.0")
        em.open(f"if ({js[-1]} < {half})")
        v = em.value(x, src)
        em.line(f"{xr} = (double){v}.re; {xi} = (double){v}.im;")
        em.close()
        em.open("else")
        mirror = list(idx[:rank - r]) + [f"(({lengths[d]} - {js[d]}) % {lengths[d]})" for d in range(r)]
        v = em.value(x, mirror)
        em.line(f"{xr} = (double){v}.re; {xi} = -(double){v}.im;")
        em.close()
    elif is_complex(x.type.element):
        v = em.value(x, src)
        xr, xi = f"(double){v}.re", f"(double){v}.im"
    else:
        xr, xi = f"(double){em.value(x, src)}", "0.0"
    em.line(f"{re} += {xr} * {tr} - {xi} * {ti};")
    if kind != "IRFFT":
        em.line(f"{im} += {xr} * {ti} + {xi} * {tr};")
    for _ in range(r):
        em.close()
    total = 1
    for n in lengths:
        total *= n
    scale = f" / {float(total)!r}" if inverse and total else ""
    if kind == "IRFFT":
        return [em.tmp(scalar.ctype(out_el), f"({scalar.ctype(out_el)})({re}{scale})")]
    part = scalar.ctype(out_el.replace("complex<", "").rstrip(">"))
    return [em.tmp(scalar.ctype(out_el), f"{scalar.ctype(out_el)}_make(({part})({re}{scale}), ({part})({im}{scale}))")]


def reduce_precision(em, op, idx):
    el = op.result.type.element
    e = op.attributes["exponent_bits"].value
    m = op.attributes["mantissa_bits"].value
    v = em.value(op.operands[0], idx)
    native = {"f16": (5, 10), "bf16": (8, 7)}.get(el)
    if native is not None:      # no narrowing beyond the storage type itself
        e = 8 if e >= native[0] else e
        m = 23 if m >= native[1] else m
    fn = "tvm_reduce_precision_f64" if scalar.ctype(el) == "double" else "tvm_reduce_precision_f32"
    return [em.tmp(scalar.ctype(el), scalar.rounded(el, f"{fn}({v}, {e}, {m})"))]


def _bits(el, v):
    """Unsigned integer expression holding the stored bits of value ``v``."""
    if el == "f32":
        return f"tvm_f32_bits({v})"
    if el == "f64":
        return f"tvm_f64_bits({v})"
    if el == "f16":
        return f"tvm_f32_to_f16({v})"
    if el == "bf16":
        return f"tvm_f32_to_bf16({v})"
    if el == "complex<f32>":
        return f"((uint64_t)tvm_f32_bits({v}.re) | ((uint64_t)tvm_f32_bits({v}.im) << 32))"
    if el in scalar.CTYPE and not is_complex(el) and el != "i1":
        return f"(({scalar.utype(el)}){v})"
    if el == "i1":
        return f"((uint64_t)({v} != 0))"
    raise UnsupportedOpError("stablehlo.bitcast_convert", f"element type {el}")


def _from_bits(el, u):
    if el == "f32":
        return f"tvm_bits_f32((uint32_t)({u}))"
    if el == "f64":
        return f"tvm_bits_f64((uint64_t)({u}))"
    if el == "f16":
        return f"tvm_f16_to_f32((uint16_t)({u}))"
    if el == "bf16":
        return f"tvm_bf16_to_f32((uint16_t)({u}))"
    if el == "complex<f32>":
        return f"tvm_c64_make(tvm_bits_f32((uint32_t)({u})), tvm_bits_f32((uint32_t)((uint64_t)({u}) >> 32)))"
    if el in scalar.CTYPE and not is_complex(el) and el != "i1":
        return f"(({scalar.ctype(el)})({scalar.utype(el)})({u}))"
    if el == "i1":
        return f"((uint8_t)(({u}) & 1u))"
    raise UnsupportedOpError("stablehlo.bitcast_convert", f"element type {el}")


def bitcast_convert(em, op, idx):
    x = op.operands[0]
    src, dst = x.type.element, op.result.type.element
    sw, dw = bit_width(src), bit_width(dst)
    ct = scalar.ctype(dst)
    if src == dst:      # the same type: the bits are the value (complex<f64> has no 128-bit word)
        return [em.value(x, idx)]
    if "complex<f64>" in (src, dst) and sw != dw:    # 128 bits: one 64-bit word per part
        if {sw, dw} != {64, 128}:
            raise UnsupportedOpError("stablehlo.bitcast_convert", f"{src} to {dst}")
        if sw == 128:
            v = em.tmp("tvm_c128", em.value(x, idx[:-1]))
            u = f"({idx[-1]} == 0 ? tvm_f64_bits({v}.re) : tvm_f64_bits({v}.im))"
            return [em.tmp(ct, _from_bits(dst, u))]
        re, im = (_bits(src, em.value(x, tuple(idx) + (str(k),))) for k in (0, 1))
        return [em.tmp(ct, f"tvm_c128_make(tvm_bits_f64((uint64_t){re}), tvm_bits_f64((uint64_t){im}))")]
    if sw == dw:
        return [em.tmp(ct, _from_bits(dst, _bits(src, em.value(x, idx))))]
    if sw > dw:
        u = em.tmp("uint64_t", f"(uint64_t){_bits(src, em.value(x, idx[:-1]))}")
        mask = (1 << dw) - 1
        return [em.tmp(ct, _from_bits(dst, f"(({u} >> ({idx[-1]} * {dw})) & {mask}ULL)"))]
    parts = [f"((uint64_t){_bits(src, em.value(x, tuple(idx) + (str(k),)))} << {k * sw})"
             for k in range(dw // sw)]
    return [em.tmp(ct, _from_bits(dst, " | ".join(parts)))]
