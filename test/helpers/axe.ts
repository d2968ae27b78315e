// axe-core (from npm) run inside a page the browser tests opened: its script is injected as text,
// so the check requests nothing, and every violation fails with its rule, impact and elements.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'puppeteer-core';

interface Violation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly nodes: readonly { readonly target: readonly unknown[] }[];
}

let source: Promise<string> | null = null;

/** axe-core's browser build, read once per process. */
function axeSource(): Promise<string> {
  source ??= readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  return source;
}

/** The page's axe-core violations (WCAG 2.x A and AA and best practices), as readable lines. */
export async function axeViolations(page: Page): Promise<string[]> {
  const loaded = await page.evaluate(() => 'axe' in window);
  if (!loaded) await page.addScriptTag({ content: await axeSource() });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document): Promise<unknown> } }).axe;
    const result = (await axe.run(document)) as { violations: unknown };
    return result.violations;
  });
  return (violations as Violation[]).map(
    (v) =>
      `${v.id} (${v.impact ?? 'no impact'}): ${v.help}; ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
}
