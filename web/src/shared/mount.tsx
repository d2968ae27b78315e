// Renders a page's component into the shell's #app element (src/web/layout.ts).
import { render, type ComponentChild } from 'preact';

/** Mounts `content` in #app; every entry's top level calls this once. */
export function mount(content: ComponentChild): void {
  const app = document.getElementById('app');
  if (app) render(content, app);
}
