import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { once } from '../testing/hardware.js';
import { type HidBackend, type HidDeviceInfo, HidReader } from './hid-reader.js';
import { decodeKeyboardReports, KeyboardReportDecoder, parsePosReport, usageToChar } from './hid-report.js';
import type { ReaderStatus, Scan } from './reader.js';

const hex = (text: string) => Uint8Array.from(Buffer.from(text.replace(/\s/g, ''), 'hex'));

// "Ab-1" and "K7QF2M9" as a scanner in USB HID keyboard mode sends them (boot keyboard reports): a
// report with the key down, then one with all keys up; shift for capitals and symbols.
const SCAN_AB1 = [
  '02 00 04 00 00 00 00 00', // shift + a → A
  '00 00 00 00 00 00 00 00',
  '00 00 05 00 00 00 00 00', // b
  '00 00 00 00 00 00 00 00',
  '00 00 2d 00 00 00 00 00', // -
  '00 00 00 00 00 00 00 00',
  '00 00 1e 00 00 00 00 00', // 1
  '00 00 00 00 00 00 00 00',
  '00 00 28 00 00 00 00 00', // Enter
  '00 00 00 00 00 00 00 00',
].map(hex);

const SCAN_K7QF2M9 = [
  '02 00 0e 00 00 00 00 00',
  '00 00 00 00 00 00 00 00',
  '00 00 24 00 00 00 00 00',
  '00 00 00 00 00 00 00 00',
  '20 00 14 00 00 00 00 00', // right shift + q → Q
  '00 00 00 00 00 00 00 00',
  '02 00 09 00 00 00 00 00',
  '00 00 00 00 00 00 00 00',
  '00 00 1f 00 00 00 00 00',
  '00 00 00 00 00 00 00 00',
  '02 00 10 00 00 00 00 00',
  '00 00 00 00 00 00 00 00',
  '00 00 26 00 00 00 00 00',
  '00 00 00 00 00 00 00 00',
  '00 00 58 00 00 00 00 00', // keypad Enter
  '00 00 00 00 00 00 00 00',
].map(hex);

// A scanner in HID POS mode (usage page 0x8C): report id 0x02, length, data, padding.
const POS_REPORT = hex(`02 0a ${Buffer.from('4006381234').toString('hex')} 00 00 00 00 00 00 00 00 00 00 00 00 00 00`);

describe('HID keyboard reports', () => {
  it('turns recorded scans into codes, with shift and Enter or keypad Enter', () => {
    expect(decodeKeyboardReports([...SCAN_AB1, ...SCAN_K7QF2M9])).toEqual(['Ab-1', 'K7QF2M9']);
  });

  it('counts a repeated character once per press (key up in between), not while it is held', () => {
    const reports = ['00 00 1e', '00 00 00', '00 00 1e', '00 00 1e', '00 00 00', '00 00 28', '00 00 00'].map((r) =>
      hex(`${r} 00 00 00 00 00`),
    );
    expect(decodeKeyboardReports(reports)).toEqual(['11']);
  });

  it('reads fast scanners that roll keys (the next key down before the previous one is up)', () => {
    const reports = ['00 00 04', '00 00 04 05', '00 00 05 06', '00 00 28', '00 00 00'].map((r) =>
      hex(r.padEnd(23, ' 00')),
    );
    expect(decodeKeyboardReports(reports)).toEqual(['abc']);
  });

  it('drops a report id byte (9-byte reports), skips rollover errors and empty codes', () => {
    const decoder = new KeyboardReportDecoder();
    expect(decoder.push(hex('01 00 00 28 00 00 00 00 00'))).toEqual([]); // Enter alone: no code
    expect(decoder.push(hex('01 00 00 00 00 00 00 00 00'))).toEqual([]);
    expect(decoder.push(hex('01 00 00 01 01 01 01 01 01'))).toEqual([]); // ErrorRollOver
    expect(decoder.push(hex('01 00 00 27 00 00 00 00 00'))).toEqual([]); // 0
    expect(decoder.push(hex('01 00 00 28 00 00 00 00 00'))).toEqual(['0']);
  });

  it('maps the US layout, shifted symbols and the keypad', () => {
    expect(usageToChar(0x1f, true)).toBe('@');
    expect(usageToChar(0x38, false)).toBe('/');
    expect(usageToChar(0x38, true)).toBe('?');
    expect(usageToChar(0x62, true)).toBe('0');
    expect(usageToChar(0x3a, false)).toBeUndefined(); // F1 makes no character
  });
});

