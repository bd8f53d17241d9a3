"""One row per outgoing message: its idempotency key, what it says and whether it left."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class OutboundMail(models.Model):
    """A message the site sends. ``key`` makes queuing idempotent; ``state`` makes sending at most once.

    Only the worker that moves a row from ``queued`` to ``sending`` (a conditional
    update) talks to the mail server, so a retried task or a second worker never
    sends it again. A row left in ``sending`` (the worker died mid-send) is never
    resent on its own: whether it left is unknown, and staff decide.
    """

    class State(models.TextChoices):
        QUEUED = "queued", _("보낼 차례")
        SENDING = "sending", _("보내는 중")
        SENT = "sent", _("보냄")
        FAILED = "failed", _("실패")

    key = models.CharField(max_length=200, unique=True)
    to = models.EmailField(_("받는 사람"), max_length=254)
    subject = models.CharField(_("제목"), max_length=200)
    body = models.TextField(_("본문"))
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
        help_text="who caused the message (none for a visitor or the system)",
    )
    state = models.CharField(max_length=10, choices=State.choices, default=State.QUEUED, db_index=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)

    class Meta:
        verbose_name = _("보낸 메일")
        verbose_name_plural = _("보낸 메일")
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        # No address or subject: this label is copied into the append-only audit log.
        return f"메일 #{self.pk} ({self.key.split(':', 1)[0]})"
