"""runtime/modules."""
