// Reads geom'...' literals: WKT (lon lat order) or a GeoJSON geometry object, into a checked Geometry.
import { QueryLangError } from '../errors.js';
import type { Geometry, GeometryType, Position } from './geo-geometry.js';

/** A parsed coordinate tree: a position, or a list of trees. */
type Tree = Position | readonly Tree[];

const WKT_TYPES = {
  POINT: 'Point',
  MULTIPOINT: 'MultiPoint',
  LINESTRING: 'LineString',
  MULTILINESTRING: 'MultiLineString',
  POLYGON: 'Polygon',
  MULTIPOLYGON: 'MultiPolygon',
} as const satisfies Record<string, GeometryType>;

/** How deep each type nests positions in its coordinates (0 = a position). */
const DEPTH = {
  Point: 0,
  MultiPoint: 1,
  LineString: 1,
  MultiLineString: 2,
  Polygon: 2,
  MultiPolygon: 3,
} as const satisfies Record<GeometryType, number>;

/** Parses a geometry literal's text; any defect is a QueryLangError quoting the literal. */
export function parseGeometryLiteral(text: string): Geometry {
  const trimmed = text.trim();
  const fail = (why: string): never => {
    throw new QueryLangError(`Invalid geometry literal ${JSON.stringify(text)}: ${why}`);
  };
  const { type, tree } = trimmed.startsWith('{') ? readGeoJson(trimmed, fail) : readWkt(trimmed, fail);
  return checkGeometry(type, tree, fail);
}

type Fail = (why: string) => never;

function readGeoJson(text: string, fail: Fail): { type: GeometryType; tree: Tree } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return fail('not valid JSON');
  }
  const object = (value ?? {}) as { type?: unknown; coordinates?: unknown };
  const type = Object.values(WKT_TYPES).find((name) => name === object.type);
  if (!type) return fail(`unsupported GeoJSON type ${JSON.stringify(object.type)}`);
  return { type, tree: jsonTree(object.coordinates, fail) };
}

function jsonTree(value: unknown, fail: Fail): Tree {
  if (!Array.isArray(value)) return fail('coordinates must be arrays');
  if (value.length > 0 && value.every((v) => typeof v === 'number')) {
    // GeoJSON may add an altitude: it plays no part in planar lon/lat predicates, so it is dropped.
    return position(value.length === 3 ? value.slice(0, 2) : value, fail);
  }
  return value.map((v) => jsonTree(v, fail));
}

function position(numbers: readonly number[], fail: Fail): Position {
  if (numbers.length !== 2 || !numbers.every(Number.isFinite)) {
    return fail('a position is two numbers, longitude then latitude');
  }
  const [lon, lat] = numbers as [number, number];
  if (lon < -180 || lon > 180 || lat < -90 || lat > 90) {
    return fail(`position (${lon} ${lat}) is outside longitude -180..180, latitude -90..90`);
  }
  return [lon, lat];
}

const WKT_TOKEN = /\s*(?:([A-Za-z]+)|([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)|([(),]))/y;

function readWkt(text: string, fail: Fail): { type: GeometryType; tree: Tree } {
  const tokens: string[] = [];
  WKT_TOKEN.lastIndex = 0;
  while (WKT_TOKEN.lastIndex < text.length) {
    const at = WKT_TOKEN.lastIndex;
    const match = WKT_TOKEN.exec(text);
    if (!match) return fail(`unexpected ${JSON.stringify(text.slice(at, at + 10))}`);
    tokens.push(match[0].trim());
  }
  const name = (tokens.shift() ?? '').toUpperCase();
  const type = WKT_TYPES[name as keyof typeof WKT_TYPES] as GeometryType | undefined;
  if (!type) return fail(`expected one of ${Object.keys(WKT_TYPES).join(', ')}`);
  const reader = { tokens, at: 0, fail };
  const tree = wktList(reader);
  if (reader.at !== tokens.length)
    return fail(`unexpected ${JSON.stringify(tokens[reader.at])} after the geometry`);
  // WKT writes a Point's position in parentheses and MultiPoint members with or without them.
  if (type === 'Point') return { type, tree: tree.length === 1 ? (tree as Tree[])[0]! : tree };
  return { type, tree };
}

interface WktReader {
  readonly tokens: readonly string[];
  at: number;
  readonly fail: Fail;
}

/** `( item, item, ... )` where an item is a nested list or a position of space-separated numbers. */
function wktList(reader: WktReader): readonly Tree[] {
  const expect = (token: string) => {
    if (reader.tokens[reader.at] !== token) {
      reader.fail(`expected ${token} but found ${JSON.stringify(reader.tokens[reader.at] ?? 'the end')}`);
    }
    reader.at++;
  };
  expect('(');
  const items: Tree[] = [];
  do {
    if (items.length > 0) expect(',');
    items.push(reader.tokens[reader.at] === '(' ? wktList(reader) : wktPosition(reader));
  } while (reader.tokens[reader.at] === ',');
  expect(')');
  return items;
}

function wktPosition(reader: WktReader): Position {
  const numbers: number[] = [];
  while (/^[-+.\d]/.test(reader.tokens[reader.at] ?? '')) numbers.push(Number(reader.tokens[reader.at++]));
  return position(numbers, reader.fail);
}

const isPosition = (tree: Tree): tree is Position => typeof tree[0] === 'number';

/** Checks nesting and sizes, closes open polygon rings, and builds the typed geometry. */
function checkGeometry(type: GeometryType, tree: Tree, fail: Fail): Geometry {
  // A MultiPoint may list bare positions or one-position lists: normalize to positions.
  const normalized =
    type === 'MultiPoint' && !isPosition(tree)
      ? tree.map((t) => (!isPosition(t) && t.length === 1 && isPosition(t[0]!) ? t[0] : t))
      : tree;
  const shaped = shapeAt(normalized, DEPTH[type], type, fail);
  return { type, coordinates: shaped } as Geometry;
}

function shapeAt(tree: Tree, depth: number, type: GeometryType, fail: Fail): Tree {
  if (depth === 0) return isPosition(tree) ? tree : fail(`${type} coordinates are nested too deeply`);
  if (isPosition(tree)) return fail(`${type} coordinates are not nested deeply enough`);
  const children = tree.map((child) => shapeAt(child, depth - 1, type, fail));
  const isRing = (type === 'Polygon' && depth === 1) || (type === 'MultiPolygon' && depth === 1);
  if (isRing) return closeRing(children as Position[], fail);
  if (depth === 1 && (type === 'LineString' || type === 'MultiLineString') && children.length < 2) {
    return fail('a line needs at least two positions');
  }
  if (children.length === 0) return fail(`${type} has an empty list of coordinates`);
  return children;
}

function closeRing(ring: readonly Position[], fail: Fail): readonly Position[] {
  const first = ring[0];
  const last = ring[ring.length - 1];
  const closed = first && last && (first[0] !== last[0] || first[1] !== last[1]) ? [...ring, first] : ring;
  return closed.length >= 4 ? closed : fail('a polygon ring needs at least three distinct positions');
}
