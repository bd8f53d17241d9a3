"""The lesson format's additions: objectives, checked SVG diagrams served safely, the next step."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from lessons.content import ContentError, read_lesson
from lessons.diagrams import UnsafeDiagram, check_svg
from lessons.models import Lesson
from lessons.services import load_course, set_lesson_published
from tutor.rendering import render_markdown

pytestmark = pytest.mark.django_db

SAFE_SVG = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 60" role="img" aria-labelledby="t">
  <title id="t">질문에서 답으로</title>
  <defs><marker id="arrow" markerWidth="8" markerHeight="8" refX="6" refY="4" orient="auto">
    <path d="M0,0 L8,4 L0,8 z" fill="#333"/></marker></defs>
  <rect x="5" y="15" width="60" height="30" rx="4" fill="#eef3f8" stroke="#333"/>
  <text x="35" y="35" text-anchor="middle" font-size="14">질문</text>
  <line x1="65" y1="30" x2="130" y2="30" stroke="#333" marker-end="url(#arrow)"/>
  <text x="165" y="35" text-anchor="middle" font-size="14">답</text>
</svg>
"""
ALT = "질문 상자에서 화살표가 답으로 이어지는 그림"


@pytest.fixture
def content(tmp_path: Path) -> Path:
    target = tmp_path / "content"
    shutil.copytree(settings.CONTENT_DIR, target)
    return target


def with_diagram(content: Path, slug: str = "tool-calls", svg: str = SAFE_SVG, alt: str = ALT) -> Path:
    """Add ``diagrams/flow.svg`` to a lesson and show it at the top of its first part."""
    folder = content / slug
    (folder / "diagrams").mkdir(exist_ok=True)
    (folder / "diagrams" / "flow.svg").write_text(svg, encoding="utf-8")
    lesson_md = folder / "lesson.md"
    text = lesson_md.read_text(encoding="utf-8")
    lesson_md.write_text(text.replace("{#analogy}\n", f"{{#analogy}}\n\n![{alt}](diagrams/flow.svg)\n", 1),
                         encoding="utf-8")
    return folder


def set_front_matter(folder: Path, extra: str) -> None:
    lesson_md = folder / "lesson.md"
    text = lesson_md.read_text(encoding="utf-8")
    text = re.sub(r"^objectives:\n(  - .*\n)+", "", text, flags=re.MULTILINE)
    lesson_md.write_text(text.replace("---\n", "---\n" + extra, 1), encoding="utf-8")


def test_objectives_are_read_in_order_and_shown_at_the_top(content: Path, client: Client) -> None:
    """The front matter's objectives appear under 학습 목표, before the first part."""
    set_front_matter(content / "tool-calls", "objectives:\n  - 첫째 목표를 해낸다.\n  - 둘째 목표를 해낸다.\n")
    assert read_lesson(content / "tool-calls").objectives == ["첫째 목표를 해낸다.", "둘째 목표를 해낸다."]
    load_course(content_dir=content)
    page = client.get("/lessons/tool-calls/").content.decode()
    assert page.index("학습 목표") < page.index("첫째 목표를 해낸다.") < page.index("둘째 목표") < page.index('data-part="analogy"')
    assert client.get("/api/lessons/tool-calls").json()["objectives"][0] == "첫째 목표를 해낸다."


@pytest.mark.parametrize("objectives", [
    "objectives:\n  - 하나뿐\n",
    "objectives:\n" + "".join(f"  - 목표 {n}\n" for n in range(6)),
    "objectives:\n  - 있다\n  - ''\n",
    "objectives: 목록이 아닌 문장\n",
    "objectives:\n  - 첫째 목표\n  - 따옴표 없이 쓴 콜론: 은 묶음이 된다\n",
])
def test_objectives_outside_two_to_five_sentences_are_refused(content: Path, objectives: str) -> None:
    set_front_matter(content / "tool-calls", objectives)
    with pytest.raises(ContentError, match="objectives"):
        read_lesson(content / "tool-calls")


def test_a_safe_diagram_passes() -> None:
    check_svg(SAFE_SVG)


