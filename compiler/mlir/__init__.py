"""compiler/mlir: MLIR text (StableHLO) -> compiler IR."""
from .parser import parse_module

__all__ = ["parse_module"]
