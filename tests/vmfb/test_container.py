"""Container v1: round trip, zero copy, and damage of every kind -> VmfbError."""
import random
import struct
import zlib

import msgpack
import numpy as np
import pytest

from tensorvm.vmfb import container
from tensorvm.vmfb.assembler import assemble
from tensorvm.vmfb.container import read_module, write_module
from tensorvm.vmfb.errors import VmfbError
from tensorvm.vmfb.model import EntryPoint, ExecutableDef, ExecutableVariant, ModuleDef

TEXT = """
module @sample version 2 requirements {"dtypes": ["f32", "i64"], "features": ["dyn"]}
import @hal.device.get() -> (r)
global @count : i64 = -5
global @scale : f64 = 2.5
global @dev : ref
rodata @weights = hex"0000803f000000400000404000008040"
rodata @odd = hex"ff" align 256
func @main(%x: ref) -> (ref) export reflection {"args": [{"name": "x", "dtype": "f32", "shape": [2, "?"]}], "results": []} {
  %d = call.import @hal.device.get()
  %e = const.ref.executable @kern
  fail %z, "never"
  ret %x
}
func @helper() -> () {
  ret
}
"""


def sample() -> ModuleDef:
    exe = ExecutableDef("kern", [
        ExecutableVariant("cpu-c-x86_64", {"triple": "x86_64-linux-gnu", "features": ["avx2"]},
                          [EntryPoint("k0", 3, 2), EntryPoint("k1", 1, 0)], b"\x7fELF" + bytes(100)),
        ExecutableVariant("opencl-c", {}, [EntryPoint("k0", 3, 2)], b"__kernel void k0() {}"),
    ])
    return assemble(TEXT.replace("fail %z", "%z = const.i32 0\n  fail %z"),
                    base=ModuleDef("x", executables=[exe]))


def _plain(m: ModuleDef):
    """Comparable form: every memoryview turned into bytes."""
    def conv(o):
        if isinstance(o, (bytes, memoryview)):
            return bytes(o)
        if isinstance(o, list):
            return [conv(x) for x in o]
        if isinstance(o, dict):
            return {k: conv(v) for k, v in o.items()}
        if hasattr(o, "__dataclass_fields__"):
            return (type(o).__name__, {k: conv(getattr(o, k)) for k in o.__dataclass_fields__})
        return o
    return conv(m)


@pytest.fixture(scope="module")
def blob():
    return write_module(sample())


def test_round_trip(blob, tmp_path):
    m = read_module(blob)
    assert _plain(m) == _plain(sample())
    assert isinstance(m.rodata[0].data, memoryview) and m.rodata[0].data.readonly
    assert isinstance(m.functions[0].code, memoryview)
    assert write_module(m) == blob                       # deterministic
    path = tmp_path / "m.vmfb"
    path.write_bytes(blob)
    assert _plain(read_module(path)) == _plain(m) == _plain(read_module(str(path)))
    assert _plain(read_module(bytearray(blob))) == _plain(m)


def test_layout_alignment(blob):
    hdr = msgpack.unpackb(blob[64:64 + struct.unpack_from("<Q", blob, 32)[0]])
    for s in hdr["sections"]:
        assert s["offset"] % 64 == 0
    odd = hdr["sections"][hdr["rodata"][1]["section"]]
    assert odd["offset"] % 256 == 0 and blob[odd["offset"]] == 0xFF
    assert blob[:8] == container.MAGIC and len(blob) == struct.unpack_from("<Q", blob, 16)[0]


def test_zero_copy_from_mmap(blob, tmp_path):
    path = tmp_path / "m.vmfb"
    path.write_bytes(blob)
    m = read_module(path)
    data = m.rodata[0].data
    arr = np.frombuffer(data, dtype=np.float32)
    assert arr.tolist() == [1.0, 2.0, 3.0, 4.0]
    whole = np.frombuffer(data.obj, dtype=np.uint8)       # the mmap itself
    assert np.shares_memory(arr, whole)
    assert not arr.flags.writeable
    del whole, arr
    import gc
    gc.collect()
    assert bytes(m.executables[0].variants[1].data) == b"__kernel void k0() {}"


def test_empty_module_and_empty_file(tmp_path):
    m = read_module(write_module(ModuleDef("empty")))
    assert m.name == "empty" and m.functions == []
    p = tmp_path / "empty.vmfb"
    p.write_bytes(b"")
    with pytest.raises(VmfbError, match="empty"):
        read_module(p)


