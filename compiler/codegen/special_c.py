"""Special functions (CHLO's elementwise math) for every C-like target.

Most map onto math.h (which OpenCL C and CUDA C also provide); digamma,
erf_inv, bessel_i1e, zeta (Hurwitz) and polygamma are written here,
evaluated in double.  Complex
inverse trigonometric and hyperbolic functions are built from the complex
log / sqrt helpers of ``complex_c``.
"""
from __future__ import annotations

from ..dialects.registry import OPS


def _call(name: str, ctype: str, *args: str) -> str | None:
    """The call of op ``name``'s declared C function (``c_fn``): math.h's,
    suffixed ``f`` on float, or one of ours (``tvm_``) taking doubles."""
    d = OPS.get("chlo." + name) or OPS.get("stablehlo." + name)
    fn = d.c_fn if d is not None else None
    if fn is None:
        return None
    if fn.startswith("tvm_"):
        return f"(({ctype}){fn}({', '.join(f'(double){a}' for a in args)}))"
    return f"{fn}{'f' if ctype == 'float' else ''}({', '.join(args)})"

HELPERS = r"""
static inline double tvm_digamma(double x) {
  double r = 0.0;
  if (x != x) return x;
  if (x <= 0.0) {
    if (x == floor(x)) return NAN;
    /* reflection: psi(x) = psi(1 - x) - pi / tan(pi x) */
    r = -3.14159265358979323846 / tan(3.14159265358979323846 * x);
    x = 1.0 - x;
  }
  while (x < 10.0) { r -= 1.0 / x; x += 1.0; }   /* the series below is then good to ~1e-14 */
  double f = 1.0 / (x * x);
  double s = f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 - f * (1.0 / 240 - f * (1.0 / 132)))));
  return r + log(x) - 0.5 / x - s;
}
static inline double tvm_erf_inv(double y) {
  if (y != y || y < -1.0 || y > 1.0) return NAN;
  if (y == 1.0) return INFINITY;
  if (y == -1.0) return -INFINITY;
  /* Winitzki's closed-form estimate, then Newton steps on erf (erfc near 1) */
  double a = fabs(y), l = log((1.0 - a) * (1.0 + a));
  double c = 2.0 / (3.14159265358979323846 * 0.147) + 0.5 * l;
  double x = sqrt(sqrt(c * c - l / 0.147) - c);
  for (int i = 0; i < 4; ++i) {
    double d = 1.12837916709551257390 * exp(-x * x);
    if (d == 0.0) break;
    double e = a > 0.5 ? (1.0 - a) - erfc(x) : erf(x) - a;
    x -= e / d;
  }
  x = y < 0 ? -x : x;
  return x;
}
/* Hurwitz zeta(s, q) = sum_k (q + k)^-s by Euler-Maclaurin: terms summed
   directly until q + N >= 10 (and N >= 10), then the integral of the tail,
   half its first term and the Bernoulli corrections
   B_2j / (2j)! * s (s+1) .. (s+2j-2) * w^(1-s-2j), w = q + N.  Poles and
   domain as chlo.zeta: s == 1 -> inf, s < 1 -> NaN, q a non-positive
   integer -> inf, q <= 0 with a non-integer s -> NaN. */
static inline double tvm_zeta(double s, double q) {
  const double b2j[12] = {1.0 / 6, -1.0 / 30, 1.0 / 42, -1.0 / 30, 5.0 / 66, -691.0 / 2730,
                                 7.0 / 6, -3617.0 / 510, 43867.0 / 798, -174611.0 / 330,
                                 854513.0 / 138, -236364091.0 / 2730};
  if (s != s || q != q) return NAN;
  if (s == 1.0) return INFINITY;
  if (s < 1.0) return NAN;
  if (q <= 0.0) {
    if (q == floor(q)) return INFINITY;
    if (s != floor(s)) return NAN;
  }
  double sum = 0.0, w = q;
  int n = 0;
  while (n < 10 || w < 10.0) {
    double t = pow(w, -s);
    sum += t;
    w += 1.0;
    ++n;
    if (n >= 10 && w >= 10.0 && fabs(t) * (1.0 + w / (s - 1.0)) <= 1e-17 * fabs(sum)) return sum;
  }
  double ws = pow(w, -s);
  sum += w * ws / (s - 1.0) + 0.5 * ws;
  double p = 0.5 * s * ws / w;          /* s / 2! * w^(-s-1) */
  for (int j = 1; j <= 12; ++j) {
    double t = b2j[j - 1] * p;
    sum += t;
    if (fabs(t) <= 1e-17 * fabs(sum)) break;
    p *= (s + 2.0 * j - 1.0) * (s + 2.0 * j) / ((2.0 * j + 1.0) * (2.0 * j + 2.0) * w * w);
  }
  return sum;
}
/* polygamma(n, x): digamma for n == 0, else (-1)^(n+1) n! zeta(n + 1, x);
   NaN unless n is a non-negative integer. */
static inline double tvm_polygamma(double n, double x) {
  if (n != n || x != x || n < 0.0 || n != floor(n)) return NAN;
  if (n == 0.0) return tvm_digamma(x);
  double f = 1.0;
  for (double k = 2.0; k <= n && f < INFINITY; k += 1.0) f *= k;
  double z = tvm_zeta(n + 1.0, x);
  return n - 2.0 * floor(0.5 * n) == 1.0 ? f * z : -f * z;  /* n odd; no fmod: OpenCL overloads it */
}
static inline uint32_t tvm_rotl32(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }
/* Threefry-2x32, 20 rounds (Salmon et al. 2011): key and counter as
   (low word, high word) of a u64; returns x0 | x1 << 32. */
static inline uint64_t tvm_threefry2x32(uint64_t key, uint64_t ctr) {
  const int rot[8] = {13, 15, 26, 6, 17, 29, 16, 24};
  uint32_t ks[3];
  ks[0] = (uint32_t)key; ks[1] = (uint32_t)(key >> 32); ks[2] = ks[0] ^ ks[1] ^ 0x1BD11BDAu;
  uint32_t x0 = (uint32_t)ctr + ks[0], x1 = (uint32_t)(ctr >> 32) + ks[1];
  for (int i = 0; i < 5; ++i) {
    for (int j = 0; j < 4; ++j) { x0 += x1; x1 = tvm_rotl32(x1, rot[(i & 1) * 4 + j]) ^ x0; }
    x0 += ks[(i + 1) % 3]; x1 += ks[(i + 2) % 3] + (uint32_t)(i + 1);
  }
  return (uint64_t)x0 | ((uint64_t)x1 << 32);
}
/* Philox-4x32, 10 rounds (Salmon et al. 2011): the 128-bit counter (lo, hi)
   as four words, low first, the key as (low word, high word) of a u64;
   writes the four output words to w. */
static inline void tvm_philox4x32(uint64_t key, uint64_t lo, uint64_t hi, uint32_t* w) {
  uint32_t c0 = (uint32_t)lo, c1 = (uint32_t)(lo >> 32), c2 = (uint32_t)hi, c3 = (uint32_t)(hi >> 32);
  uint32_t k0 = (uint32_t)key, k1 = (uint32_t)(key >> 32);
  for (int r = 0; r < 10; ++r) {
    uint64_t p0 = (uint64_t)c0 * 0xD2511F53u, p1 = (uint64_t)c2 * 0xCD9E8D57u;
    uint32_t n0 = (uint32_t)(p1 >> 32) ^ c1 ^ k0, n2 = (uint32_t)(p0 >> 32) ^ c3 ^ k1;
    c1 = (uint32_t)p1; c3 = (uint32_t)p0; c0 = n0; c2 = n2;
    k0 += 0x9E3779B9u; k1 += 0xBB67AE85u;
  }
  w[0] = c0; w[1] = c1; w[2] = c2; w[3] = c3;
}
static inline double tvm_bessel_i1e(double x) {
  double ax = fabs(x), r;
  if (ax <= 15.0) {
    double h = ax * 0.5, t = h, s = h;
    for (int k = 1; k < 60; ++k) { t *= h * h / ((double)k * (double)(k + 1)); s += t; if (t < s * 1e-17) break; }
    r = s * exp(-ax);
  } else {
    /* asymptotic: e^-x I1(x) ~ (2 pi x)^-1/2 sum_k (-1)^k prod_j (4 - (2j-1)^2) / (k! (8x)^k) */
    double t = 1.0, s = 1.0;
    for (int k = 1; k < 12; ++k) { double o = 2.0 * k - 1.0; t *= -(4.0 - o * o) / (k * 8.0 * ax); s += t; }
    r = s / sqrt(2.0 * 3.14159265358979323846 * ax);
  }
  return x < 0 ? -r : r;
}
"""

