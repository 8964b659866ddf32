"""Server options for a benchmark whose clients all come from 127.0.0.1.

The per-address limits are made for one household or club (docs/reliability.md); a benchmark
playing hundreds of users from one address would meet them at once, as the clients of a
proxy would without `--trusted-proxy`. These lift them, and nothing else.
"""

from __future__ import annotations

ONE_ADDRESS: dict[str, object] = {
    "conns_per_address": 1_000_000,
    "tcp_per_address": 1_000_000,
    # a websocket waits at the door until its hello: hundreds opened at once from one
    # address would meet the limit of connections without a request
    "waiting_per_address": 1_000_000,
    "session_rate": 10_000,
    "session_burst": 1_000_000,
    "address_create_rate": 10_000,
    "address_create_burst": 1_000_000,
    "read_rate": 10_000,
    "read_burst": 1_000_000,
}


def as_args(options: dict[str, object]) -> list[str]:
    """Options as `python -m server` arguments."""
    out: list[str] = []
    for key, value in options.items():
        out += ["--" + key.replace("_", "-"), str(value)]
    return out
