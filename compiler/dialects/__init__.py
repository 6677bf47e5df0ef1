"""compiler/dialects."""
