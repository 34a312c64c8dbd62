/** A catalogue as i18next reads it: nested objects of texts. */
export type Tree = { [k: string]: string | Tree };

function merge(target: Tree, source: Tree): Tree {
  for (const [k, v] of Object.entries(source)) {
    target[k] = v && typeof v === 'object' ? merge((target[k] as Tree) ?? {}, v) : v;
  }
  return target;
}

/**
 * One language's catalogue: a deep copy of the base file with the area catalogues (one folder per
 * feature area, the same four files) merged in, in order. The one merge of the server (index.ts)
 * and the browser (web/src/app/i18n.ts, which loads one language at a time).
 */
export function buildCatalogue<T extends object>(base: T, areas: readonly object[]): T {
  return areas.reduce<Tree>((acc, area) => merge(acc, area as Tree), merge({}, base as Tree)) as T;
}
