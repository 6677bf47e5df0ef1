"""compiler/codegen."""
