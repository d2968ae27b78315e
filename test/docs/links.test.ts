// Every relative link of the README, docs/*.md and bench/README.md names a file of the
// repository, and every #anchor a heading of the page it points to, so that moving or renaming a
// file or a heading cannot leave a reader at a dead end.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { DOCUMENTS } from '../helpers/documents.js';

/** The text of a Markdown document without its fenced blocks and code spans (no links in them). */
function prose(markdown: string): string {
  return markdown.replace(/^```[^\n]*\n[\s\S]*?^```[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** The targets of the document's inline links and images, `[text](target)`. */
function linkTargets(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
}

/** The anchors GitHub gives a document's headings: lower case, punctuation dropped, spaces as dashes. */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, title] of prose(markdown).matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const slug = title!
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** Why a link of `document` to `target` leads nowhere, or undefined when it resolves. */
function brokenLink(document: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined;
  const [file = '', anchor] = target.split('#');
  const resolved =
    file === '' ? document : path.normalize(path.join(path.dirname(document), decodeURI(file)));
  if (!existsSync(resolved)) return `${resolved} does not exist`;
  if (anchor === undefined || !resolved.endsWith('.md')) return undefined;
  const anchors = headingAnchors(readFileSync(resolved, 'utf8'));
  return anchors.has(anchor) ? undefined : `${resolved} has no heading #${anchor}`;
}

describe('the links of the README and docs', () => {
  it('reads a page per topic', () => {
    expect(DOCUMENTS).to.include.members([
      'README.md',
      'docs/odsql.md',
      'docs/exports.md',
      'bench/README.md',
    ]);
  });

  it('finds GitHub anchors and skips code', () => {
    const page =
      '# CDN / reverse proxy\n## v1, v2.0 and more\n## Notes\n## Notes\n```\n[x](gone.md)\n```\n`[y](gone.md)` [z](a.md#b)';
    expect([...headingAnchors(page)]).to.deep.equal([
      'cdn--reverse-proxy',
      'v1-v20-and-more',
      'notes',
      'notes-1',
    ]);
    expect(linkTargets(page)).to.deep.equal(['a.md#b']);
  });

  it('resolves every relative link to a file, and every #anchor to a heading', () => {
    const broken = DOCUMENTS.flatMap((document) =>
      linkTargets(readFileSync(document, 'utf8')).flatMap((target) => {
        const why = brokenLink(document, target);
        return why === undefined ? [] : [`${document}: (${target}): ${why}`];
      }),
    );
    expect(broken).to.deep.equal([]);
  });

  it('links every page of docs/ from the README', () => {
    const linked = new Set(
      linkTargets(readFileSync('README.md', 'utf8')).map((target) => target.split('#')[0]),
    );
    expect(DOCUMENTS.filter((d) => d.startsWith('docs/') && !linked.has(d))).to.deep.equal([]);
  });
});
