"""hal/loaders."""
