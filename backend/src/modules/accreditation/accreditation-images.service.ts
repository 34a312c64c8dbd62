import type { Readable } from 'node:stream';
import {
  IMAGE_IMPORT_MAX_BYTES,
  type ImageImportReason,
  type ImageImportResult,
  type ImageImportStatus,
  imageBaseName,
  imageImportSchema,
  imageNameKey,
  isImageFileName,
} from '@accredo/domain';
import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { type DataSource, type EntityManager, In, IsNull, Not, type Repository } from 'typeorm';
import yazl from 'yazl';
import type { z } from 'zod';
import { AppError } from '../../common/app-error.js';
import { currentSubjectId, TenantRepository } from '../../database/tenant.js';
import { ActionEntity } from '../action/action.entity.js';
import { type DecodedImage, decodeImage } from '../image/image-data.js';
import { ImageEntity } from '../image/image.entity.js';
import { ImageService } from '../image/image.service.js';
import { StorageService } from '../storage/storage.service.js';
import { AccreditationEntity } from './accreditation.entity.js';
import { ImageImportEntity } from './image-import.entity.js';

/** The photo type of the gallery (spec §3 Image: 1 accreditation). */
const PHOTO_TYPE = 1;
const EXT_OF: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif' };

/** The reason of a picture decodeImage refused, by its message key. */
function reasonOf(error: unknown): ImageImportReason {
  const key = error instanceof AppError ? (error.details.fields as { key: string }[] | undefined)?.[0]?.key : '';
  if (key === 'photo.chooseToolTipOnline') return 'IMAGE_TOO_LARGE';
  if (key === 'photo.invalidType') return 'IMAGE_TYPE_INVALID';
  return 'IMAGE_BASE64_INVALID';
}

type Candidate = Pick<AccreditationEntity, 'id' | 'firstname' | 'lastname' | 'imageName'>;

/**
 * Photos in bulk (spec §5 Import, §7 image/import and the image export):
 *  - the image import pairs uploaded files with accreditations by file name: first the photo name
 *    of the sheet row (case-insensitive), otherwise the barcode (an exported photo is named by it);
 *    a file nobody names yet is kept for the sheet that will name it (images first, sheet second);
 *  - the image export streams a zip of the selection's photos, named so that they re-import.
 */
@Injectable()
export class AccreditationImagesService {
  private readonly scoped: TenantRepository<AccreditationEntity>;
  private readonly actions: TenantRepository<ActionEntity>;
  private readonly pending: TenantRepository<ImageImportEntity>;
  private readonly images: TenantRepository<ImageEntity>;

  constructor(
    @InjectRepository(AccreditationEntity) repo: Repository<AccreditationEntity>,
    @InjectRepository(ActionEntity) actions: Repository<ActionEntity>,
    @InjectRepository(ImageImportEntity) pending: Repository<ImageImportEntity>,
    @InjectRepository(ImageEntity) images: Repository<ImageEntity>,
    @InjectDataSource() private readonly ds: DataSource,
    private readonly imageService: ImageService,
    private readonly storage: StorageService,
  ) {
    this.scoped = new TenantRepository(repo);
    this.actions = new TenantRepository(actions);
    this.pending = new TenantRepository(pending);
    this.images = new TenantRepository(images);
  }

  private async action(id: number): Promise<ActionEntity> {
    const action = await this.actions.findOne({ id });
    if (!action) throw new AppError('ACTION_DOESNT_EXIST');
    return action;
  }

  private waitingQuery(actionId: number) {
    return this.scoped
      .query('a')
      .andWhere('a.actionId = :actionId', { actionId })
      .andWhere('a.imageName IS NOT NULL')
      .andWhere('a.imageId IS NULL');
  }

  /** GET image/import/{actionId}: who still waits for a photo, and the photos nobody names yet. */
  async status(actionId: number): Promise<ImageImportStatus> {
    const action = await this.action(actionId);
    const [waiting, unpaired] = await Promise.all([
      this.waitingQuery(action.id)
        .select(['a.id', 'a.firstname', 'a.lastname', 'a.imageName'])
        .orderBy('a.customId', 'ASC')
        .getMany(),
      this.pending.find({ where: { actionId: action.id }, order: { id: 'ASC' } }),
    ]);
    return {
      waiting: waiting.map((a) => ({ id: a.id, name: `${a.firstname} ${a.lastname}`, imageName: a.imageName ?? '' })),
      unpaired: unpaired.map((p) => ({ imageName: p.name, dateCreate: p.createdAt.toISOString() })),
    };
  }

  /** POST image/import: each image paired (or kept, or refused with its reason), in the order sent. */
  async import(input: z.output<typeof imageImportSchema>): Promise<{ results: ImageImportResult[]; waiting: number }> {
    const action = await this.action(input.actionId);
    // Every photo name of the action, once per batch, compared in JavaScript: the same
    // case-insensitive match for Czech letters on SQLite and MariaDB.
    const named = new Map<string, Candidate[]>();
    const rows = await this.scoped.find({
      where: { actionId: action.id, imageName: Not(IsNull()) },
      select: { id: true, subjectId: true, firstname: true, lastname: true, imageName: true },
    });
    for (const row of rows) {
      const key = imageNameKey(row.imageName ?? '');
      named.set(key, [...(named.get(key) ?? []), row]);
    }
    const results: ImageImportResult[] = [];
    for (const item of input.images) results.push(await this.importOne(action.id, item, named));
    return { results, waiting: await this.waitingQuery(action.id).getCount() };
  }

