"""The rest of the tests' typing rule (pyproject.toml, [tool.mypy]; docs/architecture.md,
"Types across boundaries"): mypy lets a test function go unannotated, since pytest calls it
and fills its arguments by fixture name; every other function under tests/ (the fixtures,
the helpers, what they nest) is annotated in full, as mypy's strict mode asks of the server."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def unannotated(source: str) -> list[tuple[int, str]]:
    """(line, name) of each function that is not a test and lacks an annotation on its
    return or on a parameter (self and cls aside)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        if node.name.startswith("test"):
            continue
        a = node.args
        params = [*a.posonlyargs, *a.args, *a.kwonlyargs, *filter(None, (a.vararg, a.kwarg))]
        bare = [p for p in params if p.annotation is None and p.arg not in ("self", "cls")]
        if node.returns is None or bare:
            found.append((node.lineno, node.name))
    return found


def test_the_rule_sees_a_missing_annotation_and_lets_a_test_function_be() -> None:
    source = (
        "def helper(x: int) -> int: ...\n"
        "def bare(x) -> int: ...\n"
        "async def no_return(x: int): ...\n"
        "def test_x(fixture): ...\n"
        "class C:\n    def m(self, y: str) -> None: ...\n"
    )
    assert unannotated(source) == [(2, "bare"), (3, "no_return")]


def test_every_function_but_the_tests_is_annotated() -> None:
    missing = [
        f"{path.relative_to(TESTS.parent)}:{line} {name}"
        for path in sorted(TESTS.rglob("*.py"))
        for line, name in unannotated(path.read_text())
    ]
    assert not missing, "annotate these (only test functions may go without):\n" + "\n".join(
        missing
    )
