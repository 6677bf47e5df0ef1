"""Compare the native .mlirbc reader with the jaxlib text path over many programs.

Each MLIR text file is serialised by jaxlib as a StableHLO portable artifact
at a target version, then read twice: natively (compiler/mlir/vhlo.py) and
through jaxlib's deserialiser and text (frontends/artifacts.bytecode_to_text).
Both are parsed and printed, each op's attributes in name order; the
programs whose printed IR differs, or that one reader refuses, are listed.

    python tools/check_mlirbc.py [--target 1.17.0] [FILES ...]

Without files: ../shared/conformance/testdata/*.mlir.  Needs jax/jaxlib.
"""
from __future__ import annotations

import argparse
import collections
import difflib
import glob
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONFORMANCE = os.path.join(os.path.dirname(ROOT), "shared", "conformance", "testdata")


def canonical(module) -> str:
    """The module printed with each op's attributes in name order."""
    from tensorvm.compiler.ir.printer import print_module

    def sort(ops):
        for op in ops:
            op.attributes = dict(sorted(op.attributes.items()))
            for region in op.regions:
                for block in region.blocks:
                    sort(block.operations)
    sort(module.body.operations)
    return print_module(module)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*")
    ap.add_argument("--target", help="StableHLO version to serialise for (default: current)")
    ap.add_argument("--show", type=int, default=8, help="examples listed per outcome")
    args = ap.parse_args(argv)
    from jax._src.interpreters.mlir import make_ir_context
    from jaxlib.mlir import ir
    from jaxlib.mlir.dialects import stablehlo

    from tensorvm.compiler.frontends.artifacts import bytecode_to_text
    from tensorvm.compiler.mlir.parser import parse_module
    from tensorvm.compiler.mlir.vhlo import read_portable_artifact

    target = args.target or stablehlo.get_current_version()
    files = args.files or sorted(glob.glob(os.path.join(CONFORMANCE, "*.mlir")))
    ctx = make_ir_context()
    counts, examples = collections.Counter(), collections.defaultdict(list)
    seconds = collections.Counter()
    for path in files:
        name = os.path.basename(path)
        try:
            with ctx:
                data = stablehlo.serialize_portable_artifact(ir.Module.parse(open(path).read()),
                                                             target)
        except Exception as e:  # noqa: BLE001 - jaxlib raises plain errors (chlo ops, ...)
            outcome, detail = "not serialisable", str(e)[:100]
        else:
            try:
                t0 = time.perf_counter()
                old = canonical(parse_module(bytecode_to_text(data, name), name))
                t1 = time.perf_counter()
                new = canonical(parse_module(read_portable_artifact(data, name), name))
                seconds["jaxlib text"] += t1 - t0
                seconds["native"] += time.perf_counter() - t1
            except Exception as e:  # noqa: BLE001 - listed, not raised
                outcome, detail = "refused", f"{type(e).__name__}: {str(e)[:300]}"
            else:
                diff = [line for line in difflib.unified_diff(old.splitlines(), new.splitlines(),
                                                              lineterm="", n=0)
                        if line[:1] in "+-" and line[:3] not in ("---", "+++")]
                outcome, detail = ("same IR", "") if not diff else ("differs", "\n".join(diff[:4]))
        counts[outcome] += 1
        examples[outcome].append((name, detail))
    print(f"target {target}: {dict(counts)}; reading+parsing "
          + ", ".join(f"{k} {v:.1f} s" for k, v in seconds.items()))
    for outcome, items in examples.items():
        if outcome != "same IR":
            print(f"== {outcome} ({len(items)})")
            for name, detail in items[:args.show]:
                print(f"   {name}: {detail}")
    return 0 if not counts["differs"] and not counts["refused"] else 1


if __name__ == "__main__":
    sys.exit(main())
