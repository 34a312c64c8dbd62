import type { ManageSubjectInput, Subject, SubjectUpdateInput } from '@accredo/domain';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { AppError } from '../../common/app-error.js';
import { randomCode } from '../../common/crypto.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { currentSubjectId } from '../../database/tenant.js';
import { TokenService } from '../session/token.service.js';
import { toSubject } from './subject.dto.js';
import { SubjectEntity } from './subject.entity.js';

type Normalized<T> = Required<{ [K in keyof T]: Exclude<T[K], undefined> }>;

/**
 * Subjects (organisations). The subject table is the tenant itself, so the admin side reads and
 * writes only the row of the current subject; the manage module works across all of them.
 */
@Injectable()
export class SubjectService {
  constructor(
    @InjectRepository(SubjectEntity) private readonly repo: Repository<SubjectEntity>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly tokens: TokenService,
  ) {}

  // ---- admin application: the current subject ----

  async current(): Promise<Subject> {
    return toSubject(await this.getRow(currentSubjectId()));
  }

  async updateCurrent(input: Normalized<SubjectUpdateInput>): Promise<Subject> {
    const row = await this.getRow(currentSubjectId());
    row.name = input.name;
    row.multiLanguage = input.multiLanguage;
    row.timeZone = input.timeZone;
    const saved = await this.repo.save(row);
    // the session answers (GET authorization) carry the subject's summary
    await this.tokens.subjectChanged(saved.id);
    return toSubject(saved);
  }

  // ---- manage module ----

  async list(): Promise<Subject[]> {
    return (await this.repo.find({ order: { name: 'ASC' } })).map(toSubject);
  }

  async get(id: number): Promise<Subject> {
    return toSubject(await this.getRow(id));
  }

  async create(input: Normalized<ManageSubjectInput>): Promise<Subject> {
    await this.assertUnique(input.key, input.pathToFiles);
    const row = this.repo.create({
      name: input.name,
      key: input.key,
      pathToFiles: input.pathToFiles,
      multiLanguage: input.multiLanguage,
      timeZone: input.timeZone,
      extensions: input.extensions,
      deviceKey: randomCode(16),
      createdAt: new Date(),
    });
    const saved = await this.saveUnique(row);
    await fs.mkdir(this.filesDir(saved), { recursive: true });
    return toSubject(saved);
  }

  async update(id: number, input: Normalized<ManageSubjectInput>): Promise<Subject> {
    const row = await this.getRow(id);
    if (input.pathToFiles !== row.pathToFiles) {
      throw new AppError('SUBJECT_PATH_FIXED', { fields: [{ path: 'pathToFiles', key: 'errors.SUBJECT_PATH_FIXED' }] });
    }
    await this.assertUnique(input.key, null, id);
    Object.assign(row, {
      name: input.name,
      key: input.key,
      multiLanguage: input.multiLanguage,
      timeZone: input.timeZone,
      extensions: input.extensions,
    });
    const saved = await this.saveUnique(row);
    await this.tokens.subjectChanged(saved.id);
    return toSubject(saved);
  }

  /** The subject's own folder of files: DATA_DIR/files/<pathToFiles>. */
  filesDir(subject: Pick<SubjectEntity, 'pathToFiles'>): string {
    return path.join(this.config.dataDir, 'files', subject.pathToFiles);
  }

  private async getRow(id: number): Promise<SubjectEntity> {
    const row = await this.repo.findOneBy({ id });
    if (!row) throw AppError.notFound();
    return row;
  }

  private async assertUnique(key: string, pathToFiles: string | null, exceptId?: number): Promise<void> {
    const byKey = await this.repo.findOneBy({ key });
    if (byKey && byKey.id !== exceptId)
      throw new AppError('SUBJECT_KEY_EXIST', { fields: [{ path: 'key', key: 'errors.SUBJECT_KEY_EXIST' }] });
    if (pathToFiles) {
      const byPath = await this.repo.findOneBy({ pathToFiles });
      if (byPath && byPath.id !== exceptId) {
        throw new AppError('SUBJECT_PATH_EXIST', {
          fields: [{ path: 'pathToFiles', key: 'errors.SUBJECT_PATH_EXIST' }],
        });
      }
    }
  }

  private async saveUnique(row: SubjectEntity): Promise<SubjectEntity> {
    try {
      return await this.repo.save(row);
    } catch (err) {
      if (/unique|duplicate/i.test((err as Error).message)) throw new AppError('SUBJECT_KEY_EXIST');
      throw err;
    }
  }
}
