"""IR structure: values, operations, blocks, regions, modules.

SSA values keep use lists so passes can rewrite in place
(``replace_all_uses_with``, ``Operation.erase``).  Ops are generic: a name,
operands, results, an attribute dict and regions; what an op means is declared
as data in the dialect files (``compiler/dialects``).
"""
from __future__ import annotations

from dataclasses import dataclass

from .types import Type


@dataclass(frozen=True)
class Location:
    """Where an op came from in the source text (1-based)."""
    line: int
    column: int
    file: str = "<input>"

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


class Value:
    """An SSA value: an op result or a block argument."""
    __slots__ = ("type", "owner", "index", "name", "uses")

    def __init__(self, type: Type, owner, index: int, name: str | None = None):
        self.type = type
        self.owner = owner          # Operation (result) or Block (argument)
        self.index = index
        self.name = name            # the source name without %, a hint only
        self.uses: list[tuple[Operation, int]] = []

    @property
    def defining_op(self) -> Operation | None:
        return self.owner if isinstance(self.owner, Operation) else None

    def replace_all_uses_with(self, other: Value) -> None:
        for op, i in list(self.uses):
            op.set_operand(i, other)

    def __repr__(self) -> str:
        return f"Value(%{self.name or '?'}: {self.type})"


class Operation:
    """A generic op."""
    __slots__ = ("name", "operands", "results", "attributes", "regions",
                 "location", "parent", "attr_locations")

    def __init__(self, name: str, operands=(), result_types=(), attributes=None,
                 regions=(), location: Location | None = None):
        self.name = name
        self.operands: list[Value] = []
        self.results = [Value(t, self, i) for i, t in enumerate(result_types)]
        self.attributes: dict = dict(attributes or {})
        self.regions: list[Region] = list(regions)
        for r in self.regions:
            r.parent = self
        self.location = location
        # attribute -> Location of the pretty form's attribute dictionary it was
        # written in (MLIR reports inherent attribute constraints there); None
        # when the op was built or parsed in the generic form
        self.attr_locations: dict | None = None
        self.parent: Block | None = None
        for v in operands:
            self.add_operand(v)

    # -- operands --
    def add_operand(self, value: Value) -> None:
        value.uses.append((self, len(self.operands)))
        self.operands.append(value)

    def set_operand(self, index: int, value: Value) -> None:
        old = self.operands[index]
        old.uses.remove((self, index))
        self.operands[index] = value
        value.uses.append((self, index))

    def drop_operands(self) -> None:
        for i, v in enumerate(self.operands):
            v.uses.remove((self, i))
        self.operands = []

    # -- convenience --
    @property
    def result(self) -> Value:
        assert len(self.results) == 1, f"{self.name} has {len(self.results)} results"
        return self.results[0]

    @property
    def dialect(self) -> str:
        return self.name.split(".", 1)[0]

    @property
    def short_name(self) -> str:
        return self.name.split(".", 1)[1] if "." in self.name else self.name

    def attr(self, key, default=None):
        return self.attributes.get(key, default)

    @property
    def parent_op(self) -> "Operation | None":
        """The op whose region holds this op (None at the top of a module)."""
        block = self.parent
        region = block.parent if block is not None else None
        return region.parent if region is not None else None

    def walk(self):
        """This op and every op nested in its regions, pre-order."""
        yield self
        for region in self.regions:
            for block in region.blocks:
                for op in list(block.operations):
                    yield from op.walk()

    def erase(self) -> None:
        """Remove from the parent block; results must be unused."""
        for r in self.results:
            if r.uses:
                raise ValueError(f"erasing {self.name} whose result is still used")
        for region in self.regions:
            for block in region.blocks:
                for op in reversed(list(block.operations)):
                    op.drop_all_references()
        self.drop_operands()
        if self.parent is not None:
            self.parent.operations.remove(self)
            self.parent = None

    def drop_all_references(self) -> None:
        for region in self.regions:
            for block in region.blocks:
                for op in block.operations:
                    op.drop_all_references()
        self.drop_operands()

    def __repr__(self) -> str:
        return f"<{self.name} at {self.location}>"


class Block:
    """A list of ops with block arguments."""
    __slots__ = ("arguments", "operations", "parent")

    def __init__(self, arg_types=(), arg_names=()):
        names = list(arg_names) + [None] * (len(arg_types) - len(arg_names))
        self.arguments = [Value(t, self, i, n) for i, (t, n) in enumerate(zip(arg_types, names))]
        self.operations: list[Operation] = []
        self.parent: Region | None = None

    def append(self, op: Operation) -> Operation:
        op.parent = self
        self.operations.append(op)
        return op

    def insert_before(self, anchor: Operation, op: Operation) -> Operation:
        op.parent = self
        self.operations.insert(self.operations.index(anchor), op)
        return op

    def add_argument(self, type: Type, name: str | None = None) -> Value:
        v = Value(type, self, len(self.arguments), name)
        self.arguments.append(v)
        return v

    @property
    def terminator(self) -> Operation | None:
        return self.operations[-1] if self.operations else None


class Region:
    """A list of blocks owned by an op."""
    __slots__ = ("blocks", "parent")

    def __init__(self, blocks=()):
        self.blocks: list[Block] = []
        self.parent: Operation | None = None
        for b in blocks:
            self.append(b)

    def append(self, block: Block) -> Block:
        block.parent = self
        self.blocks.append(block)
        return block

    @property
    def block(self) -> Block:
        return self.blocks[0]


class Module:
    """A ``builtin.module``: named, with attributes and a body of ops
    (``func.func`` ops for StableHLO programs)."""

    def __init__(self, name: str | None = None, attributes=None, location=None):
        self.name = name
        self.attributes = dict(attributes or {})
        self.body = Block()
        self.location = location

    @property
    def functions(self) -> list[Operation]:
        return [op for op in self.body.operations if op.name == "func.func"]

    def lookup(self, symbol: str) -> Operation | None:
        for op in self.body.operations:
            sym = op.attributes.get("sym_name")
            if sym is not None and getattr(sym, "value", sym) == symbol:
                return op
        return None

    def walk(self):
        for op in list(self.body.operations):
            yield from op.walk()
