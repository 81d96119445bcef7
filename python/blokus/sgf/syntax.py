r"""SGF syntax, knowing no game: text to a tree of nodes, and a tree back to text.

A file is a collection of game trees. A tree is ``(``, a sequence of nodes, then its variations
(trees themselves), then ``)``. A node is ``;`` and its properties; a property is an id of
letters and digits with one or more values in brackets, in which a backslash makes the next
character stand for itself (``\]`` is ``]``, ``\\`` is ``\``) and a backslash before a line
break removes the break. Space between the parts is ignored.

This module reads that into nodes with their properties in file order and where each starts
in the text, and writes such a tree back. What the properties mean is the caller's business:
:func:`parse` hands every node to a :class:`Builder` that makes what it wants of it (the
game trees of :mod:`blokus.sgf` check moves as they are read); :func:`read` builds plain
:class:`Node` trees.

>>> [root] = read("(;FF[4]C[a \\] b]\n(;B[aa]) (;W[bb]))")
>>> root.properties
{'FF': ['4'], 'C': ['a ] b']}
>>> [child.properties for child in root.children], root.children[1].column
([{'B': ['aa']}, {'W': ['bb']}], 11)
>>> print(write(root), end="")
(;FF[4]C[a \] b]
(;B[aa])
(;W[bb]))

Errors are :class:`~blokus.errors.SgfError` with the line and column (1-based) and what was
expected there.
"""

from __future__ import annotations

import codecs
import itertools
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Protocol, TypeVar

from blokus.errors import InvalidTypeError, SgfError

__all__ = [
    "Builder",
    "Node",
    "NodeSource",
    "Tree",
    "decode",
    "escape",
    "excerpt",
    "is_property_id",
    "parse",
    "read",
    "read_root",
    "unescape",
    "write",
]

_SPACE = re.compile(r"\s*")
_ID = re.compile(r"[A-Za-z0-9]+")
# The patterns below read the masked text (see _Text.masked), in which the only ']' inside a
# value is the one that ends it. None repeats a group, so a value of a million escapes costs
# the regex engine no more memory than one without.
# A property's id, its first value (group 2) and the space after it: how nearly every property
# is read.
_PROPERTY = re.compile(r"([A-Za-z0-9]+)\s*\[([^\]]*)\]\s*")
# Another value (group 1) and the space after it.
_VALUE = re.compile(r"\[([^\]]*)\]\s*")
# In the text of a value: a line break after a backslash, which the backslash removes.
_SOFT_BREAKS = ("\\\r\n", "\\\n\r", "\\\r", "\\\n")


def excerpt(text: str, limit: int = 60) -> str:
    r"""Text to quote in a message: at most about ``limit`` characters (the start and the end of
    longer text, with ``...`` between), and a surrogate as its escape, so the message can be
    printed.

    >>> excerpt("0123456789" * 3, 12)
    '01234567...6789'
    >>> excerpt("a\ud800b")
    'a\\ud800b'
    """
    if len(text) > limit:
        head = limit * 2 // 3
        text = text[:head] + "..." + text[len(text) - (limit - head) :]
    if not text.isascii():
        text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


def is_property_id(id: str) -> bool:
    """Whether ``id`` can name a property: ASCII letters and digits, at least one.

    >>> is_property_id("AB"), is_property_id("B W"), is_property_id("")
    (True, False, False)
    """
    return isinstance(id, str) and _ID.fullmatch(id) is not None


def unescape(raw: str) -> str:
    r"""The value that raw text between ``[`` and ``]`` stands for.

    >>> unescape(r"a\]b\\c"), unescape("one \\\ntwo")
    ('a]b\\c', 'one two')
    """
    if "\\" not in raw:
        return raw
    # Linear, with str.replace only. Escaped backslashes first (left to right, as a reader pairs
    # them), set aside as a character the value lacks; every backslash left then escapes the
    # character after it, which is never a backslash: the soft line breaks go, then the
    # backslashes themselves, and the escaped backslashes come back. (A control character is
    # tried first as the stand-in: a wider one would make every string after it wider.)
    held = next(chr(c) for c in itertools.chain(range(32), itertools.count(0xE000)) if chr(c) not in raw)
    text = raw.replace("\\\\", held)
    for soft_break in _SOFT_BREAKS:
        text = text.replace(soft_break, "")
    return text.replace("\\", "").replace(held, "\\")


