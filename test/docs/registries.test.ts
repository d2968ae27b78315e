// The docs name every ODSQL function of the registry (docs/odsql.md) and every export format of
// the export registry (docs/exports.md), so that neither list drifts from the code (datasette's
// tests/test_docs.py).
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { DATASET_EXPORT_FORMATS } from '../../src/exports/formats.js';
import { EXPORTERS } from '../../src/exports/registry.js';
import { FUNCTION_NAMES } from '../../src/odsql/index.js';

describe('the docs and the registries', () => {
  it('names every ODSQL function as a call in docs/odsql.md', () => {
    const text = readFileSync('docs/odsql.md', 'utf8');
    expect(FUNCTION_NAMES.length).to.be.greaterThan(30);
    expect(FUNCTION_NAMES.filter((name) => !text.includes(`\`${name}()\``))).to.deep.equal([]);
  });

  it('names every export format of the registry in docs/exports.md', () => {
    const text = readFileSync('docs/exports.md', 'utf8');
    const formats = Object.keys(EXPORTERS);
    expect([...formats].sort()).to.deep.equal([...DATASET_EXPORT_FORMATS].sort());
    expect(formats.filter((format) => !new RegExp(`\\b${format}\\b`).test(text))).to.deep.equal([]);
  });
});
