"""Projectors: each owns its tables and applies events to them, inside the append transaction."""
