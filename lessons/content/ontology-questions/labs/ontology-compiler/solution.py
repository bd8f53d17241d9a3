"""자연어 질문을 온톨로지 질의로 받아 서버가 검증·컴파일·실행하는 작은 컴파일러 (정답 코드).

모델은 부르지 않는다. 질문마다 모델이 돌려줬다고 치는 JSON 질의를 기록해 두었다.
서버(이 코드)가 하는 일은 네 가지다.
  1. 어휘 검증: 선언된 개념·속성·연산만 받는다. 없으면 "지원하지 않음".
  2. 범위 판정: 묻는 사람의 역할로 볼 수 없는 것을 콕 집어 물으면 "범위 밖".
  3. 범위 주입: 역할에 맞는 조건(본인, 수강 과목, 게시된 것, 활성 주차)을 언제나 붙인다.
  4. 실행: 값은 ?로 바인딩하고, 식별자는 선언에서만 가져오며, 읽기 전용·시간 제한으로 돌린다.
과목, 학생, 교수, 학습요소, 점수는 모두 지어낸 연습용 자료다.
"""

import sqlite3
import time

# ---- 가상 학습 관리 시스템의 자료 --------------------------------------------------------
SCHEMA = """
create table course(id text primary key, title text, published int, professor text);
create table enrollment(course_id text, student text);
create table week(id int primary key, course_id text, number int, active int);
create table item(id int primary key, week_id int, kind text, title text, due text, published int, score int);
create table viewing(item_id int, student text);
create table submission(item_id int, student text, status text);
"""
ROWS = {
    # C3은 S1이 수강 신청했지만 아직 게시하지 않은 과목, 5번 주차는 C1에 남은 지난 학기 1주차(비활성)다.
    "course": [("C1", "데이터베이스 기초", 1, "P1"), ("C2", "인공지능 입문", 1, "P2"), ("C3", "고급 데이터베이스", 0, "P1")],
    "enrollment": [("C1", "S1"), ("C2", "S2"), ("C3", "S1")],
    "week": [(1, "C1", 1, 1), (2, "C1", 2, 1), (3, "C1", 3, 1), (4, "C2", 1, 1), (5, "C1", 1, 0), (6, "C3", 1, 1)],
    "item": [(11, 1, "video", "1강 동영상", None, 1, None), (12, 1, "video", "2강 동영상", None, 1, None),
             (13, 1, "assignment", "과제 1", "2026-03-10", 1, 90), (21, 2, "assignment", "과제 2 (미게시)",
             "2026-03-17", 0, None), (31, 3, "assignment", "과제 3", "2026-03-24", 1, None),
             (41, 4, "assignment", "AI 과제 1", "2026-03-12", 1, 70),
             (51, 5, "video", "1강 동영상 (지난 학기)", None, 1, None), (61, 6, "video", "고급 1강 동영상", None, 1, None)],
    "viewing": [(11, "S1")],
    "submission": [(13, "S1", "제출함"), (41, "S2", "미제출")],
}

# ---- 온톨로지: 서버가 받아 주는 어휘 전부 ---------------------------------------------------
# 속성 → (SQL 식, 값의 타입, 이 속성을 쓸 수 있는 역할). 점수(score)는 일부러 선언하지 않았다.
ALL_ROLES = {"student", "professor", "admin"}
ONTOLOGY = {
    "learning_item": {
        "from": "item i join week w on w.id = i.week_id join course c on c.id = w.course_id",
        "attributes": {
            "title": ("i.title", str, ALL_ROLES),
            "kind": ("i.kind", str, ALL_ROLES),
            "week": ("w.number", int, ALL_ROLES),
            "due": ("i.due", str, ALL_ROLES),
            "course": ("c.title", str, ALL_ROLES),
            "published": ("i.published", bool, {"professor", "admin"}),
            "watched_by_me": ("exists(select 1 from viewing v where v.item_id = i.id and v.student = :me)",
                              bool, {"student"}),
        },
    },
    "submission": {
        "from": "submission s join item i on i.id = s.item_id join week w on w.id = i.week_id"
                " join course c on c.id = w.course_id",
        "attributes": {
            "item": ("i.title", str, ALL_ROLES),
            "student": ("s.student", str, ALL_ROLES),
            "status": ("s.status", str, ALL_ROLES),
        },
    },
}
OPERATORS = {"=": "=", "<": "<", ">": ">"}
TIME_LIMIT_SECONDS = 0.5


