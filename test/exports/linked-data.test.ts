// Records as linked data: Turtle, N3, RDF/XML and JSON-LD exports of the same rows parse, with
// rdflib (and raptor's rapper for all but JSON-LD), to one graph: each record is its API URL (a
// GET of it answers the record), part of the dataset's IRI, with typed literals.
import { expect } from 'chai';
import { readFile, rm } from 'node:fs/promises';
import { startFixtureServer } from '../helpers/fixture-portal.js';
import type { TestServer } from '../helpers/server.js';
import { rapperNTriples, rdflibGraphs, saved, tempFolder } from './readers.js';
import { addTricky, ODD_RECORD_ID } from './tricky-fixture.js';

const XSD = 'http://www.w3.org/2001/XMLSchema#';
const WKT = 'http://www.opengis.net/ont/geosparql#wktLiteral';
const IS_PART_OF = 'http://purl.org/dc/terms/isPartOf';
/** The four syntaxes and rdflib's name of each. */
const SYNTAXES = [
  ['turtle', 'turtle'],
  ['n3', 'n3'],
  ['rdfxml', 'xml'],
  ['jsonld', 'json-ld'],
] as const;

describe('linked-data exports: one graph of record IRIs in Turtle, N3, RDF/XML and JSON-LD', () => {
  let server: TestServer;
  let dir: string;
  before(async () => {
    server = await startFixtureServer(addTricky);
    dir = await tempFolder();
  });
  after(async () => {
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const dataset = () => `${server.base}/api/explore/v2.1/catalog/datasets/tricky`;

  /** Downloads the export in every syntax; returns the files (and rapper's N-Triples of three). */
  const exported = async (params: Record<string, string> = {}) => {
    const query = new URLSearchParams(params);
    const files: { file: string; format: string }[] = [];
    for (const [format, rdflib] of SYNTAXES) {
      const response = await server.get(
        `/api/explore/v2.1/catalog/datasets/tricky/exports/${format}?${query}`,
      );
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(response.status, bytes.subarray(0, 300).toString()).to.equal(200);
      files.push({ file: await saved(dir, `tricky-${query.size}.${format}`, bytes), format: rdflib });
    }
    const rapper = [];
    for (const { file, format } of files.slice(0, 3)) {
      const triples = await rapperNTriples(file, format === 'xml' ? 'rdfxml' : 'turtle');
      rapper.push({
        file: await saved(dir, `${file.split('/').pop()}.nt`, Buffer.from(triples)),
        format: 'nt',
      });
    }
    return { files, rapper };
  };

  it('the four syntaxes (and rapper reading three of them) give isomorphic graphs', async () => {
    const { files, rapper } = await exported();
    const graphs = await rdflibGraphs([...files, ...rapper]);
    expect(graphs.map((g) => g.isomorphic)).to.deep.equal(graphs.map(() => true));
    // 5 records, each part of the dataset; 27 values (10 + 5 + 6 + 6 + 0: nulls and empty lists have none).
    expect(graphs.map((g) => g.triples)).to.deep.equal(graphs.map(() => 5 + 27));
  });

  it('each record is its API URL, and a GET of it answers the record; the dataset is an IRI too', async () => {
    const { files } = await exported();
    const [graph] = await rdflibGraphs(files);
    const api = await server.json('/api/explore/v2.1/catalog/datasets/tricky/records?include_links=true');
    const links = (api.body.results as { _links: { href: string }[] }[]).map((r) => r._links[0]!.href);
    expect(links.map((l) => l.replace(/^.*\/records\//, ''))).to.include(encodeURIComponent(ODD_RECORD_ID));
    expect(graph!.subjects).to.deep.equal([...links].sort());
    expect(graph!.blankSubjects).to.equal(0);
    for (const [i, link] of links.entries()) {
      const record = await server.json(link.slice(server.base.length));
      expect(record.status, link).to.equal(200);
      // The record of the page, less the links it carries there.
      expect({ ...record.body, _links: null }, link).to.deep.equal({ ...api.body.results[i], _links: null });
      expect(graph!.ntriples, link).to.include(`<${link}> <${IS_PART_OF}> <${dataset()}> .`);
    }
    expect((await server.get(dataset().slice(server.base.length))).status).to.equal(200);
  });

  it('literals are typed: xsd integer, double, boolean, date and dateTime, GeoSPARQL WKT', async () => {
    const { files } = await exported();
    const [graph] = await rdflibGraphs(files);
    const field = (name: string) => `${dataset()}/fields#${name}`;
    expect(graph!.datatypes).to.deep.equal([
      `${field('area')} ${WKT}`,
      `${field('day')} ${XSD}date`,
      `${field('flag')} ${XSD}boolean`,
      `${field('geo_point_2d')} ${WKT}`,
      `${field('n')} ${XSD}integer`,
      `${field('seen_at')} ${XSD}dateTime`,
      `${field('x')} ${XSD}double`,
    ]);
    const first = graph!.ntriples.filter((t) => t.startsWith(`<${dataset()}/records/r1>`));
    const object = (name: string) =>
      first
        .find((t) => t.includes(`<${field(name)}>`))
        ?.split('> ')
        .slice(2)
        .join('> ');
    expect(object('n')).to.equal(`"1"^^<${XSD}integer> .`);
    expect(object('seen_at')).to.equal(`"2024-01-31T12:00:00+00:00"^^<${XSD}dateTime> .`);
    expect(object('geo_point_2d')).to.equal(`"POINT (2.35 48.85)"^^<${WKT}> .`);
    expect(object('area')).to.equal(`"POLYGON ((2 48,3 48,3 49,2 49,2 48))"^^<${WKT}> .`);
    expect(object('label')).to.equal('"He said \\"hi\\"; ok, fine" .');
  });

  it('Turtle and N3 declare a prefix for every namespace of their predicates and datatypes', async () => {
    const { files } = await exported();
    const graphs = await rdflibGraphs(files);
    for (const [index, { file }] of files.slice(0, 2).entries()) {
      const text = await readFile(file, 'utf8');
      const namespaces = [...text.matchAll(/^@prefix \w+: <([^>]*)> \.$/gm)].map((m) => m[1]!);
      const iris = graphs[index]!.datatypes.flatMap((d) => d.split(' '));
      for (const iri of [...iris, IS_PART_OF]) {
        expect(
          namespaces.some((ns) => iri.startsWith(ns)),
          iri,
        ).to.equal(true);
      }
      const body = text.slice(text.lastIndexOf('@prefix')).split('\n').slice(1).join('\n');
      expect(body).not.to.match(/<http:\/\/(www\.w3\.org|purl\.org|www\.opengis\.net)\//);
      expect(body).not.to.include('/fields#');
    }
  });

  it('grouped rows, which are not records, are blank nodes: still one graph in every syntax', async () => {
    const { files, rapper } = await exported({ select: 'flag, count(*) as n', group_by: 'flag' });
    const graphs = await rdflibGraphs([...files, ...rapper]);
    expect(graphs.map((g) => g.isomorphic)).to.deep.equal(graphs.map(() => true));
    expect(graphs[0]!.subjects).to.deep.equal([]);
    expect(graphs[0]!.blankSubjects).to.equal(3);
  });
});
