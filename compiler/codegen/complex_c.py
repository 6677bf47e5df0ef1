"""Complex numbers for every C-like target.

A complex element is a struct of two reals, ``tvm_c64`` {float re, im} and
``tvm_c128`` {double re, im}: the same bytes as numpy's complex64 /
complex128 (so buffers need no conversion), and portable to OpenCL C and
CUDA C, which have no ``_Complex``.  Arithmetic and math are small inline
functions named ``tvm_<type>_<op>``; values are built with
``tvm_<type>_make(re, im)`` (no compound literals, which OpenCL lacks).
"""
from __future__ import annotations

from ..dialects.registry import OPS

CTYPES = {"complex<f32>": "tvm_c64", "complex<f64>": "tvm_c128"}
PART = {"complex<f32>": "f32", "complex<f64>": "f64"}

_TEMPLATE = r"""
typedef struct { R re, im; } C;
static inline C C_make(R re, R im) { C z; z.re = re; z.im = im; return z; }
static inline C C_add(C a, C b) { return C_make(a.re + b.re, a.im + b.im); }
static inline C C_sub(C a, C b) { return C_make(a.re - b.re, a.im - b.im); }
static inline C C_mul(C a, C b) { return C_make(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re); }
static inline C C_neg(C a) { return C_make(-a.re, -a.im); }
static inline C C_conj(C a) { return C_make(a.re, -a.im); }
static inline uint8_t C_eq(C a, C b) { return a.re == b.re && a.im == b.im; }
static inline uint8_t C_ne(C a, C b) { return !(a.re == b.re && a.im == b.im); }
static inline R C_abs(C a) { return hypotS(a.re, a.im); }
/* maximum / minimum order complex numbers lexicographically (real part first) */
static inline C C_max(C a, C b) { return (a.re > b.re || (a.re == b.re && a.im >= b.im)) ? a : b; }
static inline C C_min(C a, C b) { return (a.re < b.re || (a.re == b.re && a.im <= b.im)) ? a : b; }
static inline C C_div(C a, C b) {
  if (b.im == 0) return C_make(a.re / b.re, a.im / b.re);
  if (b.re == 0) return C_make(a.im / b.im, -a.re / b.im);
  if (fabsS(b.re) >= fabsS(b.im)) {
    R r = b.im / b.re, d = b.re + b.im * r;
    return C_make((a.re + a.im * r) / d, (a.im - a.re * r) / d);
  }
  R r = b.re / b.im, d = b.re * r + b.im;
  return C_make((a.re * r + a.im) / d, (a.im * r - a.re) / d);
}
static inline C C_exp(C a) {
  if (a.im == 0) return C_make(expS(a.re), a.im);
  R e = expS(a.re); return C_make(e * cosS(a.im), e * sinS(a.im));
}
static inline C C_expm1(C a) {
  R s = sinS(a.im * (R)0.5);
  R re = expm1S(a.re) * cosS(a.im) - (R)2 * s * s;
  return C_make(re, expS(a.re) * sinS(a.im));
}
static inline C C_log(C a) { return C_make(logS(C_abs(a)), atan2S(a.im, a.re)); }
static inline C C_log1p(C a) {
  R x = a.re, y = a.im;
  R m = hypotS(x + (R)1, y);
  R re = (m < (R)0.5 || m > (R)2) ? logS(m) : (R)0.5 * log1pS(x * ((R)2 + x) + y * y);
  return C_make(re, atan2S(y, x + (R)1));
}
static inline C C_sqrt(C a) {
  if (a.re == 0 && a.im == 0) return C_make((R)0, a.im);
  R t = sqrtS((fabsS(a.re) + C_abs(a)) * (R)0.5);
  if (a.re >= 0) return C_make(t, a.im / ((R)2 * t));
  return C_make(fabsS(a.im) / ((R)2 * t), copysignS(t, a.im));
}
static inline C C_cbrt(C a) {   /* principal root: cbrt|a| at a third of the argument */
  R m = cbrtS(C_abs(a)), t = atan2S(a.im, a.re) / (R)3;
  return C_make(m * cosS(t), m * sinS(t));
}
/* atan2(a, b) = -i log((b + i a) / sqrt(a^2 + b^2)) */
static inline C C_atan2(C a, C b) {
  C q = C_div(C_make(b.re - a.im, b.im + a.re), C_sqrt(C_add(C_mul(a, a), C_mul(b, b))));
  C l = C_log(q);
  return C_make(l.im, -l.re);
}
static inline C C_rsqrt(C a) { return C_div(C_make((R)1, (R)0), C_sqrt(a)); }
static inline C C_sin(C a) { return C_make(sinS(a.re) * coshS(a.im), cosS(a.re) * sinhS(a.im)); }
static inline C C_cos(C a) { return C_make(cosS(a.re) * coshS(a.im), -sinS(a.re) * sinhS(a.im)); }
static inline C C_tanh(C a) {
  if (fabsS(a.re) > (R)20) return C_make(copysignS((R)1, a.re), (R)4 * sinS(a.im) * cosS(a.im) * expS((R)-2 * fabsS(a.re)));
  R d = coshS((R)2 * a.re) + cosS((R)2 * a.im);
  return C_make(sinhS((R)2 * a.re) / d, sinS((R)2 * a.im) / d);
}
static inline C C_tan(C a) { C t = C_tanh(C_make(-a.im, a.re)); return C_make(t.im, -t.re); }
static inline C C_sign(C a) {
  if (a.re != a.re || a.im != a.im) return C_make(NAN, NAN);
  if (a.re == 0 && a.im == 0) return a;
  R m = C_abs(a); return C_make(a.re / m, a.im / m);
}
static inline C C_logistic(C a) { return C_div(C_make((R)1, (R)0), C_add(C_make((R)1, (R)0), C_exp(C_neg(a)))); }
static inline C C_pow(C a, C b) {
  if (a.re == 0 && a.im == 0) {
    if (b.re == 0 && b.im == 0) return C_make((R)1, (R)0);
    if (b.im == 0 && b.re > 0) return C_make((R)0, (R)0);
  }
  return C_exp(C_mul(b, C_log(a)));
}
static inline C C_ipow(C a, int64_t n) {
  C r = C_make((R)1, (R)0), x = a; int neg = n < 0; uint64_t e = neg ? (uint64_t)0 - (uint64_t)n : (uint64_t)n;
  while (e) { if (e & 1) r = C_mul(r, x); x = C_mul(x, x); e >>= 1; }
  return neg ? C_div(C_make((R)1, (R)0), r) : r;
}
"""