# Bit access and reduce_precision (codegen/pull_compute.py).
BIT_HELPERS = r"""
static inline uint32_t tvm_f32_bits(float f) { union { float f; uint32_t u; } c; c.f = f; return c.u; }
static inline float tvm_bits_f32(uint32_t u) { union { float f; uint32_t u; } c; c.u = u; return c.f; }
static inline uint64_t tvm_f64_bits(double f) { union { double f; uint64_t u; } c; c.f = f; return c.u; }
static inline double tvm_bits_f64(uint64_t u) { union { double f; uint64_t u; } c; c.u = u; return c.f; }
static inline float tvm_reduce_precision_f32(float x, int e, int m) {
  uint32_t u = tvm_f32_bits(x);
  if ((u & 0x7fffffffu) > 0x7f800000u)   /* NaN; with no mantissa bits left it reads as inf */
    return m > 0 ? x : tvm_bits_f32((u & 0x80000000u) | 0x7f800000u);
  if (m < 23) {
    uint32_t s = 23 - m, last = (u >> s) & 1u;
    u = (u + ((1u << (s - 1)) - 1u + last)) & ~((1u << s) - 1u);
  }
  if (e < 8) {
    int bias = (1 << (e - 1)) - 1, ex = (int)((u >> 23) & 0xffu) - 127;
    uint32_t sign = u & 0x80000000u;
    if (ex > bias) u = sign | 0x7f800000u;
    else if (ex < 1 - bias) u = sign;
  }
  return tvm_bits_f32(u);
}
static inline double tvm_reduce_precision_f64(double x, int e, int m) {
  uint64_t u = tvm_f64_bits(x);
  if ((u & 0x7fffffffffffffffull) > 0x7ff0000000000000ull)
    return m > 0 ? x : tvm_bits_f64((u & 0x8000000000000000ull) | 0x7ff0000000000000ull);
  if (m < 52) {
    uint64_t s = 52 - m, last = (u >> s) & 1ull;
    u = (u + ((1ull << (s - 1)) - 1ull + last)) & ~((1ull << s) - 1ull);
  }
  if (e < 11) {
    int bias = (1 << (e - 1)) - 1, ex = (int)((u >> 52) & 0x7ffull) - 1023;
    uint64_t sign = u & 0x8000000000000000ull;
    if (ex > bias) u = sign | 0x7ff0000000000000ull;
    else if (ex < 1 - bias) u = sign;
  }
  return tvm_bits_f64(u);
}
"""

