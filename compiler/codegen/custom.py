"""Entry points of user kernels (``kind == "custom"``, custom_kernels.py).

The user's source goes into the module's program as a file-scope
declaration (once, however many calls use it); the dispatch's entry point
is a wrapper with the generated kernels' signature that calls the user's
function (rendered by the target's renderer: c_style.CStyleRenderer.render_custom,
cpu.CpuRenderer.render_custom).  CPU: the user function has the generated ABI itself,
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
