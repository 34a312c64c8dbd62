import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { scratchPath, sweepScratch } from '../../common/scratch.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { parseStorageUrl, type S3Location } from './storage-url.js';

const SAFE_KEY = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_.-]+)*$/;
/**
 * The PDF jobs' folder in the bucket, beside the subjects' folders: a subject's folder name
 * (`pathToFiles`) starts with a letter or digit, so none can be this one.
 */
export const PDF_JOBS_BUCKET_FOLDER = '_pdf-jobs';
/** How often the temporary files left by a killed process are swept (and once at start). */
const SCRATCH_SWEEP_MS = 60 * 60 * 1000;
/** Deletes of one folder's objects sent at once (a PDF job has up to 51: its parts and its file). */
const DELETE_CONCURRENCY = 8;

/** A stored file and its size in bytes (listings). */
export interface StoredFile {
  key: string;
  size: number;
}

/** Where the files are: a folder (the default) or an S3-compatible bucket. */
interface FileStore {
  put(key: string, data: Buffer, contentType?: string): Promise<void>;
  /** a finished local file taken in (a folder: renamed into place; a bucket: streamed up, then removed) */
  putFile(key: string, file: string, contentType?: string): Promise<void>;
  /** where to write a file that `putFile` then takes in (beside it on the same disk, or a temporary file) */
  scratch(key: string): Promise<string>;
  /** the size of a file, null when there is none */
  stat(key: string): Promise<{ size: number } | null>;
  /** the file's bytes; a missing file is an 'error' event with code ENOENT (as fs streams give) */
  read(key: string): Readable;
  /** the whole file in memory (small files only: a PDF job's part) */
  readBuffer(key: string): Promise<Buffer>;
  /** every file under a folder ('' for all), with its size, in no particular order */
  list(folder: string): Promise<StoredFile[]>;
  remove(key: string): Promise<void>;
  /** a folder and everything in it (nothing when there is no such folder) */
  removeFolder(folder: string): Promise<void>;
  readonly kind: 'local' | 's3';
}

/**
 * One area of the storage, its keys checked so none leaves it: the files (photos, logos, gallery
 * images) or the PDF jobs' files (`StorageService.pdfJobs`).
 */
export class StorageArea {
  constructor(private readonly store: FileStore) {}

  /** 'local' or 's3' (health and logs). */
  get kind(): 'local' | 's3' {
    return this.store.kind;
  }

  put(key: string, data: Buffer, contentType?: string): Promise<void> {
    return this.store.put(checked(key), data, contentType);
  }

  /**
   * A file written by `write` to a local path (a PDF job's merge) and then stored under `key`
   * without being held in memory: in a folder it is written beside its place and renamed into it;
   * for a bucket it goes to a temporary file that is streamed up and removed.
   */
  async putWritten<T>(key: string, write: (file: string) => Promise<T>, contentType?: string): Promise<T> {
    const file = await this.store.scratch(checked(key));
    try {
      const result = await write(file);
      await this.store.putFile(key, file, contentType);
      return result;
    } finally {
      await fsp.rm(file, { force: true });
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.store.stat(checked(key))) !== null;
  }

  stat(key: string): Promise<{ size: number } | null> {
    return this.store.stat(checked(key));
  }

  read(key: string): Readable {
    return this.store.read(checked(key));
  }

  readBuffer(key: string): Promise<Buffer> {
    return this.store.readBuffer(checked(key));
  }

  list(folder = ''): Promise<StoredFile[]> {
    return this.store.list(folder ? checked(folder) : '');
  }

  remove(key: string): Promise<void> {
    return this.store.remove(checked(key));
  }

  removeFolder(folder: string): Promise<void> {
    return this.store.removeFolder(checked(folder));
  }
}

/**
 * File storage behind one interface: local files under DATA_DIR by default, or an S3-compatible
 * bucket when STORAGE_URL is set (issue 16, several instances behind one address share their files
 * there and need no shared folder). Two areas: the files (photos, logos, gallery images) under
 * DATA_DIR/files or at the bucket's top (under its prefix), and the PDF jobs' parts and finished
 * files (`pdfJobs`) under DATA_DIR/pdf-jobs or `_pdf-jobs/` in the bucket. Keys are relative paths
 * made by the application (`<subject path>/images/<uuid>.png`, `<job id>/badges.pdf`), checked so
 * no key can leave its folder or the bucket's prefix. The files' URLs are the application's own
 * (`/api/file/{key}`, the image routes, a job's file route), streamed through the server in both
 * cases: nothing about the bucket is shown.
 */
