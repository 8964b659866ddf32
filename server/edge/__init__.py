"""What every HTTP surface of the server shares at its edge, below the transport and the
capabilities alike: the client's address behind trusted proxies (proxy.py), the Origin check
of state-changing requests (origin.py), token buckets (buckets.py) and the per-address read
limit of the HTTP API (reads.py)."""
