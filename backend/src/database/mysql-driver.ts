import type { DataSource } from 'typeorm';

/**
 * mysql2 as the raw write paths use it (core-runner.ts): a connection of TypeORM's pool for a
 * transaction of their own, and its calls as promises.
 */
export interface MysqlConnection {
  query(sql: string, cb: (err: Error | null, rows?: unknown) => void): void;
  query(sql: string, params: unknown[], cb: (err: Error | null, rows?: unknown) => void): void;
  execute(
    sql: string | { sql: string; rowsAsArray?: boolean },
    params: unknown[],
    cb: (err: Error | null, rows?: unknown) => void,
  ): void;
  release(): void;
  /** closes the connection instead of giving it back to the pool (its session state is not known) */
  destroy(): void;
  /** the statement with its parameters written in by the driver's escaping, as `query` sends it */
  format(sql: string, params: unknown[]): string;
}
export interface MysqlPool {
  getConnection(cb: (err: Error | null, conn: MysqlConnection) => void): void;
}

/** TypeORM's mysql2 pool (no replication: one pool). */
export function mysqlPool(ds: DataSource, what: string): MysqlPool & Pick<MysqlConnection, 'execute'> {
  const pool = (ds.driver as unknown as { pool?: MysqlPool & Pick<MysqlConnection, 'execute'> }).pool;
  if (!pool) throw new Error(`MariaDB ${what}: no mysql2 pool on the driver (replication is not supported)`);
  return pool;
}

export const mysqlConnection = (pool: MysqlPool) =>
  new Promise<MysqlConnection>((ok, fail) => pool.getConnection((e, c) => (e ? fail(e) : ok(c))));

/** A statement without parameters (transaction control). */
export const myQuery = (conn: MysqlConnection, sql: string) =>
  new Promise<unknown>((ok, fail) => conn.query(sql, (e, r) => (e ? fail(e) : ok(r))));

/** A statement by the text protocol, escaped by mysql2 (a BIGINT read needs no `long` package there). */
export const myText = (conn: MysqlConnection, sql: string, params: unknown[]) =>
  new Promise<unknown>((ok, fail) => conn.query(sql, params, (e, r) => (e ? fail(e) : ok(r))));

/**
 * A server-side prepared statement (mysql2 keeps it per connection); with `rowsAsArray` each row is
 * an array of its values in the SELECT's order.
 */
export const myExecute = (
  conn: Pick<MysqlConnection, 'execute'>,
  sql: string,
  params: unknown[],
  rowsAsArray = false,
) =>
  new Promise<unknown>((ok, fail) =>
    conn.execute(rowsAsArray ? { sql, rowsAsArray } : sql, params, (e, r) => (e ? fail(e) : ok(r))),
  );
