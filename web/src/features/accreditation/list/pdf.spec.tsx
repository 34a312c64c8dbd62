import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, t } from '../../../testing/render';
import { mockAdminApi, renderWithSession } from '../../../testing/session';
import { accreditationRow } from '../../../testing/fixtures';
import { accreditationListRoute } from './routes';
import { pdfPolling } from './use-pdf';

const text = (cs: string) => ({ cs, sk: '', en: '', de: '' });
const row = (id: number) => accreditationRow(id, { bc: `BC${id}` });

const base = {
  'GET actual': { id: 1, lastAction: 7 },
  'GET action': [{ id: 7, name: text('Summer fest'), days: [] }],
  'GET groups': [],
  'GET zone': [],
  'POST user/all': { paged: { data: [1, 2, 3].map(row), max: 3, customField: [] } },
};

const pdfResponse = (name: string, headers: Record<string, string> = {}) =>
  new Response('%PDF-1.7 badges', {
    status: 200,
    headers: { 'content-type': 'application/pdf', 'content-disposition': `attachment; filename="${name}"`, ...headers },
  });

function renderList() {
  return renderWithSession([{ path: 'accreditation', children: [accreditationListRoute] }], '/accreditation');
}
const rowOf = (id: number) => screen.getByRole('row', { name: new RegExp(`p${id}@example\\.com`) });

let click: ReturnType<typeof vi.spyOn>;
let saved: string[];
beforeEach(() => {
  window.localStorage.clear();
  saved = [];
  pdfPolling.ms = 0;
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:pdf'), revokeObjectURL: vi.fn() }));
  click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push(this.download);
  });
});
afterEach(() => {
  click.mockRestore();
  vi.unstubAllGlobals();
  pdfPolling.ms = 1000;
});

async function generatePdf(user: ReturnType<typeof renderList>['user']) {
  await user.click(screen.getByRole('button', { name: t('basics.options') }));
  await user.click(await screen.findByRole('menuitem', { name: t('templateEngine.generatePdf') }));
}

describe('generate PDF from the list options (issue 13)', () => {
  it('downloads the PDF of the selection and lists the people left out', async () => {
    const errors = encodeURIComponent(JSON.stringify([{ user: 2, error: 'PRINT_NO_GROUP', name: 'Second Person' }]));
    const { bodies } = mockAdminApi({
      ...base,
      'POST user/print': pdfResponse('badges-7-2026-11-25.pdf', { 'x-print-errors': errors, 'x-print-printed': '1' }),
    });
    const { user } = renderList();
    await screen.findByText('p1@example.com');
    await user.click(rowOf(1));
    await user.click(rowOf(2));
    await generatePdf(user);

    await waitFor(() => expect(saved).toEqual(['badges-7-2026-11-25.pdf']));
    expect(bodies('user/print')[0]).toMatchObject({ actionId: 7, userId: [1, 2], all: false, type: 'pdf' });
    const modal = await screen.findByRole('dialog', { name: t('templateEngine.printErrorsTitle') });
    expect(within(modal).getByText(/Second Person/)).toBeInTheDocument();
  });

  it('follows a big run as a job: a progress notification, then the file offered for download', async () => {
    const job = {
      id: 5,
      state: 'running',
      total: 300,
      done: 0,
      printed: 0,
      fileName: 'badges-7.pdf',
      error: [],
      failReason: null,
    };
    const states = [
      { ...job, done: 100, printed: 100 },
      { ...job, state: 'done', done: 300, printed: 300 },
    ];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { calls } = mockAdminApi({
      ...base,
      'POST user/print': jsonResponse({ data: job }, 202),
      'GET user/print/job/5': async () => {
        const next = states.shift()!;
        if (next.state === 'done') await gate;
        return next;
      },
      'GET user/print/job/5/file': pdfResponse('badges-7.pdf'),
    });
    const { user } = renderList();
    await screen.findByText('p1@example.com');
    fireEvent.keyDown(document.body, { key: 'a', ctrlKey: true });
    await generatePdf(user);

    // progress of the running job
    expect(await screen.findByText(t('templateEngine.generatingPdf'))).toBeInTheDocument();
    expect(await screen.findByText(t('templateEngine.pdfProgress', { done: 100, total: 300 }))).toBeInTheDocument();
    const bar = screen.getByRole('progressbar', { name: t('templateEngine.pdfProgressLabel') });
    expect(bar).toHaveAttribute('aria-valuenow', '33');
    expect(saved).toEqual([]);

    release();
    const download = await screen.findByRole('button', { name: t('templateEngine.pdfDownload') });
    expect(screen.getByText(t('templateEngine.pdfReady', { printed: 300 }))).toBeInTheDocument();
    await user.click(download);
    await waitFor(() => expect(saved).toEqual(['badges-7.pdf']));
    expect(calls.find((c) => c.path === 'user/print')?.body).toMatchObject({ all: true, type: 'pdf' });
  });

  it('says why a job failed and starts it again once on "try again"', async () => {
    const job = {
      id: 6,
      state: 'waiting',
      total: 300,
      done: 0,
      printed: 0,
      fileName: 'badges-7.pdf',
      error: [],
      failReason: null,
      canRetry: false,
    };
    const states = [
      { ...job, state: 'error', done: 100, failReason: 'PDF_RENDERER_MISSING', canRetry: true },
      { ...job, state: 'done', done: 300, printed: 300 },
    ];
    const { calls } = mockAdminApi({
      ...base,
      'POST user/print': jsonResponse({ data: job }, 202),
      'GET user/print/job/6': async () => states.shift()!,
      'POST user/print/job/6/retry': { ...job, done: 100 },
      'GET user/print/job/6/file': pdfResponse('badges-7.pdf'),
    });
    const { user } = renderList();
    await screen.findByText('p1@example.com');
    fireEvent.keyDown(document.body, { key: 'a', ctrlKey: true });
    await generatePdf(user);

    const reason = t('templateEngine.pdfFailReason', { reason: t('errors.PDF_RENDERER_MISSING') });
    expect(await screen.findByText(reason)).toBeInTheDocument();
    expect(screen.getByText(t('templateEngine.pdfError'))).toBeInTheDocument();
    // the notifications of the tests before stay on the page
    const downloads = () => screen.queryAllByRole('button', { name: t('templateEngine.pdfDownload') });
    const before = downloads().length;
    await user.click(screen.getByRole('button', { name: t('templateEngine.pdfRetry') }));
    await waitFor(() => expect(downloads()).toHaveLength(before + 1));
    const download = downloads()[before];
    expect(calls.filter((c) => c.path === 'user/print/job/6/retry')).toHaveLength(1);
    await user.click(download);
    await waitFor(() => expect(saved).toEqual(['badges-7.pdf']));
  });

  it('says why when the server cannot make PDFs', async () => {
    mockAdminApi({
      ...base,
      'POST user/print': jsonResponse(
        {
          error: {
            code: 'PDF_RENDERER_MISSING',
            message: 'missing',
            details: { install: 'apt-get install -y chromium' },
          },
        },
        503,
      ),
    });
    const { user } = renderList();
    await screen.findByText('p1@example.com');
    await user.click(rowOf(1));
    await generatePdf(user);
    expect(await screen.findByText(t('errors.PDF_RENDERER_MISSING'))).toBeInTheDocument();
    expect(saved).toEqual([]);
  });
});
