import type { DataSource } from 'typeorm';
import { type MysqlConnection, myQuery, mysqlConnection, mysqlPool } from '../database/mysql-driver.js';

/**
 * MariaDB specs: `sql` on the pool's connection `connectionId` (its CONNECTION_ID()), taken from the
 * pool as its next user would take it: the connections handed out meanwhile are held until it comes,
 * so the pool gives out each idle one once.
 */
export async function onPooledConnection(ds: DataSource, connectionId: number, sql: string): Promise<unknown[]> {
  const pool = mysqlPool(ds, 'spec');
  // at most the pool's size: one more would wait for a connection this holds, for ever
  const size = Number((pool as { config?: { connectionLimit?: number } }).config?.connectionLimit) || 10;
  const held: MysqlConnection[] = [];
  try {
    for (let i = 0; i < size; i++) {
      const conn = await mysqlConnection(pool);
      held.push(conn);
      const [row] = (await myQuery(conn, 'SELECT CONNECTION_ID() AS id')) as { id: unknown }[];
      if (Number(row.id) === connectionId) return (await myQuery(conn, sql)) as unknown[];
    }
    throw new Error(`connection ${connectionId} is not in the pool`);
  } finally {
    for (const conn of held) conn.release();
  }
}

/**
 * MariaDB specs: what the pool's connections are sent while `work` runs: each statement's text and
 * the id of the connection it went to (mysql2's `threadId`, its CONNECTION_ID()).
 */
export async function sentDuring<T>(
  ds: DataSource,
  work: () => Promise<T>,
): Promise<{ value: T; sent: { sql: string; connectionId: number }[] }> {
  const conn = await mysqlConnection(mysqlPool(ds, 'spec'));
  const proto = Object.getPrototypeOf(conn) as Record<string, (...args: unknown[]) => unknown>;
  conn.release();
  const originals = { query: proto.query, execute: proto.execute };
  const sent: { sql: string; connectionId: number }[] = [];
  for (const name of ['query', 'execute'] as const)
    proto[name] = function (this: { threadId: number }, ...args: unknown[]) {
      const sql = typeof args[0] === 'string' ? args[0] : String((args[0] as { sql?: string })?.sql);
      sent.push({ sql, connectionId: this.threadId });
      return originals[name].apply(this, args);
    };
  try {
    return { value: await work(), sent };
  } finally {
    Object.assign(proto, originals);
  }
}
