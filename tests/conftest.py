"""Shared fixtures: where the conformance games are, and how to read them."""

from __future__ import annotations

import gzip
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
CONFORMANCE = Path(os.environ.get("BLOKUS_CONFORMANCE", ROOT.parent / "shared" / "conformance"))


def conformance_files() -> list[Path]:
    """Every conformance file; the suite fails loudly if there are none."""
    return sorted(CONFORMANCE.glob("*.jsonl.gz"))


def conformance_games(path: Path) -> Iterator[dict[str, Any]]:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            yield json.loads(line)


@pytest.fixture(scope="session")
def conformance_dir() -> Path:
    assert CONFORMANCE.is_dir(), f"conformance games not found at {CONFORMANCE} (set BLOKUS_CONFORMANCE)"
    return CONFORMANCE
