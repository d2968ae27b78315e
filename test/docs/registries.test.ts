// The README names every ODSQL function of the registry and every export format of the export
// registry, so that neither list drifts from the code (datasette's tests/test_docs.py).
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { DATASET_EXPORT_FORMATS } from '../../src/exports/formats.js';
import { EXPORTERS } from '../../src/exports/registry.js';
import { FUNCTION_NAMES } from '../../src/odsql/index.js';

const README = readFileSync('README.md', 'utf8');

/** The text of the README section under the `## title` heading. */
function section(title: string): string {
  const start = README.indexOf(`\n## ${title}\n`);
  expect(start, `section ${title}`).to.be.greaterThan(-1);
  const end = README.indexOf('\n## ', start + 1);
  return README.slice(start, end === -1 ? undefined : end);
}

describe('the README and the registries', () => {
  it('names every ODSQL function as a call in the ODSQL section', () => {
    const text = section('ODSQL');
    expect(FUNCTION_NAMES.length).to.be.greaterThan(30);
    expect(FUNCTION_NAMES.filter((name) => !text.includes(`\`${name}()\``))).to.deep.equal([]);
  });

  it('names every export format of the registry in the Exports section', () => {
    const text = section('Exports');
    const formats = Object.keys(EXPORTERS);
    expect([...formats].sort()).to.deep.equal([...DATASET_EXPORT_FORMATS].sort());
    expect(formats.filter((format) => !new RegExp(`\\b${format}\\b`).test(text))).to.deep.equal([]);
  });
});
