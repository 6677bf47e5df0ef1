"""The pass pipeline and backend sequence behind ``compile_str``."""
from __future__ import annotations

import sys
from collections import Counter

from tensorvm.vmfb import container
from tensorvm.vmfb.collectives import DEVICES_REQUIREMENT, devices_requirement
from tensorvm.vmfb.model import ExecutableVariant

from .codegen import cpu, cpu_targets
from .host.host_program import needs_general_path, plan_general
from .host.donation import dispatch_donors
from .codegen.kernel import build_kernel
from .codegen.packed_weights import plan_packed_weights
from .codegen.update_window import WINDOW_KIND
from .codegen.grids import GPU_FORMATS, merge_counts
from .host.vm_host import generate_module
from .errors import CompileError, UnsupportedOpError
from .progress import format_bytes
from .passes.base import PassPipeline
from .dialects import stablehlo as shlo
from .passes.canonicalize import CanonicalizeOps
from .passes.gspmd_import import ImportGspmd
from .passes.manual_partition import PartitionManualComputations
from .passes.spmd_partition import PartitionSpmd
from .passes.split_batch import SplitMergedBatch
from .passes.custom_calls import BindCustomCalls
from .passes.dispatch import FormDispatchRegions
from .passes.scatter_in_place import ScattersInPlace
from .passes.fold import AlgebraicSimplification
from .passes.inline import InlineCalls, symbol, visibility
from .passes.host_values import TagHostValues
from .passes.quantized import DecomposeQuantized
from .passes import shapes
from .passes.memory import plan_function
from .passes.simplify import CommonSubexpressionElimination, DeadCodeElimination
from .passes.split_reductions import SplitLargeReductions
from .passes.split_sorts import SplitLongSorts
from .passes.fuse_attention import FuseAttention
from .passes.widen_convolutions import WidenNarrowConvolutions


def ir_passes(simplify: bool = True, custom_kernels=None, row_fusion: bool = False,
              gpu: bool = False) -> list:
    """The IR passes, in order, up to and including dispatch formation
    (``custom_kernels``: custom_kernels.registry's ``{name: declaration}``;
    ``row_fusion``: row reductions fused into their readers, CPU-only compiles;
    ``gpu``: a GPU target is compiled for, large reductions split in two)."""
    cleanup = [CommonSubexpressionElimination(), DeadCodeElimination()]
    middle = [AlgebraicSimplification(), *cleanup] if simplify else []
    return [ImportGspmd(), DecomposeQuantized(), PartitionManualComputations(), CanonicalizeOps(), WidenNarrowConvolutions(), InlineCalls(), PartitionSpmd(), BindCustomCalls({} if custom_kernels is None else custom_kernels),
            *cleanup, *middle, SplitMergedBatch(),
            SplitLargeReductions(gpu), SplitLongSorts(gpu), TagHostValues(), FuseAttention(gpu),
            FormDispatchRegions(row_fusion),
            DeadCodeElimination(), *([ScattersInPlace()] if gpu else [])]


def compiles_for_gpu(options) -> bool:
    """Whether ``options`` name a GPU target (the GPU-only passes run)."""
    return any(t in ("opencl", "cuda") for t in options.targets)


