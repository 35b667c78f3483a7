"""tournament."""
