import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCatalogue, catalogueKeys, LANGUAGE_NAMES, LANGUAGES, resources, translate } from './index.js';
import de from './languages/de.js';

describe('buildCatalogue', () => {
  it('merges the areas deeply into a copy of the base, later areas winning', () => {
    const base = { basics: { save: 'Uložit', cancel: 'Zrušit' } };
    const built = buildCatalogue(base, [{ basics: { cancel: 'Storno' }, action: { title: 'Akce' } }]);
    expect(built).toEqual({ basics: { save: 'Uložit', cancel: 'Storno' }, action: { title: 'Akce' } });
    expect(base).toEqual({ basics: { save: 'Uložit', cancel: 'Zrušit' } });
  });

  it('builds the server catalogues from the same language modules the browser loads', () => {
    expect(resources.de).toBe(de);
  });

  it('names each language as its own catalogue does', () => {
    for (const lang of LANGUAGES) expect(LANGUAGE_NAMES[lang]).toBe(resources[lang].lang[lang]);
  });

  it('merges every area folder of src/locales into each language module', () => {
    const locales = path.join(import.meta.dirname, 'locales');
    const areas = fs.readdirSync(locales, { withFileTypes: true }).filter((e) => e.isDirectory());
    expect(areas.length).toBeGreaterThan(0);
    for (const area of areas) {
      for (const lang of LANGUAGES) {
        const file = JSON.parse(fs.readFileSync(path.join(locales, area.name, `${lang}.json`), 'utf8'));
        // A folder missing from src/languages/{lang}.ts leaves its keys out of the catalogue.
        for (const key of catalogueKeys(file))
          expect(translate(lang, key), `${area.name}/${lang}: ${key}`).not.toBe(key);
      }
    }
  });
});
