import { allRightPairs, ERRORS } from '@accredo/domain';
import { describe, expect, it } from 'vitest';
import { catalogueKeys, LANGUAGES, resources, translate } from './index.js';

describe('message catalogues', () => {
  const cs = new Set(catalogueKeys(resources.cs));

  it.each(LANGUAGES)('%s has exactly the keys of cs, none empty', (lang) => {
    const keys = catalogueKeys(resources[lang]);
    expect(new Set(keys)).toEqual(cs);
    for (const key of keys) expect(translate(lang, key).trim(), key).not.toBe('');
  });

  it('labels every right of the catalogue and every page', () => {
    for (const [page, action] of allRightPairs()) {
      expect(cs.has(`rights.${page}.${action}`), `${page}.${action}`).toBe(true);
      expect(cs.has(`rightsPage.${page}`), page).toBe(true);
    }
  });

  it('has a message for every error code', () => {
    for (const [code, { key }] of Object.entries(ERRORS)) expect(cs.has(key), code).toBe(true);
  });

  it('interpolates and falls back to Czech for an unknown language', () => {
    expect(translate('en', 'basics.selected', { count: 3 })).toBe('Selected: 3');
    expect(translate('xx', 'basics.save')).toBe('Uložit');
    expect(translate('de', 'no.such.key')).toBe('no.such.key');
  });
});
