"""Run a compiled program without the VM: a stand-in for ``runtime.load_module``.

It runs the compiler's own pipeline and memory plan, builds the kernels, loads
them through the HAL (``local-sync``) and dispatches level by level exactly as
the generated host code does (see ``compiler/codegen/vm_host.py``), with numpy
arrays as buffers.  The conformance runner uses it while the runtime cannot
load modules; it also lets kernel tests check numerics without the VM.
"""
from __future__ import annotations

import numpy as np


class PlanModule:
    """``module.main(*arrays)`` over a compiled IR module (static shapes)."""

    def __init__(self, module, cpu: str = "host", device: str = "local-sync"):
        from tensorvm import hal
        from tensorvm.compiler.codegen import cpu as cpu_backend
        from tensorvm.compiler.codegen.kernel import build_kernel
        from tensorvm.compiler.ir.verifier import verify_module
        from tensorvm.compiler.passes.canonicalize import CanonicalizeOps
        from tensorvm.compiler.passes.dispatch import FormDispatchRegions
        from tensorvm.compiler.passes.inline import InlineCalls, symbol, visibility
        from tensorvm.compiler.passes.memory import plan_function
        from tensorvm.compiler.passes.simplify import (CommonSubexpressionElimination,
                                                       DeadCodeElimination)
        verify_module(module)
        for p in (CanonicalizeOps(), InlineCalls(), CommonSubexpressionElimination(), DeadCodeElimination(),
                  FormDispatchRegions(), DeadCodeElimination()):
            p.run(module)
        self.functions = {symbol(f, "sym_name"): f for f in module.functions
                          if visibility(f) != "private"}
        self.plans, kernels, self.entry_of = {}, [], {}
        for f in self.functions.values():
            plan = plan_function(f)
            self.plans[id(f)] = plan
            for level in plan.levels:
                for d in level:
                    self.entry_of[id(d)] = len(kernels)
                    kernels.append(build_kernel(d))
        self.device = hal.create_device(device)
        self.exe, self.counts, self.source = None, [], ""
        if kernels:
            data, target, entries, self.counts, self.source = cpu_backend.build_cpu_executable(
                kernels, cpu)
            self.exe = self.device.load_executable("kernels", cpu_backend.cpu_format(), data,
                                                   [e.name for e in entries], target)

    def __getattr__(self, name):
        funcs = self.__dict__.get("functions", {})
        if name in funcs:
            return lambda *args: self.call(name, *args)
        raise AttributeError(name)

    def call(self, name, *args):
        from tensorvm.compiler.ir.types import numpy_dtype
        func = self.functions[name]
        plan = self.plans[id(func)]
        block = func.regions[0].blocks[0]
        alloc = self.device.allocator
        bufs = {}
        keep = []
        for i, (a, x) in enumerate(zip(block.arguments, args)):
            arr = np.ascontiguousarray(np.asarray(x, dtype=numpy_dtype(a.type.element)))
            arr = arr.copy() if arr.nbytes else np.zeros(1, np.uint8)
            keep.append(arr)
            bufs[("arg", i)] = alloc.import_host(arr.reshape(-1).view(np.uint8), writable=True)
        for j, op in enumerate(plan.constants):
            arr = np.ascontiguousarray(op.attr("value").array).copy()
            arr = arr if arr.nbytes else np.zeros(1, np.uint8)
            keep.append(arr)
            bufs[("constant", j)] = alloc.import_host(arr.reshape(-1).view(np.uint8), writable=True)
        host = {}
        if plan.slab_size:
            host[("slab", 0)] = np.zeros(plan.slab_size, np.uint8)
        for j, size in enumerate(plan.result_sizes):
            host[("result", j)] = np.zeros(max(size, 1), np.uint8)
        for k, arr in host.items():
            bufs[k] = alloc.import_host(arr, writable=True)
        cb = self.device.create_command_buffer()
        first = True
        for level in plan.levels:
            ds = [d for d in level if self.counts[self.entry_of[id(d)]]]
            if not ds:
                continue
            if not first:
                cb.execution_barrier()
            first = False
            for d in ds:
                binds = []
                for v in list(d.operands) + list(d.results):
                    s = plan.storage[v]
                    binds.append((bufs[(s.kind, s.index)], s.offset, s.size))
                cb.dispatch(self.exe, self.entry_of[id(d)],
                            (self.counts[self.entry_of[id(d)]], 1, 1), [], binds)
        cb.finalize()
        fence = self.device.create_fence()
        self.device.queue_execute(None, fence, [cb])
        fence.wait(60)
        outs = []
        src_host = {("arg", i): a for i, a in enumerate(keep[:len(block.arguments)])}
        src_host.update({("constant", j): keep[len(block.arguments) + j]
                         for j in range(len(plan.constants))})
        src_host.update(host)
        for v in block.terminator.operands:
            s = plan.storage[v]
            raw = src_host[(s.kind, s.index)].reshape(-1).view(np.uint8)[s.offset:s.offset + s.size]
            dt = numpy_dtype(v.type.element)
            n = int(np.prod(v.type.shape, dtype=np.int64))
            outs.append(raw[:n * dt.itemsize].copy().view(dt).reshape(v.type.shape))
        return outs[0] if len(outs) == 1 else tuple(outs)


def run_text(text: str, *args, name: str = "main"):
    """Compile MLIR text and call ``name`` on ``args`` (numpy results)."""
    from tensorvm.compiler.frontend.parser import parse_module
    return PlanModule(parse_module(text)).call(name, *args)
