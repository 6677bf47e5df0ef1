"""C for the LAPACK-convention kernels (passes/lapack_calls.py): the scalar
helpers per element type, the per-target entry points, and the direct
factorizations (Cholesky, LU with partial pivoting, triangular solve,
Householder QR and the product of its reflectors).  The Jacobi kernels
(SVD, Hermitian eigendecomposition) are in linalg_jacobi.py.

Each kernel is one function ``<entry>_core`` that factors ONE matrix, written
once as portable C (no malloc, no VLAs, no recursion) that compiles as C
(cpu), OpenCL C and CUDA C.  Its entry point runs one matrix per workgroup:
on the CPU a loop over the workgroup range, on a GPU work-item / thread 0 of
each work-group / block (a sequential kernel per matrix).  Shapes are static
and baked in; matrices are row-major, as tensorvm lays out every tensor (the
column-major ``operand_layouts`` JAX writes describe XLA's buffers, not the
logical values, which are what these kernels compute on).

Templates use ``F_`` for the element type's helpers (``F_mul``, ``F_conj``,
...), ``T`` for the element type and ``R`` for its real type; ``render``
substitutes them.  The helpers of one element type are guarded, so kernels
of that type share them in one program.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from tensorvm.vmfb.cpu_abi import declarator

from .c_style import renderer

#: element type -> (LAPACK letter, real C type, complex?)
ELEMENTS = {"f32": ("s", "float", False), "f64": ("d", "double", False),
            "complex<f32>": ("c", "float", True), "complex<f64>": ("z", "double", True)}
EPS = {"float": "1.1920929e-07f", "double": "2.220446049250313e-16"}

_TARGET_MACROS = r"""
#ifndef LA_TARGET_MACROS
#define LA_TARGET_MACROS
#if defined(__CUDACC__)
#define LA_FN static __device__ inline
#else
#define LA_FN static inline
#endif
#ifdef __OPENCL_VERSION__
#define LA_G __global
#else
#define LA_G
#endif
#endif
"""

_REAL = r"""
LA_FN T F_mk(R re, R im) { (void)im; return re; }
LA_FN R F_re(T a) { return a; }
LA_FN R F_im(T a) { (void)a; return (R)0; }
LA_FN T F_add(T a, T b) { return a + b; }
LA_FN T F_sub(T a, T b) { return a - b; }
LA_FN T F_mul(T a, T b) { return a * b; }
LA_FN T F_cmul(T a, T b) { return a * b; }
LA_FN T F_div(T a, T b) { return a / b; }
LA_FN T F_conj(T a) { return a; }
LA_FN T F_scale(T a, R r) { return a * r; }
LA_FN R F_abs(T a) { return FABS(a); }
LA_FN R F_abs1(T a) { return FABS(a); }
LA_FN R F_nrm2(T a) { return a * a; }
"""

_COMPLEX = r"""
typedef struct { R re, im; } T;
LA_FN T F_mk(R re, R im) { T z; z.re = re; z.im = im; return z; }
LA_FN R F_re(T a) { return a.re; }
LA_FN R F_im(T a) { return a.im; }
LA_FN T F_add(T a, T b) { return F_mk(a.re + b.re, a.im + b.im); }
LA_FN T F_sub(T a, T b) { return F_mk(a.re - b.re, a.im - b.im); }
LA_FN T F_mul(T a, T b) { return F_mk(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re); }
LA_FN T F_cmul(T a, T b) { return F_mk(a.re * b.re + a.im * b.im, a.re * b.im - a.im * b.re); }
LA_FN T F_div(T a, T b) {
  if (FABS(b.re) >= FABS(b.im)) {
    R r = b.im / b.re, d = b.re + b.im * r;
    return F_mk((a.re + a.im * r) / d, (a.im - a.re * r) / d);
  }
  R r = b.re / b.im, d = b.im + b.re * r;
  return F_mk((a.re * r + a.im) / d, (a.im * r - a.re) / d);
}
LA_FN T F_conj(T a) { return F_mk(a.re, -a.im); }
LA_FN T F_scale(T a, R r) { return F_mk(a.re * r, a.im * r); }
LA_FN R F_abs(T a) { return HYPOT(a.re, a.im); }
LA_FN R F_abs1(T a) { return FABS(a.re) + FABS(a.im); }
LA_FN R F_nrm2(T a) { return a.re * a.re + a.im * a.im; }
"""

_REAL_MATH = r"""
LA_FN R F_sqrt(R x) { return SQRT(x); }
LA_FN R F_fabs(R x) { return FABS(x); }
LA_FN R F_hypot(R x, R y) { return HYPOT(x, y); }
"""


@dataclass(frozen=True)
class Element:
    """One element type's names in the generated C."""
    mlir: str

    @property
    def letter(self) -> str:
        return ELEMENTS[self.mlir][0]

    @property
    def real(self) -> str:
        return ELEMENTS[self.mlir][1]

    @property
    def is_complex(self) -> bool:
        return ELEMENTS[self.mlir][2]

    @property
    def prefix(self) -> str:
        return f"la_{self.letter}_"

    @property
    def ctype(self) -> str:
        return f"la_{self.letter}_t" if self.is_complex else self.real

    @property
    def real_mlir(self) -> str:
        return "f32" if self.real == "float" else "f64"


