"""The .vmfb contract: container format, bytecode ISA, element types."""