def helpers() -> str:
    out = []
    for c, r, s in (("tvm_c64", "float", "f"), ("tvm_c128", "double", "")):
        text = _TEMPLATE.replace("C_", c + "_").replace("typedef struct { R re, im; } C;",
                                                        f"typedef struct {{ {r} re, im; }} {c};")
        text = text.replace("(C ", f"({c} ").replace(", C ", f", {c} ").replace("inline C ", f"inline {c} ")
        text = text.replace("  C ", f"  {c} ").replace("{ C ", f"{{ {c} ")
        for fn in ("hypot", "fabs", "exp", "expm1", "cos", "sin", "log", "log1p", "atan2", "sqrt",
                   "copysign", "cosh", "sinh", "cbrt"):
            text = text.replace(f"{fn}S(", f"{fn}{s}(")
        out.append(text.replace("(R)", f"({r})").replace("R ", f"{r} "))
    return "\n".join(out)


# The helper each op's complex form calls: its declaration's ``complex_fn``
# (dialects/opdef.py), by short name (``negate`` -> ``neg``).
_FN = {d.name.split(".", 1)[1]: d.complex_fn for d in OPS.values() if d.complex_fn}


def unary(name: str, element: str, a: str) -> str | None:
    c = CTYPES[element]
    if name == "real":
        return f"{a}.re"
    if name == "imag":
        return f"{a}.im"
    fn = _FN.get(name)
    return f"{c}_{fn}({a})" if fn else None


def binary(name: str, element: str, a: str, b: str) -> str | None:
    fn = _FN.get(name)
    return f"{CTYPES[element]}_{fn}({a}, {b})" if fn else None


def literal(element: str, value, real_literal) -> str:
    v = complex(value)
    part = PART[element]
    return f"{CTYPES[element]}_make({real_literal(part, v.real)}, {real_literal(part, v.imag)})"
