# Comparisons: `:` is `=`, `<>` is `!=`; text compared exactly
where: n > 3 and name = 'a'
SELECT "name" AS "name", "n" AS "n", "x" AS "x", "ok" AS "ok", strftime("d", '%Y-%m-%d') AS "d", strftime(make_timestamp(epoch_us("t")), '%Y-%m-%dT%H:%M:%S+00:00') AS "t", "p" AS "p", CASE WHEN "s" IS NULL THEN NULL ELSE json_object('type', 'Feature', 'geometry', TRY_CAST("s" AS JSON), 'properties', json_object()) END AS "s", "tags" AS "tags", coalesce(TRY_CAST("j" AS JSON), to_json("j")) AS "j", "year" AS "year"
FROM "things"
WHERE (("n" > 3) AND ("name" = 'a'));

select: n
where: n : 3 or n <> 4
SELECT "n" AS "n"
FROM "things"
WHERE (("n" = 3) OR ("n" <> 4));

select: n
where: name != "x" and x <= 2.5
SELECT "n" AS "n"
FROM "things"
WHERE (("name" <> 'x') AND ("x" <= 2.5e0));

# NOT is null-aware: `NOT f = 'x'` keeps the nulls
select: n
where: not name = 'x'
SELECT "n" AS "n"
FROM "things"
WHERE (NOT coalesce(("name" = 'x'), false));

# A number compared with a text field is its text; a numeric string with a number field is a number
select: n
where: name = 75001 and n = '12'
SELECT "n" AS "n"
FROM "things"
WHERE (("name" = '75001') AND ("n" = 12));

select: n
where: name like 'Paris'
SELECT "n" AS "n"
FROM "things"
WHERE contains(lower("name"), lower('Paris'));

select: n
where: ok
SELECT "n" AS "n"
FROM "things"
WHERE "ok";

select: n
where: ok is false and name is not null and n is null
SELECT "n" AS "n"
FROM "things"
WHERE (("ok" IS FALSE) AND ("name" IS NOT NULL) AND ("n" IS NULL));

select: n
where: n in [1..10[
SELECT "n" AS "n"
FROM "things"
WHERE (("n" >= 1) AND ("n" < 10));

select: n
where: n in ]1 TO 10]
SELECT "n" AS "n"
FROM "things"
WHERE (("n" > 1) AND ("n" <= 10));