def render(template: str, el: Element) -> str:
    """``template`` with ``F_``, ``T``, ``R`` and ``EPS`` of ``el``."""
    text = re.sub(r"\bF_", el.prefix, template)
    text = re.sub(r"\bT\b", el.ctype, text)
    text = re.sub(r"\bR\b", el.real, text)
    return re.sub(r"\bEPS\b", EPS[el.real], text)


def helpers(el: Element, target: str) -> str:
    """The guarded helper block of ``el`` for ``target`` (math function names
    differ: OpenCL overloads ``sqrt``, C and CUDA spell ``sqrtf``)."""
    f = renderer(target).float_math_suffix if el.real == "float" else ""
    body = (_COMPLEX if el.is_complex else _REAL) + _REAL_MATH
    body = (body.replace("FABS(", f"fabs{f}(").replace("HYPOT(", f"hypot{f}(")
            .replace("SQRT(", f"sqrt{f}("))
    guard = f"LA_HELPERS_{el.letter.upper()}"
    return f"{_TARGET_MACROS}#ifndef {guard}\n#define {guard}\n{render(body, el)}#endif\n"


@dataclass
class Binding:
    """One binding of a kernel: its C element type and elements per matrix."""
    ctype: str
    size: int


def kernel_source(target: str, entry: str, el: Element, core: str,
                  inputs: list, outputs: list) -> str:
    """The whole source of one kernel for ``target``: helpers, ``core`` (the
    rendered ``<entry>_core`` taking one typed pointer per binding, offset to
    this matrix) and the entry point (one matrix per workgroup)."""
    bindings = [(f"b{k}", b, True) for k, b in enumerate(inputs)] + \
               [(f"o{j}", b, False) for j, b in enumerate(outputs)]
    r = renderer(target)
    g = r.global_space

    def arg(name, b, const, base):
        c = "const " if const else ""
        return f"({g}{c}{b.ctype}*){base} + bt * (int64_t){b.size}"
    if target == "cpu":
        args = [arg(n, b, c, f"st->bindings[{k}]") for k, (n, b, c) in enumerate(bindings)]
        head = (f"{declarator(entry)} {{\n"
                f"  for (int64_t bt = wg_begin; bt < (int64_t)wg_end; ++bt)\n"
                f"    {entry}_core({', '.join(args)});\n  return 0;\n}}\n")
    else:
        params = [f"{g}{'const ' if c else ''}void* {n}" for n, b, c in bindings]
        args = [arg(n, b, c, n) for n, b, c in bindings]
        lid, gid = r.local_id, r.group_id
        head = (f"{r.device_qualifier}void {entry}({', '.join(params)}) {{\n"
                f"  if ({lid} != 0) return;\n"
                f"  const int64_t bt = (int64_t){gid};\n"
                f"  {entry}_core({', '.join(args)});\n}}\n")
    return helpers(el, target) + render(core, el) + "\n" + head