# Small floats (f8 variants): (exponent bits, mantissa bits, bias, kind), kind
# 0 = IEEE-like (inf and NaN), 1 = "FN" (no inf; all-ones pattern is NaN),
# 2 = "FNUZ" (no inf, no -0; 0x80 is NaN), 3 = "E8M0FNU" (exponent only:
# no sign, no zero, no inf; 0xFF is NaN; encoding clamps tiny values to 0x00,
# rounds ties away from zero in the mantissa, and maps NaN, <= 0 and
# overflow to NaN), 4 = finite only (f4E2M1FN, f6E2M3FN, f6E3M2FN: no inf,
# no NaN; every pattern is a number: overflow and inf saturate to the largest
# finite value, and NaN encodes as a zero of the opposite sign, as ml_dtypes
# converts it).  Computed in float like f16; rounding is to nearest even.
SMALL_FLOATS = {"f8E5M2": (5, 2, 15, 0), "f8E4M3": (4, 3, 7, 0), "f8E3M4": (3, 4, 3, 0),
                "f8E4M3FN": (4, 3, 7, 1), "f8E4M3FNUZ": (4, 3, 8, 2),
                "f8E5M2FNUZ": (5, 2, 16, 2), "f8E4M3B11FNUZ": (4, 3, 11, 2),
                "f8E8M0FNU": (8, 0, 127, 3),
                "f4E2M1FN": (2, 1, 1, 4), "f6E2M3FN": (2, 3, 1, 4), "f6E3M2FN": (3, 2, 3, 4)}