# v2.0's comma between the bounds, and the v2.0 documentation's `:` before a range
select: n
where: n in ]1, 10[ and x: [1,2.5]
SELECT "n" AS "n"
FROM "things"
WHERE ((("n" > 1) AND ("n" < 10)) AND (("x" >= 1) AND ("x" <= 2.5e0)));

select: n
where: name in ('a', 'b') and n in (1, 2)
SELECT "n" AS "n"
FROM "things"
WHERE (("name" IN ('a', 'b')) AND ("n" IN (1, 2)));

# Multivalued: equality is "any element", IN tests membership
select: n
where: tags = 'red' and 'blue' in tags and tags != 'green'
SELECT "n" AS "n"
FROM "things"
WHERE (list_contains("tags", 'red') AND list_contains("tags", 'blue') AND (NOT list_contains("tags", 'green')));

select: n
where: tags like 're' or tags is null or tags > 'm'
SELECT "n" AS "n"
FROM "things"
WHERE (list_bool_or(list_transform("tags", lambda "odsql item": contains(lower("odsql item"), lower('re')))) OR ("tags" IS NULL OR len("tags") = 0) OR list_bool_or(list_transform("tags", lambda "odsql item": "odsql item" > 'm')));

select: n
where: tags in ('a', 'b')
SELECT "n" AS "n"
FROM "things"
WHERE list_has_any("tags", ['a', 'b']);

# Arithmetic in DOUBLE, division by zero is null, unary minus folded into literals
select: n
where: (n + 1) * 2 / x > -3 and -n < 0
SELECT "n" AS "n"
FROM "things"
WHERE (((((CAST("n" AS DOUBLE) + 1) * 2) / NULLIF("x", 0)) > (-3)) AND ((- "n") < 0));

# A bare string is a full-text search on every field
select: n
where: 'alpha beta' and not 'gamma'
SELECT "n" AS "n"
FROM "things"
WHERE (list_transform([regexp_split_to_array(strip_accents(lower(concat_ws(' ', "name", array_to_string("tags", ' ')))), '[^\p{L}\p{N}]+')], lambda "search$all": len(list_filter("search$all", lambda "search$t": (length("search$t") BETWEEN length(strip_accents(lower('alpha'))) - (CASE WHEN length(strip_accents(lower('alpha'))) < 3 THEN 0 WHEN length(strip_accents(lower('alpha'))) <= 5 THEN 1 ELSE 2 END) AND length(strip_accents(lower('alpha'))) + (CASE WHEN length(strip_accents(lower('alpha'))) < 3 THEN 0 WHEN length(strip_accents(lower('alpha'))) <= 5 THEN 1 ELSE 2 END) AND levenshtein("search$t", strip_accents(lower('alpha'))) <= (CASE WHEN length(strip_accents(lower('alpha'))) < 3 THEN 0 WHEN length(strip_accents(lower('alpha'))) <= 5 THEN 1 ELSE 2 END)))) > 0 AND len(list_filter("search$all", lambda "search$t": starts_with("search$t", strip_accents(lower('beta'))))) > 0)[1] AND (NOT coalesce(list_transform([regexp_split_to_array(strip_accents(lower(concat_ws(' ', "name", array_to_string("tags", ' ')))), '[^\p{L}\p{N}]+')], lambda "search$all": len(list_filter("search$all", lambda "search$t": starts_with("search$t", strip_accents(lower('gamma'))))) > 0)[1], false)));

# Day-granular date literals on a DATE field
select: n
where: d = date'2020-01-15'
SELECT "n" AS "n"
FROM "things"
WHERE ("d" >= DATE '2020-01-15' AND "d" < DATE '2020-01-16');

select: n
where: d > date'2020' and d <= date'2021-06'
SELECT "n" AS "n"
FROM "things"
WHERE (("d" >= DATE '2021-01-01') AND ("d" < DATE '2021-07-01'));

select: n
where: d in [date'2020'..date'2021'[
SELECT "n" AS "n"
FROM "things"
WHERE (("d" >= DATE '2020-01-01') AND ("d" < DATE '2021-01-01'));

select: n
where: d in ]date'2020', date'2021']
SELECT "n" AS "n"
FROM "things"
WHERE (("d" >= DATE '2021-01-01') AND ("d" < DATE '2022-01-01'));

# On a TIMESTAMPTZ field, in the request time zone
select: n
where: t >= date'2020-07-01'
timezone: Europe/Paris
SELECT "n" AS "n"
FROM "things"
WHERE ("t" >= timezone('Europe/Paris', CAST(DATE '2020-07-01' AS TIMESTAMP)));

select: n
where: t < date'2020-01-01T10:30'
SELECT "n" AS "n"
FROM "things"
WHERE ("t" < timezone('UTC', TIMESTAMP '2020-01-01 10:30:00'));

select: n
where: d = '2020-01-15'
SELECT "n" AS "n"
FROM "things"
WHERE ("d" >= DATE '2020-01-15' AND "d" < DATE '2020-01-16');

# Several where parameters are ANDed
select: n
where: n > 1
where: n < 5
SELECT "n" AS "n"
FROM "things"
WHERE ("n" > 1) AND ("n" < 5);

# Back-quoted names: a reserved word, a name that needs quoting
select: n
where: `year` = 2020 and `n` = 1
SELECT "n" AS "n"
FROM "things"
WHERE (("year" = 2020) AND ("n" = 1));

# OR chains are flat
select: n
where: n = 1 or n = 2 or n = 3 or n = 4
SELECT "n" AS "n"
FROM "things"
WHERE (("n" = 1) OR ("n" = 2) OR ("n" = 3) OR ("n" = 4));
