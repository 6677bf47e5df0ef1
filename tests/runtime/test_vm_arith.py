"""Self-checking assembly programs for scalar arithmetic, compares and casts."""
import pytest

from tensorvm.runtime.errors import VmTrap

from vmasm import context_for, exported_tests

INT_PROGRAM = """
module @ints
func @test_i32_wrap() -> () export {
entry:
  %max = const.i32 2147483647
  %one = const.i32 1
  %x = add.i32 %max, %one
  expect.i32 %x, -2147483648
  %y = sub.i32 %x, %one
  expect.i32 %y, 2147483647
  %big = const.i32 65536
  %z = mul.i32 %big, %big
  expect.i32 %z, 0
  %min = const.i32 -2147483648
  %n = neg.i32 %min
  expect.i32 %n, -2147483648
  %a = abs.i32 %min
  expect.i32 %a, -2147483648
  %m1 = const.i32 -1
  %q = div.s.i32 %min, %m1
  expect.i32 %q, -2147483648
  %t = not.i32 %one
  expect.i32 %t, -2
  ret
}
func @test_i64_wrap() -> () export {
entry:
  %max = const.i64 9223372036854775807
  %one = const.i64 1
  %x = add.i64 %max, %one
  expect.i64 %x, -9223372036854775808
  %big = const.i64 4294967296
  %z = mul.i64 %big, %big
  expect.i64 %z, 0
  %m = const.i64 3037000500
  %s = mul.i64 %m, %m
  expect.i64 %s, -9223372036709301616
  ret
}
func @test_div_rem() -> () export {
entry:
  %a = const.i32 -7
  %b = const.i32 2
  %q = div.s.i32 %a, %b
  expect.i32 %q, -3
  %r = rem.s.i32 %a, %b
  expect.i32 %r, -1
  %qu = div.u.i32 %a, %b
  expect.i32 %qu, 2147483644
  %ru = rem.u.i32 %a, %b
  expect.i32 %ru, 1
  %c = const.i32 7
  %nb = const.i32 -2
  %r2 = rem.s.i32 %c, %nb
  expect.i32 %r2, 1
  %a64 = const.i64 -9
  %b64 = const.i64 4
  %q64 = div.s.i64 %a64, %b64
  expect.i64 %q64, -2
  %qu64 = div.u.i64 %a64, %b64
  expect.i64 %qu64, 4611686018427387901
  %ru64 = rem.u.i64 %a64, %b64
  expect.i64 %ru64, 3
  ret
}
func @test_bits() -> () export {
entry:
  %a = const.i32 -16
  %s = const.i32 33
  %l = shl.i32 %a, %s
  expect.i32 %l, -32
  %r = shr.s.i32 %a, %s
  expect.i32 %r, -8
  %u = shr.u.i32 %a, %s
  expect.i32 %u, 2147483640
  %one = const.i32 1
  %sh31 = const.i32 31
  %top = shl.i32 %one, %sh31
  expect.i32 %top, -2147483648
  %x = const.i32 12
  %y = const.i32 10
  %and = and.i32 %x, %y
  expect.i32 %and, 8
  %or = or.i32 %x, %y
  expect.i32 %or, 14
  %xor = xor.i32 %x, %y
  expect.i32 %xor, 6
  %a64 = const.i64 -1
  %s64 = const.i64 60
  %u64 = shr.u.i64 %a64, %s64
  expect.i64 %u64, 15
  ret
}
func @test_min_max() -> () export {
entry:
  %m = const.i32 -1
  %p = const.i32 1
  %mins = min.s.i32 %m, %p
  expect.i32 %mins, -1
  %minu = min.u.i32 %m, %p
  expect.i32 %minu, 1
  %maxs = max.s.i32 %m, %p
  expect.i32 %maxs, 1
  %maxu = max.u.i32 %m, %p
  expect.i32 %maxu, -1
  %m64 = const.i64 -5
  %p64 = const.i64 3
  %mu64 = max.u.i64 %m64, %p64
  expect.i64 %mu64, -5
  ret
}
func @test_compares() -> () export {
entry:
  %m = const.i32 -1
  %p = const.i32 1
  %lts = cmp.lt.s.i32 %m, %p
  expect.i32 %lts, 1
  %ltu = cmp.lt.u.i32 %m, %p
  expect.i32 %ltu, 0
  %geu = cmp.ge.u.i32 %m, %p
  expect.i32 %geu, 1
  %le = cmp.le.s.i32 %p, %p
  expect.i32 %le, 1
  %gt = cmp.gt.s.i32 %p, %p
  expect.i32 %gt, 0
  %eq = cmp.eq.i32 %m, %m
  expect.i32 %eq, 1
  %ne = cmp.ne.i32 %m, %m
  expect.i32 %ne, 0
  %a = const.i64 -2
  %b = const.i64 2
  %gtu = cmp.gt.u.i64 %a, %b
  expect.i32 %gtu, 1
  %leu = cmp.le.u.i64 %a, %b
  expect.i32 %leu, 0
  ret
}
func @divide(%a: i32, %b: i32) -> (i32) export {
entry:
  %q = div.s.i32 %a, %b
  ret %q
}
func @remainder_u64(%a: i64, %b: i64) -> (i64) export {
entry:
  %q = rem.u.i64 %a, %b
  ret %q
}
"""

