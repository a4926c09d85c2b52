"""An icon file's `<style>` sheets and `style="…"` attributes, as CSS gives them to each element.

Inkscape and Illustrator write `.st0{fill:#fff}` rules and `style` attributes: a rule's selector is a
type, an id, classes, or `*`, alone or together (`path.st0`, `#a`), and a list of them. Anything else in a
selector (`g > path`, `a:hover`, `[fill]`) is not read: StyleSheetError says which.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

COMMENT = re.compile(r"/\*.*?\*/", re.S)
AT_RULE = re.compile(r"@[\w-]+[^{;]*(?:;|\{(?:[^{}]|\{[^{}]*\})*\})")  # @font-face {…}, @media … {…{…}}, @charset …;
COMPOUND = re.compile(r"(\*|[A-Za-z][\w-]*)?((?:[#.][\w-]+)*)")


class StyleSheetError(ValueError):
    """A rule this reader cannot apply, in words."""


@dataclass(frozen=True)
class Rule:
    specificity: tuple[int, int, int]  # ids, classes, types: the higher wins, then the later rule
    order: int
    tag: str | None  # None: any
    id: str | None
    classes: frozenset[str]
    declarations: tuple[tuple[str, str], ...]

    def matches(self, tag: str, node_id: str | None, classes: frozenset[str]) -> bool:
        return (self.tag is None or self.tag == tag) and (self.id is None or self.id == node_id) \
            and self.classes <= classes


def declarations(text: str) -> list[tuple[str, str]]:
    """`fill: red; stroke: none` as [(property, value)], `!important` dropped."""
    out = []
    for part in COMMENT.sub("", text).split(";"):
        name, colon, value = part.partition(":")
        if colon and name.strip():
            out.append((name.strip().lower(), value.replace("!important", "").strip()))
    return out


def parse_sheet(text: str, first_order: int = 0) -> list[Rule]:
    """The rules of one `<style>` element, in order."""
    text = AT_RULE.sub("", COMMENT.sub("", text))
    rules = []
    for block in text.split("}"):
        selectors, brace, body = block.partition("{")
        if not brace:
            if block.strip():
                raise StyleSheetError(f"{block.strip()[:40]!r} is not a CSS rule")
            continue
        found = declarations(body)
        for selector in selectors.split(","):
            selector = selector.strip()
            match = COMPOUND.fullmatch(selector)
            if not selector or not match:
                raise StyleSheetError(f"selector {selector[:40]!r}: only types, ids and classes are read")
            tag, rest = match.group(1), match.group(2)
            ids = re.findall(r"#([\w-]+)", rest)
            classes = frozenset(re.findall(r"\.([\w-]+)", rest))
            rules.append(Rule((len(ids), len(classes), 1 if tag and tag != "*" else 0), first_order + len(rules),
                              None if tag in (None, "*") else tag, ids[0] if ids else None, classes, tuple(found)))
    return rules


def cascade(rules: list[Rule]) -> list[Rule]:
    """The rules in the order they apply: the later of two overrides the earlier."""
    return sorted(rules, key=lambda rule: (rule.specificity, rule.order))
