"""StableHLO control flow, calls, tuples, composite / custom calls and
async wrappers, with their spec rules."""
from __future__ import annotations

from ...ir.attributes import DenseElementsAttr, StructAttr, ints
from ...errors import UnsupportedOpError
from ...ir.types import TensorType
from ..opdef import HOST, DECOMPOSED, OWN, ANY, NON_NEGATIVE, CARRY, LOOP, BRANCH, EFFECTFUL, defop
from ..checks import S, attr_ints, compat_type, compat_types, fail, symbol_ref
from ..dims import tensor


def _get_tuple_element(op):
    from ...ir.types import TupleType
    t = op.operands[0].type
    index = attr_ints(op, "index", (0,))[0]
    if not isinstance(t, TupleType):
        return
    if index >= len(t.types):
        fail(op, f"index {index} is out of bounds of operand with size {len(t.types)} "
                 f"(failed to infer returned types)")
    if op.results and op.results[0].type != t.types[index]:
        fail(op, f"inferred type(s) '{t.types[index]}' are incompatible with return type(s) of "
                 f"operation '{op.results[0].type}'")


def _while(op):
    types = [v.type for v in op.operands]
    if not compat_types((r.type for r in op.results), types):
        fail(op, "expects the result types to match the operand types")
    for i, region in enumerate(op.regions[:2]):
        if not region.blocks:
            continue
        block = region.blocks[0]
        if not compat_types((a.type for a in block.arguments), types):
            fail(op, f"expect operands to be compatible with {('condition', 'body')[i]} block "
                     f"arguments")
        term = block.terminator
        if term is None:
            continue
        got = [v.type for v in term.operands]
        if i == 0 and (len(got) != 1 or got[0] != TensorType((), "i1")):
            fail(op, "expect condition block return a zero-ranked tensor of i1")
        if i == 1 and not compat_types(got, types):
            fail(op, "expect operands to be compatible with body block return types")


def _branches(op):
    want = [r.type for r in op.results]
    if op.name == S + "case" and not op.regions:
        fail(op, "expect at least one branch (failed to infer returned types)")
    pred = op.operands[0] if op.operands else None
    if pred is not None:
        el = "i1" if op.name == S + "if" else "i32"
        if pred.type != TensorType((), el):
            fail(op, f"operand should be a rank-0 tensor of {el}, got {pred.type}")
    for i, region in enumerate(op.regions):
        if not region.blocks:
            continue
        block = region.blocks[0]
        if block.arguments:
            fail(op, f"expect branch {i} to have no arguments")
        term = block.terminator
        if term is not None and not compat_types((v.type for v in term.operands), want):
            fail(op, f"branch {i} returns {[str(v.type) for v in term.operands]}, the op's results "
                     f"are {[str(t) for t in want]}")


_NAMESPACED = __import__("re").compile(r"^[A-Za-z_][\w$]*(\.[\w$]+)+$")


def _composite(op):
    name = getattr(op.attributes.get("name"), "value", "")
    if not _NAMESPACED.match(name):
        fail(op, f"name must be a valid namespaced op name, got '{name}'")
    ref = op.attributes.get("decomposition")
    callee = getattr(ref, "name", None)
    if callee is None:
        return
    target = symbol_ref(op, callee)
    fty = getattr(target.attributes.get("function_type"), "type", None) if target is not None else None
    if fty is None:
        fail(op, f"'{callee}' does not reference a valid function")
    if len(op.operands) != len(fty.inputs):
        fail(op, f"has {len(op.operands)} operand(s), but decomposition has {len(fty.inputs)}")
    for i, (v, t) in enumerate(zip(op.operands, fty.inputs)):
        if v.type != t:
            fail(op, f"operand at index {i} has type '{v.type}', but decomposition has type '{t}'")
    if len(op.results) != len(fty.results):
        fail(op, f"has {len(op.results)} result(s), but decomposition has {len(fty.results)}")
    for i, (v, t) in enumerate(zip(op.results, fty.results)):
        if v.type != t:
            fail(op, f"result at index {i} has type '{v.type}', but decomposition has type '{t}'")