def escape(value: str) -> str:
    r"""A value as it is written between ``[`` and ``]``.

    >>> print(escape("a]b\\c"))
    a\]b\\c
    """
    return value.replace("\\", "\\\\").replace("]", "\\]")


class _Text:
    """SGF text with an index of its lines, to turn offsets into lines and columns."""

    __slots__ = ("_line", "backslashes", "masked", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        # The text with every escaped backslash and escaped ']' (each with its backslash)
        # written as two NULs: the same offsets, and a ']' inside a value only where the value
        # ends, so that a value's end is found without following its escapes. Pairs of
        # backslashes go first, left to right, as they pair when read; a backslash left then
        # starts an escape. (Outside values a backslash is an error either way.)
        self.backslashes = "\\" in text
        self.masked = text.replace("\\\\", "\0\0").replace("\\]", "\0\0") if self.backslashes else text
        # The last offset asked for, its line (0-based) and where that line starts: nodes ask
        # in file order, so each asks only for the line breaks since the last.
        self._line = (0, 0, 0)

    def where(self, i: int) -> tuple[int, int]:
        """Line and column (1-based) of offset ``i``."""
        last, line, start = self._line if i >= self._line[0] else (0, 0, 0)
        breaks = self.text.count("\n", last, i)
        if breaks:
            line += breaks
            start = self.text.rindex("\n", last, i) + 1
        self._line = (i, line, start)
        return line + 1, i - start + 1

    def error(self, i: int, message: str) -> SgfError:
        line, column = self.where(i)
        return SgfError(message, line, column)

    def found(self, i: int) -> str:
        """What is at offset ``i``, for "expected ..., found ..." messages."""
        if i >= len(self.text):
            return "the end of the file"
        return repr(self.text[i])


class NodeSource:
    """Where a node read from text starts (its ``;``), and where each of its properties does:
    what a :class:`Builder` needs to say where a node it refuses is wrong.

    >>> found = []
    >>> class Where:
    ...     def node(self, parent, properties, source):
    ...         found.append((source.where(), source.where("B")))
    ...         return properties
    >>> _ = parse("(;GM[Blokus Duo]\\n;C[x]B[e10])", Where())
    >>> found
    [((1, 2), (1, 2)), ((2, 1), (2, 6))]
    """

    __slots__ = ("_start", "_text")

    def __init__(self, text: _Text, start: int) -> None:
        self._text = text
        self._start = start

    def where(self, id: str | None = None) -> tuple[int, int]:
        """Line and column (1-based) of property ``id``, or of the node if it is ``None`` or
        not in the node.

        >>> class Where:
        ...     def node(self, parent, properties, source):
        ...         return source.where("C"), source.where("XX")
        >>> parse("(;GM[1]\\n  C[hello])", Where())
        [((2, 3), (1, 2))]
        """
        start = self._start
        if id is not None:
            # Found again only when asked (to say where something is wrong), so reading keeps
            # no positions but the node's.
            masked = self._text.masked
            i = _SPACE.match(masked, start + 1).end()  # type: ignore[union-attr]  # \s* matches everywhere
            while (m := _PROPERTY.match(masked, i)) is not None:
                if m.group(1) == id:
                    start = i
                    break
                i = m.end()
                while (value := _VALUE.match(masked, i)) is not None:
                    i = value.end()
        return self._text.where(start)

    def error(self, message: str, id: str | None = None) -> SgfError:
        """An :class:`~blokus.errors.SgfError` at property ``id`` (or at the node).

        >>> class NoComments:
        ...     def node(self, parent, properties, source):
        ...         if "C" in properties:
        ...             raise source.error("comments are not allowed here", "C")
        ...         return properties
        >>> parse("(;GM[1];B[e10]\\nC[nice])", NoComments())
        Traceback (most recent call last):
        ...
        blokus.errors.SgfError: line 2, column 1: comments are not allowed here
        """
        line, column = self.where(id)
        return SgfError(message, line, column)


N = TypeVar("N")


class Builder(Protocol[N]):
    """What :func:`parse` hands each node to, in file order: whatever it makes of a node is the
    ``parent`` it is handed with the node's children.

    >>> class Count:
    ...     def __init__(self):
    ...         self.nodes = 0
    ...     def node(self, parent, properties, source):
    ...         self.nodes += 1
    ...         return self.nodes
    >>> builder = Count()
    >>> roots = parse("(;GM[1];B[a](;W[b])(;W[c]))", builder)
    >>> roots, builder.nodes
    ([1], 4)
    """

    def node(self, parent: N | None, properties: dict[str, list[str]], source: NodeSource) -> N:
        """Makes a node below ``parent`` (``None`` for the root of a game tree) from its
        properties (id -> unescaped values, in file order) and returns it; raises
        :class:`~blokus.errors.SgfError` (see :meth:`NodeSource.error`) to refuse it.

        >>> depths = []
        >>> class Depth:
        ...     def node(self, parent, properties, source):
        ...         depths.append(0 if parent is None else parent + 1)
        ...         return depths[-1]
        >>> parse("(;GM[1];B[a];W[b])(;GM[1])", Depth()), depths
        ([0, 0], [0, 1, 2, 0])
        """
        ...


class Node:
    """A node of a plain SGF tree, as :func:`read` builds it.

    >>> root = read("(;GM[1]PB[Ann];B[e10]C[a comment with \\\\] inside])")[0]
    >>> root.properties, root.line, root.column
    ({'GM': ['1'], 'PB': ['Ann']}, 1, 2)
    >>> root.children[0].properties["C"], root.children[0].parent is root
    (['a comment with ] inside'], True)
    """

    __slots__ = ("children", "column", "line", "parent", "properties")

    def __init__(
        self,
        parent: Node | None = None,
        properties: dict[str, list[str]] | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        #: Property id -> values, in file order.
        self.properties: dict[str, list[str]] = properties if properties is not None else {}
        #: The nodes after this one: the first continues the line, the others are variations.
        self.children: list[Node] = []
        self.parent = parent
        #: Where the node starts (its ``;``) in the text it was read from, 1-based.
        self.line = line
        self.column = column

    def __repr__(self) -> str:
        ids = " ".join(excerpt(id, 12) for id in itertools.islice(self.properties, 8))
        more = " ..." if len(self.properties) > 8 else ""
        return f"<syntax.Node {ids or 'without properties'}{more}, {len(self.children)} children>"


class _PlainBuilder:
    """Builds plain :class:`Node` trees."""

    def node(self, parent: Node | None, properties: dict[str, list[str]], source: NodeSource) -> Node:
        line, column = source.where()
        node = Node(parent, properties, line, column)
        if parent is not None:
            parent.children.append(node)
        return node


class _Reader:
    """Reads SGF text, handing nodes to a builder."""

    def __init__(self, text: str) -> None:
        self.text = _Text(text)

    def space(self, i: int) -> int:
        m = _SPACE.match(self.text.text, i)
        assert m is not None  # \s* matches everywhere
        return m.end()

    def start(self) -> int:
        """Where the first game tree's '(' should be: after a byte-order mark and space."""
        text = self.text.text
        return self.space(1 if text.startswith("\ufeff") else 0)

    def trees(self, builder: Builder[N]) -> list[N]:
        text = self.text.text
        roots: list[N] = []
        i = self.start()
        if i >= len(text):
            raise self.text.error(i, "expected '(' to start a game tree, found the end of the file")
        while i < len(text):
            if text[i] != "(":
                what = "'(' to start a game tree" if not roots else "'(' to start another game tree, or the end"
                raise self.text.error(i, f"expected {what}, found {self.text.found(i)}")
            root, i = self.tree(i, builder)
            roots.append(root)
            i = self.space(i)
        return roots

    def tree(self, i: int, builder: Builder[N]) -> tuple[N, int]:
        """One game tree from its '(' at ``i``, and where it ends. Iterative, so deep nesting
        cannot overflow a stack."""
        text = self.text.text
        n = len(text)
        space = _SPACE.match
        root: N | None = None
        # For each open '(': the node the variation's first node hangs from, and where it opened.
        stack: list[tuple[N | None, int]] = []
        current: N | None = None
        # After a variation closes, only another variation or the end of this one may follow.
        closed_variation = False
        while True:
            i = space(text, i).end()  # type: ignore[union-attr]  # \s* matches everywhere
            if i >= n:
                line, column = self.text.where(stack[-1][1])
                raise self.text.error(
                    i,
                    f"expected ')' to close the game tree opened at line {line}, column {column}, found the end of the file",
                )
            ch = text[i]
            if ch == ";":
                if closed_variation:
                    raise self.text.error(
                        i, "expected '(' or ')' after a variation, found ';' (nodes cannot follow variations)"
                    )
                properties: dict[str, list[str]] = {}
                end = self.properties(i + 1, properties)
                current = builder.node(current, properties, NodeSource(self.text, i))
                if root is None:
                    root = current
                i = end
            elif ch == "(":
                stack.append((current, i))
                i = self.space(i + 1)
                if i >= n or text[i] != ";":
                    raise self.text.error(
                        i, f"expected ';' to start the first node of a game tree, found {self.text.found(i)}"
                    )
                closed_variation = False
            elif ch == ")":
                parent, _ = stack.pop()
                i += 1
                if not stack:
                    assert root is not None  # a tree starts with a node
                    return root, i
                current = parent
                closed_variation = True
            else:
                raise self.text.error(i, f"expected ';', '(' or ')', found {self.text.found(i)}")

    def properties(self, i: int, properties: dict[str, list[str]]) -> int:
        """Reads the properties of a node from ``i`` (after its ';'); returns where they end."""
        text, masked = self.text.text, self.text.masked
        n = len(text)
        match, more = _PROPERTY.match, _VALUE.match
        i = self.space(i)
        while i < n and text[i] not in ";()":
            m = match(masked, i)
            if m is None:
                return self.after_properties(i, properties)
            id = m.group(1)
            if id in properties:
                raise self.text.error(i, f"property {excerpt(id)} appears twice in one node")
            values = [text[m.start(2) : m.end(2)]]
            i = m.end()
            while i < n and masked[i] == "[" and (value := more(masked, i)) is not None:
                values.append(text[value.start(1) : value.end(1)])
                i = value.end()
            if self.text.backslashes:
                values = [unescape(value) for value in values]
            properties[id] = values
        return i

    def after_properties(self, i: int, properties: dict[str, list[str]]) -> int:
        """``i``, where no whole property starts: the end of the node's properties, or an error
        that says what is wrong with the one that starts there."""
        text = self.text.text
        m = _ID.match(text, i)
        if m is None:
            if i < len(text) and text[i] == "[":
                raise self.text.error(i, "expected a property id (like B or C) before '['")
            return i
        id = m.group()
        if id in properties:
            raise self.text.error(i, f"property {excerpt(id)} appears twice in one node")
        i = self.space(m.end())
        if i >= len(text) or text[i] != "[":
            raise self.text.error(i, f"expected '[' to start a value of {excerpt(id)}, found {self.text.found(i)}")
        while i < len(text) and text[i] == "[":
            value = _VALUE.match(self.text.masked, i)
            if value is None:
                raise self.text.error(
                    i, f"expected ']' to end the value of {excerpt(id)} that starts here, found the end of the file"
                )
            i = value.end()
        raise AssertionError(f"property {id} at offset {i} should have been read whole")


def _check_characters(text: str) -> None:
    """Refuses text that holds surrogates: they are not characters, and no file can hold them."""
    if text.isascii():
        return
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as e:
        raise _Text(text).error(
            e.start, f"{text[e.start]!r} is a lone surrogate, not a character: SGF text must be valid Unicode"
        ) from None


def parse(text: str, builder: Builder[N]) -> list[N]:
    """Reads every game tree of SGF text, handing each node to ``builder`` in file order, and
    returns the roots ``builder`` made.

    >>> class Ids:
    ...     def node(self, parent, properties, source):
    ...         return (parent, list(properties))
    >>> parse("(;GM[1];B[aa])", Ids())
    [(None, ['GM'])]
    """
    if not isinstance(text, str):
        raise InvalidTypeError(f"SGF text is str, not {type(text).__name__}")
    _check_characters(text)
    return _Reader(text).trees(builder)


def read(text: str) -> list[Node]:
    """Every game tree of SGF text, as plain :class:`Node` trees (roots in file order).

    >>> roots = read("(;GM[1];B[a](;W[b])(;W[c]))(;GM[2])")
    >>> len(roots), [c.properties for c in roots[0].children[0].children]
    (2, [{'W': ['b']}, {'W': ['c']}])
    """
    return parse(text, _PlainBuilder())


def read_root(text: str) -> dict[str, list[str]]:
    """The properties of the first game tree's root, reading no further: the headers (and the
    character set) without reading the moves.

    >>> read_root("(;GM[Blokus Duo]CA[UTF-8];B[e10] and whatever follows")
    {'GM': ['Blokus Duo'], 'CA': ['UTF-8']}
    """
    _check_characters(text)
    reader = _Reader(text)
    i = reader.start()
    if i >= len(text) or text[i] != "(":
        raise reader.text.error(i, f"expected '(' to start a game tree, found {reader.text.found(i)}")
    i = reader.space(i + 1)
    if i >= len(text) or text[i] != ";":
        raise reader.text.error(i, f"expected ';' to start the first node of a game tree, found {reader.text.found(i)}")
    properties: dict[str, list[str]] = {}
    reader.properties(i + 1, properties)
    return properties


def decode(data: bytes) -> str:
    r"""The text of SGF bytes, in the character set the first root's ``CA`` property names;
    without one, UTF-8 if the bytes are valid UTF-8, else ISO-8859-1 (as SGF's default).

    The root is found by reading the bytes as ISO-8859-1, which maps each byte to one character,
    so ``CA`` is only ever a property of the root: not text in a comment, nor part of another id.

    >>> decode("(;C[Jos\xe9])".encode("latin-1")), decode(b"(;CA[UTF-8]C[Jos\xc3\xa9])")
    ('(;C[José])', '(;CA[UTF-8]C[José])')
    """
    view = data[len(codecs.BOM_UTF8) :] if data.startswith(codecs.BOM_UTF8) else data
    try:
        charset = read_root(view.decode("latin-1")).get("CA")
    except SgfError:
        # Reading will say what is wrong, in the characters of the text.
        charset = None
    if charset:
        return _decode_as(data, charset[0].strip())
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def _decode_as(data: bytes, name: str) -> str:
    shown = excerpt(name, 40)
    try:
        codec = codecs.lookup(name)
        if not codec._is_text_encoding:
            raise LookupError(name)
    except (LookupError, ValueError):
        raise SgfError(f"unknown character set CA[{shown}]: expected UTF-8 or ISO-8859-1") from None
    try:
        return data.decode(codec.name)
    except UnicodeDecodeError as e:
        raise SgfError(f"the file is not valid {shown} (CA[{shown}]): byte {e.start} cannot be read") from None
    except (UnicodeError, ValueError, LookupError) as e:
        raise SgfError(f"the file cannot be read as {shown} (CA[{shown}]): {excerpt(str(e), 100)}") from None


class Tree(Protocol):
    """What :func:`write` writes: a node with properties and children.

    >>> class Leaf:
    ...     properties = {"B": ["e10"]}
    ...     children = []
    >>> class Root:
    ...     properties = {"GM": ["Blokus Duo"]}
    ...     children = [Leaf()]
    >>> print(write(Root()), end="")
    (;GM[Blokus Duo]
    ;B[e10])
    """

    @property
    def properties(self) -> Mapping[str, Sequence[str]]:
        """Property id -> values, in the order to write them."""

    @property
    def children(self) -> Sequence[Tree]:
        """The nodes after this one: the first continues the line, the others are variations."""


def _where(number: int) -> str:
    return f"node {number} (counting depth first, the root is node 0)"


def _property_text(id: str, values: Sequence[str], number: int) -> str:
    """``id[value][value]``, or why it cannot be written (in node ``number``, depth first)."""
    if not isinstance(id, str):
        raise InvalidTypeError(f"property ids are str, not {type(id).__name__} (in {_where(number)})")
    if not is_property_id(id):
        raise SgfError(
            f"cannot write property {excerpt(id)!r} of {_where(number)}: property ids are letters and digits"
        )
    if isinstance(values, str) or not isinstance(values, Sequence):
        raise InvalidTypeError(f"the values of {id} in {_where(number)} are a list of str, not {type(values).__name__}")
    if not values:
        raise SgfError(f"cannot write {id} of {_where(number)}: it has no value (an empty one is written {id}[])")
    for value in values:
        if not isinstance(value, str):
            raise InvalidTypeError(f"the values of {id} in {_where(number)} are str, not {type(value).__name__}")
        if not value.isascii():
            try:
                value.encode("utf-8")
            except UnicodeEncodeError as e:
                raise SgfError(
                    f"cannot write {id}[{excerpt(value)}] of {_where(number)}: {value[e.start]!r} at index {e.start}"
                    " is a lone surrogate, not a character"
                ) from None
    return id + "".join(f"[{escape(v)}]" for v in values)


def _node_text(properties: Iterable[tuple[str, Sequence[str]]], number: int) -> str:
    """``;`` and the properties of node ``number``, or why they cannot be written."""
    try:
        parts = [";"]
        for id, values in properties:
            # What is surely fine is written straight away; anything else is looked at closely.
            if not values or type(values) not in (list, tuple) or _ID.fullmatch(id) is None:
                raise TypeError
            parts += (id, "[", "][".join(map(escape, values)), "]")
        return "".join(parts)
    except (TypeError, AttributeError):
        return ";" + "".join(_property_text(id, values, number) for id, values in properties)


def _preorder(root: Tree) -> Iterator[Tree]:
    """The nodes of a tree in the order they are written: each before its children."""
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(node.children))


def write(root: Tree, root_properties: Iterable[tuple[str, Sequence[str]]] | None = None) -> str:
    """SGF text of a game tree: one node per line, each variation opening on a new line, and a
    line break at the end. ``root_properties`` (read twice if a property cannot be written)
    replaces the root's own, to put some first.

    Raises :class:`~blokus.errors.SgfError` for what cannot be read back: a property id that is
    not letters and digits, a property without values, a value holding a lone surrogate.

    >>> root = read("(;GM[1]C[x];B[a](;W[b])(;W[c]))")[0]
    >>> print(write(root, [("GM", ["1"]), ("C", ["with ] inside"])]), end="")
    (;GM[1]C[with \\] inside]
    ;B[a]
    (;W[b])
    (;W[c]))
    """
    if root_properties is not None:
        root_properties = list(root_properties)
    out: list[str] = []
    number = 0
    # Iterative, so deep trees cannot overflow a stack: a node opens a game tree there, None
    # closes one.
    stack: list[Tree | None] = [root]
    while stack:
        item = stack.pop()
        if item is None:
            out.append(")")
            continue
        if out:
            out.append("\n")
        out.append("(")
        node = item
        first = root_properties if node is root and root_properties is not None else node.properties.items()
        out.append(_node_text(first, number))
        number += 1
        while len(node.children) == 1:
            node = node.children[0]
            out.append("\n")
            out.append(_node_text(node.properties.items(), number))
            number += 1
        stack.append(None)
        stack.extend(reversed(node.children))
    out.append("\n")
    text = "".join(out)
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            # Values were not checked one by one for surrogates: find the first, to name it.
            for number, node in enumerate(_preorder(root)):
                properties = (
                    root_properties if node is root and root_properties is not None else node.properties.items()
                )
                for id, values in properties:
                    _property_text(id, values, number)
            raise
    return text
