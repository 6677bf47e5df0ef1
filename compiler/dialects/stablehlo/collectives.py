"""StableHLO collectives and host/channel I/O ops (all_reduce, all_gather,
all_to_all, reduce_scatter, collective_*, send/recv, infeed/outfeed, ids)."""
from __future__ import annotations

from ...ir.attributes import DenseElementsAttr, StructAttr
from ...ir.types import TensorType
from ..opdef import HOST, DECOMPOSED, OWN, POSITIVE, NON_NEGATIVE, EFFECTFUL, defop
from ..checks import S, attr_ints, compat, element_of, expect_result, fail, shape_of, symbol_ref
from .reduction import reduce_regions, reduction_region


def _replica_groups(op):
    groups = op.attributes.get("replica_groups")
    if isinstance(groups, StructAttr) and groups.name == "stablehlo.replica_group_mesh_axes":
        mesh = groups.fields.get("mesh")
        name = getattr(mesh, "name", None)
        if name is not None and symbol_ref(op, name) is None:
            fail(op, f"replica_groups: mesh symbol '{name}' not found")
    if isinstance(groups, DenseElementsAttr):
        arr = groups.array
        if arr.ndim != 2:
            fail(op, "replica groups should be a rank 2 tensor")
        ids = [int(x) for x in arr.reshape(-1) if int(x) != -1 or op.name != S + "all_reduce"]
        if arr.size == 0 and op.name in (S + "all_reduce", S + "reduce_scatter", S + "all_gather"):
            fail(op, "replica groups cannot be empty")
        seen = set()
        for r in ids:
            if r < 0:
                fail(op, f"Invalid replica id {r}")
            if r in seen:
                fail(op, f"replica id #{r} seen more than once")
            seen.add(r)
        for r in range(len(seen)) if op.name in (S + "all_reduce", S + "reduce_scatter", S + "all_gather") else ():
            if r not in seen:
                fail(op, f"replica id #{r} not seen in replica groups")
    handle = op.attributes.get("channel_handle")
    if op.attributes.get("use_global_device_ids") is not None:
        h = handle.fields.get("handle", 0) if isinstance(handle, StructAttr) else 0
        h = getattr(h, "value", h)
        if isinstance(h, int) and h <= 0:
            fail(op, f"channel_id must be positive when useGlobalDeviceIds is set but got: {h}")


def _collective(op):
    _replica_groups(op)
    if op.name in (S + "all_reduce", S + "reduce_scatter"):
        reduce_regions(op)
    if op.name == S + "reduce_scatter" and op.operands and op.results:
        xs, rs = shape_of(op.operands[0]), shape_of(op.results[0])
        d = attr_ints(op, "scatter_dimension", (0,))[0]
        if xs is None or rs is None:
            return
        if len(xs) != len(rs):
            fail(op, "operand and result should have same rank")
        if d >= len(xs):
            fail(op, "scatter dim should be less than operand/result rank")
        if rs[d] == 0:
            fail(op, "result dimension size at scatter_dimension cannot be zero")
        if xs[d] == 0:
            fail(op, "operand dimension size at scatter_dimension cannot be zero")
        if xs[d] is not None and rs[d] is not None and xs[d] % rs[d]:
            fail(op, f"operand scatter dimension has size {xs[d]}, expected to be a multiple of "
                     f"result scatter dimension size {rs[d]}")
        for k, (a, b) in enumerate(zip(xs, rs)):
            if k != d and not compat(a, b):
                fail(op, f"non scatter dimensions should be same for operand ({a}) and result ({b})")
        if op.regions and op.regions[0].blocks and op.regions[0].blocks[0].terminator is not None:
            rets = op.regions[0].blocks[0].terminator.operands
            if len(rets) == 1 and element_of(rets[0]) != element_of(op.results[0]):
                fail(op, f"result element-type is expected to be '{element_of(rets[0])}', but got "
                         f"'{element_of(op.results[0])}'")


