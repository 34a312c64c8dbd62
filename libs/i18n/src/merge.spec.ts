import { describe, expect, it } from 'vitest';
import { buildCatalogue, LANGUAGE_NAMES, LANGUAGES, resources } from './index.js';
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
});
