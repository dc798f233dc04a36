"""`AnyOf(F("key"), values)`: `key IN (values)`, written on PostgreSQL as `key = ANY(%s)` with
the values as one array parameter.

Django writes `IN` with a placeholder per value and prepares each value on its own; for the few
hundred player keys of a page that took a few milliseconds of Python, more than the query
itself. The array is one parameter, whatever its length. Elsewhere (SQLite) it is Django's `IN`.
Use it as a filter expression: `Player.objects.filter(AnyOf(F("key"), keys))`."""

from django.db.models.lookups import In


class AnyOf(In):
    def as_postgresql(self, compiler, connection):
        lhs, lhs_params = self.process_lhs(compiler, connection)
        values = [value for value in self.rhs if value is not None]
        return f"{lhs} = ANY(%s)", (*lhs_params, values)
