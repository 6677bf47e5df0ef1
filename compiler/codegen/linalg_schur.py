"""The general eigendecomposition (``?geev``) in LAPACK's conventions, by the
complex Schur form (passes/lapack_calls.py; templates as in linalg_c.py).

A (real input widened to complex) is reduced to Hessenberg form by
Householder reflections, then to upper triangular T = Q^H A Q by shifted QR
steps (Wilkinson's shift, an exceptional shift every tenth step without a
deflation, Givens rotations applied to the whole matrix so T is the full
Schur form).  Eigenvalues are T's diagonal in Schur order.  Eigenvectors of
T come from back substitution (right: (T - l I) x = 0, x upper; left:
z (T - l I) = 0, z lower), those of A are Q x and Q conj(z), each scaled to
unit norm with its largest component real, as LAPACK returns them.  For a
real matrix the eigenvalues whose imaginary part is below rounding are made
real (and their vectors real), and the others paired as exact conjugates
with conjugate vectors, which LAPACK's real routine guarantees.  Two scratch
results (the binding pass adds them) hold T and Q.  ``info`` is the
1-based index of the eigenvalue QR failed on after 30 n steps (JAX then
returns NaNs), else 0.
"""
from __future__ import annotations


def geev(entry: str, n: int, real_input: bool, left: bool, right: bool) -> str:
    """The core: real input (a) -> (wr, wi, vl, vr, info, t, q); complex
    input (a) -> (w, vl, vr, info, t, q)."""
    load = "F_mk(a[i], 0)" if real_input else "a[i]"
    if real_input:
        params = "LA_G const R* a, LA_G R* wr, LA_G R* wi, LA_G T* vl, LA_G T* vr, LA_G int32_t* info"
        store_w = "for (int64_t k = 0; k < n; ++k) { wr[k] = F_re(t[k * n + k]); wi[k] = F_im(t[k * n + k]); }"
    else:
        params = "LA_G const T* a, LA_G T* w, LA_G T* vl, LA_G T* vr, LA_G int32_t* info"
        store_w = "for (int64_t k = 0; k < n; ++k) w[k] = t[k * n + k];"
    vectors = ""
    if right:
        vectors += """
  for (int64_t k = 0; k < n; ++k) {                  /* right: (T - l I) x = 0, x[k] = 1 */
    T l = t[k * n + k];
    for (int64_t j = 0; j < n; ++j) vr[j * n + k] = F_mk(j == k ? 1 : 0, 0);
    for (int64_t j = k - 1; j >= 0; --j) {
      T s = F_mk(0, 0);
      for (int64_t i = j + 1; i <= k; ++i) s = F_add(s, F_mul(t[j * n + i], vr[i * n + k]));
      vr[j * n + k] = F_div(F_sub(F_mk(0, 0), s), la_geev_pivot(F_sub(t[j * n + j], l), small));
    }
  }"""
    if left:
        vectors += """
  for (int64_t k = 0; k < n; ++k) {                  /* left: z (T - l I) = 0, z[k] = 1 */
    T l = t[k * n + k];
    for (int64_t j = 0; j < n; ++j) vl[j * n + k] = F_mk(j == k ? 1 : 0, 0);
    for (int64_t j = k + 1; j < n; ++j) {
      T s = F_mk(0, 0);
      for (int64_t i = k; i < j; ++i) s = F_add(s, F_mul(vl[i * n + k], t[i * n + j]));
      vl[j * n + k] = F_div(F_sub(F_mk(0, 0), s), la_geev_pivot(F_sub(t[j * n + j], l), small));
    }
    for (int64_t j = k; j < n; ++j) vl[j * n + k] = F_conj(vl[j * n + k]);
  }"""
    for out, on in (("vr", right), ("vl", left)):
        if on:
            vectors += f"""
  for (int64_t i = 0; i < n; ++i)                    /* {out} <- Q {out}, normalised */
    for (int64_t k = 0; k < n; ++k) {{
      T s = F_mk(0, 0);
      for (int64_t j = 0; j < n; ++j) s = F_add(s, F_mul(q[i * n + j], {out}[j * n + k]));
      t[i * n + k] = s;
    }}
  for (int64_t k = 0; k < n; ++k) {{
    R nn = 0, big = 0;                               /* (scaled: defective values grow) */
    T ph = F_mk(1, 0);
    for (int64_t i = 0; i < n; ++i)
      if (F_abs(t[i * n + k]) > big) {{ big = F_abs(t[i * n + k]); ph = t[i * n + k]; }}
    for (int64_t i = 0; i < n; ++i) nn += big > 0 ? F_nrm2(F_scale(t[i * n + k], 1 / big)) : 0;
    T rot = big > 0 ? F_scale(F_scale(F_conj(ph), 1 / big), 1 / (big * F_sqrt(nn))) : F_mk(0, 0);
    for (int64_t i = 0; i < n; ++i) {out}[i * n + k] = F_mul(t[i * n + k], rot);
  }}"""
    pairing = ""
    if real_input:
        conj_v = "".join(f"""
        for (int64_t i = 0; i < n; ++i) {v}[i * n + jm] = F_conj({v}[i * n + k]);""" for v, on in
                         (("vr", right), ("vl", left)) if on)
        real_v = "".join(f"""
      for (int64_t i = 0; i < n; ++i) {v}[i * n + k] = F_mk(F_re({v}[i * n + k]), 0);""" for v, on in
                         (("vr", right), ("vl", left)) if on)
        pairing = f"""
  for (int64_t k = 0; k < n; ++k) paired[k] = 0;
  for (int64_t k = 0; k < n; ++k) {{              /* a real matrix: real values, conjugate pairs */
    if (paired[k]) continue;
    if (F_fabs(wi[k]) <= tiny) {{
      wi[k] = 0;{real_v}
      continue;
    }}
    int64_t jm = -1;
    R best = 0;
    for (int64_t j = 0; j < n; ++j) {{
      if (j == k || paired[j] || F_fabs(wi[j]) <= tiny) continue;
      R d = F_hypot(wr[j] - wr[k], wi[j] + wi[k]);
      if (jm < 0 || d < best) {{ jm = j; best = d; }}
    }}
    paired[k] = 1;
    if (jm >= 0) {{
      paired[jm] = 1;
      R re = (wr[k] + wr[jm]) / 2, im = (wi[k] - wi[jm]) / 2;
      wr[k] = re; wi[k] = im; wr[jm] = re; wi[jm] = -im;{conj_v}
    }}
  }}"""
    paired_decl = f"\n  int paired[{max(n, 1)}];" if real_input else ""
    return f"""
LA_FN T la_geev_pivot_{entry}(T d, R small) {{
  return F_abs(d) <= small ? F_mk(small > 0 ? small : 1, 0) : d;
}}
#define la_geev_pivot la_geev_pivot_{entry}
LA_FN T la_geev_csqrt_{entry}(T z) {{
  R r = F_abs(z);
  if (r == 0) return F_mk(0, 0);
  R s = F_sqrt((r + F_fabs(F_re(z))) / 2);
  if (F_re(z) >= 0) return F_mk(s, F_im(z) / (2 * s));
  return F_mk(F_fabs(F_im(z)) / (2 * s), F_im(z) >= 0 ? s : -s);
}}
LA_FN void la_geev_colrot_{entry}(LA_G T* m, int64_t rows, int64_t col, R c, T s) {{
  for (int64_t i = 0; i < rows; ++i) {{            /* columns col, col+1 times G^H */
    T u = m[i * {n} + col], v = m[i * {n} + col + 1];
    m[i * {n} + col] = F_add(F_scale(u, c), F_cmul(s, v));
    m[i * {n} + col + 1] = F_sub(F_scale(v, c), F_mul(s, u));
  }}
}}
LA_FN void {entry}_core({params}, LA_G T* t, LA_G T* q) {{
  const int64_t n = {n};{paired_decl}
  R fro = 0;
  for (int64_t i = 0; i < n * n; ++i) {{ t[i] = {load}; fro += F_nrm2(t[i]); }}
  fro = F_sqrt(fro);
  const R small = fro * EPS, tiny = fro * EPS * 8 * n;
  (void)tiny;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) q[i * n + j] = F_mk(i == j ? 1 : 0, 0);
  for (int64_t k = 0; k + 2 < n; ++k) {{            /* Hessenberg: P^H A P, Q = P_0 P_1 ... */
    T alpha = t[(k + 1) * n + k];
    R xn = 0;
    for (int64_t i = k + 2; i < n; ++i) xn += F_nrm2(t[i * n + k]);
    if (xn == 0 && F_im(alpha) == 0) continue;
    R beta = F_sqrt(F_nrm2(alpha) + xn);
    if (F_re(alpha) >= 0) beta = -beta;
    T tau = F_mk((beta - F_re(alpha)) / beta, -F_im(alpha) / beta), ct = F_conj(tau);
    T sc = F_div(F_mk(1, 0), F_sub(alpha, F_mk(beta, 0)));
    for (int64_t i = k + 2; i < n; ++i) t[i * n + k] = F_mul(t[i * n + k], sc);
    t[(k + 1) * n + k] = F_mk(beta, 0);
    for (int64_t j = k + 1; j < n; ++j) {{
      T s = t[(k + 1) * n + j];
      for (int64_t i = k + 2; i < n; ++i) s = F_add(s, F_cmul(t[i * n + k], t[i * n + j]));
      s = F_mul(ct, s);
      t[(k + 1) * n + j] = F_sub(t[(k + 1) * n + j], s);
      for (int64_t i = k + 2; i < n; ++i) t[i * n + j] = F_sub(t[i * n + j], F_mul(s, t[i * n + k]));
    }}
    for (int pass = 0; pass < 2; ++pass) {{
      LA_G T* m = pass ? q : t;
      for (int64_t i = 0; i < n; ++i) {{
        T s = m[i * n + k + 1];
        for (int64_t j = k + 2; j < n; ++j) s = F_add(s, F_mul(m[i * n + j], t[j * n + k]));
        s = F_mul(tau, s);
        m[i * n + k + 1] = F_sub(m[i * n + k + 1], s);
        for (int64_t j = k + 2; j < n; ++j) m[i * n + j] = F_sub(m[i * n + j], F_mul(s, F_conj(t[j * n + k])));
      }}
    }}
    for (int64_t i = k + 2; i < n; ++i) t[i * n + k] = F_mk(0, 0);
  }}
  int32_t failed = 0;
  int64_t hi = n - 1, steps = 0, since = 0;
  while (hi > 0) {{                                   /* shifted QR to the Schur form */
    int64_t lo = hi;
    for (; lo > 0; --lo) {{
      R sub = F_abs(t[lo * n + lo - 1]);
      R near = F_abs(t[(lo - 1) * n + lo - 1]) + F_abs(t[lo * n + lo]);
      if (sub <= EPS * (near > 0 ? near : fro) || sub < small * EPS) {{ t[lo * n + lo - 1] = F_mk(0, 0); break; }}
    }}
    if (lo == hi) {{ --hi; since = 0; continue; }}
    if (++steps > 30 * n) {{ failed = (int32_t)(hi + 1); break; }}
    ++since;
    T mu;
    if (since % 10 == 0) {{
      mu = F_add(t[hi * n + hi], F_mk(F_abs(t[hi * n + hi - 1]) * (R)0.75, 0));
    }} else {{
      T a0 = t[(hi - 1) * n + hi - 1], b0 = t[(hi - 1) * n + hi], c0 = t[hi * n + hi - 1], d0 = t[hi * n + hi];
      T hd = F_scale(F_sub(a0, d0), (R)0.5);
      T disc = la_geev_csqrt_{entry}(F_add(F_mul(hd, hd), F_mul(b0, c0)));
      T mid = F_scale(F_add(a0, d0), (R)0.5);
      T l1 = F_add(mid, disc), l2 = F_sub(mid, disc);
      mu = F_abs(F_sub(l1, d0)) <= F_abs(F_sub(l2, d0)) ? l1 : l2;
    }}
    for (int64_t i = lo; i <= hi; ++i) t[i * n + i] = F_sub(t[i * n + i], mu);
    R pc = 1;
    T ps = F_mk(0, 0);
    for (int64_t k = lo; k <= hi; ++k) {{
      if (k < hi) {{                                  /* G_k on rows k, k+1 */
        T x = t[k * n + k], y = t[(k + 1) * n + k];
        R ax = F_abs(x), nr = F_hypot(ax, F_abs(y));
        R c = 1;
        T s = F_mk(0, 0);
        if (nr > 0) {{
          T al = ax > 0 ? F_scale(x, 1 / ax) : F_mk(1, 0);
          c = ax / nr;
          s = F_scale(F_mul(al, F_conj(y)), 1 / nr);
        }}
        for (int64_t j = k; j < n; ++j) {{
          T u = t[k * n + j], v = t[(k + 1) * n + j];
          t[k * n + j] = F_add(F_scale(u, c), F_mul(s, v));
          t[(k + 1) * n + j] = F_sub(F_scale(v, c), F_cmul(s, u));
        }}
        if (k > lo) {{                                /* then G_(k-1)^H on columns k-1, k */
          la_geev_colrot_{entry}(t, k + 1, k - 1, pc, ps);
          la_geev_colrot_{entry}(q, n, k - 1, pc, ps);
        }}
        pc = c;
        ps = s;
      }} else {{
        la_geev_colrot_{entry}(t, hi + 1, hi - 1, pc, ps);
        la_geev_colrot_{entry}(q, n, hi - 1, pc, ps);
      }}
    }}
    for (int64_t i = lo; i <= hi; ++i) t[i * n + i] = F_add(t[i * n + i], mu);
  }}
  *info = failed;
  {store_w}
  if (failed) return;{vectors}{pairing}
}}
#undef la_geev_pivot
"""
