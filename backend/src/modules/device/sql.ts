import type { DataSource } from 'typeorm';

/**
 * A datetime parameter for raw SQL as TypeORM writes the column: UTC text with milliseconds on
 * SQLite (better-sqlite3 binds no Date), a Date on MariaDB (mysql2 with timezone 'Z').
 */
export function sqlDate(ds: DataSource, at: Date): Date | string {
  return isSqlite(ds) ? at.toISOString().slice(0, 23).replace('T', ' ') : at;
}

/** A datetime read by raw SQL (a Date from mysql2, UTC text from SQLite) as epoch ms. */
export function readDate(value: unknown): number {
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'string')
    return Date.parse(`${value.replace(' ', 'T')}${/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? '' : 'Z'}`);
  return Number.NaN;
}

export const isSqlite = (ds: DataSource) => ds.options.type === 'better-sqlite3';

/** JSON kept in a simple-json column, read by raw SQL. */
export function readJson<T>(value: unknown, fallback: T): T {
  if (value === null || value === undefined) return fallback;
  if (typeof value !== 'string') return value as T;
  try {
    return JSON.parse(value) as T;
  } catch {
    return fallback;
  }
}
