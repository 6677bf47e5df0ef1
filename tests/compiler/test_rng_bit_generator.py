"""rng_bit_generator: DEFAULT, THREE_FRY and PHILOX with every state XLA
takes (and the 32-bit states IREE's e2e tests use), bit-exact with XLA.

The references come from XLA itself at test time: jaxlib's PJRT CPU client
compiles the same StableHLO program (skipped without jax).  XLA takes u64
states only; a 32-bit state is compared through the u64 words it stands for
(codegen/sequential_rng.py: the key as (low, high) words, each counter word
as (high, low)).
"""
from __future__ import annotations

import numpy as np
import pytest
from tvm_testing import compiled

from tensorvm import hal, runtime

HAS_OPENCL = hal.registry.driver_availability("opencl") is None
TYPES = {np.dtype(np.uint64): "ui64", np.dtype(np.int64): "i64",
         np.dtype(np.uint32): "ui32", np.dtype(np.int32): "i32"}
# output types: 1-D / 2-D / 3-D, odd and even dims (ThreeFry's split dim), scalars,
# empty, 8/16/32/64-bit integers and floats
OUTPUTS = ("tensor<5xui32>", "tensor<8xi32>", "tensor<3x4xui32>", "tensor<3x5xf32>",
           "tensor<2x3x5xui16>", "tensor<ui32>", "tensor<7xui64>", "tensor<2x3xf64>",
           "tensor<4x3xi8>", "tensor<5xbf16>", "tensor<3x7xf16>", "tensor<0x3xui32>",
           "tensor<ui64>", "tensor<9x2xi64>")
U64 = np.uint64
STATES = {   # name: (algorithms, state)
    "u64x2": (("DEFAULT", "THREE_FRY", "PHILOX"), np.array([3, 4], U64)),
    "u64x2_wraps": (("THREE_FRY", "PHILOX"), np.array([7, 2**64 - 2], U64)),
    "i64x2": (("THREE_FRY", "PHILOX"), np.array([-5, 7], np.int64)),
    "u64x3": (("DEFAULT", "PHILOX"), np.array([1, 2, 3], U64)),
    "u64x3_carries": (("PHILOX",), np.array([5, 2**64 - 1, 9], U64)),
    "u32x4": (("THREE_FRY", "PHILOX"), np.array([1, 2, 3, 4], np.uint32)),
    "i32x4": (("THREE_FRY", "DEFAULT"), np.array([-1, 2, -3, 4], np.int32)),
    "i32x6": (("PHILOX",), np.array([1, 2, 3, 4, 5, 6], np.int32)),
}
CASES = [(name, alg) for name, (algs, _) in STATES.items() for alg in algs]
# the states beyond the first of each width only change the words fed in: a few layouts do
FEW = ("tensor<3x5xf32>", "tensor<2x3x5xui16>", "tensor<7xui64>", "tensor<ui32>")


def program(alg: str, state: np.ndarray, outputs=OUTPUTS) -> str:
    sty = f"tensor<{state.shape[0]}x{TYPES[state.dtype]}>"
    lines, results, types = [], [], []
    for k, t in enumerate(outputs):
        lines.append(f"  %s{k}, %o{k} = stablehlo.rng_bit_generator %s, algorithm = {alg} "
                     f": ({sty}) -> ({sty}, {t})")
        results += [f"%s{k}", f"%o{k}"]
        types += [sty, t]
    return (f"func.func @main(%s: {sty}) -> ({', '.join(types)}) {{\n" + "\n".join(lines)
            + f"\n  return {', '.join(results)} : {', '.join(types)}\n}}")


def as_u64_words(state: np.ndarray) -> np.ndarray:
    if state.dtype.itemsize == 8:
        return state.view(U64)
    s = state.view(np.uint32).astype(U64)
    words = [s[0] | (s[1] << U64(32))] + [(s[k] << U64(32)) | s[k + 1] for k in range(2, len(s), 2)]
    return np.array(words, U64)


