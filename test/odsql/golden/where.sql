# Comparisons: `:` is `=`, `<>` is `!=`; text compared exactly
where: n > 3 and name = 'a'

select: n
where: n : 3 or n <> 4

select: n
where: name != "x" and x <= 2.5

# NOT is null-aware: `NOT f = 'x'` keeps the nulls
select: n
where: not name = 'x'

# A number compared with a text field is its text; a numeric string with a number field is a number
select: n
where: name = 75001 and n = '12'

select: n
where: name like 'Paris'

select: n
where: ok

select: n
where: ok is false and name is not null and n is null

select: n
where: n in [1..10[

select: n
where: n in ]1 TO 10]

select: n
where: name in ('a', 'b') and n in (1, 2)

# Multivalued: equality is "any element", IN tests membership
select: n
where: tags = 'red' and 'blue' in tags and tags != 'green'

select: n
where: tags like 're' or tags is null or tags > 'm'

select: n
where: tags in ('a', 'b')

# Arithmetic in DOUBLE, division by zero is null, unary minus folded into literals
select: n
where: (n + 1) * 2 / x > -3 and -n < 0

# A bare string is a full-text search on every field
select: n
where: 'alpha beta' and not 'gamma'

# Day-granular date literals on a DATE field
select: n
where: d = date'2020-01-15'

select: n
where: d > date'2020' and d <= date'2021-06'

select: n
where: d in [date'2020'..date'2021'[

# On a TIMESTAMPTZ field, in the request time zone
select: n
where: t >= date'2020-07-01'
timezone: Europe/Paris

select: n
where: t < date'2020-01-01T10:30'

select: n
where: d = '2020-01-15'

# Several where parameters are ANDed
select: n
where: n > 1
where: n < 5

# Back-quoted names: a reserved word, a name that needs quoting
select: n
where: `year` = 2020 and `n` = 1

# OR chains are flat
select: n
where: n = 1 or n = 2 or n = 3 or n = 4
