"""Check a lesson's SVG diagrams before they reach a page.

A diagram is shown with ``<img>`` (so the browser never runs anything in it),
but it is also served as a file a person can open directly, so it must be inert
on its own: drawing elements only, no script, no event attributes, no
``foreignObject``, no reference to anything outside itself, no inline styles
(the site's CSP forbids them). What is not on the allow-list is refused, with
the file and the fault named, when the course is loaded.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

SVG_NS = "http://www.w3.org/2000/svg"
DIAGRAM_NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,48}\.svg\Z")

_ELEMENTS = {
    "svg", "g", "defs", "title", "desc", "path", "rect", "circle", "ellipse", "line", "polyline",
    "polygon", "text", "tspan", "marker", "linearGradient", "radialGradient", "stop", "symbol",
}
_ATTRIBUTES = {
    "viewBox", "width", "height", "x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "rx", "ry",
    "d", "points", "fill", "fill-opacity", "fill-rule", "stroke", "stroke-width", "stroke-opacity",
    "stroke-dasharray", "stroke-linecap", "stroke-linejoin", "opacity", "transform", "id", "class",
    "font-family", "font-size", "font-weight", "font-style", "text-anchor", "dominant-baseline",
    "dx", "dy", "marker-start", "marker-mid", "marker-end", "markerWidth", "markerHeight", "refX",
    "refY", "orient", "markerUnits", "offset", "stop-color", "stop-opacity", "gradientUnits",
    "preserveAspectRatio", "role", "aria-labelledby", "aria-label", "letter-spacing",
    "textLength", "lengthAdjust", "version",
}
_LOCAL_URL = re.compile(r"url\((?!#[A-Za-z][\w-]*\))", re.IGNORECASE)


class UnsafeDiagram(ValueError):
    """An SVG that is not plain drawing; the message says what was found."""


def _local_name(tag: str) -> tuple[str, str]:
    if tag.startswith("{"):
        namespace, name = tag[1:].split("}", 1)
        return namespace, name
    return "", tag


def check_svg(text: str) -> None:
    """Raise ``UnsafeDiagram`` unless ``text`` is an SVG of drawing elements and local references only."""
    if re.search(r"<!(DOCTYPE|ENTITY)", text, re.IGNORECASE):
        raise UnsafeDiagram("DOCTYPE나 ENTITY 선언은 쓸 수 없습니다.")
    if "<?xml-stylesheet" in text:
        raise UnsafeDiagram("외부 스타일시트를 가리킬 수 없습니다.")
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise UnsafeDiagram(f"XML로 읽을 수 없습니다: {exc}") from exc
    if root.tag != f"{{{SVG_NS}}}svg":
        raise UnsafeDiagram("최상위 요소는 SVG 이름공간의 <svg>여야 합니다.")
    if "viewBox" not in root.attrib:
        raise UnsafeDiagram("<svg>에 viewBox가 있어야 작은 화면에서도 비율대로 줄어듭니다.")
    for element in root.iter():
        namespace, name = _local_name(element.tag)
        if namespace != SVG_NS or name not in _ELEMENTS:
            raise UnsafeDiagram(f"허용되지 않은 요소 <{name}>가 있습니다.")
        for attribute, value in element.attrib.items():
            attr_ns, attr_name = _local_name(attribute)
            if attr_ns or attr_name not in _ATTRIBUTES:
                raise UnsafeDiagram(f"<{name}>의 속성 '{attr_name}'는 허용되지 않습니다.")
            if _LOCAL_URL.search(value) or "javascript:" in value.lower():
                raise UnsafeDiagram(f"<{name}>의 '{attr_name}'가 문서 밖을 가리킵니다.")