def _read_everything(data):
    """read_module, then every payload and packed field it defers (each
    section's CRC is checked at its first read)."""
    m = read_module(data)
    for f in m.functions:
        f.code, f.reflection                              # noqa: B018
    for r in m.rodata:
        r.data                                            # noqa: B018
    for e in m.executables:
        for v in e.variants:
            v.data, v.entry_points                        # noqa: B018
    return m


def _expect_clean(data):
    """Reading must succeed or raise VmfbError, nothing else."""
    try:
        _read_everything(data)
        return True
    except VmfbError:
        return False


def test_payload_checksums_are_checked_at_first_read(blob):
    """A damaged payload does not fail the read (a load pays nothing per byte
    of code it does not run); its first read raises, naming the section."""
    hdr = msgpack.unpackb(blob[64:64 + struct.unpack_from("<Q", blob, 32)[0]])
    for i, sec in enumerate(hdr["sections"]):
        if not sec["length"]:
            continue
        bad = bytearray(blob)
        bad[sec["offset"]] ^= 0x10
        m = read_module(bytes(bad))
        with pytest.raises(VmfbError, match=rf"section {i} \({sec['kind']}\) checksum mismatch"):
            _read_everything(bytes(bad))
        assert read_module(bytes(bad), verify_checksums=False) is not None
        del m


def test_truncation_everywhere(blob):
    for n in sorted(set(range(0, 80)) | set(range(0, len(blob), 7))):
        with pytest.raises(VmfbError, match="truncated|magic"):
            read_module(blob[:n])
    with pytest.raises(VmfbError, match="trailing"):
        read_module(blob + b"\0")


def test_bit_flips_everywhere(blob):
    used = bytearray(len(blob))            # 1 where a byte is covered by a checksum
    used[:64] = b"\1" * 64
    h_len = struct.unpack_from("<Q", blob, 32)[0]
    used[64:64 + h_len] = b"\1" * h_len
    hdr = msgpack.unpackb(blob[64:64 + h_len])
    for s in hdr["sections"]:
        used[s["offset"]:s["offset"] + s["length"]] = b"\1" * s["length"]
    rng = random.Random(0)
    for pos in range(len(blob)):
        bad = bytearray(blob)
        bad[pos] ^= 1 << rng.randrange(8)
        ok = _expect_clean(bytes(bad))
        assert ok == (not used[pos]), f"flip at byte {pos}"


def test_random_bytes_and_magic_only():
    rng = random.Random(2)
    for n in (0, 1, 8, 63, 64, 65, 200, 1000):
        for _ in range(20):
            assert not _expect_clean(bytes(rng.randrange(256) for _ in range(n)))
        junk = container.MAGIC + struct.pack("<HH", 1, 0) + bytes(rng.randrange(256) for _ in range(n))
        assert not _expect_clean(junk)


def test_wrong_version(blob):
    bad = bytearray(blob)
    struct.pack_into("<HH", bad, 8, 2, 0)
    with pytest.raises(VmfbError, match="unsupported vmfb format version 2.0"):
        read_module(bytes(bad))
    with pytest.raises(VmfbError, match="bad magic"):
        read_module(b"PK\3\4" + blob[4:])


