import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '../../api/storage';
import { renderUi, t } from '../../testing/render';
import { LayoutSettingsDrawer } from './layout-settings-drawer';

const stored = () => JSON.parse(window.localStorage.getItem(STORAGE_KEYS.layout) ?? '{}');

describe('LayoutSettingsDrawer', () => {
  it('applies presets and single choices and remembers them in accredo.layout', async () => {
    const { user } = renderUi(<LayoutSettingsDrawer opened onClose={() => {}} />);
    await user.click(screen.getByRole('button', { name: t('layout.presetDarkSidebar') }));
    expect(stored()).toEqual({ background: 'light', navbar: 'light', sidebar: 'dark', smallSidebar: false });

    await user.click(screen.getByRole('button', { name: t('layout.presetDark') }));
    expect(stored()).toMatchObject({ background: 'dark', navbar: 'dark', sidebar: 'dark' });

    const navbar = screen.getByRole('radiogroup', { name: t('layout.navbar') });
    await user.click(navbar.querySelector('input[value="light"]') as HTMLElement);
    expect(stored()).toMatchObject({ background: 'dark', navbar: 'light', sidebar: 'dark' });

    await user.click(screen.getByRole('switch', { name: t('layout.presetSmallSidebar') }));
    expect(stored().smallSidebar).toBe(true);
  });
});
