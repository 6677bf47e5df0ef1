"""Entry points of user kernels (``kind == "custom"``, custom_kernels.py).

The user's source goes into the module's program as a file-scope
declaration (once, however many calls use it); the dispatch's entry point
is a wrapper with the generated kernels' signature that calls the user's
function.  CPU: the user function has the generated ABI itself,
``int f(const tvm_dispatch_state_t* st, uint32_t wg_begin, uint32_t
wg_end)``.  GPU (OpenCL C, CUDA C): the wrapper resolves the bindings (and,
in OpenCL, their byte offsets) and calls ``void f(inputs..., outputs...)``
with one pointer per binding; the user function reads its workgroup from
``get_group_id(0)`` / ``blockIdx.x``.
"""
from __future__ import annotations

import os
import subprocess
import tempfile

from tensorvm.vmfb.cpu_abi import declarator

from .body import BodyEmitter


def render_cpu(kernel):
    """(declarations, entry-point source, workgroup count) on the CPU."""
    ck = kernel.custom
    src = f"/* custom kernel '{ck.name}' */\n{ck.source('cpu')}"
    fn = f"{declarator(kernel.name)} {{\n  return {ck.entry}(st, wg_begin, wg_end);\n}}"
    return [src], fn, ck.workgroup_count()


def render_gpu(target, kernel):
    """(declarations, kernel source, workgroup count) for a GpuTarget."""
    ck = kernel.custom
    em = BodyEmitter({}, indent=2)
    params, setup = target.params(kernel, em)
    args = [f"b{k}" for k in range(len(kernel.inputs))] + \
        [f"o{j}" for j in range(len(kernel.outputs))]
    src = f"/* custom kernel '{ck.name}' */\n{ck.source(target.name)}"
    out = [target.header(kernel, params), *setup, f"  {ck.entry}({', '.join(args)});", "}"]
    return [src], "\n".join(out), ck.workgroup_count()


def culprit(kernels, prologue: str, cc: str, flags) -> tuple | None:
    """(custom kernel, compiler stderr) of the first user C source that does
    not compile on its own after ``prologue``, or None (called only after the
    whole program failed, to name the user's kernel instead of ours)."""
    seen = set()
    for k in kernels:
        ck = k.custom
        if ck is None or ck.name in seen:
            continue
        seen.add(ck.name)
        with tempfile.TemporaryDirectory(prefix="tensorvm-custom-") as tmp:
            path = os.path.join(tmp, f"{ck.name}.c")
            with open(path, "w") as f:
                f.write(prologue + "\n" + ck.source("cpu") + "\n")
            proc = subprocess.run([cc, "-fsyntax-only", "-std=gnu11", *flags, path],
                                  capture_output=True, text=True)
            if proc.returncode != 0:
                return ck, proc.stderr[-4000:]
    return None
