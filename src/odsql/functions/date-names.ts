// Month and weekday names of every output language, generated once from Node's ICU data (Intl.DateTimeFormat).

/** Every output language of language-dependent functions (`date_format` names), said once. */
const LANG_SET = {
  en: true,
  fr: true,
  nl: true,
  pt: true,
  it: true,
  ar: true,
  de: true,
  es: true,
  ca: true,
  eu: true,
  sv: true,
} as const;

/** Output languages of language-dependent functions (`date_format` names). */
export type Lang = keyof typeof LANG_SET;

/** Every output language. */
export const LANGS = Object.keys(LANG_SET) as readonly Lang[];

/** Names of one language: months January first, weekdays Monday first (ISO order). */
export interface DateNames {
  months: readonly string[];
  weekdays: readonly string[];
  weekdaysShort: readonly string[];
}

/** Mid-month days of 2021 and the week of Monday 2021-01-04: any dates of the right month or weekday do. */
const MONTH_DATES = Array.from({ length: 12 }, (_, m) => new Date(Date.UTC(2021, m, 15)));
const WEEK_DATES = Array.from({ length: 7 }, (_, d) => new Date(Date.UTC(2021, 0, 4 + d)));

function namesOf(lang: Lang, dates: readonly Date[], options: Intl.DateTimeFormatOptions): string[] {
  const format = new Intl.DateTimeFormat(lang, { ...options, timeZone: 'UTC' });
  return dates.map((date) => format.format(date));
}

/** The language Node's ICU resolves for `lang`: another one means the names are not in its data. */
export function resolvedLocale(lang: Lang): string {
  return new Intl.DateTimeFormat(lang).resolvedOptions().locale;
}

/** Names by language; standalone forms (`{ month: 'long' }` alone), as a month name reads without a day. */
export const DATE_NAMES = Object.fromEntries(
  LANGS.map((lang): [Lang, DateNames] => [
    lang,
    {
      months: namesOf(lang, MONTH_DATES, { month: 'long' }),
      weekdays: namesOf(lang, WEEK_DATES, { weekday: 'long' }),
      weekdaysShort: namesOf(lang, WEEK_DATES, { weekday: 'short' }),
    },
  ]),
) as Record<Lang, DateNames>;
