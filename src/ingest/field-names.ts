// Source column headers -> field names, spelled the way the public service spells them.

/**
 * The field name of one header: lowercase ASCII, accents stripped, every run of other
 * characters turned into one `_`, no `_` at either end; empty becomes `field`, and a name
 * that would start with a digit gets a `field_` prefix (field names must not start with one).
 */
export function normalizeFieldName(header: string): string {
  const name = header
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (name === '') return 'field';
  return /^[0-9]/.test(name) ? `field_${name}` : name;
}

/** Field names for a list of headers, in order, made unique with `_2`, `_3`... */
export function uniqueFieldNames(headers: readonly string[], taken: Iterable<string> = []): string[] {
  const used = new Set(taken);
  return headers.map((header) => {
    const name = uniqueName(normalizeFieldName(header), used);
    used.add(name);
    return name;
  });
}

/** `base` if unused, else the first of `base_2`, `base_3`... that is. */
export function uniqueName(base: string, used: ReadonlySet<string>): string {
  if (!used.has(base)) return base;
  let suffix = 2;
  while (used.has(`${base}_${suffix}`)) suffix++;
  return `${base}_${suffix}`;
}

/** The field a user means by `given`: a field name as is, or a header spelled as in the source. */
export function resolveFieldName(given: string, names: readonly string[]): string | undefined {
  if (names.includes(given)) return given;
  const normalized = normalizeFieldName(given);
  return names.includes(normalized) ? normalized : undefined;
}
