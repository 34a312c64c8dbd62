import { FALLBACK_LANGUAGE, isLanguage, type Language } from './core.js';
import cs from './languages/cs.js';
import de from './languages/de.js';
import en from './languages/en.js';
import sk from './languages/sk.js';
import type { Tree } from './merge.js';

/**
 * Every language's catalogue, for the server (mails, error messages). The catalogues themselves are
 * built in src/languages/{lang}.ts (a new area catalogue goes there, into all four); the browser
 * loads only the one it shows (`@accredo/i18n/languages/{lang}`).
 */
export type Catalogue = typeof cs;
export const resources: Record<Language, Catalogue> = { cs, sk, en, de };

function lookup(tree: Tree, key: string): string | undefined {
  let node: string | Tree | undefined = tree;
  for (const part of key.split('.')) {
    if (!node || typeof node !== 'object') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
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
