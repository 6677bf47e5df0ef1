"""Jacobi kernels in LAPACK's conventions (passes/lapack_calls.py):
the singular value decomposition (``?gesdd``) by one-sided Jacobi and the
Hermitian eigendecomposition (``?syevd`` / ``?heevd``) by cyclic two-sided
Jacobi.  Templates as in linalg_c.py (``F_`` helpers, ``T``, ``R``, ``EPS``).

SVD.  The one-sided method rotates pairs of vectors until all are
orthogonal; their norms are the singular values.  For m >= n the vectors
are A's columns (A V = U S); for m < n they are A's rows, i.e. the columns of
A^T (A^T V = U' S, so A = conj(V) S U'^T): either way k = min(m, n) vectors
of length L = max(m, n), held in the first output (LAPACK's overwritten A,
which JAX drops).  V (k x k) accumulates in whichever of U / VT is k x k.
Singular values come out descending; left vectors of zero singular values
and, for ``full_matrices``, the missing columns are completed to an
orthonormal basis by Gram-Schmidt over unit vectors.

Eigendecomposition.  A working copy (a scratch result the binding pass adds)
is diagonalised by complex Jacobi rotations J = diag(1, conj(e)) R(c, s),
e the phase of a_pq, accumulated into the eigenvector output; eigenvalues
ascending, eigenvectors in the columns (as LAPACK returns them).
"""
from __future__ import annotations

#: sweeps before giving up (a cyclic Jacobi sweep converges quadratically:
#: small matrices take 5-10)
MAX_SWEEPS = 64

# The 2x2 rotation of vectors x, y (shared by both kernels): given the Gram
# entries al = |x|^2, be = |y|^2 and g = x^H y (|g| = ga > 0), the unitary
# [x, y] <- [c x - s conj(e) y, s x + c conj(e) y] zeroes x^H y.
_ROTATION = r"""
      T e = F_scale(g, 1 / ga), ce = F_conj(e);
      R zeta = (be - al) / (2 * ga);
      R t = 1 / (F_fabs(zeta) + F_hypot(1, zeta));
      if (zeta < 0) t = -t;
      R cs = 1 / F_sqrt(1 + t * t), sn = cs * t;
"""