@Injectable()
export class StorageService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Storage');
  private sweepTimer?: NodeJS.Timeout;
  /** photos, logos and gallery images */
  readonly files: StorageArea;
  /** the PDF jobs' parts and finished files (modules/pdf) */
  readonly pdfJobs: StorageArea;
  private readonly s3?: S3Connection;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const at = config.storageUrl ? parseStorageUrl(config.storageUrl) : null;
    if (at) {
      this.s3 = new S3Connection(at);
      this.files = new StorageArea(new S3Store(this.s3, at.prefix));
      this.pdfJobs = new StorageArea(
        new S3Store(this.s3, at.prefix ? `${at.prefix}/${PDF_JOBS_BUCKET_FOLDER}` : PDF_JOBS_BUCKET_FOLDER),
      );
    } else {
      this.files = new StorageArea(new LocalStore(path.join(config.dataDir, 'files')));
      this.pdfJobs = new StorageArea(new LocalStore(path.join(config.dataDir, 'pdf-jobs')));
    }
  }

  /** 'local' or 's3' (health and logs). */
  get kind(): 'local' | 's3' {
    return this.files.kind;
  }

  put(key: string, data: Buffer, contentType?: string): Promise<void> {
    return this.files.put(key, data, contentType);
  }

  exists(key: string): Promise<boolean> {
    return this.files.exists(key);
  }

  read(key: string): Readable {
    return this.files.read(key);
  }

  remove(key: string): Promise<void> {
    return this.files.remove(key);
  }

  /** The temporary files a killed process left (common/scratch.ts), at start and hourly. */
  onApplicationBootstrap(): void {
    const sweep = () =>
      void sweepScratch().then(
        (n) => n && this.logger.log(`removed ${n} temporary file(s) left by a stopped process`),
        (err) => this.logger.warn(`temporary files: ${(err as Error).message}`),
      );
    sweep();
    this.sweepTimer = setInterval(sweep, SCRATCH_SWEEP_MS);
    this.sweepTimer.unref();
  }

  onApplicationShutdown(): void {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.s3?.close();
  }
}

function checked(key: string): string {
  if (!SAFE_KEY.test(key) || key.includes('..')) throw new Error(`unsafe storage key: ${key}`);
  return key;
}

const isNotFound = (error: unknown) => (error as NodeJS.ErrnoException)?.code === 'ENOENT';

class LocalStore implements FileStore {
  readonly kind = 'local';
  constructor(private readonly root: string) {}

  private file(key: string): string {
    return path.join(this.root, key);
  }

  async put(key: string, data: Buffer): Promise<void> {
    // Write then rename: a reader never sees half a file.
    const tmp = await this.scratch(key);
    await fsp.writeFile(tmp, data);
    await fsp.rename(tmp, this.file(key));
  }

  async putFile(key: string, file: string): Promise<void> {
    await fsp.rename(file, this.file(key));
  }

  async scratch(key: string): Promise<string> {
    const file = this.file(key);
    await fsp.mkdir(path.dirname(file), { recursive: true });
    return `${file}.${process.pid}.tmp`;
  }

  async stat(key: string): Promise<{ size: number } | null> {
    try {
      return { size: (await fsp.stat(this.file(key))).size };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  read(key: string): Readable {
    return fs.createReadStream(this.file(key));
  }

  readBuffer(key: string): Promise<Buffer> {
    return fsp.readFile(this.file(key));
  }

  async list(folder: string): Promise<StoredFile[]> {
    const dir = folder ? this.file(folder) : this.root;
    let entries: fs.Dirent[];
    try {
      entries = await fsp.readdir(dir, { recursive: true, withFileTypes: true });
    } catch (error) {
      if (isNotFound(error)) return [];
      throw error;
    }
    const found: StoredFile[] = [];
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const file = path.join(entry.parentPath, entry.name);
      const stat = await fsp.stat(file).catch(() => null);
      // a file removed meanwhile (another instance's sweep) is not listed
      if (stat) found.push({ key: path.relative(this.root, file).split(path.sep).join('/'), size: stat.size });
    }
    return found;
  }

  async remove(key: string): Promise<void> {
    await fsp.rm(this.file(key), { force: true });
  }

  async removeFolder(folder: string): Promise<void> {
    await fsp.rm(this.file(folder), { recursive: true, force: true });
  }
}

type S3 = typeof import('@aws-sdk/client-s3');

/**
 * The bucket's client through @aws-sdk/client-s3 (loaded only when configured), shared by the areas.
 * Checksums only where S3 requires them: S3-compatible servers (MinIO, Ceph, s3rver) do not all take
 * the SDK's default chunked CRC trailers. The SDK retries a failed call a bounded number of times (3).
 */
class S3Connection {
  readonly ready: Promise<{ sdk: S3; client: InstanceType<S3['S3Client']> }>;

