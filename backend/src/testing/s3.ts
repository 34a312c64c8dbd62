import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

export interface TestS3 {
  port: number;
  /** STORAGE_URL of a bucket (and a folder in it) on this server */
  storageUrl(bucket: string, prefix?: string): string;
  /** a client of the server, to look into the buckets behind the application's back */
  client: S3Client;
  /** every object of a bucket under a prefix, with its size, sorted by key */
  objects(bucket: string, prefix?: string): Promise<{ key: string; size: number }[]>;
  close(): Promise<void>;
}

/**
 * A real S3 protocol server (s3rver) on a free port of 127.0.0.1, its buckets made, its data in a
 * temporary folder removed at close: the files' tests with STORAGE_URL (storage-s3.spec.ts,
 * pdf-job-s3.spec.ts, scale-out.spec.ts).
 */
export async function startS3(buckets: string[]): Promise<TestS3> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'accredo-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: dir,
    configureBuckets: buckets.map((name) => ({ name })),
  });
  const { port } = await server.run();
  const client = new S3Client({
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  return {
    port,
    storageUrl: (bucket, prefix) => `s3+http://S3RVER:S3RVER@127.0.0.1:${port}/${bucket}${prefix ? `/${prefix}` : ''}`,
    client,
    async objects(bucket, prefix) {
      const found: { key: string; size: number }[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
        );
        for (const item of page.Contents ?? []) found.push({ key: item.Key ?? '', size: item.Size ?? 0 });
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return found.sort((a, b) => a.key.localeCompare(b.key));
    },
    async close() {
      client.destroy();
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
