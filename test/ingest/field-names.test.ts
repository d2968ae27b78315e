// Field name normalization: the public service's spelling, as a table of header -> name.
import { expect } from 'chai';
import { normalizeFieldName, resolveFieldName, uniqueFieldNames } from '../../src/ingest/field-names.js';

const NAMES: readonly [string, string][] = [
  ['Name', 'name'],
  ['US Gross', 'us_gross'],
  ['Beak Length (mm)', 'beak_length_mm'],
  ['Cost Total $', 'cost_total'],
  ['Évian-les-Bains', 'evian_les_bains'],
  ['Crème Brûlée', 'creme_brulee'],
  ['naïve  façade', 'naive_facade'],
  ['İstanbul', 'istanbul'],
  ['__private__', 'private'],
  ['a--b__c', 'a_b_c'],
  ['2015', 'field_2015'],
  ['1st place', 'field_1st_place'],
  ['', 'field'],
  ['???', 'field'],
  ['日本', 'field'],
  ['magType', 'magtype'],
  ['geo_point_2d', 'geo_point_2d'],
];

describe('ingest: field names', () => {
  for (const [header, name] of NAMES) {
    it(`${JSON.stringify(header)} -> ${name}`, () => {
      expect(normalizeFieldName(header)).to.equal(name);
    });
  }

  it('every normalized name satisfies the dataset schema pattern', () => {
    for (const [header] of NAMES) expect(normalizeFieldName(header)).to.match(/^[a-z_][a-z0-9_]*$/);
  });

  it('makes names unique with _2, _3 in header order, skipping names already taken', () => {
    expect(uniqueFieldNames(['A', 'a', 'A ', 'a_2', ''])).to.deep.equal([
      'a',
      'a_2',
      'a_3',
      'a_2_2',
      'field',
    ]);
    expect(uniqueFieldNames(['geo'], ['geo'])).to.deep.equal(['geo_2']);
  });

  it('resolves a user-given name or source header to a field name', () => {
    const names = ['us_gross', 'major_genre'];
    expect(resolveFieldName('us_gross', names)).to.equal('us_gross');
    expect(resolveFieldName('Major Genre', names)).to.equal('major_genre');
    expect(resolveFieldName('genre', names)).to.equal(undefined);
  });
});
