"""GSPMD ``mhlo.sharding`` strings, read into the Shardy form the partitioner uses.

JAX without Shardy (``jax_use_shardy_partitioner=False``) writes XLA's
HloSharding text: ``{replicated}``, ``{manual}``, ``{maximal device=K}`` and
tiled shardings ``{devices=[t0,t1,...]<tile assignment> [last_tile_dim_replicate |
last_tile_dims={replicated, ...}]}``.  The tile assignment is either an
explicit device list (``0,2,1,3``) or an iota ``<=[d0,d1]T(1,0)`` (the ids
``0..N-1`` reshaped to ``[d0,d1]``, transposed by the permutation, then read
as the tile dims).  Tile dim ``j`` of a tensor dim is cut into ``t_j``
pieces; trailing replicate dims say which devices hold the same piece.

There is no mesh in such a module, so one is derived (``derive_mesh``):
every tile dim is a product of *factors* ``(stride, size)`` of the device id
(the device holding piece ``i`` along the dim moves by ``stride`` per step of
that factor's digit); the boundaries ``stride`` and ``stride * size`` of all
factors of all shardings must form a chain of divisors of N, and each link
is a mesh axis ``_g0, _g1, ...`` (major first; device ``d`` sits at mesh
position ``d``).  A tile dim then splits over the mesh axes its factors span,
which is exactly Shardy's per-dimension axis list.  Assignments that are not
products of such factors, or shardings whose factors cross, are refused by
name (UnsupportedOpError).
"""
from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

import numpy as np

from ..errors import UnsupportedOpError
from .sdy import Mesh

MESH_NAME = "_gspmd_mesh"


@dataclass(frozen=True)
class GspmdSharding:
    kind: str                 # "replicated" | "manual" | "maximal" | "tiled"
    tiles: tuple = ()         # tiled: pieces per tensor dim
    factors: tuple = ()       # tiled: per tile dim (the tensor's, then replicate dims),
    #                           ((stride, size), ...) major first
    device: int | None = None  # maximal: its device


def _primes(n: int) -> list:
    out, p = [], 2
    while n > 1:
        while n % p == 0:
            out.append(p)
            n //= p
        p += 1
    return out


