// The HTML of the account page, rendered on the server so that it works without JavaScript:
// the sign-in form, and once signed in the "API keys" tab (list with labels and last uses, create
// with a label, revoke). Every form posts its session's CSRF token (src/auth/sessions.ts).
import { escapeHtml } from './layout.js';
import { MAX_KEY_LABEL, type KeyEntry } from '../auth/keys.js';
import type { PortalUser } from '../auth/users.js';

/** Where the account page's forms post to. */
export const ACCOUNT_PATHS = {
  page: '/account/',
  signIn: '/account/sign-in',
  signOut: '/account/sign-out',
  createKey: '/account/keys',
  revokeKey: (id: string) => `/account/keys/${encodeURIComponent(id)}/revoke`,
  datasets: '/account/datasets/',
} as const;

/** A form posting `fields` (already HTML) and the session's CSRF token to `action`. */
export function form(action: string, csrf: string, fields: string, button: string): string {
  return (
    `<form method="post" action="${escapeHtml(action)}">` +
    `<input type="hidden" name="_csrf" value="${escapeHtml(csrf)}">${fields}` +
    `<button type="submit">${escapeHtml(button)}</button></form>`
  );
}

/** A message the page leads with (an error), or nothing. */
export function alert(message: string | null): string {
  return message === null ? '' : `<p role="alert" class="error">${escapeHtml(message)}</p>`;
}

/** The sign-in form; `next` is the page to go back to once signed in. */
export function signInMain(csrf: string, next: string | null, message: string | null): string {
  const fields =
    (next === null ? '' : `<input type="hidden" name="next" value="${escapeHtml(next)}">`) +
    '<p><label for="username">User name</label> ' +
    '<input id="username" name="username" autocomplete="username" required maxlength="100"></p>' +
    '<p><label for="password">Password</label> ' +
    '<input id="password" name="password" type="password" autocomplete="current-password" required></p>';
  return `<h1>Sign in</h1>${alert(message)}${form(ACCOUNT_PATHS.signIn, csrf, fields, 'Sign in')}`;
}

/** What the keys tab shows besides the list: a key just created (its only showing), or an error. */
export interface KeysNotice {
  readonly newKey?: string;
  readonly message?: string;
  /** The label typed in the form refused, given back to be corrected. */
  readonly label?: string;
}

/** The label field of the create form (optional: a key without one is listed as such). */
function labelField(value: string): string {
  return (
    '<p><label for="label">Label <span class="muted">(optional: what the key is for)</span></label> ' +
    `<input id="label" name="label" maxlength="${MAX_KEY_LABEL}" autocomplete="off" value="${escapeHtml(value)}"></p>`
  );
}

/** An ISO time as `2026-11-25 16:59 UTC`, short enough for a narrow screen, exact in its datetime. */
function time(iso: string): string {
  const short = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d)/.exec(iso);
  const text = short ? `${short[1]} ${short[2]} UTC` : iso;
  return `<time datetime="${escapeHtml(iso)}">${escapeHtml(text)}</time>`;
}

const KEY_COLUMNS = ['Label', 'Key id', 'Created', 'Last used', 'Status'];

function keyRow(key: KeyEntry, lastUsed: string | undefined, csrf: string): string {
  const label = key.label === null ? '<span class="muted">no label</span>' : escapeHtml(key.label);
  const cells = [
    label,
    `<code>${escapeHtml(key.id)}</code>`,
    time(key.created),
    lastUsed ? time(lastUsed) : 'never',
  ];
  const action = key.revoked
    ? `revoked ${time(key.revoked)}`
    : form(ACCOUNT_PATHS.revokeKey(key.id), csrf, '', 'Revoke');
  // Each cell names its column: a narrow screen shows the names beside the values (site.css).
  const named = [...cells, action].map((cell, i) => `<td data-label="${KEY_COLUMNS[i]!}">${cell}</td>`);
  return `<tr>${named.join('')}</tr>`;
}

/** The account page's tabs: "Datasets" only for those who publish (src/web/publish-routes.ts). */
export type AccountTab = 'keys' | 'datasets';

/** The top of every signed-in page: who is signed in, sign-out, the tabs with `current` marked. */
export function accountTop(
  user: PortalUser,
  csrf: string,
  current: AccountTab,
  datasetsTab: boolean,
): string {
  const groups = user.groups.length > 0 ? ` (groups: ${user.groups.join(', ')})` : '';
  const tabs: [AccountTab, string, string][] = [['keys', ACCOUNT_PATHS.page, 'API keys']];
  if (datasetsTab) tabs.push(['datasets', ACCOUNT_PATHS.datasets, 'Datasets']);
  const links = tabs
    .map(
      ([tab, href, label]) =>
        `<li><a href="${href}"${tab === current ? ' aria-current="page"' : ''}>${label}</a></li>`,
    )
    .join('');
  return (
    `<h1>Account</h1><p>Signed in as <strong>${escapeHtml(user.name)}</strong>${escapeHtml(groups)}.</p>` +
    form(ACCOUNT_PATHS.signOut, csrf, '', 'Sign out') +
    `<nav class="tabs" aria-label="Account"><ul>${links}</ul></nav>`
  );
}

/** The signed-in page: who is signed in, sign-out, and the "API keys" tab. */
export function keysMain(
  user: PortalUser,
  keys: readonly KeyEntry[],
  lastUses: ReadonlyMap<string, string>,
  csrf: string,
  notice: KeysNotice = {},
  datasetsTab = false,
): string {
  const created =
    notice.newKey === undefined
      ? ''
      : '<p>Your new API key, shown only this once: copy it now.</p>' +
        `<p><output id="new-key" class="new-key" aria-live="polite">${escapeHtml(notice.newKey)}</output></p>`;
  const rows = keys.map((key) => keyRow(key, lastUses.get(key.id), csrf)).join('');
  const table =
    keys.length === 0
      ? '<p>You have no API keys yet.</p>'
      : // Focusable, so that a keyboard can scroll it on a narrow screen.
        '<div class="scroll" tabindex="0" role="region" aria-label="Your API keys"><table class="keys"><thead><tr>' +
        KEY_COLUMNS.map((h) => `<th scope="col">${h}</th>`).join('') +
        `</tr></thead><tbody>${rows}</tbody></table></div>`;
  return (
    accountTop(user, csrf, 'keys', datasetsTab) +
    `<section aria-labelledby="keys-heading"><h2 id="keys-heading">API keys</h2>${alert(notice.message ?? null)}` +
    `${created}${form(ACCOUNT_PATHS.createKey, csrf, labelField(notice.label ?? ''), 'Create API key')}${table}` +
    '<p>Send a key as <code>Authorization: Apikey &lt;key&gt;</code> or <code>?apikey=&lt;key&gt;</code>.</p></section>'
  );
}
