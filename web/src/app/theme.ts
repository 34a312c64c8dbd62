import { Alert, type CSSVariablesResolver, createTheme, Drawer, Modal, Notification } from '@mantine/core';

/**
 * Colours and radius of the app. Transitions follow the user's reduced-motion setting (the e2e
 * journeys run with it, so axe checks a dialog as it is shown, not half faded in).
 */
export const theme = createTheme({ primaryColor: 'violet', defaultRadius: 'sm', respectReducedMotion: true });

/**
 * The theme in the UI language: the close buttons of dialogs, drawers, toasts and alerts are named
 * ("Close"), where Mantine leaves them with an icon only (issue 15, axe's button-name).
 */
export function localTheme(closeLabel: string) {
  const closeButtonProps = { 'aria-label': closeLabel };
  return createTheme({
    ...theme,
    components: {
      Modal: Modal.extend({ defaultProps: { closeButtonProps } }),
      Drawer: Drawer.extend({ defaultProps: { closeButtonProps } }),
      Notification: Notification.extend({ defaultProps: { closeButtonProps } }),
      Alert: Alert.extend({ defaultProps: { closeButtonLabel: closeLabel } }),
    },
  });
}

/**
 * Hint text at a contrast of at least 4.5:1 (WCAG AA) on white, on the grey of the public pages
 * and on a dark area: Mantine's own dimmed grey is 3.3:1 on white and 4.0:1 on dark (issue 15).
 */
export const DIMMED = { light: '#5f666d', dark: '#a3a3a3' };

/** Placeholders (and Mantine's placeholder text of a select button) at 4.5:1 too; Mantine's are 2.1:1. */
export const PLACEHOLDER = { light: '#697077', dark: '#9c9c9c' };

export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': DIMMED.light, '--mantine-color-placeholder': PLACEHOLDER.light },
  dark: { '--mantine-color-dimmed': DIMMED.dark, '--mantine-color-placeholder': PLACEHOLDER.dark },
});