# -- direct factorizations -------------------------------------------------------------------
def potrf(entry: str, n: int, lower: bool) -> str:
    """Cholesky: A = L L^H (lower) or U^H U (upper) in the ``uplo`` triangle,
    the other triangle left as the input's (as LAPACK leaves it); info is the
    1-based column whose pivot is not positive (0 on success)."""
    if lower:
        get, put = "#define LG(i, j) o[(i) * n + (j)]", "#define LS(i, j, x) o[(i) * n + (j)] = (x)"
    else:           # U = L^H: L[i][j] is conj(U[j][i])
        get = "#define LG(i, j) F_conj(o[(j) * n + (i)])"
        put = "#define LS(i, j, x) o[(j) * n + (i)] = F_conj(x)"
    return f"""{get}
{put}
LA_FN void {entry}_core(LA_G const T* a, LA_G T* o, LA_G int32_t* info) {{
  const int64_t n = {n};
  for (int64_t i = 0; i < n * n; ++i) o[i] = a[i];
  *info = 0;
  for (int64_t j = 0; j < n; ++j) {{
    R d = F_re(LG(j, j));
    for (int64_t k = 0; k < j; ++k) d -= F_nrm2(LG(j, k));
    if (!(d > 0)) {{ *info = (int32_t)(j + 1); return; }}
    d = F_sqrt(d);
    LS(j, j, F_mk(d, 0));
    for (int64_t i = j + 1; i < n; ++i) {{
      T s = LG(i, j);
      for (int64_t k = 0; k < j; ++k) s = F_sub(s, F_mul(LG(i, k), F_conj(LG(j, k))));
      LS(i, j, F_scale(s, 1 / d));
    }}
  }}
}}
#undef LG
#undef LS
"""


def getrf(entry: str, m: int, n: int) -> str:
    """LU with partial pivoting: L (unit, below the diagonal) and U packed in
    place, 1-based row interchanges ``ipiv`` (row j swapped with ipiv[j]-1),
    info the 1-based index of the first exactly-zero pivot.  The pivot is the
    first largest |re|+|im| of the column, as LAPACK's i?amax picks it."""
    return f"""
LA_FN void {entry}_core(LA_G const T* a, LA_G T* o, LA_G int32_t* ipiv, LA_G int32_t* info) {{
  const int64_t m = {m}, n = {n}, k = {min(m, n)};
  int32_t inf = 0;
  for (int64_t i = 0; i < m * n; ++i) o[i] = a[i];
  for (int64_t j = 0; j < k; ++j) {{
    int64_t p = j;
    R best = F_abs1(o[j * n + j]);
    for (int64_t i = j + 1; i < m; ++i) {{
      R v = F_abs1(o[i * n + j]);
      if (v > best) {{ best = v; p = i; }}
    }}
    ipiv[j] = (int32_t)(p + 1);
    if (best != 0) {{
      if (p != j)
        for (int64_t c = 0; c < n; ++c) {{ T t = o[j * n + c]; o[j * n + c] = o[p * n + c]; o[p * n + c] = t; }}
      T piv = o[j * n + j];
      for (int64_t i = j + 1; i < m; ++i) o[i * n + j] = F_div(o[i * n + j], piv);
    }} else if (inf == 0) {{
      inf = (int32_t)(j + 1);
    }}
    for (int64_t i = j + 1; i < m; ++i) {{
      T l = o[i * n + j];
      for (int64_t c = j + 1; c < n; ++c) o[i * n + c] = F_sub(o[i * n + c], F_mul(l, o[j * n + c]));
    }}
  }}
  *info = inf;
}}
"""


def trsm(entry: str, rows: int, cols: int, left: bool, lower: bool, trans: str,
         unit: bool) -> str:
    """X with op(A) X = B (left) or X op(A) = B (right); op is N, T or C
    (conjugate transpose); only A's ``uplo`` triangle is read."""
    na = rows if left else cols
    opa = {"N": "a[(i) * na + (k)]", "T": "a[(k) * na + (i)]",
           "C": "F_conj(a[(k) * na + (i)])"}[trans]
    eff_lower = lower != (trans != "N")
    div = "s" if unit else "F_div(s, OPA(i, i))"
    if left:        # each column of X, rows forward (lower) or backward (upper)
        outer, pos = f"for (int64_t cc = 0; cc < {cols}; ++cc)", "(i) * c + cc"
        inner_term = "F_mul(OPA(i, k), o[(k) * c + cc])"
        forward = eff_lower
    else:           # each row of X: X[r][i] = (B[r][i] - sum_k X[r][k] op(A)[k][i]) / op(A)[i][i]
        outer, pos = f"for (int64_t rr = 0; rr < {rows}; ++rr)", "rr * c + (i)"
        inner_term = "F_mul(o[rr * c + (k)], OPA(k, i))"
        forward = not eff_lower
        div = "s" if unit else "F_div(s, OPA(i, i))"
    m = na
    loop_i = (f"for (int64_t i = 0; i < {m}; ++i)" if forward
              else f"for (int64_t i = {m} - 1; i >= 0; --i)")
    loop_k = ("for (int64_t k = 0; k < i; ++k)" if forward
              else f"for (int64_t k = i + 1; k < {m}; ++k)")
    return f"""#define OPA(i, k) {opa}
LA_FN void {entry}_core(LA_G const T* a, LA_G const T* b, LA_G T* o) {{
  const int64_t c = {cols}, na = {na};
  (void)na;
  for (int64_t i = 0; i < {rows} * c; ++i) o[i] = b[i];
  {outer}
    {loop_i} {{
      T s = o[{pos}];
      {loop_k} s = F_sub(s, {inner_term});
      o[{pos}] = {div};
    }}
}}
#undef OPA
"""


