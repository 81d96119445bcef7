"""The SGF syntax layer on its own: trees of nodes with properties in file order and where they
start, escapes, the character set of bytes, and writing trees that read back the same."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from blokus.errors import SgfError
from blokus.sgf import syntax


def shape(node: syntax.Node) -> list[object]:
    """A node and everything below it as nested lists of property dicts."""
    return [node.properties, [shape(child) for child in node.children]]


def test_a_tree_reads_as_nodes_with_properties_in_file_order() -> None:
    [root] = syntax.read("(;GM[x]FF[4]ZZ[b][a]\n;B[aa]\n(;W[bb];B[cc])\n(;W[dd]))")
    assert list(root.properties) == ["GM", "FF", "ZZ"] and root.properties["ZZ"] == ["b", "a"]
    assert shape(root) == [
        {"GM": ["x"], "FF": ["4"], "ZZ": ["b", "a"]},
        [[{"B": ["aa"]}, [[{"W": ["bb"]}, [[{"B": ["cc"]}, []]]], [{"W": ["dd"]}, []]]]],
    ]
    main = root.children[0]
    assert main.parent is root and main.children[1].parent is main
    assert [(n.line, n.column) for n in (root, main, main.children[0], main.children[1])] == [
        (1, 2),
        (2, 1),
        (3, 2),
        (4, 2),
    ]


def test_collections_space_and_a_byte_order_mark() -> None:
    roots = syntax.read("\ufeff  ( ;A[1] \t B [2]\n[3] ; C[x] )\n\n(;D[y])  ")
    assert [shape(r) for r in roots] == [[{"A": ["1"], "B": ["2", "3"]}, [[{"C": ["x"]}, []]]], [{"D": ["y"]}, []]]


@pytest.mark.parametrize(
    ("raw", "value"),
    [
        ("plain", "plain"),
        ("a\\]b", "a]b"),
        ("back\\\\slash", "back\\slash"),
        ("\\a\\b", "ab"),
        ("soft\\\nbreak", "softbreak"),
        ("soft\\\r\nbreak", "softbreak"),
        ("soft\\\n\rbreak", "softbreak"),
        ("two\\\n\nbreaks", "two\nbreaks"),
        ("kept\nbreak", "kept\nbreak"),
        ("", ""),
    ],
)
def test_values_are_unescaped(raw: str, value: str) -> None:
    assert syntax.unescape(raw) == value
    [root] = syntax.read(f"(;C[{raw}])")
    assert root.properties["C"] == [value]


@pytest.mark.parametrize("value", ["", "a]b", "\\", "\\]", "x\\\ny", "[]", "Grüße ] \\ ok"])
def test_written_values_read_back(value: str) -> None:
    [root] = syntax.read(f"(;C[{syntax.escape(value)}])")
    assert root.properties["C"] == [value]


def test_written_trees_read_back_the_same() -> None:
    text = "(;GM[x]C[a \\] b\\\\]\n;B[aa]\n(;W[bb]\n;B[cc])\n(;W[dd]))\n"
    [root] = syntax.read(text)
    assert syntax.write(root) == text
    again = syntax.write(root, [("FF", ["4"]), *root.properties.items()])
    assert again.startswith("(;FF[4]GM[x]C[") and shape(syntax.read(again)[0])[1] == shape(root)[1]


class Recorder:
    """A builder that keeps what it is handed: (parent number, ids, where the node and its last
    property start)."""

    def __init__(self) -> None:
        self.seen: list[tuple[int | None, list[str], tuple[int, int], tuple[int, int]]] = []

    def node(self, parent: int | None, properties: dict[str, list[str]], source: syntax.NodeSource) -> int:
        last = list(properties)[-1] if properties else None
        self.seen.append((parent, list(properties), source.where(), source.where(last)))
        return len(self.seen) - 1


def test_builders_get_each_node_in_file_order_below_its_parent() -> None:
    recorder = Recorder()
    roots = syntax.parse("(;A[1]\n;B[2]  C[3](;D[4])(;E[5];F[6]))(;G[7])", recorder)
    assert roots == [0, 5]
    assert recorder.seen == [
        (None, ["A"], (1, 2), (1, 3)),
        (0, ["B", "C"], (2, 1), (2, 8)),
        (1, ["D"], (2, 13), (2, 14)),
        (1, ["E"], (2, 20), (2, 21)),
        (3, ["F"], (2, 25), (2, 26)),
        (None, ["G"], (2, 33), (2, 34)),
    ]


class Refuser:
    """A builder that refuses a node holding R, at that property."""

    def node(self, parent: None, properties: dict[str, list[str]], source: syntax.NodeSource) -> None:
        if "R" in properties:
            raise source.error("no R here", "R")


def test_a_builder_refuses_a_node_where_it_stands() -> None:
    with pytest.raises(SgfError, match="no R here") as e:
        syntax.parse("(;A[1]\n;B[1]  R[2])", Refuser())
    assert (e.value.line, e.value.column) == (2, 8)


def test_the_root_is_read_without_the_rest() -> None:
    assert syntax.read_root("(;GM[x]CA[UTF-8];B[never closed") == {"GM": ["x"], "CA": ["UTF-8"]}
    with pytest.raises(SgfError, match="expected '\\]' to end the value of GM"):
        syntax.read_root("(;GM[x")
    with pytest.raises(SgfError, match="expected '\\(' to start a game tree"):
        syntax.read_root(";GM[x]")


# --- the character set of bytes ---


@pytest.mark.parametrize(
    ("data", "text"),
    [
        # ISO-8859-1 without CA: not valid UTF-8, so read as SGF's default (Pentobi reads these).
        (b"(;PB[Jos\xe9])", "(;PB[Jos\xe9])"),
        (b"(;CA[ISO-8859-1]PB[Jos\xe9])", "(;CA[ISO-8859-1]PB[Jos\xe9])"),
        (b"(;PB[Jos\xe9]\n CA [ latin1 ];C[x])", "(;PB[Jos\xe9]\n CA [ latin1 ];C[x])"),
        # UTF-8: CA only counts as the root's own property, not in a comment or another id.
        (b"(;C[CA[ISO-8859-1\\]]PB[Jos\xc3\xa9])", "(;C[CA[ISO-8859-1\\]]PB[Jos\xe9])"),
        (b"(;XCA[ISO-8859-1]PB[Jos\xc3\xa9])", "(;XCA[ISO-8859-1]PB[Jos\xe9])"),
        (b"(;PB[Jos\xc3\xa9];CA[ISO-8859-1])", "(;PB[Jos\xe9];CA[ISO-8859-1])"),
        (b"(;PB[Jos\xc3\xa9])(;CA[ISO-8859-1])", "(;PB[Jos\xe9])(;CA[ISO-8859-1])"),
        (b"(;CA[UTF-8]PB[Jos\xc3\xa9])", "(;CA[UTF-8]PB[Jos\xe9])"),
        (b"\xef\xbb\xbf(;CA[UTF-8]PB[Jos\xc3\xa9])", "\ufeff(;CA[UTF-8]PB[Jos\xe9])"),
        # A root that cannot be read: the fallback, and reading will say what is wrong.
        (b"(;PB[Jos\xc3\xa9", "(;PB[Jos\xe9"),
    ],
)
def test_bytes_are_decoded_by_the_roots_charset(data: bytes, text: str) -> None:
    assert syntax.decode(data) == text


def test_declared_charsets_that_cannot_be_used() -> None:
    with pytest.raises(SgfError, match=r"unknown character set CA\[klingon\]"):
        syntax.decode(b"(;CA[klingon])")
    with pytest.raises(SgfError, match=r"unknown character set CA\[rot13\]"):
        syntax.decode(b"(;CA[rot13])")
    with pytest.raises(SgfError, match=r"not valid UTF-8 \(CA\[UTF-8\]\): byte 14"):
        syntax.decode(b"(;CA[UTF-8]PB[\xff])")
    with pytest.raises(SgfError) as e:
        syntax.decode(b"(;CA[" + b"x" * 10_000 + b"])")
    assert len(str(e.value)) < 200


# --- what cannot be read or written ---


def test_surrogates_are_not_characters() -> None:
    with pytest.raises(SgfError, match=r"'\\ud800' is a lone surrogate, not a character") as e:
        syntax.read("(;A[1]\n;C[ok \ud800])")
    assert (e.value.line, e.value.column) == (2, 7)
    str(e.value).encode("utf-8")  # the message itself can be printed
    root = syntax.Node(None, {"C": ["fine"]})
    root.children.append(syntax.Node(root, {"C": ["bad \udfff" + "x" * 1000]}))
    with pytest.raises(
        SgfError, match=r"cannot write C\[bad \\udfffxxx.*\] of node 1 .*index 4 is a lone surrogate"
    ) as w:
        syntax.write(root)
    assert len(str(w.value)) < 300
    str(w.value).encode("utf-8")


@pytest.mark.parametrize(
    ("properties", "error", "message"),
    [
        ({"B W": ["x"]}, SgfError, "property 'B W' of node 0 .*letters and digits"),
        ({"": ["x"]}, SgfError, "property '' of node 0"),
        ({"C": []}, SgfError, r"cannot write C of node 0 .*: it has no value \(an empty one is written C\[\]\)"),
        ({"C": "text"}, TypeError, "a list of str, not str"),
        ({"C": [3]}, TypeError, "values of C in node 0 .* are str, not int"),
    ],
)
def test_what_cannot_be_read_back_is_not_written(
    properties: dict[str, list[str]], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        syntax.write(syntax.Node(None, properties))


def test_messages_quote_long_input_briefly() -> None:
    long_id = "X" * 100_000
    for text in [f"(;{long_id}[a]{long_id}[b])", f"(;{long_id} x)", f"(;{long_id}[never closed"]:
        with pytest.raises(SgfError) as e:
            syntax.read(text)
        assert len(str(e.value)) < 200 and "XXX...XXX" in str(e.value)


@given(st.text(alphabet="ab\n", max_size=40), st.lists(st.integers(0, 40), max_size=8))
def test_lines_and_columns_are_found_in_any_order(text: str, offsets: list[int]) -> None:
    where = syntax._Text(text).where
    for i in (min(i, len(text)) for i in offsets):
        line = text.count("\n", 0, i) + 1
        assert where(i) == (line, i - (text.rfind("\n", 0, i) + 1) + 1)
