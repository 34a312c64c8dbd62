import type { ImageDto, imageCreateSchema, imageListSchema, imageUpdateSchema, Paged } from '@accredo/domain';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Raw, type Repository } from 'typeorm';
import type { z } from 'zod';
import { AppError } from '../../common/app-error.js';
import { containing } from '../../database/columns.js';
import { currentSubjectId, TenantRepository } from '../../database/tenant.js';
import { StorageService } from '../storage/storage.service.js';
import { AccreditationEntity } from '../accreditation/accreditation.entity.js';
import { ActionEntity } from '../action/action.entity.js';
import { ImageImportEntity } from '../accreditation/image-import.entity.js';
import { WebChannelEntity } from '../web-channel/web-channel.entity.js';
import { usedBy } from '../../common/crud.js';
import { SubjectEntity } from '../subject/subject.entity.js';
import { type DecodedImage, decodeImage } from './image-data.js';
import { ImageEntity } from './image.entity.js';

export const FILE_KEY = /^[a-f0-9-]{36}\.(png|jpg|gif)$/;

/** The gallery (spec §3 Image, §7 Images): files in storage, rows scoped to the subject. */
@Injectable()
export class ImageService {
  private readonly scoped: TenantRepository<ImageEntity>;

  constructor(
    @InjectRepository(ImageEntity) private readonly repo: Repository<ImageEntity>,
    @InjectRepository(SubjectEntity) private readonly subjects: Repository<SubjectEntity>,
    private readonly storage: StorageService,
  ) {
    this.scoped = new TenantRepository(repo);
  }

  async list(q: z.output<typeof imageListSchema>): Promise<Paged<ImageDto>> {
    const where = {
      ...(q.type ? { type: q.type } : {}),
      ...(q.phrase
        ? { name: Raw((column) => `${column} LIKE :phrase ESCAPE '!'`, { phrase: containing(q.phrase) }) }
        : {}),
    };
    const [rows, max] = await Promise.all([
      this.scoped.find({ where, order: { id: 'DESC' }, skip: (q.page - 1) * q.pageSize, take: q.pageSize }),
      this.scoped.count(where),
    ]);
    return { data: rows.map(toImageDto), max };
  }

  async get(id: number): Promise<ImageDto> {
    return toImageDto(await this.scoped.get(id));
  }

  /** `field`: the request's name of the picture, named by its errors (a person's photo is `imageData`). */
  async create(input: z.output<typeof imageCreateSchema>, field = 'baseData'): Promise<ImageDto> {
    return toImageDto(await this.store(input.name, input.type, decodeImage(input.baseData, field)));
  }

  /** Saves an already decoded and checked picture as a new gallery image (the image import's 5 MB photos). */
  async store(name: string, type: number, image: DecodedImage): Promise<ImageEntity> {
    const fileKey = `${randomUUID()}.${image.ext}`;
    await this.storage.put(await this.storageKey(fileKey), image.data, image.mimeType);
    const now = new Date();
    const row = this.scoped.create({
      name: name.slice(0, 255),
      type,
      mimeType: image.mimeType,
      size: image.data.length,
      width: image.width,
      height: image.height,
      fileKey,
      version: 1,
      createdAt: now,
      updatedAt: now,
    });
    return this.scoped.save(row);
  }

  /** Rename, and with `data` save the edited picture as a new version (new immutable URL). */
  async update(id: number, input: z.output<typeof imageUpdateSchema>): Promise<ImageDto> {
    const row = await this.scoped.get(id);
    row.name = input.name;
    let oldKey: string | null = null;
    if (input.data) {
      const image = decodeImage(input.data, 'data');
      const fileKey = `${randomUUID()}.${image.ext}`;
      await this.storage.put(await this.storageKey(fileKey), image.data, image.mimeType);
      oldKey = row.fileKey;
      Object.assign(row, {
        fileKey,
        mimeType: image.mimeType,
        size: image.data.length,
        width: image.width,
        height: image.height,
        version: row.version + 1,
      });
    }
    row.updatedAt = new Date();
    const saved = await this.scoped.save(row);
    if (oldKey) await this.storage.remove(await this.storageKey(oldKey));
    return toImageDto(saved);
  }

