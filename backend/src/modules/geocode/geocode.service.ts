import type { GeocodeSuggestion } from '@accredo/domain';
import { Inject, Injectable } from '@nestjs/common';
import { AppError } from '../../common/app-error.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';

const MAX_RESULTS = 5;

type NominatimAddress = Partial<
  Record<
    | 'house_number'
    | 'road'
    | 'pedestrian'
    | 'square'
    | 'footway'
    | 'path'
    | 'place'
    | 'neighbourhood'
    | 'city'
    | 'town'
    | 'village'
    | 'municipality'
    | 'hamlet'
    | 'suburb'
    | 'postcode',
    unknown
  >
>;

interface NominatimPlace {
  display_name?: unknown;
  lat?: unknown;
  lon?: unknown;
  address?: NominatimAddress;
}

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');
const first = (...values: unknown[]) => values.map(text).find(Boolean) ?? '';

/**
 * One place of a Nominatim answer (`format=jsonv2&addressdetails=1`) as the address value of
 * spec §3 (street, city, zip, gps). A place without a street name but with a house number (a
 * village numbered without streets, common in Czechia) gets "village number" as its street.
 */
export function toSuggestion(place: NominatimPlace): GeocodeSuggestion | null {
  if (!place || typeof place !== 'object') return null;
  const a = place.address ?? {};
  const city = first(a.city, a.town, a.village, a.municipality, a.hamlet, a.suburb);
  const streetName = first(a.road, a.pedestrian, a.square, a.footway, a.path, a.place, a.neighbourhood);
  const houseNumber = text(a.house_number);
  const street = [streetName || (houseNumber ? city : ''), houseNumber].filter(Boolean).join(' ');
  const zip = text(a.postcode);
  const lat = Number(place.lat);
  const lng = Number(place.lon);
  const label = text(place.display_name) || [street, city, zip].filter(Boolean).join(', ');
  if (!label) return null;
  return {
    label,
    street,
    city,
    zip,
    gps: Number.isFinite(lat) && Number.isFinite(lng) && place.lat !== undefined ? { lat, lng } : null,
  };
}

/**
 * Address suggestions (spec §5 Address) from the configured Nominatim-compatible search endpoint
 * (GEOCODING_URL), with a timeout; nothing configured means manual entry only.
 */
@Injectable()
export class GeocodeService {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  get enabled(): boolean {
    return this.config.geocodingUrl !== null;
  }

  async search(query: string, language: string): Promise<GeocodeSuggestion[]> {
    if (!this.config.geocodingUrl) throw new AppError('GEOCODING_DISABLED');
    const url = new URL(this.config.geocodingUrl);
    url.searchParams.set('q', query);
    url.searchParams.set('format', 'jsonv2');
    url.searchParams.set('addressdetails', '1');
    url.searchParams.set('limit', String(MAX_RESULTS));
    url.searchParams.set('accept-language', language);
    let body: unknown;
    try {
      const res = await fetch(url, {
        signal: AbortSignal.timeout(this.config.geocodingTimeoutMs),
        headers: { accept: 'application/json', 'user-agent': `Accredo (${this.config.publicUrl})` },
      });
      if (!res.ok) throw new AppError('GEOCODING_FAILED', { status: res.status });
      body = await res.json();
    } catch (error) {
      if (error instanceof AppError) throw error;
      const name = (error as { name?: string })?.name;
      if (name === 'TimeoutError' || name === 'AbortError') throw new AppError('GEOCODING_TIMEOUT');
      throw new AppError('GEOCODING_FAILED');
    }
    if (!Array.isArray(body)) throw new AppError('GEOCODING_FAILED');
    return body
      .slice(0, MAX_RESULTS * 2)
      .map((p) => toSuggestion(p as NominatimPlace))
      .filter((s): s is GeocodeSuggestion => s !== null)
      .slice(0, MAX_RESULTS);
  }
}
