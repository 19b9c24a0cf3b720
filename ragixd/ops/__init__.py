"""Ops: the daemon's request API. catalog.py (pure data) is shared with the client and ragixctl."""
