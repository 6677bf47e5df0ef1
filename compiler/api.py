"""The compiler's public entry points: StableHLO text in, .vmfb bytes out."""
from __future__ import annotations

import os
from dataclasses import dataclass, field

from .errors import CompileError
from .progress import format_bytes

TARGETS = ("cpu", "opencl", "cuda")


@dataclass
class CompileOptions:
    targets: tuple = ("cpu",)
    cpu: str = "host"               # "host" (this machine's ISA), "generic", an x86 level
                                    # (x86-64-v2/v3/v4) or a -march name; comma-separated:
                                    # one CPU variant each (the runtime picks the best)
    cpu_arch: str = "host"          # x86_64, aarch64, armv7, riscv64 (cross compilers)
    cpu_features: tuple = ()        # e.g. ("+neon", "+dotprod"), for every --cpu variant
    cpu_variants: tuple = ()        # "ARCH[:CPU[:+feat,...]]" each; overrides the three above
    cuda_arch: str = "sm_80"        # nvcc --gpu-architecture for the cuda target
    module_name: str | None = None
    verify_each: bool = False       # re-verify the IR after every pass
    dump_ir_after: list = field(default_factory=list)   # pass names, or ["all"]
    keep_source: bool = False       # keep generated C in the result stats
    simplify: bool = True           # algebraic simplification and constant folding
    custom_kernels: list = field(default_factory=list)  # CustomKernel / HostCall (custom_kernels.py)
    # extra reflection per exported function name, merged into what the
    # compiler records (frontends keep the pytree nesting here: runtime/pytree.py)
    reflection: dict = field(default_factory=dict)
    # called with a ProgressEvent as each stage starts (compiler/progress.py)
    progress: object = None


class CompileResult:
    """A compiled module: ``vmfb`` (its bytes, serialised on first use unless
    the compile already wrote them to a file) and ``stats``."""

    def __init__(self, vmfb, stats: dict, module=None):
        self._vmfb, self.stats, self.module = vmfb, stats, module

    @property
    def vmfb(self) -> bytes:
        if self._vmfb is None:
            from tensorvm.vmfb import container
            self._vmfb = container.write_module(self.module)
        return self._vmfb


def compile_str(text: str, targets=("cpu",), *, filename: str = "<input>", **options) -> bytes:
    """Compile StableHLO MLIR text to a .vmfb module (bytes)."""
    return compile_text(text, CompileOptions(targets=tuple(targets), **options), filename).vmfb


def compile_file(path, output=None, targets=("cpu",), **options) -> bytes | None:
    """Compile the MLIR file (text, bytecode or a serialised jax.export) at
    ``path``.  With ``output``, the module is streamed to that path (its
    constants never held twice) and None is returned; else its bytes are."""
    from .frontends.artifacts import open_artifact
    try:
        text, reflection = open_artifact(path)
    except OSError as e:
        raise CompileError(f"cannot read {path}: {e.strerror}") from None
    if reflection:
        options.setdefault("reflection", {"main": reflection})
    result = compile_text(text, CompileOptions(targets=tuple(targets), **options),
                          os.fspath(path), output=output)
    return None if output is not None else result.vmfb


def compile_text(text, options: CompileOptions, filename: str = "<input>",
                 output=None) -> CompileResult:
    """Compile MLIR ``text`` (a str, UTF-8 bytes or the mmap of a file); with
    ``output`` (a path), the module is streamed there as it is serialised."""
    from .mlir.parser import parse_module
    _check_targets(options)
    progress = _progress(options, parse=True)
    progress(f"parse ({format_bytes(len(text))})")
    module = parse_module(text, filename=filename)
    return compile_module(module, options, progress, output)


def compile_module(module, options: CompileOptions | None = None, progress=None,
                   output=None) -> CompileResult:
    """Compile a parsed IR module (the conformance runner rewrites IR first)."""
    from .pipeline import run_pipeline
    options = options or CompileOptions()
    _check_targets(options)
    return run_pipeline(module, options, progress or _progress(options, parse=False), output)


def _check_targets(options) -> None:
    for t in options.targets:
        if t not in TARGETS:
            raise CompileError(f"unknown target '{t}'; available targets: {', '.join(TARGETS)}")


def _progress(options, parse: bool):
    """The Progress of one compile: parse?, each pass, plan, a codegen per
    target, assemble, write."""
    from .pipeline import compiles_for_gpu, ir_passes
    from .progress import Progress
    total = parse + len(ir_passes(options.simplify, gpu=compiles_for_gpu(options))) + 1 + len(options.targets) + 2
    return Progress(options.progress, total)