@pytest.mark.parametrize(("change", "why"), [
    (("<title", '<script>alert(1)</script><title'), "script"),
    (('role="img"', 'role="img" onload="alert(1)"'), "onload"),
    (("<title", "<foreignObject><p>x</p></foreignObject><title"), "foreignObject"),
    (("<title", '<image href="https://evil.example/x.png"/><title'), "image"),
    (("<title", '<use href="https://evil.example/s.svg#a"/><title'), "use"),
    (("<title", "<style>@import url(https://evil.example/a.css);</style><title"), "style"),
    (('fill="#eef3f8"', 'fill="url(https://evil.example/p)"'), "fill"),
    (('fill="#eef3f8"', 'style="fill:red"'), "style"),
    (('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 60"', '<svg xmlns="http://www.w3.org/2000/svg"'),
     "viewBox"),
    (("<svg ", '<!DOCTYPE svg [<!ENTITY x "y">]><svg '), "DOCTYPE"),
    (('xmlns="http://www.w3.org/2000/svg"', 'xmlns="http://www.w3.org/1999/xhtml"'), "svg"),
    (("<title", '<a href="javascript:alert(1)"><text>x</text></a><title'), "a"),
])
def test_unsafe_diagrams_are_refused_with_the_reason(change: tuple[str, str], why: str) -> None:
    """Script, events, foreign content, outside references and inline styles never get through."""
    old, new = change
    assert old in SAFE_SVG
    with pytest.raises(UnsafeDiagram, match=why):
        check_svg(SAFE_SVG.replace(old, new, 1))


def test_an_unsafe_diagram_stops_the_load_naming_the_file(content: Path) -> None:
    folder = with_diagram(content, svg=SAFE_SVG.replace("<title", "<script>x()</script><title"))
    with pytest.raises(ContentError, match=r"diagrams/flow\.svg"):
        read_lesson(folder)


@pytest.mark.parametrize("image", [
    "![그림](diagrams/missing.svg)",
    "![바깥 그림](https://example.org/x.svg)",
    "![](diagrams/flow.svg)",
])
def test_images_other_than_the_lessons_own_described_diagrams_are_refused(content: Path, image: str) -> None:
    folder = with_diagram(content)
    lesson_md = folder / "lesson.md"
    lesson_md.write_text(lesson_md.read_text(encoding="utf-8").replace("{#mechanism}\n", "{#mechanism}\n\n" + image + "\n", 1),
                         encoding="utf-8")
    with pytest.raises(ContentError, match="그림"):
        read_lesson(folder)


def test_markdown_people_write_never_shows_images() -> None:
    """Learners' and reviewers' text is rendered without images, even one naming a diagram."""
    html = render_markdown(f"![{ALT}](diagrams/flow.svg) ![x](https://example.org/t.png)")
    assert "<img" not in html


def diagram_url(page: str) -> str:
    match = re.search(r'<img class="diagram" src="([^"]+)" alt="([^"]+)"', page)
    assert match, "no diagram on the page"
    assert match.group(2) == ALT
    return match.group(1)


def test_a_diagram_is_an_img_with_its_alt_and_is_served_as_inert_svg(content: Path, client: Client) -> None:
    with_diagram(content)
    load_course(content_dir=content)
    url = diagram_url(client.get("/lessons/tool-calls/").content.decode())
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml; charset=utf-8"
    assert response["Content-Security-Policy"] == "default-src 'none'; sandbox"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response.content.decode() == SAFE_SVG


def test_an_older_version_keeps_its_own_diagram(content: Path, client: Client) -> None:
    """Changing the SVG makes a new lesson version with a new URL; the old URL still shows the old figure."""
    folder = with_diagram(content)
    load_course(content_dir=content)
    old_url = diagram_url(client.get("/lessons/tool-calls/").content.decode())
    (folder / "diagrams" / "flow.svg").write_text(SAFE_SVG.replace("질문</text>", "물음</text>"), encoding="utf-8")
    load_course(content_dir=content)
    new_url = diagram_url(client.get("/lessons/tool-calls/").content.decode())
    assert new_url != old_url
    assert "물음" in client.get(new_url).content.decode()
    assert "물음" not in client.get(old_url).content.decode()


