"""The documentation cannot rot: every public function, class and method has an example (which
``test_doctests.py`` runs), every public module has its page in the API reference, and the
user guide's examples run as doctests with the outputs they show."""

from __future__ import annotations

import doctest
import importlib
import inspect
import pkgutil
import re
import types
from collections.abc import Iterator
from pathlib import Path

import pytest

import blokus

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
GUIDE = sorted((DOCS / "guide").glob("*.md"))


def is_private(name: str) -> bool:
    return any(part.startswith("_") for part in name.split("."))


def public_modules() -> list[str]:
    names = ["blokus", *(m.name for m in pkgutil.walk_packages(blokus.__path__, "blokus."))]
    return sorted(n for n in names if not is_private(n) and not n.endswith(".__main__"))


def import_or_skip(name: str) -> types.ModuleType:
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name is not None and e.name.split(".")[0] != "blokus":
            pytest.skip(f"{name} needs {e.name}, which is not installed")
        raise


def public_names(module: types.ModuleType) -> list[str]:
    """``__all__``, or else the functions and classes the module defines without an underscore."""
    names = getattr(module, "__all__", None)
    if names is not None:
        return list(names)
    return [
        n
        for n, obj in vars(module).items()
        if not n.startswith("_")
        and (inspect.isclass(obj) or inspect.isfunction(obj))
        and getattr(obj, "__module__", None) == module.__name__
    ]


def has_example(obj: object) -> bool:
    return ">>>" in (inspect.getdoc(obj) or "")


def method_has_example(cls: type, name: str) -> bool:
    """A method's own docstring, or else that of the first class of this package up its MRO
    that defines it (a base class outside the package, such as PettingZoo's, does not count:
    its examples are not ours and are not run here)."""
    for base in cls.__mro__:
        raw = vars(base).get(name)
        if raw is None or not base.__module__.startswith("blokus"):
            continue
        doc = getattr(raw, "__doc__", None)
        if doc:
            return ">>>" in doc
    return False


def items_without_example(module: types.ModuleType) -> Iterator[str]:
    """The module itself, its public functions and classes (each where it is defined, or where
    a private module's object is exported), and the public methods of its public classes."""
    if not has_example(module):
        yield module.__name__
    for name in public_names(module):
        obj = getattr(module, name)
        if not (inspect.isclass(obj) or inspect.isfunction(obj)):
            continue  # constants and type aliases: documented by a comment, no example needed
        home = getattr(obj, "__module__", None) or ""
        if home != module.__name__ and not is_private(home):
            continue  # re-exported: checked in the module that defines it
        if not has_example(obj):
            yield f"{module.__name__}.{name}"
        if inspect.isclass(obj):
            for member, raw in vars(obj).items():
                if member.startswith("_") or isinstance(raw, property):
                    continue
                if inspect.isroutine(getattr(obj, member)) and not method_has_example(obj, member):
                    yield f"{module.__name__}.{name}.{member}"


@pytest.mark.parametrize("name", public_modules())
def test_every_public_item_has_an_example(name: str) -> None:
    missing = list(items_without_example(import_or_skip(name)))
    assert not missing, "no '>>>' example in the docstring of: " + ", ".join(missing)


def test_properties_have_a_docstring() -> None:
    missing = []
    for name in public_modules():
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError:
            continue
        for obj in (getattr(module, n) for n in public_names(module)):
            if inspect.isclass(obj) and obj.__module__ == name:
                for member, raw in vars(obj).items():
                    if isinstance(raw, property) and not member.startswith("_") and not (raw.__doc__ or "").strip():
                        missing.append(f"{name}.{obj.__name__}.{member}")
    assert not missing, "properties without a docstring: " + ", ".join(missing)


def test_the_check_finds_what_lacks_an_example() -> None:
    module = types.ModuleType("blokus.example", "A module.\n\n>>> 1\n1\n")

    def documented() -> None:
        """Does nothing.

        >>> documented()
        """

    def undocumented() -> None:
        """Does nothing, without an example."""

    class Thing:
        """A thing.

        >>> Thing().first()
        """

        def first(self) -> None:
            """The first.

            >>> Thing().first()
            """

        def second(self) -> None:
            """The second."""

    for f in (documented, undocumented, Thing):
        f.__module__ = module.__name__
        setattr(module, f.__name__, f)
    module.__all__ = ["Thing", "documented", "undocumented"]  # type: ignore[attr-defined]
    assert list(items_without_example(module)) == ["blokus.example.Thing.second", "blokus.example.undocumented"]
    module.__doc__ = "No example."
    assert next(items_without_example(module)) == "blokus.example"


def test_every_public_module_has_a_page() -> None:
    documented = {
        m
        for page in (DOCS / "api").glob("*.rst")
        for m in re.findall(r"^\.\. automodule:: (\S+)", page.read_text(), re.M)
    }
    assert documented == set(public_modules())
    index = (DOCS / "api" / "index.rst").read_text()
    assert all(f"   {m}\n" in index for m in documented)


def test_relative_links_of_the_pages_name_files_that_exist() -> None:
    # Sphinx does not warn of these (conf.py: suppress_warnings), so they are checked here.
    pages = sorted(DOCS.rglob("*.md"))
    assert pages
    broken = []
    for page in pages:
        for target in re.findall(r"\]\(([^)\s]*)\)", page.read_text()):
            path = target.split("#")[0]
            if not path or "://" in path or path.startswith("mailto:"):
                continue
            if not (page.parent / path).exists():
                broken.append(f"{page.relative_to(ROOT)}: {target}")
    assert not broken, broken


def test_every_guide_page_is_in_the_table_of_contents() -> None:
    index = (DOCS / "index.md").read_text()
    assert GUIDE and all(f"guide/{page.stem}\n" in index for page in GUIDE)


def guide_examples(text: str) -> str:
    """The page with everything but its ``pycon`` blocks blanked, so that a failure's line
    number is the page's (a page's examples build on each other)."""
    lines, inside = [], False
    for line in text.split("\n"):
        fence = line.startswith("```")
        if fence:
            inside = line == "```pycon" if not inside else False
        lines.append(line if inside and not fence else "")
    return "\n".join(lines)


def test_guide_examples_are_found() -> None:
    page = "Text\n\n```pycon\n>>> 1 + 1\n2\n```\n\n```python\nx = 1\n```\n\n```pycon\n>>> 2\n2\n```\n"
    assert guide_examples(page) == "\n\n\n>>> 1 + 1\n2\n\n\n\n\n\n\n\n>>> 2\n2\n\n"


@pytest.mark.parametrize("page", GUIDE, ids=lambda p: p.stem)
def test_guide_examples(page: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # the examples read examples/mini.toml
    source = guide_examples(page.read_text())
    if ">>>" not in source:
        pytest.skip(f"{page.name} has no examples")
    test = doctest.DocTestParser().get_doctest(source, {}, page.stem, str(page), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {page.name}"
