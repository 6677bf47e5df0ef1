"""The CPU executable ABI is written twice on purpose — by the compiler that
emits kernels and by the HAL loader that calls them (neither layer may import
the other) — so this test proves the two copies agree."""
from tensorvm.compiler.codegen import cpu
from tensorvm.hal.loaders import cpu_c


def _normalized(text: str) -> list[str]:
    return [" ".join(line.split()) for line in text.strip().splitlines() if line.strip()]


def test_compiler_and_loader_share_one_dispatch_abi():
    assert _normalized(cpu.ABI) == _normalized(cpu_c.ABI_CDEF)