def run_pipeline(module, options, progress=None, output=None):
    """Passes, codegen and the module build of ``module``; the result's vmfb is
    serialised here, or streamed to the path or file ``output`` (the
    constants go from their parsed arrays to the file, none held twice)."""
    from .api import CompileResult
    from .progress import Progress
    progress = progress or Progress()
    from .ir.verifier import verify_module
    verify_module(module)
    _check_function_returns(module)
    _check_element_types(module)
    from .custom_kernels import registry
    customs = registry(options.custom_kernels)
    passes = ir_passes(options.simplify, customs,
                       row_fusion=all(t == "cpu" for t in options.targets),
                       gpu=compiles_for_gpu(options))
    pipeline = _DumpingPipeline(passes, options, progress)
    pipeline.run(module)
    progress("plan")

    functions = [f for f in module.functions if visibility(f) != "private"]
    if not functions:
        private = module.functions
        where = private[0].location if private else module.location
        prefix = f"{where}: error: " if where is not None else ""
        hint = (f" (every function is private, e.g. @{private[0].attributes['sym_name'].value})"
                if private and "sym_name" in private[0].attributes else "")
        raise CompileError(f"{prefix}the module has no public function to export{hint}")
    plans, kernels, entry_of, workgroups = {}, [], {}, {}
    shapes.forget()
    for func in functions:
        plan = plan_general(func) if needs_general_path(func) else plan_function(func)
        plans[id(func)] = plan
        dyn = shapes.analyze(func) if shapes.has_dynamic(func) else None
        in_place = dispatch_donors(func)
        for d in plan.dispatches:
            entry_of[id(d)] = len(kernels)
            if dyn is not None:
                shapes.bind_dispatch(d, dyn)
            kernels.append(build_kernel(d, customs))
            if id(d) in in_place and kernels[-1].root.name == "stablehlo.dynamic_update_slice":
                kernels[-1].kind = WINDOW_KIND  # writes only its window (codegen/update_window.py)
    loops = [lp for f in functions for lp in (getattr(plans[id(f)], "loops", None) or {}).values()]
    for j, lp in enumerate(loops):
        lp.entry = len(kernels) + j
    packed = plan_packed_weights(functions, plans, kernels, entry_of, options)
    variants, sources = (_build_variants(kernels, options, loops, entry_of, progress)
                         if kernels else ([], {}))
    for _ in range(0 if kernels else len(options.targets)):
        progress("codegen: no kernels")
    if variants:
        counts = merge_counts(*(next((v[4] for v in variants if (v[0] in GPU_FORMATS) == gpu), None)
                                for gpu in (False, True)))
        for d_id, k in entry_of.items():
            workgroups[d_id] = counts[k]
        first = variants[0][:4]
    else:
        first = (cpu_targets.targets_of(options)[0].format, {}, [], b"")
    source = sources.get("cpu", "")
    name = options.module_name or module.name or "module"
    progress("assemble")
    mdef, reflections = generate_module(
        _identifier(name), functions, plans, first, entry_of, workgroups, packed)
    if mdef.executables:
        for fmt, target, entries, data, _ in variants[1:]:
            mdef.executables[0].variants.append(ExecutableVariant(fmt, target, entries, data))
    layout = shlo.device_layout(module)
    if layout != (1, 1):
        mdef.requirements[DEVICES_REQUIREMENT] = devices_requirement(*layout)
    layouts = {n: lay for p in passes if isinstance(p, PartitionSpmd) for n, lay in p.layouts.items()}
    for fdef in mdef.functions:
        if fdef.name in reflections:
            fdef.reflection = {**reflections[fdef.name], **options.reflection.get(fdef.name, {})}
            if fdef.name in layouts:        # (the sync export: ParallelModule splits by it)
                fdef.reflection["sharding"] = layouts[fdef.name]
    stats = {
        "dispatches": {symbol(f, "sym_name"): plans[id(f)].dispatch_count for f in functions},
        "transient_bytes": {symbol(f, "sym_name"): plans[id(f)].slab_size for f in functions},
        "loops": {symbol(f, "sym_name"): _loop_stats(f, plans[id(f)]) for f in functions},
        "pass_seconds": pipeline.timings,
        "spmd_reshards": [n for p in passes if isinstance(p, (ImportGspmd, PartitionSpmd))
                          for n in p.notes],
        "packed_weights": {"constants": len(packed),
                           "bytes": sum(f.nbytes for f in packed.values())},
        "simplifications": dict(sum((p.counts for p in passes
                                     if isinstance(p, AlgebraicSimplification)), Counter())),
    }
    progress(f"write ({format_bytes(_payload_bytes(mdef))})")
    if output is None:
        data = container.write_module(mdef)
    else:
        data = None
        container.write_module_to(mdef, output)
    progress.done()
    stats["stage_seconds"] = progress.timings
    if options.keep_source:
        stats["c_source"] = source
        for t, text in sources.items():
            if t != "cpu":
                stats[f"{t}_source"] = text
        from tensorvm.vmfb.disasm import disassemble_module
        stats["vm_assembly"] = disassemble_module(mdef, max_rodata_bytes=0)
    return CompileResult(data, stats, mdef)


