"""The protocol's types shared with the client (docs/client.md, "Types, lint and build"): the
client's web/js/protocol.d.ts is what server/net/typegen.py writes from the server's own
message definitions, and a field renamed on one side fails the client's type check."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from server.net import typegen

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "web"
TSC = WEB / "node_modules" / ".bin" / "tsc"


def test_the_checked_in_types_are_the_generators_output() -> None:
    written = (WEB / "js" / "protocol.d.ts").read_text()
    assert written == typegen.generate(), (
        "stale: write it with python -m server.net.typegen > web/js/protocol.d.ts"
    )


def test_every_message_type_is_written() -> None:
    out = typegen.generate()
    for tag in ("hello", "create", "quick", "strike", "chat", "resume"):  # client -> server
        assert f't: "{tag}";' in out
    for name in ("Welcome", "Room", "Lobby", "ErrorMessage", "ChatLine", "RoomSummary"):
        assert f"export interface {name} {{" in out
    assert "} & RuleOptions;" in out  # create's options (its rules only) travel as its fields


def _tsc(web: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(TSC), "-p", str(web)], capture_output=True, text=True, timeout=300, check=False
    )


@pytest.fixture(scope="module")
def web_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The client's sources and type-check settings in a directory of their own (its
    libraries linked), to be changed by a test."""
    assert TSC.exists(), "web/node_modules is missing: source scripts/setup-env.sh test"
    web = tmp_path_factory.mktemp("web")
    shutil.copytree(WEB / "js", web / "js")
    shutil.copy(WEB / "tsconfig.json", web / "tsconfig.json")
    (web / "node_modules").symlink_to(WEB / "node_modules")
    return web


@pytest.mark.parametrize(
    ("old", "new", "read_at"),
    [
        # server -> client: the welcome's playback speed, read by messages.js
        ("  speed_factor: number;", "  speed_factr: number;", "speed_factor"),
        # client -> server: quick match's computer wait, built by computer.js
        ("  computer_after?: number | null;", "  computer_aftr?: number | null;", "computer_after"),
    ],
)
def test_a_renamed_field_fails_the_type_check(
    web_copy: Path, old: str, new: str, read_at: str
) -> None:
    types = web_copy / "js" / "protocol.d.ts"
    original = (WEB / "js" / "protocol.d.ts").read_text()
    assert original.count(old) == 1
    types.write_text(original.replace(old, new))
    try:
        checked = _tsc(web_copy)
    finally:
        types.write_text(original)
    assert checked.returncode != 0
    assert read_at in checked.stdout, checked.stdout


def test_the_client_passes_the_type_check(web_copy: Path) -> None:
    checked = _tsc(web_copy)
    assert checked.returncode == 0, checked.stdout
