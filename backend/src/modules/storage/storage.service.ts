import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { parseStorageUrl, type S3Location } from './storage-url.js';

const SAFE_KEY = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_.-]+)*$/;

/** Where the files are: a folder (the default) or an S3-compatible bucket. */
interface FileStore {
  put(key: string, data: Buffer, contentType?: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  /** the file's bytes; a missing file is an 'error' event with code ENOENT (as fs streams give) */
  read(key: string): Readable;
  remove(key: string): Promise<void>;
  close(): void;
}

/**
 * File storage behind one interface (photos, logos, gallery images): local files under
 * DATA_DIR/files by default, or an S3-compatible bucket when STORAGE_URL is set (issue 16, several
 * instances behind one address share their files there). Keys are relative paths made by the
 * application (`<subject path>/images/<uuid>.png`), checked so no key can leave the storage folder
 * or the bucket's prefix. The files' URLs are the application's own (`/api/file/{key}` and the
 * image routes), streamed through the server in both cases: nothing about the bucket is shown.
 */
@Injectable()
export class StorageService implements OnApplicationShutdown {
  private readonly store: FileStore;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const s3 = config.storageUrl ? parseStorageUrl(config.storageUrl) : null;
    this.store = s3 ? new S3Store(s3) : new LocalStore(path.join(config.dataDir, 'files'));
  }

  /** 'local' or 's3' (health and logs). */
  get kind(): 'local' | 's3' {
    return this.store instanceof S3Store ? 's3' : 'local';
  }

  put(key: string, data: Buffer, contentType?: string): Promise<void> {
    return this.store.put(checked(key), data, contentType);
  }

  exists(key: string): Promise<boolean> {
    return this.store.exists(checked(key));
  }

  read(key: string): Readable {
    return this.store.read(checked(key));
  }

  remove(key: string): Promise<void> {
    return this.store.remove(checked(key));
  }

  onApplicationShutdown(): void {
    this.store.close();
  }
}

function checked(key: string): string {
  if (!SAFE_KEY.test(key) || key.includes('..')) throw new Error(`unsafe storage key: ${key}`);
  return key;
}

class LocalStore implements FileStore {
  constructor(private readonly root: string) {}

  private file(key: string): string {
    return path.join(this.root, key);
  }

  async put(key: string, data: Buffer): Promise<void> {
    const file = this.file(key);
    await fsp.mkdir(path.dirname(file), { recursive: true });
    // Write then rename: a reader never sees half a file.
    const tmp = `${file}.${process.pid}.tmp`;
    await fsp.writeFile(tmp, data);
    await fsp.rename(tmp, file);
  }

  async exists(key: string): Promise<boolean> {
    try {
      await fsp.access(this.file(key));
      return true;
    } catch {
      return false;
    }
  }

  read(key: string): Readable {
    return fs.createReadStream(this.file(key));
  }

  async remove(key: string): Promise<void> {
    await fsp.rm(this.file(key), { force: true });
  }

  close(): void {}
}

type S3 = typeof import('@aws-sdk/client-s3');

/**
 * A bucket through @aws-sdk/client-s3 (loaded only when configured). Checksums only where S3
 * requires them: S3-compatible servers (MinIO, Ceph, s3rver) do not all take the SDK's default
 * chunked CRC trailers. The SDK retries a failed call a bounded number of times (3).
 */
class S3Store implements FileStore {
  private readonly client: Promise<{ sdk: S3; client: InstanceType<S3['S3Client']> }>;

  constructor(private readonly at: S3Location) {
    this.client = import('@aws-sdk/client-s3').then((sdk) => ({
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
    this.client.catch(() => undefined);
  }

  private key(key: string): string {
    return this.at.prefix ? `${this.at.prefix}/${key}` : key;
  }

  async put(key: string, data: Buffer, contentType?: string): Promise<void> {
    const { sdk, client } = await this.client;
    await client.send(
      new sdk.PutObjectCommand({
        Bucket: this.at.bucket,
        Key: this.key(key),
        Body: data,
        ContentLength: data.length,
        ContentType: contentType ?? 'application/octet-stream',
      }),
    );
  }

  async exists(key: string): Promise<boolean> {
    const { sdk, client } = await this.client;
    try {
      await client.send(new sdk.HeadObjectCommand({ Bucket: this.at.bucket, Key: this.key(key) }));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  read(key: string): Readable {
    const out = new PassThrough();
    this.client
      .then(({ sdk, client }) => client.send(new sdk.GetObjectCommand({ Bucket: this.at.bucket, Key: this.key(key) })))
      .then(
        (res) => {
          const body = res.Body as Readable;
          body.on('error', (e) => out.destroy(e));
          body.pipe(out);
        },
        (error) => {
          if (isMissing(error))
            out.destroy(Object.assign(new Error(`no such file: ${key}`), { code: 'ENOENT', cause: error }));
          else out.destroy(error as Error);
        },
      );
    return out;
  }

  async remove(key: string): Promise<void> {
    const { sdk, client } = await this.client;
    // S3 answers a delete of a missing key with success, as `rm --force` does
    await client.send(new sdk.DeleteObjectCommand({ Bucket: this.at.bucket, Key: this.key(key) }));
  }

  close(): void {
    void this.client.then(({ client }) => client.destroy()).catch(() => undefined);
  }
}

function isMissing(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}