def geqrf(entry: str, m: int, n: int) -> str:
    """Householder QR as LAPACK packs it: R on and above the diagonal, the
    reflectors v (v[j] = 1 implied) below it, tau per reflector, with
    H = I - tau v v^H, H^H (alpha, x) = (beta, 0), beta real."""
    return f"""
LA_FN void {entry}_core(LA_G const T* a, LA_G T* o, LA_G T* tau) {{
  const int64_t m = {m}, n = {n}, k = {min(m, n)};
  for (int64_t i = 0; i < m * n; ++i) o[i] = a[i];
  for (int64_t j = 0; j < k; ++j) {{
    T alpha = o[j * n + j];
    R xn = 0;
    for (int64_t i = j + 1; i < m; ++i) xn += F_nrm2(o[i * n + j]);
    if (xn == 0 && F_im(alpha) == 0) {{ tau[j] = F_mk(0, 0); continue; }}
    R beta = F_sqrt(F_nrm2(alpha) + xn);
    if (F_re(alpha) >= 0) beta = -beta;
    T t = F_mk((beta - F_re(alpha)) / beta, -F_im(alpha) / beta);
    T sc = F_div(F_mk(1, 0), F_sub(alpha, F_mk(beta, 0)));
    for (int64_t i = j + 1; i < m; ++i) o[i * n + j] = F_mul(o[i * n + j], sc);
    o[j * n + j] = F_mk(beta, 0);
    tau[j] = t;
    T ct = F_conj(t);
    for (int64_t c = j + 1; c < n; ++c) {{      /* apply H^H to the trailing columns */
      T w = o[j * n + c];
      for (int64_t i = j + 1; i < m; ++i) w = F_add(w, F_cmul(o[i * n + j], o[i * n + c]));
      w = F_mul(ct, w);
      o[j * n + c] = F_sub(o[j * n + c], w);
      for (int64_t i = j + 1; i < m; ++i) o[i * n + c] = F_sub(o[i * n + c], F_mul(w, o[i * n + j]));
    }}
  }}
}}
"""


def orgqr(entry: str, m: int, n: int, k: int) -> str:
    """Q = H_0 ... H_(k-1) applied to the first n columns of the identity,
    formed in place over the reflectors (last reflector first)."""
    return f"""
LA_FN void {entry}_core(LA_G const T* a, LA_G const T* tau, LA_G T* o) {{
  const int64_t m = {m}, n = {n}, k = {k};
  for (int64_t i = 0; i < m * n; ++i) o[i] = a[i];
  for (int64_t c = k; c < n; ++c)
    for (int64_t i = 0; i < m; ++i) o[i * n + c] = F_mk(i == c ? 1 : 0, 0);
  for (int64_t j = k - 1; j >= 0; --j) {{
    T t = tau[j];
    for (int64_t c = j + 1; c < n; ++c) {{
      T w = o[j * n + c];
      for (int64_t i = j + 1; i < m; ++i) w = F_add(w, F_cmul(o[i * n + j], o[i * n + c]));
      w = F_mul(t, w);
      o[j * n + c] = F_sub(o[j * n + c], w);
      for (int64_t i = j + 1; i < m; ++i) o[i * n + c] = F_sub(o[i * n + c], F_mul(w, o[i * n + j]));
    }}
    for (int64_t i = j + 1; i < m; ++i) o[i * n + j] = F_mul(F_sub(F_mk(0, 0), t), o[i * n + j]);
    o[j * n + j] = F_sub(F_mk(1, 0), t);
    for (int64_t i = 0; i < j; ++i) o[i * n + j] = F_mk(0, 0);
  }}
}}
"""
