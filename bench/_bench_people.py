"""Create the bench's learners with API tokens and signed-in sessions; print them as JSON.

Run by ``_http.Site`` under the server's own settings and database.
"""

from __future__ import annotations

import json
import sys
import uuid

from _common import setup_django


def main() -> None:
    count = int(sys.argv[1])
    setup_django("tutor.settings.serve")
    from django.contrib.auth.models import Group, User
    from django.test import Client

    from tutor.models import Cohort, Membership
    from tutor.roles import Role
    from tutor.services import issue_api_token

    cohort, _ = Cohort.objects.get_or_create(name="벤치 기수")
    group, _ = Group.objects.get_or_create(name=Role.LEARNER.value)
    tokens, sessions = [], []
    for n in range(count):
        user, created = User.objects.get_or_create(username=f"bench-learner-{n}")
        if created:
            user.set_password(uuid.uuid4().hex)
            user.save()
            user.groups.add(group)
            Membership.objects.create(cohort=cohort, user=user)
        tokens.append(issue_api_token(user=user, name="bench")[1])
        client = Client()
        client.force_login(user)
        sessions.append(client.cookies["sessionid"].value)
    print(json.dumps({"tokens": tokens, "sessions": sessions}))


if __name__ == "__main__":
    main()
