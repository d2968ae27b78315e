// The publish form's fields -> a draft's settings, each bounded and checked (a 400 naming the
// field otherwise). Audiences: the form edits the readers who see the whole dataset (the
// audiences without row filter or hidden fields, shown as one list of users and one of groups);
// audiences with a row filter or hidden fields are kept as they are, in their order, since the
// first audience naming a caller is the one that applies.
import type { Audience } from '../catalog/schema.js';
import type { Draft, DraftSettings } from './publish-drafts.js';
import { PublishError } from './publish-errors.js';

const MAX_TITLE = 300;
const MAX_DESCRIPTION = 20_000;
const MAX_WORD = 100;
const MAX_WORDS = 50;
/** User and group names: the same as src/auth/users.ts's, and `*` (everyone). */
const NAME = /^(?:\*|[\w.@-]{1,100})$/;

/** Whether an audience reads the whole dataset (the readers the form edits). */
export const unfiltered = (audience: Audience): boolean =>
  audience.row_filter === null && audience.hidden_fields.length === 0;

/** The users and groups of the audiences that read the whole dataset, as the form shows them. */
export function wholeReaders(access: readonly Audience[]): { users: string[]; groups: string[] } {
  const whole = access.filter(unfiltered);
  return {
    users: [...new Set(whole.flatMap((a) => a.users))],
    groups: [...new Set(whole.flatMap((a) => a.groups))],
  };
}

/** `previous` with its whole-dataset audiences replaced by one of `users` and `groups`, in place of the first. */
export function editedAccess(previous: readonly Audience[], users: string[], groups: string[]): Audience[] {
  const entry: Audience[] =
    users.length + groups.length > 0 ? [{ users, groups, hidden_fields: [], row_filter: null }] : [];
  const first = previous.findIndex(unfiltered);
  const kept = previous.filter((a) => !unfiltered(a));
  if (first < 0) return [...kept, ...entry];
  const before = previous.slice(0, first).filter((a) => !unfiltered(a)).length;
  return [...kept.slice(0, before), ...entry, ...kept.slice(before)];
}

function oneLine(label: string, value: string, max: number): string {
  const text = value.trim();
  if (text.length > max) throw new PublishError(400, `${label}: at most ${max} characters.`);
  if (/[\u0000-\u001f\u007f]/.test(text)) throw new PublishError(400, `${label}: one line of text.`);
  return text;
}

/** A comma-separated list of words, trimmed, without empty or repeated ones. */
function words(label: string, value: string): string[] {
  const list = [...new Set(value.split(',').map((w) => oneLine(label, w, MAX_WORD)))].filter((w) => w !== '');
  if (list.length > MAX_WORDS) throw new PublishError(400, `${label}: at most ${MAX_WORDS}.`);
  return list;
}

function names(label: string, value: string): string[] {
  const list = words(label, value);
  const bad = list.find((name) => !NAME.test(name));
  if (bad !== undefined) throw new PublishError(400, `${label}: "${bad}" is not a user or group name.`);
  return list;
}

/** The posted form's value of `name` as one string ('' when absent or repeated). */
const one = (form: Readonly<Record<string, unknown>>, name: string): string => {
  const value = form[name];
  return typeof value === 'string' ? value : '';
};

/** The settings the publish form gives for `draft`. */
export function postedSettings(form: Readonly<Record<string, unknown>>, draft: Draft): DraftSettings {
  const title = oneLine('Title', one(form, 'title'), MAX_TITLE);
  if (title === '') throw new PublishError(400, 'Title: a dataset needs one.');
  const description = one(form, 'description').trim();
  if (description.length > MAX_DESCRIPTION)
    throw new PublishError(400, `Description: at most ${MAX_DESCRIPTION} characters.`);
  const visibility = one(form, 'visibility');
  if (visibility !== 'public' && visibility !== 'restricted')
    throw new PublishError(400, 'Visibility: public or restricted.');
  const given = form.facet;
  const facets = (Array.isArray(given) ? given : given === undefined ? [] : [given]).map(String);
  const fieldNames = new Set(draft.fields.map((f) => f.name));
  const unknown = facets.find((f) => !fieldNames.has(f));
  if (unknown !== undefined) throw new PublishError(400, `Facets: the dataset has no field "${unknown}".`);
  const access = editedAccess(
    draft.settings.access,
    names('Users', one(form, 'users')),
    names('Groups', one(form, 'groups')),
  );
  return {
    title,
    description,
    keyword: words('Keywords', one(form, 'keyword')),
    theme: words('Themes', one(form, 'theme')),
    license: oneLine('License', one(form, 'license'), MAX_WORD),
    visibility,
    access,
    facets: [...new Set(facets)],
  };
}
