# Aggregations without group_by: one group
select: count(*), count(n), count(distinct name), avg(x), sum(n), min(d), max(t), median(x), percentile(x, 95)
SELECT count(*) AS "count(*)", count("n") AS "count(n)", approx_count_distinct("name") AS "count(distinct name)", avg("x") AS "avg(x)", sum("n") AS "sum(n)", strftime(min("d"), '%Y-%m-%d') AS "min(d)", (strftime(timezone('UTC', max("t")), '%Y-%m-%dT%H:%M:%S') || CASE WHEN epoch_us(max("t")) - epoch_us(timezone('UTC', max("t"))) > 0 THEN strftime(make_timestamp(epoch_us(max("t")) - epoch_us(timezone('UTC', max("t")))), '-%H:%M') ELSE strftime(make_timestamp(epoch_us(timezone('UTC', max("t"))) - epoch_us(max("t"))), '+%H:%M') END) AS "max(t)", quantile_cont("x", 0.5) AS "median(x)", quantile_cont("x", 0.95) AS "percentile(x, 95)"
FROM "things";

select: count(distinct ifnull(name, 'none')) as c
SELECT approx_count_distinct(coalesce("name", 'none')) AS "c"
FROM "things";

select: bbox(p)
SELECT CASE WHEN CASE WHEN min(struct_extract("p", 'lon')) IS NOT NULL THEN to_json({'type': 'Polygon', 'coordinates': [[[min(struct_extract("p", 'lon')), min(struct_extract("p", 'lat'))], [max(struct_extract("p", 'lon')), min(struct_extract("p", 'lat'))], [max(struct_extract("p", 'lon')), max(struct_extract("p", 'lat'))], [min(struct_extract("p", 'lon')), max(struct_extract("p", 'lat'))], [min(struct_extract("p", 'lon')), min(struct_extract("p", 'lat'))]]]})::VARCHAR END IS NULL THEN NULL ELSE json_object('type', 'Feature', 'geometry', TRY_CAST(CASE WHEN min(struct_extract("p", 'lon')) IS NOT NULL THEN to_json({'type': 'Polygon', 'coordinates': [[[min(struct_extract("p", 'lon')), min(struct_extract("p", 'lat'))], [max(struct_extract("p", 'lon')), min(struct_extract("p", 'lat'))], [max(struct_extract("p", 'lon')), max(struct_extract("p", 'lat'))], [min(struct_extract("p", 'lon')), max(struct_extract("p", 'lat'))], [min(struct_extract("p", 'lon')), min(struct_extract("p", 'lat'))]]]})::VARCHAR END AS JSON), 'properties', json_object()) END AS "bbox(p)"
FROM "things";

# group_by a field; the null group is kept, groups ordered by key
group_by: name
select: count(*) as c
SELECT "name" AS "name", count(*) AS "c"
FROM "things"
GROUP BY "name"
ORDER BY "name" ASC NULLS LAST;

group_by: `year`, ok as flag
select: flag, count(*)
order_by: count(*) desc, flag
SELECT "year" AS "year", "ok" AS "flag", count(*) AS "count(*)"
FROM "things"
GROUP BY "year", "ok"
ORDER BY count(*) DESC NULLS LAST, "ok" ASC NULLS LAST, "year" ASC NULLS LAST;

# A multivalued field is grouped by element
group_by: tags
select: count(*)
where: n > 1
SELECT "tags" AS "tags", count(*) AS "count(*)"
FROM (SELECT * REPLACE (unnest(CASE WHEN len("tags") > 0 THEN "tags" ELSE [NULL] END) AS "tags")
FROM (SELECT *
FROM "things"
WHERE ("n" > 1)) AS "unnested 0") AS "things"
GROUP BY "tags"
ORDER BY "tags" ASC NULLS LAST;

group_by: year(d) as y, month(t)
select: y, avg(x)
timezone: Europe/Paris
SELECT month(timezone('Europe/Paris', "t")) AS "month(t)", year("d") AS "y", avg("x") AS "avg(x)"
FROM "things"
GROUP BY year("d"), month(timezone('Europe/Paris', "t"))
ORDER BY year("d") ASC NULLS LAST, month(timezone('Europe/Paris', "t")) ASC NULLS LAST;

