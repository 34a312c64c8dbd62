import type { DataSource } from 'typeorm';
import { sqliteConnection, sqliteStatement } from './core-runner.js';
import { myExecute, mysqlPool } from './mysql-driver.js';

/**
 * Reads by prepared statements on the driver, outside TypeORM's query building and result mapping
 * (issue 16 "hot reads by prepared statements on the driver"): on SQLite better-sqlite3's
 * statements, prepared once per text and kept; on MariaDB mysql2's `execute` on the pool (a
 * server-side prepared statement, kept by mysql2 once per connection). Rows come back as the
 * driver gives them (SQLite: datetimes as UTC text, booleans 0/1; MariaDB: Date, 0/1): read them
 * with sql.ts's readDate/readJson. For reads only: writes that must be one transaction take a
 * connection of their own (core-runner.ts).
 */
export interface PreparedReader {
  all<T = Record<string, unknown>>(sql: string, params: unknown[]): Promise<T[]>;
  /**
   * The rows as arrays of their values in the SELECT's order: no object with a key per column is
   * made for each row, which is about half of a small read's cost on SQLite (a row of 23 columns:
   * 28 µs as objects, 11–15 µs as arrays, measured 2026-11-29). For the hottest reads.
   */
  arrays<T extends unknown[] = unknown[]>(sql: string, params: unknown[]): Promise<T[]>;
}

const readers = new WeakMap<DataSource, PreparedReader>();

/** The data source's reader (one per data source, its statements shared by every caller). */
export function preparedReader(ds: DataSource): PreparedReader {
  let reader = readers.get(ds);
  if (!reader) {
    reader = ds.options.type === 'better-sqlite3' ? sqliteReader(ds) : mysqlReader(ds);
    readers.set(ds, reader);
  }
  return reader;
}

function sqliteReader(ds: DataSource): PreparedReader {
  return {
    async all<T>(sql: string, params: unknown[]): Promise<T[]> {
      // the connection's statement cache, shared with the write runner (a new connection after a
      // reconnect prepares again)
      return sqliteStatement(sqliteConnection(ds), sql).all(params) as T[];
    },
    async arrays<T extends unknown[]>(sql: string, params: unknown[]): Promise<T[]> {
      // the same cached statement, in raw mode for this one synchronous call (nothing else can
      // run it in between)
      const stmt = sqliteStatement(sqliteConnection(ds), sql);
      stmt.raw(true);
      try {
        return stmt.all(params) as T[];
      } finally {
        stmt.raw(false);
      }
    },
  };
}

function mysqlReader(ds: DataSource): PreparedReader {
  return {
    async all<T>(sql: string, params: unknown[]): Promise<T[]> {
      return (await myExecute(mysqlPool(ds, 'prepared reads'), sql, params)) as T[];
    },
    async arrays<T extends unknown[]>(sql: string, params: unknown[]): Promise<T[]> {
      return (await myExecute(mysqlPool(ds, 'prepared reads'), sql, params, true)) as T[];
    },
  };
}
