import type {
  AuthorizationType,
  OnlineChannelData,
  OnlineChannelInfo,
  OnlineLoginInput,
  OnlineRegistrationInput,
  OnlineRegistrationResult,
  OnlineToken,
} from '@accredo/domain';
import { type ApiConfig, type Method, type RequestOptions, request } from './client';
import { readStorage, STORAGE_KEYS, writeStorage } from './storage';

/** The online token of one channel, kept in browser storage (spec §4 Tokens, §9). */
const tokenKey = (channelKey: string) => `${STORAGE_KEYS.onlineToken}.${channelKey}`;
export const getOnlineToken = (channelKey: string) => readStorage(tokenKey(channelKey));
export const setOnlineToken = (channelKey: string, token: string | null) => writeStorage(tokenKey(channelKey), token);

/** Calls of one channel: its token in the `authorization-online` header; a 401 removes the token. */
function onlineConfig(channelKey: string): ApiConfig {
  return {
    base: '/api/online/v1',
    header: 'authorization-online',
    getToken: () => getOnlineToken(channelKey),
    onUnauthorized: () => setOnlineToken(channelKey, null),
  };
}

const call = <T>(channelKey: string, method: Method, path: string, body?: unknown, options?: RequestOptions) =>
  request<T>(onlineConfig(channelKey), method, path, body, options);
const key = (channelKey: string) => encodeURIComponent(channelKey);

/** The public registration calls of spec §7 Online (`api/online/v1`). */
export const onlineApi = {
  /** GET web-channel/{key}: the channel before the form (authorization, languages, texts) */
  info: (channelKey: string) =>
    call<OnlineChannelInfo>(channelKey, 'GET', `web-channel/${key(channelKey)}`, undefined, { auth: false }),
  /** GET web-channel/data/{key}: what the form needs (with the token when the channel has authorization) */
  data: (channelKey: string) => call<OnlineChannelData>(channelKey, 'GET', `web-channel/data/${key(channelKey)}`),
  login: (body: OnlineLoginInput) =>
    call<OnlineToken>(body.channelKey, 'POST', 'web-channel/login', body, { auth: false }),
  authorize: (channelKey: string) =>
    call<{ authorizationType: AuthorizationType }>(channelKey, 'POST', `web-channel/authorize/${key(channelKey)}`),
  logout: (channelKey: string) => call<boolean>(channelKey, 'POST', `web-channel/logout/${key(channelKey)}`),
  register: (channelKey: string, body: OnlineRegistrationInput) =>
    call<OnlineRegistrationResult>(channelKey, 'POST', `accreditation/${key(channelKey)}`, body),
};
