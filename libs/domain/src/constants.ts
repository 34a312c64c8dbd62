/** Business constants of spec §9. */
export const LANGUAGES = ['cs', 'sk', 'en', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];
export const FALLBACK_LANGUAGE: Language = 'cs';

export const PAGE_SIZES = [10, 20, 30, 40, 50] as const;
export const DEFAULT_PAGE_SIZE = 10;

/** Action extensions: 1 meal (refreshments on the manage side), 2 parking. */
export const EXTENSION_TYPES = [1, 2] as const;
export type ExtensionType = (typeof EXTENSION_TYPES)[number];
export const EXTENSION_MEAL = 1;
export const EXTENSION_PARKING = 2;

export const PHOTO_MAX_BYTES = 2_097_152;
export const PASSWORD_MIN_LENGTH = 8;
export const DEFAULT_TIME_ZONE = 'Europe/Prague';

/**
 * The language a user sees: one of the four when multi-language applies, otherwise Czech (spec §1).
 */
export function effectiveLanguage(requested: string | null | undefined, multiLanguage: boolean): Language {
  if (!multiLanguage) return FALLBACK_LANGUAGE;
  return (LANGUAGES as readonly string[]).includes(requested ?? '') ? (requested as Language) : FALLBACK_LANGUAGE;
}

/** The languages a subject offers (spec §1): all four with multi-language, otherwise Czech alone. */
export function subjectLanguages(multiLanguage: boolean): Language[] {
  return multiLanguage ? [...LANGUAGES] : [FALLBACK_LANGUAGE];
}
