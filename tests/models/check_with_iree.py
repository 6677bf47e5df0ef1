"""Cross-check the fixtures against IREE (a second, independent implementation).

    python tests/models/check_with_iree.py [names...]

Needs the iree-base-compiler / iree-base-runtime wheels (the `bench` extra).
Compiles each `<name>.mlir` for llvm-cpu, runs it on local-sync, compares with
the JAX outputs in `<name>.npz` using the manifest tolerance. Not a pytest test:
it checks the fixtures, not tensorvm.
"""
from __future__ import annotations

import pathlib
import sys

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from fixtures import MODELS, assert_matches, load_model  # noqa: E402


def main(argv: list[str]) -> int:
    import iree.compiler as ireec
    import iree.runtime as ireert

    failed = 0
    for name in argv or MODELS:
        text, inputs, expected = load_model(name)
        try:
            vmfb = ireec.compile_str(text, target_backends=["llvm-cpu"],
                                     extra_args=["--iree-llvmcpu-target-cpu=host",
                                                 # IREE demotes f64 to f32 unless told not to
                                                 "--iree-input-demote-f64-to-f32=false"])
            module = ireert.load_vm_flatbuffer(vmfb, driver="local-sync")
            out = module.main(*inputs)
            out = list(out) if isinstance(out, (tuple, list)) else [out]
            assert_matches(name, [np.asarray(o) for o in out], expected)
            print(f"ok    {name}")
        except Exception as e:  # report every model, then fail
            failed += 1
            msg = str(e).strip().splitlines()
            print(f"FAIL  {name}: {type(e).__name__}: {msg[0] if msg else ''}")
            for line in msg[1:12]:
                print("      " + line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
