import { Column, type ColumnOptions } from 'typeorm';

/**
 * Column helpers that map the same TypeScript values on SQLite and MariaDB: datetimes with
 * millisecond precision stored in UTC, booleans as 0/1, JSON as text.
 */
export const DateColumn = (options: ColumnOptions = {}) => Column({ type: 'datetime', precision: 3, ...options });
export const BoolColumn = (def: boolean) => Column({ type: 'boolean', default: def });
export const JsonColumn = (options: ColumnOptions = {}) => Column({ type: 'simple-json', ...options });

/**
 * A pattern for `LIKE :p ESCAPE '!'` that matches the text anywhere: '!' escapes % and _ the same
 * way on SQLite and MariaDB (a backslash means different things in their string literals).
 */
export const containing = (text: string) => `%${text.replace(/[%_!]/g, (c) => `!${c}`)}%`;
