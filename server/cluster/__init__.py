"""Several server processes on one Redis: room leases, liveness and the bus that
carries players' messages to a room's owner and its messages back (docs/architecture.md,
"Scaling out")."""
