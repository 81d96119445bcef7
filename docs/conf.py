"""Sphinx configuration of the documentation site.

Why Sphinx (autodoc, with MyST for the guide's Markdown) rather than MkDocs with mkdocstrings:
the docstrings are already reStructuredText with Sphinx roles (``:class:``, ``:meth:``), which
autodoc renders as written; autodoc imports the built extension, so the signatures of the Rust
classes come from the module itself; ``-W --keep-going`` turns every broken reference or bad
markup into an error; and the guide stays Markdown, the README's format, through MyST. The
examples, in the docstrings and in the guide, are run by pytest (``tests/test_doctests.py`` and
``tests/test_docs.py``), so they are checked with or without Sphinx installed.

Build: ``pip install -e ".[docs]" && sphinx-build -W --keep-going -b html docs docs/_build/html``.
"""

from __future__ import annotations

import blokus

project = "blokus"
author = "the blokus authors"
copyright = "the blokus authors"  # noqa: A001 - the name Sphinx reads
release = blokus.__version__
version = release

extensions = ["sphinx.ext.autodoc", "sphinx.ext.viewcode", "myst_parser"]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
exclude_patterns = ["_build"]
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence"]
# The project's pages (ARCHITECTURE.md, RULES.md) also live on GitHub-style browsing, where they
# link to files outside docs/ (../CONTRIBUTING.md, ../README.md) that are no pages here; MyST
# would warn of each. tests/test_docs.py checks instead that every relative link of every page
# names a file that exists.
suppress_warnings = ["myst.xref_missing"]

# Members in source order (the order the modules explain them in), signatures from the code.
autodoc_default_options = {"members": True, "member-order": "bysource", "show-inheritance": True}
autodoc_typehints = "description"
autodoc_typehints_format = "short"
autoclass_content = "class"
# Type aliases and names only in annotations are not all documented targets; the text names them.
nitpicky = False


html_theme = "alabaster"
html_title = f"blokus {release}"
html_static_path: list[str] = []
