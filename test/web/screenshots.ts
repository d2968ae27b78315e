// `make screenshots`: the pictures of the README and docs/web-pages.md (docs/screenshots/*.png),
// taken in the test browser on the sample portal. Not a test: run it when the pages change, look at the pictures.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { launchBrowser } from '../helpers/browser.js';
import { startSampleServer } from '../helpers/sample-portal.js';

const SHOTS: readonly { file: string; path: string; width: number; height: number; ready: string }[] = [
  { file: 'home.png', path: '/', width: 1280, height: 860, ready: '.card' },
  {
    file: 'table.png',
    path: '/explore/dataset/airports/table/?refine.state=CA&sort=-latitude',
    width: 1280,
    height: 860,
    ready: 'table.records tbody tr',
  },
  {
    file: 'map.png',
    path: '/explore/dataset/earthquakes/map/?refine.magtype=ml',
    width: 1280,
    height: 860,
    ready: '.map-panel[aria-busy=false] path.map-shape',
  },
  {
    file: 'analyze.png',
    path: '/explore/dataset/flights/analyze/?split=origin',
    width: 1280,
    height: 1100,
    ready: '.chart-panel[aria-busy=false] .chart svg path[aria-roledescription=bar]',
  },
  {
    file: 'analyze-390.png',
    path: '/explore/dataset/flights/analyze/?y=count&y=avg:delay&chart=line',
    width: 390,
    height: 1500,
    ready: '.chart-panel[aria-busy=false] .chart svg path[aria-roledescription=point]',
  },
  {
    file: 'table-375.png',
    path: '/explore/dataset/airports/table/?refine.state=CA',
    width: 375,
    height: 760,
    ready: 'table.records tbody tr',
  },
];

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
