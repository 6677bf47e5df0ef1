"""``hal.channel.collective``: contract integers (vmfb/collectives.py) -> a Channel call.

Reads each input buffer view as a numpy array, runs the collective the
codes name on the channel, and writes each result into its output view.
"""
from __future__ import annotations

import numpy as np

from tensorvm.hal import HalError
from tensorvm.vmfb import collectives as contract


def _code(table, i, what):
    if not 0 <= i < len(table):
        raise HalError(f"hal.channel.collective: unknown {what} code {i}")
    return table[i]


def _groups(flat) -> list:
    if not flat:
        return []
    size, ids = int(flat[0]), [int(x) for x in flat[1:]]
    if size <= 0 or len(ids) % size:
        raise HalError(f"hal.channel.collective: {len(ids)} group ids do not make groups of {size}")
    return [ids[i:i + size] for i in range(0, len(ids), size)]


def run_collective(channel, kind, mode, reduction, params, groups, inputs, outputs) -> None:
    kind, _ = _code(contract.KINDS, kind, "collective")
    mode = _code(contract.MODES, mode, "mode")
    op = _code(contract.REDUCTIONS, reduction, "reduction")
    arrays = [np.array(v.to_numpy(), copy=True) for v in inputs]   # peers keep them
    groups = _groups(groups)
    p = [int(x) for x in params]
    if kind == "all_reduce":
        out = channel.all_reduce(arrays, mode, groups, op)
    elif kind == "collective_reduce":
        out = channel.collective_reduce(arrays, mode, groups, op)
    elif kind == "all_gather":
        out = channel.all_gather(arrays, mode, groups, p[0])
    elif kind == "reduce_scatter":
        out = channel.reduce_scatter(arrays, mode, groups, p[0], op)
    elif kind == "all_to_all":
        out = channel.all_to_all(arrays, mode, groups, p[0], p[1], p[2])
    elif kind == "collective_permute":
        out = [channel.collective_permute(arrays[0], mode, groups)]
    else:                                   # collective_broadcast
        roots = None
        if p and p[0]:
            roots, arrays = arrays[-1].reshape(-1), arrays[:-1]
        out = channel.collective_broadcast(arrays, mode, groups, roots)
    if len(out) != len(outputs):
        raise HalError(f"hal.channel.collective: {kind} made {len(out)} results for "
                       f"{len(outputs)} outputs")
    for view, a in zip(outputs, out):
        a = np.asarray(a, dtype=view.dtype)     # (ascontiguousarray makes a 0-d result 1-d)
        if a.shape != tuple(view.shape):
            raise HalError(f"hal.channel.collective: {kind} made a {a.shape} result for a "
                           f"{tuple(view.shape)} output")
        view.buffer.write(0, a.tobytes())
