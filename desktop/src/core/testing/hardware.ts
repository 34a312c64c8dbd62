import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { EventEmitter } from 'node:events';

export const inCi = process.env.CI === 'true' || process.env.CI === '1';

function has(command: string, args: string[] = ['-V']): boolean {
  try {
    execFileSync(command, args, { stdio: 'ignore' });
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}

/**
 * Whether a hardware test can run here. Outside CI a missing tool skips the test with a message
 * that says how to get it; in CI (CI=true) nothing is skipped: .ci/hardware.sh installs it all.
 */
export function hardwareAvailable(what: 'socat' | 'cups'): boolean {
  const ok = what === 'socat' ? has('socat') : has('lpstat', ['-r']) && cupsRunning();
  if (!ok && !inCi)
    console.warn(
      `! skipping the ${what === 'socat' ? 'serial (socat pseudo-terminal)' : 'CUPS printing'} tests: ` +
        `${what === 'socat' ? 'socat is not installed' : 'CUPS is not installed or not running'}; run .ci/hardware.sh (as root) to set it up`,
    );
  return ok || inCi;
}

function cupsRunning(): boolean {
  try {
    return /is running/.test(execFileSync('lpstat', ['-r'], { encoding: 'utf8', env: { ...process.env, LANG: 'C' } }));
  } catch {
    return false;
  }
}

/** Resolves with the first emission of `event` whose arguments pass `where`. */
export function once<T>(emitter: EventEmitter, event: string, where: (value: T) => boolean = () => true): Promise<T> {
  return new Promise((resolve) => {
    const listener = (value: T) => {
      if (!where(value)) return;
      emitter.off(event, listener);
      resolve(value);
    };
    emitter.on(event, listener);
  });
}

/** Polls a condition on each turn of the event loop's timers (no fixed sleeps), up to a limit. */
export async function until(condition: () => boolean, what: string, limitMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > limitMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * A virtual serial cable: socat joins two pseudo-terminals and links them at `station` (the port the
 * station opens) and `far` (the scanner's or the relay board's end, which the test drives).
 * `unplug()` kills socat (both links vanish, the station's port fails); `plug()` starts it again
 * with the same links.
 */
export class PtyPair {
  readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'accredo-pty-'));
  readonly station = path.join(this.dir, 'station');
  readonly far = path.join(this.dir, 'far');
  #socat: ChildProcess | null = null;
  #farFd: number | null = null;

  async plug(): Promise<void> {
    const socat = spawn(
      'socat',
      ['-d', '-d', `pty,raw,echo=0,link=${this.station}`, `pty,raw,echo=0,link=${this.far}`],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    this.#socat = socat;
    let log = '';
    socat.stderr?.on('data', (chunk) => {
      log += chunk;
    });
    // socat logs "starting data transfer loop" once both ends exist.
    await until(() => /starting data transfer loop/.test(log) || socat.exitCode !== null, 'socat to start');
    if (socat.exitCode !== null) throw new Error(`socat failed: ${log}`);
  }

  async unplug(): Promise<void> {
    this.#closeFar();
    const socat = this.#socat;
    this.#socat = null;
    if (!socat || socat.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      socat.once('exit', () => resolve());
      socat.kill('SIGTERM');
    });
    await until(() => !fs.existsSync(this.station) && !fs.existsSync(this.far), 'the links to go');
  }

  /** Writes on the far end (a scanner sending a code). */
  write(data: string | Buffer) {
    fs.writeSync(this.#far(), typeof data === 'string' ? Buffer.from(data, 'latin1') : data);
  }

  /** Reads what has arrived at the far end until `length` bytes are there (the relay's commands). */
  async read(length: number, limitMs = 10_000): Promise<Buffer> {
    const fd = this.#far();
    const chunks: Buffer[] = [];
    let total = 0;
    const buffer = Buffer.alloc(256);
    const start = Date.now();
    while (total < length) {
      let n = 0;
      try {
        n = fs.readSync(fd, buffer, 0, Math.min(buffer.length, length - total), null);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      }
      if (n > 0) {
        chunks.push(Buffer.from(buffer.subarray(0, n)));
        total += n;
        continue;
      }
      if (Date.now() - start > limitMs) throw new Error(`timed out reading ${length} bytes, got ${total}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return Buffer.concat(chunks);
  }

  async dispose() {
    await this.unplug();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  #far(): number {
    this.#farFd ??= fs.openSync(this.far, fs.constants.O_RDWR | fs.constants.O_NONBLOCK | fs.constants.O_NOCTTY);
    return this.#farFd;
  }

  #closeFar() {
    if (this.#farFd !== null) fs.closeSync(this.#farFd);
    this.#farFd = null;
  }
}