def forge(hdr, payloads=(), raw_header=None, relayout=True):
    """A file with a valid prefix and CRCs around an arbitrary header."""
    payloads = list(payloads)
    for _ in range(4):
        packed = raw_header if raw_header is not None else msgpack.packb(hdr)
        pos = (64 + len(packed) + 63) // 64 * 64
        if not relayout or raw_header is not None:
            break
        for s, p in zip(hdr.get("sections", []), payloads):
            s.update(offset=pos, length=len(p), crc32=zlib.crc32(p))
            pos = (pos + len(p) + 255) // 256 * 256
    body = bytearray((64 + len(packed) + 63) // 64 * 64)
    body[64:64 + len(packed)] = packed
    if relayout and raw_header is None:
        for s, p in zip(hdr.get("sections", []), payloads):
            body.extend(bytes(s["offset"] - len(body)))
            body.extend(p)
    prefix = struct.pack("<8sHHIQQQI16s", container.MAGIC, 1, 0, 0, len(body), 64,
                         len(packed), zlib.crc32(packed), bytes(16))
    body[:64] = prefix + struct.pack("<I", zlib.crc32(prefix))
    return bytes(body)


def _good_header(blob, packed_entry_points=False):
    """``blob``'s header and payloads; its variants' entry points as a plain
    list (the 1.1 form, checked when the file is read) unless
    ``packed_entry_points`` (the 1.2 form the writer uses)."""
    h_len = struct.unpack_from("<Q", blob, 32)[0]
    hdr = msgpack.unpackb(blob[64:64 + h_len])
    payloads = [blob[s["offset"]:s["offset"] + s["length"]] for s in hdr["sections"]]
    if not packed_entry_points:
        for e in hdr["executables"]:
            for v in e["variants"]:
                v["entry_points"] = msgpack.unpackb(v.pop("entry_points_packed"))
    return hdr, payloads


def test_forge_helper_matches_spec(blob):
    hdr, payloads = _good_header(blob)
    assert _plain(read_module(forge(hdr, payloads))) == _plain(read_module(blob))


def _entry(h) -> dict:
    return h["executables"][0]["variants"][0]["entry_points"][0]


def _entry_points(h, *changes):
    """Give the first executable variant one entry point per ``changes`` (each
    a well-formed ``k`` entry with those fields replaced)."""
    h["executables"][0]["variants"][0]["entry_points"] = [
        dict({"name": "k", "bindings": 1, "constants": 0}, **c) for c in changes]


HOSTILE = [
    (lambda h: h.update(name=5), "name: expected a string"),
    (lambda h: h.update(functions="x"), "functions: expected an array"),
    (lambda h: h.pop("strings"), "missing key 'strings'"),
    (lambda h: h["functions"][0].update(code=99), r"functions\[0\].code: section index 99"),
    (lambda h: h["functions"][0].update(code="0"), r"functions\[0\].code: expected an integer"),
    (lambda h: h["functions"][0].update(code=True), "expected an integer, got bool"),
    (lambda h: h["functions"][0].update(code=h["rodata"][0]["section"]), "expected 'bytecode'"),
    (lambda h: h["functions"][0].update(signature="r->*r"), "variadic"),
    (lambda h: h["functions"][0].update(name="helper"), "appears twice"),
    (lambda h: h["functions"][0]["registers"].update(i32=10**6), "out of range"),
    (lambda h: h["functions"][0]["registers"].update(q8=1), "unknown bank"),
    (lambda h: h["functions"][0].update(reflection={"args": [{"shape": ["x"]}]},
                                        reflection_packed=None), "shape"),      # a 1.0 header
    (lambda h: h["functions"][0].update(reflection={}), "both reflection and reflection_packed"),
    (lambda h: h["functions"][0].update(reflection_packed="x"), "expected a bin"),
    (lambda h: h["globals"][0].update(initial="x"), r"globals\[0\].initial"),
    (lambda h: h["globals"][0].update(bank="i32", initial=2**40), "out of range"),
    (lambda h: h["globals"][2].update(initial=1), "ref globals"),
    (lambda h: h["globals"][2].update(initial={"call": 0}), "missing key 'args'"),
    (lambda h: h["globals"][2].update(initial={"call": -1, "args": []}), "out of range"),
    (lambda h: h["globals"][2].update(initial={"call": 0, "args": [["reg", 0]]}),
     "operand kind 'reg'"),
    (lambda h: h["globals"][2].update(initial={"call": 0, "args": [["rodata"]]}),
     r"args\[0\]: must be \[kind, index\]"),
    (lambda h: h["rodata"][0].update(alignment=48), "power of two"),
    (lambda h: h["rodata"][0].update(alignment=2**40), "out of range"),
    (lambda h: h["executables"][0]["variants"][0].update(entry_points=[{"name": "k"}]),
     "missing key 'bindings'"),
    (lambda h: _entry_points(h, {}, {}), "appears twice"),
    (lambda h: _entry_points(h, {"bindings": True}), "expected an integer, got bool"),
    (lambda h: _entry_points(h, {"bindings": 2, "binding_bytes": [4]}), "1 entries for 2"),
    (lambda h: _entry_points(h, {"binding_bytes": [-1]}), r"binding_bytes\[0\].*out of range"),
    (lambda h: _entry_points(h, {"workgroups": -1}), "workgroups: -1 is out of range"),
    (lambda h: _entry_points(h, {"loop_stats": 1}), "loop_stats: must be a bool"),
    (lambda h: _entry_points(h, {"constants": 2**17}), "constants: 131072 is out of range"),
    (lambda h: _entry_points(h, {"name": "k\0"}), "NUL"),
    (lambda h: _entry_points(h, {"name": 3}), r"entry_points\[0\].name: expected a string"),
    (lambda h: h["executables"][0]["variants"][0]["target"].update(features=[1]), "features"),
    (lambda h: _entry(h).update(binding_shapes=[None]), "binding_shapes: has 1 entries"),
    (lambda h: _entry(h).update(binding_shapes=[[4, [["$0", "**"]]]] * _entry(h)["bindings"]),
     "token '\\*\\*' is not an int"),
    (lambda h: _entry(h).update(binding_shapes=[[4, [[]]]] * _entry(h)["bindings"]),
     "1..64 tokens"),
    (lambda h: _entry(h).update(binding_shapes=[[4]] * _entry(h)["bindings"]),
     r"must be \[static bytes, \[dims\]\]"),
    (lambda h: h["sections"][0].update(kind=5), r"sections\[0\].kind"),
    (lambda h: h["sections"].append({"offset": 0}), "missing key 'length'"),
    (lambda h: h["requirements"].update(dtypes="f32"), "requirements.dtypes"),
    (lambda h: h.update(strings=[b"bytes"]), r"strings\[0\]"),
    (lambda h: h.clear(), "missing key"),
]


@pytest.mark.parametrize("mutate, message", HOSTILE)
def test_hostile_headers(blob, mutate, message):
    hdr, payloads = _good_header(blob)
    mutate(hdr)
    with pytest.raises(VmfbError, match=message):
        read_module(forge(hdr, payloads))


@pytest.mark.parametrize("raw, message", [
    (b"\x93\x01", "malformed msgpack"),                         # array cut short
    (b"\xdd\xff\xff\xff\xff", "malformed msgpack"),             # 4 G-element array
    (b"\xdb\xff\xff\xff\xff", "malformed msgpack"),             # 4 GiB string
    (b"\x91" * 5000 + b"\xc0", "malformed msgpack"),            # nesting bomb
    (b"\x81\x01\x02", "malformed msgpack"),                     # int map key
    (b"\xd4\x01\x00", "malformed msgpack"),                     # ext type
    (b"\xa2\xff\xfe", "malformed msgpack"),                     # invalid utf-8
    (b"\x80\x80", "after the value"),                           # trailing data
    (b"\x92\x01\x02", "expected a map"),
    (b"", "malformed msgpack"),
])
def test_malformed_msgpack(raw, message):
    with pytest.raises(VmfbError, match=message):
        read_module(forge(None, raw_header=raw))


def test_section_layout_defects(blob):
    hdr, payloads = _good_header(blob)
    good = forge(hdr, payloads)
    hdr2 = msgpack.unpackb(good[64:64 + struct.unpack_from("<Q", good, 32)[0]])
    s0, s1 = hdr2["sections"][:2]
    cases = [
        (dict(offset=s0["offset"] + 8), "not aligned"),
        (dict(offset=0), "fixed prefix .* overlaps"),
        (dict(offset=64), "msgpack header .* overlaps"),
        (dict(length=10**9), "runs past the end"),
        (dict(offset=s1["offset"]), "overlaps section 1"),
        (dict(crc32=-1), r"sections\[0\].crc32: -1 is out of range"),
        (dict(offset="0"), r"sections\[0\].offset: expected an integer"),
    ]
    for change, message in cases:
        h = msgpack.unpackb(msgpack.packb(hdr2))
        h["sections"][0].update(change)
        data = bytearray(forge(h, raw_header=None, relayout=False))
        data.extend(good[len(data):])
        struct.pack_into("<Q", data, 16, len(data))
        struct.pack_into("<I", data, 60, zlib.crc32(bytes(data[:60])))
        with pytest.raises(VmfbError, match=message):
            read_module(bytes(data))


def test_checksums_can_be_skipped(blob):
    hdr, _ = _good_header(blob)
    s = hdr["sections"][0]
    bad = bytearray(blob)
    bad[s["offset"]] ^= 0xFF
    with pytest.raises(VmfbError, match="section 0 .* checksum mismatch"):
        read_module(bytes(bad)).functions[0].code      # noqa: B018
    m = read_module(bytes(bad), verify_checksums=False)
    assert bytes(m.functions[0].code)[0] == blob[s["offset"]] ^ 0xFF


def test_writer_rejects_bad_modules():
    with pytest.raises(VmfbError, match="name"):
        write_module(ModuleDef(name=3))
    m = sample()
    m.rodata[0].data = "not bytes"
    with pytest.raises(VmfbError, match="bytes-like"):
        write_module(m)


def test_docs_worked_example_matches_writer():
    """docs/vmfb.md section 8 shows the exact bytes of an empty module."""
    from pathlib import Path
    doc = (Path(__file__).resolve().parents[2] / "docs" / "vmfb.md").read_text()
    example = doc.split("## 8. Worked example")[1].split("```")[1]
    hexed = "".join(line[6:54] for line in example.strip().splitlines())
    assert bytes.fromhex(hexed) == write_module(ModuleDef("m"))
    assert zlib.crc32(b"123456789") == 0xCBF43926


@pytest.mark.parametrize("packed, message", [
    (b"\xc1", "malformed msgpack"),
    (msgpack.packb({"args": [{"shape": ["x"]}]}), r"reflection_packed.args\[0\].shape\[0\]"),
    (msgpack.packb({"args": "x"}), "expected an array"),
    (msgpack.packb(None), "is nil"),
    (msgpack.packb({}) + b"\x00", "bytes after the value"),
])
def test_packed_reflection_is_checked_when_first_read(blob, packed, message):
    """A 1.1 header keeps each reflection as its own msgpack value in a bin:
    reading the file skips it, the first read of ``reflection`` decodes and
    checks it (VmfbError naming the field)."""
    hdr, payloads = _good_header(blob)
    assert hdr["functions"][0]["reflection_packed"] is not None
    hdr["functions"][0]["reflection_packed"] = packed
    fn = read_module(forge(hdr, payloads)).functions[0]
    assert not fn.reflection_loaded
    with pytest.raises(VmfbError, match=message):
        fn.reflection


def test_one_zero_headers_still_read(blob):
    """A 1.0 file (reflection as a map in the header) reads the same."""
    hdr, payloads = _good_header(blob)
    f = hdr["functions"][0]
    f["reflection"] = msgpack.unpackb(f.pop("reflection_packed"))
    old = read_module(forge(hdr, payloads)).functions[0]
    assert old.reflection_loaded and old.reflection == read_module(blob).functions[0].reflection


@pytest.mark.parametrize("packed, message", [
    (b"\xc1", "malformed msgpack"),
    (msgpack.packb([{"name": "k"}]), r"entry_points_packed\[0\]: missing key 'bindings'"),
    (msgpack.packb([{"name": "k", "bindings": 1, "constants": 0}] * 2), "appears twice"),
    (msgpack.packb({"name": "k"}), "expected an array"),
    (msgpack.packb([]) + b"\x00", "bytes after the value"),
])
def test_packed_entry_points_are_checked_when_first_read(blob, packed, message):
    """A 1.2 header keeps each variant's entry points as one msgpack value in
    a bin: reading the file skips them, the executable's first load decodes
    and checks them (VmfbError naming the field)."""
    hdr, payloads = _good_header(blob, packed_entry_points=True)
    v = hdr["executables"][0]["variants"][0]
    assert "entry_points" not in v and v["entry_points_packed"]
    v["entry_points_packed"] = packed
    variant = read_module(forge(hdr, payloads)).executables[0].variants[0]
    assert not variant.entry_points_loaded
    with pytest.raises(VmfbError, match=message):
        variant.entry_points


@pytest.mark.parametrize("mutate, message", [
    (lambda v: v.update(entry_points=[]), "both entry_points and entry_points_packed"),
    (lambda v: v.pop("entry_points_packed"), "missing key 'entry_points'"),
    (lambda v: v.update(entry_points_packed="x"), "entry_points_packed: expected a bin"),
])
def test_packed_entry_points_header_shape(blob, mutate, message):
    hdr, payloads = _good_header(blob, packed_entry_points=True)
    mutate(hdr["executables"][0]["variants"][0])
    with pytest.raises(VmfbError, match=message):
        read_module(forge(hdr, payloads))
