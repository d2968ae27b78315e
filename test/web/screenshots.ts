// `make screenshots`: the pictures of the README and docs/web-pages.md (docs/screenshots/*.png),
// taken in the test browser on the sample portal, every page at 1280 and 390 px wide. Not a test:
// run it when the pages change, and look at the pictures.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { launchBrowser } from '../helpers/browser.js';
import { startSampleServer } from '../helpers/sample-portal.js';

/** A page and what shows it is drawn; each is taken 1280 px wide (`<name>.png`) and 390 (`<name>-390.png`). */
const PAGES: readonly { name: string; path: string; height: number; ready: string }[] = [
  { name: 'home', path: '/', height: 860, ready: '.card' },
  { name: 'information', path: '/explore/dataset/airports/information/', height: 860, ready: 'table.schema' },
  {
    name: 'table',
    path: '/explore/dataset/airports/table/?refine.state=CA&sort=-latitude',
    height: 860,
    ready: 'table.records tbody tr',
  },
  {
    name: 'map',
    path: '/explore/dataset/earthquakes/map/?refine.magtype=ml',
    height: 860,
    ready: '.map-panel[aria-busy=false] path.map-shape',
  },
  {
    name: 'analyze',
    path: '/explore/dataset/flights/analyze/?split=origin',
    height: 1100,
    ready: '.chart-panel[aria-busy=false] .chart svg path[aria-roledescription=bar]',
  },
  {
    name: 'export',
    path: '/explore/dataset/airports/export/?refine.state=CA',
    height: 860,
    ready: 'main a[href*="parquet"]',
  },
  { name: 'api', path: '/explore/dataset/airports/api/?refine.state=CA', height: 860, ready: 'main code' },
  { name: 'console', path: '/api/explore/v2.1/console', height: 860, ready: '.opblock' },
  { name: 'account', path: '/account/', height: 860, ready: 'main form' },
];

const SHOTS = PAGES.flatMap((page) => [
  { ...page, file: `${page.name}.png`, width: 1280 },
  { ...page, file: `${page.name}-390.png`, width: 390, height: Math.round(page.height * 1.4) },
]);

const out = path.resolve('docs/screenshots');
await mkdir(out, { recursive: true });
const server = await startSampleServer();
const browser = await launchBrowser();
try {
  for (const shot of SHOTS) {
    const page = await browser.open(`${server.base}${shot.path}`, { width: shot.width, height: shot.height });
    await page.waitForSelector(shot.ready);
    await page.screenshot({ path: path.join(out, shot.file) });
    process.stdout.write(`docs/screenshots/${shot.file}\n`);
    await page.close();
  }
  const foreign = browser.foreign(server.base);
  if (foreign.length) throw new Error(`requests left the origin: ${foreign.join(', ')}`);
} finally {
  await browser.close();
  await server.close();
}
