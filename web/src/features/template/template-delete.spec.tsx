import { afterEach, describe, it, vi } from 'vitest';
import { expectDeleteGoesBack, expectDeleteRefusal } from '../../testing/delete-record';
import { templateRoutes } from './routes';

const mail = {
  id: 3,
  name: 'Welcome',
  type: 1,
  subjectFrom: 'Welcome',
  withAccreditation: false,
  mailCopy: [],
  html: '<p>Hi</p>',
};
const badge = { id: 4, name: 'Badge A6', type: 1, pageSize: 'A6-L', htmlData: '<div>{{firstname}}</div>' };
const list = [
  { type: 'mail', items: [mail] },
  { type: 'accreditation', items: [badge] },
];
const api = { 'GET template': list, 'GET template/4': badge, 'GET mail-template/3': mail };

afterEach(() => vi.unstubAllGlobals());

describe('badge template detail: Delete (issue 15)', () => {
  it('asks, deletes and goes back to the list', () =>
    expectDeleteGoesBack({
      routes: templateRoutes,
      path: '/template/detail/4',
      api,
      deletePath: 'template/4',
      listPath: '/template',
    }));

  it('shows which groups still print with it and stays', () =>
    expectDeleteRefusal({
      routes: templateRoutes,
      path: '/template/detail/4',
      api,
      deletePath: 'template/4',
      code: 'TEMPLATE_IN_USE',
      details: { names: 'Crew', usedBy: ['Crew'], groups: [{ id: 1, name: 'Crew' }] },
    }));
});

describe('mail template detail: Delete (issue 15)', () => {
  it('asks, deletes and goes back to the list', () =>
    expectDeleteGoesBack({
      routes: templateRoutes,
      path: '/mail-template/detail/3',
      api,
      deletePath: 'mail-template/3',
      listPath: '/template',
    }));

  it('shows which action or channel still sends it and stays', () =>
    expectDeleteRefusal({
      routes: templateRoutes,
      path: '/mail-template/detail/3',
      api,
      deletePath: 'mail-template/3',
      code: 'TEMPLATE_IN_USE',
      details: { names: 'Festival', usedBy: ['Festival'], actions: [{ id: 1, name: 'Festival' }] },
    }));
});
