"""Attack suite for the ELF admission check (docs/security.md, issue 37).

Every object here is built in the test from gcc's output and then patched the
way an attacker would, spliced into a compiled module in place of its CPU
kernels, and loaded with ``runtime.load_module``.  Each must be refused at
load with ``ExecutableRejectedError`` naming the reason, and no marker file
may appear.  Attacks that run code when the system loader maps them are
proven live: after the refusal, the same bytes are ``dlopen``ed by ctypes in
a child process (and ``k`` looked up, as the loader looks up entry points),
and there they do write the marker.  So a test cannot pass
because the exploit itself was broken.

The disguises are those of issue 37: a clean copy of the dynamic table at
PT_DYNAMIC's file offset (what ``readelf`` and the old check read) while the
loader reads the real one at PT_DYNAMIC's address, with the section headers
removed so nothing else points at the real table.
"""
from __future__ import annotations

import os
import platform
import shutil
import struct
import subprocess
import sys

import numpy as np
import pytest

import elf_craft as C
import tensorvm.hal as hal
from tensorvm.compiler import compile_str
from tensorvm.hal.loaders import elf_check
from tensorvm.runtime import load_module
from tensorvm.vmfb import container
from test_trust_model import ADD, KERNEL      # (tests/ is on sys.path: conftest.py)

pytestmark = [
    pytest.mark.skipif(shutil.which(C.CC) is None, reason="no C compiler"),
    pytest.mark.skipif(not sys.platform.startswith("linux") or sys.byteorder != "little"
                       or struct.calcsize("P") != 8,
                       reason="the crafted objects are ELF64 little-endian (Linux)"),
]
SHARED = ("-shared", "-nostartfiles")
#: Another architecture than the host's, for the foreign-machine attack.
FOREIGN = 62 if platform.machine().lower() in ("aarch64", "arm64") else 183


def _writes(marker, attribute="__attribute__((constructor))") -> str:
    """A kernel with a function ``boom`` that creates ``marker``."""
    return KERNEL + ("#include <fcntl.h>\n#include <unistd.h>\n"
                     f"{attribute} void boom(void) {{ int fd = open(\"{marker}\", "
                     "O_CREAT | O_WRONLY, 0600); if (fd >= 0) close(fd); }\n")


def _library(path, marker, soname=None) -> None:
    """A shared library at ``path`` whose constructor creates ``marker``."""
    flags = SHARED + ((f"-Wl,-soname,{soname}",) if soname else ())
    path.write_bytes(C.build(_writes(marker), *flags))


def _hidden(data, *tags):
    """Issue 37's disguise, checked to work: the file's dynamic table (at
    PT_DYNAMIC's file offset) no longer shows ``tags``, there are no section
    headers, and the table at PT_DYNAMIC's address still has them."""
    crafted = C.hide_dynamic(data, drop=tags)
    assert not {t for t, _ in C.dynamic(crafted)} & set(tags)
    assert C.header(crafted)["shnum"] == 0
    return crafted


# Each attack: (tmp_path, marker) -> (object bytes, reason regex, whether the system
# loader runs its code, so the child process must see the marker appear).

def ctor_behind_moved_dynamic(tmp, marker):
    """The exploit of issue 37: a constructor (.init_array) behind a moved PT_DYNAMIC."""
    return (_hidden(C.build(_writes(marker), *SHARED), C.DT_INIT_ARRAY, C.DT_INIT_ARRAYSZ),
            "DT_INIT_ARRAY", True)


def dt_init_behind_moved_dynamic(tmp, marker):
    data = C.build(_writes(marker, ""), *SHARED, "-Wl,-init,boom")
    return _hidden(data, C.DT_INIT), "DT_INIT constructor", True


def preinit_array_behind_moved_dynamic(tmp, marker):
    """glibc runs DT_PREINIT_ARRAY of the object dlopen maps (it is the
    "main map" of that _dl_init), so this is a constructor too."""
    data = C.hide_dynamic(C.build(_writes(marker), *SHARED),
                          retag={C.DT_INIT_ARRAY: C.DT_PREINIT_ARRAY,
                                 C.DT_INIT_ARRAYSZ: C.DT_PREINIT_ARRAYSZ})
    assert not {t for t, _ in C.dynamic(data)} & {C.DT_PREINIT_ARRAY, C.DT_INIT_ARRAY}
    return data, "DT_PREINIT_ARRAY", True


def needed_and_runpath_behind_moved_dynamic(tmp, marker):
    _library(tmp / "libevil.so", marker, soname="libevil.so")
    data = C.build(KERNEL, *SHARED, "-Wl,--no-as-needed", f"-L{tmp}", "-levil",
                   f"-Wl,-rpath,{tmp}")
    return _hidden(data, C.DT_NEEDED, C.DT_RUNPATH, C.DT_RPATH), "DT_RUNPATH", True