SMALL_FLOAT_HELPERS = r"""
static inline float tvm_sf_decode(uint32_t b, int e, int m, int bias, int kind) {
  if (kind == 3) return b == 0xffu ? NAN : ldexpf(1.0f, (int)b - bias);
  uint32_t sign = (b >> (e + m)) & 1u, ex = (b >> m) & ((1u << e) - 1u), man = b & ((1u << m) - 1u);
  if (kind == 2 && b == (1u << (e + m))) return NAN;
  if (kind == 0 && ex == (1u << e) - 1u) return man ? (sign ? -NAN : NAN) : (sign ? -INFINITY : INFINITY);
  if (kind == 1 && ex == (1u << e) - 1u && man == (1u << m) - 1u) return sign ? -NAN : NAN;
  float v = ex ? ldexpf((float)(man | (1u << m)), (int)ex - bias - m) : ldexpf((float)man, 1 - bias - m);
  return sign ? -v : v;
}
static inline uint32_t tvm_sf_encode(float x, int e, int m, int bias, int kind) {
  if (kind == 3) {
    if (!(x > 0.0f) || isinf(x)) return 0xffu;
    int k; float f = frexpf(x, &k);
    int E = (f >= 0.75f ? k : k - 1) + bias;
    return E < 0 ? 0u : (E > 254 ? 0xffu : (uint32_t)E);
  }
  uint32_t nan = kind == 2 ? (1u << (e + m)) : (kind == 1 ? (1u << (e + m)) - 1u : ((1u << (e + m)) - (1u << m)) | (1u << (m - 1)));
  uint32_t sign = signbit(x) ? (1u << (e + m)) : 0u;
  if (x != x) return kind == 2 ? nan : (kind == 4 ? (sign ^ (1u << (e + m))) : (sign | nan));
  float a = fabsf(x);
  int maxex = kind == 0 ? (1 << e) - 2 : (1 << e) - 1;
  uint32_t maxman = kind == 1 ? (1u << m) - 2u : (1u << m) - 1u;
  uint32_t over = kind == 0 ? (sign | ((uint32_t)((1 << e) - 1) << m)) : (kind == 2 ? nan
                  : (kind == 4 ? (sign | ((uint32_t)maxex << m) | maxman) : (sign | nan)));
  if (isinf(x)) return over;
  uint32_t bits;
  if (a == 0.0f) return kind == 2 ? 0u : sign;
  int k; frexpf(a, &k);
  int E = k - 1;
  if (E < 1 - bias) {
    bits = (uint32_t)nearbyintf(ldexpf(a, bias - 1 + m));
  } else {
    uint32_t q = (uint32_t)nearbyintf(ldexpf(a, m - E));
    if (q == (2u << m)) { q = 1u << m; ++E; }
    if (E > maxex - bias || (E == maxex - bias && (q - (1u << m)) > maxman)) return over;
    bits = ((uint32_t)(E + bias) << m) | (q - (1u << m));
  }
  if (kind == 2 && bits == 0u) return 0u;
  return sign | bits;
}
"""

