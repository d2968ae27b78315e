// The catalog page's scope (src/web/catalog-scope.ts): the restricted datasets a caller cannot
// open, named by the index's `restricted` fact (an index written before the fact is read again),
// left out by one ODSQL condition naming the fewest datasets; past the bound of a condition, none
// is left out.
import { readFile, rm, writeFile } from 'node:fs/promises';
import { expect } from 'chai';
import type { Context } from 'koa';
import { loadPortal, type Portal } from '../../src/catalog/portal.js';
import { catalogIndexPath } from '../../src/catalog/catalog-index.js';
import type { KeyOwner } from '../../src/auth/keys.js';
import type { Services } from '../../src/http/services.js';
import { DATASET_CHECKS } from '../../src/server/engines.js';
import { catalogScope, MAX_NAMED } from '../../src/web/catalog-scope.js';
import { buildFixturePortal, restrictDataset } from '../helpers/fixture-portal.js';

/** A request of `owner` (null: anonymous), as the authentication middleware leaves it. */
const requestOf = (owner: KeyOwner | null) =>
  ({
    state: { auth: { owner, session: null, caller: { keyId: null, ip: '::1' }, refusal: null } },
  }) as Context;
const servicesOf = (portal: Portal) => ({ portal: () => portal }) as unknown as Services;
const alice: KeyOwner = { keyId: null, user: 'alice', groups: ['staff'] };
const bob: KeyOwner = { keyId: null, user: 'bob', groups: [] };

describe('web: the catalog scope', () => {
  let dir: string;
  before(async () => {
    dir = await buildFixturePortal();
    await restrictDataset(dir, 'towns', [{ groups: ['staff'] }]);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('leaves out what the caller cannot open, from the index fact', async () => {
    const portal = await loadPortal(dir, DATASET_CHECKS);
    expect(portal.load!.restricted).to.deep.equal(['towns']);
    const services = servicesOf(portal);
    expect(await catalogScope(requestOf(null), services)).to.equal("visibility = 'domain'");
    expect(await catalogScope(requestOf(bob), services)).to.equal("visibility = 'domain'");
    expect(await catalogScope(requestOf(alice), services)).to.equal(null);
    portal.load!.index.close();
  });

  it('reads again a dataset whose index line predates the fact', async () => {
    const file = catalogIndexPath(dir);
    const lines = (await readFile(file, 'utf8')).split('\n').filter((line) => line !== '');
    const stripped = lines.map((line) => {
      const parts = line.split('\t');
      const facts = JSON.parse(parts[2]!) as Record<string, unknown>;
      delete facts.restricted;
      return [parts[0], parts[1], JSON.stringify(facts), ...parts.slice(3)].join('\t');
    });
    await writeFile(file, `${stripped.join('\n')}\n`);
    const portal = await loadPortal(dir, DATASET_CHECKS);
    expect(portal.load!.reread).to.include.members(lines.map((line) => line.split('\t')[0]));
    expect(portal.load!.restricted).to.deep.equal(['towns']);
    portal.load!.index.close();
  });

  it('names the fewer of the restricted datasets opened and not, and none past the bound', async () => {
    const portal = await loadPortal(dir, DATASET_CHECKS);
    // words is public: whoever is asked opens it; bob opens no towns, alice every one.
    const scopeOf = (towns: number, words: number, owner: KeyOwner) => {
      const restricted = [...Array<string>(towns).fill('towns'), ...Array<string>(words).fill('words')];
      const load = { ...portal.load!, restricted, guarded: ['towns', 'words'] };
      return catalogScope(requestOf(owner), servicesOf({ ...portal, load }));
    };
    const many = MAX_NAMED + 1;
    expect(await scopeOf(many, 1, bob)).to.equal("(visibility = 'domain' or dataset_id in ('words'))");
    expect(await scopeOf(1, many, bob)).to.equal("not dataset_id in ('towns')");
    expect(await scopeOf(many, many, bob)).to.equal(null);
    expect(await scopeOf(many, many, alice)).to.equal(null);
    portal.load!.index.close();
  });
});
