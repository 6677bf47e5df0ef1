"""Workgroup counts that differ between a module's CPU and GPU variants.

CPU variants tile for a few worker threads (``kernel.workgroup_plan``: tens
of workgroups); GPU variants size their grids from the problem (thousands
of work-groups of ``local_size`` items).  The host program is shared by all
variants, so where the two families' counts differ a dispatch records
``select(gpu, gpu_count, cpu_count)``.  Which family was loaded is asked
once per recording through ``executable.has_entry``: every GPU variant has
one extra, empty entry point named ``GPU_MARKER`` after its kernels (as CPU
variants have their native loops there), so the runtime needs nothing new.
"""
from __future__ import annotations

from typing import NamedTuple

GPU_MARKER = "tvm_gpu_grid"
GPU_FORMATS = ("opencl-c", "cuda-ptx")     # opencl.FORMAT, cuda.FORMAT
# Element-ops per GPU work-group of a loop kernel (``workgroup_plan``'s
# budget): 16 elements per item at OpenCL's 64 items, 8 at CUDA's 128, so
# a 1024x1024 add is 512 work-groups where a CPU worker tile makes it 32.
GPU_WORK = 1024


class VariantCounts(NamedTuple):
    """One dispatch's workgroup counts: ``cpu`` for CPU variants, ``gpu``
    for GPU variants (each an int or a shape-symbol expression)."""
    cpu: object
    gpu: object

    def __bool__(self) -> bool:      # a dispatch with no work in either family is skipped
        return bool(self.cpu) or bool(self.gpu)


def merge_counts(cpu_counts, gpu_counts) -> list:
    """Per kernel: the shared count, or ``VariantCounts`` where they differ
    (either list None: that family has no variant)."""
    if gpu_counts is None:
        return list(cpu_counts)
    if cpu_counts is None:
        return list(gpu_counts)
    return [c if _same(c, g) else VariantCounts(c, g) for c, g in zip(cpu_counts, gpu_counts)]


def _same(a, b) -> bool:
    return type(a) is type(b) and (a == b if isinstance(a, int) else str(a) == str(b))


def has_variant_counts(counts) -> bool:
    return any(isinstance(c, VariantCounts) for c in counts)


def gpu_flag(f, exe: str) -> str:
    """Emit the test 'the loaded variant is a GPU one'; its i32 register."""
    nm = f.reg("n")
    f.op("const.ref.str", nm, GPU_MARKER)
    flag, = f.call("executable.has_entry", [exe, nm], 1)
    return flag


def count_register(f, count, flag, one_count) -> str:
    """An i32 register holding ``count`` for the loaded variant;
    ``one_count(c)`` makes the register of a plain count."""
    if not isinstance(count, VariantCounts):
        return one_count(count)
    gpu, cpu = one_count(count.gpu), one_count(count.cpu)
    r = f.reg("i")
    f.op("select.i32", r, flag, gpu, cpu)
    return r