_COMPLEX = r"""
static inline C C_asin(C z) {   /* -i log(iz + sqrt(1 - z^2)) */
  C one = C_make((R)1, (R)0);
  C w = C_log(C_add(C_make(-z.im, z.re), C_sqrt(C_sub(one, C_mul(z, z)))));
  return C_make(w.im, -w.re);
}
static inline C C_acos(C z) {   /* -i log(z + i sqrt(1 - z^2)) */
  C one = C_make((R)1, (R)0);
  C s = C_sqrt(C_sub(one, C_mul(z, z)));
  C w = C_log(C_add(z, C_make(-s.im, s.re)));
  return C_make(w.im, -w.re);
}
static inline C C_acosh(C z) {  /* log(z + sqrt(z + 1) sqrt(z - 1)) */
  C one = C_make((R)1, (R)0);
  return C_log(C_add(z, C_mul(C_sqrt(C_add(z, one)), C_sqrt(C_sub(z, one)))));
}
static inline C C_asinh(C z) {  /* -i asin(iz) */
  C w = C_asin(C_make(-z.im, z.re));
  return C_make(w.im, -w.re);
}
static inline C C_atanh(C z) {  /* (log1p(z) - log1p(-z)) / 2 */
  C w = C_sub(C_log1p(z), C_log1p(C_neg(z)));
  return C_make(w.re * (R)0.5, w.im * (R)0.5);
}
static inline C C_atan(C z) {   /* -i atanh(iz) */
  C w = C_atanh(C_make(-z.im, z.re));
  return C_make(w.im, -w.re);
}
/* chlo._asin_acos_kernel: w with asin(z) = complex(atan2(z.re, w.re), sign(z.im) w.im)
   (ChloOps.td).  With x = |z.re|, y = |z.im|, R = |z + 1|, S = |z - 1|,
   A = (R + S) / 2 = cosh(Im asin z): w.re = sqrt(A^2 - x^2), w.im = acosh(A),
   written without cancellation (A^2 - x^2 = (A + x)(y^2 / (R + x + 1) + S + 1 - x) / 2,
   and S + 1 - x = y^2 / (S + x - 1) past x = 1), and for huge |z|, where
   y^2 would overflow, as their limits w.re = y, w.im = log(2 |z|). */
static inline C C_asin_acos_kernel(C z) {
  R x = fabsS(z.re), y = fabsS(z.im);
  if (x != x || y != y) {
    if (x - x != 0 && x == x) return C_make(y, x);       /* inf + i nan */
    if (y - y != 0 && y == y) return C_make(y, y);       /* nan + i inf */
    return C_make(x + y, x + y);
  }
  if (x > BIG || y > BIG)
    return C_make(y, logS(hypotS(x * (R)0.5, y * (R)0.5)) + (R)1.38629436111989061883);
  R r = hypotS(x + (R)1, y), s = hypotS(x - (R)1, y), a = (r + s) * (R)0.5;
  R yr = y / (r + x + (R)1), re, am1;
  if (x <= (R)1) {
    re = sqrtS((R)0.5 * (a + x) * (y * yr + (s + ((R)1 - x))));
    am1 = (R)0.5 * (y * yr + (x < (R)1 ? y * (y / (s + ((R)1 - x))) : s));   /* S - (1 - x) */
    if (x < (R)1 && y < EPS * ((R)1 - x))              /* y^2 may underflow: acosh(A) ~ y / sqrt(1 - x^2) */
      return C_make(re, y / sqrtS(((R)1 - x) * ((R)1 + x)));
  } else {
    re = y * sqrtS((R)0.5 * (a + x) * ((R)1 / (r + x + (R)1) + (R)1 / (s + (x - (R)1))));
    am1 = (R)0.5 * (y * yr + (s + (x - (R)1)));
  }
  return C_make(re, log1pS(am1 + sqrtS(am1 * (a + (R)1))));
}
static inline C C_cosh(C z) { return C_make(coshS(z.re) * cosS(z.im), sinhS(z.re) * sinS(z.im)); }
static inline C C_sinh(C z) { return C_make(sinhS(z.re) * cosS(z.im), coshS(z.re) * sinS(z.im)); }
"""


