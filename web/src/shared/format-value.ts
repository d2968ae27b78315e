// A record value as text for a table cell or the record view.

/** Text for any JSON value of a record: points as "lat, lon", lists joined, objects as JSON. */
export function formatValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(formatValue).join(', ');
  if (typeof value === 'object') {
    const point = value as { lon?: unknown; lat?: unknown };
    if (typeof point.lon === 'number' && typeof point.lat === 'number' && Object.keys(value).length === 2) {
      return `${point.lat}, ${point.lon}`;
    }
    return JSON.stringify(value);
  }
  return typeof value === 'string' ? value : JSON.stringify(value);
}
