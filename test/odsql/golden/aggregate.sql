# Aggregations without group_by: one group
select: count(*), count(n), count(distinct name), avg(x), sum(n), min(d), max(t), median(x), percentile(x, 95)

select: count(distinct ifnull(name, 'none')) as c

select: bbox(p), envelope(p)

# group_by a field; the null group is kept, groups ordered by key
group_by: name
select: count(*) as c

group_by: `year`, ok as flag
select: flag, count(*)
order_by: count(*) desc, flag

# A multivalued field is grouped by element
group_by: tags
select: count(*)
where: n > 1

group_by: year(d) as y, month(t)
select: y, avg(x)
timezone: Europe/Paris

group_by: date_format(d, 'yyyy'), lower(name), ifnull(name, 'none')

group_by: range(n, *, 10, 50, *)
select: count(*)

group_by: range(n, ]10, 50, 100[)

group_by: range(n, [1, 2, 3])

group_by: range(x, 10)

group_by: range(d, *, date'2020', date'2021-06', *)

group_by: range(d, 1month)

group_by: range(t, 1w)

group_by: geo_cluster(p, 6)
select: count(*)
