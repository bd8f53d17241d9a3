"""Notices (알림): in-site notices with an unread count, and mail through ``tutor.mail``.

``services.notify`` is the one way an app tells a person something; the task
worker calls it (``tasks.py`` of each app), once per event and person.
"""
