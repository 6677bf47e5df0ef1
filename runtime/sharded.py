"""Whole arrays over a device mesh: splitting arguments, assembling results.

An export compiled from a sharded program (``partition-spmd`` / shard_map)
records in its reflection how each argument and result is laid out
(``"sharding"``, docs/vmfb.md): the mesh (axes with sizes, the device of
each mesh position) and, per tensor dimension, the mesh axes it is split
over, major first (all empty: replicated).  ``MeshLayout`` reads that:

- ``split(i, array)``: rank ``p``'s piece of a whole argument (its slice
  along every split dimension; the whole array where replicated);
- ``ShardedArray``: a result as the per-rank ``DeviceArray`` shards it is
  made of; ``np.asarray`` assembles the whole array on the host (a
  replicated one is rank 0's copy).  Passed to a call whose argument has
  the same layout, each rank takes its own shard as it is (no host copy);
  any other layout is assembled and split again.

Ranks are partitions here (the partitioner records layouts for modules of
one replica): rank ``p`` is the mesh position holding device ``p``.
"""
from __future__ import annotations

import numpy as np

from tensorvm.vmfb.errors import VmfbError

from .errors import InvalidArgumentError


class MeshLayout:
    """The ``sharding`` reflection of one export (see module docstring)."""

    def __init__(self, refl: dict, ranks: int, where: str, owner=None):
        self.owner = owner          # the ParallelModule whose ranks hold the shards
        try:
            mesh = refl["mesh"]
            self.axes = [(str(a), int(n)) for a, n in mesh["axes"]]
            size = int(np.prod([n for _, n in self.axes])) if self.axes else 1
            ids = [int(d) for d in mesh.get("device_ids") or range(size)]
            self.args = [_dims(d) for d in refl.get("args", [])]
            self.results = [_dims(d) for d in refl.get("results", [])]
        except (KeyError, TypeError, ValueError) as e:
            raise VmfbError(f"{where}: reflection 'sharding' is malformed ({e!r})") from None
        if sorted(ids) != list(range(size)) or any(n <= 0 for _, n in self.axes):
            raise VmfbError(f"{where}: reflection 'sharding': device_ids {ids} are not a "
                            f"permutation of 0..{size - 1}")
        names = {a for a, _ in self.axes}
        for d in self.args + self.results:
            for axes in d or ():
                if not set(axes) <= names:
                    raise VmfbError(f"{where}: reflection 'sharding' names axes {axes} "
                                    f"outside the mesh {self.axes}")
        if size != ranks:
            raise InvalidArgumentError(f"{where}: the module's mesh has {size} devices but it is "
                                       f"loaded as {ranks} ranks")
        self.where, self.ranks, self.size = where, ranks, dict(self.axes)
        self.coords = []                          # rank -> {axis: index along it}
        for p in range(ranks):
            pos, c = ids.index(p), {}
            for a, n in reversed(self.axes):
                c[a], pos = pos % n, pos // n
            self.coords.append(c)

    def ways(self, axes) -> int:
        return int(np.prod([self.size[a] for a in axes])) if axes else 1

    def index(self, dims, shape, p) -> tuple:
        """Rank ``p``'s slices of a whole array of ``shape`` laid out as ``dims``."""
        out = []
        for n, axes in zip(shape, dims):
            k, i = 1, 0
            for a in axes:
                k, i = k * self.size[a], i * self.size[a] + self.coords[p][a]
            out.append(slice(i * (n // k), (i + 1) * (n // k)))
        return tuple(out)

    def owners(self, dims) -> list:
        """One rank per distinct piece: the ranks at index 0 of every axis ``dims``
        does not split over."""
        used = {a for axes in dims for a in axes}
        return [p for p in range(self.ranks)
                if all(v == 0 for a, v in self.coords[p].items() if a not in used)]

    def split(self, i, value, label) -> list:
        """Per-rank pieces of argument ``i`` (``value``: whole array or ShardedArray)."""
        dims = self.args[i] if i < len(self.args) else None
        if dims is None:
            return [value] * self.ranks
        if isinstance(value, ShardedArray):
            if value.layout_key == (self.key(), tuple(dims)):
                return list(value.shards)        # already where it must be
            value = np.asarray(value)
        if not any(dims):
            return [value] * self.ranks
        arr = np.asarray(value)
        if arr.ndim != len(dims) or any(n % self.ways(a) for n, a in zip(arr.shape, dims)):
            raise InvalidArgumentError(
                f"{label}: a whole array of rank {len(dims)} whose dims split as "
                f"{[list(a) for a in dims]} over mesh {self.axes} is expected, got shape "
                f"{list(arr.shape)}")
        return [np.ascontiguousarray(arr[self.index(dims, arr.shape, p)])
                for p in range(self.ranks)]

    def key(self):
        return (id(self.owner), tuple(self.axes), tuple(tuple(sorted(c.items())) for c in self.coords))

    def assemble(self, j, per_rank):
        """Result ``j`` from every rank's value: a ShardedArray for tensors, else rank 0's."""
        dims = self.results[j] if j < len(self.results) else None
        if dims is None or not all(hasattr(v, "buffer_view") for v in per_rank):
            return per_rank[0]
        return ShardedArray(list(per_rank), self, tuple(dims))


def _dims(d):
    if d is None:
        return None
    return tuple(tuple(str(a) for a in axes) for axes in d)


class ShardedArray:
    """A whole array held as one ``DeviceArray`` shard per rank (module docstring)."""

    __slots__ = ("shards", "layout", "dims", "shape", "dtype")

    def __init__(self, shards, layout: MeshLayout, dims):
        self.shards, self.layout, self.dims = shards, layout, dims
        local = shards[0].shape
        self.shape = tuple(n * layout.ways(a) for n, a in zip(local, dims))
        self.dtype = shards[0].dtype

    ndim = property(lambda self: len(self.shape))
    size = property(lambda self: int(np.prod(self.shape, dtype=np.int64)))
    layout_key = property(lambda self: (self.layout.key(), self.dims))

    @property
    def is_replicated(self) -> bool:
        return not any(self.dims)

    def wait(self) -> "ShardedArray":
        for s in self.shards:
            s.wait()
        return self

    def to_host(self) -> np.ndarray:
        """The whole array (assembled from the shards; rank 0's copy if replicated)."""
        if self.is_replicated:
            return np.asarray(self.shards[0])
        out = np.empty(self.shape, self.dtype)
        for p in self.layout.owners(self.dims):
            out[self.layout.index(self.dims, self.shape, p)] = np.asarray(self.shards[p])
        return out

    def __array__(self, dtype=None, copy=None):
        arr = self.to_host()
        if dtype is not None and np.dtype(dtype) != arr.dtype:
            return arr.astype(dtype)
        return arr.copy() if copy and self.is_replicated else arr

    def __repr__(self):
        split = ", ".join("{" + ",".join(a) + "}" for a in self.dims)
        return (f"<ShardedArray {list(self.shape)} {self.dtype} as [{split}] over "
                f"{len(self.shards)} ranks>")