def needed_by_path_behind_moved_dynamic(tmp, marker):
    _library(tmp / "evil.so", marker)              # no soname: DT_NEEDED is the path
    data = C.build(KERNEL, *SHARED, "-Wl,--no-as-needed", str(tmp / "evil.so"))
    return _hidden(data, C.DT_NEEDED), "needs library '/.*evil.so'", True


def rpath_to_a_fake_allowed_library_behind_moved_dynamic(tmp, marker):
    """An allowed name (libmvec.so.1) found through a hidden DT_RPATH: the
    library the loader opens is the attacker's."""
    (tmp / "rp").mkdir()
    _library(tmp / "rp" / "libmvec.so.1", marker, soname="libmvec.so.1")
    data = C.build(KERNEL, *SHARED, "-Wl,--no-as-needed", str(tmp / "rp" / "libmvec.so.1"),
                   f"-Wl,--disable-new-dtags,-rpath,{tmp / 'rp'}")
    return _hidden(data, C.DT_RPATH), "DT_RPATH", True


def init_array_section_with_honest_dynamic(tmp, marker):
    return C.build(_writes(marker), *SHARED), "INIT_ARRAY", True


def sections_removed_only(tmp, marker):
    data = bytearray(C.build(KERNEL, *SHARED))
    C.strip_sections(data)
    return bytes(data), "no section headers", False


def moved_dynamic_with_nothing_hidden(tmp, marker):
    data = C.build(KERNEL, *SHARED)
    return C.hide_dynamic(data), "PT_DYNAMIC's file offset .* not where its address", False


def section_view_disagrees(tmp, marker):
    data = bytearray(C.build(KERNEL, *SHARED))
    at, sh = C.sections(data)[".text"]
    sh[4] += 16                                    # .text's file offset, not its address
    C.set_shdr(data, at, sh)
    return bytes(data), "section and program headers disagree", False


def interpreter(tmp, marker):
    data = C.build(_writes(marker) + "int main(void) { return 0; }\n", "-pie", "-fPIE")
    return data, "PT_INTERP", False


def foreign_machine(tmp, marker):
    data = bytearray(C.build(_writes(marker), *SHARED))
    C.set_header(data, machine=FOREIGN)
    return bytes(data), "code for (aarch64|x86_64)", False


def truncated_program_header_table(tmp, marker):
    data = C.build(_writes(marker), *SHARED)
    h = C.header(data)
    return data[:h["phoff"] + 2 * h["phentsize"] + 7], "program header table", False


