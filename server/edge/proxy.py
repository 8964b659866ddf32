"""The client's real address behind a trusted reverse proxy.

Every limit per address (connections, new sessions) needs the client's address; behind a
proxy (deploy/nginx.conf) every connection comes from the proxy's. Only from a peer listed in
`--trusted-proxy` is a forwarded address believed: the right-most hop of `X-Forwarded-For` that
is not itself a trusted proxy (each proxy appends the address it received from, so the hops
left of that were written by the client and may be forged), else `X-Real-IP`. From anybody
else the headers are ignored.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_networks(spec: str) -> tuple[Network, ...]:
    """Comma-separated addresses or networks ("10.0.0.5, 172.28.0.0/16") as networks; raises
    ValueError on a malformed entry (the server then does not start)."""
    parts = [part.strip() for part in spec.split(",") if part.strip()]
    return tuple(ipaddress.ip_network(part, strict=False) for part in parts)


def within(address: str, networks: tuple[Network, ...]) -> bool:
    """Is `address` one of `networks`' (False for anything that is not an address)?"""
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return False
    return any(ip in net for net in networks)


def _valid(address: str) -> bool:
    try:
        ipaddress.ip_address(address)
    except ValueError:
        return False
    return True


def trusted_peer(peer: str, trusted: tuple[Network, ...]) -> bool:
    """Is `peer` one of the trusted proxies?"""
    return bool(trusted) and within(peer, trusted)


def client_address(peer: str, headers: Mapping[str, str], trusted: tuple[Network, ...]) -> str:
    """The address to hold a connection's limits against: the peer's own, or, when the peer is
    a trusted proxy, the address it says it received the connection from."""
    if not trusted or not within(peer, trusted):
        return peer
    hops = [hop.strip() for hop in headers.get("X-Forwarded-For", "").split(",") if hop.strip()]
    for hop in reversed(hops):
        if not within(hop, trusted):
            return hop if _valid(hop) else peer
    real = headers.get("X-Real-IP", "").strip()
    if real and _valid(real):
        return real
    return hops[0] if hops and _valid(hops[0]) else peer


def via_proxy(peer: str, trusted: tuple[Network, ...]) -> bool:
    """Did the connection come through a trusted proxy (whose forwarded headers count)?"""
    return bool(trusted) and within(peer, trusted)
