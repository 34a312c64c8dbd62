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

/** Shows the UI in `language`; `remember` also keeps it for the next visit. */
export function applyLanguage(language: Language, remember = true): void {
  if (remember) writeStorage(STORAGE_KEYS.language, language);
  if (i18n.language !== language) void i18n.changeLanguage(language);
  document.documentElement.lang = language;
}
