# No select: every field, each in its JSON shape
where: n = 1
SELECT "name" AS "name", "n" AS "n", "x" AS "x", "ok" AS "ok", strftime("d", '%Y-%m-%d') AS "d", (strftime(timezone('UTC', "t"), '%Y-%m-%dT%H:%M:%S') || CASE WHEN epoch_us("t") - epoch_us(timezone('UTC', "t")) > 0 THEN strftime(make_timestamp(epoch_us("t") - epoch_us(timezone('UTC', "t"))), '-%H:%M') ELSE strftime(make_timestamp(epoch_us(timezone('UTC', "t")) - epoch_us("t")), '+%H:%M') END) AS "t", "p" AS "p", CASE WHEN "s" IS NULL THEN NULL ELSE json_object('type', 'Feature', 'geometry', TRY_CAST("s" AS JSON), 'properties', json_object()) END AS "s", "tags" AS "tags", TRY_CAST("j" AS JSON) AS "j", "year" AS "year"
FROM "things"
WHERE ("n" = 1);

select: *
output: native
SELECT "name" AS "name", "n" AS "n", "x" AS "x", "ok" AS "ok", "d" AS "d", "t" AS "t", "p" AS "p", "s" AS "s", "tags" AS "tags", "j" AS "j", "year" AS "year"
FROM "things";

select: n, n * 2 as twice, length(name), `year`
SELECT "n" AS "n", (CAST("n" AS DOUBLE) * 2) AS "twice", length("name") AS "length(name)", "year" AS "year"
FROM "things";

select: include(n*), exclude(name)
SELECT "n" AS "n"
FROM "things";

select: *, exclude(t*), exclude(s)
SELECT "name" AS "name", "n" AS "n", "x" AS "x", "ok" AS "ok", strftime("d", '%Y-%m-%d') AS "d", "p" AS "p", TRY_CAST("j" AS JSON) AS "j", "year" AS "year"
FROM "things";

select: json_format(j), json_format(j, 'bad') as b, json_format(j, null) as c
SELECT CASE WHEN "j" IS NULL THEN NULL WHEN json_valid("j") THEN CAST("j" AS JSON) ELSE to_json("j") END AS "json_format(j)", CASE WHEN "j" IS NULL THEN NULL WHEN json_valid("j") THEN CAST("j" AS JSON) ELSE to_json('bad') END AS "b", CASE WHEN "j" IS NULL THEN NULL WHEN json_valid("j") THEN CAST("j" AS JSON) ELSE NULL END AS "c"
FROM "things";

select: json_format(j)
output: native
SELECT "j" AS "json_format(j)"
FROM "things";

select: ifnull(name, 'none') as v, lower(name), ifnull(x, 0)
SELECT coalesce("name", 'none') AS "v", lower("name") AS "lower(name)", coalesce("x", 0) AS "ifnull(x, 0)"
FROM "things";

# Labels are usable in where and order_by
select: length(name) as l
where: l > 3
order_by: l desc
SELECT length("name") AS "l"
FROM "things"
WHERE (length("name") > 3)
ORDER BY length("name") DESC NULLS LAST, "_recordid" ASC;

select: date'2020-01-15' as day, d, t
timezone: America/New_York
SELECT strftime(DATE '2020-01-15', '%Y-%m-%d') AS "day", strftime("d", '%Y-%m-%d') AS "d", (strftime(timezone('America/New_York', "t"), '%Y-%m-%dT%H:%M:%S') || CASE WHEN epoch_us("t") - epoch_us(timezone('America/New_York', "t")) > 0 THEN strftime(make_timestamp(epoch_us("t") - epoch_us(timezone('America/New_York', "t"))), '-%H:%M') ELSE strftime(make_timestamp(epoch_us(timezone('America/New_York', "t")) - epoch_us("t")), '+%H:%M') END) AS "t"
FROM "things";

select: distance(p, geom'POINT(2.35 48.85)') as m
SELECT (2 * 6371008.8 * atan2(sqrt(pow(sin(radians(struct_extract("p", 'lat') - 48.85::DOUBLE) / 2), 2) + cos(radians(48.85::DOUBLE)) * cos(radians(struct_extract("p", 'lat'))) * pow(sin(radians(struct_extract("p", 'lon') - 2.35::DOUBLE) / 2), 2)), sqrt(greatest(0.0, 1.0 - (pow(sin(radians(struct_extract("p", 'lat') - 48.85::DOUBLE) / 2), 2) + cos(radians(48.85::DOUBLE)) * cos(radians(struct_extract("p", 'lat'))) * pow(sin(radians(struct_extract("p", 'lon') - 2.35::DOUBLE) / 2), 2)))))) AS "m"
FROM "things";

select: name
limit: 10
offset: 20
SELECT "name" AS "name"
FROM "things"
LIMIT 10 OFFSET 20;

select: name
limit: -1
offset: 5
SELECT "name" AS "name"
FROM "things" OFFSET 5;
