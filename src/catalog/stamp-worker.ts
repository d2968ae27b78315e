// A worker thread keeping the stamps of its share of a portal's dataset folders (folder-stamps.ts):
// each message (the ids to forget) is answered with what changed since the last, as one string.
import { parentPort, workerData } from 'node:worker_threads';
import { ShareMemory } from './folder-stamps.js';

const { root, part, parts } = workerData as { root: string; part: number; parts: number };
const memory = new ShareMemory(root, part, parts);
parentPort!.on('message', (forget: string[]) => {
  void memory.changes(forget).then((text) => parentPort!.postMessage(text));
});