def _payload_bytes(mdef) -> int:
    """Bytes of the module's rodata and executables (what writing it moves)."""
    return (sum(len(r.data) for r in mdef.rodata) +
            sum(len(v.data) for e in mdef.executables for v in e.variants))


def _loop_stats(func, plan) -> dict:
    """Whiles that run as native loop entry points (no VM work per iteration
    on CPU devices: host/native_loop.py) and those the VM iterates."""
    native = getattr(plan, "loops", None) or {}
    inside = {id(o) for lp in native.values() for o in lp.op.walk()}
    whiles = [o for o in func.walk() if o.name == "stablehlo.while"]
    return {"native": len(native), "nested_in_native": sum(1 for o in whiles if id(o) in inside) - len(native),
            "vm": sum(1 for o in whiles if id(o) not in inside)}


def _static_bytes(t) -> int:
    """Bytes of a static-shape tensor type (0: dynamic or of no fixed byte size)."""
    from .ir.types import numpy_dtype
    try:
        n = numpy_dtype(t.element).itemsize
    except (KeyError, AttributeError, ImportError):
        return 0
    for d in getattr(t, "shape", ()):
        if type(d) is not int:
            return 0
        n *= d
    return n


def _build_variants(kernels, options, loops=(), entry_of=None, progress=None):
    """One (format, target, entry points, data, workgroup counts) per target
    (per CPU variant for "cpu", cpu_targets.targets_of), in target order, and
    each target's generated source.  CPU variants must tile the same
    workgroup counts, and GPU variants theirs (codegen/grids.py: the host
    code picks the family's).  Native loops are entry points of the CPU
    variants only, after the kernels; GPU variants end with ``GPU_MARKER``."""
    variants, sources = [], {}
    builds = [(t, c) for t in options.targets
              for c in (cpu_targets.targets_of(options) if t == "cpu" else [None])]
    for t, cpu_target in builds:
        if progress is not None and t not in sources:     # one step per target
            progress(f"codegen {t} ({len(kernels)} kernels)")
        if t == "cpu":
            data, target, entries, counts, src = cpu.build_cpu_executable(kernels, cpu_target,
                                                                          loops, entry_of)
            fmt = cpu_target.format
        elif t == "opencl":
            from .codegen import opencl
            data, target, entries, counts, src = opencl.build_opencl_executable(kernels, loops,
                                                                                entry_of)
            fmt = opencl.FORMAT
        elif t == "cuda":
            from .codegen import cuda
            data, target, entries, counts, src = cuda.build_cuda_executable(
                kernels, options.cuda_arch, loops, entry_of)
            fmt = cuda.FORMAT
        else:
            raise CompileError(f"unknown target '{t}'")
        peer = next((v for v in variants if (v[0] in GPU_FORMATS) == (fmt in GPU_FORMATS)), None)
        if peer is not None and list(map(str, counts)) != list(map(str, peer[4])):
            raise CompileError(f"internal error: target '{t}' tiles workgroups differently "
                               f"from the '{peer[0]}' variant")
        for ep, n, k in zip(entries, counts, kernels):   # what the runtime checks dispatches by
            if type(n) is int:
                ep.workgroups = n
            ep.binding_bytes = [_static_bytes(v.type) for v in (*k.inputs, *k.outputs)]
            if t in ("opencl", "cuda"):   # CPU kernels check dynamic bindings themselves
                ep.binding_shapes = k.binding_shapes()
        variants.append((fmt, target, entries, data, counts))
        sources.setdefault(t, src)
    return variants, sources


def _identifier(name: str) -> str:
    out = "".join(c if c.isalnum() or c == "_" else "_" for c in name)
    return out or "module"


