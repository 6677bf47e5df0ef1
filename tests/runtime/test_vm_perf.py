"""The per-op cost is a measured figure; this guards against gross regressions."""
from tensorvm.runtime.vm.bench import measure


def test_per_op_cost_is_measured_and_sane():
    r = measure(iterations=20_000, repeat=2)
    print(f"\nadd.i32 {r['add_i32_ns']:.0f} ns/op, loop op {r['loop_op_ns']:.0f} ns, "
          f"call+ret {r['call_ns']:.0f} ns")
    assert 0 < r["loop_op_ns"] < 2000        # shared CI machines: only catch pathologies
