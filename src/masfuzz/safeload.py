"""Parse the YAML and JSON files a user hands masfuzz (manifests, suites) with their size bounded.

A few hundred bytes of YAML can stand for billions of nodes: an anchor whose list holds aliases of
another anchor's list, nine levels deep ("billion laughs"). PyYAML builds such a document cheaply,
sharing one object per anchor, but everything that walks it afterwards (the manifest's line
index, validation, a report) walks every alias anew: 500 bytes reached 5 GB. A document nested
thousands of levels deep overflows the recursive composer (and json's scanner) instead. So a
document may be nested at most `MAX_DEPTH` levels, counting what aliases expand to, aliases may
add at most `MAX_ALIAS_NODES` nodes beyond those written out, and an alias may not contain itself.
A document without aliases is never refused for its size: its cost is bounded by the file's.
Every refusal is the parser's own error type (`yaml.YAMLError` with the line,
`json.JSONDecodeError`), so a caller's existing handling turns it into one line.
"""

from __future__ import annotations

import json
from typing import Any

import yaml
from yaml.composer import ComposerError

MAX_DEPTH = 100  # masfuzz's own files are nested fewer than 20 levels
MAX_ALIAS_NODES = 100_000


class _BoundedLoader(yaml.SafeLoader):
    """The safe loader, refusing to compose a document nested deeper than `MAX_DEPTH`."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise ComposerError(None, None, f"nested deeper than {MAX_DEPTH} levels",
                                    self.peek_event().start_mark)
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    return []


def _check_expansion(root: yaml.Node) -> None:
    """Refuse a document whose aliases expand it too far (see the module's docstring). Walks each
    distinct node once, without recursion."""
    size: dict[int, int] = {}
    depth: dict[int, int] = {}
    open_: set[int] = set()  # nodes whose children are being walked: meeting one is a cycle
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, finished = stack.pop()
        key = id(node)
        if finished:
            kids = _children(node)
            size[key] = 1 + sum(size[id(k)] for k in kids)
            depth[key] = 1 + max((depth[id(k)] for k in kids), default=0)
            open_.discard(key)
            continue
        if key in size:
            continue
        if key in open_:
            raise ComposerError(None, None, "an alias that contains itself", node.start_mark)
        open_.add(key)
        stack.append((node, True))
        stack.extend((k, False) for k in _children(node) if id(k) not in size)
    added = size[id(root)] - len(size)
    if added > MAX_ALIAS_NODES:
        raise ComposerError(None, None, f"its aliases expand it by {added:,} nodes (at most "
                            f"{MAX_ALIAS_NODES:,} are read)", root.start_mark)
    if depth[id(root)] > MAX_DEPTH:
        raise ComposerError(None, None, f"its aliases nest it deeper than {MAX_DEPTH} levels",
                            root.start_mark)


def load_yaml(text: str) -> tuple[Any, yaml.Node | None]:
    """The document in `text` and its node graph (for line numbers), or `yaml.YAMLError`."""
    loader = _BoundedLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None, None
        _check_expansion(node)
        return loader.construct_document(node), node
    finally:
        loader.dispose()


def load_json(text: str) -> Any:
    """`json.loads`, with a document nested too deep for Python's stack a `JSONDecodeError`."""
    try:
        return json.loads(text)
    except RecursionError:
        raise json.JSONDecodeError("nested too deep to read", text, 0) from None