def _custom_call(op):
    """Layouts, output/operand aliases and backend_config of custom_call."""
    from ...ir.attributes import DictAttr, StringAttr
    from ...ir.types import TupleType
    ol, rl = op.attributes.get("operand_layouts"), op.attributes.get("result_layouts")
    if (ol is None) != (rl is None):
        fail(op, "Layout attributes should be specified for either both operands and results or none.")
    if ol is not None:
        results = [r.type for r in op.results]
        if len(results) == 1 and isinstance(results[0], TupleType):
            results = list(results[0].types)
        for what, types, layouts in (("operand", [v.type for v in op.operands], ol),
                                     ("result", results, rl)):
            items = getattr(layouts, "elements", ())
            if len(types) != len(items):
                fail(op, f"Number of {what}s must match the number of {what} layouts, "
                         f"{len(types)} != {len(items)}")
            for i, (t, lay) in enumerate(zip(types, items)):
                if isinstance(t, TupleType):
                    fail(op, "Tuple types are not fully supported with layout constraints yet")
                perm = ints(lay) if isinstance(lay, DenseElementsAttr) else ()
                if not isinstance(t, TensorType):
                    if perm:
                        fail(op, f"Only tensor types can have non-empty layout: {what} #{i} of type "
                                 f"'{t}' has layout {list(perm)}")
                    continue
                if sorted(perm) != list(range(t.rank)):
                    fail(op, f"incorrect layout {list(perm)} for type '{t}', layout must be a "
                             f"permutation of [0, {t.rank})")
    aliases = op.attributes.get("output_operand_aliases")
    for alias in getattr(aliases, "elements", ()):
        if not isinstance(alias, StructAttr):
            continue
        f = alias.fields
        idx = f.get("operand_index", 0)
        idx = getattr(idx, "value", idx)
        if not 0 <= idx < len(op.operands):
            fail(op, f"expects operandIndex in the output_operand_alias attribute to be in range "
                     f"[0, {len(op.operands)}); got: {idx}.")

        def walk(t, path, what):
            for k in path:
                if not isinstance(t, TupleType) or not 0 <= k < len(t.types):
                    fail(op, f"{what} in the output_operand_alias attribute out of bounds")
                t = t.types[k]
            return t
        out_types = [r.type for r in op.results]
        out = out_types[0] if len(out_types) == 1 else TupleType(tuple(out_types))
        o = walk(out, tuple(f.get("output_tuple_indices", ())), "output_tuple_indices")
        x = walk(op.operands[idx].type, tuple(f.get("operand_tuple_indices", ())), "operand_tuple_indices")
        if o != x:
            fail(op, f"shapes mismatch in the output_operand_alias attribute: operand part has type "
                     f"'{x}' and output part has type '{o}'")
    version = getattr(op.attributes.get("api_version"), "value", None)
    config = op.attributes.get("backend_config")
    if config is not None and isinstance(version, int):
        if version == 4 and not isinstance(config, DictAttr):
            fail(op, "backend_config for api_version API_VERSION_TYPED_FFI must be a dictionary attribute.")
        if version in (1, 2, 3) and not isinstance(config, StringAttr):
            names = {1: "API_VERSION_ORIGINAL", 2: "API_VERSION_STATUS_RETURNING",
                     3: "API_VERSION_STATUS_RETURNING_UNIFIED"}
            fail(op, f"backend_config for api_version {names[version]} must be a string attribute.")


_ASYNC_OPS = frozenset(S + n for n in (
    "all_reduce", "all_gather", "all_to_all", "collective_permute", "reduce_scatter",
    "collective_broadcast", "slice", "dynamic_slice"))


def _future(types) -> str:
    return "!stablehlo.future<" + ", ".join(str(t) for t in types) + ">"


def _same_text(a, b) -> bool:
    return "".join(str(a).split()) == "".join(str(b).split())


def _async_start(op):
    """async_start wraps one collective (or slice) op: its region takes the
    operands and returns what the ``!stablehlo.future`` result holds."""
    if len(op.regions) != 1 or len(op.regions[0].blocks) != 1:
        fail(op, "requires one region")
    block = op.regions[0].blocks[0]
    body = [o for o in block.operations if o is not block.terminator]
    if len(body) != 1:
        fail(op, "region must contain exactly one operation and a return")
    if body[0].name not in _ASYNC_OPS:
        fail(op, f"region must contain a collective or slice operation, got '{body[0].name}'")
    if len(op.operands) != len(block.arguments):
        fail(op, f"number of operands ({len(op.operands)}) must match number of region arguments "
                 f"({len(block.arguments)})")
    for i, (v, a) in enumerate(zip(op.operands, block.arguments)):
        if not compat_type(v.type, a.type):
            fail(op, f"operand type '{v.type}' at index {i} must match region argument type '{a.type}'")
    term = block.terminator
    if term is not None and len(op.results) == 1:
        want = _future(v.type for v in term.operands)
        if not _same_text(want, op.results[0].type):
            fail(op, f"inferred type(s) '{want}' are incompatible with return type(s) of operation "
                     f"'{op.results[0].type}'")


