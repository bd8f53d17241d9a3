"""Django's database cache with an increment that holds across processes and hosts.

Rate limits count in the ``default`` cache, which is this backend by default:
every web process on every host shares the table (``manage.py
createcachetable``), so a limit of 60 a minute is 60 for the whole site, not per
process. Django's own ``DatabaseCache.incr`` reads and writes in two steps, and
two processes could both turn 5 into 6; here the write happens only if the
stored value is still the one read (compare and swap), retried until it does.
"""

from __future__ import annotations

import base64
import pickle
from typing import Any

from django.core.cache.backends.db import DatabaseCache
from django.db import connections, models, router
from django.utils import timezone

_ATTEMPTS = 50


class AtomicDatabaseCache(DatabaseCache):
    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> Any:
        key = self.make_and_validate_key(key, version=version)
        db = router.db_for_write(self.cache_model_class)
        connection = connections[db]
        quote = connection.ops.quote_name
        table = quote(self._table)  # type: ignore[attr-defined]  # set by BaseDatabaseCache.__init__
        expression = models.Expression(output_field=models.DateTimeField())
        converters = connection.ops.get_db_converters(expression) + expression.get_db_converters(connection)
        for _attempt in range(_ATTEMPTS):
            with connection.cursor() as cursor:
                cursor.execute(f"SELECT {quote('value')}, {quote('expires')} FROM {table} "
                               f"WHERE {quote('cache_key')} = %s", [key])
                row = cursor.fetchone()
                if row is None:
                    raise ValueError(f"Key '{key}' not found")
                stored, expires = row
                for converter in converters:
                    expires = converter(expires, expression, connection)
                if expires < timezone.now():
                    raise ValueError(f"Key '{key}' not found")
                value = pickle.loads(base64.b64decode(stored.encode())) + delta
                encoded = base64.b64encode(pickle.dumps(value, self.pickle_protocol)).decode("latin1")
                cursor.execute(f"UPDATE {table} SET {quote('value')} = %s "
                               f"WHERE {quote('cache_key')} = %s AND {quote('value')} = %s", [encoded, key, stored])
                if cursor.rowcount == 1:
                    return value
        raise RuntimeError(f"cache increment of {key!r} kept losing to other writers")
