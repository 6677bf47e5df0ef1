"""One home per op: outside ``compiler/dialects/`` no module keeps a table of
ops.  A set, list, tuple or dict literal (or ``frozenset(...)`` / ``set(...)``
of one) naming two or more registered ops (``"stablehlo.add"``, or bare
``"add"`` where most of the literal's strings are op names) is a table: the
fact it records belongs in the ops' declarations (dialects/opdef.py), and the
module asks the registry.  ``KNOWN`` lists the tables still to move, by file
and line text; it may only shrink (an entry that no longer matches fails)."""
from __future__ import annotations

import ast
from pathlib import Path

from tensorvm.compiler.dialects.registry import OPS

COMPILER = Path(__file__).resolve().parents[2] / "compiler"
_FULL = set(OPS)
_SHORT = {n.split(".", 1)[1] for n in OPS if "." in n}

# Tables not yet moved into the declarations: (file under compiler/, start of
# the line that opens the literal); docs/internals.md, "What the declarations
# do not hold yet".
KNOWN = {
    # keyed by attribute mnemonics (#stablehlo.dot<...>, #stablehlo.gather<...>),
    # which share their ops' names: attribute defaults, no op table
    ('mlir/attr_parser.py', 'STRUCT_DEFAULTS = {'),
    # scalar.py's C expression per op and element kind: the elementwise
    # emitter itself (the second file of adding an elementwise op)
    ('codegen/scalar.py', 'table = {'),
    ('codegen/scalar.py', 'table = {"not": f"({a} ^ 1)", "abs": a, "negate": a, "sign": a, "square": a}'),
}


def _strings(node):
    if isinstance(node, (ast.Set, ast.List, ast.Tuple)):
        elts = node.elts
    elif isinstance(node, ast.Dict):
        elts = [k for k in node.keys if k is not None]
    else:
        return None
    return [e.value for e in elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]


def _is_table(strings) -> bool:
    full = sum(s in _FULL for s in strings)
    bare = sum(s in _SHORT for s in strings)
    return full >= 2 or (bare >= 2 and 2 * bare > len(strings))


def op_tables():
    """(file, line text) of every op table outside dialects/."""
    found = set()
    for path in sorted(COMPILER.rglob("*.py")):
        rel = path.relative_to(COMPILER).as_posix()
        if rel.startswith("dialects/"):
            continue
        text = path.read_text()
        lines = text.splitlines()
        for node in ast.walk(ast.parse(text)):
            strings = _strings(node)
            if strings is not None and _is_table(strings):
                found.add((rel, lines[node.lineno - 1].strip()))
    return found


def test_no_op_tables_outside_dialects():
    found = op_tables()
    new = sorted(found - KNOWN)
    assert not new, "op tables outside compiler/dialects/ (declare the trait on the ops):\n" + \
        "\n".join(f"  {f}: {line}" for f, line in new)
    gone = sorted(k for k in KNOWN - found if (COMPILER / k[0]).exists())
    assert not gone, "KNOWN lists tables that are gone; remove them from it:\n" + \
        "\n".join(f"  {f}: {line}" for f, line in gone)


def test_the_scan_sees_a_table():
    tree = ast.parse('_X = ("stablehlo.add", "stablehlo.subtract")\n_Y = {"negate": 1, "abs": 2}\n'
                     '_Z = ("tensor", "tuple", "none")\n')
    tables = [n for n in ast.walk(tree) if (s := _strings(n)) is not None and _is_table(s)]
    assert len(tables) == 2


def test_a_second_declaration_of_an_op_is_an_error():
    import pytest

    from tensorvm.compiler.dialects import registry as R
    add = R.OPS["stablehlo.add"]
    with pytest.raises(ValueError, match="stablehlo.add is declared twice"):
        R._collect((add,), (add,))


def test_every_rule_is_declared_on_an_op():
    """The spec rules left ir/: each op's verify / structure rules are its own
    functions, found on the declaration."""
    from tensorvm.compiler.dialects import registry as R
    assert R.OPS["stablehlo.dot_general"].verify and R.OPS["stablehlo.reverse"].verify
    assert R.OPS["stablehlo.cbrt"].elements == R.FLOAT_OR_COMPLEX
    assert not (COMPILER / "ir" / "decomposed_constraints.py").exists()


def test_every_declared_rewrite_resolves():
    """A ``decomposed`` op's ``rewrite`` names a function of compiler/passes/."""
    from tensorvm.compiler.dialects import registry as R
    from tensorvm.compiler.passes.decompose import BROADCAST_OPS, rewrite_of
    rewrites = {n: rewrite_of(n) for n, d in R.OPS.items() if d.rewrite}
    assert rewrites and all(map(callable, rewrites.values()))
    assert all(R.OPS[n].lowering == R.DECOMPOSED for n in rewrites)
    assert BROADCAST_OPS["chlo.broadcast_add"] == "stablehlo.add"


def test_every_declared_pull_emitter_resolves():
    """An op's ``pull`` names an emitter function of compiler/codegen/."""
    from tensorvm.compiler.codegen.pull_ops import pull_emitter
    from tensorvm.compiler.dialects import registry as R
    pulled = [n for n, d in R.OPS.items() if d.pull]
    assert "stablehlo.gather" in pulled and all(callable(pull_emitter(n)) for n in pulled)


def test_every_sequential_op_declares_its_program():
    """Each sequential op names the emitter of its workgroup program."""
    from tensorvm.compiler.dialects import registry as R
    seq = R.names(fusion=R.SEQUENTIAL)
    assert seq and all(callable(R.implementation(n, "program", "tensorvm.compiler.codegen")) for n in seq)
