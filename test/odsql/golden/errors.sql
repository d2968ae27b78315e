# Syntax errors name the token and its position
where: garbage==

where: n = 1 and

select: count(*

order_by: n descending

# Names and functions
select: foo

where: lenght(name) > 3

select: year

# Clauses
where: count(*) > 1

select: search(name, 'x')

group_by: length(name)

order_by: name, count(*)
group_by: name

select: name, count(*)

# Types
where: name > 3

where: year(name) = 2020

select: sum(name)

where: n

where: n = null

# Literals and arguments
where: d > date'2020-13-45'

where: within_distance(p, geom'POINT(1)', 10km)

select: percentile(x, 150)

group_by: range(n, 0)

where: within_distance(p, geom'POINT(2 48)', 10 km)
