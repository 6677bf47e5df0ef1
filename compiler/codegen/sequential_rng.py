"""``rng_bit_generator`` as a sequential kernel kind: counter-based bits,
bit-exact with XLA's generators (its RngBitGenerator expansion on CPU).

State: ``u64[2]`` / ``i64[2]`` is (key, counter); PHILOX also takes
``u64[3]`` (key, counter low, counter high); with two words PHILOX's 128-bit
counter has the key as its high half.  32-bit states hold the same words as
pairs: the key as (low, high) words, each counter word as (high, low), which
is how IREE's e2e tests read a ``ui32[4]`` state (XLA itself takes u64
states only); the new state is written back in the same order, so chained
calls continue the sequence.  ``DEFAULT`` is PHILOX, as on XLA:CPU/GPU.

Layouts, for N output elements:
- THREE_FRY, 64-bit elements: element e is the two words of
  threefry2x32(key, counter + e).
- THREE_FRY, 32 bits or narrower: the shape is split in half along its
  first even dim (else its first largest dim; a scalar is one block); the
  pair of words of block h (h the row-major index over the halved shape)
  fills positions 2i and 2i + 1 of that dim.  Narrow types keep the low
  bits.  The counter advances by the halved shape's size.
- PHILOX, 32 bits or narrower: element e is word e % 4 of block e / 4; the
  counter advances by ceil(N / 4).  64-bit elements: words (0, 1) and
  (2, 3) of block e / 2, low word first; the counter advances by ceil(N / 2).
Float outputs hold the generated bits (bitcast).
"""
from __future__ import annotations

from ..errors import UnsupportedOpError
from ..ir.symbolic import cdiv, make, shape_product
from ..ir.types import bit_width, is_complex
from . import scalar

_OP = "stablehlo.rng_bit_generator"
PER_WORKGROUP = 4096        # output elements per workgroup


def _state_words(em, state):
    """C expressions of the state as u64 words (key, counter...), and a
    writer of the new state from new u64 words."""
    t = state.type
    el, n = t.element, t.shape[0] if t.rank == 1 else None
    w = bit_width(el) if el.startswith(("i", "ui", "si")) else None
    if w == 64 and n in (2, 3):
        words = [em.tmp("uint64_t", f"(uint64_t){em.value(state, (str(k),))}") for k in range(n)]

        def write(out, new):
            for k, v in enumerate(new):
                em.line(f"{out}[{k}] = ({scalar.STORAGE_TYPE[el]})({v});")
        return words, write
    if w == 32 and n in (4, 6):
        s = [em.tmp("uint64_t", f"(uint64_t)(uint32_t){em.value(state, (str(k),))}") for k in range(n)]
        words = [em.tmp("uint64_t", f"{s[0]} | ({s[1]} << 32)")]
        words += [em.tmp("uint64_t", f"({s[k]} << 32) | {s[k + 1]}") for k in range(2, n, 2)]

        def write(out, new):
            st = scalar.STORAGE_TYPE[el]
            em.line(f"{out}[0] = ({st})(uint32_t)({new[0]}); {out}[1] = ({st})(uint32_t)(({new[0]}) >> 32);")
            for j, v in enumerate(new[1:]):
                em.line(f"{out}[{2 + 2 * j}] = ({st})(uint32_t)(({v}) >> 32); "
                        f"{out}[{3 + 2 * j}] = ({st})(uint32_t)({v});")
        return words, write
    raise UnsupportedOpError(_OP, f"initial state {t} (u64/i64 of 2 or 3 elements, or "
                             "u32/i32 of 4 or 6)")


def _store_bits(el, bits):
    """The stored value of output element type ``el`` holding ``bits`` (a u64 expression)."""
    if el == "f32":
        return f"tvm_bits_f32((uint32_t)({bits}))"
    if el == "f64":
        return f"tvm_bits_f64((uint64_t)({bits}))"
    return f"({scalar.STORAGE_TYPE[el]})({bits})"


def _split_dim(em, shape):
    """C variable: XLA's split dim of a 32-bit ThreeFry output (first even
    dim, else the first largest), decided at run time for symbolic dims."""
    sd = em.var("int64_t", "-1")
    for k, d in enumerate(shape):
        em.line(f"if ({sd} < 0 && ({d}) % 2 == 0) {sd} = {k};")
    em.open(f"if ({sd} < 0)")
    em.line(f"{sd} = 0;")
    for k, d in enumerate(shape[1:], 1):
        em.line(f"if (({d}) > {_dim_at(shape, sd)}) {sd} = {k};")
    em.close()
    return sd


def _dim_at(shape, k):
    """C expression of dim ``k`` (a C variable) of ``shape``."""
    expr = f"({shape[-1]})"
    for j in range(len(shape) - 2, -1, -1):
        expr = f"({k} == {j} ? ({shape[j]}) : {expr})"
    return expr


