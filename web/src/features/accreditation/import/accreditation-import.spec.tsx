import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import cs from '../../../../../libs/i18n/src/locales/accreditation-import/cs.json' with { type: 'json' };
import de from '../../../../../libs/i18n/src/locales/accreditation-import/de.json' with { type: 'json' };
import en from '../../../../../libs/i18n/src/locales/accreditation-import/en.json' with { type: 'json' };
import sk from '../../../../../libs/i18n/src/locales/accreditation-import/sk.json' with { type: 'json' };
import { filenameFromDisposition, importFileError } from '../../../api/accreditation-files';
import { STORAGE_KEYS } from '../../../api/storage';
import { i18n } from '../../../app/i18n';
import { t } from '../../../testing/render';
import { mockAdminApi, renderWithSession } from '../../../testing/session';
import { accreditationImportRoute } from './routes';

const text = (value: string) => ({ cs: value, sk: '', en: '', de: '' });

/** A fake XMLHttpRequest for POST user/import/file: reports upload progress, then answers `answer`. */
function mockXhr(answer: { status: number; body: unknown }) {
  const sent: {
    method: string;
    url: string;
    headers: Record<string, string>;
    body: Record<string, unknown>;
    order: string[];
  }[] = [];
  class FakeXhr {
    upload: { onprogress: ((e: ProgressEvent) => void) | null; onload: (() => void) | null } = {
      onprogress: null,
      onload: null,
    };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    onabort: (() => void) | null = null;
    status = 0;
    responseText = '';
    private method = '';
    private url = '';
    private headers: Record<string, string> = {};
    open(method: string, url: string) {
      this.method = method;
      this.url = url;
    }
    setRequestHeader(name: string, value: string) {
      this.headers[name] = value;
    }
    send(body: FormData) {
      const fields = [...body.entries()];
      sent.push({
        method: this.method,
        url: this.url,
        headers: this.headers,
        body: Object.fromEntries(fields),
        order: fields.map(([name]) => name),
      });
      setTimeout(() => {
        this.upload.onprogress?.({ lengthComputable: true, loaded: 50, total: 100 } as ProgressEvent);
        this.upload.onload?.();
        this.status = answer.status;
        this.responseText = JSON.stringify(answer.body);
        this.onload?.();
      }, 10);
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return sent;
}

const api = (extension: number[] = []) => ({
  'GET actual': { id: 1, lastAction: 7 },
  'GET action': [{ id: 7, name: text('Summer fest'), days: [], extension }],
});

const fileInput = () => document.querySelector('input[type="file"]') as HTMLInputElement;
const choose = (file: File) => fireEvent.change(fileInput(), { target: { files: [file] } });
const xlsx = (name = 'people.xlsx') =>
  new File(['PK-fake-xlsx'], name, { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });

function renderImport() {
  return renderWithSession([{ path: 'accreditation', children: [accreditationImportRoute] }], '/accreditation/import');
}

beforeAll(() => {
  // the catalogue folder may not be registered in @accredo/i18n yet: load it here as well
  for (const [lang, bundle] of Object.entries({ cs, sk, en, de }))
    i18n.addResourceBundle(lang, 'translation', bundle, true, false);
});
beforeEach(() => {
  window.localStorage.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('accreditation import', () => {
  it('rejects a file that is not .xlsx/.xls and sends nothing', async () => {
    const { calls } = mockAdminApi(api());
    const sent = mockXhr({ status: 200, body: { data: { imported: 1 } } });
    const { user } = renderImport();
    await screen.findByText(t('accreditationImport.fileTitle'));

    choose(new File(['a,b'], 'people.csv', { type: 'text/csv' }));
    expect(await screen.findByText(t('accreditationImport.wrongFileType'))).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: t('accreditationImport.zonesManual') }));
    await user.click(screen.getByRole('button', { name: t('accreditationImport.import') }));

    expect(screen.getByText(t('accreditationImport.wrongFileType'))).toBeInTheDocument();
    expect(sent).toHaveLength(0);
    expect(calls.filter((c) => c.path.startsWith('user/import'))).toHaveLength(0);
  });

  it('says up front that an old .xls must be saved as .xlsx, and sends nothing', async () => {
    const { calls } = mockAdminApi(api());
    const sent = mockXhr({ status: 200, body: { data: { imported: 1 } } });
    const { user } = renderImport();
    await screen.findByText(t('accreditationImport.fileTitle'));
    // an old binary Excel file: what its first bytes say, not its name (a renamed .xlsx named .XLS imports)
    const ole2 = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]);
    choose(new File([ole2], 'People.XLS', { type: 'application/vnd.ms-excel' }));
    expect(await screen.findByText(t('accreditationImport.saveAsXlsx'))).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: t('accreditationImport.zonesManual') }));
    await user.click(screen.getByRole('button', { name: t('accreditationImport.import') }));
    expect(await screen.findByText(t('accreditationImport.saveAsXlsx'))).toBeInTheDocument();
    expect(sent).toHaveLength(0);
    expect(calls.filter((c) => c.path.startsWith('user/import'))).toHaveLength(0);
  });

  it('requires the zones choice and rejects a file over 10 MB', async () => {
    mockAdminApi(api());
    const sent = mockXhr({ status: 200, body: { data: { imported: 1 } } });
    const { user } = renderImport();
    await screen.findByText(t('accreditationImport.fileTitle'));

    const big = xlsx('big.xlsx');
    Object.defineProperty(big, 'size', { value: 10 * 1024 * 1024 + 1 });
    choose(big);
    expect(await screen.findByText(t('accreditationImport.fileTooLarge'))).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: t('accreditationImport.import') }));
    expect(screen.getByText(t('basics.requireField'))).toBeInTheDocument();
    expect(sent).toHaveLength(0);
  });

  it('uploads the file itself as multipart (the options first), then shows the count and a link to the list', async () => {
    window.localStorage.setItem(STORAGE_KEYS.adminToken, 'tok');
    mockAdminApi(api([1]));
    const sent = mockXhr({ status: 200, body: { data: { imported: 12 } } });
    const { user } = renderImport();
    await screen.findByText(t('accreditationImport.fileTitle'));

    choose(xlsx());
    await user.click(screen.getByRole('radio', { name: t('accreditationImport.zonesFromGroup') }));
    // the action has an extension: its choice is required too
    await user.click(screen.getByRole('button', { name: t('accreditationImport.import') }));
    expect(await screen.findByText(t('basics.requireField'))).toBeInTheDocument();
    expect(sent).toHaveLength(0);
    await user.click(screen.getByRole('radio', { name: t('accreditationImport.extensionManual') }));
    await user.click(screen.getByRole('button', { name: t('accreditationImport.import') }));

    const done = await screen.findByRole('status');
    expect(within(done).getByText(t('accreditationImport.imported', { count: 12 }))).toBeInTheDocument();
    expect(sent).toHaveLength(1);
    expect(sent[0].method).toBe('POST');
    expect(sent[0].url).toBe('/api/admin/v1/user/import/file');
    expect(sent[0].headers.authorization).toBe('tok');
    // the browser sets multipart/form-data with its boundary
    expect(sent[0].headers['content-type']).toBeUndefined();
    // the server reads the options before the file streams in
    expect(sent[0].order).toEqual(['actionId', 'zonesImportType', 'extensionImportType', 'dataFile']);
    expect(sent[0].body).toMatchObject({ actionId: '7', zonesImportType: '2', extensionImportType: '1' });
    const file = sent[0].body.dataFile as File;
    expect(file.name).toBe('people.xlsx');
    expect(await file.text()).toBe('PK-fake-xlsx');
    expect(within(done).getByRole('link', { name: t('accreditationImport.backToList') })).toHaveAttribute(
      'href',
      '/accreditation',
    );
    // the toast with the count as well
    await waitFor(() =>
      expect(screen.getAllByText(t('accreditationImport.imported', { count: 12 }), { exact: false }).length).toBe(2),
    );
  });

  it('omits extensionImportType when the action has no extensions', async () => {
    mockAdminApi(api());
    const sent = mockXhr({ status: 200, body: { data: { imported: 1 } } });
    const { user } = renderImport();
    await screen.findByText(t('accreditationImport.fileTitle'));
    expect(screen.queryByText(t('accreditationImport.extensionImportType'))).not.toBeInTheDocument();
    choose(xlsx('old.XLS'));
    await user.click(screen.getByRole('radio', { name: t('accreditationImport.zonesManual') }));
    await user.click(screen.getByRole('button', { name: t('accreditationImport.import') }));
    await screen.findByRole('status');
    expect(sent[0].body).not.toHaveProperty('extensionImportType');
    expect(sent[0].body.zonesImportType).toBe('1');
  });

  it('shows every row error of IMPORT_FAILED with its row number', async () => {
    mockAdminApi(api());
    mockXhr({
      status: 400,
      body: {
        error: {
          code: 'IMPORT_FAILED',
          message: 'import failed',
          details: {
            rows: [
              { row: 3, code: 'EMPTY_EMAIL_ON_ROW_' },
              { row: 5, code: 'GROUP_INVALID_ON_ROW_' },
              { row: 8, code: 'BC_EXIST_' },
              { row: 9, code: 'SOMETHING_NEW_' },
            ],
          },
        },
      },
    });
    const { user } = renderImport();
    await screen.findByText(t('accreditationImport.fileTitle'));
    choose(xlsx());
    await user.click(screen.getByRole('radio', { name: t('accreditationImport.zonesManual') }));
    await user.click(screen.getByRole('button', { name: t('accreditationImport.import') }));

    const table = await screen.findByRole('table', { name: t('accreditationImport.rowErrors') });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map((r) =>
        within(r)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      ),
    ).toEqual([
      ['3', t('accreditationImport.codes.EMPTY_EMAIL_ON_ROW_', { row: 3 })],
      ['5', t('accreditationImport.codes.GROUP_INVALID_ON_ROW_', { row: 5 })],
      ['8', t('accreditationImport.codes.BC_EXIST_', { row: 8 })],
      ['9', `${t('accreditationImport.row')} 9: ${t('basics.unexpectedError')}`],
    ]);
    expect(screen.getByText(t('accreditationImport.failedTitle'))).toBeInTheDocument();
  });

  it('gives a clear message for INVALID_IMPORT_FILE_FORMAT', async () => {
    mockAdminApi(api());
    mockXhr({ status: 400, body: { error: { code: 'INVALID_IMPORT_FILE_FORMAT', message: 'bad' } } });
    const { user } = renderImport();
    await screen.findByText(t('accreditationImport.fileTitle'));
    choose(xlsx());
    await user.click(screen.getByRole('radio', { name: t('accreditationImport.zonesManual') }));
    await user.click(screen.getByRole('button', { name: t('accreditationImport.import') }));
    expect(await screen.findByText(t('accreditationImport.errors.INVALID_IMPORT_FILE_FORMAT'))).toBeInTheDocument();
  });

  it('says what the server refused while the file streamed in: over the limit, an old .xls, too many imports at once', async () => {
    mockAdminApi(api());
    mockXhr({
      status: 413,
      body: { error: { code: 'IMPORT_FILE_TOO_LARGE', message: 'too large', details: { limitMb: 10 } } },
    });
    const { user } = renderImport();
    await screen.findByText(t('accreditationImport.fileTitle'));
    choose(xlsx());
    await user.click(screen.getByRole('radio', { name: t('accreditationImport.zonesManual') }));
    await user.click(screen.getByRole('button', { name: t('accreditationImport.import') }));
    expect(
      await screen.findByText(t('accreditationImport.errors.IMPORT_FILE_TOO_LARGE', { limitMb: 10 })),
    ).toBeInTheDocument();

    mockXhr({ status: 400, body: { error: { code: 'IMPORT_FILE_XLS', message: 'xls' } } });
    await user.click(screen.getByRole('button', { name: t('accreditationImport.import') }));
    expect(await screen.findByText(t('accreditationImport.errors.IMPORT_FILE_XLS'))).toBeInTheDocument();

    // the server already reads as many sheets as it takes: when to try again, nothing saved
    mockXhr({ status: 503, body: { error: { code: 'IMPORT_BUSY', message: 'busy', details: { retryAfter: 30 } } } });
    await user.click(screen.getByRole('button', { name: t('accreditationImport.import') }));
    const busy = t('accreditationImport.errors.IMPORT_BUSY', { retryAfter: 30 });
    // a message of its own that names the wait (not the key, not the generic error)
    expect(busy).toContain('30');
    expect(await screen.findByText(busy)).toBeInTheDocument();
  });

  it('names the column that does not match the action, and says when the sheet has no rows', async () => {
    mockAdminApi(api());
    mockXhr({
      status: 400,
      body: {
        error: {
          code: 'IMPORT_COLUMNS_MISMATCH',
          message: 'columns',
          details: { column: 'H', expected: 'vip', found: 'note' },
        },
      },
    });
    const { user } = renderImport();
    await screen.findByText(t('accreditationImport.fileTitle'));
    choose(xlsx());
    await user.click(screen.getByRole('radio', { name: t('accreditationImport.zonesManual') }));
    await user.click(screen.getByRole('button', { name: t('accreditationImport.import') }));
    expect(
      await screen.findByText(
        t('accreditationImport.errors.IMPORT_COLUMNS_MISMATCH', { column: 'H', expected: 'vip', found: 'note' }),
      ),
    ).toBeInTheDocument();

    mockXhr({ status: 400, body: { error: { code: 'IMPORT_FILE_EMPTY', message: 'empty' } } });
    await user.click(screen.getByRole('button', { name: t('accreditationImport.import') }));
    expect(await screen.findByText(t('accreditationImport.errors.IMPORT_FILE_EMPTY'))).toBeInTheDocument();
  });

  it('downloads the template with the token and the content-disposition name', async () => {
    const createObjectURL = vi.fn(() => 'blob:template');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const { calls } = mockAdminApi({
      ...api(),
      'GET user/import/template/7': new Response('xlsx-bytes', {
        status: 200,
        headers: { 'content-disposition': 'attachment; filename="import-summer.xlsx"' },
      }),
    });
    const { user } = renderImport();
    await user.click(await screen.findByRole('button', { name: t('accreditationImport.downloadTemplate') }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(calls.some((c) => c.path === 'user/import/template/7')).toBe(true);
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('import-summer.xlsx');
    click.mockRestore();
  });

  it('shows a clear message without a current action', async () => {
    mockAdminApi({ 'GET actual': { id: 1, lastAction: null }, 'GET action': [] });
    renderImport();
    expect(await screen.findByText(t('accreditationImport.noAction'))).toBeInTheDocument();
  });
});

describe('import helpers', () => {
  it('checks the extension and size of the file', () => {
    expect(importFileError(null)).toBe('accreditationImport.chooseFile');
    expect(importFileError(new File(['x'], 'a.txt'))).toBe('accreditationImport.wrongFileType');
    expect(importFileError(new File(['x'], 'a.xlsx'))).toBeNull();
    expect(importFileError(new File(['x'], 'A.XLS'))).toBeNull();
  });

  it('reads the file name of content-disposition', () => {
    expect(filenameFromDisposition('attachment; filename="import-7.xlsx"', 'x')).toBe('import-7.xlsx');
    expect(filenameFromDisposition("attachment; filename*=UTF-8''akce%20%C4%8D.xlsx", 'x')).toBe('akce č.xlsx');
    expect(filenameFromDisposition(null, 'fallback.xlsx')).toBe('fallback.xlsx');
  });

  it('has the same keys in all four languages', () => {
    const keys = (o: object, p = ''): string[] =>
      Object.entries(o).flatMap(([k, v]) => (v && typeof v === 'object' ? keys(v, `${p}${k}.`) : [`${p}${k}`]));
    const base = keys(cs).sort();
    for (const bundle of [sk, en, de]) expect(keys(bundle).sort()).toEqual(base);
  });
});
