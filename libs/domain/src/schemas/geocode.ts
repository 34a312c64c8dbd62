import { z } from 'zod';
import { REQUIRED } from './common.js';

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

export const geocodeQuerySchema = z.object({
  q: z
    .string({ error: REQUIRED })
    .trim()
    .min(GEOCODE_MIN_QUERY, { error: 'address.queryTooShort' })
    .max(200, { error: 'basics.tooLong' }),
});

/** The stored `gps` text of an address value ("lat,lng"), from a suggestion's position. */
export function gpsText(gps: GeocodeSuggestion['gps']): string {
  return gps ? `${gps.lat},${gps.lng}` : '';
}