def _all_to_all(op):
    _replica_groups(op)
    count = attr_ints(op, "split_count", (1,))[0]
    groups = op.attributes.get("replica_groups")
    if isinstance(groups, DenseElementsAttr) and groups.array.ndim == 2 and \
            (groups.array.shape[0] == 0 or groups.array.shape[1] != count):
        fail(op, f"group size of replica_groups must be {count} (failed to infer returned types)")
    split = attr_ints(op, "split_dimension", (0,))[0]
    concat = attr_ints(op, "concat_dimension", (0,))[0]
    if len(op.operands) != len(op.results):
        fail(op, "op requires the same number of operands and results")
    for i, (x, r) in enumerate(zip(op.operands, op.results)):
        xs = shape_of(x)
        if element_of(x) != element_of(r):
            fail(op, f"op requires the same element type for operand and result at index {i}")
        if xs is None:
            continue
        if split >= len(xs) or concat >= len(xs):
            fail(op, f"AllToAll split_dimension {split} / concat_dimension {concat} is out-of-bounds "
                     f"for input rank {len(xs)}")
        if xs[split] is not None and xs[split] % count:
            fail(op, f"split dimension has size {xs[split]}, expected to be a multiple of "
                     f"split_count {count}")
        out = list(xs)
        out[split] = None if xs[split] is None else xs[split] // count
        out[concat] = None if out[concat] is None else out[concat] * count
        expect_result(op, out, i)


def _all_gather(op):
    _replica_groups(op)
    d = attr_ints(op, "all_gather_dim", (0,))[0]
    for x, r in zip(op.operands, op.results):
        xs, rs = shape_of(x), shape_of(r)
        if xs is None or rs is None:
            continue
        if d >= len(xs):
            fail(op, "all_gather_dim must be a valid index of operand")
        if xs[d] == 0:
            fail(op, "dimension size of operand at 'all_gather_dim' cannot be zero")
        if len(xs) != len(rs):
            fail(op, "operand and result must have the same rank")
        if any(k != d and not compat(a, b) for k, (a, b) in enumerate(zip(xs, rs))):
            fail(op, "operand and result should have the same shape except for the dimension size "
                     "at 'all_gather_dim'")
        if xs[d] and rs[d] is not None and rs[d] % xs[d]:
            fail(op, f"result gather dimension has size {rs[d]}, expected to be a multiple of "
                     f"operand gather dimension size {xs[d]}")


def _dynamic_root(op):
    """collective_broadcast / collective_reduce: data operands, plus a root
    operand (rank-1 i32, one entry per data operand) with has_dynamic_root."""
    kind = op.short_name
    dynamic = op.attributes.get("has_dynamic_root") is not None and \
        getattr(op.attributes.get("has_dynamic_root"), "value", True) is not False
    if not dynamic and not op.operands:
        fail(op, f"{kind} requires at least one data operand")
    if dynamic:
        if len(op.operands) < 2:
            fail(op, f"{kind} with has_dynamic_root=true requires at least two operands (data + root)")
        root = op.operands[-1]
        if shape_of(root) is None or len(shape_of(root)) != 1 or element_of(root) != "i32":
            fail(op, f"last operand of {kind} with has_dynamic_root=true must be a rank-1 i32 tensor")
        if shape_of(root)[0] not in (None, len(op.operands) - 1):
            fail(op, f"last operand of {kind} with has_dynamic_root=true must have the same number "
                     f"of elements as data operands")
    _replica_groups(op)
    if kind == "collective_reduce" and op.regions:
        data = op.operands[:-1] if dynamic else op.operands
        reduction_region(op, op.regions[0], data[:1], None)


def _collective_permute(op):
    pairs = op.attributes.get("source_target_pairs")
    if not isinstance(pairs, DenseElementsAttr):
        return
    arr = pairs.array
    if arr.ndim != 2:
        fail(op, f"expect source_target_pairs attribute to be of rank 2, but got rank {arr.ndim}")
    if arr.shape[1] != 2:
        fail(op, f"expect source_target_pairs attribute of shape (N, 2), but got "
                 f"({', '.join(map(str, arr.shape))})")
    if (arr < 0).any():
        fail(op, "replica ids in source_target_pairs must be >= 0")
    for col, what in ((0, "sources"), (1, "targets")):
        ids = [int(x) for x in arr[:, col]]
        if len(set(ids)) != len(ids):
            fail(op, f"duplicate {what} not allowed")