  constructor(readonly at: S3Location) {
    this.ready = import('@aws-sdk/client-s3').then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        endpoint: at.endpoint,
        region: at.region,
        forcePathStyle: at.pathStyle,
        credentials: { accessKeyId: at.accessKeyId, secretAccessKey: at.secretAccessKey },
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        maxAttempts: 3,
      }),
    }));
    // a broken SDK install shows on the first call, not as an unhandled rejection at start
    this.ready.catch(() => undefined);
  }

  close(): void {
    void this.ready.then(({ client }) => client.destroy()).catch(() => undefined);
  }
}

/** One area of the bucket: the keys under a prefix ('' for the bucket's top). */
class S3Store implements FileStore {
  readonly kind = 's3';
  private readonly bucket: string;

  constructor(
    private readonly s3: S3Connection,
    private readonly prefix: string,
  ) {
    this.bucket = s3.at.bucket;
  }

  private key(key: string): string {
    return this.prefix ? `${this.prefix}/${key}` : key;
  }

  async put(key: string, data: Buffer, contentType?: string): Promise<void> {
    const { sdk, client } = await this.s3.ready;
    await client.send(
      new sdk.PutObjectCommand({
        Bucket: this.bucket,
        Key: this.key(key),
        Body: data,
        ContentLength: data.length,
        ContentType: contentType ?? 'application/octet-stream',
      }),
    );
  }

  /**
   * One PUT streamed from the file with its length (the SDK signs a stream's payload as unsigned
   * and sends it as it reads): memory stays flat whatever the size, up to S3's 5 GB for one PUT,
   * far above a 5,000-badge PDF (about 40 MB). A failed try is not retried by the SDK (a stream
   * cannot be read twice); the caller's job fails and can be started again.
   */
  async putFile(key: string, file: string, contentType?: string): Promise<void> {
    const { sdk, client } = await this.s3.ready;
    const { size } = await fsp.stat(file);
    await client.send(
      new sdk.PutObjectCommand({
        Bucket: this.bucket,
        Key: this.key(key),
        Body: fs.createReadStream(file),
        ContentLength: size,
        ContentType: contentType ?? 'application/octet-stream',
      }),
    );
  }

  async scratch(key: string): Promise<string> {
    return scratchPath(key);
  }

  async stat(key: string): Promise<{ size: number } | null> {
    const { sdk, client } = await this.s3.ready;
    try {
      const head = await client.send(new sdk.HeadObjectCommand({ Bucket: this.bucket, Key: this.key(key) }));
      return { size: head.ContentLength ?? 0 };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  read(key: string): Readable {
    const out = new PassThrough();
    this.s3.ready
      .then(({ sdk, client }) => client.send(new sdk.GetObjectCommand({ Bucket: this.bucket, Key: this.key(key) })))
      .then(
        (res) => {
          const body = res.Body as Readable;
          body.on('error', (e) => out.destroy(e));
          // a reader that went away (a download cut short) ends the bucket's stream too
          out.on('close', () => body.destroy());
          body.pipe(out);
        },
        (error) => out.destroy(missingAsEnoent(error, key)),
      );
    return out;
  }

  async readBuffer(key: string): Promise<Buffer> {
    const { sdk, client } = await this.s3.ready;
    try {
      const res = await client.send(new sdk.GetObjectCommand({ Bucket: this.bucket, Key: this.key(key) }));
      return Buffer.from(await (res.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray());
    } catch (error) {
      throw missingAsEnoent(error, key);
    }
  }

  async list(folder: string): Promise<StoredFile[]> {
    const { sdk, client } = await this.s3.ready;
    const under = folder ? `${this.key(folder)}/` : this.prefix ? `${this.prefix}/` : '';
    const strip = this.prefix ? this.prefix.length + 1 : 0;
    const found: StoredFile[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(
        new sdk.ListObjectsV2Command({ Bucket: this.bucket, Prefix: under || undefined, ContinuationToken: token }),
      );
      for (const item of page.Contents ?? [])
        if (item.Key) found.push({ key: item.Key.slice(strip), size: item.Size ?? 0 });
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return found;
  }

  async remove(key: string): Promise<void> {
    const { sdk, client } = await this.s3.ready;
    // S3 answers a delete of a missing key with success, as `rm --force` does
    await client.send(new sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: this.key(key) }));
  }

  /** A bucket has no folders: each object under the prefix is deleted (a few at a time). */
  async removeFolder(folder: string): Promise<void> {
    const keys = (await this.list(folder)).map((f) => f.key);
    for (let i = 0; i < keys.length; i += DELETE_CONCURRENCY)
      await Promise.all(keys.slice(i, i + DELETE_CONCURRENCY).map((key) => this.remove(key)));
  }
}

function isMissing(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

function missingAsEnoent(error: unknown, key: string): Error {
  return isMissing(error)
    ? Object.assign(new Error(`no such file: ${key}`), { code: 'ENOENT', cause: error })
    : (error as Error);
}
