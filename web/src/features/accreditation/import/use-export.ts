import { useMutation } from '@tanstack/react-query';
import { accreditationFilesApi, saveBlob } from '../../../api/accreditation-files';
import type { BulkTarget } from '../../../api/accreditation-list';
import { notifyError } from '../../../app/notify';
import { bulkErrorKey } from '../list/bulk-modals';

/**
 * The list's Export entry (spec §2 options: export): POST user/export with the selection or the whole
 * filter, then the .xlsx is offered as a download. Nothing selected (and not all): 'choose users'.
 */
export function useExportAccreditations() {
  const mutation = useMutation({
    mutationFn: (target: BulkTarget) => accreditationFilesApi.export(target),
    onSuccess: saveBlob,
    onError: (error) => notifyError(bulkErrorKey(error, 'accreditationImport.exportError')),
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
