"""docs/isa.md is generated from isa.OPS and must be up to date."""
from pathlib import Path

from tensorvm.vmfb import isa, isa_doc

DOC = Path(__file__).resolve().parents[2] / "docs" / "isa.md"


def test_isa_md_is_up_to_date():
    assert DOC.read_text() == isa_doc.render(), \
        "docs/isa.md is stale: run `python -m tensorvm.vmfb.isa_doc > docs/isa.md`"


def test_every_opcode_is_listed():
    text = isa_doc.render()
    for op in isa.OPS:
        assert f"| 0x{op.code:02x} | `{op.mnemonic}` |" in text
