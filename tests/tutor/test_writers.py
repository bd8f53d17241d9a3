"""Every public function of a write module owns its transaction, or says why it does not.

A write module is an app's ``services`` (each module of a ``services`` package), the evidence app's
``peer`` and ``schedule`` and the labs app's ``execution``. Each public function there is one of:

- a writer marked ``@transaction.atomic(durable=True)`` (called by a view, a task or a command, never
  inside another transaction), ``@transaction.atomic(savepoint=False)`` (only ever runs inside its caller's
  transaction and refuses nothing a caller would catch), or ``@transaction.atomic(savepoint=True)`` (runs
  inside a caller's transaction and may refuse: the savepoint lets a caller that catches the refusal keep
  its own transaction, as the fixture admin does with a held-back change);
- a writer that opens ``transaction.atomic(...)`` itself around its write (an idempotent create that
  catches ``IntegrityError`` needs the savepoint);
- listed below as a read or pure helper, or as an orchestrator that calls such writers one by one so
  one failure does not undo the others (with its reason).

A new public function fails this test until it is one of these.
"""

from __future__ import annotations

import ast
from pathlib import Path

from django.conf import settings

ROOT = Path(settings.BASE_DIR)
MODULES = [
    *sorted(p for p in ROOT.glob("*/services.py")),
    *sorted(p for p in ROOT.glob("*/*/services.py")),
    *sorted(p for p in ROOT.glob("*/*/services/*.py") if p.name not in {"__init__.py", "limits.py"}),
    ROOT / "exercises" / "evidence" / "peer.py",
    ROOT / "exercises" / "evidence" / "schedule.py",
    ROOT / "exercises" / "labs" / "execution.py",
]

#: Public functions of write modules that write nothing (reads, pure helpers, parsers, formatters).
READS = {
    "exercises/evidence/peer.py": {"lease_length", "latest_submitted", "handed_authors", "peer_refusal",
                                   "refuse_over_cap", "compare_runs"},
    "exercises/evidence/schedule.py": {"defaults_of", "cohort_dates", "learner_cohort", "dates_for", "dates_table",
                                       "extensions_table", "late_label", "local_text", "peer_minimum_of", "too_small",
                                       "refuse_before_opening"},
    "exercises/evidence/services/reviews.py": {"check_judgements"},
    "exercises/evidence/services/drafts.py": {"peer_work_read"},
    "exercises/grounding/services.py": {"suggest_question", "claim_key_for", "cited_lines", "clock",
                                        "suggest_allowance"},
    # keep_warm and stop_warm start and stop this process's warm sandboxes: no database at all.
    "exercises/labs/execution.py": {"tell_run_finished", "tell_runs_finished_while_away", "keep_warm", "stop_warm"},
    "exercises/labs/services.py": {"code_digest", "server_run_key", "ensure_sandbox_healthy"},
    "lessons/services.py": {"fixture_diff"},
    "tutor/accounts/services.py": {"users_for_reset", "inactive_accounts"},
    "tutor/cohorts/services.py": {"token_digest", "new_join_code", "site_url", "invitation_link", "live_invitation"},
    "tutor/mail/services.py": {"absolute_url", "message_id"},
    "tutor/notices/services.py": {"mode_of", "unsubscribe_token", "unsubscribe_url", "preferences_of",
                                  "read_unsubscribe_token"},
    "tutor/services.py": {"token_digest", "cohort_members"},
}

#: Writers that call other writers one item at a time, so each item commits (or fails) on its own.
ORCHESTRATORS = {
    "exercises/evidence/peer.py": {
        "settle_reproductions_of_rerun": "settles each reproduction of a re-run in its own transaction",
    },
    "exercises/labs/execution.py": {
        "execute_run": "claims the run with one UPDATE, runs the sandbox outside any transaction (seconds), then "
                       "seals the record; a fault ends in fail_run",
        "record_sandbox_health": "runs the self-test (seconds, no database) and stores one row",
    },
    "exercises/labs/services.py": {
        "settle_stale_runs": "requeues or fails each stale run on its own",
    },
    "tutor/mail/services.py": {
        "send_queued": "sends each queued message in turn: one failing address must not hold back the rest",
        "send_mail_now": "talks to the SMTP server; the message's row is claimed and marked by single UPDATEs",
    },
    "tutor/notices/services.py": {
        "run_daily_job": "claims the day's job once, then asks each app's notices in their own transactions",
        "send_digests": "one digest per teacher, each queued on its own",
    },
    "tutor/cohorts/services.py": {
        "send_invitations": "the task that mails a roster's invitations one by one",
    },
    "tutor/accounts/services.py": {
        "delete_inactive_accounts": "deletes each inactive account through delete_account, one at a time",
    },
}


def _rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


def _owns_transaction(node: ast.FunctionDef) -> str:
    for decorator in node.decorator_list:
        text = ast.unparse(decorator)
        if text in ("transaction.atomic(durable=True)", "transaction.atomic(savepoint=False)",
                    "transaction.atomic(savepoint=True)"):
            return "marked"
    if any("transaction.atomic(" in ast.unparse(item) for item in ast.walk(node) if isinstance(item, ast.With)):
        return "inside"
    return ""


def test_every_public_writer_owns_its_transaction_or_says_why_not() -> None:
    """Each public function of a write module is a marked writer, opens its own transaction, or is listed."""
    unclassified = []
    for path in MODULES:
        rel = _rel(path)
        for node in ast.parse(path.read_text("utf-8")).body:
            if not isinstance(node, ast.FunctionDef) or node.name.startswith("_"):
                continue
            if node.name in READS.get(rel, set()) or node.name in ORCHESTRATORS.get(rel, {}):
                continue
            if not _owns_transaction(node):
                unclassified.append(f"{rel}:{node.name}")
    assert unclassified == []


def test_a_bare_atomic_decorator_is_not_enough() -> None:
    """A decorator ``@transaction.atomic`` says neither "top of the call" nor "composes": writers say which."""
    bare = [f"{_rel(path)}:{node.name}" for path in MODULES for node in ast.parse(path.read_text("utf-8")).body
            if isinstance(node, ast.FunctionDef)
            and any(ast.unparse(d) in ("transaction.atomic", "transaction.atomic()") for d in node.decorator_list)]
    assert bare == []


def test_the_lists_name_only_functions_that_exist() -> None:
    """A read or orchestrator that was renamed or removed is taken off the lists (they stay true)."""
    names = {_rel(path): {node.name for node in ast.parse(path.read_text("utf-8")).body
                          if isinstance(node, ast.FunctionDef)} for path in MODULES}
    for table in (READS, ORCHESTRATORS):
        for rel, listed in table.items():
            assert set(listed) <= names[rel], (rel, set(listed) - names[rel])