def program_header_count_past_the_file(tmp, marker):
    data = bytearray(C.build(_writes(marker), *SHARED))
    C.set_header(data, phnum=(len(data) - C.header(data)["phoff"]) // 56 + 1)
    return bytes(data), "program header table", False


def two_dynamic_segments(tmp, marker):
    data = bytearray(C.build(KERNEL, *SHARED))
    at, ph = C.segment(data, C.PT_NOTE)
    _dyn_at, dyn = C.segment(data, C.PT_DYNAMIC)
    C.set_phdr(data, at, dyn)                      # a second PT_DYNAMIC (the loader uses the last)
    return bytes(data), "2 dynamic segments", False


def overlapping_segments(tmp, marker):
    data = bytearray(C.build(KERNEL, *SHARED))
    loads = [(at, ph) for at, ph in C.phdrs(data) if ph[0] == C.PT_LOAD]
    at, ph = loads[1]
    ph[2], ph[3], ph[4] = loads[0][1][2], loads[0][1][3], loads[0][1][4]    # onto segment 0
    C.set_phdr(data, at, ph)
    return bytes(data), "overlaps the previous segment", False


def segment_past_the_file(tmp, marker):
    data = bytearray(C.build(KERNEL, *SHARED))
    at, ph = [(at, ph) for at, ph in C.phdrs(data) if ph[0] == C.PT_LOAD][-1]
    ph[5] = ph[6] = len(data)                      # file bytes beyond the end
    C.set_phdr(data, at, ph)
    return bytes(data), "past its", False


def relocation_outside_the_object(tmp, marker):
    """A relative relocation aimed past the object: glibc writes wherever
    r_offset says (another library's data, say)."""
    data = bytearray(C.build(KERNEL + "static int x; __attribute__((used)) int* p = &x;\n",
                             *SHARED))
    rela = dict(C.dynamic(data))[7]                # DT_RELA
    struct.pack_into("<Q", data, C.file_offset(data, rela), 0x40000000)
    return bytes(data), "relocation writes at address 0x40000000", False


def ifunc_past_dt_hash(tmp, marker):
    """An exported ifunc named like an entry point, with DT_HASH saying there
    is one symbol: glibc looks names up through DT_GNU_HASH, finds it, and
    runs its resolver at ``dlsym``."""
    src = ("#include <stdint.h>\n#include <fcntl.h>\n#include <unistd.h>\n"
           "static int real(void* s, uint32_t b, uint32_t e) { (void)s; (void)b; (void)e; "
           "return 0; }\n"
           f"static void* pick(void) {{ int fd = open(\"{marker}\", O_CREAT | O_WRONLY, 0600); "
           "if (fd >= 0) close(fd); return (void*)real; }\n"
           '__attribute__((visibility("default"))) int k(void*, uint32_t, uint32_t) '
           '__attribute__((ifunc("pick")));\n')
    data = bytearray(C.build(src, *SHARED, "-Wl,--hash-style=both"))
    nchain = C.file_offset(data, dict(C.dynamic(data))[4]) + 4      # DT_HASH's nchain
    struct.pack_into("<I", data, nchain, 1)
    return bytes(data), "STT_GNU_IFUNC", True


def executable_stack(tmp, marker):
    data = bytearray(C.build(KERNEL, *SHARED))
    at, ph = C.segment(data, 0x6474E551)           # PT_GNU_STACK
    ph[1] |= 1                                     # PF_X
    C.set_phdr(data, at, ph)
    return bytes(data), "executable stack", False


ATTACKS = [ctor_behind_moved_dynamic, dt_init_behind_moved_dynamic,
           preinit_array_behind_moved_dynamic, needed_and_runpath_behind_moved_dynamic,
           needed_by_path_behind_moved_dynamic,
           rpath_to_a_fake_allowed_library_behind_moved_dynamic,
           init_array_section_with_honest_dynamic, sections_removed_only,
           moved_dynamic_with_nothing_hidden, section_view_disagrees, interpreter,
           foreign_machine, truncated_program_header_table,
           program_header_count_past_the_file, two_dynamic_segments, overlapping_segments,
           segment_past_the_file, relocation_outside_the_object, ifunc_past_dt_hash,
           executable_stack]


@pytest.fixture(scope="module")
def compiled():
    return compile_str(ADD)


def _splice(vmfb: bytes, data: bytes) -> bytes:
    """``vmfb`` with every CPU variant's code replaced by ``data``."""
    m = container.read_module(vmfb)
    for e in m.executables:
        for v in e.variants:
            if v.format.startswith("cpu-c-"):
                v.data = data
    return container.write_module(m)


def _dlopen_in_child(path) -> subprocess.CompletedProcess:
    """dlopen ``path`` and look up ``k`` (the kernels' entry name), as the loader would."""
    code = f"import ctypes; getattr(ctypes.CDLL({str(path)!r}), 'k', None)"
    return subprocess.run([sys.executable, "-c", code],
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("attack", ATTACKS, ids=[a.__name__ for a in ATTACKS])
def test_crafted_object_is_refused_at_load_and_leaves_no_trace(attack, compiled, tmp_path):
    marker = tmp_path / "marker"
    data, reason, runs = attack(tmp_path, marker)
    with pytest.raises(hal.ExecutableRejectedError, match=reason) as info:
        load_module(_splice(compiled, data), "local-sync", verify="eager")
    assert info.value.executable and info.value.reason and "rejected at load" in str(info.value)
    with pytest.raises(elf_check.ElfRejected, match=reason):
        elf_check.check(data)
    assert not marker.exists()
    if runs:        # the exploit is live: the system loader, unchecked, runs its code
        so = tmp_path / "crafted.so"
        so.write_bytes(data)
        child = _dlopen_in_child(so)
        assert child.returncode == 0, child.stderr
        assert marker.exists(), "the crafted object did not run its code when dlopened"


def test_lazy_load_refuses_at_the_first_dispatch(compiled, tmp_path):
    marker = tmp_path / "marker"
    data, _reason, _runs = ctor_behind_moved_dynamic(tmp_path, marker)
    m = load_module(_splice(compiled, data), "local-sync")
    with pytest.raises(hal.ExecutableRejectedError, match="DT_INIT_ARRAY"):
        m.main(np.ones(4, np.float32), np.ones(4, np.float32))
    assert not marker.exists()


def test_the_compilers_own_modules_still_load(compiled):
    out = load_module(compiled, "local-sync", verify="eager").main(np.ones(4, np.float32),
                                                                  np.ones(4, np.float32))
    np.testing.assert_array_equal(np.asarray(out), np.full(4, 2, np.float32))