def _async_done(op):
    """async_done yields the types its ``!stablehlo.future`` operand holds."""
    if len(op.operands) == 1 and str(op.operands[0].type).startswith("!stablehlo.future<"):
        got = _future(r.type for r in op.results)
        if not _same_text(got, op.operands[0].type):
            inner = str(op.operands[0].type)[len("!stablehlo.future<"):-1]
            fail(op, f"inferred type(s) '{inner}' are incompatible with return type(s) of operation "
                     f"'{', '.join(str(r.type) for r in op.results)}'")


# -- shape rules (opdef ``shape``; dialects/dims.py) ----------------------------------------

def _dims_while(S, op):
    init = [S.dims(v) if tensor(v) else () for v in op.operands]
    for region in op.regions:
        b = region.blocks[0]
        S.bind_block_args(b, init)
        S.run_block(b)
    body_ret = op.regions[1].blocks[0].terminator
    for v, d in zip(body_ret.operands, init):
        if tensor(v) and S.dims(v) != tuple(S.resolve(x) for x in d):
            got = S.dims(v)
            for a, b in zip(got, d):
                S.unify(a, b)
            if S.dims(v) != tuple(S.resolve(x) for x in d):
                raise UnsupportedOpError(op.name, "with dynamic dims: a loop-carried value "
                                         "changes shape between iterations", op.location)
    return [tuple(S.resolve(x) for x in d) for d in init]


def _dims_branches(S, op):
    outs = None
    for region in op.regions:
        b = region.blocks[0]
        S.run_block(b)
        got = [S.dims(v) if tensor(v) else () for v in b.terminator.operands]
        if outs is None:
            outs = got
            continue
        for r, x, y in zip(op.results, outs, got):
            for k, (a, c) in enumerate(zip(x, y)):
                S.unify(a, c)
                if tensor(r) and r.type.shape[k] is None and S.resolve(a) != S.resolve(c):
                    raise UnsupportedOpError(op.name, "with dynamic dims: branches yield "
                                             "different shapes", op.location)
    return [tuple(S.resolve(x) for x in d) for d in outs]


OPS = (
    defop('stablehlo.async_done', DECOMPOSED, reason='forwards the values of the computation of its async_start', verify=(_async_done,)),
    defop('stablehlo.async_start', DECOMPOSED, reason='its called computation inlined in place (scheduling follows data flow)', verify=(_async_start,)),
    defop('stablehlo.case', HOST, region_return=True, shape=_dims_branches, verify=(_branches,), quant=CARRY, traits=(BRANCH,)),
    defop('stablehlo.composite', DECOMPOSED, syntax=OWN, reason='inlined as a call of its decomposition', verify=(_composite,), parser='parse_composite'),
    defop('stablehlo.custom_call', HOST, syntax=OWN, unranked=ANY, verify=(_custom_call,), traits=(EFFECTFUL,), parser='parse_call'),
    defop('stablehlo.get_tuple_element', HOST, syntax=OWN, int_attrs=(('index', 32, NON_NEGATIVE),), verify=(_get_tuple_element,), quant=CARRY, parser='parse_get_tuple_element'),
    defop('stablehlo.if', HOST, regions=2, region_return=True, shape=_dims_branches, verify=(_branches,), quant=CARRY, traits=(BRANCH,)),
    defop('stablehlo.optimization_barrier', DECOMPOSED, reason='forwarded: its operands', per_axis=False, quant=CARRY),
    defop('stablehlo.return', HOST, terminator=True, quant=CARRY),
    defop('stablehlo.tuple', HOST, quant=CARRY),
    defop('stablehlo.while', HOST, regions=2, region_return=True, syntax=OWN, shape=_dims_while, verify=(_while,), quant=CARRY, traits=(LOOP,), parser='parse_while'),
)
