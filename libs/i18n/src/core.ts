/**
 * What the browser needs of the catalogues without the catalogues themselves: the languages and the
 * helpers. The catalogues are in src/languages/ (one chunk each in the browser), all four together
 * with `translate` in translate.ts (the server).
 */
/** One message catalogue per language (spec §1); Czech is the fallback for every missing key. */
export const LANGUAGES = ['cs', 'sk', 'en', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];
export const FALLBACK_LANGUAGE: Language = 'cs';

/**
 * Each language in its own name (the `lang.{l}` text of its own catalogue; the parity test holds them
 * equal), for a language choice that must read right before that language's catalogue is loaded.
 */
export const LANGUAGE_NAMES: Readonly<Record<Language, string>> = {
  cs: 'Čeština',
  sk: 'Slovenčina',
  en: 'English',
  de: 'Deutsch',
};

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/**
 * The caller's language from an HTTP `Accept-Language` header (`de-AT,de;q=0.9,en;q=0.8`): the
 * supported language of the highest weight (the first of equal weights), else Czech. Reads at most
 * 512 characters and 20 entries of the header, so its size costs nothing.
 */
export function acceptLanguage(header: string | readonly string[] | null | undefined): Language {
  const raw = Array.isArray(header) ? header.join(',') : String(header ?? '');
  let best: Language = FALLBACK_LANGUAGE;
  let bestQ = 0;
  for (const entry of raw.slice(0, 512).split(',', 20)) {
    const [tag = '', ...params] = entry.split(';');
    const lang = tag.trim().split('-')[0].toLowerCase();
    if (!isLanguage(lang)) continue;
    let q = 1;
    for (const param of params) {
      const m = /^\s*q\s*=\s*(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)\s*$/.exec(param);
      if (m) q = Number(m[1]);
    }
    if (q > bestQ) {
      best = lang;
      bestQ = q;
    }
  }
  return best;
}

/** Every key of a catalogue, dotted; used by the parity test and the rights editor. */
export function catalogueKeys(tree: object, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([k, v]) =>
    v && typeof v === 'object' ? catalogueKeys(v, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}
