"""A person's own account: passwords, sign-in by e-mail, their data (download, deletion, retention).

``registry`` lists what the site holds about a person; every app adds its record
kinds in its own ``personal_data.py``.
"""
