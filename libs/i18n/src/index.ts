import cs from './locales/cs.json' with { type: 'json' };
import de from './locales/de.json' with { type: 'json' };
import en from './locales/en.json' with { type: 'json' };
import sk from './locales/sk.json' with { type: 'json' };

/** One message catalogue per language (spec §1); Czech is the fallback for every missing key. */
export const LANGUAGES = ['cs', 'sk', 'en', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];
export const FALLBACK_LANGUAGE: Language = 'cs';

export type Catalogue = typeof cs;
export const resources: Record<Language, Catalogue> = { cs, sk, en, de };

type Tree = { [k: string]: string | Tree };

function lookup(tree: Tree, key: string): string | undefined {
  let node: string | Tree | undefined = tree;
  for (const part of key.split('.')) {
    if (!node || typeof node !== 'object') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/**
 * Server-side translation (mails, error messages) with the same `{{name}}` interpolation as
 * i18next in the browser. Falls back to Czech, then to the key itself.
 */
export function translate(
  language: string | null | undefined,
  key: string,
  params: Record<string, unknown> = {},
): string {
  const lang = isLanguage(language) ? language : FALLBACK_LANGUAGE;
  const text = lookup(resources[lang] as Tree, key) ?? lookup(resources[FALLBACK_LANGUAGE] as Tree, key) ?? key;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(params[name] ?? ''));
}

/** Every key of a catalogue, dotted; used by the parity test and the rights editor. */
export function catalogueKeys(tree: object, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([k, v]) =>
    v && typeof v === 'object' ? catalogueKeys(v, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}