def gesdd(entry: str, m: int, n: int, mode: str, u_shape: tuple, vt_shape: tuple) -> str:
    """The ``?gesdd`` core: (a) -> (work, s, u, vt, info); ``mode`` 'A'
    (full), 'S' (reduced) or 'N' (values only)."""
    k, L = min(m, n), max(m, n)
    uc, vr = u_shape[1], vt_shape[0]
    tall = m >= n
    wv = "w[(r) * n + (j)]" if tall else "w[(j) * n + (r)]"
    vv = "vt[(j) * n + (i)]" if tall else f"u[(i) * {m} + (j)]"
    dv = f"u[(r) * {uc} + (j)]" if tall else "vt[(j) * n + (r)]"
    slots = uc if tall else vr
    uv = mode != "N"
    vinit = """
  for (int64_t i = 0; i < k; ++i)
    for (int64_t j = 0; j < k; ++j) VV(i, j) = F_mk(i == j ? 1 : 0, 0);""" if uv else ""
    vrot = """
      for (int64_t i = 0; i < k; ++i) {
        T x = VV(i, p), y = F_mul(ce, VV(i, q));
        VV(i, p) = F_sub(F_scale(x, cs), F_scale(y, sn));
        VV(i, q) = F_add(F_scale(x, sn), F_scale(y, cs));
      }""" if uv else ""
    vswap = """
        for (int64_t i2 = 0; i2 < k; ++i2) { T x = VV(i2, i); VV(i2, i) = VV(i2, jm); VV(i2, jm) = x; }""" if uv else ""
    vectors = f"""
  R thr = (k > 0 ? s[0] : 0) * EPS * L;
  for (int64_t j = 0; j < {slots}; ++j) {{
    int good = j < k && s[j] > thr && s[j] > 0;
    R inv = good ? 1 / s[j] : 0;
    for (int64_t r = 0; r < L; ++r) DV(r, j) = good ? F_scale(WV(r, j), inv) : F_mk(0, 0);
  }}
  for (int64_t j = 0; j < {slots}; ++j) {{
    if (j < k && s[j] > thr && s[j] > 0) continue;
    for (int64_t cand = 0; cand < L; ++cand) {{      /* complete the basis: Gram-Schmidt of e_cand */
      for (int64_t r = 0; r < L; ++r) DV(r, j) = F_mk(r == cand ? 1 : 0, 0);
      for (int pass = 0; pass < 2; ++pass)
        for (int64_t l = 0; l < {slots}; ++l) {{
          if (l == j) continue;
          T d = F_mk(0, 0);
          for (int64_t r = 0; r < L; ++r) d = F_add(d, F_cmul(DV(r, l), DV(r, j)));
          for (int64_t r = 0; r < L; ++r) DV(r, j) = F_sub(DV(r, j), F_mul(d, DV(r, l)));
        }}
      R nn = 0;
      for (int64_t r = 0; r < L; ++r) nn += F_nrm2(DV(r, j));
      if (nn > (R)0.5 / L) {{
        nn = 1 / F_sqrt(nn);
        for (int64_t r = 0; r < L; ++r) DV(r, j) = F_scale(DV(r, j), nn);
        break;
      }}
    }}
  }}
  for (int64_t i = 0; i < k; ++i)
    for (int64_t j = 0; j < k; ++j) VV(i, j) = F_conj(VV(i, j));""" if uv else ""
    return f"""#define WV(r, j) {wv}
#define VV(i, j) {vv}
#define DV(r, j) {dv}
LA_FN void {entry}_core(LA_G const T* a, LA_G T* w, LA_G R* s, LA_G T* u, LA_G T* vt,
                        LA_G int32_t* info) {{
  const int64_t n = {n}, k = {k}, L = {L};
  (void)u; (void)vt;
  for (int64_t i = 0; i < {m} * n; ++i) w[i] = a[i];{vinit}
  const R tol = EPS * L;
  for (int sweep = 0; sweep < {MAX_SWEEPS}; ++sweep) {{
    int rotated = 0;
    for (int64_t p = 0; p + 1 < k; ++p)
      for (int64_t q = p + 1; q < k; ++q) {{
        R al = 0, be = 0;
        T g = F_mk(0, 0);
        for (int64_t r = 0; r < L; ++r) {{
          al += F_nrm2(WV(r, p));
          be += F_nrm2(WV(r, q));
          g = F_add(g, F_cmul(WV(r, p), WV(r, q)));
        }}
        R ga = F_abs(g);
        if (!(ga > tol * F_sqrt(al) * F_sqrt(be))) continue;
        rotated = 1;{_ROTATION}
        for (int64_t r = 0; r < L; ++r) {{
          T x = WV(r, p), y = F_mul(ce, WV(r, q));
          WV(r, p) = F_sub(F_scale(x, cs), F_scale(y, sn));
          WV(r, q) = F_add(F_scale(x, sn), F_scale(y, cs));
        }}{vrot}
      }}
    if (!rotated) break;
  }}
  for (int64_t j = 0; j < k; ++j) {{
    R t = 0;
    for (int64_t r = 0; r < L; ++r) t += F_nrm2(WV(r, j));
    s[j] = F_sqrt(t);
  }}
  for (int64_t i = 0; i < k; ++i) {{              /* descending, vectors along */
    int64_t jm = i;
    for (int64_t j = i + 1; j < k; ++j) if (s[j] > s[jm]) jm = j;
    if (jm != i) {{
      R t = s[i]; s[i] = s[jm]; s[jm] = t;
      for (int64_t r = 0; r < L; ++r) {{ T x = WV(r, i); WV(r, i) = WV(r, jm); WV(r, jm) = x; }}{vswap}
    }}
  }}{vectors}
  *info = 0;
}}
#undef WV
#undef VV
#undef DV
"""