group_by: date_format(d, 'yyyy'), lower(name), ifnull(name, 'none')
SELECT (strftime("d", '%Y')) AS "date_format(d, 'yyyy')", lower("name") AS "lower(name)", coalesce("name", 'none') AS "ifnull(name, 'none')"
FROM "things"
GROUP BY (strftime("d", '%Y')), lower("name"), coalesce("name", 'none')
ORDER BY (strftime("d", '%Y')) ASC NULLS LAST, lower("name") ASC NULLS LAST, coalesce("name", 'none') ASC NULLS LAST;

group_by: range(n, *, 10, 50, *)
select: count(*)
SELECT CASE WHEN "n" < (10) THEN '*-10' WHEN "n" >= (10) AND "n" < (50) THEN '10-50' WHEN "n" >= (50) THEN '50-*' END AS "range(n, *, 10, 50, *)", count(*) AS "count(*)"
FROM "things"
GROUP BY CASE WHEN "n" < (10) THEN '*-10' WHEN "n" >= (10) AND "n" < (50) THEN '10-50' WHEN "n" >= (50) THEN '50-*' END
ORDER BY min("n") ASC NULLS LAST;

group_by: range(n, ]10, 50, 100[)
SELECT CASE WHEN "n" < (10) THEN '*-10' WHEN "n" >= (10) AND "n" < (50) THEN '10-50' WHEN "n" >= (50) AND "n" < (100) THEN '50-100' WHEN "n" >= (100) THEN '100-*' END AS "range(n, ]10, 50, 100[)"
FROM "things"
GROUP BY CASE WHEN "n" < (10) THEN '*-10' WHEN "n" >= (10) AND "n" < (50) THEN '10-50' WHEN "n" >= (50) AND "n" < (100) THEN '50-100' WHEN "n" >= (100) THEN '100-*' END
ORDER BY min("n") ASC NULLS LAST;

group_by: range(n, [1, 2, 3])
SELECT CASE WHEN "n" >= (1) AND "n" < (2) THEN '1-2' WHEN "n" >= (2) AND "n" < (3) THEN '2-3' END AS "range(n, [1, 2, 3])"
FROM "things"
WHERE ("n" IS NULL OR ("n" >= (1) AND "n" < (3)))
GROUP BY CASE WHEN "n" >= (1) AND "n" < (2) THEN '1-2' WHEN "n" >= (2) AND "n" < (3) THEN '2-3' END
ORDER BY min("n") ASC NULLS LAST;

group_by: range(x, 10)
SELECT CASE WHEN "x" IS NULL THEN NULL ELSE regexp_replace(CAST((floor(CAST("x" AS DOUBLE) / 10) * 10) AS VARCHAR), '\.0$', '') || '-' || regexp_replace(CAST((floor(CAST("x" AS DOUBLE) / 10) * 10) + 10 AS VARCHAR), '\.0$', '') END AS "range(x, 10)"
FROM "things"
GROUP BY CASE WHEN "x" IS NULL THEN NULL ELSE regexp_replace(CAST((floor(CAST("x" AS DOUBLE) / 10) * 10) AS VARCHAR), '\.0$', '') || '-' || regexp_replace(CAST((floor(CAST("x" AS DOUBLE) / 10) * 10) + 10 AS VARCHAR), '\.0$', '') END
ORDER BY min("x") ASC NULLS LAST;

