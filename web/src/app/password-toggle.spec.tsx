import { PasswordInput } from '@mantine/core';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoutes, t } from '../testing/render';

describe('password fields (issue 15)', () => {
  it('name the show/hide button in the UI language, not with Mantine’s English label', async () => {
    renderRoutes([{ path: '/', element: <PasswordInput label={t('basics.password')} /> }], ['/']);
    const toggle = await screen.findByRole('button', { name: t('basics.togglePassword') });
    expect(toggle).toBeInTheDocument();
    expect(t('basics.togglePassword')).not.toBe('Toggle password visibility');
    expect(screen.queryByRole('button', { name: 'Toggle password visibility' })).toBeNull();
  });
});
