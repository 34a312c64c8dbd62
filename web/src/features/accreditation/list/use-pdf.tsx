import { Button, Progress, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import type { BulkTarget } from '../../../api/accreditation-list';
import { saveBlob } from '../../../api/accreditation-files';
import { type PdfJob, type PrintAnswer, type PrintOptions, pdfApi } from '../../../api/print';
import { i18n } from '../../../app/i18n';
import { notifyError } from '../../../app/notify';
import { bulkErrorKey } from './bulk-modals';
import { PrintErrorsModal } from './use-print';

/** How often a running PDF job is asked for its progress (tests set 0). */
export const pdfPolling = { ms: 1000 };

function JobProgress({ job }: { job: PdfJob }) {
  const percent = job.total ? Math.round((job.done / job.total) * 100) : 0;
  return (
    <Stack gap={6}>
      <Text size="sm">{i18n.t('templateEngine.pdfProgress', { done: job.done, total: job.total })}</Text>
      <Progress value={percent} aria-label={i18n.t('templateEngine.pdfProgressLabel')} animated striped />
    </Stack>
  );
}

export interface PdfBadges {
  /** `options.replace`: a reprint that retires the old badges (the print options modal) */
  run: (target: BulkTarget, options?: PrintOptions) => void;
  isPending: boolean;
  /** the error list modal; render it once */
  modal: ReactNode;
}

/**
 * The list's "generate PDF" option (spec §2 options; issue 13): the selection, or the whole filter,
 * as one PDF from the server. Up to 200 badges come back at once and are downloaded; a bigger run is
 * a job on the server: a notification shows its progress and offers the file when it is ready. The
 * people left out are listed as after a print.
 */
export function usePdfBadges(onPrinted: () => void): PdfBadges {
  const [failures, setFailures] = useState<PrintAnswer | null>(null);
  const mutation = useMutation({
    mutationFn: ({ target: t, options }: { target: BulkTarget; options: PrintOptions }) => pdfApi.print(t, options),
  });

  /** A failed job: why (its error code's text, or the renderer's message), and "try again" while it may. */
  const failed = (job: PdfJob) => {
    const reason = job.failReason ?? '';
    const why = i18n.exists(`errors.${reason}`) ? i18n.t(`errors.${reason}`) : reason;
    notifications.update({
      id: `pdf-job-${job.id}`,
      loading: false,
      color: 'red',
      withCloseButton: true,
      title: i18n.t('templateEngine.pdfError'),
      message: (
        <Stack gap={6}>
          {why && <Text size="sm">{i18n.t('templateEngine.pdfFailReason', { reason: why })}</Text>}
          {job.canRetry && (
            <Button
              size="xs"
              variant="light"
              onClick={() =>
                pdfApi.retry(job.id).then(
                  (retried) => void follow(retried, true),
                  (error) => notifyError(bulkErrorKey(error, 'templateEngine.pdfError')),
                )
              }
            >
              {i18n.t('templateEngine.pdfRetry')}
            </Button>
          )}
        </Stack>
      ),
    });
  };

  /** Follows a job in its notification (`again`: a retried job, whose notification is there already). */
  const follow = async (first: PdfJob, again = false) => {
    const id = `pdf-job-${first.id}`;
    const progress = {
      id,
      loading: true,
      color: undefined,
      autoClose: false as const,
      withCloseButton: false,
      title: i18n.t('templateEngine.generatingPdf'),
      message: <JobProgress job={first} />,
    };
    if (again) notifications.update(progress);
    else notifications.show(progress);
    let job = first;
    try {
      // The notification lives beside the app, so the job is followed even when the list is left.
      while (job.state === 'waiting' || job.state === 'running') {
        await new Promise((resolve) => setTimeout(resolve, pdfPolling.ms));
        job = await pdfApi.job(job.id);
        notifications.update({ id, message: <JobProgress job={job} /> });
      }
    } catch (error) {
      notifications.hide(id);
      notifyError(bulkErrorKey(error, 'templateEngine.pdfError'));
      return;
    }
    if (job.state === 'error') {
      failed(job);
      return;
    }
    if (job.state !== 'done') {
      notifications.hide(id);
      notifyError(job.state === 'expired' ? 'errors.PDF_JOB_EXPIRED' : 'templateEngine.pdfError');
      return;
    }
    onPrinted();
    if (job.error.length) setFailures({ data: null, fileName: job.fileName, error: job.error, printed: job.printed });
    const done = job;
    notifications.update({
      id,
      loading: false,
      color: 'green',
      withCloseButton: true,
      title: i18n.t('templateEngine.pdfReady', { printed: done.printed }),
      message: (
        <Button
          size="xs"
          mt={4}
          onClick={() =>
            pdfApi.file(done).then(saveBlob, (error) => notifyError(bulkErrorKey(error, 'templateEngine.pdfError')))
          }
        >
          {i18n.t('templateEngine.pdfDownload')}
        </Button>
      ),
    });
  };

  const run = (selection: BulkTarget, options: PrintOptions = {}) => {
    if (mutation.isPending) return;
    if (!selection.all && selection.userId.length === 0) {
      notifyError('accreditation.chooseUsers');
      return;
    }
    mutation.mutate(
      { target: selection, options },
      {
        onSuccess: (answer) => {
          if (answer.kind === 'job') {
            void follow(answer.job);
            return;
          }
          if (answer.error.length)
            setFailures({
              data: null,
              fileName: '',
              error: answer.error,
              printed: answer.kind === 'file' ? answer.printed : 0,
            });
          if (answer.kind === 'file') {
            saveBlob(answer.file);
            if (answer.printed) onPrinted();
          }
        },
        onError: (error) => notifyError(bulkErrorKey(error, 'templateEngine.pdfError')),
      },
    );
  };

  return {
    run,
    isPending: mutation.isPending,
    modal: <PrintErrorsModal answer={failures} onClose={() => setFailures(null)} />,
  };
}
