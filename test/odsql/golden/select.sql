# No select: every field, each in its JSON shape
where: n = 1

select: *
output: native

select: n, n * 2 as twice, length(name), `year`

select: include(n*), exclude(name)

select: *, exclude(t*), exclude(s)

select: json_format(j), json_format(j, 'bad') as b, json_format(j, null) as c

select: json_format(j)
output: native

select: ifnull(name, 'none') as v, lower(name), ifnull(x, 0)

# Labels are usable in where and order_by
select: length(name) as l
where: l > 3
order_by: l desc

select: date'2020-01-15' as day, d, t
timezone: America/New_York

select: distance(p, geom'POINT(2.35 48.85)') as m

select: name
limit: 10
offset: 20

select: name
limit: -1
offset: 5
