import { useTranslation } from 'react-i18next';

/**
 * Where Mantine puts every menu, list of options, dialog and toast: its shared portal node, made here
 * rather than by Mantine (which looks for it by this attribute), as a labelled region, so that what
 * pops up is inside a landmark too (axe's `region` rule, issue 15). Rendered beside the router, so it
 * outlives every page.
 */
export function PortalRegion() {
  const { t } = useTranslation();
  // a section with a name is a region landmark
  return <section data-portal="true" data-mantine-shared-portal-node="true" aria-label={t('a11y.popups')} />;
}
