import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { BrowserWindow } from 'electron';

/**
 * Silent printing of a badge PDF in the app: Chromium's PDF viewer loads the file in a hidden
 * window and prints it without a dialog on the given printer (the system default when none).
 */
export async function printPdfSilently(pdf: Uint8Array, printer?: string): Promise<{ ok: boolean; message?: string }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'accredo-print-'));
  const file = path.join(dir, 'badge.pdf');
  const window = new BrowserWindow({ show: false, webPreferences: { sandbox: true, plugins: true } });
  try {
    await fs.writeFile(file, pdf);
    await window.loadFile(file);
    return await new Promise((resolve) => {
      window.webContents.print({ silent: true, printBackground: true, deviceName: printer ?? '' }, (ok, reason) =>
        resolve(ok ? { ok } : { ok, message: reason }),
      );
    });
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  } finally {
    window.destroy();
    await fs.rm(dir, { recursive: true, force: true });
  }
}
