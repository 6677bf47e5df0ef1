"""CPU variants: x86-64 levels and cross-architecture builds in one module,
the runtime's pick by CPU features, and the typed errors when none fits."""
from __future__ import annotations

import shutil
import subprocess
import sys

import numpy as np
import pytest

from tensorvm import compiler, hal, runtime
from tensorvm.compiler.codegen import cpu_targets
from tensorvm.compiler.errors import CompileError
from tensorvm.hal.loaders import cpu_c, elf_check
from tensorvm.vmfb import container

MATMUL_EXP = """
func.func @main(%a: tensor<32x48xf32>, %b: tensor<48x40xf32>) -> tensor<32x40xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<32x48xf32>, tensor<48x40xf32>) -> tensor<32x40xf32>
  %1 = stablehlo.exponential %0 : tensor<32x40xf32>
  return %1 : tensor<32x40xf32>
}
"""
x86_only = pytest.mark.skipif(cpu_targets.host_arch() != "x86_64", reason="x86-64 host only")
needs_aarch64_cc = pytest.mark.skipif(shutil.which("aarch64-linux-gnu-gcc") is None,
                                      reason="no aarch64-linux-gnu-gcc (apt-get install "
                                             "gcc-aarch64-linux-gnu)")
V4 = set(cpu_targets.X86_LEVELS["x86-64-v4"])


def _inputs():
    rng = np.random.default_rng(0)
    return (rng.standard_normal((32, 48), np.float32) * 0.1,
            rng.standard_normal((48, 40), np.float32) * 0.1)


def _check(m):
    a, b = _inputs()
    np.testing.assert_allclose(np.asarray(m.main(a, b)), np.exp(a @ b), rtol=1e-5, atol=1e-6)


@pytest.fixture(scope="module")
def v2_v4():
    return compiler.compile_str(MATMUL_EXP, cpu="x86-64-v2,x86-64-v4")


@x86_only
def test_v2_and_v4_variants_pick_the_best_this_cpu_runs(v2_v4):
    variants = container.read_module(v2_v4).executables[0].variants
    assert [v.target["cpu"] for v in variants] == ["x86-64-v2", "x86-64-v4"]
    assert set(variants[1].target["features"]) == V4
    assert bytes(variants[0].data) != bytes(variants[1].data)
    m = runtime.load_module(v2_v4, device="local-sync")
    _check(m)
    [exe] = m.executables
    want = "x86-64-v4" if V4 <= cpu_c.host_features() else "x86-64-v2"
    assert (exe["variant"], exe["target"]["cpu"]) == (["x86-64-v2", "x86-64-v4"].index(want), want)


@x86_only
def test_v4_code_uses_avx512_and_v2_does_not(v2_v4, tmp_path):
    objdump = shutil.which("objdump")
    if objdump is None:
        pytest.skip("no objdump")
    zmm = []
    for i, v in enumerate(container.read_module(v2_v4).executables[0].variants):
        path = tmp_path / f"v{i}.so"
        path.write_bytes(bytes(v.data))
        text = subprocess.run([objdump, "-d", str(path)], capture_output=True, text=True).stdout
        zmm.append("%zmm" in text or "%ymm" in text)
    assert zmm == [False, True]


@x86_only
def test_a_cpu_without_avx512_gets_the_v2_variant(v2_v4, monkeypatch):
    monkeypatch.setattr(cpu_c, "host_features", lambda: frozenset(cpu_targets.X86_LEVELS["x86-64-v3"]))
    m = runtime.load_module(v2_v4, device="local-sync")
    _check(m)
    assert [e["target"]["cpu"] for e in m.executables] == ["x86-64-v2"]


@x86_only
def test_no_fitting_variant_is_a_typed_error_naming_what_is_missing(monkeypatch):
    data = compiler.compile_str(MATMUL_EXP, cpu="x86-64-v4")
    monkeypatch.setattr(cpu_c, "host_features",
                        lambda: frozenset(V4 - {"avx512bw", "avx512vl"}))
    with pytest.raises(hal.NoVariantError, match="x86-64-v4: this CPU lacks avx512bw, avx512vl") as e:
        runtime.load_module(data, device="local-sync")
    assert e.value.executable == "kernels" and e.value.reasons[0][2].startswith("this CPU lacks")


@needs_aarch64_cc
def test_foreign_architecture_only_module_is_refused_by_name():
    data = compiler.compile_str(MATMUL_EXP, cpu_arch="aarch64")
    [v] = container.read_module(data).executables[0].variants
    assert (v.format, v.target["triple"], v.target["cpu"]) == \
        ("cpu-c-aarch64", "aarch64-linux-gnu", "generic")
    if cpu_targets.host_arch() == "aarch64":
        _check(runtime.load_module(data, device="local-sync"))
        return
    with pytest.raises(hal.NoVariantError, match=r"carries \['cpu-c-aarch64'\]"):
        runtime.load_module(data, device="local-sync")


@needs_aarch64_cc
def test_elf_check_accepts_its_machine_and_names_a_foreign_one():
    data = compiler.compile_str(MATMUL_EXP, cpu_variants=("aarch64:generic:+neon,+dotprod",))
    [v] = container.read_module(data).executables[0].variants
    assert v.target["features"] == ["asimd", "asimddp"]
    assert v.target["requested_features"] == ["+neon", "+dotprod"]
    elf_check.check(v.data, arch="aarch64")         # the device's own check passes
    if cpu_targets.host_arch() != "aarch64":
        with pytest.raises(elf_check.ElfMachineMismatch, match="code for aarch64") as e:
            elf_check.check(v.data)
        assert (e.value.arch, e.value.expected) == ("aarch64", cpu_targets.host_arch())
        # and the loader's typed error, should a caller force the format
        with pytest.raises(hal.HalError, match="cpu-c-aarch64"):
            hal.create_device("local-sync").load_executable("k", v.format, v.data,
                                                            v.entry_points, v.target)
    host = compiler.compile_str(MATMUL_EXP, cpu="generic")
    host_v = container.read_module(host).executables[0].variants[0]
    with pytest.raises(elf_check.ElfMachineMismatch, match="not for the aarch64 target"):
        elf_check.check(host_v.data, arch="aarch64" if cpu_targets.host_arch() != "aarch64"
                        else "x86_64")


