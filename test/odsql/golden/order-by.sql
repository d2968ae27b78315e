# Nulls last whatever the direction; ties broken by the record id
order_by: n desc, name

order_by: -n

order_by: lower(name) asc, length(name) desc

# random(seed): a hash of the record id and the seed; the direction is ignored
order_by: random(42) desc

select: name
order_by: distance(p, geom'POINT(2.35 48.85)')
limit: 10

group_by: name
select: count(*) as c
order_by: c desc
limit: 5
