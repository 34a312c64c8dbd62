import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CustomFieldDto } from '../../api/custom-field';
import { i18n } from '../../app/i18n';
import { t } from '../../testing/render';
import { mockAdminApi, renderWithSession, testSession } from '../../testing/session';
import { customFieldRoutes } from './routes';

const text = (cs: string, patch: Partial<Record<'sk' | 'en' | 'de', string>> = {}) => ({
  cs,
  sk: '',
  en: '',
  de: '',
  ...patch,
});

const TYPES = [
  { id: 1, code: 'TEXT' },
  { id: 2, code: 'NUMBER' },
  { id: 3, code: 'SELECT_MULTI' },
  { id: 4, code: 'SELECT' },
  { id: 5, code: 'ADDRESS' },
  { id: 6, code: 'EMAIL' },
  { id: 7, code: 'BOOL' },
  { id: 8, code: 'PHONE' },
  { id: 9, code: 'IMAGE' },
];

function fieldDto(patch: Partial<CustomFieldDto> = {}): CustomFieldDto {
  return {
    id: 8,
    name: 'Colour',
    label: text('Barva'),
    tooltip: text(''),
    customFieldType: { id: 4, code: 'SELECT' },
    options: [{ id: 'o1', value: 'Red' }],
    placeholder: '{{custom_field.[8]}}',
    ...patch,
  };
}

const typeName = (code: string) => t(`customField.types.${code}`);

async function chooseType(user: ReturnType<typeof renderWithSession>['user'], code: string) {
  await user.click(screen.getByRole('combobox', { name: new RegExp(`^${t('customField.type')}`) }));
  const listbox = await screen.findByRole('listbox');
  await user.click(within(listbox).getByRole('option', { name: typeName(code) }));
}

const optionsGroup = () => screen.queryByRole('group', { name: t('customField.options') });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('custom field form', () => {
  it('shows the options list only for the select types, clears it otherwise and posts the right body', async () => {
    const { calls } = mockAdminApi({
      'GET custom-field-type': TYPES,
      'POST custom-field': fieldDto(),
      'GET custom-field/8': fieldDto(),
    });
    const { user, router } = renderWithSession(customFieldRoutes, '/custom-field/create');

    await user.type(await screen.findByLabelText(new RegExp(`^${t('customField.name')}`)), 'Colour');
    await user.type(screen.getByLabelText(t('customField.label'), { exact: false }), 'Barva');
    expect(optionsGroup()).not.toBeInTheDocument();

    await chooseType(user, 'SELECT');
    expect(optionsGroup()).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: t('customField.addOption') }));
    await user.type(screen.getByLabelText(new RegExp(`^${t('customField.optionNumber', { number: 1 })}`)), 'Blue');

    // another type without options: the list goes and its options are cleared
    await chooseType(user, 'TEXT');
    expect(optionsGroup()).not.toBeInTheDocument();
    await chooseType(user, 'SELECT_MULTI');
    expect(within(optionsGroup() as HTMLElement).getByText(t('customField.noOptions'))).toBeInTheDocument();

    // an option type needs an option
    await user.click(screen.getByRole('button', { name: t('basics.save') }));
    expect(await screen.findByText(t('customField.optionsRequired'))).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await user.click(screen.getByRole('button', { name: t('customField.addOption') }));
    await user.type(screen.getByLabelText(new RegExp(`^${t('customField.optionNumber', { number: 1 })}`)), 'Red');
    await user.click(screen.getByRole('button', { name: t('basics.save') }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/custom-field/detail/8'));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      name: 'Colour',
      label: text('Barva'),
      tooltip: text(''),
      customFieldType: 3,
      options: [{ id: null, value: 'Red' }],
    });
    expect(await screen.findByText(t('customField.created'))).toBeInTheDocument();
  });

  it('saves a changed type without its options and previews the help html', async () => {
    const { calls } = mockAdminApi({
      'GET custom-field-type': TYPES,
      'GET custom-field/8': fieldDto(),
      'PUT custom-field/8': fieldDto({ customFieldType: { id: 1, code: 'TEXT' }, options: [] }),
    });
    const { user } = renderWithSession(
      customFieldRoutes,
      '/custom-field/detail/8',
      testSession({ multiLanguage: true }),
    );

    expect(await screen.findByDisplayValue('Red')).toBeInTheDocument();
    // multi-language subject: one label input per language, cs required
    expect(screen.getByLabelText(`${t('customField.label')} (${t('lang.de')})`)).toBeInTheDocument();

    const tooltip = screen.getByLabelText(`${t('customField.tooltip')} (${t('lang.cs')})`);
    await user.click(tooltip);
    await user.paste('<b>Pick one</b><script>window.hacked = true</script>');
    const preview = screen.getByRole('region', { name: `${t('customField.tooltipPreview')} (${t('lang.cs')})` });
    expect(within(preview).getByText('Pick one').tagName).toBe('B');
    expect(preview.querySelector('script')).toBeNull();

    await chooseType(user, 'TEXT');
    expect(optionsGroup()).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: t('basics.save') }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({
      customFieldType: 1,
      options: [],
      tooltip: { cs: '<b>Pick one</b><script>window.hacked = true</script>' },
    });
    expect(await screen.findByText(t('customField.saved'))).toBeInTheDocument();
  });

  it('goes home when the field cannot be loaded', async () => {
    mockAdminApi({ 'GET custom-field/5': new Response('{}', { status: 500 }) });
    const { router } = renderWithSession(customFieldRoutes, '/custom-field/detail/5');
    expect(await screen.findByText('Home page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(await screen.findByText(t('customField.loadError'))).toBeInTheDocument();
  });
});

describe('custom field list', () => {
  it('shows name, label in the current language (cs fallback), type and options, and copies the placeholder', async () => {
    mockAdminApi({
      'GET custom-field': [
        fieldDto({ label: text('Barva', { en: 'Colour' }) }),
        fieldDto({
          id: 9,
          name: 'Company',
          label: text('Firma'),
          customFieldType: { id: 1, code: 'TEXT' },
          options: [],
          placeholder: '{{custom_field.[9]}}',
        }),
      ],
    });
    await i18n.changeLanguage('en');
    try {
      const { user } = renderWithSession(customFieldRoutes, '/custom-field');
      const colour = await screen.findByRole('row', { name: /Colour/ });
      expect(colour).toHaveTextContent('Colour');
      expect(colour).toHaveTextContent(typeName('SELECT'));
      expect(colour).toHaveTextContent('Red');
      const company = screen.getByRole('row', { name: /Company/ });
      expect(company).toHaveTextContent('Firma');
      expect(within(company).getByRole('link', { name: `${t('basics.edit')}: Company` })).toHaveAttribute(
        'href',
        '/custom-field/detail/9',
      );

      await user.click(within(company).getByRole('button', { name: `${t('customField.copyPlaceholder')}: Company` }));
      expect(await screen.findByText(t('basics.copied'))).toBeInTheDocument();
      await expect(navigator.clipboard.readText()).resolves.toBe('{{custom_field.[9]}}');
    } finally {
      await i18n.changeLanguage('cs');
    }
  });
});
