"""The course's order holds: prerequisites come first, references name lessons a learner has done, maps show it.

A reference to another lesson is a link with its title (``/lessons/<slug>/``);
positional words ("지난 단원", "나중에 배울", "5번 레슨", "12단원") are refused
because the order changes while titles stay. A link to a later lesson must say
so in its sentence ("뒤의 레슨", "이어지는 레슨"); a link to an earlier one must
point at a lesson this one requires (directly or through its prerequisites).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from lessons.content import ContentError, LessonSource, read_course
from lessons.models import Lesson
from lessons.services import load_course, set_lesson_published

CONTENT = Path(settings.CONTENT_DIR)
POSITIONAL = re.compile(
    r"(지난|앞|이전|다음|저번)\s*(단원|레슨)|나중에\s*배울|뒤에서\s*배울|\d+\s*단원|\d+\s*번\s*레슨|\d+번째\s*레슨|레슨\s*\d+"
)
LESSON_LINK = re.compile(r"\(/lessons/([a-z0-9-]+)/\)")
FORWARD_WORDS = ("뒤의 레슨", "이어지는 레슨")
# Every lesson states its doing time; a lesson listed here would be let off (none is).
WITHOUT_DOING_TIME: set[str] = set()
# The order by dependency (issue 21): foundations, retrieval, acting with permission, systems.
EXPECTED_ORDER = [
    "answer-from-sources", "structured-output", "tool-calls", "tool-retries",
    "keyword-retrieval", "toy-embedding-search", "retrieval-limits", "graph-rag-recheck",
    "mcp-stdio", "approval-workflow", "agent-flow",
    "multi-agent-roles", "delivery-records", "ontology-questions",
    "citation-metrics", "prompt-injection", "mcp-tool-pinning", "agent-sandbox", "capstone",
]


def lessons() -> list[LessonSource]:
    return sorted(read_course(CONTENT)[1], key=lambda lesson: lesson.order)


def prerequisites(slug: str, by_slug: dict[str, LessonSource]) -> set[str]:
    """Every lesson ``slug`` asks for, directly or through the lessons it asks for."""
    seen: set[str] = set()
    todo = list(by_slug[slug].requires)
    while todo:
        current = todo.pop()
        if current not in seen:
            seen.add(current)
            todo.extend(by_slug[current].requires)
    return seen


def authored_texts(slug: str) -> list[tuple[Path, str]]:
    """Every text a learner reads for this lesson: the lesson, its checks, tasks, labs and exercises."""
    folder = CONTENT / slug
    paths = [folder / "lesson.md", folder / "self_checks.yaml", folder / "evidence.yaml"]
    paths += sorted(folder.glob("labs/*/lab.yaml")) + sorted(folder.glob("exercises/*/exercise.yaml"))
    return [(path, path.read_text(encoding="utf-8")) for path in paths if path.is_file()]


def test_lessons_follow_the_dependency_order() -> None:
    """Foundations, then retrieval, then acting with permission, then systems; orders are 1..N without gaps."""
    course = lessons()
    assert [lesson.slug for lesson in course] == EXPECTED_ORDER
    assert [lesson.order for lesson in course] == list(range(1, len(course) + 1))


def test_every_prerequisite_comes_before_the_lesson_that_uses_it() -> None:
    """``requires:`` names existing lessons, each earlier in the order (so the graph has no cycle)."""
    course = lessons()
    order = {lesson.slug: lesson.order for lesson in course}
    for lesson in course:
        for slug in lesson.requires:
            assert slug in order, f"{lesson.slug}: requires의 {slug}가 없습니다"
            assert order[slug] < lesson.order, f"{lesson.slug}: {slug}가 뒤에 있습니다"
        if lesson.order > 1:
            assert lesson.requires, f"{lesson.slug}: 첫 레슨 말고는 먼저 할 레슨이 있어야 합니다"


def test_every_lesson_states_its_time_for_doing() -> None:
    """Each lesson gives reading, lab and task minutes (lesson 1 waits for its branch: listed, and must catch up)."""
    for lesson in lessons():
        stated = lesson.minutes > 0 and lesson.lab_minutes > 0 and lesson.task_minutes > 0
        if lesson.slug in WITHOUT_DOING_TIME:
            assert not stated, f"{lesson.slug}는 이제 시간을 적었으니 WITHOUT_DOING_TIME에서 빼세요"
        else:
            assert stated, f"{lesson.slug}: minutes, lab_minutes, task_minutes가 필요합니다"


@pytest.mark.parametrize("slug", EXPECTED_ORDER)
def test_no_positional_reference_to_another_lesson(slug: str) -> None:
    """No lesson text says "지난 단원", "나중에 배울", "N단원" or "N번 레슨": it names the lesson by a link."""
    for path, text in authored_texts(slug):
        found = [m.group(0) for m in POSITIONAL.finditer(text)]
        assert not found, f"{path}: 자리로 가리키는 말 {found} (제목 링크로 바꾸세요)"


@pytest.mark.parametrize("slug", EXPECTED_ORDER)
def test_links_to_lessons_point_to_what_the_learner_has_done(slug: str) -> None:
    """A linked lesson exists; an earlier one is among this lesson's prerequisites, a later one is said to come later."""
    by_slug = {lesson.slug: lesson for lesson in lessons()}
    done = prerequisites(slug, by_slug)
    for path, text in authored_texts(slug):
        for line in text.splitlines():
            for target in LESSON_LINK.findall(line):
                assert target in by_slug, f"{path}: 없는 레슨 {target}"
                if by_slug[target].order > by_slug[slug].order:
                    assert any(word in line for word in FORWARD_WORDS), (
                        f"{path}: 뒤에 오는 {target}를 가리키면서 '뒤의 레슨'이라고 말하지 않습니다")
                else:
                    assert target in done, f"{path}: {target}는 이 레슨의 requires(이어진 것 포함)에 없습니다"


