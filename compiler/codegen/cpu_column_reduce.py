"""CPU column reductions: a reduce that keeps its operand's contiguous last
dim accumulates a chunk of kept positions in arrays while the reduced dims
run outside, so the innermost loop walks contiguous memory."""
from __future__ import annotations

from ..ir.attributes import ints
from . import scalar
from .body import BodyEmitter, delinearize_decls
from .c_style import workgroup_tile
from .kernel import Kernel

# Most accumulators a column reduction keeps per workgroup (a stack array each).
COLUMN_CHUNK = 512


def column_reduction(kernel: Kernel, chunk) -> bool:
    """A reduce root that keeps its operand's contiguous last dim: summing
    down columns one element per kept position strides through memory and
    never vectorises, so these get the interchanged loop nest instead."""
    op = kernel.root
    if op.name != "stablehlo.reduce" or list(kernel.outputs) != list(op.results):
        return False
    n = len(op.operands) // 2
    src = op.operands[0].type.shape
    dims = ints(op.attr("dimensions"))
    return (len(kernel.shape) >= 1 and src and (len(src) - 1) not in dims
            and isinstance(chunk, int) and chunk <= COLUMN_CHUNK
            and all(not scalar.is_complex(v.type.element) for v in op.operands[:n]))


def column_reduction_loops(kernel: Kernel, em: BodyEmitter, rpw, chunk, chunks) -> list[str]:
    """Workgroup loop of a column reduction: per row of the kept outer dims,
    a chunk of kept inner positions accumulates in arrays while the reduced
    dims run outside, so the innermost loop walks contiguous memory (each
    lane still adds in the original order: results are unchanged)."""
    op = kernel.root
    n = len(op.operands) // 2
    inputs, inits = op.operands[:n], op.operands[n:]
    dims = ints(op.attr("dimensions"))
    src_shape = inputs[0].type.shape
    shape = kernel.shape
    rows = 1
    for d in shape[:-1]:
        rows *= d
    inner, last = shape[-1], f"i{len(shape) - 1}"
    em.depth = 3
    em.open("for (int64_t row = r0; row < r1; ++row)")
    for line in delinearize_decls("row", shape[:-1], "i"):
        em.line(line)
    init_vals = [em.value(v, ()) for v in inits]
    accs = []
    for k, v in enumerate(inits):
        a = em.fresh("acc")
        em.line(f"{scalar.ctype(v.type.element)} {a}[{chunk}];")
        em.line(f"for (int64_t j = 0; j < c1 - c0; ++j) {a}[j] = {init_vals[k]};")
        accs.append(a)
    loop_vars = {}
    for d in dims:
        lv = em.fresh("r")
        loop_vars[d] = lv
        em.open(f"for (int64_t {lv} = 0; {lv} < {src_shape[d]}; ++{lv})")
    em.open(f"for (int64_t {last} = c0; {last} < c1; ++{last})")
    it = iter(f"i{k}" for k in range(len(shape)))
    src = tuple(loop_vars[k] if k in loop_vars else next(it) for k in range(len(src_shape)))
    xs = [em.value(x, src) for x in inputs]
    cur = [f"{a}[{last} - c0]" for a in accs]
    new = em.region_call(op.regions[0].blocks[0], cur + xs)
    for a, v in zip(cur, new):
        em.line(f"{a} = {v};")
    em.close()
    for _ in dims:
        em.close()
    em.open(f"for (int64_t {last} = c0; {last} < c1; ++{last})")
    for j, v in enumerate(kernel.outputs):
        em.line(f"o{j}[row * {inner} + {last}] = {em.store_expr(v.type.element, accs[j] + f'[{last} - c0]')};")
    em.close()
    em.close()
    head = ["  for (uint32_t wg = wg_begin; wg < wg_end; ++wg) {"]
    head += ["    " + x for x in workgroup_tile("wg", "", rpw, rows, chunk, chunks, inner)]
    return head + em.lines + ["  }", "  return 0;", "}"]