FLOAT_PROGRAM = """
module @floats
func @test_f32_rounding() -> () export {
entry:
  %a = const.f32 0.1
  %b = const.f32 0.2
  %s = add.f32 %a, %b
  expect.f32 %s, 0.3
  %big = const.f32 16777216.0
  %one = const.f32 1.0
  %t = add.f32 %big, %one
  expect.f32 %t, 16777216.0
  %w = ext.f32.f64 %s
  expect.f64 %w, 0.30000001192092896
  %d = const.f64 0.1
  %n = trunc.f64.f32 %d
  %nw = ext.f32.f64 %n
  expect.f64 %nw, 0.10000000149011612
  %max = const.f32 3.4028234663852886e38
  %two = const.f32 2.0
  %ovf = mul.f32 %max, %two
  expect.f32 %ovf, inf
  ret
}
func @test_f64_ieee() -> () export {
entry:
  %z = const.f64 0.0
  %one = const.f64 1.0
  %m1 = const.f64 -1.0
  %inf = div.f64 %one, %z
  expect.f64 %inf, inf
  %ninf = div.f64 %m1, %z
  expect.f64 %ninf, -inf
  %nan = div.f64 %z, %z
  expect.nan.f64 %nan
  %sq = sqrt.f64 %m1
  expect.nan.f64 %sq
  %lg = log.f64 %z
  expect.f64 %lg, -inf
  %big = const.f64 1000.0
  %ex = exp.f64 %big
  expect.f64 %ex, inf
  %r = rem.f64 %one, %z
  expect.nan.f64 %r
  %p = pow.f64 %z, %m1
  expect.f64 %p, inf
  %s = sin.f64 %inf
  expect.nan.f64 %s
  %mn = min.f64 %one, %nan
  expect.nan.f64 %mn
  %mx = max.f64 %nan, %one
  expect.nan.f64 %mx
  %mx2 = max.f64 %m1, %one
  expect.f64 %mx2, 1.0
  ret
}
func @test_float_unary() -> () export {
entry:
  %a = const.f32 2.5
  %r = round.f32 %a
  expect.f32 %r, 2.0
  %b = const.f32 3.5
  %r2 = round.f32 %b
  expect.f32 %r2, 4.0
  %c = const.f32 -1.5
  %fl = floor.f32 %c
  expect.f32 %fl, -2.0
  %ce = ceil.f32 %c
  expect.f32 %ce, -1.0
  %ab = abs.f32 %c
  expect.f32 %ab, 1.5
  %ng = neg.f32 %c
  expect.f32 %ng, 1.5
  %four = const.f64 4.0
  %sq = sqrt.f64 %four
  expect.f64 %sq, 2.0
  %z = const.f64 0.0
  %e = exp.f64 %z
  expect.f64 %e, 1.0
  %th = tanh.f64 %z
  expect.f64 %th, 0.0
  %co = cos.f64 %z
  expect.f64 %co, 1.0
  %one = const.f64 1.0
  %at = atan2.f64 %z, %one
  expect.f64 %at, 0.0
  %three = const.f64 3.0
  %two = const.f64 2.0
  %pw = pow.f64 %two, %three
  expect.f64 %pw, 8.0
  %rm = rem.f64 %three, %two
  expect.f64 %rm, 1.0
  ret
}
func @test_float_compares() -> () export {
entry:
  %z = const.f32 0.0
  %nan = div.f32 %z, %z
  %one = const.f32 1.0
  %eq = cmp.eq.f32 %nan, %nan
  expect.i32 %eq, 0
  %ne = cmp.ne.f32 %nan, %nan
  expect.i32 %ne, 1
  %lt = cmp.lt.f32 %nan, %one
  expect.i32 %lt, 0
  %ge = cmp.ge.f32 %one, %z
  expect.i32 %ge, 1
  %isn = cmp.nan.f32 %nan
  expect.i32 %isn, 1
  %isn2 = cmp.nan.f32 %one
  expect.i32 %isn2, 0
  %a = const.f64 1.5
  %b = const.f64 2.5
  %le = cmp.le.f64 %a, %b
  expect.i32 %le, 1
  %gt = cmp.gt.f64 %a, %b
  expect.i32 %gt, 0
  ret
}
func @test_casts() -> () export {
entry:
  %m = const.i32 -1
  %s = ext.i32.i64.s %m
  expect.i64 %s, -1
  %u = ext.i32.i64.u %m
  expect.i64 %u, 4294967295
  %big = const.i64 4294967297
  %t = trunc.i64.i32 %big
  expect.i32 %t, 1
  %odd = const.i32 16777217
  %f = cast.i32.f32.s %odd
  expect.f32 %f, 16777216.0
  %d = cast.i32.f64.s %odd
  expect.f64 %d, 16777217.0
  %l = const.i64 9007199254740993
  %lf = cast.i64.f64.s %l
  expect.f64 %lf, 9007199254740992.0
  %l2 = const.i64 9223372036854775807
  %lf32 = cast.i64.f32.s %l2
  expect.f32 %lf32, 9.223372036854775807e18
  %x = const.f32 -2.75
  %xi = cast.f32.i32.s %x
  expect.i32 %xi, -2
  %y = const.f64 1e15
  %yi = cast.f64.i64.s %y
  expect.i64 %yi, 1000000000000000
  %y32 = cast.f64.i32.s %x.d
  expect.i32 %y32, 7
  ret
}
func @to_i32(%x: f64) -> (i32) export {
entry:
  %i = cast.f64.i32.s %x
  ret %i
}
func @to_i64(%x: f32) -> (i64) export {
entry:
  %i = cast.f32.i64.s %x
  ret %i
}
func @add_f32(%a: f32, %b: f32) -> (f32) export {
entry:
  %s = add.f32 %a, %b
  ret %s
}
"""
FLOAT_PROGRAM = FLOAT_PROGRAM.replace("  %y32 = cast.f64.i32.s %x.d\n",
                                      "  %x.d = const.f64 7.9\n  %y32 = cast.f64.i32.s %x.d\n")


