// A double's text in ClickHouse SQL as DuckDB writes it, so that the text cells of an export (a
// point's "lat, lon", a GeoJSON geometry) have DuckDB's bytes. ClickHouse 18.16's toString writes
// a double's shortest digits as JavaScript does (positional from 1e-6 to 1e21, else 1e-7, 1e300;
// a whole number without a point; nan, inf). DuckDB's CAST to VARCHAR writes the same digits
// positionally only from 1e-4 to 1e16, else 1.5e-07, 1e+16; a whole number as 2.0; nan, inf. Its
// JSON writer writes JavaScript's text with 1e300 for 1e+300 and 2.0 for 2; NaN, Infinity.

/** The text of a double from its ClickHouse text `s` (of `x`, not null), as DuckDB's JSON writer. */
export function jsonDoubleSql(x: string): string {
  const s = `replaceOne(toString(${x}), 'e+', 'e')`;
  return `multiIf(isNaN(${x}), 'NaN', isInfinite(${x}), if(${x} > 0, 'Infinity', '-Infinity'), match(${s}, '[.e]'), ${s}, concat(${s}, '.0'))`;
}

/** `digits` (no point, no leading zero) as DuckDB's mantissa: d or d.ddd. */
const mantissa = (digits: string): string =>
  `if(length(${digits}) = 1, ${digits}, concat(substring(${digits}, 1, 1), '.', substring(${digits}, 2)))`;

/** DuckDB's exponent: e, its sign, at least two digits. */
const exponent = (e: string): string =>
  `concat('e', if(${e} < 0, '-', '+'), if(abs(${e}) < 10, '0', ''), toString(abs(${e})))`;

/** The text of a finite double's magnitude `a` (toString of a non-negative number) in DuckDB's CAST form. */
function magnitudeSql(a: string): string {
  const s = `toString(${a})`;
  // 1e300, 1.5e-7: ClickHouse's mantissa, DuckDB's exponent.
  const withExponent = `concat(splitByChar('e', ${s})[1], ${exponent(`toInt32OrZero(replaceOne(splitByChar('e', ${s})[2], '+', ''))`)})`;
  // 12345678901234567000: the digits without their trailing zeros, the exponent from their count.
  const large = `concat(${mantissa(`replaceRegexpOne(${s}, '0+$', '')`)}, ${exponent(`(length(${s}) - 1)`)})`;
  // 0.0000123: the digits after the zeros, the exponent from the zeros.
  const fraction = `substring(${s}, 3)`;
  const digits = `replaceRegexpOne(${fraction}, '^0+', '')`;
  const small = `concat(${mantissa(digits)}, ${exponent(`(toInt32(length(${digits})) - toInt32(length(${fraction})) - 1)`)})`;
  return `multiIf(position(${s}, 'e') > 0, ${withExponent}, ${a} = 0, '0.0', ${a} >= 1e16, ${large}, ${a} < 1e-4, ${small}, position(${s}, '.') > 0, ${s}, concat(${s}, '.0'))`;
}

/** The text of double `x` (not null) as DuckDB's CAST(x AS VARCHAR) writes it. */
export function duckdbDoubleTextSql(x: string): string {
  // -0.0 keeps its sign (1 / -0 is -inf).
  const negative = `(${x} < 0 OR (${x} = 0 AND 1 / ${x} < 0))`;
  return `multiIf(isNaN(${x}), 'nan', isInfinite(${x}), if(${x} > 0, 'inf', '-inf'), concat(if(${negative}, '-', ''), ${magnitudeSql(`abs(${x})`)}))`;
}
