"""The trust model (docs/security.md): what loading refuses before mapping
native code, module pinning, and a dump --extract that stays inside its DIR."""
from __future__ import annotations

import hashlib
import os
import shutil
import struct
import subprocess
import sys
import tempfile

import numpy as np
import pytest

import tensorvm.hal as hal
from tensorvm.compiler import compile_str
from tensorvm.hal.loaders import cpu_c, elf_check, opencl_c
from tensorvm.runtime import load_module
from tensorvm.vmfb import container
from tensorvm.vmfb.errors import IntegrityError

CC = os.environ.get("CC", "cc")
needs_cc = pytest.mark.skipif(shutil.which(CC) is None, reason="no C compiler")
FMT = cpu_c.format_name()
ADD = """
func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %a, %b : tensor<4xf32>
  return %0 : tensor<4xf32>
}
"""
KERNEL = ("#include <stdint.h>\n__attribute__((visibility(\"default\"))) "
          "int k(void* s, uint32_t b, uint32_t e) { (void)s; (void)b; (void)e; return 0; }\n")


def _build(source: str, *flags: str, out="k.so") -> bytes:
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "k.c")
        with open(src, "w") as f:
            f.write(source)
        subprocess.run([CC, "-fPIC", "-O1", src, "-o", os.path.join(d, out), *flags], check=True,
                       capture_output=True, cwd=d)
        with open(os.path.join(d, out), "rb") as f:
            return f.read()


@pytest.fixture(scope="module")
def dev():
    d = hal.create_device("local-sync")
    yield d
    d.close()


def _rejected(dev, data, match):
    with pytest.raises(hal.ExecutableRejectedError, match=match) as info:
        dev.load_executable("evil", FMT, data, ["k"], {})
    assert info.value.executable == "evil" and info.value.reason
    assert "executable 'evil'" in str(info.value)


@needs_cc
def test_our_modules_pass_the_check_and_run():
    data = compile_str(ADD)
    m = container.read_module(data)
    for e in m.executables:
        for v in e.variants:
            elf_check.check(v.data)          # no constructors, only allowed libraries
    out = load_module(data, "local-sync").main(np.ones(4, np.float32), np.ones(4, np.float32))
    np.testing.assert_array_equal(np.asarray(out), np.full(4, 2, np.float32))


@needs_cc
def test_constructor_is_refused_before_it_runs(dev, tmp_path):
    marker = tmp_path / "ran"
    src = KERNEL + ("#include <fcntl.h>\n__attribute__((constructor)) static void boom(void) "
                    f"{{ open(\"{marker}\", O_CREAT | O_WRONLY, 0600); }}\n")
    _rejected(dev, _build(src, "-shared", "-nostartfiles"), "init_array|INIT_ARRAY")
    # GCC's default startfiles add frame_dummy to .init_array: refused too.
    _rejected(dev, _build(KERNEL, "-shared"), "init|INIT")
    assert not marker.exists()


@needs_cc
def test_disallowed_library_rpath_interpreter_and_ifunc_are_refused(dev, tmp_path):
    lib = tmp_path / "libevil.so"
    lib.write_bytes(_build("int g(void) { return 1; }\n", "-shared", "-nostartfiles"))
    _rejected(dev, _build(KERNEL, "-shared", "-nostartfiles", "-Wl,--no-as-needed",
                          f"-L{tmp_path}", "-levil"), "needs library 'libevil.so'")
    _rejected(dev, _build(KERNEL, "-shared", "-nostartfiles", f"-Wl,-rpath,{tmp_path}"),
              "RUNPATH|RPATH")
    _rejected(dev, _build(KERNEL + "int main(void) { return 0; }\n", "-pie", "-fPIE"),
              "interpreter")
    ifunc = KERNEL + ("static int r(void) { return 0; }\nstatic void* pick(void) { return (void*)r; }\n"
                      "__attribute__((visibility(\"default\"))) int f(void) __attribute__((ifunc(\"pick\")));\n")
    _rejected(dev, _build(ifunc, "-shared", "-nostartfiles"), "IFUNC")


