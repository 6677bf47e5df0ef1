"""The compiler's modules stay small and acyclic: no ``compiler/`` file over
800 lines (DESIGN.md: split a module past about 800), and no cycle among the
compiler's modules through their module-level imports (imports inside
functions are deliberate late bindings and do not count)."""
from __future__ import annotations

import ast
from pathlib import Path

COMPILER = Path(__file__).resolve().parents[2] / "compiler"
LIMIT = 800
# Over the limit, to be split by the work that has it open; may only shrink.
KNOWN_LONG: set = set()


def _modules() -> dict:
    """Dotted name (``compiler.ir.verifier``) -> path, for every module."""
    out = {}
    for path in COMPILER.rglob("*.py"):
        parts = list(path.relative_to(COMPILER.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _imports(name: str, path: Path, modules: dict) -> set:
    """The compiler modules ``name`` imports at module level."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = (node.module or "").removeprefix("tensorvm.")
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                found.add(sub if sub in modules else target)
        elif isinstance(node, ast.Import):
            found.update(a.name.removeprefix("tensorvm.") for a in node.names)
    return {m for m in found if m in modules and m != name}


def test_no_compiler_file_over_the_limit():
    long = {p.relative_to(COMPILER).as_posix(): n for p in COMPILER.rglob("*.py")
            if (n := len(p.read_text().splitlines())) > LIMIT}
    assert set(long) <= KNOWN_LONG, f"split these past {LIMIT} lines: " + \
        ", ".join(f"{f} ({n})" for f, n in sorted(long.items()) if f not in KNOWN_LONG)
    assert KNOWN_LONG <= set(long), f"no longer long, drop from KNOWN_LONG: {sorted(KNOWN_LONG - set(long))}"


def find_cycle(graph: dict):
    """One import cycle of ``graph`` (name -> imported names) as a list, or None."""
    state, stack = {}, []

    def visit(n):
        state[n] = 1
        stack.append(n)
        for m in sorted(graph.get(n, ())):
            if state.get(m) == 1:
                return stack[stack.index(m):] + [m]
            if m not in state and (found := visit(m)):
                return found
        stack.pop()
        state[n] = 2
        return None

    for n in sorted(graph):
        if n not in state and (found := visit(n)):
            return found
    return None


def test_no_import_cycle_among_compiler_modules():
    modules = _modules()
    graph = {n: _imports(n, p, modules) for n, p in modules.items()}
    cycle = find_cycle(graph)
    assert cycle is None, "module-level import cycle: " + " -> ".join(cycle)


def test_the_cycle_finder_finds_one():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
