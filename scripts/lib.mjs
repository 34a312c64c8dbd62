import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..');

/** Runs a command with inherited output; resolves with its exit code. */
export function run(cmd, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: 'inherit', shell: false, ...options });
    child.on('exit', (code, signal) => resolve(signal ? 1 : (code ?? 1)));
    child.on('error', (err) => {
      console.error(`${cmd}: ${err.message}`);
      resolve(1);
    });
  });
}

export async function must(cmd, args, options) {
  const code = await run(cmd, args, options);
  if (code !== 0) {
    console.error(`\n✗ ${cmd} ${args.join(' ')} failed (exit ${code})`);
    process.exit(code);
  }
}

/** Newest modification time of the files under the given paths (skipping build output). */
export function newest(...paths) {
  let max = 0;
  const walk = (p) => {
    let st;
    try {
      st = fs.statSync(p);
    } catch {
      return;
    }
    if (st.isDirectory()) {
      const base = path.basename(p);
      if (['node_modules', 'dist', '.git', 'test-results'].includes(base)) return;
      for (const e of fs.readdirSync(p)) walk(path.join(p, e));
    } else max = Math.max(max, st.mtimeMs);
  };
  for (const p of paths) walk(path.join(root, p));
  return max;
}

export function mtime(p) {
  try {
    return fs.statSync(path.join(root, p)).mtimeMs;
  } catch {
    return 0;
  }
}

export const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
export const vite = path.join(root, 'node_modules/vite/bin/vite.js');

/**
 * The environment the server process starts in (`npm start`, and the import bench's server):
 * glibc's malloc limited to one arena unless set otherwise. Without it, each thread that
 * allocates (the import's parser worker, libuv's pool) gets an arena of its own that keeps its
 * freed memory: after a 100,000-row import the server held ~60 MiB more RSS than before, with
 * one arena ~35 MiB, and the import's peak fell from 305–311 to ~270 MiB (issue 16; bench/gate.mjs
 * showed no difference in speed). Ignored where the C library is not glibc.
 */
export function serverEnv(env = process.env) {
  return { MALLOC_ARENA_MAX: '1', ...env };
}
