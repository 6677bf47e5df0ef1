"""compiler/frontend."""