def test_a_prerequisite_that_comes_later_fails_loading(tmp_path: Path) -> None:
    """load_course refuses ``requires:`` naming a later lesson, naming the file."""
    content = tmp_path / "content"
    shutil.copytree(CONTENT, content)
    path = content / "structured-output" / "lesson.md"
    path.write_text(path.read_text(encoding="utf-8").replace("requires: [answer-from-sources]",
                                                             "requires: [tool-calls]"), encoding="utf-8")
    with pytest.raises(ContentError, match=r"structured-output/lesson.md: requires의 'tool-calls'"):
        read_course(content)


def test_a_misspelt_front_matter_key_fails_with_its_line(tmp_path: Path) -> None:
    """An unknown key in the front matter (here ``require:``) stops loading with the file and its line number."""
    content = tmp_path / "content"
    shutil.copytree(CONTENT, content)
    path = content / "tool-calls" / "lesson.md"
    text = path.read_text(encoding="utf-8")
    line = text.splitlines().index("requires: [structured-output]") + 1
    path.write_text(text.replace("requires: [structured-output]", "require: [structured-output]"), encoding="utf-8")
    with pytest.raises(ContentError, match=rf"tool-calls/lesson.md:{line}: require: Extra inputs"):
        read_course(content)


@pytest.mark.django_db
def test_catalogue_shows_the_course_map_with_prerequisites(client: Client) -> None:
    """The catalogue lists every lesson in order with links to what to do first and the total time."""
    load_course(content_dir=CONTENT)
    page = client.get(reverse("lessons:catalogue")).content.decode()
    assert 'aria-labelledby="course-map-title"' in page and "과정 지도" in page
    section = page.split('id="course-map-title"', 1)[1].split("</section>", 1)[0]
    positions = [section.index(f'href="/lessons/{slug}/"') for slug in EXPECTED_ORDER]
    assert positions == sorted(positions)
    tool_retries = section.split('href="/lessons/tool-retries/"', 1)[1].split("</li>", 1)[0]
    assert 'href="/lessons/tool-calls/"' in tool_retries and "먼저:" in tool_retries


@pytest.mark.django_db
def test_lesson_page_shows_prerequisites_and_time_for_doing(client: Client) -> None:
    """A lesson page names its prerequisites (as links) and its reading, lab and task minutes."""
    load_course(content_dir=CONTENT)
    page = client.get(reverse("lessons:detail", args=["tool-retries"])).content.decode()
    assert "먼저 할 레슨:" in page and 'href="/lessons/tool-calls/"' in page
    assert "읽기 약 50분 · 실습 약 45분 · 과제 약 90분" in page


@pytest.mark.django_db
def test_unpublished_prerequisite_is_not_named_to_a_learner(client: Client) -> None:
    """A prerequisite the visitor may not see is left out of the page and the map (no title, no link)."""
    load_course(content_dir=CONTENT)
    hidden = Lesson.objects.get(slug="tool-calls")
    set_lesson_published(lesson=hidden, published=False, actor=None, reason="시험")
    page = client.get(reverse("lessons:detail", args=["tool-retries"])).content.decode()
    header = page.split('id="lesson-title"', 1)[1].split("학습 목표", 1)[0]
    assert "먼저 할 레슨:" not in header and "도구 호출:" not in header
    catalogue = client.get(reverse("lessons:catalogue")).content.decode()
    section = catalogue.split('id="course-map-title"', 1)[1].split("</section>", 1)[0]
    assert 'href="/lessons/tool-calls/"' not in section and 'href="/lessons/tool-retries/"' in section


@pytest.mark.django_db
def test_progress_stays_with_the_same_lessons_after_reordering() -> None:
    """Reloading with a new order changes ``order`` only: the Lesson rows (and what hangs on them) stay."""
    load_course(content_dir=CONTENT)
    before = dict(Lesson.objects.values_list("slug", "pk"))
    Lesson.objects.filter(slug="tool-calls").update(order=11)  # its place before issue 21
    load_course(content_dir=CONTENT)
    assert dict(Lesson.objects.values_list("slug", "pk")) == before
    assert Lesson.objects.get(slug="tool-calls").order == 3
