import { randomUUID } from 'node:crypto';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * The application's temporary files in the system's temporary folder (an import's spill of checked
 * rows, a PDF job's merge before it is streamed up to the bucket): `accredo-<uuid>-<name>`. Each is
 * removed by the code that made it, but a process killed mid-way (a crash, `kill -9`, a power cut)
 * leaves its file behind; `sweepScratch` removes those at start and hourly (StorageService).
 */
export function scratchPath(name: string, dir = os.tmpdir()): string {
  return path.join(dir, `accredo-${randomUUID()}-${path.basename(name)}`);
}

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/** ours: scratchPath's names, and the import spill's own name of versions before 2026-11-28 (accredo-import-<uuid>.ndjson) */
const OURS = new RegExp(`^accredo-(?:${UUID}-[A-Za-z0-9_.-]+|import-${UUID}\\.ndjson)$`);

/** No import or PDF merge writes to one file for this long: an older file's process is gone. */
export const SCRATCH_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/**
 * Removes our temporary files not written to for `maxAgeMs` (files only, never a folder; other
 * instances on the same machine may be using the fresh ones). Answers how many it removed.
 */
export async function sweepScratch(
  dir = os.tmpdir(),
  maxAgeMs = SCRATCH_MAX_AGE_MS,
  now = Date.now(),
): Promise<number> {
  let names: string[];
  try {
    names = await fsp.readdir(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    if (!OURS.test(name)) continue;
    const file = path.join(dir, name);
    try {
      const stat = await fsp.lstat(file);
      if (!stat.isFile() || now - stat.mtimeMs < maxAgeMs) continue;
      await fsp.unlink(file);
      removed++;
    } catch {
      // gone meanwhile (its process finished, or another instance swept it)
    }
  }
  return removed;
}
