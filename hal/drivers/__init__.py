"""hal/drivers."""