def test_a_diagram_of_an_unpublished_lesson_is_404_to_learners_and_visitors(
    content: Path, client: Client, learner_client: Client, instructor: User
) -> None:
    with_diagram(content)
    load_course(content_dir=content)
    url = diagram_url(client.get("/lessons/tool-calls/").content.decode())
    set_lesson_published(lesson=Lesson.objects.get(slug="tool-calls"), published=False, actor=None, reason="시험")
    assert client.get(url).status_code == 404
    assert learner_client.get(url).status_code == 404
    teacher = Client()
    teacher.force_login(instructor)
    assert teacher.get(url).status_code == 200


def test_a_made_up_digest_or_name_is_404(content: Path, client: Client) -> None:
    with_diagram(content)
    load_course(content_dir=content)
    url = diagram_url(client.get("/lessons/tool-calls/").content.decode())
    digest = url.rstrip("/").split("/")[-2]
    assert client.get(url.replace(digest, "0" * 64)).status_code == 404
    assert client.get(url.replace("flow.svg", "other.svg")).status_code == 404
    assert client.get(url.replace("/tool-calls/", "/tool-retries/")).status_code == 404


def test_the_next_step_names_the_next_lesson_and_this_lessons_evidence_tasks(course: list[Lesson], client: Client) -> None:
    """After the last part: this lesson's evidence tasks, then a link to the next visible lesson by order."""
    ordered = sorted((lesson for lesson in course if lesson.is_published), key=lambda item: (item.order, item.slug))
    first, second = ordered[0], ordered[1]
    page = client.get(f"/lessons/{first.slug}/").content.decode()
    step = page[page.index('id="next-step"'):]
    assert f'href="/lessons/{second.slug}/"' in step
    tasks = first.evidence_tasks.all()
    assert tasks and all(f'href="{reverse("evidence:task", args=[task.slug])}"' in step for task in tasks)
    last = client.get(f"/lessons/{ordered[-1].slug}/").content.decode()
    assert "과정의 마지막 레슨입니다." in last[last.index('id="next-step"'):]


def test_the_next_step_skips_a_lesson_the_reader_may_not_see(course: list[Lesson], client: Client) -> None:
    ordered = sorted((lesson for lesson in course if lesson.is_published), key=lambda item: (item.order, item.slug))
    set_lesson_published(lesson=ordered[1], published=False, actor=None, reason="시험")
    page = client.get(f"/lessons/{ordered[0].slug}/").content.decode()
    step = page[page.index('id="next-step"'):]
    assert f'href="/lessons/{ordered[1].slug}/"' not in step
    assert f'href="/lessons/{ordered[2].slug}/"' in step


def test_reading_is_not_mastery_is_said_once_at_the_end_of_the_explain_part(course: list[Lesson], client: Client) -> None:
    for lesson in course:
        page = client.get(f"/lessons/{lesson.slug}/").content.decode()
        explain = page[page.index('data-part="explain"'):page.index('data-part="sources"')]
        assert page.count("읽기는 숙달이 아닙니다") == 1, lesson.slug
        assert "읽기는 숙달이 아닙니다" in explain, lesson.slug


def test_predictive_self_checks_are_marked_as_such_on_the_page_and_in_the_api(course: list[Lesson], client: Client) -> None:
    """A self-check written as a prediction says so, so the learner writes a prediction before revealing."""
    lesson = Lesson.objects.get(slug="keyword-retrieval")
    checks = list(lesson.current_version.self_checks.all())
    predictive = [check for check in checks if check.kind == "predict"]
    assert predictive and len(predictive) < len(checks)
    page = client.get("/lessons/keyword-retrieval/").content.decode()
    for check in checks:
        card = page[page.index(f'id="check-{check.key}"'):]
        card = card[:card.index("</h3>")]
        assert ("예측" in card) == (check.kind == "predict"), check.key
    api = client.get("/api/lessons/keyword-retrieval").json()
    assert [item["kind"] for item in api["self_checks"]] == [check.kind for check in checks]


def test_an_unknown_self_check_kind_is_refused(content: Path) -> None:
    path = content / "keyword-retrieval" / "self_checks.yaml"
    text = path.read_text(encoding="utf-8")
    assert "  kind: predict\n" in text
    path.write_text(text.replace("  kind: predict\n", "  kind: guess\n", 1), encoding="utf-8")
    with pytest.raises(ContentError, match="kind"):
        read_lesson(content / "keyword-retrieval")