def _halved(em, shape, sd, e):
    """(block index over the halved shape, word 0/1) of flat element ``e``."""
    q = em.var("int64_t", e)
    lin, mul, word = em.var("int64_t", "0"), em.var("int64_t", "1"), em.var("int64_t", "0")
    for k in range(len(shape) - 1, -1, -1):
        d = shape[k]
        i = em.tmp("int64_t", f"{q} % ({d})")
        em.line(f"{q} /= ({d});")
        em.open(f"if ({sd} == {k})")
        em.line(f"{word} = {i} & 1; {lin} += ({i} >> 1) * {mul}; {mul} *= (({d}) + 1) / 2;")
        em.close()
        em.open("else")
        em.line(f"{lin} += {i} * {mul}; {mul} *= ({d});")
        em.close()
    return lin, word


def _half_size(em, shape, sd):
    n = em.var("int64_t", "1")
    for k, d in enumerate(shape):
        em.line(f"{n} *= {sd} == {k} ? (({d}) + 1) / 2 : ({d});")
    return n


def rng_bit_generator(kernel, em, wg, outs) -> int:
    op = kernel.root
    alg = getattr(op.attributes.get("rng_algorithm"), "value", "DEFAULT")
    if alg == "DEFAULT":
        alg = "PHILOX"
    state = op.operands[0]
    new_state, out = op.results
    el = out.type.element
    if el == "i1" or is_complex(el) or el not in scalar.STORAGE_TYPE:
        raise UnsupportedOpError(_OP, f"output element type {el} (XLA generates integer and "
                                 "floating-point bits only)")
    width = bit_width(el)
    words, write_state = _state_words(em, state)
    if alg == "THREE_FRY" and len(words) != 2:
        raise UnsupportedOpError(_OP, f"THREE_FRY with initial state {state.type} (a key and one "
                                 "64-bit counter: u64[2] or u32[4])")
    if alg not in ("THREE_FRY", "PHILOX"):
        raise UnsupportedOpError(_OP, f"algorithm {alg}")
    shape = tuple(out.type.shape)
    total = shape_product(shape)
    key, lo = words[0], words[1]
    hi = words[2] if len(words) == 3 else key
    rank = len(shape)
    split = alg == "THREE_FRY" and width <= 32 and rank > 0
    sd = _split_dim(em, shape) if split else None

    # the new state (workgroup 0)
    em.open(f"if ({wg} == 0)")
    if alg == "THREE_FRY":
        if split:
            advance = _half_size(em, shape, sd)
        else:
            advance = "1" if rank == 0 else f"(uint64_t)({total})"
        write_state(outs[0], [key, f"{lo} + (uint64_t){advance}"])
    else:
        blocks = cdiv(total, 4 if width <= 32 else 2)
        nlo = em.tmp("uint64_t", f"{lo} + (uint64_t)({blocks})")
        write_state(outs[0], [key, nlo] + ([f"{hi} + ({nlo} < {lo} ? 1u : 0u)"]
                                           if len(words) == 3 else []))
    em.close()

    e = em.fresh("e")
    em.open(f"for (int64_t {e} = (int64_t){wg} * {PER_WORKGROUP}; {e} < ({total}) && "
            f"{e} < ((int64_t){wg} + 1) * {PER_WORKGROUP}; ++{e})")
    if alg == "THREE_FRY":
        if width == 64:
            bits = f"tvm_threefry2x32({key}, {lo} + (uint64_t){e})"
        elif split:
            blk, word = _halved(em, shape, sd, e)
            r = em.tmp("uint64_t", f"tvm_threefry2x32({key}, {lo} + (uint64_t){blk})")
            bits = f"({word} ? ({r} >> 32) : ({r} & 0xffffffffULL))"
        else:   # a scalar: word 0 of block 0
            bits = f"(tvm_threefry2x32({key}, {lo}) & 0xffffffffULL)"
    else:
        per = 4 if width <= 32 else 2
        b = em.tmp("uint64_t", f"(uint64_t)({e} / {per})")
        blo = em.tmp("uint64_t", f"{lo} + {b}")
        bhi = em.tmp("uint64_t", f"{hi} + ({blo} < {lo} ? 1u : 0u)")
        w = em.fresh("w")
        em.line(f"uint32_t {w}[4];")
        em.line(f"tvm_philox4x32({key}, {blo}, {bhi}, {w});")
        if width <= 32:
            bits = f"(uint64_t){w}[{e} % 4]"
        else:
            j = em.tmp("int64_t", f"({e} % 2) * 2")
            bits = f"((uint64_t){w}[{j}] | ((uint64_t){w}[{j} + 1] << 32))"
    if width < 64:
        bits = f"(({bits}) & {(1 << width) - 1}ULL)"
    em.line(f"{outs[1]}[{e}] = {_store_bits(el, bits)};")
    em.close()
    if isinstance(total, int):
        return max(1, -(-total // PER_WORKGROUP))
    return make("max", cdiv(total, PER_WORKGROUP), 1)
