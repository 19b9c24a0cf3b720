"""ragixd: the ragix memory daemon and its event-sourced store."""

__version__ = "0.1.0"
