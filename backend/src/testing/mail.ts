import { randomCode } from '../common/crypto.js';
import type { TestApp } from './test-app.js';
import { AccreditationEntity, searchText } from '../modules/accreditation/accreditation.entity.js';
import { MailQueueEntity } from '../modules/mail/mail-queue.entity.js';

/** Test helpers of the mail suites (not used by the server). */

export const ml = (cs: string) => ({ cs, sk: '', en: '', de: '' });

export interface Person {
  firstname: string;
  lastname: string;
  email: string;
}

/** Inserts people straight into an action (hundreds in a moment) and returns their ids. */
export async function seedPeople(t: TestApp, subjectId: number, actionId: number, people: Person[]): Promise<number[]> {
  const repo = t.ds.getRepository(AccreditationEntity);
  const max = await repo
    .createQueryBuilder('a')
    .select('MAX(a.customId)', 'max')
    .where('a.actionId = :actionId', { actionId })
    .getRawOne<{ max: number | null }>();
  let customId = Number(max?.max ?? 0);
  const now = new Date();
  const ids: number[] = [];
  for (let i = 0; i < people.length; i += 200) {
    const rows = people.slice(i, i + 200).map((p) => {
      const bc = randomCode(16);
      return repo.create({
        ...p,
        subjectId,
        actionId,
        customId: ++customId,
        bc,
        search: searchText({ ...p, bc }),
        days: [],
        fieldValues: {},
        imageId: null,
        printCount: 0,
        credit: null,
        isUnlimited: false,
        source: 'admin',
        createdAt: now,
        updatedAt: now,
      });
    });
    const result = await repo.insert(rows as never);
    ids.push(...result.identifiers.map((x) => Number(x.id)));
  }
  return ids;
}

/** Waits until no mail is waiting or being sent (the workers of whatever instances run). */
export async function waitForQueue(t: Pick<TestApp, 'ds'>, timeoutMs = 60_000): Promise<MailQueueEntity[]> {
  const repo = t.ds.getRepository(MailQueueEntity);
  const until = Date.now() + timeoutMs;
  for (;;) {
    const open = await repo.count({ where: [{ status: 'waiting' }, { status: 'sending' }] });
    if (!open) return repo.find({ order: { id: 'ASC' } });
    if (Date.now() > until) throw new Error(`${open} mails still open after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The decoded parts of a received MIME message: content type, headers and body as text. */
export interface MimePart {
  type: string;
  headers: string;
  /** the decoded text */
  body: string;
  /** the bytes (for images) */
  bytes: Buffer;
}

export function mimeParts(raw: string): MimePart[] {
  const parts: MimePart[] = [];
  const walk = (chunk: string) => {
    const split = chunk.search(/\r?\n\r?\n/);
    const headers = split < 0 ? chunk : chunk.slice(0, split);
    const body = split < 0 ? '' : chunk.slice(split).replace(/^\r?\n\r?\n/, '');
    const unfolded = headers.replace(/\r?\n[ \t]+/g, ' ');
    const type = (/^content-type:\s*([^;\s]+)/im.exec(unfolded)?.[1] ?? 'text/plain').toLowerCase();
    const boundary = /boundary="?([^";\s]+)"?/i.exec(unfolded)?.[1];
    if (type.startsWith('multipart/') && boundary) {
      for (const sub of body.split(`--${boundary}`).slice(1)) {
        if (sub.startsWith('--')) break;
        walk(sub.replace(/^\r?\n/, ''));
      }
      return;
    }
    const encoding = (/^content-transfer-encoding:\s*(\S+)/im.exec(unfolded)?.[1] ?? '7bit').toLowerCase();
    let decoded: string;
    const bytes = encoding === 'base64' ? Buffer.from(body.replace(/\s+/g, ''), 'base64') : Buffer.from(body);
    if (encoding === 'base64') decoded = bytes.toString('utf8');
    else if (encoding === 'quoted-printable') {
      const bytes = body
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/gi, (_, h: string) => `%${h}`)
        .replace(/%(?![0-9A-F]{2})/gi, '%25');
      decoded = decodeURIComponent(bytes.replace(/[^%\x20-\x7E\r\n\t]/g, (c) => encodeURIComponent(c)));
    } else decoded = body;
    parts.push({ type, headers: unfolded, body: decoded, bytes });
  };
  walk(raw);
  return parts;
}

export function htmlPart(raw: string): string {
  return mimeParts(raw).find((p) => p.type === 'text/html')?.body ?? '';
}

export function textPart(raw: string): string {
  return mimeParts(raw).find((p) => p.type === 'text/plain')?.body ?? '';
}
