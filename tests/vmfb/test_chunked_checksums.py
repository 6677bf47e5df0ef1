"""vmfb 1.4: per-chunk CRCs of large rodata, checked range by range, and the
streaming writer (write_module_to with Pieces / FileRange payloads)."""
import io
import struct
import zlib

import msgpack
import numpy as np
import pytest

from tensorvm.vmfb import container
from tensorvm.vmfb.chunks import CHUNK_BYTES, ChunkCrc, RangeCheck
from tensorvm.vmfb.container import read_module, write_module, write_module_to
from tensorvm.vmfb.errors import VmfbError
from tensorvm.vmfb.model import ModuleDef, RodataDef
from tensorvm.vmfb.payload import FileRange, Pieces

BIG = np.arange(5 * CHUNK_BYTES // 4 + 100, dtype=np.uint32)     # 5 chunks and a bit


def _module(data=None) -> ModuleDef:
    m = ModuleDef(name="m")
    m.rodata += [RodataDef("big", BIG if data is None else data), RodataDef("small", b"abc")]
    return m


def _header(blob) -> dict:
    return msgpack.unpackb(blob[64:64 + struct.unpack_from("<Q", blob, 32)[0]])


@pytest.fixture(scope="module")
def blob():
    return write_module(_module())


def test_large_rodata_carries_chunk_crcs(blob):
    assert struct.unpack_from("<HH", blob, 8) == (1, 4)
    big, small = _header(blob)["sections"]
    payload = blob[big["offset"]:big["offset"] + big["length"]]
    assert payload == BIG.tobytes() and big["crc32"] == zlib.crc32(payload)   # 1.3 readers
    assert big["chunk_size"] == CHUNK_BYTES and len(big["chunk_crc32"]) == 4 * 6
    for k in range(6):
        chunk = payload[k * CHUNK_BYTES:(k + 1) * CHUNK_BYTES]
        assert struct.unpack_from("<I", big["chunk_crc32"], 4 * k)[0] == zlib.crc32(chunk)
    assert "chunk_crc32" not in small
    # without a chunked section the writer keeps the lowest minor it needs
    assert struct.unpack_from("<HH", write_module(ModuleDef("m")), 8) == (1, 2)


def test_a_damaged_chunk_fails_only_the_ranges_over_it(blob):
    big = _header(blob)["sections"][0]
    bad = bytearray(blob)
    bad[big["offset"] + 3 * CHUNK_BYTES + 17] ^= 0x40
    m = read_module(bytes(bad))                      # the load checks no constant byte
    check = m.rodata[0].check
    assert isinstance(check, RangeCheck) and not check.complete
    assert check.check(0, 3 * CHUNK_BYTES) is False  # chunks 0-2 are intact
    assert check.check(4 * CHUNK_BYTES, 10) is False
    for _ in range(2):                               # raised every time it is asked for
        with pytest.raises(VmfbError, match=rf"section 0 \(rodata\) checksum mismatch in bytes "
                                            rf"\[{3 * CHUNK_BYTES}, {4 * CHUNK_BYTES}\)"):
            check.check(3 * CHUNK_BYTES + 100, 1)
    with pytest.raises(VmfbError, match="section 0 .* checksum mismatch"):
        m.rodata[0].data                             # noqa: B018  (all of it)
    assert bytes(read_module(bytes(bad), verify_checksums=False).rodata[0].data) == \
        bytes(bad[big["offset"]:big["offset"] + big["length"]])


def test_range_check_counts_each_chunk_once():
    data = memoryview(bytes(range(256)) * 64)                   # 16 KiB, 4 chunks of 4 KiB
    crc = ChunkCrc(4096)
    crc.update(data[:1000])
    crc.update(data[1000:])
    check = RangeCheck(data, "section 9 (rodata)", crc.crc, 4096, crc.chunk_crcs())
    assert check.check(4095, 2) is False             # chunks 0 and 1
    assert check.check(0, 8192) is False             # nothing new
    assert check.check(8192, 8192) is True and check.complete
    assert check.check(5, 5) is True
    whole = RangeCheck(data, "section 9 (rodata)", zlib.crc32(data))   # one chunk
    assert not whole.complete and whole.check(100, 1) is True


@pytest.mark.parametrize("change, message", [
    ({"chunk_size": 3000}, "chunk_size.*out of range"),
    ({"chunk_size": 3 << 12}, "chunk_size: 12288 is not a power of two"),
    ({"chunk_size": 1 << 31}, "chunk_size.*out of range"),
    ({"chunk_crc32": b"\0" * 8}, "chunk_crc32: holds 8 bytes"),
    ({"chunk_crc32": [1, 2]}, "chunk_crc32: expected a bin"),
    ({"chunk_crc32": None, "drop": "chunk_crc32"}, "missing key 'chunk_crc32'"),
    ({"chunk_size": None, "drop": "chunk_size"}, "missing key 'chunk_size'"),
])
def test_malformed_chunk_tables_are_refused(blob, change, message):
    h = _header(blob)
    sec = h["sections"][0]
    drop = change.pop("drop", None)
    sec.update(change)
    if drop:
        del sec[drop]
    packed = msgpack.packb(h, use_bin_type=True)
    start = container._align(64 + len(packed), 64)
    if start != sec["offset"]:
        pytest.skip("the forged header moved the sections")   # (never, at these sizes)
    data = bytearray(blob)
    data[64:start] = packed + bytes(start - 64 - len(packed))
    struct.pack_into("<QI", data, 32, len(packed), zlib.crc32(packed))
    struct.pack_into("<I", data, 60, zlib.crc32(bytes(data[:60])))
    with pytest.raises(VmfbError, match=message):
        read_module(bytes(data))


def test_streamed_payloads_write_the_same_file(blob, tmp_path):
    raw = tmp_path / "weights.bin"
    raw.write_bytes(b"x" * 100 + BIG.tobytes() + b"y" * 7)
    pieces = Pieces.of([BIG[:1000], memoryview(BIG.tobytes())[4000:]])
    generated = Pieces(BIG.nbytes, lambda: (BIG[i:i + 4096] for i in range(0, BIG.size, 4096)))
    for data in (pieces, generated, FileRange(raw, 100, BIG.nbytes)):
        path = tmp_path / "m.vmfb"
        assert write_module_to(_module(data), path) == len(blob)
        assert path.read_bytes() == blob
        out = io.BytesIO()
        write_module_to(_module(data), out)
        assert out.getvalue() == blob


def test_a_payload_that_lies_about_its_length_is_refused():
    for pieces, said in (([b"ab", b"cd"], "hold 4"), ([b"abcdef"], "hold more")):
        with pytest.raises(VmfbError, match=f"declared 5 bytes but its pieces {said}"):
            write_module(_module(Pieces(5, pieces)))
    with pytest.raises(VmfbError, match="lies outside"):
        FileRange(__file__, 10, 1 << 40)
    with pytest.raises(VmfbError, match="bytes-like, Pieces or FileRange"):
        write_module(_module(Pieces(3, [object()])))
