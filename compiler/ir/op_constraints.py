"""Where frontend/attr_parser.py still imports ``dot_algorithm_error`` from
(the rule lives with dot_general in dialects/stablehlo/contraction.py).  Goes
once that import names the contraction module."""
from ..dialects.stablehlo.contraction import dot_algorithm_error  # noqa: F401
