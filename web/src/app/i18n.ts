import { FALLBACK_LANGUAGE, isLanguage, type Language, LANGUAGES, resources } from '@accredo/i18n';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { readStorage, STORAGE_KEYS, writeStorage } from '../api/storage';

/** The language remembered in this browser (spec §1: cs, sk, en, de; cs fallback). */
export function storedLanguage(): Language {
  const value = readStorage(STORAGE_KEYS.language);
  return isLanguage(value) ? value : FALLBACK_LANGUAGE;
}

export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  resources: Object.fromEntries(LANGUAGES.map((lang) => [lang, { translation: resources[lang] }])),
  lng: storedLanguage(),
  fallbackLng: FALLBACK_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
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

/** Shows the UI in `language`; `remember` also keeps it for the next visit. */
export function applyLanguage(language: Language, remember = true): void {
  if (remember) writeStorage(STORAGE_KEYS.language, language);
  if (i18n.language !== language) void i18n.changeLanguage(language);
  document.documentElement.lang = language;
}
