import fs from 'node:fs';
import { vi } from 'vitest';

/**
 * Holds every `fs.fdatasync` (the WAL sync of database/sqlite-wal-sync.ts) until the spec lets it
 * go: `release(i)` runs the real sync of the i-th held call, `fail(i)` answers it with an I/O
 * error, `restore()` ends the hold. `walFile` is the log a sync should be of (checked by inode).
 */
export function holdWalSyncs() {
  const held: { fd: number; done: (e: NodeJS.ErrnoException | null) => void }[] = [];
  const real = fs.fdatasync;
  const spy = vi.spyOn(fs, 'fdatasync').mockImplementation(((fd: number, done: never) => {
    held.push({ fd, done });
  }) as never);
  return {
    held,
    release: (i: number) => real(held[i].fd, held[i].done),
    fail: (i: number) => held[i].done(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' })),
    /** is the i-th held sync of this file? */
    isOf: (i: number, file: string) => fs.fstatSync(held[i].fd).ino === fs.statSync(file).ino,
    restore: () => spy.mockRestore(),
  };
}
