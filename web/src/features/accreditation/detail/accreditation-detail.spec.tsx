import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { Outlet, type RouteObject } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ActionDto } from '../../../api/action';
import type { AccreditationDto } from '../../../api/accreditation';
import { jsonResponse, t } from '../../../testing/render';
import { mockAdminApi, renderWithSession } from '../../../testing/session';
import {
  accreditationFormValues,
  accreditationPayload,
  checkFieldValue,
  FIELD_TYPE,
  type FieldDef,
  isValidPhone,
} from './form-values';
import { accreditationCheckRoutes, accreditationDetailRoutes } from './routes';

const text = (cs: string) => ({ cs, sk: '', en: '', de: '' });

const action = {
  id: 7,
  name: text('Summer fest'),
  multiDay: true,
  days: [
    { id: '2026-05-01', name: text('Friday'), onAccreditation: 'FR' },
    { id: '2026-05-02', name: text('Saturday'), onAccreditation: 'SA' },
  ],
  isCredit: true,
  customField: [
    { id: 5, name: 'Company', isMandatory: false, notShow: false, defaultValue: '', customFieldType: 1 },
    { id: 8, name: 'Phone', isMandatory: true, notShow: false, defaultValue: '', customFieldType: 8 },
    { id: 9, name: 'Vegan', isMandatory: false, notShow: false, defaultValue: '', customFieldType: 7 },
    { id: 10, name: 'Address', isMandatory: false, notShow: false, defaultValue: '', customFieldType: 5 },
  ],
  extension: [],
} as unknown as ActionDto;

const definition = (id: number, name: string, type: number, code: string, tooltip = '') => ({
  id,
  name,
  label: text(name),
  tooltip: text(tooltip),
  customFieldType: { id: type, code },
  options: [],
  placeholder: '',
});

const accreditationStub = () => accreditation();

function accreditation(patch: Partial<AccreditationDto> = {}): AccreditationDto {
  return {
    id: 55,
    customId: 3,
    actionId: 7,
    firstname: 'Jana',
    lastname: 'Nováková',
    email: 'jana@example.com',
    bc: 'ABC123',
    groups: [{ id: 1, name: 'VIP' }],
    groupIds: [1],
    zones: [],
    zoneIds: [],
    days: ['2026-05-01'],
    customField: [
      { id: 5, value: 'ACME' },
      { id: 8, value: '+420 123 456 789' },
      { id: 9, value: true },
      { id: 10, value: { street: 'Dlouhá 1', city: 'Praha', zip: '11000', gps: '' } },
    ],
    image: null,
    printCount: 0,
    credit: null,
    isUnlimited: false,
    dateCreate: '2026-04-01T10:00:00.000Z',
    source: 'admin',
    language: 'cs',
    ...patch,
  };
}

const common = {
  'GET actual': { id: 1, lastAction: 7 },
  'GET action': [action],
  'GET action/7': action,
  'GET custom-field': [
    definition(5, 'Company', 1, 'TEXT', '<p>Where you <b>work</b></p>'),
    definition(8, 'Phone', 8, 'PHONE'),
    definition(9, 'Vegan', 7, 'BOOL'),
    definition(10, 'Address', 5, 'ADDRESS'),
  ],
  'GET groups': [
    { id: 1, name: 'VIP', actionId: 7 },
    { id: 2, name: 'Other action group', actionId: 8 },
  ],
  'GET zone': [{ id: 4, name: 'Backstage', actionId: 7 }],
};

const routes: RouteObject[] = [
  {
    path: 'accreditation',
    element: <Outlet />,
    children: [
      { index: true, element: <p>List page</p> },
      ...accreditationDetailRoutes,
      { path: 'check', element: <Outlet />, children: accreditationCheckRoutes },
    ],
  },
];

