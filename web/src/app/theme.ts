import {
  Alert,
  type CSSVariablesResolver,
  createTheme,
  Drawer,
  FileInput,
  Input,
  type MantineColorsTuple,
  Menu,
  Modal,
  Notification,
  PasswordInput,
} from '@mantine/core';

/**
 * Mantine's palettes whose shades 8 and 9 are too light for text: 8 darkened to 4.7:1 with white
 * (a filled button's label, a coloured text on white), 9 to 4.7:1 on shades 0 and 1 (the text of a
 * light alert or badge on its tint); shades 0–7 as Mantine has them.
 */
const CONTRAST_COLORS: Record<string, MantineColorsTuple> = {
  cyan: ['#e3fafc', '#c5f6fa', '#99e9f2', '#66d9e8', '#3bc9db', '#22b8cf', '#15aabf', '#1098ad', '#0b7f92', '#0b7184'],
  teal: ['#e6fcf5', '#c3fae8', '#96f2d7', '#63e6be', '#38d9a9', '#20c997', '#12b886', '#0ca678', '#07845e', '#077654'],
  green: ['#ebfbee', '#d3f9d8', '#b2f2bb', '#8ce99a', '#69db7c', '#51cf66', '#40c057', '#37b24d', '#268538', '#247634'],
  lime: ['#f4fce3', '#e9fac8', '#d8f5a2', '#c0eb75', '#a9e34b', '#94d82d', '#82c91e', '#74b816', '#4d8109', '#467308'],
  yellow: [
    '#fff9db',
    '#fff3bf',
    '#ffec99',
    '#ffe066',
    '#ffd43b',
    '#fcc419',
    '#fab005',
    '#f59f00',
    '#ab6200',
    '#a15200',
  ],
  orange: [
    '#fff4e6',
    '#ffe8cc',
    '#ffd8a8',
    '#ffc078',
    '#ffa94d',
    '#ff922b',
    '#fd7e14',
    '#f76707',
    '#c84b09',
    '#b93c0b',
  ],
};

/**
 * Colours and radius of the app. Transitions follow the user's reduced-motion setting (the e2e
 * journeys run with it, so axe checks a dialog as it is shown, not half faded in).
 */
export const theme = createTheme({
  primaryColor: 'violet',
  defaultRadius: 'sm',
  respectReducedMotion: true,
  // WCAG AA contrast (4.5:1, issue 15): a filled control, a coloured text and an outline use shade 8
  // (Mantine's 6 is 3.3:1 with white for red, 3.6:1 for blue), and the light colours are darker there
  primaryShade: { light: 8, dark: 8 },
  colors: CONTRAST_COLORS,
});

/**
 * The theme in the UI language: the close buttons of dialogs, drawers, toasts and alerts are named
 * ("Close"), and so are the clear buttons of fields ("Clear"), where Mantine leaves them with an
 * icon only (issue 15, axe's button-name); any other close button says "Close" too.
 */
export function localTheme(closeLabel: string, clearLabel: string, passwordToggleLabel?: string) {
  const closeButtonProps = { 'aria-label': closeLabel };
  return createTheme({
    ...theme,
    components: {
      Modal: Modal.extend({ defaultProps: { closeButtonProps } }),
      Drawer: Drawer.extend({ defaultProps: { closeButtonProps } }),
      Notification: Notification.extend({ defaultProps: { closeButtonProps } }),
      Alert: Alert.extend({ defaultProps: { closeButtonLabel: closeLabel } }),
      // (plain form: CloseButton's props type leaves out the button's own attributes)
      CloseButton: { defaultProps: { 'aria-label': closeLabel } },
      InputClearButton: Input.ClearButton.extend({ defaultProps: { 'aria-label': clearLabel } }),
      FileInput: FileInput.extend({ defaultProps: { clearButtonProps: { 'aria-label': clearLabel } } }),
      // the password's show/hide button in the UI language (Mantine's own label is English)
      ...(passwordToggleLabel && {
        PasswordInput: PasswordInput.extend({
          defaultProps: { visibilityToggleButtonProps: { 'aria-label': passwordToggleLabel } },
        }),
      }),
      // an open menu focuses its first item, not an unnamed placeholder (a menu holds menu items only)
      Menu: Menu.extend({ defaultProps: { withInitialFocusPlaceholder: false } }),
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

/**
 * The light variants (badges, alerts, light buttons) one tint paler: shade 9 text reads at 4.5:1
 * on its tint when hovered too (on Mantine's hover tint, shade 2, it is 3.8–4.3:1 for red, blue,
 * violet and others).
 */
function lightTints(colors: Record<string, unknown>): Record<string, string> {
  const tints: Record<string, string> = {};
  for (const name of Object.keys(colors)) {
    tints[`--mantine-color-${name}-light`] = `var(--mantine-color-${name}-0)`;
    tints[`--mantine-color-${name}-light-hover`] = `var(--mantine-color-${name}-1)`;
  }
  return tints;
}

export const cssVariablesResolver: CSSVariablesResolver = (resolved) => ({
  variables: {},
  light: {
    ...lightTints(resolved.colors),
    '--mantine-color-dimmed': DIMMED.light,
    '--mantine-color-placeholder': PLACEHOLDER.light,
    // a field's error text: Mantine's red 6 is 3.3:1 on white
    '--mantine-color-error': 'var(--mantine-color-red-8)',
  },
  dark: { '--mantine-color-dimmed': DIMMED.dark, '--mantine-color-placeholder': PLACEHOLDER.dark },
});
