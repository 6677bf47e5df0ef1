"""The collective-op contract between compiled host code and the ``hal`` module.

Compiled code calls ``hal.channel.collective(channel, kind, mode, reduction,
params[], groups[], inputs[], outputs[])`` (runtime/modules/hal.py); the
integers it passes are positions in these tables, read by both sides.

- ``KINDS``: the collective; ``params`` per kind are listed with it.
- ``MODES``: how replica groups become process groups (StableHLO spec:
  cross_replica, cross_partition, cross_replica_and_partition, flattened_ids).
- ``REDUCTIONS``: the element-wise reduction of a reducing collective.

``groups`` is ``[group_size, ids...]``: the replica groups, row-major, -1 as
padding; for collective_permute the (source, target) pairs (group_size 2).
The module's device layout is the requirement ``devices``:
``["replicas=R", "partitions=P"]`` (from ``mhlo.num_replicas`` /
``mhlo.num_partitions``).
"""
from __future__ import annotations

KINDS = (
    ("all_reduce", ()),
    ("all_gather", ("dim",)),
    ("reduce_scatter", ("dim",)),
    ("all_to_all", ("split_dim", "concat_dim", "split_count")),
    ("collective_permute", ()),
    ("collective_broadcast", ("dynamic_root",)),   # 1: the last input holds the roots
    ("collective_reduce", ()),
)
KIND_ID = {name: i for i, (name, _) in enumerate(KINDS)}
MODES = ("cross_replica", "cross_partition", "cross_replica_and_partition", "flattened_ids")
MODE_ID = {m: i for i, m in enumerate(MODES)}
REDUCTIONS = ("none", "sum", "prod", "min", "max", "and", "or", "xor")
REDUCTION_ID = {r: i for i, r in enumerate(REDUCTIONS)}

DEVICES_REQUIREMENT = "devices"


def devices_requirement(replicas: int, partitions: int) -> list:
    return [f"replicas={int(replicas)}", f"partitions={int(partitions)}"]


def parse_devices(requirements: dict) -> tuple:
    """(replicas, partitions) a module was compiled for ((1, 1) if it says nothing)."""
    out = {"replicas": 1, "partitions": 1}
    for item in (requirements or {}).get(DEVICES_REQUIREMENT, ()):
        key, _, value = str(item).partition("=")
        if key in out and value.isdigit():
            out[key] = int(value)
    return out["replicas"], out["partitions"]
