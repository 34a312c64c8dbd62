import { type Catalogue, FALLBACK_LANGUAGE, isLanguage, type Language, LANGUAGES } from '@accredo/i18n';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { readStorage, STORAGE_KEYS, writeStorage } from '../api/storage';

/** The language remembered in this browser (spec §1: cs, sk, en, de; cs fallback). */
export function storedLanguage(): Language {
  const value = readStorage(STORAGE_KEYS.language);
  return isLanguage(value) ? value : FALLBACK_LANGUAGE;
}

export const i18n = i18next.createInstance();

/**
 * Starts with no catalogue: each language is its own chunk (issue 15, a light first load), loaded by
 * `loadLanguage` before it is shown; main.tsx waits for the first one before the first render.
 */
void i18n.use(initReactI18next).init({
  resources: {},
  partialBundledLanguages: true,
  lng: storedLanguage(),
  fallbackLng: FALLBACK_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

// The page's language is the UI's (issue 15): screen readers pronounce it, the browser hyphenates and
// translates by it; whichever way the language changes (switcher, profile, public pages).
i18n.on('languageChanged', (language) => {
  if (typeof document !== 'undefined' && isLanguage(language)) document.documentElement.lang = language;
});

/** The language the user chose before (the switcher remembers it), if any. */
export function rememberedLanguage(): Language | null {
  const value = readStorage(STORAGE_KEYS.language);
  return isLanguage(value) ? value : null;
}

/** The first of the browser's preferred languages (`de-AT` counts as `de`) that is offered, if any. */
export function browserLanguage(offered: readonly Language[]): Language | null {
  const preferred = typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]);
  for (const tag of preferred) {
    const lang = String(tag ?? '')
      .split('-')[0]
      .toLowerCase();
    if (isLanguage(lang) && offered.includes(lang)) return lang;
  }
  return null;
}

/** Each language's catalogue as a chunk of its own (literal paths, so the bundler splits them). */
const CATALOGUES: Record<Language, () => Promise<{ default: Catalogue }>> = {
  cs: () => import('@accredo/i18n/languages/cs'),
  sk: () => import('@accredo/i18n/languages/sk'),
  en: () => import('@accredo/i18n/languages/en'),
  de: () => import('@accredo/i18n/languages/de'),
};
const loading = new Map<Language, Promise<void>>();
/** The language last asked for: a slow load of an earlier choice does not switch over a later one. */
let wanted: Language | null = null;

/** Hands i18next a language's catalogue (the web tests hand it all four up front). */
export function addCatalogue(language: Language, catalogue: Catalogue): void {
  i18n.addResourceBundle(language, 'translation', catalogue, true, true);
}

export function hasCatalogue(language: Language): boolean {
  return i18n.hasResourceBundle(language, 'translation');
}

/** Loads a language's catalogue once (a failed load is tried again on the next call). */
export function loadLanguage(language: Language): Promise<void> {
  if (hasCatalogue(language)) return Promise.resolve();
  let pending = loading.get(language);
  if (!pending) {
    pending = CATALOGUES[language]().then((module) => addCatalogue(language, module.default));
    pending.catch(() => loading.delete(language));
    loading.set(language, pending);
  }
  return pending;
}

function showLanguage(language: Language): void {
  if (i18n.language !== language) void i18n.changeLanguage(language);
  document.documentElement.lang = language;
}

/**
 * Shows the UI in `language`; `remember` also keeps it for the next visit. A catalogue not loaded yet
 * is loaded first and the UI switches once it is there (the old language stays until then, never
 * bare keys); a loaded one switches at once. Resolves when the UI shows `language`.
 */
export function applyLanguage(language: Language, remember = true): Promise<void> {
  if (remember) writeStorage(STORAGE_KEYS.language, language);
  wanted = language;
  if (hasCatalogue(language)) {
    showLanguage(language);
    return Promise.resolve();
  }
  return loadLanguage(language).then(
    () => {
      if (wanted === language) showLanguage(language);
    },
    () => undefined,
  );
}

/**
 * Before the first render: the catalogue of the language shown first, then (not waited for) Czech,
 * the fallback for any key a catalogue lacks, when the UI language is another.
 */
export async function loadFirstLanguage(): Promise<void> {
  const language = isLanguage(i18n.language) ? i18n.language : FALLBACK_LANGUAGE;
  await loadLanguage(language).catch(() => undefined);
  document.documentElement.lang = language;
}

export function loadFallbackLanguage(): void {
  void loadLanguage(FALLBACK_LANGUAGE).catch(() => undefined);
}
