"""The examples in the package's docstrings run as written."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import blokus

# Every module, in subpackages too (blokus.sgf.syntax), but not the private ones.
#: Modules whose examples run elsewhere: blokus.distributed's start a local Ray, so they run in
#: tests/test_distributed.py beside its other Ray tests (in CI, in a network namespace).
ELSEWHERE = {"blokus.distributed"}

MODULES = sorted(
    m.name
    for m in pkgutil.walk_packages(blokus.__path__, "blokus.")
    if not any(part.startswith("_") for part in m.name.split(".")) and m.name not in ELSEWHERE
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name is not None and e.name.split(".")[0] != "blokus":
            pytest.skip(f"{name} needs {e.name}, which is not installed")
        raise
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
