// A real browser for the page tests: Debian's chromium (`make test-deps` installs it) driven by
// puppeteer-core, headless, with a fresh profile, no background traffic, and a record of every
// URL each page requested, so a test can check that nothing left the server's origin.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { startSampleServer } from './sample-portal.js';
import type { TestServer } from './server.js';

export const CHROMIUM = '/usr/bin/chromium';

export interface TestBrowser {
  readonly browser: Browser;
  /** Every URL requested by the pages opened so far (documents, scripts, fetches, images). */
  readonly requests: string[];
  /** A new tab at `url`, 1280x800 unless told, once the network is idle. */
  open(url: string, viewport?: { width: number; height: number }): Promise<Page>;
  /** The requested URLs that are not on `origin` (data: and blob: URLs are the page's own). */
  foreign(origin: string): string[];
  close(): Promise<void>;
}

/** Launches chromium with a throw-away user-data-dir; `close()` ends it and removes the folder. */
export async function launchBrowser(): Promise<TestBrowser> {
  const profile = await mkdtemp(path.join(os.tmpdir(), 'duckportal-chromium-'));
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    userDataDir: profile,
    args: [
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--use-angle=swiftshader',
      '--enable-unsafe-swiftshader',
    ],
  });
  const requests: string[] = [];
  return {
    browser,
    requests,
    async open(url, viewport = { width: 1280, height: 800 }) {
      const page = await browser.newPage();
      page.on('request', (request) => requests.push(request.url()));
      await page.setViewport(viewport);
      await page.goto(url, { waitUntil: 'networkidle0' });
      return page;
    },
    foreign(origin) {
      return requests.filter((url) => !/^(data|blob):/.test(url) && new URL(url).origin !== origin);
    },
    async close() {
      await browser.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** A server and a browser (the sample portal's unless told), opened before a suite and closed after. */
export interface BrowserSuite {
  readonly server: TestServer;
  readonly browser: TestBrowser;
}

/**
 * Registers the suite's hooks; the returned object is filled before the first test. After each
 * test, a request that left the server's origin fails it.
 */
export function useBrowserSuite(start: () => Promise<TestServer> = startSampleServer): BrowserSuite {
  const suite = {} as { server: TestServer; browser: TestBrowser };
  before(async () => {
    suite.server = await start();
    suite.browser = await launchBrowser();
  });
  afterEach(() => {
    const foreign = suite.browser.foreign(suite.server.base);
    if (foreign.length) throw new Error(`the pages requested other origins: ${foreign.join(', ')}`);
  });
  after(async () => {
    await suite.browser?.close();
    await suite.server?.close();
  });
  return suite;
}

/** How long one click is given to take effect before it is made again. */
const CLICK_TAKES_MS = 5_000;

/**
 * Clicks what `selector` finds until `done` (a function run in the page, given `arg`) holds. A
 * list the page draws again after an answer arrives (facets, the pager) can replace the element
 * between the moment it is found and the click, which then lands on a detached node and does
 * nothing; the next attempt finds the new one. `done` must hold at once after a click that took
 * (the pages change their URL in the click's handler), so a click is never made twice.
 */
export async function clickUntil(
  page: Page,
  selector: string,
  done: (arg: string) => boolean,
  arg: string,
  attempts = 4,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await (await page.waitForSelector(selector))!.click();
    try {
      await page.waitForFunction(done, { timeout: CLICK_TAKES_MS }, arg);
      return;
    } catch (error) {
      if (attempt === attempts) throw error;
    }
  }
}

/** Clicks the submit button labelled `label` and waits for the page it leads to. */
export async function submit(page: Page, label: string): Promise<void> {
  const [button] = await page.$$(`xpath/.//button[normalize-space()="${label}"]`);
  if (!button) throw new Error(`no button ${label}`);
  await Promise.all([page.waitForNavigation(), button.click()]);
}

/** Fills and sends the account page's sign-in form. */
export async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.type('input[name="username"]', username);
  await page.type('input[name="password"]', password);
  await submit(page, 'Sign in');
}
