"""compiler/passes."""