  private async importOne(
    actionId: number,
    item: { imageName: string; imageData: string },
    named: Map<string, Candidate[]>,
  ): Promise<ImageImportResult> {
    const imageName = item.imageName.trim();
    const refused = (reason: ImageImportReason): ImageImportResult => ({
      imageName,
      paired: false,
      accreditations: [],
      reason,
    });
    if (!isImageFileName(imageName)) return refused('IMAGE_NAME_INVALID');
    let picture: DecodedImage;
    try {
      picture = decodeImage(item.imageData, 'imageData', IMAGE_IMPORT_MAX_BYTES);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return refused(reasonOf(error));
    }

    const key = imageNameKey(imageName);
    let by: 'imageName' | 'bc' = 'imageName';
    let targets: Candidate[] = named.get(key) ?? [];
    if (!targets.length) {
      const bc = imageBaseName(imageName).trim().toUpperCase();
      const row = /^[A-Z0-9]{1,32}$/.test(bc) ? await this.scoped.findOne({ actionId, bc }) : null;
      if (row) {
        targets = [row];
        by = 'bc';
      }
    }

    const image = await this.imageService.store(imageName, PHOTO_TYPE, picture);
    if (!targets.length) {
      await this.keep(actionId, imageName, key, image.id);
      return refused('IMAGE_WAITING_FOR_ROW');
    }
    await this.ds.transaction(async (m) => {
      await m
        .getRepository(AccreditationEntity)
        .update(
          { id: In(targets.map((t) => t.id)), subjectId: currentSubjectId() },
          { imageId: image.id, updatedAt: new Date() },
        );
      // An earlier upload of this name that waited for its row is superseded.
      await m.getRepository(ImageImportEntity).delete({ subjectId: currentSubjectId(), actionId, nameKey: key });
    });
    return {
      imageName,
      paired: true,
      by,
      accreditations: targets.map((t) => ({ id: t.id, name: `${t.firstname} ${t.lastname}` })),
    };
  }

  /** Keeps a photo nobody names yet; a later upload of the same name replaces it. */
  private async keep(actionId: number, name: string, nameKey: string, imageId: number): Promise<void> {
    const subjectId = currentSubjectId();
    const repo = this.pending.repo;
    const update = () => repo.update({ subjectId, actionId, nameKey }, { name, imageId, createdAt: new Date() });
    if ((await update()).affected) return;
    try {
      await repo.insert({ subjectId, actionId, name, nameKey, imageId, createdAt: new Date() });
    } catch (error) {
      // Two uploads of one name at once: the unique index let one insert win; the other updates.
      if (!/unique|duplicate/i.test((error as Error).message)) throw error;
      await update();
    }
  }

  /**
   * For the sheet import: the kept photos named by these keys (see imageNameKey). The import sets
   * them as the rows' photos and removes them with `consumeKept` inside its one transaction.
   */
  async keptPhotos(actionId: number, keys: string[]): Promise<Map<string, ImageImportEntity>> {
    const found = new Map<string, ImageImportEntity>();
    const unique = [...new Set(keys)];
    for (let i = 0; i < unique.length; i += 500) {
      for (const row of await this.pending.find({ where: { actionId, nameKey: In(unique.slice(i, i + 500)) } }))
        found.set(row.nameKey, row);
    }
    return found;
  }

  async consumeKept(m: EntityManager, ids: number[]): Promise<void> {
    for (let i = 0; i < ids.length; i += 500)
      await m.getRepository(ImageImportEntity).delete({ id: In(ids.slice(i, i + 500)) });
  }

  /**
   * POST user/export/images: a zip with one file per chosen accreditation that has a photo, named
   * by the sheet's photo name when it has one (first come keeps it), otherwise `{bc}.{ext}`, so the
   * zip re-imports through the image import. The files are stored, not compressed again (photos
   * are compressed already), and read one at a time while the zip streams out.
   */
  async exportZip(actionId: number, ids: number[]): Promise<{ stream: Readable; name: string; count: number }> {
    const action = await this.action(actionId);
    const entries: { name: string; key: string; size: number; mtime: Date }[] = [];
    const used = new Set<string>();
    const folder = await this.imageService.storageFolder();
    for (let i = 0; i < ids.length; i += 1000) {
      const rows = await this.scoped.find({
        where: { id: In(ids.slice(i, i + 1000)), imageId: Not(IsNull()) },
        select: { id: true, subjectId: true, bc: true, imageId: true, imageName: true },
        order: { id: 'ASC' },
      });
      const imageIds = [...new Set(rows.map((r) => r.imageId as number))];
      const images = new Map(
        (imageIds.length ? await this.images.find({ where: { id: In(imageIds) } }) : []).map((img) => [img.id, img]),
      );
      for (const row of rows) {
        const image = images.get(row.imageId as number);
        if (!image) continue;
        const key = `${folder}/${image.fileKey}`;
        if (!(await this.storage.exists(key))) continue;
        const ext = EXT_OF[image.mimeType] ?? 'png';
        let name =
          row.imageName && isImageFileName(row.imageName) && !used.has(imageNameKey(row.imageName))
            ? row.imageName
            : `${row.bc}.${ext}`;
        if (used.has(imageNameKey(name))) name = `${row.bc}-${row.id}.${ext}`;
        used.add(imageNameKey(name));
        entries.push({ name, key, size: image.size, mtime: image.updatedAt });
      }
    }
    if (!entries.length) throw new AppError('NO_PHOTOS_TO_EXPORT');

    const zip = new yazl.ZipFile();
    for (const entry of entries) {
      zip.addReadStreamLazy(entry.name, { compress: false, mtime: entry.mtime, size: entry.size }, (cb) =>
        cb(null, this.storage.read(entry.key)),
      );
    }
    zip.end();
    return { stream: zip.outputStream as Readable, name: `photos-${action.id}.zip`, count: entries.length };
  }
}
