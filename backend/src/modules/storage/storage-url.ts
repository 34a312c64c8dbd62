/**
 * STORAGE_URL (issue 16): where the files live when not in DATA_DIR/files.
 *   s3://ACCESS_KEY:SECRET@HOST[:PORT]/BUCKET[/PREFIX][?region=eu-central-1&style=virtual]
 *   s3+http://…  the same over plain HTTP (a MinIO or s3rver on the local network, tests)
 * Key and secret are URL-encoded (a `/` in a secret is `%2F`). Path-style addressing unless
 * `style=virtual` (AWS's own endpoint takes both; most S3-compatible servers only path style).
 */
export interface S3Location {
  endpoint: string;
  region: string;
  bucket: string;
  prefix: string;
  accessKeyId: string;
  secretAccessKey: string;
  pathStyle: boolean;
}

const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const PREFIX = /^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)*$/;

/** The bucket of a STORAGE_URL, or an Error whose message says what is wrong (config check). */
export function parseStorageUrl(value: string): S3Location {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error('must be s3://KEY:SECRET@HOST/BUCKET (or s3+http:// for plain HTTP)');
  }
  const scheme = url.protocol.replace(/:$/, '');
  if (scheme !== 's3' && scheme !== 's3+http' && scheme !== 's3+https')
    throw new Error(`unknown scheme ${scheme}: use s3:// or s3+http://`);
  if (!url.hostname) throw new Error('names no host');
  const accessKeyId = decodeURIComponent(url.username);
  const secretAccessKey = decodeURIComponent(url.password);
  if (!accessKeyId || !secretAccessKey) throw new Error('needs the access key and secret: s3://KEY:SECRET@HOST/BUCKET');
  const [bucket = '', ...rest] = url.pathname.replace(/^\/+|\/+$/g, '').split('/');
  if (!BUCKET.test(bucket))
    throw new Error(`names no usable bucket (${bucket || 'none'}): s3://KEY:SECRET@HOST/BUCKET`);
  const prefix = rest.join('/');
  if (prefix && !PREFIX.test(prefix)) throw new Error(`has an unusable folder in the bucket: ${prefix}`);
  const style = url.searchParams.get('style') ?? 'path';
  if (style !== 'path' && style !== 'virtual') throw new Error('style must be path or virtual');
  const http = scheme === 's3+http';
  return {
    endpoint: `${http ? 'http' : 'https'}://${url.host}`,
    region: url.searchParams.get('region') || 'us-east-1',
    bucket,
    prefix,
    accessKeyId,
    secretAccessKey,
    pathStyle: style === 'path',
  };
}