def _check_function_returns(module) -> None:
    """MLIR lets a func.func body end with any terminator (the verifier
    accepts ``stablehlo.return`` there); what returns from a compiled
    function is ``func.return``."""
    for func in module.functions:
        for block in (b for r in func.regions for b in r.blocks):
            term = block.terminator
            if term is not None and term.name != "func.return":
                name = getattr(func.attributes.get("sym_name"), "value", "?")
                where = f"{term.location}: " if term.location is not None else ""
                raise CompileError(f"{where}error: '{term.name}' ends the body of @{name}: a "
                                   f"compiled function returns with func.return")


def _check_element_types(module) -> None:
    """Every tensor's element type is one a .vmfb can carry, or a
    ``!quant.uniform`` type (passes/quantized.py makes it its storage type):
    a typed error naming the op, not a crash deep in codegen."""
    from tensorvm.vmfb import element_types
    from .ir.types import TensorType, UnrankedTensorType
    sized = set()
    for op in module.walk():
        args = [a for r in op.regions for b in r.blocks for a in b.arguments]
        for v in (*op.operands, *op.results, *args):
            t = v.type
            if isinstance(t, UnrankedTensorType):
                raise UnsupportedOpError(op.name, f"unranked tensor {t} is not supported: compiled "
                                         "code needs each tensor's rank", op.location)
            if isinstance(t, TensorType) and t.element not in element_types.BY_NAME \
                    and not t.element.startswith("!quant.uniform<"):   # the first pass lowers these
                kind = "quantized element type" if t.element.startswith("!quant.") else "element type"
                raise UnsupportedOpError(op.name, f"{kind} {t.element} is not supported", op.location)
            if isinstance(t, TensorType) and t not in sized:
                sized.add(t)
                _check_size(op, t)
        if op.name == "stablehlo.constant":
            _check_constant_size(op)


#: Largest tensor a module may describe: sizes and offsets are i64 in the VM.
MAX_TENSOR_BYTES = 1 << 62


def _check_size(op, t) -> None:
    """A located error for a tensor type whose byte size does not fit the VM's
    i64 sizes (a dimension like 10^20 would otherwise fail in the assembler)."""
    n = 1
    for d in t.shape:
        n *= d if isinstance(d, int) else 1
    if n * 16 > MAX_TENSOR_BYTES:       # 16: the widest element (complex<f64>)
        where = f"{op.location}: " if op.location is not None else ""
        raise CompileError(f"{where}error: '{op.name}' uses {t}, larger than a module can "
                           f"address ({MAX_TENSOR_BYTES} bytes)")


def _check_constant_size(op) -> None:
    """The parser's limit on constants (mlir/dense.py), for the splats it
    accepts at any size: passes and codegen may materialise a constant.
    (Runs after the element-type check: the element has a numpy dtype.)"""
    from .mlir.dense import DenseError, check_size
    from .ir.types import TensorType
    ty = getattr(op.attributes.get("value"), "type", None)
    if not isinstance(ty, TensorType) or not ty.is_static:
        return
    try:
        check_size(ty.element, ty.shape)
    except DenseError as e:
        where = f"{op.location}: " if op.location is not None else ""
        raise CompileError(f"{where}error: '{op.name}' {e} (in dense<...> : {ty})") from None


class _DumpingPipeline(PassPipeline):
    """Prints the IR after the passes named in options.dump_ir_after."""

    def __init__(self, passes, options, progress):
        super().__init__(passes, options.verify_each)
        self.dump = set(options.dump_ir_after)
        self.progress = progress

    def run(self, module):
        for p in self.passes:
            self.progress(f"pass {p.name}")
            sub = PassPipeline([p], self.verify_each)
            sub.run(module)
            self.timings += sub.timings
            if "all" in self.dump or p.name in self.dump:
                from .ir.printer import print_module
                print(f"// -----// IR after {p.name} //----- //", file=sys.stderr)
                print(print_module(module), file=sys.stderr)
