import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BATCH_MAX_BYTES, imageBatches } from '../../../api/image-import';
import { t } from '../../../testing/render';
import { mockAdminApi, renderWithSession } from '../../../testing/session';
import { ImageImportPanel } from './image-import-panel';

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52];
const png = (name: string, size = 64) => {
  const bytes = new Uint8Array(size);
  bytes.set(PNG);
  return new File([bytes], name, { type: 'image/png' });
};

afterEach(() => vi.unstubAllGlobals());

describe('image import batches', () => {
  it('sends at most 20 files and about 24 MB per request', () => {
    const small = Array.from({ length: 45 }, (_, i) => ({ name: `${i}`, size: 1000 }));
    expect(imageBatches(small).map((b) => b.length)).toEqual([20, 20, 5]);
    const large = Array.from({ length: 10 }, (_, i) => ({ name: `${i}`, size: 5 * 1024 * 1024 }));
    const batches = imageBatches(large);
    expect(batches.map((b) => b.length)).toEqual([4, 4, 2]);
    for (const b of batches) expect(b.reduce((n, f) => n + f.size, 0)).toBeLessThanOrEqual(BATCH_MAX_BYTES);
  });
});

describe('the photos tab of the import page', () => {
  const routes = [{ path: 'import', element: <ImageImportPanel actionId={7} /> }];

  it('shows who waits, refuses non-images and large files in the browser, uploads and lists the pairing', async () => {
    const { calls } = mockAdminApi({
      'GET image/import/7': { waiting: [{ id: 1, name: 'Ann Able', imageName: 'ann.png' }], unpaired: [] },
      'POST image/import': {
        results: [
          { imageName: 'ann.png', paired: true, by: 'imageName', accreditations: [{ id: 1, name: 'Ann Able' }] },
          { imageName: 'nobody.png', paired: false, accreditations: [], reason: 'IMAGE_WAITING_FOR_ROW' },
        ],
        waiting: 0,
      },
    });
    const { user } = renderWithSession(routes, '/import');
    expect(await screen.findByText(t('imageImport.waitingCount', { count: 1 }))).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: t('imageImport.showWaiting') }));
    expect(screen.getByRole('cell', { name: 'ann.png' })).toBeInTheDocument();

    const input = screen.getByLabelText(t('imageImport.dropTitle'), { selector: 'input' });
    fireEvent.change(input, {
      target: {
        files: [
          png('ann.png'),
          png('nobody.png'),
          new File(['just text'], 'fake.png', { type: 'image/png' }),
          new File(['x'], 'notes.txt', { type: 'text/plain' }),
          png('big.png', 5 * 1024 * 1024 + 1),
        ],
      },
    });
    const refused = await screen.findByRole('alert');
    expect(refused).toHaveTextContent(t('imageImport.rejectedType', { name: 'fake.png' }));
    expect(refused).toHaveTextContent(t('imageImport.rejectedType', { name: 'notes.txt' }));
    expect(refused).toHaveTextContent(t('imageImport.rejectedSize', { name: 'big.png' }));
    expect(screen.getByText(t('imageImport.selected', { count: 2 }))).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: t('imageImport.upload') }));
    expect(await screen.findByText(t('imageImport.pairedCount', { count: 1 }))).toBeInTheDocument();
    expect(screen.getByText(t('imageImport.notPairedCount', { count: 1 }))).toBeInTheDocument();
    expect(screen.getByText(t('imageImport.pairedByName', { who: 'Ann Able' }))).toBeInTheDocument();
    expect(screen.getByText(t('imageImport.reasons.IMAGE_WAITING_FOR_ROW'))).toBeInTheDocument();

    const sent = calls.filter((c) => c.method === 'POST' && c.path === 'image/import');
    expect(sent).toHaveLength(1);
    const body = sent[0].body as { actionId: number; images: { imageName: string; imageData: string }[] };
    expect(body.actionId).toBe(7);
    expect(body.images.map((i) => i.imageName)).toEqual(['ann.png', 'nobody.png']);
    expect(body.images[0].imageData).toMatch(/^data:image\/png;base64,/);
    // The waiting count is asked again after the upload.
    await waitFor(() => expect(calls.filter((c) => c.path === 'image/import/7').length).toBeGreaterThanOrEqual(2));
  });

  it('keeps the files and says so when an upload fails', async () => {
    mockAdminApi({ 'GET image/import/7': { waiting: [], unpaired: [{ imageName: 'early.png', dateCreate: '' }] } });
    const { user } = renderWithSession(routes, '/import');
    expect(await screen.findByText(/early\.png/)).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText(t('imageImport.dropTitle'), { selector: 'input' }), {
      target: { files: [png('a.png')] },
    });
    await user.click(await screen.findByRole('button', { name: t('imageImport.upload') }));
    expect(await screen.findByText(t('imageImport.uploadError'))).toBeInTheDocument();
    expect(screen.getByText(t('imageImport.selected', { count: 1 }))).toBeInTheDocument();
  });
});