def _dim_factors(values: np.ndarray, where, text):
    """((stride, size), ...) whose digits give ``values`` (device ids along a dim, from 0)."""
    n = len(values)
    if n == 1:
        return ()
    for order in sorted(set(itertools.permutations(_primes(n)))):
        strides, step = [], n
        for q in order:                  # the digit of factor q moves by values[n/q...]
            step //= q
            strides.append(int(values[step]))
        idx = np.arange(n)
        got, rest = np.zeros(n, np.int64), idx.copy()
        step = n
        for q, s in zip(order, strides):
            step //= q
            got += (rest // step) * s
            rest %= step
        if np.array_equal(got, values) and all(s > 0 for s in strides):
            return tuple(zip(strides, order))
    raise UnsupportedOpError("mhlo.sharding", f"{text!r}: a tile dimension's devices "
                             f"{values.tolist()} are not a product of strided device-id factors",
                             where)


def parse_gspmd(text: str, where=None) -> GspmdSharding:
    """One (non-tuple) HloSharding string (see module docstring)."""
    body = text.strip()
    if not (body.startswith("{") and body.endswith("}")):
        raise UnsupportedOpError("mhlo.sharding", f"{text!r} is not a {{...}} sharding", where)
    body = re.sub(r"\s*metadata=\{[^{}]*\}", "", body[1:-1]).strip()
    if body.startswith("{"):
        raise UnsupportedOpError("mhlo.sharding", f"tuple sharding {text!r}", where)
    if body in ("replicated", ""):
        return GspmdSharding("replicated")
    if body == "manual":
        return GspmdSharding("manual")
    m = re.fullmatch(r"maximal device=(\d+)", body)
    if m:
        return GspmdSharding("maximal", device=int(m.group(1)))
    m = re.fullmatch(r"devices=\[([\d,\s]+)\]\s*(?:<=\[([\d,\s]+)\](?:T\(([\d,\s]+)\))?|"
                     r"([\d,\s]+?))\s*(last_tile_dim_replicate|last_tile_dims=\{([^}]*)\})?", body)
    if m is None:
        raise UnsupportedOpError("mhlo.sharding", f"{text!r} (not replicated, manual, "
                                 f"maximal or tiled devices=[...])", where)

    def ints(s):
        return [int(x) for x in s.replace(" ", "").split(",") if x]
    tile_all = ints(m.group(1))
    n = int(np.prod(tile_all))
    if m.group(2) is not None:
        dims = ints(m.group(2))
        perm = ints(m.group(3)) if m.group(3) else list(range(len(dims)))
        if int(np.prod(dims)) != n or sorted(perm) != list(range(len(dims))):
            raise UnsupportedOpError("mhlo.sharding", f"{text!r}: the iota assignment does not "
                                     f"fill the {tile_all} tiles", where)
        devices = np.arange(n).reshape(dims).transpose(perm).reshape(tile_all)
    else:
        ids = ints(m.group(4))
        if sorted(ids) != list(range(n)):
            raise UnsupportedOpError("mhlo.sharding", f"{text!r}: the device list is not a "
                                     f"permutation of 0..{n - 1}", where)
        devices = np.array(ids, np.int64).reshape(tile_all)
    subgroups = []
    if m.group(5) == "last_tile_dim_replicate":
        subgroups = ["replicated"]
    elif m.group(5):
        subgroups = [s.strip() for s in m.group(6).split(",") if s.strip()]
    if any(s != "replicated" for s in subgroups):
        raise UnsupportedOpError("mhlo.sharding", f"{text!r}: partially manual sharding "
                                 f"(last_tile_dims {subgroups})", where)
    factors = []
    for j in range(len(tile_all)):
        along = devices[tuple(slice(None) if k == j else 0 for k in range(len(tile_all)))]
        factors.append(_dim_factors(np.asarray(along, np.int64) - int(devices.flat[0]), where, text))
    rebuilt = np.zeros(tile_all, np.int64)
    for j, fs in enumerate(factors):
        shape = [1] * len(tile_all)
        shape[j] = tile_all[j]
        idx, col, step = np.arange(tile_all[j]), np.zeros(tile_all[j], np.int64), tile_all[j]
        for s, q in fs:
            step //= q
            col += ((idx // step) % q) * s
        rebuilt = rebuilt + col.reshape(shape)
    if int(devices.flat[0]) != 0 or not np.array_equal(rebuilt, devices):
        raise UnsupportedOpError("mhlo.sharding", f"{text!r}: the tile assignment is not a "
                                 f"product of strided device-id factors", where)
    data = len(tile_all) - len(subgroups)
    return GspmdSharding("tiled", tuple(tile_all[:data]), tuple(factors))


def derive_mesh(shardings, devices: int, where=None) -> tuple:
    """(Mesh, {stride: axis name}) refining every tiled sharding's factors."""
    bounds = {1, devices}
    for sh in shardings:
        for fs in sh.factors:
            for s, q in fs:
                bounds.update((s, s * q))
    chain = sorted(bounds)
    for a, b in zip(chain, chain[1:]):
        if b % a:
            raise UnsupportedOpError("mhlo.sharding", f"the shardings' device groupings cross "
                                     f"(strides {chain} of {devices} devices do not nest): no "
                                     f"one mesh holds them all", where)
    if chain[-1] != devices:
        raise UnsupportedOpError("mhlo.sharding", f"a sharding spans more than the module's "
                                 f"{devices} devices", where)
    links = list(zip(chain, chain[1:]))[::-1]           # major first
    axes = tuple((f"_g{i}", b // a) for i, (a, b) in enumerate(links))
    names = {a: f"_g{i}" for i, (a, _) in enumerate(links)}
    return Mesh(axes, tuple(range(devices))), names


def sdy_dims(sh: GspmdSharding, rank: int, names: dict, where=None) -> list:
    """Per tensor dim, the mesh axes (major first) of a tiled sharding."""
    if sh.kind != "tiled":
        return [()] * rank
    if len(sh.tiles) != rank:
        raise UnsupportedOpError("mhlo.sharding", f"{len(sh.tiles)} tile dims for a rank-{rank} "
                                 f"value", where)
    out = []
    strides = sorted(names, reverse=True)
    for fs in sh.factors[:rank]:
        axes = []
        for s, q in fs:
            axes += [names[t] for t in strides if s <= t < s * q]
        out.append(tuple(axes))
    return out


def sdy_text(dims) -> str:
    inner = ", ".join("{" + ", ".join(f'"{a}"' for a in axes) + "}" for axes in dims)
    return f"#sdy.sharding<@{MESH_NAME}, [{inner}]>"
