import type { QueryRunner, TableIndexOptions } from 'typeorm';
import type { TableColumnOptions } from 'typeorm/schema-builder/options/TableColumnOptions.js';

/**
 * Column builders for hand-written migrations that give SQLite and MariaDB the schema the entities
 * describe: INTEGER on SQLite (its auto-increment key must be INTEGER exactly, and TypeORM reads
 * every integer column of SQLite back as INTEGER), booleans defaulting to 1/0, datetimes with
 * millisecond precision, JSON as text.
 */
export function columns(q: QueryRunner) {
  const intType = q.connection.driver.options.type === 'mariadb' ? 'int' : 'integer';
  return {
    id: (): TableColumnOptions => ({
      name: 'id',
      type: intType,
      isPrimary: true,
      isGenerated: true,
      generationStrategy: 'increment',
    }),
    int: (name: string, nullable = false, def?: number): TableColumnOptions => ({
      name,
      type: intType,
      isNullable: nullable,
      ...(def === undefined ? {} : { default: def }),
    }),
    varchar: (name: string, length: number, extra: Partial<TableColumnOptions> = {}): TableColumnOptions => ({
      name,
      type: 'varchar',
      length: String(length),
      ...extra,
    }),
    text: (name: string, nullable = false): TableColumnOptions => ({ name, type: 'text', isNullable: nullable }),
    bool: (name: string, def: boolean): TableColumnOptions => ({ name, type: 'boolean', default: def ? 1 : 0 }),
    datetime: (name: string, nullable = false): TableColumnOptions => ({
      name,
      type: 'datetime',
      precision: 3,
      isNullable: nullable,
    }),
    unique: (table: string, column: string): TableIndexOptions => ({
      name: `UQ_${table}_${column}`,
      columnNames: [column],
      isUnique: true,
    }),
    index: (table: string, ...cols: string[]): TableIndexOptions => ({
      name: `IDX_${table}_${cols.join('_')}`,
      columnNames: cols,
    }),
  };
}
