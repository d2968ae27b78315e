// What attachments each audience gets (docs/access-control.md, Attachments and audiences): a
// whole reader all of them; an audience under a row filter or hidden fields only those marked for
// all audiences, by every route that lists or serves one; callers outside every audience none.
// Answers to anyone but the anonymous public are private to shared caches.
import { expect } from 'chai';
import { KeyStore } from '../../src/auth/keys.js';
import { markAttachments, restrictTowns, startFixtureServer } from '../helpers/fixture-portal.js';
import type { TestServer } from '../helpers/server.js';

const V21 = '/api/explore/v2.1';
/** The file generations that serve an attachment: v2.1 and its two v2.0 spellings. */
const ATTACHMENT_BASES = [V21, '/api/explore/v2.0', '/api/v2'];

describe('attachments and audiences (fixture portal)', () => {
  let server: TestServer;
  const keys = new Map<string, string | null>([['anonymous', null]]);

  before(async () => {
    server = await startFixtureServer(async (portal) => {
      const callers = await restrictTowns(portal);
      keys.set('staff', callers.staff).set('filtered', callers.filtered).set('hidden', callers.hidden);
      keys.set('outsider', new KeyStore(portal).create('erin').key);
      await markAttachments(portal);
    });
  });
  after(() => server.close());

  const get = (route: string, caller: string, headers: Record<string, string> = {}) => {
    const key = keys.get(caller);
    return server.get(route, { headers: { ...headers, ...(key && { Authorization: `Apikey ${key}` }) } });
  };
  const json = async (route: string, caller: string) => {
    const response = await get(route, caller);
    expect(response.status, `${route} as ${caller}`).to.equal(200);
    return response.json();
  };
  /** The attachment ids each listing gives `caller`: attachments list, v2.1, v2.0 and v1 lookups, catalog. */
  const listings = async (id: string, caller: string) => {
    const ids = (list: { id: string }[]) => list.map((a) => a.id);
    const listed = await json(`${V21}/catalog/datasets/${id}/attachments`, caller);
    const catalog = await json(`${V21}/catalog/datasets?where=dataset_id='${id}'`, caller);
    return {
      list: listed.attachments.map((a: any) => a.metas.id),
      v21: ids((await json(`${V21}/catalog/datasets/${id}`, caller)).attachments),
      v20: ids((await json(`/api/explore/v2.0/catalog/datasets/${id}`, caller)).dataset.attachments),
      v1: ids((await json(`/api/datasets/1.0/${id}`, caller)).attachments),
      catalog: ids(catalog.results[0].attachments),
    };
  };
  const same = (ids: string[]) => ({ list: ids, v21: ids, v20: ids, v1: ids, catalog: ids });

  it('serves a filtered audience no attachment but those marked for all audiences, by any route', async () => {
    for (const caller of ['filtered', 'hidden']) {
      for (const base of ATTACHMENT_BASES) {
        const route = `${base}/catalog/datasets/towns/attachments/cities1000_zip`;
        const refused = await get(route, caller);
        expect(refused.status, `${route} as ${caller}`).to.equal(404);
        const body = await refused.json();
        expect(body.error_code).to.equal('NotFoundResource');
        expect(body.message)
          .to.include('row filter or hidden fields')
          .and.include('marked for all audiences');
        expect(refused.headers.get('cache-control')).to.equal('no-store');
        const served = await get(`${base}/catalog/datasets/towns/attachments/notes_ete_txt`, caller);
        expect([served.status, await served.text()]).to.deep.equal([200, 'hello attachments\n']);
        expect(served.headers.get('cache-control')).to.equal('private, no-cache');
      }
      expect(await listings('towns', caller), caller).to.deep.equal(same(['notes_ete_txt']));
    }
    // The public audience of a public dataset, let in under a row filter: its copy of every row is refused.
    const full = await get(`${V21}/catalog/datasets/words/attachments/words_csv`, 'anonymous');
    expect(full.status).to.equal(404);
    const readme = await get(`${V21}/catalog/datasets/words/attachments/readme_txt`, 'anonymous');
    expect([readme.status, await readme.text()]).to.deep.equal([200, 'five words\n']);
    expect(readme.headers.get('cache-control')).to.equal('public, max-age=60');
    expect(await listings('words', 'anonymous')).to.deep.equal(same(['readme_txt']));
  });

  it('answers an unlisted attachment as it answers one that does not exist', async () => {
    const body = async (id: string) =>
      (await get(`${V21}/catalog/datasets/towns/attachments/${id}`, 'filtered')).json();
    const [existing, missing] = [await body('cities1000_zip'), await body('nothing_zip')];
    expect(missing.message.replace('nothing_zip', 'cities1000_zip')).to.equal(existing.message);
  });

  it('serves a whole reader every attachment, privately', async () => {
    for (const [id, files] of [
      ['towns', ['cities1000_zip', 'notes_ete_txt']],
      ['words', ['readme_txt', 'words_csv']],
    ] as const) {
      expect(await listings(id, 'staff'), id).to.deep.equal(same([...files]));
      for (const file of files) {
        const response = await get(`${V21}/catalog/datasets/${id}/attachments/${file}`, 'staff');
        expect(response.status, `${id}/${file}`).to.equal(200);
        expect(response.headers.get('cache-control')).to.equal('private, no-cache');
        await response.arrayBuffer();
      }
    }
  });

  it('refuses callers outside every audience as before, and lists them no attachment', async () => {
    for (const caller of ['anonymous', 'outsider']) {
      for (const file of ['cities1000_zip', 'notes_ete_txt']) {
        const response = await get(`${V21}/catalog/datasets/towns/attachments/${file}`, caller);
        expect([response.status, (await response.json()).error_code]).to.deep.equal([403, 'ForbiddenAccess']);
      }
      const lookup = await get(`${V21}/catalog/datasets/towns`, caller);
      expect((await lookup.json()).attachments, caller).to.deep.equal([]);
      // A restricted dataset's answers are not for shared caches, even the anonymous ones.
      expect(lookup.headers.get('cache-control'), caller).to.equal('private, no-cache');
    }
  });

  it("does not revalidate one audience's file with another's tag", async () => {
    const route = `${V21}/catalog/datasets/towns/attachments/cities1000_zip`;
    const tag = (await get(route, 'staff')).headers.get('etag')!;
    expect(tag).to.match(/^"/);
    expect((await get(route, 'staff', { 'If-None-Match': tag })).status).to.equal(304);
    for (const caller of ['filtered', 'hidden', 'anonymous', 'outsider']) {
      const response = await get(route, caller, { 'If-None-Match': tag });
      expect(response.status, caller).to.be.oneOf([403, 404]);
    }
  });

  it('lists as DCAT distributions only the attachments each caller is served; RSS links none', async () => {
    const seen = async (format: string, caller: string) => {
      const document = await (await get(`${V21}/catalog/exports/${format}`, caller)).text();
      const files = ['towns/attachments/cities1000_zip', 'towns/attachments/notes_ete_txt'];
      files.push('words/attachments/readme_txt', 'words/attachments/words_csv');
      return files.filter((file) => document.includes(`/catalog/datasets/${file}`));
    };
    expect(await seen('ttl', 'staff')).to.have.length(4);
    expect(await seen('rdf', 'staff')).to.have.length(4);
    for (const format of ['ttl', 'rdf', 'dcat_ap_ch']) {
      expect(await seen(format, 'filtered'), format).to.deep.equal([
        'towns/attachments/notes_ete_txt',
        'words/attachments/readme_txt',
      ]);
      expect(await seen(format, 'anonymous'), format).to.deep.equal(['words/attachments/readme_txt']);
    }
    expect(await seen('rss', 'staff')).to.deep.equal([]);
  });
});
