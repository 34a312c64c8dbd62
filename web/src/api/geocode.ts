import type { GeocodeSuggestion } from '@accredo/domain';
import { adminConfig } from './admin';
import { type ApiConfig, request } from './client';

/**
 * Where an address input gets its suggestions (spec §5 Address, §9): the admin app and the public
 * registration form ask different routes of the same server-side proxy.
 */
export interface Geocoder {
  /** a stable name for query caching */
  key: string;
  /** whether suggestions are on (GEOCODING_URL is set on the server) */
  status: () => Promise<{ enabled: boolean }>;
  search: (query: string, signal?: AbortSignal) => Promise<GeocodeSuggestion[]>;
}

const q = (query: string) => `?q=${encodeURIComponent(query)}`;

/** GET api/admin/v1/geocode/status and GET api/admin/v1/geocode?q= (rights to register or edit accreditations). */
export const adminGeocoder: Geocoder = {
  key: 'admin',
  status: () => request<{ enabled: boolean }>(adminConfig, 'GET', 'geocode/status'),
  search: (query, signal) =>
    request<GeocodeSuggestion[]>(adminConfig, 'GET', `geocode${q(query)}`, undefined, { signal }),
};

const onlineConfig: ApiConfig = {
  base: '/api/online/v1',
  header: 'authorization-online',
  getToken: () => null,
  onUnauthorized: () => {},
};

/** GET api/online/v1/geocode/status and GET api/online/v1/geocode/{channelKey}?q= (an open channel only). */
export function onlineGeocoder(channelKey: string): Geocoder {
  return {
    key: `online:${channelKey}`,
    status: () => request<{ enabled: boolean }>(onlineConfig, 'GET', 'geocode/status', undefined, { auth: false }),
    search: (query, signal) =>
      request<GeocodeSuggestion[]>(
        onlineConfig,
        'GET',
        `geocode/${encodeURIComponent(channelKey)}${q(query)}`,
        undefined,
        { auth: false, signal },
      ),
  };
}