def syevd(entry: str, n: int, lower: bool, vectors: bool) -> str:
    """The ``?syevd`` / ``?heevd`` core: (a) -> (z, w, info, scratch)."""
    if lower:
        load = "i >= j ? a[i * n + j] : F_conj(a[j * n + i])"
    else:
        load = "i <= j ? a[i * n + j] : F_conj(a[j * n + i])"
    zinit = """
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) z[i * n + j] = F_mk(i == j ? 1 : 0, 0);""" if vectors else ""
    zrot = """
        for (int64_t i = 0; i < n; ++i) {
          T x = z[i * n + p], y = z[i * n + q];
          z[i * n + p] = F_add(F_mul(x, jpp), F_mul(y, jqp));
          z[i * n + q] = F_add(F_mul(x, jpq), F_mul(y, jqq));
        }""" if vectors else ""
    zswap = """
      for (int64_t r = 0; r < n; ++r) { T x = z[r * n + i]; z[r * n + i] = z[r * n + jm]; z[r * n + jm] = x; }""" \
        if vectors else ""
    return f"""
LA_FN void {entry}_core(LA_G const T* a, LA_G T* z, LA_G R* w, LA_G int32_t* info, LA_G T* h) {{
  const int64_t n = {n};
  R fro = 0;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {{
      T x = {load};
      if (i == j) x = F_mk(F_re(x), 0);
      h[i * n + j] = x;
      fro += F_nrm2(x);
    }}{zinit}
  const R small = F_sqrt(fro) * EPS * EPS;
  for (int sweep = 0; sweep < {MAX_SWEEPS}; ++sweep) {{
    int rotated = 0;
    for (int64_t p = 0; p + 1 < n; ++p)
      for (int64_t q = p + 1; q < n; ++q) {{
        T g = h[p * n + q];
        R ga = F_abs(g), al = F_re(h[p * n + p]), be = F_re(h[q * n + q]);
        if (!(ga > small && ga > EPS * F_sqrt(F_fabs(al)) * F_sqrt(F_fabs(be)))) continue;
        rotated = 1;{_ROTATION}
        T jpp = F_mk(cs, 0), jpq = F_mk(sn, 0), jqp = F_scale(ce, -sn), jqq = F_scale(ce, cs);
        for (int64_t i = 0; i < n; ++i) {{        /* h <- h J */
          T x = h[i * n + p], y = h[i * n + q];
          h[i * n + p] = F_add(F_mul(x, jpp), F_mul(y, jqp));
          h[i * n + q] = F_add(F_mul(x, jpq), F_mul(y, jqq));
        }}
        for (int64_t j = 0; j < n; ++j) {{        /* h <- J^H h */
          T x = h[p * n + j], y = h[q * n + j];
          h[p * n + j] = F_add(F_cmul(jpp, x), F_cmul(jqp, y));
          h[q * n + j] = F_add(F_cmul(jpq, x), F_cmul(jqq, y));
        }}
        h[p * n + q] = F_mk(0, 0);
        h[q * n + p] = F_mk(0, 0);
        h[p * n + p] = F_mk(F_re(h[p * n + p]), 0);
        h[q * n + q] = F_mk(F_re(h[q * n + q]), 0);{zrot}
      }}
    if (!rotated) break;
  }}
  for (int64_t j = 0; j < n; ++j) w[j] = F_re(h[j * n + j]);
  for (int64_t i = 0; i < n; ++i) {{              /* ascending, vectors along */
    int64_t jm = i;
    for (int64_t j = i + 1; j < n; ++j) if (w[j] < w[jm]) jm = j;
    if (jm != i) {{
      R t = w[i]; w[i] = w[jm]; w[jm] = t;{zswap}
    }}
  }}
  *info = 0;
}}
"""
