// How text becomes search tokens, in JavaScript: the twin of the SQL of src/search/tokens.ts
// (`regexp_split_to_array(strip_accents(lower(x)), '[^\p{L}\p{N}]+')`), for the catalog, whose
// tokens are computed once per dataset when its index line is written instead of by DuckDB at
// each query (a regexp split of 100,000 descriptions took 8.5 s there). The two agree token for
// token (test/search/text-tokens.test.ts compares them on accents, ligatures, Greek, Turkish,
// CJK and marks).

/** Token boundaries: anything but a letter or a digit (after accents are stripped). */
const SEPARATORS = /[^\p{L}\p{N}]+/u;
const MARKS = /\p{M}/gu;
const ASCII = /^[\x00-\x7f]*$/;

/** Lowercases code point by code point (DuckDB's lower(): utf8proc's simple mapping, one code point each). */
function lowerSimple(text: string): string {
  if (ASCII.test(text)) return text.toLowerCase();
  let out = '';
  for (const char of text) {
    const lower = char.toLowerCase();
    // Full mappings (U+0130 -> i + U+0307) are longer; the simple mapping keeps one code point.
    out += [...lower].length === 1 ? lower : char === '\u0130' ? 'i' : char;
  }
  return out;
}

/** The normal form tokens are compared in: lowercase, without accents (strip_accents: marks dropped, recomposed). */
export function normalizeText(text: string): string {
  const lower = lowerSimple(text);
  if (ASCII.test(lower)) return lower;
  return lower.normalize('NFD').replace(MARKS, '').normalize('NFC');
}

/** The tokens of a text, in order, empty ones left out (the index drops them too). */
export function textTokens(text: string): string[] {
  return normalizeText(text)
    .split(SEPARATORS)
    .filter((token) => token !== '');
}
