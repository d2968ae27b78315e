// The HTML shell of every web page. The server renders only this shell (header, navigation, a
// heading); the page's script, bundled by esbuild, fills <main> from the API like any client.
//
// Adding a page or a dataset tab (the same two steps for every helper):
//   1. the client: a file under web/src/ whose top level calls `mount(...)` (web/src/shared/mount.tsx),
//      named as an entry in ENTRIES of web/build.mjs (`map: 'src/tabs/map.tsx'`);
//   2. the server: a route in src/web/pages.ts (or a line in DATASET_TABS, src/web/tabs.ts, for a
//      dataset tab) that answers `renderPage({ ..., entry: 'map' })`.
// The client reads what it needs from the <body>'s data-* attributes (`pageData()` in
// web/src/shared/page.ts): data-api (the v2.1 API base), data-dataset, data-tab.
import { entryFiles, webManifest } from './manifest.js';
import { ASSETS_PREFIX, FAVICON_PATH } from './assets.js';

/** Escapes text for HTML content and double-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The base of the API the pages call, relative to the page's own origin. */
export const PAGE_API_BASE = '/api/explore/v2.1';

/** Which part of the site a page belongs to, for the header's aria-current. */
export type Section = 'catalog' | 'console' | 'account' | null;

export interface PageShell {
  /** The portal's language (portal.json), for <html lang>. */
  readonly lang: string;
  readonly portalTitle: string;
  /** The page's own title; the document title is "<title> · <portal title>". */
  readonly title: string;
  readonly section: Section;
  /** The manifest entry whose script fills the page, or null for a page without script. */
  readonly entry: string | null;
  /** data-* attributes of <body> (names without the data- prefix). */
  readonly data?: Readonly<Record<string, string>>;
  /** The content of <main>, already HTML (escape every value with escapeHtml). */
  readonly main: string;
}

const NAV: readonly { section: Exclude<Section, null>; href: string; label: string }[] = [
  { section: 'catalog', href: '/explore/', label: 'Catalog' },
  { section: 'console', href: `${PAGE_API_BASE}/console`, label: 'API console' },
  { section: 'account', href: '/account/', label: 'Account' },
];

function header(shell: PageShell): string {
  const links = NAV.map(
    (item) =>
      `<li><a href="${item.href}"${item.section === shell.section ? ' aria-current="page"' : ''}>${item.label}</a></li>`,
  ).join('');
  return (
    `<header class="site"><a class="portal" href="/">${escapeHtml(shell.portalTitle)}</a>` +
    `<nav aria-label="Site"><ul>${links}</ul></nav></header>`
  );
}

function headAssets(entry: string | null): string {
  const site =
    `<link rel="icon" href="${FAVICON_PATH}" sizes="32x32">\n` +
    `<link rel="stylesheet" href="${ASSETS_PREFIX}${webManifest().stylesheet}">`;
  if (entry === null) return site;
  const files = entryFiles(entry);
  return [
    site,
    ...files.styles.map((file) => `<link rel="stylesheet" href="${ASSETS_PREFIX}${file}">`),
    ...files.imports.map((file) => `<link rel="modulepreload" href="${ASSETS_PREFIX}${file}">`),
    `<script type="module" src="${ASSETS_PREFIX}${files.script}"></script>`,
  ].join('\n');
}

/** The whole HTML document of a page. */
export function renderPage(shell: PageShell): string {
  const data = Object.entries({ api: PAGE_API_BASE, ...shell.data })
    .map(([name, value]) => ` data-${name}="${escapeHtml(value)}"`)
    .join('');
  return `<!doctype html>
<html lang="${escapeHtml(shell.lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(`${shell.title} · ${shell.portalTitle}`)}</title>
${headAssets(shell.entry)}
</head>
<body${data}>
${header(shell)}
<main id="main">
${shell.main}
</main>
</body>
</html>
`;
}