def complex_helpers() -> str:
    out = []
    for c, r, s in (("tvm_c64", "float", "f"), ("tvm_c128", "double", "")):
        t = _COMPLEX.replace("C_", c + "_").replace("(C ", f"({c} ").replace("inline C ", f"inline {c} ")
        t = t.replace("  C ", f"  {c} ").replace("(R)", f"({r})")
        for fn in ("cosh", "sinh", "cos", "sin", "fabs", "hypot", "sqrt", "log1p", "log"):
            t = t.replace(f"{fn}S(", f"{fn}{s}(")
        # |z| past which y^2 overflows (sqrt of the largest value / 4), the unit roundoff
        t = t.replace("BIG", "(R)4.6e18" if s else "(R)3.3e153").replace("EPS", "(R)5.96e-8" if s else "(R)1.12e-16")
        t = t.replace("(R)", f"({r})").replace("  R ", f"  {r} ")
        out.append(t)
    return "\n".join(out)


def unary(name: str, ctype: str, a: str) -> str | None:
    """Real special function ``name`` on a value of C type ``ctype``."""
    if name == "erf" and ctype == "float":
        return f"tvm_erff({a})"      # vectorisable on the CPU (vector_math.py)
    return _call(name, ctype, a)


#: Float types computed in ``float`` whose ``next_after`` must step in their
#: own precision: (mantissa bits, min normal exponent, max exponent).
#: nextafterf would step by an f32 ulp, which rounds back to the input.
NARROW_NEXT_AFTER = {"f16": (10, -14, 15), "bf16": (7, -126, 127),
                     **{k: (m, 1 - bias, bias) for k, (e, m, bias, kind) in SMALL_FLOATS.items() if kind == 0}}

NEXT_AFTER_HELPERS = r"""
/* next_after(x, y) in a narrower IEEE-style binary format held in a float
   (x and y are values of that format): m mantissa bits, normal exponents
   emin..emax.  The step is the format's ulp at x (one binade lower when x is
   a power of two moving toward zero); stepping past the largest finite value
   gives a value that the store rounds to inf. */
static inline float tvm_next_after_narrow(float x, float y, int m, int emin, int emax) {
  if (x != x || y != y) return x + y;
  if (x == y) return y;
  if (x == 0.0f) return y > 0.0f ? ldexpf(1.0f, emin - m) : -ldexpf(1.0f, emin - m);
  if (x - x != 0.0f) return x > 0.0f ? ldexpf(2.0f - ldexpf(1.0f, -m), emax) : -ldexpf(2.0f - ldexpf(1.0f, -m), emax);
  uint32_t u = tvm_f32_bits(x);
  int ex = (int)((u >> 23) & 0xffu) - 127, k = (ex > emin ? ex : emin) - m;
  int toward_zero = (y > x) != (x > 0.0f);
  if (toward_zero && ex > emin && (u & 0x7fffffu) == 0u) k -= 1;
  float step = ldexpf(1.0f, k), r = y > x ? x + step : x - step;
  return r == 0.0f ? (x < 0.0f ? -0.0f : 0.0f) : r;     /* the smallest subnormal steps to a zero of its sign */
}
"""


def binary(name: str, ctype: str, a: str, b: str) -> str | None:
    return _call(name, ctype, a, b)
