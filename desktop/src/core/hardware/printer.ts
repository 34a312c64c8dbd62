import { spawn } from 'node:child_process';

/** A printer as the system lists it. */
export interface PrinterInfo {
  name: string;
  isDefault: boolean;
}

export interface PrintOptions {
  printer: string;
  copies?: number;
  /** The job's title in the queue (e.g. the person's name). */
  title?: string;
}

export interface PrintJob {
  /** CUPS's request id, e.g. `accredo-pdf-12`. */
  jobId: string;
}

export class PrinterError extends Error {
  constructor(
    readonly code: 'CUPS_MISSING' | 'CUPS_NOT_RUNNING' | 'PRINTER_NOT_FOUND' | 'PRINT_FAILED',
    message: string,
  ) {
    super(message);
    this.name = 'PrinterError';
  }
}

/** The badge printer of a desk: the system's printers and PDF printing (CUPS in the headless core). */
export interface Printer {
  list(): Promise<PrinterInfo[]>;
  print(pdf: string | Buffer, options: PrintOptions): Promise<PrintJob>;
}

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], input?: Buffer): Promise<Result> {
  return new Promise((resolve, reject) => {
    // LANG=C: lp and lpstat translate their output, and we parse it.
    const child = spawn(command, args, { env: { ...process.env, LANG: 'C', LC_ALL: 'C' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT')
        reject(
          new PrinterError(
            'CUPS_MISSING',
            `CUPS is not installed ("${command}" not found): install it with apt-get install -y cups cups-client`,
          ),
        );
      else reject(new PrinterError('PRINT_FAILED', `${command}: ${error.message}`));
    });
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  });
}

function failure(command: string, result: Result, printer?: string): PrinterError {
  const text = (result.stderr || result.stdout).trim();
  if (/scheduler is not running|connect.*(refused|No such file)|Bad file descriptor/i.test(text))
    return new PrinterError('CUPS_NOT_RUNNING', `The CUPS scheduler is not running (${command}: ${text})`);
  if (printer && /does not exist|unknown destination|not found/i.test(text))
    return new PrinterError('PRINTER_NOT_FOUND', `No printer "${printer}" (${command}: ${text})`);
  return new PrinterError('PRINT_FAILED', `${command} failed: ${text || `exit ${result.code}`}`);
}

/** `lpstat -e` names the destinations; `lpstat -d` the default one. */
export function parseDestinations(names: string, defaultLine: string): PrinterInfo[] {
  const byDefault = /system default destination:\s*(\S+)/.exec(defaultLine)?.[1];
  return names
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((name) => ({ name, isDefault: name === byDefault }));
}

/** `request id is accredo-pdf-3 (1 file(s))` → `accredo-pdf-3`. */
export function parseJobId(output: string): string | null {
  return /request id is (\S+)/.exec(output)?.[1] ?? null;
}

/** Printing through CUPS's command-line tools (`lpstat`, `lp`), as the headless station does. */
export class CupsPrinter implements Printer {
  constructor(private readonly bin: { lp?: string; lpstat?: string } = {}) {}

  async list(): Promise<PrinterInfo[]> {
    const lpstat = this.bin.lpstat ?? 'lpstat';
    const names = await run(lpstat, ['-e']);
    if (names.code !== 0) {
      // Old CUPS without -e: the accepting destinations of -a, first word of each line.
      const accepting = await run(lpstat, ['-a']);
      if (accepting.code !== 0) {
        if (/no destinations/i.test(accepting.stderr + accepting.stdout)) return [];
        throw failure('lpstat', accepting);
      }
      names.stdout = accepting.stdout
        .split('\n')
        .map((line) => line.split(/\s/)[0])
        .join('\n');
    }
    const byDefault = await run(lpstat, ['-d']);
    return parseDestinations(names.stdout, byDefault.stdout);
  }

  async print(pdf: string | Buffer, options: PrintOptions): Promise<PrintJob> {
    const copies = Math.max(1, Math.min(99, Math.trunc(options.copies ?? 1)));
    const args = ['-d', options.printer, '-n', String(copies), '-o', 'document-format=application/pdf'];
    if (options.title) args.push('-t', options.title);
    // A file path goes after `--`; a buffer goes through stdin (lp's "-" file).
    const input = typeof pdf === 'string' ? undefined : pdf;
    args.push('--', typeof pdf === 'string' ? pdf : '-');
    const result = await run(this.bin.lp ?? 'lp', args, input);
    if (result.code !== 0) throw failure('lp', result, options.printer);
    const jobId = parseJobId(result.stdout);
    if (!jobId) throw new PrinterError('PRINT_FAILED', `lp gave no job id: ${result.stdout.trim()}`);
    return { jobId };
  }
}
