"""Constant GEMM weights stored in the micro-kernel's panel layout (issue 34.1).

A CPU GEMM packs B into panels of its micro-tile's width before sweeping A
over it: 14-20% of a 128-row product's time at BERT-base's shapes.  When B
is a ``stablehlo.constant`` that only such products read, the module stores
it already packed (``gemm.pack_panels``: panels as wide as the micro-tile,
or, for a module whose CPU variants' tiles differ, one cache line wide,
which every variant's vectors tile, so one copy serves all variants) and
the kernels read the panels in place.  The bytes are packed while the module is
written, a few MB at a time, so the compile still holds each weight once;
the rodata keeps its size (N is whole panels), so bindings, offsets and the
per-chunk CRCs are those of any constant.

Only CPU-only compiles qualify (a GPU variant would read the same rodata in
the original layout), and only constants whose every reader is a packable
contraction reading it as B (``gemm.packable``) through views of its own.
"""
from __future__ import annotations

from ..dialects import registry
from . import cpu_targets, gemm


def _reads_only_as_rhs(arg, dot) -> bool:
    """Whether the dispatch region's argument ``arg`` reaches nothing but
    ``dot``'s rhs, through a chain of single-use views."""
    v = arg
    while len(v.uses) == 1:
        op, i = v.uses[0]
        if op is dot:
            return i == 1
        if not registry.has(op.name, registry.VIEW):
            return False
        v = op.results[0]
    return False


def _readers(value, out: list) -> bool:
    """Collect (dispatch, operand index) of every reader of ``value``
    (through module-level reshapes, which alias it); False when one is
    anything else."""
    for op, i in value.uses:
        if op.name == "stablehlo.reshape":
            if not _readers(op.results[0], out):
                return False
        elif op.name == "tvm.dispatch":
            out.append((op, i))
        else:
            return False
    return True


def plan_packed_weights(functions, plans: dict, kernels: list, entry_of: dict,
                        options) -> dict:
    """id(constant op) -> ``gemm.pack_panels`` pieces of its packed bytes,
    for every constant that is a packable contraction's B and nothing else;
    the kernels that read one get ``packed_rhs`` (the panel width)."""
    if any(t != "cpu" for t in options.targets):
        return {}
    widths = [t.vector_bytes for t in cpu_targets.targets_of(options)]
    out = {}
    for func in functions:
        for op in plans[id(func)].constants:
            if id(op) in out:
                continue
            readers = []
            if not _readers(op.result, readers) or not readers:
                continue
            chosen, view = [], None
            for d, i in readers:
                k = kernels[entry_of[id(d)]] if id(d) in entry_of else None
                if k is None or not gemm.packable(k) or not gemm.panel_width(k, widths):
                    break
                c = k.contraction
                arg = d.regions[0].blocks[0].arguments[i]
                key = (c.K, c.N, c.rhs_strides[1:], gemm.packed_batches(c), gemm.panel_width(k, widths))
                if arg is not c.rhs or not _reads_only_as_rhs(arg, c.op) or view not in (None, key):
                    break
                view = key
                chosen.append(k)
            else:
                array = op.attr("value").array
                if array.size != view[0] * view[1] * view[3]:
                    continue
                for k in chosen:
                    k.packed_rhs = view[4]
                out[id(op)] = gemm.pack_panels(array, chosen[0].contraction, view[4])
    return out
