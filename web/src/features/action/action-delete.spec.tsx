import { afterEach, describe, it, vi } from 'vitest';
import type { ActionDto } from '../../api/action';
import { expectDeleteGoesBack, expectDeleteRefusal } from '../../testing/delete-record';
import { actionFormValues } from './action-form-values';
import { actionRoutes } from './routes';

const values = actionFormValues();
const action = {
  ...values,
  id: 7,
  name: { cs: 'Summer fest', sk: '', en: '', de: '' },
  dateFrom: '2026-05-01T08:00',
  dateTo: '2026-05-01T23:59',
  multiDay: false,
  days: [],
  previewData: values.previewData as unknown as ActionDto['previewData'],
  extension: [],
  dateCreate: '2026-01-01T10:00:00.000Z',
} as ActionDto;
const api = { 'GET mail-template': [], 'GET custom-field': [], 'GET action': [action], 'GET action/7': action };

afterEach(() => vi.unstubAllGlobals());

describe('action detail: Delete (issue 15)', () => {
  it('asks, deletes and goes back to the list', () =>
    expectDeleteGoesBack({
      routes: actionRoutes,
      path: '/action/detail/7',
      api,
      deletePath: 'action/7',
      listPath: '/action',
    }));

  it('says how many accreditations the action still has, and stays', () =>
    expectDeleteRefusal({
      routes: actionRoutes,
      path: '/action/detail/7',
      api,
      deletePath: 'action/7',
      code: 'ACTION_HAS_ACCREDITATIONS',
      details: { count: 120 },
    }));
});
