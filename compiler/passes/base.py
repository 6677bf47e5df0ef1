"""Pass infrastructure: a pass is an object with a name and ``run(module)``;
the pipeline can re-verify the IR after every pass (debug switch)."""
from __future__ import annotations

import time


class Pass:
    name = "pass"

    def run(self, module) -> None:
        raise NotImplementedError


class PassPipeline:
    """Runs passes in order; ``verify_each`` re-verifies after every pass,
    ``timings`` collects seconds per pass for ``--print-pass-timings``."""

    def __init__(self, passes, verify_each: bool = False):
        self.passes = list(passes)
        self.verify_each = verify_each
        self.timings: list[tuple[str, float]] = []

    def run(self, module) -> None:
        for p in self.passes:
            t0 = time.perf_counter()
            p.run(module)
            self.timings.append((p.name, time.perf_counter() - t0))
            if self.verify_each:
                from ..ir.verifier import verify_module
                verify_module(module)