const saveButton = () => screen.getByRole('button', { name: t('basics.save') });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('accreditation form', () => {
  it('creates an accreditation with user-field values, groups and days, then opens its detail', async () => {
    const created = accreditation({ customField: [], groupIds: [1], days: ['2026-05-02'] });
    const { calls } = mockAdminApi({ ...common, 'POST user': created, 'GET user/7/55': created });
    const { user, router } = renderWithSession(routes, '/accreditation/create');

    await user.type(await screen.findByRole('textbox', { name: t('accreditationDetail.firstname') }), 'Jana');
    await user.type(screen.getByLabelText(t('accreditationDetail.lastname'), { exact: false }), 'Nováková');
    await user.type(screen.getByLabelText(t('accreditationDetail.email'), { exact: false }), 'JANA@example.com');
    expect(screen.getByText('Where you work')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Company'), 'ACME');
    await user.click(screen.getByRole('checkbox', { name: 'Vegan' }));
    await user.click(screen.getByRole('checkbox', { name: 'Saturday' }));

    // the mandatory phone: required, then checked by country
    await user.click(saveButton());
    expect(await screen.findByText(t('basics.requireField'))).toBeInTheDocument();
    const phone = screen.getByLabelText('Phone', { exact: false });
    await user.type(phone, '+420 12');
    await user.click(saveButton());
    expect(await screen.findByText(t('accreditationDetail.phoneInvalid'))).toBeInTheDocument();
    await user.clear(phone);
    await user.type(phone, '+420 123 456 789');

    // a group of this action only
    await user.click(screen.getByRole('combobox', { name: t('accreditationDetail.groups') }));
    expect(screen.queryByRole('option', { name: 'Other action group' })).not.toBeInTheDocument();
    await user.click(await screen.findByRole('option', { name: 'VIP' }));

    await user.click(saveButton());
    await waitFor(() => expect(router.state.location.pathname).toBe('/accreditation/detail/55'));
    const post = calls.find((c) => c.method === 'POST' && c.path === 'user');
    expect(post?.body).toEqual({
      actionId: 7,
      firstname: 'Jana',
      lastname: 'Nováková',
      email: 'jana@example.com',
      groupIds: [1],
      zones: [],
      days: ['2026-05-02'],
      customField: [
        { id: 5, value: 'ACME' },
        { id: 8, value: '+420 123 456 789' },
        { id: 9, value: true },
        { id: 10, value: { street: '', city: '', zip: '', gps: '' } },
      ],
      imageId: null,
      language: 'cs',
    });
    expect(await screen.findByDisplayValue('ABC123')).toBeInTheDocument();
  });

  it("links the person's preview page (valid badge code, new tab) only when the action has smartBc", async () => {
    mockAdminApi({ ...common, 'GET user/7/55': accreditation() });
    renderWithSession(routes, '/accreditation/detail/55');
    await screen.findByDisplayValue('jana@example.com');
    expect(screen.queryByRole('link', { name: t('preview.open') })).not.toBeInTheDocument();
    cleanup();
    mockAdminApi({
      ...common,
      'GET action/7': { ...action, smartBc: true },
      'GET user/7/55': accreditation({ badgeCode: 'ABC123-2' }),
    });
    renderWithSession(routes, '/accreditation/detail/55');
    const link = await screen.findByRole('link', { name: t('preview.open') });
    expect(link).toHaveAttribute('href', '/preview/demo/cid/ABC123-2');
    expect(link).toHaveAttribute('target', '_blank');
  });

  it('shows EMAIL_EXIST on the e-mail field', async () => {
    mockAdminApi({
      ...common,
      'GET user/7/55': accreditation(),
      'PUT user/55': jsonResponse({ error: { code: 'EMAIL_EXIST', message: 'email exists' } }, 409),
    });
    const { user } = renderWithSession(routes, '/accreditation/detail/55');
    const email = await screen.findByDisplayValue('jana@example.com');
    expect(screen.getByDisplayValue('ACME')).toBeInTheDocument();
    expect(screen.getByDisplayValue('Dlouhá 1')).toBeInTheDocument();
    await user.clear(email);
    await user.type(email, 'petr@example.com');
    await user.click(saveButton());
    await waitFor(() => expect(email).toHaveAttribute('aria-invalid', 'true'));
    expect(screen.getAllByText(t('accreditationDetail.emailExists')).length).toBeGreaterThan(0);
  });

  it('puts server field errors of user fields on their inputs', async () => {
    mockAdminApi({
      ...common,
      'GET user/7/55': accreditation(),
      'PUT user/55': jsonResponse(
        {
          error: {
            code: 'VALIDATION_ERROR',
            message: 'invalid',
            details: { fields: [{ path: 'customField.5', key: 'basics.tooLong' }] },
          },
        },
        400,
      ),
    });
    const { user } = renderWithSession(routes, '/accreditation/detail/55');
    const company = await screen.findByDisplayValue('ACME');
    await user.type(company, '!');
    await user.click(saveButton());
    expect(await screen.findByText(t('basics.tooLong'))).toBeInTheDocument();
  });

  it('adds credit on the credit tab and shows the new balance', async () => {
    const { calls } = mockAdminApi({
      ...common,
      'GET user/7/55': accreditation(),
      'GET user-credit/55': { credit: null, isUnlimited: false, history: [] },
      'PUT user-credit/55': {
        credit: 150,
        isUnlimited: false,
        history: [{ date: '2026-05-01T10:00:00Z', type: 1, device: null, adminUser: 'Admin', price: 150 }],
      },
    });
    const { user } = renderWithSession(routes, '/accreditation/detail/55');
    await user.click(await screen.findByRole('tab', { name: t('accreditationDetail.tabCredit') }));
    const balance = await screen.findByTestId('credit-balance');
    expect(balance).toHaveTextContent('0 Kč');

    await user.click(screen.getByRole('button', { name: t('credit.add') }));
    expect(await screen.findByText(t('credit.amountPositive'))).toBeInTheDocument();

    await user.type(screen.getByLabelText(t('credit.amount'), { exact: false }), '150');
    await user.click(screen.getByRole('button', { name: t('credit.add') }));
    await waitFor(() => expect(balance).toHaveTextContent('150 Kč'));
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ price: 150, type: 1 });
    const table = screen.getByRole('table', { name: t('credit.history') });
    expect(within(table).getByText(t('credit.type1'))).toBeInTheDocument();
    expect(within(table).getByText('Admin')).toBeInTheDocument();
  });

  it('reports a removal above the balance', async () => {
    mockAdminApi({
      ...common,
      'GET user/7/55': accreditation(),
      'GET user-credit/55': { credit: 20, isUnlimited: false, history: [] },
      'PUT user-credit/55': jsonResponse({ error: { code: 'CREDIT_NOT_ENOUGH', message: 'not enough' } }, 409),
    });
    const { user } = renderWithSession(routes, '/accreditation/detail/55');
    await user.click(await screen.findByRole('tab', { name: t('accreditationDetail.tabCredit') }));
    await user.type(await screen.findByLabelText(t('credit.amount'), { exact: false }), '50');
    await user.click(screen.getByRole('button', { name: t('credit.remove') }));
    expect((await screen.findAllByText(t('credit.notEnough'))).length).toBeGreaterThan(0);
    expect(screen.getByTestId('credit-balance')).toHaveTextContent('20 Kč');
  });

  it('shows unlimited credit as text, and switches it off and on', async () => {
    const { calls } = mockAdminApi({
      ...common,
      'GET user/7/55': accreditation(),
      'GET user-credit/55': { credit: 5, isUnlimited: true, history: [] },
      'PUT user-credit/55/unlimited': (body: { isUnlimited: boolean }) => ({
        credit: 5,
        isUnlimited: body.isUnlimited,
        history: [],
      }),
    });
    const { user } = renderWithSession(routes, '/accreditation/detail/55');
    await user.click(await screen.findByRole('tab', { name: t('accreditationDetail.tabCredit') }));
    const balance = await screen.findByTestId('credit-balance');
    expect(balance).toHaveTextContent(t('credit.unlimited'));
    const toggle = screen.getByRole('switch', { name: new RegExp(`^${t('credit.unlimitedSwitch')}`) });
    expect(toggle).toBeChecked();
    await user.click(toggle);
    await waitFor(() => expect(balance).toHaveTextContent('5 Kč'));
    expect(calls.find((c) => c.path === 'user-credit/55/unlimited')?.body).toEqual({ isUnlimited: false });
    expect(screen.getByRole('switch', { name: new RegExp(`^${t('credit.unlimitedSwitch')}`) })).not.toBeChecked();
  });

  it('refuses an oversize photo before sending, and clears the stored photo', async () => {
    const { calls } = mockAdminApi({
      ...common,
      'GET user/7/55': accreditation({ image: { id: 31, path: '/files/photo.png' } }),
      'PUT user/55': accreditation(),
    });
    const { user, container } = renderWithSession(routes, '/accreditation/detail/55');
    expect(await screen.findByRole('img', { name: t('accreditationDetail.photo') })).toHaveAttribute(
      'src',
      '/files/photo.png',
    );
    const big = new File([new Uint8Array(2_097_153)], 'big.png', { type: 'image/png' });
    // the photo's file input (the user-field inputs of this action have no image type)
    const fileInput = container.querySelector('input[type="file"]') as HTMLInputElement;
    await user.upload(fileInput, big);
    expect(await screen.findByText(t('photo.chooseToolTipOnline'))).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: t('accreditationDetail.removePhoto') }));
    expect(screen.getByText(t('accreditationDetail.noPhoto'))).toBeInTheDocument();
    await user.click(saveButton());
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    const put = calls.find((c) => c.method === 'PUT')?.body as { imageId: unknown; imageData?: unknown };
    expect(put.imageId).toBeNull();
    expect(put.imageData).toBeUndefined();
  });
});

