"""Clean-ups: dead code elimination and common subexpression elimination."""
from __future__ import annotations

import zlib

import numpy as np

from ..dialects.registry import EFFECTFUL, OPS, PURE_REGIONS, with_trait
from ..ir.attributes import DenseElementsAttr
from .base import Pass

# ops never removed unused: terminators, a dispatch's yield and the declared effectful ops
_EFFECTFUL = with_trait(EFFECTFUL) | {n for n, d in OPS.items() if d.terminator} | {"tvm.yield"}


def _blocks(op):
    for region in op.regions:
        for block in region.blocks:
            yield block


class DeadCodeElimination(Pass):
    name = "dce"

    def run(self, module) -> None:
        for f in module.functions:
            for b in _blocks(f):
                self.run_on_block(b)

    def run_on_block(self, block) -> None:
        for op in reversed(list(block.operations)):
            for b in _blocks(op):
                self.run_on_block(b)
            if op.name in _EFFECTFUL or op.name.startswith("check."):
                continue
            if op.name == "stablehlo.custom_call":
                continue
            if all(not r.uses for r in op.results):
                op.erase()


class _DenseKey:
    """A dense attribute as a CSE key without copying its bytes: hashed by a
    CRC of at most ``SAMPLE`` bytes from each end (a splat by its one value),
    compared in full only when the hashes meet, so a model's weights are
    neither copied nor read whole to find the few duplicates among them."""
    __slots__ = ("array", "type", "_hash")
    SAMPLE = 1 << 15

    def __init__(self, attr):
        self.array, self.type = attr.array, str(attr.type)
        a = self.array
        if a.size and a.strides == (0,) * a.ndim:         # a broadcast splat
            fingerprint = a.flat[:1].tobytes()
        else:
            flat = np.ascontiguousarray(a).reshape(-1).view(np.uint8)
            n = self.SAMPLE
            fingerprint = zlib.crc32(flat[:n], zlib.crc32(flat[-n:])) if flat.size > 2 * n \
                else flat.tobytes()
        self._hash = hash((self.type, a.nbytes, fingerprint))

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other) -> bool:
        return (isinstance(other, _DenseKey) and other._hash == self._hash
                and other.type == self.type and _same_bits(self.array, other.array))


def _same_bits(a, b) -> bool:
    """Bitwise equality, read in place (0.0 and -0.0, or two NaN payloads,
    are different constants; a broadcast splat is not materialised)."""
    if a is b:
        return True
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    if a.size and a.strides == b.strides == (0,) * a.ndim:      # two splats
        a, b = a.flat[:1], b.flat[:1]
    size = a.dtype.itemsize
    if size in (1, 2, 4, 8):
        return bool(np.array_equal(a.view(f"u{size}"), b.view(f"u{size}")))
    return _same_bits(a.real, b.real) and _same_bits(a.imag, b.imag)    # complex128


def _attr_key(v):
    if isinstance(v, DenseElementsAttr):
        return _DenseKey(v)
    if isinstance(v, dict):
        return tuple(sorted((k, _attr_key(x)) for k, x in v.items()))
    try:
        hash(v)
        return v
    except TypeError:
        return repr(v)


# ops with regions that are pure functions of their operands and their region
_PURE_WITH_REGIONS = with_trait(PURE_REGIONS)


def _region_key(op):
    """A structural key of ``op``'s regions (values by position inside them,
    by identity outside), or None for regions with nested regions or effects."""
    pos, parts = {}, []
    for block in _blocks(op):
        for a in block.arguments:
            pos[id(a)] = len(pos)
            parts.append(str(a.type))
        for inner in block.operations:
            if inner.regions or (inner.name in _EFFECTFUL and inner.name != "stablehlo.return"):
                return None
            parts.append((inner.name,
                          tuple(pos.get(id(v), ("outside", id(v))) for v in inner.operands),
                          tuple(str(r.type) for r in inner.results),
                          tuple(sorted((k, _attr_key(v)) for k, v in inner.attributes.items()))))
            for r in inner.results:
                pos[id(r)] = len(pos)
        parts.append("|")
    return tuple(parts)


class CommonSubexpressionElimination(Pass):
    """Merges identical side-effect-free ops in one block: region-free ops,
    and the pure region ops whose regions are the same computation (two
    row sums of one tensor, as torch's layer norm writes its mean twice)."""
    name = "cse"

    def run(self, module) -> None:
        for f in module.functions:
            for b in _blocks(f):
                self.run_on_block(b)

    def run_on_block(self, block) -> None:
        seen = {}
        for op in list(block.operations):
            for b in _blocks(op):
                self.run_on_block(b)
            if op.name in _EFFECTFUL or op.name.startswith("check.") or not op.results:
                continue
            regions = None
            if op.regions:
                regions = _region_key(op) if op.name in _PURE_WITH_REGIONS else None
                if regions is None:
                    continue
            key = (op.name, tuple(id(v) for v in op.operands),
                   tuple(str(r.type) for r in op.results),
                   tuple(sorted((k, _attr_key(v)) for k, v in op.attributes.items())), regions)
            prev = seen.get(key)
            if prev is None:
                seen[key] = op
                continue
            for old, new in zip(op.results, prev.results):
                old.replace_all_uses_with(new)
            op.erase()
