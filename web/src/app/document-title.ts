import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useMatches } from 'react-router';
import type { RouteHandle } from './route-handle';

/**
 * The tab's title names the page (issue 15): "Accreditations · Accredo". The route gives the name
 * (its handle's `title`, else its breadcrumb, the deepest route that has one); a page that knows
 * better (a public form naming its event, the not-found page) sets its own over it while it is shown.
 */
export const APP_NAME = 'Accredo';

export const formatTitle = (label: string | null | undefined) => (label ? `${label} · ${APP_NAME}` : APP_NAME);

let routeTitle: string = APP_NAME;
/** The titles pages set, the latest last (a page set over another one, such as an error inside a layout). */
const pageTitles: { title: string }[] = [];

function show() {
  document.title = pageTitles.at(-1)?.title ?? routeTitle;
}

/** The i18n key naming the deepest matched route: its `title`, else its `crumb`. */
export function routeTitleKey(matches: readonly { handle: unknown }[]): string | null {
  for (const match of [...matches].reverse()) {
    const handle = match.handle as RouteHandle | undefined;
    const key = handle?.title ?? handle?.crumb;
    if (key) return key;
  }
  return null;
}

/** Names the tab after the current route, in the UI language; `fallbackKey` where no route names it. */
export function useRouteTitle(fallbackKey?: string): void {
  const { t } = useTranslation();
  const key = routeTitleKey(useMatches()) ?? fallbackKey;
  const title = formatTitle(key ? t(key) : null);
  useEffect(() => {
    routeTitle = title;
    show();
  }, [title]);
}

/** A page's own title (the whole text of the tab), over the route's while the page is shown. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    const entry = { title };
    pageTitles.push(entry);
    show();
    return () => {
      pageTitles.splice(pageTitles.indexOf(entry), 1);
      show();
    };
  }, [title]);
}
