import { describe, expect, it } from 'vitest';
import { foldSearch } from './field-values.js';

describe('foldSearch', () => {
  it.each([
    ['Novák', 'novak'],
    ['ŽLUŤOUČKÝ KŮŇ', 'zlutoucky kun'],
    ['Ďurovičová Ľubica', 'durovicova lubica'],
    ['Weiß Müller', 'weiss muller'],
    ['Łukasz Øster', 'lukasz oster'],
    ['ann@example.com A1B2', 'ann@example.com a1b2'],
  ])('%s → %s', (text, folded) => {
    expect(foldSearch(text)).toBe(folded);
    expect(foldSearch(folded)).toBe(folded);
  });
});