  /**
   * DELETE image/{id} (issue 15): refused with 409 IMAGE_IN_USE while it is a person's photo, a web
   * channel's logo or an action's preview image (how many people, which channels and actions);
   * otherwise the row and its file go.
   */
  async remove(id: number): Promise<void> {
    const row = await this.scoped.get(id);
    const m = this.repo.manager;
    const [count, channels, actions] = await Promise.all([
      m.count(AccreditationEntity, { where: { subjectId: row.subjectId, imageId: row.id } }),
      m.find(WebChannelEntity, {
        where: { subjectId: row.subjectId, imageId: row.id },
        select: { id: true, name: true },
      }),
      m.find(ActionEntity, {
        where: { subjectId: row.subjectId },
        select: { id: true, name: true, previewData: true },
      }),
    ]);
    // the preview page's image of an action (previewData.image, a JSON field)
    const previews = actions
      .filter((a) => a.previewData?.image === row.id)
      .map((a) => ({ id: a.id, name: a.name?.cs || `#${a.id}` }));
    if (count || channels.length || previews.length) {
      const names = [...channels, ...previews].map((c) => c.name);
      throw new AppError('IMAGE_IN_USE', {
        count,
        webChannels: channels,
        actions: previews,
        ...usedBy(names),
        ...(names.length ? {} : { names: '—' }),
      });
    }
    await m.transaction(async (tm) => {
      await tm.delete(ImageImportEntity, { imageId: row.id });
      await tm.delete(ImageEntity, { id: row.id, subjectId: row.subjectId });
    });
    await this.storage.remove(await this.storageKey(row.fileKey));
  }

  /** For the public file route: the stored bytes of an image version, by its unguessable key. */
  async open(fileKey: string) {
    if (!FILE_KEY.test(fileKey)) throw AppError.notFound();
    const row = await this.repo.findOneBy({ fileKey });
    if (!row) throw AppError.notFound();
    const subject = await this.subjects.findOneByOrFail({ id: row.subjectId });
    const key = `${subject.pathToFiles}/images/${fileKey}`;
    if (!(await this.storage.exists(key))) throw AppError.notFound();
    return { stream: this.storage.read(key), mimeType: row.mimeType, size: row.size };
  }

  /**
   * Many files by key at once (a badge PDF's photos): one query for the rows and one for their
   * subjects, then `read()` opens each; unknown keys are left out (answered 404 as by `open`).
   */
  async locateMany(fileKeys: string[]): Promise<Map<string, { mimeType: string; size: number; read: () => Readable }>> {
    const keys = [...new Set(fileKeys.filter((k) => FILE_KEY.test(k)))];
    const found = new Map<string, { mimeType: string; size: number; read: () => Readable }>();
    if (!keys.length) return found;
    const rows = await this.repo.find({ where: { fileKey: In(keys) } });
    const subjectIds = [...new Set(rows.map((r) => r.subjectId))];
    const folders = new Map(
      (subjectIds.length ? await this.subjects.find({ where: { id: In(subjectIds) } }) : []).map((subject) => [
        subject.id,
        subject.pathToFiles,
      ]),
    );
    for (const row of rows) {
      const folder = folders.get(row.subjectId);
      if (!folder) continue;
      const key = `${folder}/images/${row.fileKey}`;
      found.set(row.fileKey, { mimeType: row.mimeType, size: row.size, read: () => this.storage.read(key) });
    }
    return found;
  }

  /** Where an image version's bytes are kept in storage. */
  async storageKey(fileKey: string, subjectId = currentSubjectId()): Promise<string> {
    return `${await this.storageFolder(subjectId)}/${fileKey}`;
  }

  /** The storage folder of a subject's images (one look-up for many files, e.g. the photo export). */
  async storageFolder(subjectId = currentSubjectId()): Promise<string> {
    const subject = await this.subjects.findOneByOrFail({ id: subjectId });
    return `${subject.pathToFiles}/images`;
  }
}

export function toImageDto(row: ImageEntity): ImageDto {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    size: row.size,
    width: row.width,
    height: row.height,
    mimeType: row.mimeType,
    version: row.version,
    path: `/api/file/${row.fileKey}`,
    dateCreate: row.createdAt.toISOString(),
  };
}
