# Nulls last whatever the direction; ties broken by the ordinal (storage order)
order_by: n desc, name
SELECT "name" AS "name", "n" AS "n", "x" AS "x", "ok" AS "ok", strftime("d", '%Y-%m-%d') AS "d", strftime(make_timestamp(epoch_us("t")), '%Y-%m-%dT%H:%M:%S+00:00') AS "t", "p" AS "p", CASE WHEN "s" IS NULL THEN NULL ELSE json_object('type', 'Feature', 'geometry', TRY_CAST("s" AS JSON), 'properties', json_object()) END AS "s", "tags" AS "tags", coalesce(TRY_CAST("j" AS JSON), to_json("j")) AS "j", "year" AS "year"
FROM "things"
ORDER BY "things"."n" DESC NULLS LAST, "things"."name" ASC NULLS LAST, "_ordinal" ASC;

order_by: -n
SELECT "name" AS "name", "n" AS "n", "x" AS "x", "ok" AS "ok", strftime("d", '%Y-%m-%d') AS "d", strftime(make_timestamp(epoch_us("t")), '%Y-%m-%dT%H:%M:%S+00:00') AS "t", "p" AS "p", CASE WHEN "s" IS NULL THEN NULL ELSE json_object('type', 'Feature', 'geometry', TRY_CAST("s" AS JSON), 'properties', json_object()) END AS "s", "tags" AS "tags", coalesce(TRY_CAST("j" AS JSON), to_json("j")) AS "j", "year" AS "year"
FROM "things"
ORDER BY "things"."n" DESC NULLS LAST, "_ordinal" ASC;

order_by: lower(name) asc, length(name) desc
SELECT "name" AS "name", "n" AS "n", "x" AS "x", "ok" AS "ok", strftime("d", '%Y-%m-%d') AS "d", strftime(make_timestamp(epoch_us("t")), '%Y-%m-%dT%H:%M:%S+00:00') AS "t", "p" AS "p", CASE WHEN "s" IS NULL THEN NULL ELSE json_object('type', 'Feature', 'geometry', TRY_CAST("s" AS JSON), 'properties', json_object()) END AS "s", "tags" AS "tags", coalesce(TRY_CAST("j" AS JSON), to_json("j")) AS "j", "year" AS "year"
FROM "things"
ORDER BY lower("name") ASC NULLS LAST, length("name") DESC NULLS LAST, "_ordinal" ASC;

# random(seed): a hash of the ordinal and the seed; the direction is ignored
order_by: random(42) desc
SELECT "name" AS "name", "n" AS "n", "x" AS "x", "ok" AS "ok", strftime("d", '%Y-%m-%d') AS "d", strftime(make_timestamp(epoch_us("t")), '%Y-%m-%dT%H:%M:%S+00:00') AS "t", "p" AS "p", CASE WHEN "s" IS NULL THEN NULL ELSE json_object('type', 'Feature', 'geometry', TRY_CAST("s" AS JSON), 'properties', json_object()) END AS "s", "tags" AS "tags", coalesce(TRY_CAST("j" AS JSON), to_json("j")) AS "j", "year" AS "year"
FROM "things"
ORDER BY hash("_ordinal", '42') ASC NULLS LAST, "_ordinal" ASC;

select: name
order_by: distance(p, geom'POINT(2.35 48.85)')
limit: 10
SELECT "name" AS "name"
FROM "things"
ORDER BY (2 * 6371008.8 * atan2(sqrt(pow(sin(radians(struct_extract("p", 'lat') - 48.85::DOUBLE) / 2), 2) + cos(radians(48.85::DOUBLE)) * cos(radians(struct_extract("p", 'lat'))) * pow(sin(radians(struct_extract("p", 'lon') - 2.35::DOUBLE) / 2), 2)), sqrt(greatest(0.0, 1.0 - (pow(sin(radians(struct_extract("p", 'lat') - 48.85::DOUBLE) / 2), 2) + cos(radians(48.85::DOUBLE)) * cos(radians(struct_extract("p", 'lat'))) * pow(sin(radians(struct_extract("p", 'lon') - 2.35::DOUBLE) / 2), 2)))))) ASC NULLS LAST, "_ordinal" ASC
LIMIT 10;

group_by: name
select: count(*) as c
order_by: c desc
limit: 5
SELECT "name" AS "name", count(*) AS "c"
FROM "things"
GROUP BY "name"
ORDER BY count(*) DESC NULLS LAST, "name" ASC NULLS LAST
LIMIT 5;
