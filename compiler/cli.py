"""``tensorvm-compile``: StableHLO file -> .vmfb, IREE-style flags.

    tensorvm-compile model.mlir -o model.vmfb --targets=cpu

The input is MLIR text, MLIR bytecode (a StableHLO portable artifact / VHLO,
as ``jax.export`` serialises ``mlir_module_serialized``) or a whole
serialised ``jax.export.Exported``; the bytes, not the file name, decide
(compiler/frontends/artifacts.py).  A directory is a TensorFlow SavedModel
(compiler/frontends/from_tf.py; ``--batch N`` for an unknown batch dim).
"""
from __future__ import annotations

import argparse
import json
import os
import sys

from .api import TARGETS, CompileOptions, compile_text
from .errors import CompileError
from .progress import print_progress
from .stats import format_stats


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="tensorvm-compile",
                                description="Compile StableHLO (MLIR text, .mlirbc portable "
                                "artifact, or a serialised jax.export) to a .vmfb module.")
    p.add_argument("input", help="StableHLO file ('-' for standard input) or a TensorFlow "
                                 "SavedModel directory")
    p.add_argument("-o", "--output", help="output .vmfb path (default: input with .vmfb)")
    p.add_argument("--targets", default="cpu",
                   help=f"comma-separated targets ({', '.join(TARGETS)}); default cpu")
    p.add_argument("--cpu", default="host",
                   help="CPU code: 'host' (this machine's ISA, default), 'generic', an x86 level "
                        "(x86-64-v2, x86-64-v3, x86-64-v4) or a -march name; comma-separated "
                        "names give one CPU variant each (the runtime picks the best it can run)")
    p.add_argument("--cpu-arch", default="host",
                   help="architecture of the CPU code: host (default), x86_64, aarch64, armv7, "
                        "riscv64 (foreign ones need Debian's cross gcc, e.g. "
                        "gcc-aarch64-linux-gnu)")
    p.add_argument("--cpu-features", default="",
                   help="comma-separated features the CPU code may use, e.g. +neon,+dotprod "
                        "(aarch64) or +avx2 (x86_64); the runtime needs them on the device")
    p.add_argument("--cpu-variant", action="append", default=[], metavar="ARCH[:CPU[:+F,...]]",
                   help="add a CPU variant (repeatable; replaces --cpu/--cpu-arch/--cpu-features), "
                        "e.g. --cpu-variant x86_64:x86-64-v2 --cpu-variant x86_64:x86-64-v4 "
                        "--cpu-variant aarch64:generic:+neon,+dotprod")
    p.add_argument("--cuda-arch", default="sm_80",
                   help="GPU architecture of the cuda target's PTX (default sm_80)")
    p.add_argument("--batch", type=int, metavar="N",
                   help="SavedModel input: the size of an unknown leading (batch) dim "
                        "(TF's XLA export compiles static shapes)")
    p.add_argument("--signature", metavar="NAME",
                   help="SavedModel input: compile signatures[NAME] (default: its __call__, "
                        "serve or serving_default)")
    p.add_argument("--module-name", help="name recorded in the module (default: the MLIR module's)")
    p.add_argument("--verify-each", action="store_true", help="re-verify the IR after every pass")
    p.add_argument("--dump-ir-after", action="append", default=[], metavar="PASS",
                   help="print the IR to stderr after PASS ('all' for every pass)")
    p.add_argument("--print-stats", action="store_true",
                   help="print dispatch counts, transient bytes and pass timings as JSON")
    p.add_argument("--stats", action="store_true",
                   help="print the same statistics as tables (seconds per stage)")
    p.add_argument("--progress", action="store_true",
                   help="report each compile stage on stderr as it starts")
    p.add_argument("--no-simplify", action="store_true",
                   help="skip algebraic simplification and constant folding (to compare counts)")
    p.add_argument("--dump-c", metavar="PATH", help="write the generated C kernels to PATH")
    return p


def _read_input(path):
    """(MLIR input, reflection, name) of a file or standard input ('-'); a
    text file comes back mmap'd, parsed in place (frontends/artifacts.py)."""
    from .frontends.artifacts import open_artifact, read_artifact
    if path == "-":
        text, reflection = read_artifact(sys.stdin.buffer.read(), "<stdin>")
        return text, reflection, "<stdin>"
    try:
        text, reflection = open_artifact(path)
    except OSError as e:
        raise CompileError(f"cannot read {path}: {e}") from None
    return text, reflection, path


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.input != "-" and os.path.isdir(args.input):
            from .frontends.from_tf import export_tf
            exp = export_tf(args.input, batch=args.batch, signature=args.signature)
            text, reflection, name = exp.mlir, exp.reflection, os.path.normpath(args.input)
        else:
            if args.batch is not None or args.signature is not None:
                raise CompileError("--batch and --signature apply to a SavedModel directory only")
            text, reflection, name = _read_input(args.input)
        options = CompileOptions(targets=tuple(t for t in args.targets.split(",") if t),
                                 cpu=args.cpu, cpu_arch=args.cpu_arch,
                                 cpu_features=tuple(f for f in args.cpu_features.split(",") if f),
                                 cpu_variants=tuple(args.cpu_variant), cuda_arch=args.cuda_arch,
                                 module_name=args.module_name,
                                 verify_each=args.verify_each, dump_ir_after=args.dump_ir_after,
                                 keep_source=bool(args.dump_c), simplify=not args.no_simplify,
                                 reflection={"main": reflection} if reflection else {},
                                 progress=print_progress(sys.stderr) if args.progress else None)
        out = args.output or (name + ".vmfb" if os.path.isdir(args.input) else
                              name.rsplit(".", 1)[0] + ".vmfb" if name != "<stdin>" else "out.vmfb")
        result = compile_text(text, options, name, output=out)
        if args.dump_c:
            with open(args.dump_c, "w") as f:
                f.write(result.stats.get("c_source", ""))
        if args.print_stats:
            stats = {k: v for k, v in result.stats.items() if k not in ("c_source", "vm_assembly")}
            print(json.dumps(stats, indent=2, default=str))
        if args.stats:
            print(format_stats(result.stats))
    except CompileError as e:
        print(f"tensorvm-compile: error: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"tensorvm-compile: error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
