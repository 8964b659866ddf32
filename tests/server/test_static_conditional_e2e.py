"""The client's files on one kept-alive connection, as a browser reloading the page asks for
them: a conditional request (If-Modified-Since) answered 304 leaves nothing on the connection
before the next answer (aiohttp's compression wrote the end of a deflate stream after the
bodiless 304, and the browser rejected the next answer: ERR_INVALID_HTTP_RESPONSE)."""

from __future__ import annotations

import socket

from tests.conftest import GameServer


def head(sock: socket.socket, buffered: bytes) -> tuple[bytes, bytes]:
    """One answer's head (through the blank line) and what came after it, read so far."""
    data = buffered
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, f"the connection closed mid-answer: {data!r}"
        data += chunk
    end = data.index(b"\r\n\r\n") + 4
    return data[:end], data[end:]


def ask(sock: socket.socket, host: str, path: str, *extra: str) -> None:
    lines = [f"GET {path} HTTP/1.1", f"Host: {host}", "Accept-Encoding: gzip, deflate", *extra]
    sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())


def test_a_304_leaves_the_connection_clean_for_the_next_answer(game_server):
    srv: GameServer = game_server()
    host = srv.url.removeprefix("http://")
    address, port = host.rsplit(":", 1)
    with socket.create_connection((address, int(port)), timeout=10) as sock:
        ask(sock, host, "/js/app.js")
        first, rest = head(sock, b"")
        assert first.startswith(b"HTTP/1.1 200") and b"Content-Encoding: " in first, first
        modified = next(
            line.split(b": ", 1)[1].decode()
            for line in first.split(b"\r\n")
            if line.lower().startswith(b"last-modified:")
        )
        # the first answer's body is chunked: read to its last chunk
        while not rest.endswith(b"0\r\n\r\n"):
            rest += sock.recv(65536)
        ask(sock, host, "/js/app.js", f"If-Modified-Since: {modified}")
        second, rest = head(sock, b"")
        assert second.startswith(b"HTTP/1.1 304"), second
        # the next answer on the same connection begins at once with its status line
        ask(sock, host, "/js/state.js")
        third, _ = head(sock, rest)
        assert third.startswith(b"HTTP/1.1 200"), (rest, third[:80])
