"""The ports of the processes a bench or a test starts (bench/ports.py): a process counts as up
only when it is itself listening on its port, and one whose port was taken since it was found
free starts again on another."""

from __future__ import annotations

import socket
import subprocess
import sys
from collections.abc import Iterator
from urllib.request import urlopen

import pytest

from bench.ports import DidNotStart, launch, listens

pytestmark = pytest.mark.e2e


@pytest.fixture
def held() -> Iterator[list[socket.socket]]:
    """Listening sockets of this process's, taking ports as another process would."""
    sockets: list[socket.socket] = []
    yield sockets
    for s in sockets:
        s.close()


def hold(port: int, sockets: list[socket.socket]) -> None:
    s = socket.socket()
    s.bind(("127.0.0.1", port))
    s.listen()
    sockets.append(s)


def http_server(port: int) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "http.server", "--bind", "127.0.0.1", str(port)]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def answers(port: int) -> bool:
    with urlopen(f"http://127.0.0.1:{port}/", timeout=1) as r:
        return bool(r.status == 200)


def test_a_process_whose_port_was_taken_starts_again_on_another(held):
    tried: list[int] = []

    def spawn(port: int) -> subprocess.Popen[bytes]:
        if not tried:
            hold(port, held)  # another process binds it between free_port() and the spawn
        tried.append(port)
        return http_server(port)

    proc, port = launch(spawn, lambda port: True, 30, "http.server")
    try:
        assert len(tried) == 2 and port == tried[1] != tried[0]
        assert listens(proc.pid, port) and answers(port)
    finally:
        proc.kill()
        proc.wait()


def test_a_process_given_a_taken_port_is_tried_once_and_refused(held):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    hold(port, held)
    spawned: list[int] = []

    def spawn(p: int) -> subprocess.Popen[bytes]:
        spawned.append(p)
        return http_server(p)

    with pytest.raises(DidNotStart):
        launch(spawn, lambda p: True, 30, "http.server", port=port)
    assert spawned == [port]


def test_another_process_listening_is_not_taken_for_the_one_started(held):
    """The port is held by this test's socket, which is listening: the child never is."""

    def spawn(port: int) -> subprocess.Popen[bytes]:
        hold(port, held)
        # the subject: a process that never listens, blocked on its stdin until launch kills
        # it at the deadline (1 s)
        command = [sys.executable, "-c", "import sys; sys.stdin.read()"]
        return subprocess.Popen(command, stdin=subprocess.PIPE)

    with pytest.raises(DidNotStart, match="did not come up"):
        launch(spawn, lambda port: True, 1.0, "a sleeper")
