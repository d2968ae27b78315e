# startswith: case-sensitive prefix; * is every text field, a multivalued field any element
select: n
where: startswith(name, 'Al')

select: n
where: startswith(*, 'Al')

select: n
where: search(name, 'alpha') or suggest(*, 'bet')

select: n
where: within_distance(p, geom'POINT(2.35 48.85)', 10km)

# distance() with a radius is the v2.0 spelling of within_distance()
select: n
where: distance(p, geom'POINT(2.35 48.85)', 500m)

select: n
where: in_bbox(p, 48, 2, 49, 3)

select: n
where: intersects(p, geom'POLYGON((2 48, 3 48, 3 49, 2 49, 2 48))')

select: n
where: disjoint(s, geom'{"type": "Point", "coordinates": [2.35, 48.85]}')

# geometry(f, g, RELATION) is the v2.0 spelling of intersects/disjoint/within
select: n
where: geometry(p, geom'POLYGON((2 48, 3 48, 3 49, 2 49, 2 48))', WITHIN)

select: n
where: geometry(s, geom'POINT(2.35 48.85)', WITHIN)
