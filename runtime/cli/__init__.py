"""runtime/cli."""
