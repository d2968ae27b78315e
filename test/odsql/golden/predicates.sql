# startswith: case-sensitive prefix; * is every text field, a multivalued field any element
select: n
where: startswith(name, 'Al')
SELECT "n" AS "n"
FROM "things"
WHERE (starts_with("name", 'Al'));

select: n
where: startswith(*, 'Al')
SELECT "n" AS "n"
FROM "things"
WHERE (starts_with("name", 'Al') OR list_bool_or(list_transform("tags", lambda "search$item": starts_with("search$item", 'Al'))));

select: n
where: search(name, 'alpha') or suggest(*, 'bet')
SELECT "n" AS "n"
FROM "things"
WHERE (list_transform([regexp_split_to_array(strip_accents(lower(concat_ws(' ', "name"))), '[^\p{L}\p{N}]+')], lambda "search$all": len(list_filter("search$all", lambda "search$t": starts_with("search$t", strip_accents(lower('alpha'))))) > 0)[1] OR list_transform([regexp_split_to_array(strip_accents(lower(concat_ws(' ', "name", array_to_string("tags", ' ')))), '[^\p{L}\p{N}]+')], lambda "search$all": len(list_filter("search$all", lambda "search$t": starts_with("search$t", strip_accents(lower('bet'))))) > 0)[1]);

select: n
where: within_distance(p, geom'POINT(2.35 48.85)', 10km)
SELECT "n" AS "n"
FROM "things"
WHERE (struct_extract("p", 'lat') BETWEEN 48.76006796362755::DOUBLE AND 48.939932036372454::DOUBLE AND struct_extract("p", 'lon') BETWEEN 2.2133318710263556::DOUBLE AND 2.4866681289736445::DOUBLE AND (2 * 6371008.8 * atan2(sqrt(pow(sin(radians(struct_extract("p", 'lat') - 48.85::DOUBLE) / 2), 2) + cos(radians(48.85::DOUBLE)) * cos(radians(struct_extract("p", 'lat'))) * pow(sin(radians(struct_extract("p", 'lon') - 2.35::DOUBLE) / 2), 2)), sqrt(greatest(0.0, 1.0 - (pow(sin(radians(struct_extract("p", 'lat') - 48.85::DOUBLE) / 2), 2) + cos(radians(48.85::DOUBLE)) * cos(radians(struct_extract("p", 'lat'))) * pow(sin(radians(struct_extract("p", 'lon') - 2.35::DOUBLE) / 2), 2)))))) <= 10000::DOUBLE);

# A unit may follow its number after a space ("spaces are optional")
select: n
where: within_distance(p, geom'POINT(2.35 48.85)', 10 km)
SELECT "n" AS "n"
FROM "things"
WHERE (struct_extract("p", 'lat') BETWEEN 48.76006796362755::DOUBLE AND 48.939932036372454::DOUBLE AND struct_extract("p", 'lon') BETWEEN 2.2133318710263556::DOUBLE AND 2.4866681289736445::DOUBLE AND (2 * 6371008.8 * atan2(sqrt(pow(sin(radians(struct_extract("p", 'lat') - 48.85::DOUBLE) / 2), 2) + cos(radians(48.85::DOUBLE)) * cos(radians(struct_extract("p", 'lat'))) * pow(sin(radians(struct_extract("p", 'lon') - 2.35::DOUBLE) / 2), 2)), sqrt(greatest(0.0, 1.0 - (pow(sin(radians(struct_extract("p", 'lat') - 48.85::DOUBLE) / 2), 2) + cos(radians(48.85::DOUBLE)) * cos(radians(struct_extract("p", 'lat'))) * pow(sin(radians(struct_extract("p", 'lon') - 2.35::DOUBLE) / 2), 2)))))) <= 10000::DOUBLE);

# distance() with a radius is the v2.0 spelling of within_distance()
select: n
where: distance(p, geom'POINT(2.35 48.85)', 500m)
SELECT "n" AS "n"
FROM "things"
WHERE (struct_extract("p", 'lat') BETWEEN 48.84550339818138::DOUBLE AND 48.854496601818624::DOUBLE AND struct_extract("p", 'lon') BETWEEN 2.343166597216253::DOUBLE AND 2.356833402783747::DOUBLE AND (2 * 6371008.8 * atan2(sqrt(pow(sin(radians(struct_extract("p", 'lat') - 48.85::DOUBLE) / 2), 2) + cos(radians(48.85::DOUBLE)) * cos(radians(struct_extract("p", 'lat'))) * pow(sin(radians(struct_extract("p", 'lon') - 2.35::DOUBLE) / 2), 2)), sqrt(greatest(0.0, 1.0 - (pow(sin(radians(struct_extract("p", 'lat') - 48.85::DOUBLE) / 2), 2) + cos(radians(48.85::DOUBLE)) * cos(radians(struct_extract("p", 'lat'))) * pow(sin(radians(struct_extract("p", 'lon') - 2.35::DOUBLE) / 2), 2)))))) <= 500::DOUBLE);

select: n
where: in_bbox(p, 48, 2, 49, 3)
SELECT "n" AS "n"
FROM "things"
WHERE (struct_extract("p", 'lat') BETWEEN 48::DOUBLE AND 49::DOUBLE AND struct_extract("p", 'lon') BETWEEN 2::DOUBLE AND 3::DOUBLE);

select: n
where: intersects(p, geom'POLYGON((2 48, 3 48, 3 49, 2 49, 2 48))')
SELECT "n" AS "n"
FROM "things"
WHERE ((struct_extract("p", 'lon') BETWEEN 2::DOUBLE AND 3::DOUBLE AND struct_extract("p", 'lat') BETWEEN 48::DOUBLE AND 49::DOUBLE) AND ((struct_extract("p", 'lat') >= 48::DOUBLE AND struct_extract("p", 'lat') < 49::DOUBLE AND struct_extract("p", 'lon') < 3::DOUBLE + (struct_extract("p", 'lat') - 48::DOUBLE) * 0::DOUBLE)::INTEGER + (struct_extract("p", 'lat') >= 48::DOUBLE AND struct_extract("p", 'lat') < 49::DOUBLE AND struct_extract("p", 'lon') < 2::DOUBLE + (struct_extract("p", 'lat') - 49::DOUBLE) * 0::DOUBLE)::INTEGER) % 2 = 1);

# geometry(f, g, RELATION) is the v2.0 spelling of intersects/disjoint/within
select: n
where: geometry(p, geom'POLYGON((2 48, 3 48, 3 49, 2 49, 2 48))', WITHIN)
SELECT "n" AS "n"
FROM "things"
WHERE ((struct_extract("p", 'lon') BETWEEN 2::DOUBLE AND 3::DOUBLE AND struct_extract("p", 'lat') BETWEEN 48::DOUBLE AND 49::DOUBLE) AND ((struct_extract("p", 'lat') >= 48::DOUBLE AND struct_extract("p", 'lat') < 49::DOUBLE AND struct_extract("p", 'lon') < 3::DOUBLE + (struct_extract("p", 'lat') - 48::DOUBLE) * 0::DOUBLE)::INTEGER + (struct_extract("p", 'lat') >= 48::DOUBLE AND struct_extract("p", 'lat') < 49::DOUBLE AND struct_extract("p", 'lon') < 2::DOUBLE + (struct_extract("p", 'lat') - 49::DOUBLE) * 0::DOUBLE)::INTEGER) % 2 = 1);

select: n
where: geometry(s, geom'POINT(2.35 48.85)', WITHIN)
ERROR: within() needs a POLYGON or MULTIPOLYGON geometry. Clause(s) containing the error(s): where.
