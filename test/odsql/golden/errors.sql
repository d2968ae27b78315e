# Syntax errors name the token and its position
where: garbage==
ERROR: unexpected = at position 8 in garbage==. Clause(s) containing the error(s): where.

where: n = 1 and
ERROR: unexpected end of input at position 9 in n = 1 and. Clause(s) containing the error(s): where.

select: count(*
ERROR: unexpected end of input at position 7 in count(*. Clause(s) containing the error(s): select.

order_by: n descending
ERROR: unexpected descending at position 2 in n descending. Clause(s) containing the error(s): order_by.

# Names and functions
select: foo
ERROR: Unknown field: foo. Clause(s) containing the error(s): select.

where: lenght(name) > 3
ERROR: Unknown function: lenght (did you mean length?). Clause(s) containing the error(s): where.

select: year
ERROR: year is a reserved keyword: write it in back quotes (`year`). Clause(s) containing the error(s): select.

# Clauses
where: count(*) > 1
ERROR: Aggregation count() is not allowed in where (only in select, order_by). Clause(s) containing the error(s): where.

select: search(name, 'x')
ERROR: Function search() is not allowed in select (only in where). Clause(s) containing the error(s): select.

group_by: length(name)
ERROR: Function length() is not allowed in group_by (only in select, where, order_by). Clause(s) containing the error(s): group_by.

order_by: name, count(*)
group_by: name
ERROR: Aggregations must come before fields in order_by. Clause(s) containing the error(s): order_by.

select: name, count(*)
ERROR: Field name must be in group_by. Clause(s) containing the error(s): select.

# Types
where: name > 3
ERROR: Cannot compare a text (name) with an integer in comparison >. Clause(s) containing the error(s): where.

where: year(name) = 2020
ERROR: Function year() expects a date or datetime as argument 1, got a text (name). Clause(s) containing the error(s): where.

select: sum(name)
ERROR: Function sum() expects a number as argument 1, got a text (name). Clause(s) containing the error(s): select.

where: n
ERROR: where expects a boolean expression, got an integer (n). Clause(s) containing the error(s): where.

where: n = null
ERROR: null can only be tested with IS NULL or IS NOT NULL, not in comparison =. Clause(s) containing the error(s): where.

# Literals and arguments
where: d > date'2020-13-45'
ERROR: Invalid date literal: 2020-13-45. Clause(s) containing the error(s): where.

where: within_distance(p, geom'POINT(1)', 10km)
ERROR: Invalid geometry literal "POINT(1)": a position is two numbers, longitude then latitude. Clause(s) containing the error(s): where.

select: percentile(x, 150)
ERROR: percentile() expects a percentage between 0 and 100, got 150. Clause(s) containing the error(s): select.

group_by: range(n, 0)
ERROR: range() on a number expects a positive width. Clause(s) containing the error(s): group_by.

where: within_distance(p, geom'POINT(2 48)', 10 furlongs)
ERROR: Unknown distance unit: furlongs (expected one of mi, yd, ft, m, cm, km, mm). Clause(s) containing the error(s): where.
