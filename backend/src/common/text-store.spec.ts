import { describe, expect, it } from 'vitest';
import { TextStore } from './text-store.js';

describe('TextStore', () => {
  it('gives back every text as added, by its number, through its growth', () => {
    const store = new TextStore();
    const texts = Array.from({ length: 5000 }, (_, i) => (i % 7 ? `Příjmení ${i} ${'ž'.repeat(i % 40)}` : ''));
    texts.forEach((t, i) => {
      expect(i % 2 ? store.pushText(t) : store.push(Buffer.from(t))).toBe(i);
    });
    expect(store.size).toBe(texts.length);
    expect(texts.every((t, i) => store.text(i) === t)).toBe(true);
    const probe = Buffer.from(texts[12]);
    expect(store.equals(12, probe, probe.length)).toBe(true);
    expect(store.equals(13, probe, probe.length)).toBe(false);
    expect([store.text(-1), store.text(texts.length), store.text(Number.NaN)]).toEqual(['', '', '']);
  });

  it('fills the room it reserved without growing, and reserves no more than its limit', () => {
    const store = new TextStore();
    store.reserve(200_000);
    const room = store.bytes;
    expect(room.length).toBe(200_000);
    for (let i = 0; i < 1_000; i++) store.pushText(`${'x'.repeat(190)}${String(i).padStart(10, '0')}`);
    expect(store.bytes).toBe(room);
    expect(store.text(999)).toBe(`${'x'.repeat(190)}0000000999`);
    const small = new TextStore(10);
    small.reserve(1_000_000);
    expect(small.bytes.length).toBe(10);
  });

  it('refuses texts past its limit with what it holds in the message, and keeps the texts before', () => {
    const store = new TextStore(10, 'shared strings');
    store.pushText('123456');
    expect(() => store.pushText('12345')).toThrow('shared strings over 10 bytes');
    expect(store.size).toBe(1);
    expect(store.text(0)).toBe('123456');
  });
});
