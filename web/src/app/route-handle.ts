/** What a route tells the layout: the breadcrumb label (an i18n key). */
export interface RouteHandle {
  crumb?: string;
}
