"""The core's layers (docs/ARCHITECTURE.md): each module of `rust/blokus-core/src` uses only the
layers below its own, so no two modules or folders import each other."""

from __future__ import annotations

import re
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "rust" / "blokus-core" / "src"

#: Bottom to top; modules of one layer may use each other only within their own folder.
LAYERS = [
    {"bits", "rng", "geometry", "cpu"},
    {"variant"},
    {"placement"},
    {"position"},
    {"rules"},
    {"movegen"},
    {"tables", "notation"},
    {"game"},
    {"simulation"},
    {"search"},
    {"reference", "testing"},
]

USE = re.compile(r"\b(?:use\s+)?crate::(\w+)")


def layer_of(module: str) -> int:
    for i, layer in enumerate(LAYERS):
        if module in layer:
            return i
    raise AssertionError(f"module {module} is in no layer of LAYERS")


def top_module(path: Path, src: Path) -> str:
    rel = path.relative_to(src)
    return rel.parts[0].removesuffix(".rs")


def uses(src: Path = SRC) -> dict[str, set[str]]:
    """Top-level module -> the other top-level modules its code (tests aside) names."""
    out: dict[str, set[str]] = {}
    for path in src.rglob("*.rs"):
        if path.name == "lib.rs":
            continue
        text = path.read_text()
        # Unit tests may reach across layers (they check one against another).
        text = text.split("#[cfg(test)]\nmod tests")[0]
        # Doc links are not uses.
        text = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))
        if path.name == "tests.rs":
            continue
        module = top_module(path, src)
        found = {m for m in USE.findall(text) if m != module}
        out.setdefault(module, set()).update(found)
    return out


def upward_uses(graph: dict[str, set[str]]) -> list[str]:
    """The uses of a module of the same or a higher layer (notation may use tables)."""
    return [
        f"{module} (layer {layer_of(module)}) uses {other} (layer {layer_of(other)})"
        for module, others in sorted(graph.items())
        for other in sorted(others)
        if layer_of(other) > layer_of(module)
        or (layer_of(other) == layer_of(module) and (module, other) != ("notation", "tables"))
    ]


def test_every_module_uses_only_lower_layers() -> None:
    graph = uses()
    assert set(graph) >= {"rules", "movegen", "game", "simulation"}, graph
    wrong = upward_uses(graph)
    assert not wrong, "\n".join(wrong)


def test_the_check_finds_a_use_from_below(tmp_path: Path) -> None:
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "mod.rs").write_text("use crate::bits::Bits;\n/// [`crate::game`]\n")
    (tmp_path / "rules" / "corner.rs").write_text("use crate::game::board::Board;\n")
    (tmp_path / "game").mkdir()
    (tmp_path / "game" / "mod.rs").write_text("use crate::rules::Illegal;\n")
    graph = uses(tmp_path)
    assert graph == {"rules": {"bits", "game"}, "game": {"rules"}}
    assert upward_uses(graph) == ["rules (layer 4) uses game (layer 7)"]
