import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * `npm ci` refuses a lock file that lacks an optional dependency of a locked package (for example
 * the platform binaries of @biomejs/biome), even for platforms it would not install: a fresh
 * deployment then fails. Every optional dependency must be locked.
 */
interface LockedPackage {
  version?: string;
  optionalDependencies?: Record<string, string>;
}

const root = path.resolve(import.meta.dirname, '..');
const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
  lockfileVersion: number;
  packages: Record<string, LockedPackage>;
};

/** Where npm would resolve `name` from the package at `at` (its own node_modules, then upwards). */
function resolve(at: string, name: string): string | undefined {
  let dir = at;
  for (;;) {
    const candidate = `${dir ? `${dir}/` : ''}node_modules/${name}`;
    if (lock.packages[candidate]) return candidate;
    const up = dir.lastIndexOf('/node_modules/');
    if (up < 0) return lock.packages[`node_modules/${name}`] ? `node_modules/${name}` : undefined;
    dir = dir.slice(0, up);
  }
}

describe('package-lock.json', () => {
  it('is a v3 lock', () => {
    expect(lock.lockfileVersion).toBe(3);
  });

  it('locks every optional dependency of every locked package, so npm ci accepts it', () => {
    const missing: string[] = [];
    for (const [at, pkg] of Object.entries(lock.packages)) {
      for (const name of Object.keys(pkg.optionalDependencies ?? {})) {
        if (!resolve(at, name)) missing.push(`${name} (optional dependency of ${at || 'the root'})`);
      }
    }
    expect(missing).toEqual([]);
  });
});
