"""Vectorisable f32 exp, tanh, logistic, erf and log for the CPU target.

libm's ``expf`` / ``tanhf`` / ``erff`` are opaque calls, so a loop that uses
them runs one element at a time (a tanh-GELU over 64x512 elements took
~400 us).  These are straight-line polynomials with bit-blend selects (no
branches: loop if-conversion is off for GCC 12 in kernels that reduce, see cpu.if_convert_guard), so
GCC inlines and vectorises them.  Every f32 input, checked exhaustively
against double-precision libm rounded to f32, is within 1 ulp; NaN stays
NaN, infinities and subnormal results are exact limits (tests/compiler/
test_vector_math.py checks them against numpy).

Coefficients are near-minimax fits (Lawson-weighted least squares in
mpmath), rounded to f32:
  exp:  x = n ln2 + r, |r| <= ln2/2 (Cody-Waite split of ln2);
        e^r = 1 + r + r^2 q(r), q of degree 4; 2^n applied as two
        exponent-field scalings so subnormal results round once.
  tanh: |x| < 0.625: x + x^3 p(x^2), p of degree 4; else 1 - 2/(e^2|x| + 1).
  logistic: e = e^-|x|; 1 / (1 + e), or e / (1 + e) for x < 0 (no
        overflow of e^-x: tiny results stay accurate).
  erf:  |x| < 1: x + x p(x^2), p of degree 6; else
        1 - e^-x^2 q(1/(1 + |x|/2)), q of degree 7 ~ erfc(x) e^x^2 on [1, 4]
        (|x| >= 4 gives 1 in f32).
  log:  x = 2^e m, m in [sqrt(1/2), sqrt(2)) read off the bits (subnormals
        scaled by 2^23 first); f = m - 1, log(1 + f) = f - f^2/2 + f^3 q(f),
        q of degree 7; e ln2 added as an exact high part and a low part.
        Checked exhaustively over m in f32 arithmetic: within 1 ulp.
"""
from __future__ import annotations

# Names of the helpers this replaces (scalar._float_helpers' libm wrappers).
NAMES = ("tvm_expf", "tvm_tanhf", "tvm_erff", "tvm_logisticf", "tvm_logf")

C = r"""
static inline uint32_t tvm_vm_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline float tvm_vm_float(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline float tvm_vm_pick(int c, float a, float b) { const uint32_t m = (uint32_t)0 - (uint32_t)c; return tvm_vm_float((tvm_vm_bits(a) & m) | (tvm_vm_bits(b) & ~m)); }
static inline float tvm_expf(float x) {
  float xc = tvm_vm_pick(x > 89.0f, 89.0f, x);          /* e^89 and e^-104 round to inf and 0 */
  xc = tvm_vm_pick(xc < -104.0f, -104.0f, xc);
  const float t = xc * 1.44269502f + 12582912.0f;       /* 1.5 * 2^23: rounds to an integer n */
  const float n = t - 12582912.0f;
  float r = xc - n * 0.693145751953125f;
  r = r - n * 1.42860677e-06f;
  const float q = 5.000000000e-01f + r * (1.666657776e-01f + r * (4.166685417e-02f + r * (8.363140747e-03f + r * 1.390128047e-03f)));
  const float p = 1.0f + (r + (r * r) * q);
  const int32_t k = (int32_t)(tvm_vm_bits(t) - 0x4B400000u);
  const int32_t k1 = k >> 1, k2 = k - k1;
  const float s1 = tvm_vm_float((uint32_t)(k1 + 127) << 23), s2 = tvm_vm_float((uint32_t)(k2 + 127) << 23);
  return tvm_vm_pick(x != x, x, (p * s1) * s2);
}
static inline float tvm_tanhf(float x) {
  const float a = fabsf(x), z = a * a;
  const float small = a + (a * z) * (-3.333332837e-01f + z * (1.333277076e-01f + z * (-5.385100842e-02f + z * (2.099753916e-02f + z * -6.097146776e-03f))));
  const float big = 1.0f - 2.0f / (tvm_expf(a + a) + 1.0f);
  const float r = tvm_vm_pick(a < 0.625f, small, big);
  return tvm_vm_float(tvm_vm_bits(r) | (tvm_vm_bits(x) & 0x80000000u));
}
static inline float tvm_logisticf(float x) {
  const float e = tvm_expf(-fabsf(x)), r = 1.0f / (1.0f + e);
  return tvm_vm_pick(x < 0.0f, e * r, r);
}
static inline float tvm_logf(float x) {
  const int sub = tvm_vm_bits(x) < 0x00800000u;          /* +0 and positive subnormals */
  const uint32_t t = tvm_vm_bits(tvm_vm_pick(sub, x * 8388608.0f, x)) - 0x3F3504F3u;
  const float e = (float)(((int32_t)t >> 23) - 23 * sub);
  const float f = tvm_vm_float((t & 0x007FFFFFu) + 0x3F3504F3u) - 1.0f;
  const float q = 3.333330750e-01f + f * (-2.500065267e-01f + f * (2.000346780e-01f + f * (-1.662981063e-01f + f * (1.415416449e-01f + f * (-1.305669695e-01f + f * (1.305166036e-01f + f * -8.254102618e-02f))))));
  const float z = f * f, y = f * z * q - 0.5f * z;
  float r = (f + (y + e * -2.12194440e-04f)) + e * 0.693359375f;
  r = tvm_vm_pick(x == INFINITY, x, r);
  r = tvm_vm_pick(x == 0.0f, -INFINITY, r);
  r = tvm_vm_pick(x < 0.0f, NAN, r);
  return tvm_vm_pick(x != x, x, r);
}
static inline float tvm_erff(float x) {
  const float a = fabsf(x), z = a * a;
  const float small = a + a * (1.283791661e-01f + z * (-3.761262596e-01f + z * (1.128358543e-01f + z * (-2.685381658e-02f + z * (5.188334268e-03f + z * (-8.010247257e-04f + z * 7.854024443e-05f))))));
  const float ac = tvm_vm_pick(a > 4.0f, 4.0f, a);
  const float u = 1.0f / (1.0f + 0.5f * ac);
  const float q = -1.531875751e-04f + u * (2.848962545e-01f + u * (2.598017156e-01f + u * (3.473609388e-01f + u * (-1.025924981e-01f + u * (5.618731380e-01f + u * (-4.701517820e-01f + u * 1.190160513e-01f))))));
  const float big = 1.0f - tvm_expf(-(ac * ac)) * q;
  const float r = tvm_vm_pick(a < 1.0f, small, big);
  return tvm_vm_float(tvm_vm_bits(r) | (tvm_vm_bits(x) & 0x80000000u));
}
"""