describe('HID POS scanner reports', () => {
  it('takes the data of the given length after the report id', () => {
    expect(parsePosReport(POS_REPORT)).toBe('4006381234');
  });
  it('works without a report id and drops a trailing CR', () => {
    expect(parsePosReport(hex(`04 ${Buffer.from('AB1\r').toString('hex')} 00 00`), { hasReportId: false })).toBe('AB1');
  });
  it('gives nothing for an empty or truncated report', () => {
    expect(parsePosReport(hex('02 00 00 00'))).toBeNull();
    expect(parsePosReport(hex('02 09 41 42'))).toBeNull();
    expect(parsePosReport(hex('02'))).toBeNull();
  });
});

/** node-hid at its boundary: a changing device list and devices that emit reports. */
class FakeHid implements HidBackend {
  connected: HidDeviceInfo[] = [];
  opened: FakeDevice[] = [];
  HIDAsync = {
    open: async (path: string) => {
      if (!this.connected.some((d) => d.path === path)) throw new Error(`cannot open device with path ${path}`);
      const device = new FakeDevice(path);
      this.opened.push(device);
      return device;
    },
  };
  async devicesAsync() {
    return [...this.connected];
  }
  get last() {
    return this.opened.at(-1)!;
  }
}

class FakeDevice extends EventEmitter {
  closed = false;
  constructor(readonly path: string) {
    super();
  }
  async close() {
    this.closed = true;
  }
  report(bytes: Uint8Array) {
    this.emit('data', Buffer.from(bytes));
  }
}

const SCANNER = { vendorId: 0x05e0, productId: 0x1200, path: '/dev/hidraw3', usagePage: 0x01, product: 'Symbol' };

describe('HID reader', () => {
  it('opens the device by vendor and product id and emits keyboard scans with its direction', async () => {
    const hid = new FakeHid();
    hid.connected = [{ vendorId: 0x1234, productId: 1, path: '/dev/hidraw0' }, SCANNER];
    const reader = new HidReader({ id: 'usb', vendorId: 0x05e0, productId: 0x1200, direction: 'entry' }, hid);
    const scans: Scan[] = [];
    reader.on('scan', (s) => scans.push(s));
    await reader.open();
    expect(reader.status?.status).toBe('open');
    expect(hid.last.path).toBe('/dev/hidraw3');
    for (const report of SCAN_AB1) hid.last.report(report);
    expect(scans.map((s) => [s.readerId, s.code, s.direction])).toEqual([['usb', 'Ab-1', 'entry']]);
    await reader.close();
    expect(hid.last.closed).toBe(true);
  });

  it('picks the POS interface of a scanner that also lists a keyboard one, and reads POS reports', async () => {
    const hid = new FakeHid();
    hid.connected = [SCANNER, { ...SCANNER, path: '/dev/hidraw4', usagePage: 0x8c }];
    const reader = new HidReader({ id: 'pos', vendorId: SCANNER.vendorId, productId: SCANNER.productId }, hid);
    const scan = once<Scan>(reader as unknown as EventEmitter, 'scan');
    await reader.open();
    expect(hid.last.path).toBe('/dev/hidraw4');
    hid.last.report(POS_REPORT);
    expect((await scan).code).toBe('4006381234');
    await reader.close();
  });

  it('reports closed when the device fails, retries while it is missing, and reopens when it is back', async () => {
    const hid = new FakeHid();
    hid.connected = [SCANNER];
    const reader = new HidReader(
      { id: 'hot', vendorId: SCANNER.vendorId, productId: SCANNER.productId, retry: { initialMs: 5, maxMs: 20 } },
      hid,
    );
    const events = reader as unknown as EventEmitter;
    const statuses: string[] = [];
    reader.on('status', (s) => statuses.push(s.status));
    await reader.open();
    const first = hid.last;

    hid.connected = [];
    const closed = once<ReaderStatus>(events, 'status', (s) => s.status === 'closed');
    first.emit('error', new Error('could not read from HID device'));
    expect((await closed).message).toContain('could not read');
    const missing = await once<ReaderStatus>(events, 'status', (s) => s.status === 'error');
    expect(missing.message).toContain('05e0:1200');
    expect(first.closed).toBe(true);

    const reopened = once<ReaderStatus>(events, 'status', (s) => s.status === 'reopened');
    hid.connected = [SCANNER];
    await reopened;
    expect(hid.opened).toHaveLength(2);
    const scans: string[] = [];
    reader.on('scan', (s) => scans.push(s.code));
    for (const report of SCAN_K7QF2M9) hid.last.report(report);
    first.report(SCAN_AB1[0]); // the dead handle is not listened to any more
    expect(scans).toEqual(['K7QF2M9']);
    expect(statuses[0]).toBe('open');
    expect(statuses.at(-1)).toBe('reopened');
    await reader.close();
  });
});
