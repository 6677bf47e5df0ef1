"""runtime/vm."""
