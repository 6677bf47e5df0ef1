"""Compiler passes: small objects with a name, options and ``run(module)``."""
