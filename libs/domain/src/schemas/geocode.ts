import { z } from 'zod';
import { GEOCODE_MIN_QUERY } from '../constants.js';
import { REQUIRED } from './common.js';

// GEOCODE_DEBOUNCE_MS, GEOCODE_MIN_QUERY, GeocodeSuggestion and gpsText are in constants.ts.

export const geocodeQuerySchema = z.object({
  q: z
    .string({ error: REQUIRED })
    .trim()
    .min(GEOCODE_MIN_QUERY, { error: 'address.queryTooShort' })
    .max(200, { error: 'basics.tooLong' }),
});
