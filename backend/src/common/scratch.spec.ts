import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SCRATCH_MAX_AGE_MS, scratchPath, sweepScratch } from './scratch.js';

describe('temporary files left by a killed process', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scratch-spec-'));
  afterEach(() => {
    for (const name of fs.readdirSync(dir)) fs.rmSync(path.join(dir, name), { recursive: true, force: true });
  });

  const make = (file: string, ageMs: number) => {
    fs.writeFileSync(file, 'x');
    const at = (Date.now() - ageMs) / 1000;
    fs.utimesSync(file, at, at);
    return file;
  };

  it('removes only our files untouched for a day: not fresh ones, not others, not folders', async () => {
    const day = SCRATCH_MAX_AGE_MS;
    const oldMerge = make(scratchPath('badges.pdf', dir), day + 60_000);
    const oldSpill = make(path.join(dir, 'accredo-import-0b7c2a9e-4f7d-4c38-9a51-2f0e3c7d9a10.ndjson'), day + 1);
    const freshMerge = make(scratchPath('badges.pdf', dir), day - 60_000);
    const foreign = make(path.join(dir, 'accredo-notes.txt'), 10 * day);
    const other = make(path.join(dir, 'something-0b7c2a9e-4f7d-4c38-9a51-2f0e3c7d9a10-badges.pdf'), 10 * day);
    const folder = scratchPath('pdf-jobs', dir);
    fs.mkdirSync(folder);
    const at = (Date.now() - 10 * day) / 1000;
    fs.utimesSync(folder, at, at);

    expect(path.basename(oldMerge)).toMatch(/^accredo-[0-9a-f-]{36}-badges\.pdf$/);
    expect(await sweepScratch(dir)).toBe(2);
    const left = fs.readdirSync(dir).sort();
    expect(left).toEqual([freshMerge, foreign, other, folder].map((f) => path.basename(f)).sort());
    expect(fs.existsSync(oldSpill)).toBe(false);
    // nothing more to do the second time; a missing folder is no error
    expect(await sweepScratch(dir)).toBe(0);
    expect(await sweepScratch(path.join(dir, 'missing'))).toBe(0);
  });
});

describe('the sweep at start', () => {
  it('a starting server removes a day-old temporary file of a killed process from the system temporary folder', async () => {
    const { createTestApp } = await import('../testing/test-app.js');
    // os.tmpdir() reads TMPDIR at each call: the app's sweep looks into this folder
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scratch-boot-'));
    const left = scratchPath('import.ndjson', dir);
    fs.writeFileSync(left, '[]\n');
    const at = (Date.now() - SCRATCH_MAX_AGE_MS - 60_000) / 1000;
    fs.utimesSync(left, at, at);
    const fresh = scratchPath('badges.pdf', dir);
    fs.writeFileSync(fresh, 'x');
    const before = process.env.TMPDIR;
    process.env.TMPDIR = dir;
    try {
      const t = await createTestApp();
      try {
        await expect.poll(() => fs.existsSync(left), { timeout: 10_000 }).toBe(false);
        expect(fs.existsSync(fresh)).toBe(true);
      } finally {
        await t.close();
      }
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
