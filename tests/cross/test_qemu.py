"""Foreign-architecture CPU variants run under qemu-user and match this host.

One module carries this host's variant and an aarch64 (armv7, riscv64)
one; the host run of a real model (tests/models) is recorded dispatch by
dispatch and replayed through the foreign object by a cross-compiled
harness under qemu-user (qemu_harness.py)."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from tensorvm import runtime
from tensorvm.compiler.api import CompileOptions, compile_text
from tensorvm.hal.loaders import elf_check
from tensorvm.vmfb import container

import qemu_harness

sys.path.insert(0, str(Path(__file__).parents[1] / "models"))
from fixtures import assert_matches, load_model  # noqa: E402

#: (arch, --cpu-variant of the foreign code, models)
CASES = [("aarch64", "aarch64:generic:+neon,+dotprod",
          ("cnn_conv", "transformer_block", "mlp", "elementwise_zoo", "embed_topk")),
         ("armv7l", "armv7:generic:+neon", ("cnn_conv", "mixed_precision")),
         ("riscv64", "riscv64:generic", ("mlp", "mixed_precision"))]


def _params():
    for arch, spec, models in CASES:
        why = qemu_harness.missing_tools(arch)
        marks = [pytest.mark.skipif(why is not None, reason=why or "")]
        for model in models:
            yield pytest.param(arch, spec, model, marks=marks, id=f"{arch}-{model}")


@pytest.mark.parametrize("arch,spec,model", list(_params()))
def test_foreign_variant_matches_host_under_qemu(arch, spec, model, monkeypatch, tmp_path):
    text, inputs, expected = load_model(model)
    result = compile_text(text, CompileOptions(cpu_variants=("host", spec), keep_source=True))
    [exe] = container.read_module(result.vmfb).executables
    host_v, foreign = exe.variants
    assert foreign.format == f"cpu-c-{arch}"
    elf_check.check(foreign.data, arch=arch)        # what the device's loader will check

    recorder = qemu_harness.Recorder(monkeypatch)
    m = runtime.load_module(result.vmfb, device="local-sync")
    out = m.main(*inputs)
    assert_matches(model, list(out) if isinstance(out, tuple) else [out], expected)
    assert [e["variant"] for e in m.executables] == [0]
    dispatches = recorder.dispatches
    assert dispatches, "the model ran no CPU dispatch"

    results = qemu_harness.replay(arch, bytes(foreign.data), dispatches, tmp_path)
    types = qemu_harness.binding_types(result.stats["c_source"])
    compared = qemu_harness.compare(dispatches, results, types)
    assert compared >= len(dispatches)


def test_binding_types_are_read_from_the_generated_c():
    src = ("int d0_add(const tvm_dispatch_state_t* st, uint32_t wg_begin, uint32_t wg_end) {\n"
           "  const float* restrict b0 = (const float*)st->bindings[0];\n"
           "  int32_t* restrict o0 = (int32_t*)st->bindings[1];\n")
    assert qemu_harness.binding_types(src) == {"d0_add": {0: "float", 1: "int32_t"}}


def test_compare_reports_the_dispatch_and_binding():
    d = qemu_harness.Dispatch("k", (1, 1, 1), [], [b""], [np.float32([1, 2]).tobytes()])
    qemu_harness.compare([d], [[np.float32([1, 2.00001]).tobytes()]], {"k": {0: "float"}})
    with pytest.raises(AssertionError, match="dispatch k binding 0"):
        qemu_harness.compare([d], [[np.float32([1, 3]).tobytes()]], {"k": {0: "float"}})