def xla_run(text: str, *inputs):
    """Run StableHLO ``text`` on XLA:CPU (jaxlib's PJRT client); numpy results."""
    jax = pytest.importorskip("jax", reason="the references are XLA's: jax/jaxlib needed")
    jax.config.update("jax_enable_x64", True)
    from jax._src import compiler as jc
    from jax._src.interpreters import mlir
    from jax._src.lib import xla_client as xc
    from jax._src.lib.mlir import ir
    dev = jax.devices("cpu")[0]
    with mlir.make_ir_context(), ir.Location.unknown():
        code = mlir.module_to_bytecode(ir.Module.parse(text))
    exe = dev.client.compile_and_load(code, xc.DeviceList((dev,)),
                                      jc.get_compile_options(num_replicas=1, num_partitions=1))
    return [np.asarray(o) for o in exe.execute([jax.device_put(x, dev) for x in inputs])]


def ours(text: str, state: np.ndarray, device: str):
    targets = ("cpu", "opencl") if device == "opencl" else ("cpu",)
    out = runtime.load_module(compiled(text, targets), device=device).main(state)
    return [np.asarray(o) for o in out]


def check(name: str, alg: str, device: str, outputs=OUTPUTS) -> None:
    state = STATES[name][1]
    got = ours(program(alg, state, outputs), state, device)
    u64 = as_u64_words(state)
    want = xla_run(program(alg, u64, outputs), u64)
    for k, t in enumerate(outputs):
        s, o = got[2 * k], got[2 * k + 1]
        ws, wo = want[2 * k], want[2 * k + 1]
        assert o.shape == wo.shape and o.tobytes() == wo.tobytes(), (alg, name, t, o, wo)
        assert s.dtype == state.dtype
        assert as_u64_words(s).tolist() == ws.tolist(), (alg, name, t, "state", s, ws)


@pytest.mark.parametrize("name,alg", CASES)
def test_bits_match_xla(name, alg):
    check(name, alg, "local-sync", OUTPUTS if name in ("u64x2", "u64x3", "u32x4") else FEW)


@pytest.mark.parametrize("device", ["local-task"] + (["opencl"] if HAS_OPENCL else []))
@pytest.mark.parametrize("name,alg", [("u64x2", "THREE_FRY"), ("u64x3", "PHILOX"),
                                      ("u32x4", "THREE_FRY")])
def test_bits_match_xla_on_other_devices(device, name, alg):
    check(name, alg, device, OUTPUTS[:6])


# IREE's e2e stablehlo_ops tests (rng_bit_generator with a ui32[4] state [1, 2, 3, 4]
# and 8 i32 results) expect these values
IREE_EXPECTED = {
    "THREE_FRY": [-1997982863, -261361928, -1008514867, 1226850200, 1419974734, -277475325,
                  1033030661, -1926332264],
    "PHILOX": [-1788415499, 854201270, -855525523, 2043148971, 110723240, 146396481,
               -1258660138, -1968502964],
}


@pytest.mark.parametrize("alg", sorted(IREE_EXPECTED))
def test_iree_e2e_32_bit_states(alg):
    state = np.array([1, 2, 3, 4], np.int32)
    _, bits = ours(program(alg, state, ("tensor<8xi32>",)), state, "local-sync")
    assert bits.tolist() == IREE_EXPECTED[alg]


@pytest.mark.parametrize("state,alg,message", [
    (np.array([1, 2, 3], U64), "THREE_FRY", "THREE_FRY with initial state"),
    (np.array([1, 2, 3, 4], U64), "PHILOX", "initial state"),
    (np.array([1, 2], np.uint32), "PHILOX", "initial state"),
])
def test_unsupported_states_are_named(state, alg, message):
    from tensorvm.compiler import compile_str
    from tensorvm.compiler.errors import UnsupportedOpError
    with pytest.raises(UnsupportedOpError, match=message):
        compile_str(program(alg, state, ("tensor<4xui32>",)))
