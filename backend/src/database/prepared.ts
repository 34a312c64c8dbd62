import type { DataSource } from 'typeorm';

/**
 * Reads by prepared statements on the driver, outside TypeORM's query building and result mapping
 * (issue 16 "hot reads by prepared statements on the driver"): on SQLite better-sqlite3's
 * statements, prepared once per text and kept; on MariaDB mysql2's `execute` on the pool (a
 * server-side prepared statement, kept by mysql2 once per connection). Rows come back as the
 * driver gives them (SQLite: datetimes as UTC text, booleans 0/1; MariaDB: Date, 0/1): read them
 * with sql.ts's readDate/readJson. For reads only: writes that must be one transaction take a
 * connection of their own (see GateService).
 */
export interface PreparedReader {
  all<T = Record<string, unknown>>(sql: string, params: unknown[]): Promise<T[]>;
}

interface SqliteStatement {
  all(...params: unknown[]): unknown[];
}
interface SqliteDb {
  prepare(sql: string): SqliteStatement;
}
interface MysqlPool {
  execute(sql: string, params: unknown[], cb: (err: Error | null, rows?: unknown) => void): void;
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
  let statements = new Map<string, SqliteStatement>();
  let owner: SqliteDb | undefined;
  return {
    async all<T>(sql: string, params: unknown[]): Promise<T[]> {
      const db = (ds.driver as unknown as { databaseConnection: SqliteDb }).databaseConnection;
      // statements belong to their connection: a new one (after a reconnect) prepares them again
      if (db !== owner) {
        owner = db;
        statements = new Map();
      }
      let stmt = statements.get(sql);
      if (!stmt) {
        stmt = db.prepare(sql);
        statements.set(sql, stmt);
      }
      return stmt.all(...params) as T[];
    },
  };
}

function mysqlReader(ds: DataSource): PreparedReader {
  return {
    all<T>(sql: string, params: unknown[]): Promise<T[]> {
      const pool = (ds.driver as unknown as { pool?: MysqlPool }).pool;
      if (!pool) return Promise.reject(new Error('prepared reads: no mysql2 pool on the driver'));
      return new Promise((resolve, reject) =>
        pool.execute(sql, params, (err, rows) => (err ? reject(err) : resolve(rows as T[]))),
      );
    },
  };
}