def _token_results(op):
    """infeed / recv: tensors then one token; infeed's layout per tensor result."""
    from ...ir.types import TokenType
    res = [r.type for r in op.results]
    if not res:
        fail(op, "result is expected to be at least of size 1, but got 0")
    if any(not isinstance(t, TensorType) for t in res[:-1]):
        bad = next(t for t in res[:-1] if not isinstance(t, TensorType))
        fail(op, f"all elements of result types, except the last element, are expected to be of "
                 f"tensor type, but got '{bad}'")
    if not isinstance(res[-1], TokenType):
        fail(op, f"last element of result types is expected to be of token type, but got '{res[-1]}'")
    layout = op.attributes.get("layout")
    if op.short_name == "infeed" and layout is not None:
        items = getattr(layout, "elements", ())
        if len(items) != len(res) - 1:
            fail(op, f"layout-attribute size must be {len(res) - 1} (which is the number of "
                     f"op-results - 1 (for token result)), but got {len(items)}")
        for item in items:
            if not hasattr(item, "elements"):
                fail(op, f"layout-attribute expected to have elements of type array, but got {item}")
            for leaf in item.elements:
                if not isinstance(getattr(leaf, "value", None), int):
                    fail(op, f"layout-attribute's leaf elements are expected to be of type integer, "
                             f"but got {leaf}")
    _channel_type(op)


def _channel_type(op):
    """send / recv: the channel type matches is_host_transfer."""
    if op.short_name in ("recv", "send"):
        handle = op.attributes.get("channel_handle")
        host = getattr(op.attributes.get("is_host_transfer"), "value", False)
        ctype = handle.fields.get("type") if isinstance(handle, StructAttr) else None
        ctype = getattr(ctype, "value", ctype)
        if isinstance(ctype, int):
            if not host and ctype != 1:
                fail(op, "channel_type should be DEVICE_TO_DEVICE when is_host_transfer is false")
            want = 3 if op.short_name == "recv" else 2
            if host and ctype != want:
                fail(op, f"channel_type should be {('DEVICE_TO_HOST', 'HOST_TO_DEVICE')[want - 2]} "
                         f"when is_host_transfer is true")


OPS = (
    defop('stablehlo.after_all', HOST),
    defop('stablehlo.all_gather', HOST, syntax=OWN, keywords=(('dim', 'all_gather_dim', 'int'),), int_attrs=(('all_gather_dim', 64, NON_NEGATIVE),), verify=(_all_gather,)),
    defop('stablehlo.all_reduce', HOST, region_return=True, verify=(_collective,)),
    defop('stablehlo.all_to_all', HOST, int_attrs=(('split_dimension', 64, NON_NEGATIVE), ('concat_dimension', 64, NON_NEGATIVE), ('split_count', 64, POSITIVE),), verify=(_all_to_all,)),
    defop('stablehlo.collective_broadcast', HOST, verify=(_dynamic_root,)),
    defop('stablehlo.collective_permute', HOST, verify=(_collective_permute,), per_axis=False),
    defop('stablehlo.collective_reduce', HOST, verify=(_dynamic_root,)),
    defop('stablehlo.create_token', HOST),
    defop('stablehlo.cross-replica-sum', DECOMPOSED, reason='all_reduce with an add body over its replica_groups', rewrite='decompose_host:_cross_replica_sum'),
    defop('stablehlo.infeed', HOST, verify=(_token_results,), traits=(EFFECTFUL,)),
    defop('stablehlo.outfeed', HOST, traits=(EFFECTFUL,)),
    defop('stablehlo.partition_id', HOST, host_value=True),
    defop('stablehlo.recv', HOST, verify=(_token_results,), traits=(EFFECTFUL,)),
    defop('stablehlo.reduce_scatter', HOST, region_return=True, int_attrs=(('scatter_dimension', 64, NON_NEGATIVE),), verify=(_collective,), per_axis=False),
    defop('stablehlo.replica_id', HOST, host_value=True),
    defop('stablehlo.send', HOST, verify=(_channel_type,), traits=(EFFECTFUL,)),
)
