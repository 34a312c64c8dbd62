import { AsyncLocalStorage } from 'node:async_hooks';
import type { FindManyOptions, FindOptionsWhere, ObjectLiteral, Repository, SelectQueryBuilder } from 'typeorm';
import { AppError } from '../common/app-error.js';

/**
 * Tenant scoping in one place. The access guard resolves the request's subject; the tenant
 * interceptor runs the handler inside this context; every subject-owned table is read and written
 * through `TenantRepository`, which adds `subjectId` to each query and each saved row. Another
 * subject's row is therefore simply not found (404). Code outside a request with a subject (the
 * manage module, workers) must use plain repositories and says so by doing it.
 */
interface TenantStore {
  subjectId: number;
}

const storage = new AsyncLocalStorage<TenantStore>();

export function runInTenant<T>(subjectId: number, fn: () => T): T {
  return storage.run({ subjectId }, fn);
}

export function currentSubjectId(): number {
  const store = storage.getStore();
  if (!store) throw new Error('No subject in context: a subject-owned table was used outside a tenant request');
  return store.subjectId;
}

export interface SubjectOwned extends ObjectLiteral {
  id: number;
  subjectId: number;
}

export class TenantRepository<T extends SubjectOwned> {
  constructor(readonly repo: Repository<T>) {}

  private scope(where: FindOptionsWhere<T> | FindOptionsWhere<T>[] = {}): FindOptionsWhere<T>[] {
    const subjectId = currentSubjectId();
    return (Array.isArray(where) ? where : [where]).map((w) => ({ ...w, subjectId }) as FindOptionsWhere<T>);
  }

  find(options: FindManyOptions<T> = {}): Promise<T[]> {
    return this.repo.find({ ...options, where: this.scope(options.where as FindOptionsWhere<T>) });
  }

  count(where?: FindOptionsWhere<T>): Promise<number> {
    return this.repo.count({ where: this.scope(where) });
  }

  findOne(where: FindOptionsWhere<T>): Promise<T | null> {
    return this.repo.findOne({ where: this.scope(where) });
  }

  /** The row or a NOT_FOUND error: the answer for another subject's id too. */
  async get(id: number): Promise<T> {
    const row = await this.findOne({ id } as FindOptionsWhere<T>);
    if (!row) throw AppError.notFound();
    return row;
  }

  create(data: Partial<T>): T {
    return this.repo.create({ ...data, subjectId: currentSubjectId() } as T);
  }

  /** Saves a row of the current subject; a row of another subject can never be written. */
  save(entity: T): Promise<T> {
    const subjectId = currentSubjectId();
    if (entity.subjectId !== undefined && entity.subjectId !== subjectId) throw AppError.notFound();
    entity.subjectId = subjectId;
    return this.repo.save(entity);
  }

  query(alias: string): SelectQueryBuilder<T> {
    return this.repo.createQueryBuilder(alias).where(`${alias}.subjectId = :tenantSubjectId`, {
      tenantSubjectId: currentSubjectId(),
    });
  }
}
