"""Storage: the event log and its projections in SQLite through apsw. Imports the domain."""
