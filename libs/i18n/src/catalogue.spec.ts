import { allRightPairs, ERRORS } from '@accredo/domain';
import { describe, expect, it } from 'vitest';
import { catalogueKeys, LANGUAGES, resources, translate } from './index.js';

/**
 * Texts that are rightly the same as the English one in another language: brand and format names,
 * units, codes and the words Czech, Slovak and German share with English (E-mail, Logo, Online,
 * Export, Name, Zone …). Any other text equal to the English one is an untranslated leftover.
 */
const SAME_IN_EVERY_LANGUAGE = new Set([
  '–',
  '—',
  'X',
  'Y',
  '[Test]',
  '{{amount}} Kč',
  '{{count}} s',
  '{{count}} min',
  '{{count}} h',
  'E-mail',
  'Export',
  'Import',
  'ID',
  'UID',
  'URL',
  'Link (URL)',
  'HTML',
  'HTML data',
  'PDF',
  'Logo',
  'Online',
  'Offline',
  'Text',
  'Report',
  'Filter',
  'Name',
  'Organisation',
  'Details',
  'Superuser',
  'Zone',
  'Code',
  'Barcode',
  'Optional',
  'Format',
  'Option {{number}}',
  'Version',
  'Person',
]);

describe('message catalogues', () => {
  const cs = new Set(catalogueKeys(resources.cs));

  it.each(LANGUAGES)('%s has exactly the keys of cs, none empty', (lang) => {
    const keys = catalogueKeys(resources[lang]);
    expect(new Set(keys)).toEqual(cs);
    for (const key of keys) expect(translate(lang, key).trim(), key).not.toBe('');
  });

  it.each(['cs', 'sk', 'de'] as const)(
    '%s is translated: no text is the English one, but for names and codes',
    (lang) => {
      const raw = (tree: object, key: string) =>
        key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], tree);
      const same = catalogueKeys(resources[lang]).filter((key) => {
        const text = raw(resources[lang], key);
        return text === raw(resources.en, key) && !SAME_IN_EVERY_LANGUAGE.has(text as string);
      });
      expect(same.map((key) => `${key}: ${raw(resources[lang], key)}`)).toEqual([]);
    },
  );

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

describe('message keys used in code', () => {
  it('exist in the catalogue: every key a schema or the server can answer with', async () => {
    const fs = await import('node:fs');
    const path = await import('node:path');
    const root = path.resolve(import.meta.dirname, '../../..');
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory() && !['node_modules', 'dist'].includes(e.name)) walk(p);
        else if (/\.ts$/.test(e.name) && !/\.spec\.ts$/.test(e.name)) files.push(p);
      }
    };
    walk(path.join(root, 'libs/domain/src'));
    walk(path.join(root, 'backend/src'));
    const cs = new Set(catalogueKeys(resources.cs));
    const used = new Set<string>();
    for (const f of files) {
      const text = fs.readFileSync(f, 'utf8');
      for (const m of text.matchAll(/(?:error|message|key):\s*'([a-zA-Z]+\.[a-zA-Z.]+)'/g)) used.add(m[1]);
    }
    expect(used.size).toBeGreaterThan(20);
    expect([...used].filter((k) => !cs.has(k))).toEqual([]);
  });
});
