// A portal of many datasets made of copies of one small dataset, for the catalog's test and bench:
// each copy a folder of its own with a dataset.json of its own (distinct id, uid, title, keywords,
// theme and publisher, so that search and facets have something to tell apart) and the sample's
// data files hard-linked (copied where a link cannot be made), so 100,000 copies take the disk of
// 100,000 dataset.json files.
import { copyFile, link, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

const THEMES = ['Environment', 'Transport', 'Economy', 'Health', 'Education', 'Culture', 'Energy'];
const CONCURRENT_COPIES = 64;
/** Copies linked to one file: ext4 allows 65,000 links to a file; each block links to its first copy. */
const LINKS_PER_FILE = 50_000;

/** The id of the `index`th copy: `copy-000042`. */
export const copyId = (index: number): string => `copy-${String(index).padStart(6, '0')}`;

/** The dataset.json of the `index`th copy, from the sample's (parsed). */
export function copyDatasetFile(sample: Record<string, unknown>, index: number): string {
  const metas = sample.metas as { default: Record<string, unknown> };
  const keywords = (metas.default.keyword as string[] | undefined) ?? [];
  const file = {
    ...sample,
    dataset_uid: `da_copy${index.toString(36)}`,
    metas: {
      ...metas,
      default: {
        ...metas.default,
        title: `${String(metas.default.title)} (copy ${index})`,
        keyword: [...keywords, `group${index % 100}`, `c${index}`],
        theme: [THEMES[index % THEMES.length]!],
        publisher: `Publisher ${index % 20}`,
      },
    },
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}

/** Links `from` to `to`, or copies it when no link can be made (another file system). */
async function linkOrCopy(from: string, to: string): Promise<void> {
  await link(from, to).catch(() => copyFile(from, to));
}

/**
 * Writes copies `from` to `to - 1` of the dataset folder `sampleDir` into `<portalDir>/datasets`
 * (with a portal.json when there is none), skipping the copies already there.
 */
export async function writeCopies(portalDir: string, sampleDir: string, to: number, from = 0): Promise<void> {
  const root = path.join(portalDir, 'datasets');
  await mkdir(root, { recursive: true });
  const portalJson = path.join(portalDir, 'portal.json');
  await writeFile(portalJson, JSON.stringify({ title: `${to} copies` }), { flag: 'wx' }).catch(
    () => undefined,
  );
  const sample = JSON.parse(await readFile(path.join(sampleDir, 'dataset.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  const dataFiles = (await readdir(sampleDir)).filter((name) => name.endsWith('.parquet'));
  const present = new Set(await readdir(root));
  // The data files of a block's copies are links to its first copy's (the first block: the sample's).
  const sourceOf = (index: number): string => {
    const first = index - (index % LINKS_PER_FILE);
    return first === 0 || first === index ? sampleDir : path.join(root, copyId(first));
  };
  const copyOne = async (index: number): Promise<void> => {
    const id = copyId(index);
    if (present.has(id)) return;
    const dir = path.join(root, id);
    await mkdir(dir);
    const source = sourceOf(index);
    for (const name of dataFiles) {
      const [from, to] = [path.join(source, name), path.join(dir, name)];
      await (source === sampleDir && index >= LINKS_PER_FILE ? copyFile(from, to) : linkOrCopy(from, to));
    }
    await writeFile(path.join(dir, 'dataset.json'), copyDatasetFile(sample, index));
  };
  for (let start = from; start < to; start += CONCURRENT_COPIES) {
    const batch = [];
    const end = Math.min(to, start + CONCURRENT_COPIES);
    // A block's first copy is written before the copies that link to it.
    for (let index = start; index < end; index++) if (index % LINKS_PER_FILE === 0) await copyOne(index);
    for (let index = start; index < end; index++)
      if (index % LINKS_PER_FILE !== 0) batch.push(copyOne(index));
    await Promise.all(batch);
  }
}