describe('accreditation check', () => {
  it('submits the code on Enter (a keyboard-wedge scanner) and opens the accreditation', async () => {
    const { calls } = mockAdminApi({ ...common, 'GET user/check/ABC123': accreditation() });
    const { user, router } = renderWithSession(routes, '/accreditation/check');
    const input = await screen.findByLabelText(t('accreditationDetail.code'));
    expect(input).toHaveFocus();
    await user.keyboard('ABC123{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/accreditation/check/ABC123'));
    expect(await screen.findByDisplayValue('jana@example.com')).toBeInTheDocument();
    expect(calls.filter((c) => c.path === 'user/check/ABC123').length).toBeGreaterThanOrEqual(1);
  });

  it('shows the not-found message and stays ready for the next code', async () => {
    mockAdminApi({
      ...common,
      'GET user/check/NOPE': jsonResponse({ error: { code: 'BC_NOT_EXIST', message: 'not found' } }, 404),
    });
    const { user, router } = renderWithSession(routes, '/accreditation/check');
    const input = await screen.findByLabelText(t('accreditationDetail.code'));
    await user.type(input, 'NOPE{Enter}');
    expect(await screen.findByText(t('accreditationDetail.bcNotExist', { code: 'NOPE' }))).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/accreditation/check');
    expect(input).toHaveValue('');
    expect(input).toHaveFocus();
  });

  it('goes back to the check page when the code of the URL does not exist', async () => {
    mockAdminApi({
      ...common,
      'GET user/check/GONE': jsonResponse({ error: { code: 'BC_NOT_EXIST', message: 'not found' } }, 404),
    });
    const { router } = renderWithSession(routes, '/accreditation/check/GONE');
    await waitFor(() => expect(router.state.location.pathname).toBe('/accreditation/check'));
  });
});