@needs_aarch64_cc
def test_one_module_carries_x86_and_aarch64_and_runs_here(monkeypatch):
    data = compiler.compile_str(MATMUL_EXP, cpu_variants=(
        "aarch64:generic:+neon", "x86_64:x86-64-v2", "x86_64:x86-64-v3"))
    fmts = [v.format for v in container.read_module(data).executables[0].variants]
    assert fmts == ["cpu-c-aarch64", "cpu-c-x86_64", "cpu-c-x86_64"]
    if cpu_targets.host_arch() == "x86_64":
        m = runtime.load_module(data, device="local-task")
        _check(m)
        want = "x86-64-v3" if set(cpu_targets.X86_LEVELS["x86-64-v3"]) <= cpu_c.host_features() \
            else "x86-64-v2"
        assert [e["target"]["cpu"] for e in m.executables] == [want]


def test_target_errors_are_typed_and_say_what_to_do(monkeypatch):
    with pytest.raises(CompileError, match=r"unknown CPU feature '\+avx9' for aarch64; known: \+neon"):
        cpu_targets.resolve("aarch64", "generic", "+avx9")
    with pytest.raises(CompileError, match="unknown --cpu-arch 'sparc'"):
        cpu_targets.resolve("sparc")
    with pytest.raises(CompileError, match="removing features is not supported"):
        cpu_targets.resolve("aarch64", "generic", "-neon")
    with pytest.raises(CompileError, match="x86-64 level; for aarch64 use generic"):
        cpu_targets.parse_variant("aarch64:x86-64-v3")
    with pytest.raises(CompileError, match="expected ARCH"):
        cpu_targets.parse_variant("a:b:c:d")
    monkeypatch.setattr(cpu_targets.shutil, "which", lambda name: None)
    monkeypatch.delenv("CC_riscv64", raising=False)
    target = cpu_targets.resolve("riscv64", "generic", "+v")
    assert target.flags == ["-march=rv64gcv", "-mabi=lp64d"] and target.features == ("v",)
    with pytest.raises(CompileError, match="riscv64-linux-gnu-gcc \\(Debian package "
                                           "gcc-riscv64-linux-gnu\\)"):
        compiler.compile_str(MATMUL_EXP, cpu_arch="riscv64")


def test_flags_per_architecture_and_level():
    assert cpu_targets.resolve("x86_64", "x86-64-v3").flags == ["-march=x86-64-v3"]
    assert cpu_targets.resolve("x86_64", "x86-64-v4").vector_bytes == 64
    assert cpu_targets.resolve("aarch64", "generic", "+neon").flags == ["-march=armv8-a+simd"]
    assert cpu_targets.resolve("aarch64", "generic", "+neon,+dotprod").flags == \
        ["-march=armv8.2-a+simd+dotprod"]
    assert cpu_targets.resolve("armv7", "generic", "+neon").flags == \
        ["-march=armv7-a", "-mfpu=neon", "-mfloat-abi=hard", "-mfp16-format=ieee"]
    assert cpu_targets.resolve("arm64").format == "cpu-c-aarch64"


@x86_only
def test_cli_builds_variants_and_dump_marks_the_selected_one(tmp_path):
    src = tmp_path / "m.mlir"
    src.write_text(MATMUL_EXP)
    out = tmp_path / "m.vmfb"
    run = lambda *a: subprocess.run([sys.executable, "-m", *a], capture_output=True, text=True,
                                    timeout=120)
    r = run("tensorvm.compiler.cli", str(src), "-o", str(out),
            "--cpu-variant", "x86_64:x86-64-v2", "--cpu-variant", "x86_64:x86-64-v4")
    assert r.returncode == 0, r.stderr
    r = run("tensorvm.runtime.cli.dump", str(out), "--no-disassembly")
    assert r.returncode == 0, r.stderr
    picked = [line for line in r.stdout.splitlines() if "[selected on local-sync]" in line]
    want = "x86-64-v4" if V4 <= cpu_c.host_features() else "x86-64-v2"
    assert len(picked) == 1 and f'"cpu": "{want}"' in picked[0]
    r = run("tensorvm.compiler.cli", str(src), "-o", str(out), "--cpu-arch=aarch64",
            "--cpu-features=+sve2")
    assert r.returncode == 1 and "unknown CPU feature '+sve2' for aarch64" in r.stderr


def test_cpuinfo_of_arm_and_riscv_devices_gives_the_flags_variants_name():
    arm = "processor\t: 0\nBogoMIPS\t: 108.00\nFeatures\t: fp asimd evtstrm aes crc32 asimddp\n"
    assert {"asimd", "asimddp"} <= cpu_c.parse_cpuinfo(arm)
    rv = "processor\t: 0\nhart\t\t: 0\nisa\t\t: rv64imafdcv_zba_zbb_zicsr\nmmu\t\t: sv39\n"
    got = cpu_c.parse_cpuinfo(rv)
    assert {"i", "m", "a", "f", "d", "c", "v", "zba", "zbb"} <= got and "sv39" not in got
    need = set(cpu_targets.resolve("riscv64", "generic", "+v,+zba").features)
    assert need <= got and not need <= cpu_c.parse_cpuinfo(rv.replace("cv_", "c_"))
