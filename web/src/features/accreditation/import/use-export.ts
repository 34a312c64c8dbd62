import { useMutation } from '@tanstack/react-query';
import { accreditationFilesApi, type DownloadedFile, saveBlob } from '../../../api/accreditation-files';
import type { BulkTarget } from '../../../api/accreditation-list';
import { notifyError, notifyWorking } from '../../../app/notify';
import { bulkErrorKey } from '../list/bulk-modals';

/** A download of the list's selection or whole filter; nothing selected (and not all): 'choose users'. */
function useSelectionDownload(call: (target: BulkTarget) => Promise<DownloadedFile>, errorKey: string) {
  const mutation = useMutation({
    mutationFn: async (target: BulkTarget) => {
      const done = notifyWorking('accreditationImport.exporting');
      try {
        return await call(target);
      } finally {
        done();
      }
    },
    onSuccess: saveBlob,
    onError: (error) => notifyError(bulkErrorKey(error, errorKey)),
  });
  const run = (target: BulkTarget) => {
    if (!target.all && target.userId.length === 0) {
      notifyError('accreditation.chooseUsers');
      return;
    }
    mutation.mutate(target);
  };
  return { run, isPending: mutation.isPending };
}

/** The list's Export entry (spec §2 options: export): POST user/export, the .xlsx offered as a download. */
export function useExportAccreditations() {
  return useSelectionDownload((target) => accreditationFilesApi.export(target), 'accreditationImport.exportError');
}

/** Export for re-import: the same people in the import template's machine form. */
export function useExportForImport() {
  return useSelectionDownload(
    (target) => accreditationFilesApi.export(target, 'import'),
    'accreditationImport.exportError',
  );
}

/**
 * The list's Export images entry (spec §2 options: export images): POST user/export/images, a zip of
 * the photos (named by the sheet's photo name or the barcode, so it re-imports). None with a photo:
 * the server's NO_PHOTOS_TO_EXPORT message.
 */
export function useExportImages() {
  return useSelectionDownload(accreditationFilesApi.exportImages, 'imageImport.exportError');
}
