import { type Language, resources } from '@accredo/i18n';
import { afterEach, describe, expect, it } from 'vitest';
import { addCatalogue, applyLanguage, hasCatalogue, i18n, loadLanguage } from './i18n';

// The test setup hands i18next all four catalogues; these tests take some away to see the browser's
// path, where each language is a chunk of its own loaded on demand (issue 15).
const drop = (language: Language) => i18n.removeResourceBundle(language, 'translation');

afterEach(async () => {
  for (const language of ['cs', 'sk', 'en', 'de'] as const) addCatalogue(language, resources[language]);
  await applyLanguage('cs', false);
});

describe('catalogues loaded by language', () => {
  it('loads a missing catalogue as its own module, once', async () => {
    drop('de');
    expect(hasCatalogue('de')).toBe(false);
    const first = loadLanguage('de');
    expect(loadLanguage('de')).toBe(first);
    await first;
    expect(hasCatalogue('de')).toBe(true);
    expect(i18n.getFixedT('de')('basics.save')).toBe(resources.de.basics.save);
  });

  it('switches only once the catalogue is there: the old language stays meanwhile, never bare keys', async () => {
    drop('en');
    const switched = applyLanguage('en', false);
    expect(i18n.language).toBe('cs');
    expect(i18n.t('basics.save')).toBe(resources.cs.basics.save);
    await switched;
    expect(i18n.language).toBe('en');
    expect(i18n.t('basics.save')).toBe(resources.en.basics.save);
    expect(document.documentElement.lang).toBe('en');
  });

  it('switches at once to a loaded language', () => {
    void applyLanguage('sk', false);
    expect(i18n.language).toBe('sk');
    expect(document.documentElement.lang).toBe('sk');
  });

  it('a slow load of an earlier choice does not switch over a later one', async () => {
    drop('de');
    const slow = applyLanguage('de', false);
    await applyLanguage('en', false);
    await slow;
    expect(i18n.language).toBe('en');
  });

  it('remembers the choice only when asked to', async () => {
    await applyLanguage('de', false);
    expect(window.localStorage.getItem('accredo.language')).toBeNull();
    await applyLanguage('en');
    expect(window.localStorage.getItem('accredo.language')).toBe('en');
  });
});
