import { randomUUID } from 'node:crypto';
import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import type { SubjectSummary } from '@accredo/domain';
import type { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import type { AdminUserEntity } from '../admin-user/admin-user.entity.js';
import type { OperatorEntity } from '../manage/operator.entity.js';
import type { SessionTokenEntity, TokenKind } from './session-token.entity.js';

/**
 * At most this many resolved sessions are kept of the office's and operators' sessions, and as many
 * again of online visitors' tokens (least recently used go first in each): a rush of visitors on the
 * public form does not push the staff's sessions out.
 */
export const SESSION_CACHE_MAX = 10_000;
/** A safety net only: every change that matters invalidates at once; an entry is re-read after this anyway. */
export const SESSION_CACHE_TTL_MS = 30_000;

export type CachedSession =
  | { kind: 'admin'; token: SessionTokenEntity; principal: AdminUserEntity }
  | { kind: 'manage'; token: SessionTokenEntity; principal: OperatorEntity }
  /** an online visitor's token: its principal (channel, channel user, code) is read by the caller */
  | { kind: OnlineKind; token: SessionTokenEntity; principal: null };

/** The token kinds of the online registration's visitors. */
export type OnlineKind = Extract<TokenKind, `online-${string}`>;
export const isOnlineKind = (kind: TokenKind): kind is OnlineKind => kind.startsWith('online-');

type Entry = CachedSession & { until: number };

/** What one instance tells the others (Redis channel `<REDIS_PREFIX>:session-invalidate`). */
type Message = { o: string } & ({ t: number } | { k: TokenKind; p: number } | { s: number });

/**
 * The resolved sessions of signed-in calls (token hash → token row and principal), so a request does
 * not read its token and its user again; and the tokens of online visitors (every registration with
 * a password, a login or a code carries one). Bounded in size (LRU) and age (SESSION_CACHE_TTL_MS), and
 * invalidated at once by everything that ends a session or changes its principal: logout and revoke
 * (tokenChanged), a password change, deactivation, rights or any update of the admin user or operator,
 * the subject switcher (principalChanged). It also keeps the subject summaries those answers carry
 * (subjectChanged on every update of a subject). With REDIS_URL each invalidation is also published on a
 * Redis channel and every instance drops the same entries; the message reaches the other instances
 * before the answer of the change leaves this one. If Redis is away, the other instances fall back to
 * the TTL (and drop everything when their subscription comes back, since messages may have been lost).
 */
@Injectable()
export class SessionCache implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('SessionCache');
  /** The staff's sessions (admin, manage) by token hash. */
  private readonly entries = new Map<string, Entry>();
  /** Online visitors' tokens by token hash (a map of its own: see SESSION_CACHE_MAX). */
  private readonly visitors = new Map<string, Entry>();
  /** The subject summaries that session answers carry (GET authorization), by subject id. */
  private readonly subjects = new Map<number, { summary: SubjectSummary; until: number }>();
  /** Bumped by every invalidation: a read that began before one does not store what it read. */
  private generation = 0;
  private readonly origin = randomUUID();
  private publisher?: Redis;
  private subscriber?: Redis;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  get size(): number {
    return this.entries.size + this.visitors.size;
  }

  /** The generation to hand back to `put` after reading the database. */
  get version(): number {
    return this.generation;
  }

  get(tokenHash: string): CachedSession | undefined {
    let map = this.entries;
    let entry = map.get(tokenHash);
    if (!entry) {
      map = this.visitors;
      entry = map.get(tokenHash);
      if (!entry) return undefined;
    }
    if (entry.until <= Date.now()) {
      map.delete(tokenHash);
      return undefined;
    }
    // most recently used last: Map keeps insertion order
    map.delete(tokenHash);
    map.set(tokenHash, entry);
    return entry;
  }

  /** Stores a session read from the database, unless something was invalidated since the read began. */
  put(tokenHash: string, session: CachedSession, version: number): void {
    if (version !== this.generation) return;
    const map = isOnlineKind(session.kind) ? this.visitors : this.entries;
    map.delete(tokenHash);
    while (map.size >= SESSION_CACHE_MAX) {
      const oldest = map.keys().next().value as string;
      map.delete(oldest);
    }
    map.set(tokenHash, { ...session, until: Date.now() + SESSION_CACHE_TTL_MS });
  }

  /** The cached summary of a subject (name, key, languages, extensions, time zone). */
  subject(subjectId: number): SubjectSummary | undefined {
    const entry = this.subjects.get(subjectId);
    if (entry && entry.until > Date.now()) return entry.summary;
    this.subjects.delete(subjectId);
    return undefined;
  }

  putSubject(summary: SubjectSummary, version: number): void {
    if (version !== this.generation) return;
    if (this.subjects.size >= SESSION_CACHE_MAX) this.subjects.clear();
    this.subjects.set(summary.id, { summary, until: Date.now() + SESSION_CACHE_TTL_MS });
  }

  /** A subject's row changed: its summary is read again, here and on every instance. */
  async subjectChanged(subjectId: number): Promise<void> {
    this.dropSubject(subjectId);
    await this.publish({ o: this.origin, s: subjectId });
  }

  /** A token was revoked or changed (logout, subject switch): drop it here and on every instance. */
  async tokenChanged(tokenId: number): Promise<void> {
    this.dropToken(tokenId);
    await this.publish({ o: this.origin, t: tokenId });
  }

  /** A principal changed (rights, password, active, any field) or lost its sessions: drop all of its sessions. */
  async principalChanged(kind: TokenKind, principalId: number): Promise<void> {
    this.dropPrincipal(kind, principalId);
    await this.publish({ o: this.origin, k: kind, p: principalId });
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
    this.visitors.clear();
    this.subjects.clear();
  }

  private dropSubject(subjectId: number): void {
    this.generation++;
    this.subjects.delete(subjectId);
  }

  private dropToken(tokenId: number): void {
    this.generation++;
    for (const map of [this.entries, this.visitors])
      for (const [hash, entry] of map) if (entry.token.id === tokenId) map.delete(hash);
  }

  private dropPrincipal(kind: TokenKind, principalId: number): void {
    this.generation++;
    const map = isOnlineKind(kind) ? this.visitors : this.entries;
    for (const [hash, entry] of map)
      if (entry.kind === kind && entry.token.principalId === principalId) map.delete(hash);
  }

  // ---- across instances ----

  private get channel(): string {
    return `${this.config.redisPrefix}:session-invalidate`;
  }

  async onApplicationBootstrap(): Promise<void> {
    const url = this.config.redisUrl;
    if (!url) return;
    // fails at once while disconnected (no offline queue): the change is on record, the TTL covers the rest
    const options = { lazyConnect: true, connectTimeout: 5000 };
    // ioredis is loaded only with REDIS_URL
    const { Redis } = await import('ioredis');
    this.publisher = new Redis(url, { ...options, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    this.subscriber = new Redis(url, { ...options, maxRetriesPerRequest: null });
    this.publisher.on('error', (err) => this.logger.warn(`Redis (session publisher): ${err.message}`));
    this.subscriber.on('error', (err) => this.logger.warn(`Redis (session subscriber): ${err.message}`));
    const subscriber = this.subscriber;
    let subscribed = false;
    const subscribe = async () => {
      await subscriber.subscribe(this.channel);
      subscribed = true;
    };
    let connected = false;
    subscriber.on('ready', () => {
      if (!connected) {
        connected = true;
        return;
      }
      // back after a disconnection: messages may have been missed, so start empty (ioredis
      // subscribes again by itself once it was subscribed; a first subscribe that failed is retried)
      this.clear();
      if (!subscribed) subscribe().catch((err) => this.logger.warn(`Redis (session subscriber): ${err.message}`));
    });
    subscriber.on('message', (channel: string, text: string) => {
      if (channel === this.channel) this.receive(text);
    });
    try {
      await Promise.all([this.publisher.connect(), subscriber.connect()]);
      await subscribe();
    } catch (err) {
      this.logger.warn(
        `Redis unreachable: sessions are invalidated on this instance now, on the others within 30 s (${(err as Error).message})`,
      );
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.publisher?.disconnect();
    this.subscriber?.disconnect();
  }

  private receive(text: string): void {
    let message: Message;
    try {
      message = JSON.parse(text) as Message;
    } catch {
      return;
    }
    if (message.o === this.origin) return;
    if ('t' in message && typeof message.t === 'number') this.dropToken(message.t);
    else if ('k' in message && typeof message.p === 'number') this.dropPrincipal(message.k, message.p);
    else if ('s' in message && typeof message.s === 'number') this.dropSubject(message.s);
  }

  private async publish(message: Message): Promise<void> {
    if (!this.publisher) return;
    try {
      await this.publisher.publish(this.channel, JSON.stringify(message));
    } catch (err) {
      this.logger.warn(
        `Session invalidation not published (other instances drop it within 30 s): ${(err as Error).message}`,
      );
    }
  }
}
