// The rooms of the tree and the imports between them, as docs/architecture.md's layer table names
// them: each row a room, its layer and the paths it holds (a folder ends with a slash). Imports are
// read with TypeScript's own pre-processor, which sees type-only, re-exported and dynamic imports.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export const ARCHITECTURE = 'docs/architecture.md';

/** A row of the layer table. */
export interface Room {
  readonly layer: number;
  readonly name: string;
  /** Paths relative to the checkout; a folder ends with a slash. */
  readonly paths: readonly string[];
}

/** An import of one room's file from another room's file. */
export interface Crossing {
  readonly from: string;
  readonly to: string;
  readonly file: string;
  readonly target: string;
}

/** The rows `| <layer> | <room> | <paths> | ... |` of the layer table in `markdown`. */
export function layerTable(markdown: string): Room[] {
  const rows = markdown.split('\n').filter((line) => /^\|\s*\d+\s*\|/.test(line));
  return rows.map((row) => {
    const [layer, name, paths] = row
      .split('|')
      .slice(1, 4)
      .map((cell) => cell.trim());
    return {
      layer: Number(layer),
      name: name!.replaceAll('`', ''),
      paths: [...paths!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!),
    };
  });
}

/** Every TypeScript file under `folder`, as a path relative to the checkout. */
export function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file) && !file.split(path.sep).includes('generated'))
    .map((file) => path.join(folder, file).split(path.sep).join('/'))
    .sort();
}

/** The files `file` imports from the checkout (relative specifiers), as checkout paths ending in .ts. */
export function localImports(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .map((i) => i.fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => path.posix.normalize(path.posix.join(path.posix.dirname(file), name)))
    .map((target) => target.replace(/\.js$/, '.ts'));
}

/** The room holding `file` (the longest path that holds it), or undefined. */
export function roomOf(rooms: readonly Room[], file: string): Room | undefined {
  let best: { room: Room; length: number } | undefined;
  for (const room of rooms) {
    for (const held of room.paths) {
      const holds = held.endsWith('/') ? file.startsWith(held) : file === held;
      if (holds && held.length > (best?.length ?? -1)) best = { room, length: held.length };
    }
  }
  return best?.room;
}

/** Every import from a file of one room to a file of another, for the files of `folders`. */
export function crossings(rooms: readonly Room[], folders: readonly string[]): Crossing[] {
  const found: Crossing[] = [];
  for (const file of folders.flatMap(sourceFiles)) {
    const from = roomOf(rooms, file)?.name ?? '?';
    for (const target of localImports(file)) {
      const to = roomOf(rooms, target)?.name ?? '?';
      if (from !== to) found.push({ from, to, file, target });
    }
  }
  return found;
}

/** The crossings counted by pair of rooms: `from -> to` to its count. */
export function roomEdges(found: readonly Crossing[]): Map<string, number> {
  const edges = new Map<string, number>();
  for (const { from, to } of found) edges.set(`${from} -> ${to}`, (edges.get(`${from} -> ${to}`) ?? 0) + 1);
  return edges;
}
