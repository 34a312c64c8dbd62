import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hardwareAvailable, once, PtyPair } from '../testing/hardware.js';
import type { ReaderStatus, Scan } from './reader.js';
import { SerialRelay } from './relay.js';
import { SerialReader } from './serial-reader.js';

const socat = hardwareAvailable('socat');

describe.skipIf(!socat)('serial reader over a socat pseudo-terminal pair', () => {
  let pty: PtyPair;
  let reader: SerialReader | null = null;

  beforeEach(async () => {
    pty = new PtyPair();
    await pty.plug();
  });
  afterEach(async () => {
    await reader?.close();
    reader = null;
    await pty.dispose();
  });

  function collect(r: SerialReader) {
    const scans: Scan[] = [];
    const statuses: ReaderStatus['status'][] = [];
    r.on('scan', (scan) => scans.push(scan));
    r.on('status', (status) => statuses.push(status.status));
    return { scans, statuses };
  }

  it('reads CR-terminated codes, split across writes, with the bound direction', async () => {
    reader = new SerialReader({ id: 'left', path: pty.station, baudRate: 115200, direction: 'exit' });
    const { scans, statuses } = collect(reader);
    await reader.open();
    expect(statuses).toEqual(['open']);
    const two = once<Scan>(reader, 'scan', () => scans.length === 2);
    pty.write('ABC');
    pty.write('123\rXYZ-9\r');
    await two;
    expect(scans.map((s) => [s.readerId, s.code, s.direction])).toEqual([
      ['left', 'ABC123', 'exit'],
      ['left', 'XYZ-9', 'exit'],
    ]);
  });

  it('strips prefix and suffix and honours CRLF and a custom hex terminator', async () => {
    reader = new SerialReader({ id: 'r', path: pty.station, terminator: 'CRLF', prefix: ']C0', suffix: '#' });
    const { scans } = collect(reader);
    await reader.open();
    const done = once(reader, 'scan', () => scans.length === 2);
    pty.write(']C0K7QF2M9\r\n');
    pty.write('PLAIN#\r\n');
    await done;
    expect(scans.map((s) => s.code)).toEqual(['K7QF2M9', 'PLAIN']);
    expect(scans[0].direction).toBeUndefined();
    await reader.close();

    reader = new SerialReader({ id: 'etx', path: pty.station, terminator: '0x03' });
    const etx = collect(reader);
    await reader.open();
    const got = once(reader, 'scan');
    pty.write('\x02STX-CODE\x03');
    await got;
    expect(etx.scans.map((s) => s.code)).toEqual(['\x02STX-CODE']);
  });

  it('reports closed when unplugged, reopens when plugged back and reads again', async () => {
    reader = new SerialReader({ id: 'hot', path: pty.station, retry: { initialMs: 20, maxMs: 100 } });
    const { scans, statuses } = collect(reader);
    await reader.open();
    const before = once<Scan>(reader, 'scan');
    pty.write('BEFORE\r');
    expect((await before).code).toBe('BEFORE');

    const closed = once<ReaderStatus>(reader, 'status', (s) => s.status === 'closed');
    await pty.unplug();
    await closed;
    // while unplugged the reader keeps trying (and says so) without giving up
    await once<ReaderStatus>(reader, 'status', (s) => s.status === 'error');
    expect(reader.status?.status).toBe('error');

    const reopened = once<ReaderStatus>(reader, 'status', (s) => s.status === 'reopened');
    await pty.plug();
    await reopened;
    expect(statuses[0]).toBe('open');
    expect(statuses.at(-1)).toBe('reopened');
    expect(statuses).toContain('closed');

    const scan = once<Scan>(reader, 'scan');
    pty.write('AFTER-REPLUG\r');
    expect((await scan).code).toBe('AFTER-REPLUG');
    expect(scans.map((s) => s.code)).toEqual(['BEFORE', 'AFTER-REPLUG']);
  });

  it('starts retrying when the scanner is not there at start, and close() stops the retries', async () => {
    await pty.unplug();
    reader = new SerialReader({ id: 'late', path: pty.station, retry: { initialMs: 20, maxMs: 50 } });
    const { statuses } = collect(reader);
    await reader.open();
    expect(statuses).toEqual(['error']);
    const opened = once<ReaderStatus>(reader, 'status', (s) => s.status === 'open');
    await pty.plug();
    await opened;

    await reader.close();
    const count = statuses.length;
    await pty.unplug();
    await pty.plug();
    // no status after close(): another reader on the same port proves the port is free and quiet
    const other = new SerialReader({ id: 'other', path: pty.station });
    await other.open();
    expect(other.status?.status).toBe('open');
    await other.close();
    expect(statuses).toHaveLength(count);
  });
});

describe.skipIf(!socat)('serial relay over a socat pseudo-terminal pair', () => {
  let pty: PtyPair;
  beforeEach(async () => {
    pty = new PtyPair();
    await pty.plug();
  });
  afterEach(async () => {
    await pty.dispose();
  });

  it('writes the open sequence, then the close sequence after the pulse', async () => {
    const relay = new SerialRelay({ path: pty.station, openHex: 'A0 01 01 A2', closeHex: 'a0:01:00:a1', pulseMs: 30 });
    try {
      await relay.open();
      expect((await pty.read(8)).toString('hex')).toBe('a00101a2a00100a1');
      expect(await relay.test()).toEqual({ ok: true });
      expect((await pty.read(8)).toString('hex')).toBe('a00101a2a00100a1');
    } finally {
      await relay.close();
    }
  });

  it('serialises concurrent openings: pulses never interleave', async () => {
    const relay = new SerialRelay({ path: pty.station, openHex: 'FF0101', closeHex: 'FF0100', pulseMs: 5 });
    try {
      await Promise.all([relay.open(), relay.open(), relay.open()]);
      expect((await pty.read(18)).toString('hex')).toBe('ff0101ff0100'.repeat(3));
    } finally {
      await relay.close();
    }
  });

  it('reports a missing board on test() and works again once it is back', async () => {
    const relay = new SerialRelay({ path: pty.station, openHex: '01', closeHex: '00', pulseMs: 1 });
    try {
      await relay.open();
      expect((await pty.read(2)).toString('hex')).toBe('0100');
      await pty.unplug();
      const result = await relay.test();
      expect(result.ok).toBe(false);
      expect(result.message).toContain(pty.station);
      await pty.plug();
      expect(await relay.test()).toEqual({ ok: true });
      expect((await pty.read(2)).toString('hex')).toBe('0100');
    } finally {
      await relay.close();
    }
  });

  it('refuses a sequence that is not hex', () => {
    expect(() => new SerialRelay({ path: pty.station, openHex: 'A0 0G' })).toThrow(/hex/);
  });
});
