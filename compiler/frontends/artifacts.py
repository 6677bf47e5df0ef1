"""Serialised StableHLO in: the bytes ``jax.export`` writes, as MLIR text.

Three forms are recognised by their first bytes, not their file names:
- MLIR bytecode (``ML\\xefR``): a StableHLO portable artifact (VHLO, what
  ``Exported.mlir_module_serialized`` and ``stablehlo.serialize_portable_artifact``
  write), read natively (compiler/mlir/vhlo.py: its constants stay views of
  the input, no text copy, no jaxlib); plain MLIR bytecode of a StableHLO
  module, or VHLO the native reader does not know, goes through jaxlib
  (when installed: deserialised and printed as text, said in a warning);
- a whole serialised ``jax.export.Exported`` (``exp.serialize()``), whose
  argument/result pytrees are kept as the module's reflection;
- UTF-8 MLIR text, returned as it is;
- a zip archive that is a Keras 3 ``.keras`` model (compiled for its declared
  inputs, an unknown batch dim symbolic) or a ``torch.export.save`` ``.pt2``
  program (its own shapes and dynamic dims), through those frontends.
The jaxlib path needs its StableHLO bindings (imported here, lazily); the
text parser that follows is tensorvm's own (compiler/mlir/).
"""
from __future__ import annotations

import os
import warnings

from .common import FrontendError, describe_treedef, require

MLIR_BYTECODE_MAGIC = b"ML\xefR"


def read_artifact(data: bytes, filename: str = "<input>") -> tuple:
    """(parser input, reflection extras for ``main``) of the serialised module
    ``data``: the input is MLIR text, or for bytecode the native reader's
    ``source.Source`` skeleton."""
    if bytes(data[:4]) == MLIR_BYTECODE_MAGIC:
        return read_bytecode(data, filename), {}
    data = bytes(data)
    if data.startswith(b"PK\x03\x04"):
        return _zip_model(data, filename)
    try:
        return data.decode("utf-8"), {}
    except UnicodeDecodeError:
        pass
    return _jax_exported(data, filename)


def open_artifact(path, filename: str | None = None) -> tuple:
    """(MLIR input, reflection extras) of the file at ``path``.  MLIR text comes
    back as a read-only mmap of the file, which the parser reads in place
    (compiler/mlir/source.py), so a model's text is never copied into
    memory whole; MLIR bytecode is read from an mmap too, its constants left
    as views of it; other forms are read and converted by ``read_artifact``."""
    import mmap
    filename = filename or os.fspath(path)
    with open(path, "rb") as f:
        head = f.read(4096)
        if _looks_like_text(head) and os.fstat(f.fileno()).st_size > len(head):
            return mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ), {}
        if head.startswith(MLIR_BYTECODE_MAGIC):
            return read_bytecode(mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ),
                                 filename), {}
        f.seek(0)
        data = f.read()
    return read_artifact(data, filename)


def _looks_like_text(head: bytes) -> bool:
    """MLIR text: no NUL byte, valid UTF-8 (a character cut at the end aside),
    no bytecode or zip magic.  (A binary file that passes is refused by the
    parser as not UTF-8 text, naming the line.)"""
    if b"\0" in head or head.startswith((MLIR_BYTECODE_MAGIC, b"PK\x03\x04")):
        return False
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as e:
        return e.start >= len(head) - 3
    return True


def _zip_model(data: bytes, filename: str) -> tuple[str, dict]:
    """A ``.keras`` or ``.pt2`` archive, told apart by the files inside."""
    import io
    import os
    import tempfile
    import zipfile
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        names = z.namelist()
    if "config.json" in names and any(n.endswith(".weights.h5") for n in names):
        from .from_keras import export_keras
        with tempfile.TemporaryDirectory() as d:    # keras loads .keras files by path
            path = os.path.join(d, "model.keras")
            with open(path, "wb") as f:
                f.write(data)
            exp = export_keras(path)
    elif any(n.endswith("archive_format") or "serialized_exported_program" in n or
             n.endswith("models/model.json") for n in names):
        torch = require("torch", "torch")
        from .from_torch import export_program
        try:
            ep = torch.export.load(io.BytesIO(data))
        except Exception as e:  # noqa: BLE001 - torch raises many kinds
            raise FrontendError(f"{filename}: not a torch.export program: {e}") from None
        exp = export_program(ep, os.path.splitext(os.path.basename(filename))[0] or "program")
    else:
        raise FrontendError(f"{filename}: a zip archive that is neither a Keras .keras model "
                            f"nor a torch.export .pt2 program (holds {names[:5]})")
    return exp.mlir, exp.reflection


def read_bytecode(data, filename: str = "<input>"):
    """The parser's input for MLIR bytecode ``data`` (bytes or an mmap): the
    native reader's skeleton (``source.Source``) when it knows every
    encoding, else jaxlib's text (a warning says why; without jaxlib, the
    native reader's error)."""
    from ..mlir.bytecode import BytecodeError
    from ..mlir.vhlo import read_portable_artifact
    try:
        return read_portable_artifact(data, filename)
    except BytecodeError as native:
        try:
            require("jaxlib", "flax")
        except FrontendError:
            raise native from None
        warnings.warn(f"{native}; reading it through jaxlib instead (a text copy of the "
                      "module)", stacklevel=2)
        try:
            return bytecode_to_text(bytes(data), filename)
        except FrontendError as e:
            raise FrontendError(f"{e} (native reader: {native})") from None


def bytecode_to_text(data: bytes, filename: str = "<input>") -> str:
    """MLIR bytecode (VHLO portable artifact or plain StableHLO) printed as text."""
    require("jaxlib", "flax")
    from jaxlib.mlir import ir
    from jaxlib.mlir.dialects import chlo, stablehlo
    try:            # jax's context knows func/sdy/mhlo too (plain bytecode needs them)
        from jax._src.interpreters.mlir import make_ir_context
        ctx = make_ir_context()
    except ImportError:
        ctx = ir.Context()
        stablehlo.register_dialect(ctx)
        chlo.register_dialect(ctx)
    with ctx:
        try:
            module = stablehlo.deserialize_portable_artifact(ctx, data)
        except Exception as portable:   # noqa: BLE001 - jaxlib raises plain errors
            try:
                module = ir.Module.parse(data)
            except Exception as plain:  # noqa: BLE001
                raise FrontendError(
                    f"{filename}: MLIR bytecode that is neither a StableHLO portable artifact "
                    f"(readable up to VHLO {stablehlo.get_current_version()}: {portable}) nor "
                    f"plain StableHLO bytecode ({plain})") from None
        return module.operation.get_asm(enable_debug_info=True)


def _jax_exported(data: bytes, filename: str) -> tuple:
    """A serialised ``jax.export.Exported``: its module (the portable artifact
    it carries, read as ``read_bytecode`` does) and pytrees."""
    jax = require("jax", "flax")
    from jax import export
    try:
        exp = export.deserialize(bytearray(data))
    except ImportError as e:            # the flatbuffers package, needed to read these
        raise FrontendError(f"{filename}: reading a serialised jax.export.Exported needs "
                            f"{e}") from None
    except Exception:                   # noqa: BLE001 - not a flatbuffer of jax's schema
        raise FrontendError(f"{filename}: neither MLIR text, MLIR bytecode nor a serialised "
                            "jax.export.Exported") from None
    args_tree, _ = jax.tree_util.treedef_children(exp.in_tree)
    return read_bytecode(exp.mlir_module_serialized, filename), {"pytree_args": describe_treedef(args_tree, jax.tree_util),
                               "pytree_results": describe_treedef(exp.out_tree, jax.tree_util)}
