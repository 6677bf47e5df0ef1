"""What the two CPU drivers share: host allocator, cpu-c loader, programs.

Both execute the same ``CpuProgram``s; they differ only in who runs a
submission (the caller vs. a queue thread) and how a dispatch's workgroups are
spread (one call vs. a worker pool).
"""
from __future__ import annotations

from ..caching_allocator import CachingHostAllocator
from ..device import Device
from ..loaders import cpu_c
from . import cpu_program


class CpuDevice(Device):
    """Base for devices that execute on this process's CPU."""

    supports_binding_tables = True

    def __init__(self, name: str):
        super().__init__(name, CachingHostAllocator(name))
        cpu_c.host_features()        # read /proc/cpuinfo now, not in a module's first load

    def supported_formats(self) -> list:
        return [cpu_c.format_name()]

    def variant_misfit(self, format, target):
        why = super().variant_misfit(format, target)
        missing = cpu_c.missing_features(target) if why is None else ()
        if missing:
            why = f"this CPU lacks {', '.join(missing)}"
        return why

    def _load_executable(self, name, format, data, entry_points, target):
        return cpu_c.load(self, name, format, data, entry_points, target)

    def _prepare_commands(self, commands):
        return cpu_program.prepare(commands)


def settle(signal, exc) -> None:
    """Signal ``signal`` or fail it with ``exc`` (no-op for a None fence)."""
    if signal is None:
        return
    if exc is None:
        signal.signal()
    else:
        signal.fail(exc)


def run_submission(wait, signal, work, tracer=None) -> None:
    """Run ``work`` unless the wait fence failed; settle the signal fence."""
    exc = wait.failure if wait is not None else None
    if exc is None and work is not None:
        t0 = tracer.now() if tracer is not None else 0
        try:
            work()
        except BaseException as e:      # noqa: BLE001 - every failure goes to the fence
            exc = e
        if tracer is not None:
            tracer.complete("submission", "queue", t0, tracer.now(),
                            {"error": str(exc)} if exc is not None else None)
    settle(signal, exc)