class Unsupported(Exception):
    """질의가 선언에 없는 어휘를 쓴다 (질의 의미의 오류)."""


class OutOfScope(Exception):
    """표현할 수는 있지만 이 사용자가 볼 수 없는 것을 콕 집어 묻는다."""


def validate(query):
    """선언된 개념·속성·연산·값 타입만 받는다. 통과하면 그 개념의 선언을 돌려준다."""
    concept = ONTOLOGY.get(query.get("find"))
    if concept is None:
        raise Unsupported(f"선언에 없는 개념 {query.get('find')!r}")
    attributes = concept["attributes"]
    for name in query.get("fields", []):
        if name not in attributes:
            raise Unsupported(f"{query['find']}에 선언되지 않은 속성 {name!r}")
    for name, op, value in query.get("where", []):
        if name not in attributes:
            raise Unsupported(f"{query['find']}에 선언되지 않은 속성 {name!r}")
        if op not in OPERATORS:
            raise Unsupported(f"선언에 없는 연산 {op!r}")
        if type(value) is not attributes[name][1]:
            raise Unsupported(f"{name}의 값은 {attributes[name][1].__name__}여야 함 (받은 값 {value!r})")
    return concept


def check_scope(query, concept, user):
    """역할로 볼 수 없는 것을 콕 집어 물으면 범위 밖이다. 답은 자료가 있든 없든 같은 문장이다."""
    for name, _op, value in query.get("where", []):
        if user["role"] not in concept["attributes"][name][2]:
            raise OutOfScope(f"{name} 조건은 {user['role']} 역할이 쓸 수 없음")
        if name == "student" and user["role"] == "student" and value != user["id"]:
            raise OutOfScope("다른 학생의 기록은 볼 수 없음")


def scope_conditions(query, user):
    """역할마다 언제나 붙이는 조건. 질문이 무엇을 말했든 상관없이 서버가 붙인다.

    약속: SQL 조건 글의 목록을 돌려준다(값은 :me로만 바인딩한다). 관리자는 조건 없음, 교수는 본인
    과목만, 학생은 수강하는 과목 가운데 학생에게 공개된 것만 본다. 학생의 제출 기록은 본인 것만.
    """
    if user["role"] == "admin":
        return []
    if user["role"] == "professor":
        return ["c.professor = :me"]
    conditions = ["c.id in (select course_id from enrollment where student = :me)",
                  "c.published = 1", "i.published = 1", "w.active = 1"]
    if query["find"] == "submission":
        conditions.append("s.student = :me")
    return conditions


def compile_query(query, user):
    """검증을 마친 질의를 SQL과 바인딩 값으로 바꾼다. 식별자는 선언에서만 온다."""
    concept = validate(query)
    check_scope(query, concept, user)
    attributes = concept["attributes"]
    fields = query.get("fields") or ["title"]
    where, values = [], {"me": user["id"]}
    for n, (name, op, value) in enumerate(query.get("where", [])):
        where.append(f"{attributes[name][0]} {OPERATORS[op]} :v{n}")
        values[f"v{n}"] = int(value) if type(value) is bool else value
    where += scope_conditions(query, user)
    sql = f"select {', '.join(attributes[f][0] for f in fields)} from {concept['from']}"
    if where:
        sql += " where " + " and ".join(where)
    return sql + " order by 1", values


def open_database():
    db = sqlite3.connect(":memory:")
    db.executescript(SCHEMA)
    for table, rows in ROWS.items():
        db.executemany(f"insert into {table} values ({', '.join('?' * len(rows[0]))})", rows)
    db.commit()
    db.execute("pragma query_only = on")   # 이제부터 이 연결로는 아무것도 쓸 수 없다
    return db


def run_read_only(db, sql, values):
    deadline = time.monotonic() + TIME_LIMIT_SECONDS
    db.set_progress_handler(lambda: time.monotonic() > deadline, 1000)   # 참을 돌려주면 중단
    try:
        return db.execute(sql, values).fetchall()
    finally:
        db.set_progress_handler(None, 0)


