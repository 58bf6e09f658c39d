"""PostgreSQL's own operators, spelled so that no search path can put another in their place.

Every statement ctxtui sends to a nous database names pg_catalog's objects
itself: functions (`pg_catalog.count(*)`), types (`::pg_catalog.text`) and
operators (these). The session's search path is pinned to pg_catalog, but
code the database's owner runs inside ctxtui's transaction (a
row-level-security policy, a view) can change it for the rest of that
transaction, and an operator, function or type of the same name in an
earlier schema would then be called in PostgreSQL's place
(tests/hostile/test_nous_shadowing.py). Keywords (`COALESCE`, `AT TIME
ZONE`, `::integer`) and the sort and grouping operators (the type's default
operator class) do not go through the search path.
"""

EQ = "OPERATOR(pg_catalog.=)"
NE = "OPERATOR(pg_catalog.<>)"
LT = "OPERATOR(pg_catalog.<)"
