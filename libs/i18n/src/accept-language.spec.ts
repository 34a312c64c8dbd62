import { describe, expect, it } from 'vitest';
import { acceptLanguage } from './index.js';

describe('acceptLanguage', () => {
  it.each([
    [undefined, 'cs'],
    ['', 'cs'],
    ['en', 'en'],
    ['de-AT,de;q=0.9,en;q=0.8', 'de'],
    ['fr-FR,fr;q=0.9,en;q=0.5,sk;q=0.7', 'sk'],
    ['en;q=0.5, de;q=0.5', 'en'],
    ['EN-us', 'en'],
    ['sk;q=0, en;q=0.1', 'en'],
    ['fr, ja, *', 'cs'],
    ['en;q=2', 'en'],
    ['cs;q=abc', 'cs'],
  ] as const)('%j → %s', (header, lang) => {
    expect(acceptLanguage(header)).toBe(lang);
  });

  it('takes the list form of a repeated header and ignores what lies past its bounds', () => {
    expect(acceptLanguage(['fr', 'de;q=0.3'])).toBe('de');
    expect(acceptLanguage(`${'fr,'.repeat(30)}en`)).toBe('cs');
    expect(acceptLanguage(`${'x'.repeat(600)},en`)).toBe('cs');
  });
});