group_by: range(d, *, date'2020', date'2021-06', *)
SELECT CASE WHEN "d" < DATE '2020-01-01' THEN '*-' || strftime(DATE '2020-01-01', '%Y-%m-%d') WHEN "d" >= DATE '2020-01-01' AND "d" < DATE '2021-06-01' THEN strftime(DATE '2020-01-01', '%Y-%m-%d') || '-' || strftime(DATE '2021-06-01', '%Y-%m-%d') WHEN "d" >= DATE '2021-06-01' THEN strftime(DATE '2021-06-01', '%Y-%m-%d') || '-*' END AS "range(d, *, date'2020', date'2021-06', *)"
FROM "things"
GROUP BY CASE WHEN "d" < DATE '2020-01-01' THEN '*-' || strftime(DATE '2020-01-01', '%Y-%m-%d') WHEN "d" >= DATE '2020-01-01' AND "d" < DATE '2021-06-01' THEN strftime(DATE '2020-01-01', '%Y-%m-%d') || '-' || strftime(DATE '2021-06-01', '%Y-%m-%d') WHEN "d" >= DATE '2021-06-01' THEN strftime(DATE '2021-06-01', '%Y-%m-%d') || '-*' END
ORDER BY min("d") ASC NULLS LAST;

group_by: range(d, 1month)
SELECT strftime(CAST(date_trunc('month', "d") AS DATE), '%Y-%m-%d') AS "range(d, 1month)"
FROM "things"
GROUP BY CAST(date_trunc('month', "d") AS DATE)
ORDER BY CAST(date_trunc('month', "d") AS DATE) ASC NULLS LAST;

group_by: range(t, 1w)
SELECT (strftime(timezone('UTC', timezone('UTC', date_trunc('week', timezone('UTC', "t")))), '%Y-%m-%dT%H:%M:%S') || CASE WHEN epoch_us(timezone('UTC', date_trunc('week', timezone('UTC', "t")))) - epoch_us(timezone('UTC', timezone('UTC', date_trunc('week', timezone('UTC', "t"))))) > 0 THEN strftime(make_timestamp(epoch_us(timezone('UTC', date_trunc('week', timezone('UTC', "t")))) - epoch_us(timezone('UTC', timezone('UTC', date_trunc('week', timezone('UTC', "t")))))), '-%H:%M') ELSE strftime(make_timestamp(epoch_us(timezone('UTC', timezone('UTC', date_trunc('week', timezone('UTC', "t"))))) - epoch_us(timezone('UTC', date_trunc('week', timezone('UTC', "t"))))), '+%H:%M') END) AS "range(t, 1w)"
FROM "things"
GROUP BY timezone('UTC', date_trunc('week', timezone('UTC', "t")))
ORDER BY timezone('UTC', date_trunc('week', timezone('UTC', "t"))) ASC NULLS LAST;

group_by: geo_cluster(p, 6)
select: count(*)
SELECT {'cluster_centroid': {'lat': avg(struct_extract("p", 'lat')), 'lon': avg(struct_extract("p", 'lon'))}, 'count': count(*)} AS "geo_cluster(p, 6)", count(*) AS "count(*)"
FROM "things"
GROUP BY CASE WHEN struct_extract("p", 'lon') IS NOT NULL AND struct_extract("p", 'lat') IS NOT NULL THEN CAST(least(greatest(floor((1 - ln(tan(radians(least(greatest(struct_extract("p", 'lat'), -85.0511287798066), 85.0511287798066))) + 1 / cos(radians(least(greatest(struct_extract("p", 'lat'), -85.0511287798066), 85.0511287798066)))) / pi()) / 2 * 64), 0), 63) * 64 + least(greatest(floor((struct_extract("p", 'lon') + 180) / 360 * 64), 0), 63) AS BIGINT) END
ORDER BY CASE WHEN struct_extract("p", 'lon') IS NOT NULL AND struct_extract("p", 'lat') IS NOT NULL THEN CAST(least(greatest(floor((1 - ln(tan(radians(least(greatest(struct_extract("p", 'lat'), -85.0511287798066), 85.0511287798066))) + 1 / cos(radians(least(greatest(struct_extract("p", 'lat'), -85.0511287798066), 85.0511287798066)))) / pi()) / 2 * 64), 0), 63) * 64 + least(greatest(floor((struct_extract("p", 'lon') + 180) / 360 * 64), 0), 63) AS BIGINT) END ASC NULLS LAST;
