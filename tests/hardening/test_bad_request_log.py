"""A request that cannot be parsed costs one log line, not a traceback (issue 37: an
over-long request line logged a full traceback each time)."""

from __future__ import annotations

import socket

from tests.conftest import GameServer


def send_raw(srv: GameServer, data: bytes) -> bytes:
    """Send bytes as they are and read the answer to its end."""
    with socket.create_connection(("127.0.0.1", srv.port), timeout=10) as s:
        s.sendall(data)
        out = b""
        while chunk := s.recv(65536):
            out += chunk
        return out


def test_an_over_long_request_line_is_one_log_line(game_server):
    srv = game_server()
    for _ in range(3):
        answer = send_raw(srv, b"GET /" + b"a" * 20000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")
        assert answer.split(b" ", 2)[1] == b"400", answer[:80]
    log = srv.log()
    lines = [ln for ln in log.splitlines() if "bad request from 127.0.0.1" in ln]
    assert len(lines) == 3, log[-2000:]
    assert "Traceback" not in log and "LineTooLong" not in log.replace(lines[0], "")
    assert len(lines[0]) < 300
