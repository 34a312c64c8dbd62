import { afterEach, describe, it, vi } from 'vitest';
import { expectDeleteGoesBack, expectDeleteRefusal } from '../../testing/delete-record';
import { customFieldRoutes } from './routes';

const field = {
  id: 8,
  name: 'Colour',
  label: { cs: 'Barva', sk: '', en: '', de: '' },
  tooltip: { cs: '', sk: '', en: '', de: '' },
  customFieldType: { id: 1, code: 'TEXT' },
  options: [],
  placeholder: '{{custom_field.[8]}}',
};
const api = {
  'GET custom-field-type': [{ id: 1, code: 'TEXT' }],
  'GET custom-field': [field],
  'GET custom-field/8': field,
};

afterEach(() => vi.unstubAllGlobals());

describe('user field detail: Delete (issue 15)', () => {
  it('asks, deletes and goes back to the list', () =>
    expectDeleteGoesBack({
      routes: customFieldRoutes,
      path: '/custom-field/detail/8',
      api,
      deletePath: 'custom-field/8',
      listPath: '/custom-field',
    }));

  it('shows which actions still use the field and stays', () =>
    expectDeleteRefusal({
      routes: customFieldRoutes,
      path: '/custom-field/detail/8',
      api,
      deletePath: 'custom-field/8',
      code: 'CUSTOM_FIELD_USED_BY_ACTIONS',
      details: { names: 'Festival', usedBy: ['Festival'] },
    }));
});