@needs_cc
def test_wrong_class_machine_and_garbage_are_refused(dev):
    good = _build(KERNEL, "-shared", "-nostartfiles")
    elf_check.check(good)
    _rejected(dev, b"\x7fELF" + bytes([1 if good[4] == 2 else 2]) + good[5:], "ELF class")
    machine = bytearray(good)
    struct.pack_into("<H", machine, 18, 0x28 if good[18] != 0x28 else 0x3E)
    _rejected(dev, bytes(machine), "ELF machine")
    _rejected(dev, b"junk", "not an ELF object")
    for cut in (20, 64, 200, len(good) // 2):       # truncations: a typed refusal, never a crash
        _rejected(dev, good[:cut], rf"rejected at load: truncated ELF object: .* its {cut} bytes$")


def test_opencl_include_is_refused():
    ok = "__kernel void k(__global float* x) { x[0] = 1.0f; }\n#pragma OPENCL EXTENSION x : enable\n"
    opencl_c.check_source("k", ok)
    for bad in ("#include \"/etc/passwd\"\n", "  #  include <x.h>\n", "#/* c */include <x>\n",
                "%:include <x>\n", "#\\\ninclude <x>\n", "#import <x>\n"):
        with pytest.raises(hal.ExecutableRejectedError, match="includes another file"):
            opencl_c.check_source("k", ok + bad)


@needs_cc
def test_expected_sha256_pins_the_module(tmp_path):
    data = compile_str(ADD)
    digest = hashlib.sha256(data).hexdigest()
    path = tmp_path / "m.vmfb"
    path.write_bytes(data)
    assert load_module(str(path), "local-sync", expected_sha256=digest).main is not None
    assert load_module(data, "local-sync", expected_sha256=digest.upper()).main is not None
    with pytest.raises(IntegrityError, match=f"expected {'0' * 64}"):
        load_module(str(path), "local-sync", expected_sha256="0" * 64)
    with pytest.raises(ValueError, match="64 hex digits"):
        load_module(data, "local-sync", expected_sha256="abc")
    with pytest.raises(ValueError, match="ModuleDef"):
        load_module(container.read_module(data), "local-sync", expected_sha256=digest)


def _dump(*args):
    return subprocess.run([sys.executable, "-m", "tensorvm.runtime.cli.dump", *args],
                          capture_output=True, text=True, timeout=120)


@needs_cc
def test_dump_prints_digests_and_extract_stays_inside_dir(tmp_path):
    m = container.read_module(compile_str(ADD))
    variant = m.executables[0].variants[0]
    m.executables = [type(m.executables[0])(n, [variant])
                     for n in ("../../escape", "/abs/escape", "..", "sub/../../x", "link")]
    path = tmp_path / "hostile.vmfb"
    path.write_bytes(container.write_module(m))
    out = tmp_path / "out"
    out.mkdir()
    victim = tmp_path / "victim"
    victim.write_text("keep")
    link = out / f"link_0_{variant.format}.so"
    os.symlink(victim, link)
    r = _dump(str(path), "--no-disassembly", "--extract", str(out))
    assert r.returncode == 1 and "never overwritten" in r.stderr
    assert victim.read_text() == "keep"                 # the planted link was not followed
    out = tmp_path / "fresh"                             # created by the tool
    r = _dump(str(path), "--no-disassembly", "--extract", str(out))
    assert r.returncode == 0, r.stderr
    assert f"sha256 {hashlib.sha256(path.read_bytes()).hexdigest()}" in r.stdout
    assert f"sha256 {hashlib.sha256(variant.data).hexdigest()}" in r.stdout
    files = sorted(p.name for p in out.iterdir())
    assert len(files) == 5 and all(not f.startswith(".") and "/" not in f for f in files)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fresh", "hostile.vmfb", "out", "victim"]
    assert not os.path.exists("/abs/escape")


@needs_cc
def test_elf_check_only_ever_rejects_damaged_objects():
    good = _build(KERNEL + "#include <math.h>\nfloat g(float x) { return expf(x); }\n",
                  "-shared", "-nostartfiles", "-lm")
    rng = __import__("random").Random(5)
    verdicts = {"ok": 0, "rejected": 0}
    for _ in range(3000):
        data = bytearray(good)
        for _ in range(rng.choice((1, 2, 4))):
            pos = rng.randrange(min(len(data), 4096) if rng.random() < 0.8 else len(data))
            data[pos] = rng.choice((0, 0xFF, 0x7F, rng.randrange(256)))
        try:
            elf_check.check(bytes(data))         # anything else escaping is a bug
            verdicts["ok"] += 1
        except elf_check.ElfRejected:
            verdicts["rejected"] += 1
    assert verdicts["rejected"] > 100 and verdicts["ok"] > 100


def test_names_with_nul_are_refused():
    from tensorvm.vmfb.errors import VmfbError
    m = container.read_module(compile_str(ADD))
    m.functions[0].name = "ma\0in"
    with pytest.raises(VmfbError, match="contains a NUL"):
        container.read_module(container.write_module(m))
