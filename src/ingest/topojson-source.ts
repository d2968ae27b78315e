// TopoJSON: a topology's objects turned into GeoJSON features (arcs stitched back into rings by
// topojson-client), written as a FeatureCollection that the GeoJSON reader takes like any other.
import { createWriteStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { once } from 'node:events';
import path from 'node:path';
import type { Feature } from 'geojson';
import { feature } from 'topojson-client';
import type { Topology } from 'topojson-specification';
import { firstJsonError } from './json-errors.js';

/** The largest topology read (it is parsed whole, in memory; world-atlas's 10m countries are 3.6 MB). */
export const TOPOJSON_MAX_BYTES = 256 * 1024 * 1024;

/** The property naming each record's object, added when the topology holds more than one. */
export const TOPOJSON_OBJECT_PROPERTY = 'topojson_object';

/** The topology of `file`, or an Error naming `displayName` and what is wrong. */
async function readTopology(file: string, displayName: string): Promise<Topology> {
  const { size } = await stat(file);
  if (size > TOPOJSON_MAX_BYTES) {
    throw new Error(`${displayName}: a TopoJSON file of ${size} bytes, over the ${TOPOJSON_MAX_BYTES} read`);
  }
  const text = (await readFile(file, 'utf8')).replace(/^\uFEFF/, '');
  const error = firstJsonError(text);
  if (error) {
    throw new Error(
      `${displayName}: line ${error.line}, column ${error.column}: invalid JSON (${error.problem})`,
    );
  }
  const document = JSON.parse(text) as Partial<Topology> | null;
  if (document?.type !== 'Topology' || typeof document.objects !== 'object' || document.objects === null) {
    throw new Error(`${displayName}: not a TopoJSON Topology (no "type": "Topology" with "objects")`);
  }
  if (!Array.isArray(document.arcs)) throw new Error(`${displayName}: a TopoJSON Topology without "arcs"`);
  return document as Topology;
}

/** Every geometry of one object as a feature: a collection's members one by one, any other object alone. */
function objectFeatures(topology: Topology, name: string): Feature[] {
  const converted = feature(topology, name) as Feature | { features: Feature[] };
  return 'features' in converted ? converted.features : [converted];
}

/**
 * Writes the features of every object of the topology `file` as `<workDir>/topology.geojson` and
 * returns its path; with several objects each feature's properties name its object.
 */
export async function topojsonToGeoJson(file: string, workDir: string, displayName: string): Promise<string> {
  const topology = await readTopology(file, displayName);
  const objects = Object.keys(topology.objects);
  if (objects.length === 0) throw new Error(`${displayName}: the TopoJSON Topology has no objects`);
  const target = path.join(workDir, 'topology.geojson');
  const out = createWriteStream(target);
  out.write('{"type":"FeatureCollection","features":[');
  let first = true;
  for (const name of objects) {
    for (const one of objectFeatures(topology, name)) {
      const properties =
        objects.length > 1 ? { ...one.properties, [TOPOJSON_OBJECT_PROPERTY]: name } : one.properties;
      const line = JSON.stringify({ ...one, properties });
      if (!out.write(`${first ? '' : ','}\n${line}`)) await once(out, 'drain');
      first = false;
    }
  }
  out.end(']}\n');
  await once(out, 'finish');
  return target;
}
