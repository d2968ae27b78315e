// The project's Markdown documents, in reading order: the README (the front door), each page of
// docs/ by name, then the bench's README. The docs tests read these.
import { readdirSync } from 'node:fs';

/** Paths relative to the repository's root, README.md first. */
export const DOCUMENTS: readonly string[] = [
  'README.md',
  ...readdirSync('docs')
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
  'bench/README.md',
];
