import type { MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import './skip-link.css';

/** The id of each layout's main landmark, the target of the skip link. */
export const MAIN_ID = 'main-content';

/** Props that make an element the target of the skip link (the layouts' `<main>`). */
export const mainTarget = { id: MAIN_ID, tabIndex: -1 } as const;

/**
 * "Skip to content" (issue 15): the first Tab stop, visible once focused; it moves the focus to the
 * page's main landmark, past the header and the menu. The focus is moved here rather than by the
 * fragment, which would also add `#main-content` to the address.
 */
export function SkipLink() {
  const { t } = useTranslation();
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    const main = document.getElementById(MAIN_ID);
    if (!main) return;
    event.preventDefault();
    main.focus();
    main.scrollIntoView?.({ block: 'start' });
  };
  return (
    <a className="skip-link" href={`#${MAIN_ID}`} onClick={skip}>
      {t('a11y.skipToContent')}
    </a>
  );
}