describe('user-field checks', () => {
  const field = (type: number, mandatory = false): FieldDef => ({
    id: 1,
    label: 'F',
    help: '',
    type,
    mandatory,
    options: [],
    defaultValue: '',
  });

  it('checks phones by country', () => {
    expect(isValidPhone('+420 123 456 789')).toBe(true);
    expect(isValidPhone('+421 912 345 678')).toBe(true);
    expect(isValidPhone('+44 7911 123456')).toBe(true);
    expect(isValidPhone('+1 202 555 0143')).toBe(true);
    expect(isValidPhone('+49 30 123456')).toBe(true);
    expect(isValidPhone('+420 12')).toBe(false);
    expect(isValidPhone('+33 1 23 45 67 89')).toBe(true);
    expect(isValidPhone('12345')).toBe(false);
    expect(isValidPhone('abc')).toBe(false);
  });

  it('requires mandatory values and checks e-mail and address', () => {
    expect(checkFieldValue(field(FIELD_TYPE.TEXT, true), '')).toBe('basics.requireField');
    expect(checkFieldValue(field(FIELD_TYPE.TEXT), '')).toBeNull();
    expect(checkFieldValue(field(FIELD_TYPE.BOOL, true), false)).toBe('basics.requireField');
    expect(checkFieldValue(field(FIELD_TYPE.EMAIL), 'x@')).toBe('basics.emailNotValid');
    expect(checkFieldValue(field(FIELD_TYPE.ADDRESS), { street: 'A 1', city: '', zip: '', gps: '' })).toBe(
      'accreditationDetail.addressInvalid',
    );
    expect(checkFieldValue(field(FIELD_TYPE.ADDRESS, true), { street: '', city: '', zip: '', gps: '' })).toBe(
      'basics.requireField',
    );
  });

  it('round-trips option ids, numbers and defaults between the wire and the form', () => {
    const select: FieldDef = { ...field(FIELD_TYPE.SELECT), id: 3, options: [{ id: 11, value: 'M' }] };
    const multi: FieldDef = {
      ...field(FIELD_TYPE.SELECT_MULTI),
      id: 4,
      options: [
        { id: 21, value: 'A' },
        { id: 22, value: 'B' },
      ],
    };
    const number: FieldDef = { ...field(FIELD_TYPE.NUMBER), id: 6, defaultValue: '5' };
    const fields = [select, multi, number];
    const created = accreditationFormValues(7, fields);
    expect(created.customField).toEqual({ '3': null, '4': [], '6': 5 });

    const values = accreditationFormValues(7, fields, {
      ...accreditationStub(),
      customField: [
        { id: 3, value: 11 },
        { id: 4, value: [22] },
        { id: 6, value: null },
      ],
    });
    expect(values.customField).toEqual({ '3': '11', '4': ['22'], '6': '' });
    const body = accreditationPayload(
      { ...values, groupIds: [], zones: [], days: [], imageId: null, imageData: null },
      fields,
    );
    expect(body.customField).toEqual([
      { id: 3, value: 11 },
      { id: 4, value: [22] },
      { id: 6, value: null },
    ]);
  });
});
