/** What a route tells the layout: the breadcrumb label and the tab's title (i18n keys). */
export interface RouteHandle {
  crumb?: string;
  /** names the page in the tab's title where the breadcrumb does not (or there is none) */
  title?: string;
}
