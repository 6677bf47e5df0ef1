"""Shardy (``sdy``) meshes and shardings, as JAX writes them.

A mesh ``<["x"=2, "y"=2]>`` (optionally ``, device_ids=[...]``) names its
axes, major to minor; the device at mesh position ``i`` (row-major over the
axes) is ``device_ids[i]`` (the identity when absent).  A sharding
``<@mesh, [{"x"}, {}, {"x", "y"}]>`` lists, per tensor dimension, the axes it
is split over (major first); ``?`` (open dims), ``replicated=`` and
``unreduced=`` carry no partitioning of their own here.  Sub-axes
(``"x":(1)2``) are refused by name: nothing here splits one axis further.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import UnsupportedOpError

_AXIS = re.compile(r'"([^"]*)"\s*=\s*(\d+)')
_DEVICE_IDS = re.compile(r"device_ids\s*=\s*\[([^\]]*)\]")


@dataclass(frozen=True)
class Mesh:
    axes: tuple           # ((name, size), ...), major to minor
    device_ids: tuple     # device of each mesh position (row-major)

    @property
    def size(self) -> int:
        n = 1
        for _, s in self.axes:
            n *= s
        return n

    def coordinates(self, device: int) -> dict:
        """Axis name -> this device's index along it."""
        pos = self.device_ids.index(device)
        out = {}
        for name, size in reversed(self.axes):
            out[name] = pos % size
            pos //= size
        return out

    def axis_size(self, name: str) -> int:
        for n, s in self.axes:
            if n == name:
                return s
        raise KeyError(name)


def parse_mesh(text: str, where=None) -> Mesh:
    """A Mesh from ``<["x"=2, ...]>`` or ``<[...], device_ids=[...]>``."""
    body = text.strip()
    if body.startswith("#sdy.mesh"):
        body = body[len("#sdy.mesh"):]
    if body.startswith("mesh"):
        body = body[len("mesh"):]
    if not (body.startswith("<") and body.endswith(">")):
        raise UnsupportedOpError("sdy.mesh", f"mesh {text!r} is not <[\"axis\"=size, ...]>", where)
    bracket = body[1:].split("]", 1)[0]
    axes = tuple((m.group(1), int(m.group(2))) for m in _AXIS.finditer(bracket))
    if any(s <= 0 for _, s in axes):
        raise UnsupportedOpError("sdy.mesh", f"mesh {text!r} has an axis of size 0", where)
    n = 1
    for _, s in axes:
        n *= s
    m = _DEVICE_IDS.search(body)
    if m is None:
        ids = tuple(range(n))
    else:
        ids = tuple(int(x) for x in m.group(1).replace(" ", "").split(",") if x)
        if sorted(ids) != list(range(n)):
            raise UnsupportedOpError("sdy.mesh", f"device_ids of {text!r} are not a "
                                     f"permutation of 0..{n - 1}", where)
    return Mesh(axes, ids)


@dataclass(frozen=True)
class Sharding:
    mesh: str | Mesh       # a mesh symbol name, or an inline mesh
    dims: tuple            # per dimension: the axis names it is split over


def parse_sharding(text: str, where=None) -> Sharding:
    """A Sharding from ``<@mesh, [{"x"}, {}]>`` (also ``#sdy.sharding<...>``
    and an inline ``mesh<[...]>`` in place of ``@mesh``)."""
    body = text.strip()
    if body.startswith("#sdy.sharding"):
        body = body[len("#sdy.sharding"):].strip()
    if not (body.startswith("<") and body.endswith(">")):
        raise UnsupportedOpError("sdy.sharding", f"sharding {text!r} is not <@mesh, [dims]>", where)
    inner = body[1:-1].strip()
    if inner.startswith("@"):
        name, _, rest = inner[1:].partition(",")
        mesh = name.strip()
    elif inner.startswith("mesh<"):
        end = inner.index(">", inner.index("]")) + 1
        mesh, rest = parse_mesh(inner[:end], where), inner[end:].lstrip(" ,")
    else:
        raise UnsupportedOpError("sdy.sharding", f"sharding {text!r} names no mesh", where)
    rest = rest.strip()
    if not rest.startswith("["):
        raise UnsupportedOpError("sdy.sharding", f"sharding {text!r} has no dimension list", where)
    depth, end = 0, None
    for i, c in enumerate(rest):
        depth += c == "["
        depth -= c == "]"
        if depth == 0:
            end = i
            break
    if end is None:
        raise UnsupportedOpError("sdy.sharding", f"unbalanced dimension list in {text!r}", where)
    dims = []
    for group in re.findall(r"\{([^}]*)\}", rest[1:end]):
        if ":" in group:
            raise UnsupportedOpError("sdy.sharding", f"sub-axis sharding {{{group}}} in {text!r}",
                                     where)
        dims.append(tuple(re.findall(r'"([^"]*)"', group)))
    return Sharding(mesh, tuple(dims))
