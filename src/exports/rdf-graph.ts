// A small RDF graph (triples built in JS) and its RDF/XML and Turtle forms, for documents as
// small as the catalog's; dataset records are formatted in SQL instead (rdf-formats.ts).

/** An IRI, a blank node or a literal (with an optional datatype IRI). */
export type Term =
  | { readonly iri: string }
  | { readonly blank: string }
  | { readonly literal: string; readonly datatype?: string };

export type Triple = readonly [subject: Term, predicate: string, object: Term];

/** Prefixes used by the documents this module writes. */
export const PREFIXES: Record<string, string> = {
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  dcat: 'http://www.w3.org/ns/dcat#',
  dct: 'http://purl.org/dc/terms/',
  foaf: 'http://xmlns.com/foaf/0.1/',
  geo: 'http://www.opengis.net/ont/geosparql#',
  xsd: 'http://www.w3.org/2001/XMLSchema#',
};

const xml = (text: string): string =>
  text
    .replace(/[\x00-\x08\x0B\x0C\x0E-\x1F]/g, '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');

/** The prefixed name of an IRI in one of PREFIXES. */
function qname(iri: string): string {
  for (const [prefix, namespace] of Object.entries(PREFIXES)) {
    if (iri.startsWith(namespace)) return `${prefix}:${iri.slice(namespace.length)}`;
  }
  throw new Error(`no prefix for ${iri}`);
}

const subjectKey = (term: Term): string =>
  'iri' in term ? `<${term.iri}>` : 'blank' in term ? `_:${term.blank}` : '';

/** Triples grouped by subject, in first-seen order. */
function bySubject(triples: readonly Triple[]): Map<string, Triple[]> {
  const groups = new Map<string, Triple[]>();
  for (const triple of triples) {
    const key = subjectKey(triple[0]);
    groups.set(key, [...(groups.get(key) ?? []), triple]);
  }
  return groups;
}

/** RDF/XML: one rdf:Description per subject. */
export function toRdfXml(triples: readonly Triple[]): string {
  const namespaces = Object.entries(PREFIXES)
    .map(([prefix, iri]) => `xmlns:${prefix}="${iri}"`)
    .join(' ');
  const descriptions = [...bySubject(triples).values()].map((group) => {
    const subject = group[0]![0];
    const about =
      'iri' in subject
        ? `rdf:about="${xml(subject.iri)}"`
        : `rdf:nodeID="${'blank' in subject ? subject.blank : ''}"`;
    const properties = group.map(([, predicate, object]) => {
      const name = qname(predicate);
      if ('iri' in object) return `  <${name} rdf:resource="${xml(object.iri)}"/>`;
      if ('blank' in object) return `  <${name} rdf:nodeID="${object.blank}"/>`;
      const datatype = object.datatype ? ` rdf:datatype="${xml(object.datatype)}"` : '';
      return `  <${name}${datatype}>${xml(object.literal)}</${name}>`;
    });
    return `<rdf:Description ${about}>\n${properties.join('\n')}\n</rdf:Description>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<rdf:RDF ${namespaces}>\n${descriptions.join('\n')}\n</rdf:RDF>\n`;
}

const turtleString = (text: string): string =>
  `"${text.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n').replaceAll('\r', '\\r').replaceAll('\t', '\\t')}"`;

const iriRef = (iri: string): string =>
  `<${iri.replace(/[\x00-\x20<>"{}|^`\\]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0').toUpperCase()}`)}>`;

/** A term in Turtle. */
function turtleTerm(term: Term): string {
  if ('iri' in term) return iriRef(term.iri);
  if ('blank' in term) return `_:${term.blank}`;
  return turtleString(term.literal) + (term.datatype ? `^^${iriRef(term.datatype)}` : '');
}

/** Turtle: prefixes, then one statement block per subject. */
export function toTurtle(triples: readonly Triple[]): string {
  const prefixes = Object.entries(PREFIXES)
    .map(([prefix, iri]) => `@prefix ${prefix}: <${iri}> .`)
    .join('\n');
  const blocks = [...bySubject(triples).values()].map((group) => {
    const predicates = group.map(([, predicate, object]) => `  ${qname(predicate)} ${turtleTerm(object)}`);
    return `${turtleTerm(group[0]![0])}\n${predicates.join(' ;\n')} .`;
  });
  return `${prefixes}\n\n${blocks.join('\n\n')}\n`;
}
