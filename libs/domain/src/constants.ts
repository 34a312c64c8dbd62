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
/** Image types (spec §3): 1 accreditation, 2 template, 3 other (default). */
export const IMAGE_TYPES = [1, 2, 3] as const;
export const PASSWORD_MIN_LENGTH = 8;
export const DEFAULT_TIME_ZONE = 'Europe/Prague';

/** A basic address pattern (spec §5 E-mail field): something@something.tld, no spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** The longest licence plate of a parking place. */
export const LICENCE_PLATE_MAX = 20;

// Values the web app's public pages use, kept in this module without zod so that those pages do not
// load it (issue 15, a light first load): constants.ts imports nothing.

/**
 * Address suggestions (spec §5 Address, §9: debounced 500 ms) from a Nominatim-compatible service
 * (GEOCODING_URL); an address picked from them has street, city, zip and its position.
 */
export const GEOCODE_DEBOUNCE_MS = 500;
export const GEOCODE_MIN_QUERY = 3;

export interface GeocodeSuggestion {
  label: string;
  street: string;
  city: string;
  zip: string;
  gps: { lat: number; lng: number } | null;
}

/** The stored `gps` text of an address value ("lat,lng"), from a suggestion's position. */
export function gpsText(gps: GeocodeSuggestion['gps']): string {
  return gps ? `${gps.lat},${gps.lng}` : '';
}

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
