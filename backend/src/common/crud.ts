import type { FindOptionsOrder, ObjectLiteral, Repository } from 'typeorm';
import { In } from 'typeorm';
import { type SubjectOwned, TenantRepository } from '../database/tenant.js';
import { AppError } from './app-error.js';

export interface Timestamped extends SubjectOwned {
  createdAt: Date;
  updatedAt: Date;
}

/**
 * The create/read/update of a subject-owned entity, shared by the set-up modules: rows are always
 * read and written through the tenant repository, and a subclass says only how input maps onto a
 * row (`apply`) and how a row leaves (`toDto`).
 */
export abstract class SubjectCrud<E extends Timestamped, Input, Dto> {
  protected readonly scoped: TenantRepository<E>;

  constructor(repo: Repository<E>) {
    this.scoped = new TenantRepository(repo);
  }

  protected abstract apply(row: E, input: Input): Promise<void> | void;
  protected abstract toDto(row: E): Dto;
  /** Rows to DTOs; override to load what every row of the answer needs in one query. */
  protected async toDtos(rows: E[]): Promise<Dto[]> {
    return rows.map((r) => this.toDto(r));
  }
  private async one(row: E): Promise<Dto> {
    return (await this.toDtos([row]))[0];
  }
  protected order(): FindOptionsOrder<E> {
    return { id: 'ASC' } as FindOptionsOrder<E>;
  }

  async list(): Promise<Dto[]> {
    return this.toDtos(await this.scoped.find({ order: this.order() }));
  }

  async get(id: number): Promise<Dto> {
    return this.one(await this.scoped.get(id));
  }

  async create(input: Input): Promise<Dto> {
    const now = new Date();
    const row = this.scoped.create({ createdAt: now, updatedAt: now } as Partial<E>);
    await this.apply(row, input);
    return this.one(await this.scoped.save(row));
  }

  async update(id: number, input: Input): Promise<Dto> {
    const row = await this.scoped.get(id);
    await this.apply(row, input);
    row.updatedAt = new Date();
    return this.one(await this.scoped.save(row));
  }

  /**
   * Throws the 409 that says what still uses the row (a group with people, a template used by a
   * group); the default refuses nothing.
   */
  protected async refuseDelete(_row: E): Promise<void> {}

  /** DELETE: another subject's id is a 404, a row still in use a 409 naming what uses it. */
  async remove(id: number): Promise<void> {
    const row = await this.scoped.get(id);
    await this.refuseDelete(row);
    await this.scoped.repo.delete({ id: row.id, subjectId: row.subjectId } as never);
  }
}

/** Names for a refusal's details and message: at most 10, then '…'. */
export function usedBy(names: string[]): { names: string; usedBy: string[] } {
  const shown = names.slice(0, 10).join(', ');
  return { names: names.length > 10 ? `${shown}, …` : shown, usedBy: names };
}

/**
 * Refuses ids that are not rows of the current subject (another subject's group, a deleted zone):
 * a validation error on the field, never a dangling reference.
 */
export async function assertOwned<T extends SubjectOwned & ObjectLiteral>(
  repo: TenantRepository<T>,
  ids: (number | null | undefined)[],
  path: string,
): Promise<T[]> {
  const wanted = [...new Set(ids.filter((id): id is number => typeof id === 'number'))];
  if (!wanted.length) return [];
  const rows = await repo.find({ where: { id: In(wanted) } as never });
  if (rows.length !== wanted.length) throw AppError.validation([{ path, key: 'basics.invalidValue' }]);
  return rows;
}