@pytest.fixture(scope="module")
def ints():
    return context_for(INT_PROGRAM)


@pytest.fixture(scope="module")
def floats():
    return context_for(FLOAT_PROGRAM)


@pytest.mark.parametrize("name", exported_tests(INT_PROGRAM))
def test_int_program(ints, name):
    assert ints.invoke(name, []) == []


@pytest.mark.parametrize("name", exported_tests(FLOAT_PROGRAM))
def test_float_program(floats, name):
    assert floats.invoke(name, []) == []


def test_division_by_zero_traps(ints):
    assert ints.invoke("divide", [7, 2]) == [3]
    with pytest.raises(VmTrap, match="division by zero") as e:
        ints.invoke("divide", [7, 0])
    assert e.value.function == "divide" and e.value.pc == 0
    with pytest.raises(VmTrap, match="division by zero"):
        ints.invoke("remainder_u64", [7, 0])


def test_float_to_int_traps(floats):
    assert floats.invoke("to_i32", [-3.9]) == [-3]
    assert floats.invoke("to_i32", [2147483647.5]) == [2147483647]
    for bad in (2147483648.0, float("nan"), float("inf")):
        with pytest.raises(VmTrap, match="i32") as e:
            floats.invoke("to_i32", [bad])
        assert e.value.function == "to_i32"
    with pytest.raises(VmTrap, match="i64"):
        floats.invoke("to_i64", [9.3e18])


def test_f32_arguments_and_results_are_binary32(floats):
    (s,) = floats.invoke("add_f32", [0.1, 0.2])
    import struct
    assert s == struct.unpack("<f", struct.pack("<f", s))[0]
    assert abs(s - 0.3) < 1e-7 and s != 0.1 + 0.2
