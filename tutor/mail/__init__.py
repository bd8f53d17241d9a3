"""Outgoing mail: queued in the database, sent once by the task worker after commit.

``services.queue_mail`` is the one way the site sends mail; see its docstring.
"""
