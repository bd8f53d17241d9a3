"""Markdown to safe HTML: markdown-it-py, Pygments for code, nh3 as the last word.

Used for lesson text at load time and for anything a person writes later;
whatever the Markdown says, only the allow-listed tags and attributes survive.
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

import nh3
from markdown_it import MarkdownIt
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_by_name
from pygments.util import ClassNotFound

_TAGS = {
    "p", "br", "hr", "h3", "h4", "h5", "strong", "em", "code", "pre", "span", "div",
    "ul", "ol", "li", "blockquote", "table", "thead", "tbody", "tr", "th", "td", "a", "kbd",
    "del", "sup", "sub",
}
_ATTRIBUTES = {
    "a": {"href", "title"},
    "span": {"class"},
    "div": {"class"},
    "pre": {"class"},
    "code": {"class"},
    "h3": {"id"},
    "h4": {"id"},
    "th": {"scope", "style"},
    "td": {"style"},
    "ol": {"start"},
}
_FORMATTER = HtmlFormatter(nowrap=True)


def _highlight(code: str, lang: str, _attrs: str) -> str:
    """Highlight a fenced block; unknown languages fall back to escaped text."""
    try:
        lexer = get_lexer_by_name(lang or "text")
    except ClassNotFound:
        lexer = get_lexer_by_name("text")
    body = highlight(code, lexer, _FORMATTER)
    label = html.escape(lang or "text")
    return f'<pre class="code" data-lang="{label}"><code class="highlight language-{label}">{body}</code></pre>'


def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False, "linkify": False, "highlight": _highlight}).enable(
        "table"
    ).enable("strikethrough")


_MD = _parser()


def sanitize(fragment: str, *, images: bool = False) -> str:
    """Keep only the allow-listed markup. Table alignment styles are dropped: CSP forbids inline style.

    Images survive only when ``images`` is set (authored lesson parts, whose image
    sources ``render_part`` then checks against the lesson's own diagrams).
    """
    tags, attributes = set(_TAGS), {tag: attrs - {"style"} for tag, attrs in _ATTRIBUTES.items()}
    if images:
        tags.add("img")
        attributes["img"] = {"src", "alt"}
    return nh3.clean(
        fragment,
        tags=tags,
        attributes=attributes,
        url_schemes={"http", "https", "mailto"},
        link_rel="noopener noreferrer",
        # A code block or table may scroll sideways at 360 px: the keyboard must reach it to scroll it.
        set_tag_attribute_values={"pre": {"tabindex": "0"}, "table": {"tabindex": "0"}},
    )


@functools.lru_cache(maxsize=2048)
def _render_authored(text: str) -> str:
    """Markdown of a lesson part, images kept for ``render_part`` to check: the same text renders the
    same, and the course is read at every start and in many tests, so each text is rendered once."""
    return sanitize(_MD.render(text), images=True)


def render_markdown(text: str) -> str:
    """Render untrusted or authored Markdown to sanitised HTML."""
    return sanitize(_MD.render(text))


_USER_TAGS = {"h6"}


def render_user_markdown(text: str) -> str:
    """Render what a person wrote (evidence, a review comment) to sanitised HTML.

    Their headings sit inside a page that already has its own ``h1`` and ``h2``: ``#`` becomes ``h3``,
    ``##`` becomes ``h4`` and so on down to ``h6``, so "## 고친 점 요약" shows as a heading (not as the
    plain text the lesson allow-list would leave) and the page's outline stays in order.
    """
    tokens = _MD.parse(text)
    for token in tokens:
        if token.type in ("heading_open", "heading_close"):
            token.tag = f"h{min(int(token.tag[1]) + 2, 6)}"
    html_text = _MD.renderer.render(tokens, _MD.options, {})
    return nh3.clean(
        html_text,
        tags=_TAGS | _USER_TAGS,
        attributes={tag: attrs - {"style", "id"} for tag, attrs in _ATTRIBUTES.items()},
        url_schemes={"http", "https", "mailto"},
        link_rel="noopener noreferrer nofollow",
        set_tag_attribute_values={"pre": {"tabindex": "0"}, "table": {"tabindex": "0"}},
    )


def render_inline_markdown(text: str) -> str:
    """One line of authored Markdown (a rubric level's description): `code`, **strong**, links; no blocks."""
    return sanitize(_MD.renderInline(text))


@dataclass
class Heading:
    anchor: str
    label: str
    title: str


@dataclass
class RenderedPart:
    html: str
    subheadings: list[Heading] = field(default_factory=list)


class UnknownImage(ValueError):
    """A lesson part shows an image that is not one of the lesson's checked diagrams."""


_H3 = re.compile(r"<h3>(.*?)</h3>", re.S)
_IMG = re.compile(r"<img\b([^>]*)>")
_IMG_ATTR = re.compile(r'(src|alt)="([^"]*)"')


def _diagram_tag(match: re.Match[str], images: Mapping[str, str]) -> str:
    """Point an image at its served diagram, or refuse it: only the lesson's own SVGs, each with alt text."""
    attrs = dict(_IMG_ATTR.findall(match.group(1)))
    src, alt = html.unescape(attrs.get("src", "")), attrs.get("alt", "")
    if src not in images:
        raise UnknownImage(f"그림 '{src}'는 이 레슨의 diagrams/ 폴더에 있는 SVG가 아닙니다.")
    if not alt.strip():
        raise UnknownImage(f"그림 '{src}'에 대체 텍스트(![대체 텍스트](…))가 없습니다.")
    return f'<img class="diagram" src="{html.escape(images[src])}" alt="{alt}" loading="lazy">'


def render_part(text: str, part_number: int, images: Mapping[str, str] | None = None) -> RenderedPart:
    """Render one lesson part, numbering its level-3 headings ``n.m`` with matching anchors.

    ``images`` maps a Markdown image source (``diagrams/<name>.svg``) to the URL
    that serves that checked diagram; any other image raises ``UnknownImage``.
    """
    rendered = _render_authored(text)
    rendered = _IMG.sub(lambda match: _diagram_tag(match, images or {}), rendered)
    subheadings: list[Heading] = []

    def number(match: re.Match[str]) -> str:
        index = len(subheadings) + 1
        heading = Heading(
            anchor=f"s{part_number}-{index}",
            label=f"{part_number}.{index}",
            title=re.sub(r"<[^>]+>", "", match.group(1)),
        )
        subheadings.append(heading)
        return (
            f'<h3 id="{heading.anchor}"><span class="num">{heading.label}</span> {match.group(1)}</h3>'
        )

    # Numbering runs after sanitising, on markup nh3 produced, so the ids are ours.
    return RenderedPart(html=_H3.sub(number, rendered), subheadings=subheadings)