def answer(db, question, query, user):
    """(결과 종류, 보여 줄 글)을 돌려준다. 종류는 결과 / 빈 결과 / 지원하지 않음 / 범위 밖."""
    try:
        sql, values = compile_query(query, user)
    except Unsupported as why:
        return "지원하지 않음", str(why)
    except OutOfScope as why:
        return "범위 밖", str(why)
    rows = run_read_only(db, sql, values)
    if not rows:
        return "빈 결과", "조건에 맞는 자료가 없음"
    return "결과", f"{len(rows)}행: " + " / ".join(", ".join(str(v) for v in row) for row in rows)


S1 = {"id": "S1", "role": "student"}
P1 = {"id": "P1", "role": "professor"}
A1 = {"id": "A1", "role": "admin"}
# (번호, 묻는 사람, 질문, 모델이 돌려줬다고 치는 질의, 기대하는 결과 종류)
CASES = [
    ("Q1", S1, "1주차에 내가 안 본 동영상은?",
     {"find": "learning_item", "where": [["week", "=", 1], ["kind", "=", "video"], ["watched_by_me", "=", False]]},
     "결과"),
    ("Q2", S1, "3주차에 내가 안 본 동영상은?",
     {"find": "learning_item", "where": [["week", "=", 3], ["kind", "=", "video"], ["watched_by_me", "=", False]]},
     "빈 결과"),
    ("Q3", S1, "만족도 지표를 보여 줘", {"find": "satisfaction", "fields": ["score"]}, "지원하지 않음"),
    ("Q4", S1, "과제 1 점수 알려 줘",
     {"find": "learning_item", "fields": ["title", "score"], "where": [["title", "=", "과제 1"]]}, "지원하지 않음"),
    ("Q5", S1, "아직 공개하지 않은 과제 보여 줘",
     {"find": "learning_item", "where": [["kind", "=", "assignment"], ["published", "=", False]]}, "범위 밖"),
    ("Q6", S1, "S2의 제출 상태 보여 줘",
     {"find": "submission", "fields": ["item", "status"], "where": [["student", "=", "S2"]]}, "범위 밖"),
    ("Q7", S1, "내 과제 전부 보여 줘",
     {"find": "learning_item", "fields": ["title", "due"], "where": [["kind", "=", "assignment"]]}, "결과"),
    ("Q8", S1, "제목이 x' or '1'='1 인 과제",
     {"find": "learning_item", "where": [["title", "=", "x' or '1'='1"]]}, "빈 결과"),
    ("Q9", P1, "내 과목의 미게시 과제는?",
     {"find": "learning_item", "fields": ["title", "course"],
      "where": [["kind", "=", "assignment"], ["published", "=", False]]}, "결과"),
    ("Q10", A1, "모든 과목의 과제",
     {"find": "learning_item", "fields": ["course", "title"], "where": [["kind", "=", "assignment"]]}, "결과"),
]


def main():
    db = open_database()
    try:
        db.execute("delete from item")
    except sqlite3.OperationalError as exc:
        print(f"읽기 전용 확인: 지우기가 거절됨 ({exc})")
    sql, values = compile_query(CASES[0][3], S1)
    print(f"Q1의 SQL: {sql}\nQ1의 바인딩 값: {values}")
    outcomes = {}
    for key, user, question, query, expected in CASES:
        kind, text = answer(db, question, query, user)
        outcomes[key] = (kind, text)
        print(f"[{key}] {user['id']}({user['role']}) {question} → {kind}: {text}")
    tally = {k: sum(kind == k for kind, _ in outcomes.values()) for k in ("결과", "빈 결과", "지원하지 않음", "범위 밖")}
    print("집계: " + ", ".join(f"{k} {n}" for k, n in tally.items()) + f" (질문 {len(CASES)}개)")
    for key, _user, _question, _query, expected in CASES:
        assert outcomes[key][0] == expected, f"{key}의 결과 종류: 기대 '{expected}', 실제 '{outcomes[key][0]}'"
    student_text = " ".join(text for key, (_, text) in outcomes.items() if key not in ("Q9", "Q10"))
    assert "미게시" not in student_text and "AI 과제" not in student_text, "학생에게 보이면 안 되는 학습요소가 보임"
    assert outcomes["Q1"][1] == "1행: 2강 동영상", "게시되지 않은 과목이나 비활성 주차의 학습요소가 학생에게 보임"
    print("지정 질문 10개의 결과 종류가 모두 기대와 같음. 이것은 이 10개에 대한 확인일 뿐, 질문 일반의 정확도가 아님")


if __name__ == "__main__":
    main()
