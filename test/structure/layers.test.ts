// The layers of docs/architecture.md hold: every file of src/ and bench/ is in a room of the layer
// table, a room imports only rooms of lower layers (so no two rooms import each other and no
// circle of rooms exists), the browser's bundle (web/src/) and the server never import each other,
// and the picture in docs/architecture.svg is the one the imports draw today.
import { existsSync, readFileSync } from 'node:fs';
import { expect } from 'chai';
import { layerPicture } from './layer-picture.js';
import {
  ARCHITECTURE,
  crossings,
  layerTable,
  localImports,
  roomEdges,
  sourceFiles,
  type Crossing,
  type Room,
} from './rooms.js';

const FOLDERS = ['src', 'bench'];

/** The crossings of `found` that import a room of the same or a higher layer, as readable lines. */
export function againstTheTable(rooms: readonly Room[], found: readonly Crossing[]): string[] {
  const layer = new Map(rooms.map((r) => [r.name, r.layer]));
  return found
    .filter(({ from, to }) => !(layer.get(from)! < layer.get(to)!))
    .map(
      ({ from, to, file, target }) =>
        `${file} imports ${target}: ${from} (layer ${layer.get(from)}) -> ${to} (layer ${layer.get(to)})`,
    );
}

/**
 * Inside odsql (docs/architecture.md, "Inside odsql"): what the dialects and the function registry
 * may import from the rest of src/odsql/. Neither reaches parse, analyze or compile.
 */
const ODSQL_LEAVES: readonly { folder: string; may: readonly string[] }[] = [
  {
    folder: 'src/odsql/dialect/',
    may: [
      'ast.ts',
      'types.ts',
      'errors.ts',
      'limits.ts',
      'facet-key.ts',
      'hidden-columns.ts',
      'shape.ts',
      'functions/',
    ],
  },
  { folder: 'src/odsql/functions/', may: ['ast.ts', 'types.ts', 'errors.ts', 'limits.ts'] },
];

/** The imports of `folder`'s files into the rest of src/odsql/ that `may` does not list. */
function outsideLeaf({ folder, may }: (typeof ODSQL_LEAVES)[number]): string[] {
  return sourceFiles(folder).flatMap((file) =>
    localImports(file)
      .filter((target) => target.startsWith('src/odsql/') && !target.startsWith(folder))
      .filter((target) => !may.some((allowed) => target.startsWith(`src/odsql/${allowed}`)))
      .map((target) => `${file} imports ${target}`),
  );
}

describe('layers (docs/architecture.md)', () => {
  const rooms = layerTable(readFileSync(ARCHITECTURE, 'utf8'));
  const found = crossings(rooms, FOLDERS);

  it('the table names rooms, each holding paths that exist', () => {
    expect(rooms.length).to.be.above(10);
    const missing = rooms.flatMap((r) => r.paths.filter((p) => !existsSync(p)).map((p) => `${r.name}: ${p}`));
    expect(missing).to.deep.equal([]);
  });

  it('every file of src/ and bench/ is in a room', () => {
    const homeless = found
      .filter((c) => c.from === '?' || c.to === '?')
      .map((c) => `${c.file} -> ${c.target}`);
    expect(homeless).to.deep.equal([]);
  });

  it('every import goes to a lower layer', () => {
    expect(againstTheTable(rooms, found)).to.deep.equal([]);
  });

  it('a back-up import is caught (the check itself can fail)', () => {
    const upward = { from: 'catalog', to: 'api', file: 'src/catalog/portal.ts', target: 'src/api/app.ts' };
    const sideways = { from: 'api', to: 'web', file: 'src/api/app.ts', target: 'src/web/pages.ts' };
    expect(againstTheTable(rooms, [upward, sideways])).to.have.length(2);
  });

  it('the dialects and the function registry import no parse, analyze or compile file of odsql', () => {
    expect(ODSQL_LEAVES.flatMap(outsideLeaf)).to.deep.equal([]);
  });

  it("the browser's bundle (web/src/) and the server import nothing of each other", () => {
    const browser = sourceFiles('web/src').flatMap((file) =>
      localImports(file)
        .filter((target) => !target.startsWith('web/'))
        .map((target) => `${file} imports ${target}`),
    );
    const server = found
      .filter((c) => c.target.startsWith('web/src/'))
      .map((c) => `${c.file} imports ${c.target}`);
    expect([...browser, ...server]).to.deep.equal([]);
  });

  it('docs/architecture.svg is the picture of the imports today (`make architecture` redraws it)', () => {
    const drawn = layerPicture(rooms, roomEdges(found));
    expect(
      readFileSync('docs/architecture.svg', 'utf8') === drawn,
      'stale: run `make architecture`',
    ).to.equal(true);
  });
});
