"""Host programs are built in memory (vmfb.builder); their disassembly is
still assembly that the text assembler turns back into the same functions."""
from pathlib import Path

import pytest

from tensorvm.compiler.api import CompileOptions, compile_text
from tensorvm.vmfb.assembler import assemble
from tensorvm.vmfb.model import ModuleDef

MODELS = Path(__file__).resolve().parents[2] / "benchmarks" / "models"
_DECLARATIONS = ("module ", "import ", "global ", "rodata ", "string ", ";")


@pytest.mark.parametrize("name", ["flax_cnn_static", "gru", "flax_cnn_dyn"])
def test_disassembly_assembles_back_to_the_built_functions(name):
    """Static (recorded command buffer), loop and dynamic-shape host code."""
    res = compile_text((MODELS / f"{name}.mlir").read_text(),
                       CompileOptions(targets=("cpu",), keep_source=True))
    built = res.module
    # The dump elides rodata: assemble its function bodies against the built
    # module's tables (imports, globals, rodata, executables, strings).
    body = "\n".join(line for line in res.stats["vm_assembly"].splitlines()
                     if not line.startswith(_DECLARATIONS))
    base = ModuleDef(name=built.name, imports=list(built.imports), globals=list(built.globals),
                     rodata=list(built.rodata), executables=list(built.executables),
                     strings=list(built.strings))
    again = assemble(body, base=base)
    assert [f.name for f in again.functions] == [f.name for f in built.functions]
    for a, b in zip(again.functions, built.functions):
        assert (a.signature, a.exported, a.registers) == (b.signature, b.exported, b.registers)
        assert bytes(a.code) == bytes(b.code), a.name
    assert again.strings == built.strings
