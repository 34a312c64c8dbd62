import { hasRight, type ImageImportResult, isImageFileName } from '@accredo/domain';
import {
  Alert,
  Badge,
  Button,
  Group,
  List,
  Paper,
  Progress,
  ScrollArea,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconPhotoUp, IconUpload } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type DragEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ACCREDITATION_LIST_KEY } from '../../../api/accreditation-list';
import { ApiError } from '../../../api/client';
import { IMAGE_IMPORT_KEY, IMAGE_IMPORT_MAX_BYTES, imageBatches, imageImportApi } from '../../../api/image-import';
import { useAdminSession } from '../../../app/admin-session';
import { LoadingState } from '../../../components/loading-state';
import { WorkingButton } from '../../../components/working-button';
import { IMAGE_ACCEPT, readAsDataUrl, readHead, sniffImage } from '../../gallery/gallery-constants';

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif'];

/** Why the browser refuses a file before sending it (spec §9: images only, 5 MB each), or null. */
export async function refuseImage(file: File): Promise<string | null> {
  if (!isImageFileName(file.name) || (file.type && !IMAGE_TYPES.includes(file.type)) || file.size === 0)
    return 'imageImport.rejectedType';
  if (file.size > IMAGE_IMPORT_MAX_BYTES) return 'imageImport.rejectedSize';
  try {
    if (!sniffImage(await readHead(file))) return 'imageImport.rejectedType';
  } catch {
    return 'imageImport.rejectedType';
  }
  return null;
}

/** One answer of the upload, numbered in the order sent (files may share a name). */
type Result = ImageImportResult & { seq: number };

const fileKey = (file: File) => `${file.name}|${file.size}|${file.lastModified}`;

/**
 * The 'photos' part of the import page (spec §5 Import, §7 image/import): how many accreditations
 * wait for a photo, a drop zone for many images (checked in the browser: images only, 5 MB each),
 * the upload in batches of 20 with a progress bar, and what was paired and what was not, and why.
 */
export function ImageImportPanel({ actionId }: { actionId: number }) {
  const { t } = useTranslation();
  const session = useAdminSession();
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [files, setFiles] = useState<File[]>([]);
  const [rejected, setRejected] = useState<{ name: string; key: string }[]>([]);
  const [dragging, setDragging] = useState(false);
  const [showWaiting, setShowWaiting] = useState(false);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [results, setResults] = useState<Result[] | null>(null);
  const [failed, setFailed] = useState(false);
  const canRead = hasRight(session, 'imageImport', 'getImageImport');
  const status = useQuery({
    queryKey: IMAGE_IMPORT_KEY(actionId),
    queryFn: () => imageImportApi.status(actionId),
    enabled: canRead,
  });
  const busy = progress !== null;

  const add = async (list: FileList | File[] | null) => {
    if (!list) return;
    const chosen = [...list];
    const checked = await Promise.all(chosen.map(async (file) => ({ file, key: await refuseImage(file) })));
    setRejected(checked.filter((c) => c.key).map((c) => ({ name: c.file.name, key: c.key as string })));
    setFiles((old) => {
      const seen = new Set(old.map(fileKey));
      return [...old, ...checked.filter((c) => !c.key && !seen.has(fileKey(c.file))).map((c) => c.file)];
    });
    setResults(null);
    setFailed(false);
  };

  const upload = async () => {
    if (files.length === 0 || busy) return;
    const total = files.length;
    const collected: Result[] = [];
    let done = 0;
    let left = files;
    setFailed(false);
    setResults(null);
    setProgress({ done, total });
    for (const batch of imageBatches(files)) {
      try {
        const images = await Promise.all(
          batch.map(async (file) => ({ imageName: file.name, imageData: await readAsDataUrl(file) })),
        );
        const answer = await imageImportApi.upload(actionId, images);
        for (const r of answer.results) collected.push({ ...r, seq: collected.length });
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 401)) setFailed(true);
        break;
      }
      done += batch.length;
      left = left.slice(batch.length);
      setProgress({ done, total });
    }
    setFiles(left);
    setResults(collected);
    setProgress(null);
    void queryClient.invalidateQueries({ queryKey: IMAGE_IMPORT_KEY(actionId) });
    void queryClient.invalidateQueries({ queryKey: ACCREDITATION_LIST_KEY });
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    if (!busy) void add(event.dataTransfer.files);
  };

  const paired = results?.filter((r) => r.paired) ?? [];
  const notPaired = results?.filter((r) => !r.paired) ?? [];
  const percent = progress ? Math.round((progress.done / Math.max(progress.total, 1)) * 100) : 0;

  return (
    <Stack gap="md" maw={720}>
      <Text size="sm" c="dimmed">
        {t('imageImport.intro')}
      </Text>

      {canRead && (
        <Paper withBorder p="md">
          {status.isPending ? (
            <LoadingState />
          ) : status.isError ? (
            <Alert color="red" role="alert">
              {t('imageImport.loadError')}
            </Alert>
          ) : (
            <Stack gap="xs">
              <Group justify="space-between">
                <Text fw={500} role="status">
                  {t('imageImport.waitingCount', { count: status.data.waiting.length })}
                </Text>
                {status.data.waiting.length > 0 && (
                  <Button variant="subtle" size="compact-sm" onClick={() => setShowWaiting((v) => !v)}>
                    {t(showWaiting ? 'imageImport.hideWaiting' : 'imageImport.showWaiting')}
                  </Button>
                )}
              </Group>
              {showWaiting && (
                <ScrollArea.Autosize mah={280}>
                  <Table
                    striped
                    withTableBorder
                    aria-label={t('imageImport.waitingCount', { count: status.data.waiting.length })}
                  >
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>{t('imageImport.name')}</Table.Th>
                        <Table.Th>{t('imageImport.imageName')}</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {status.data.waiting.map((w) => (
                        <Table.Tr key={w.id}>
                          <Table.Td>{w.name}</Table.Td>
                          <Table.Td>{w.imageName}</Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </ScrollArea.Autosize>
              )}
              {status.data.unpaired.length > 0 && (
                <Text size="sm" c="dimmed">
                  {t('imageImport.unpairedCount', { count: status.data.unpaired.length })}:{' '}
                  {status.data.unpaired
                    .slice(0, 30)
                    .map((u) => u.imageName)
                    .join(', ')}
                  {status.data.unpaired.length > 30 ? ', …' : ''}
                </Text>
              )}
            </Stack>
          )}
        </Paper>
      )}

      <Paper withBorder p="md">
        <Stack gap="md">
          <Title order={2} size="h4">
            {t('imageImport.title')}
          </Title>
          {/* biome-ignore lint/a11y/useSemanticElements: a drop zone is a region that also opens the file dialog */}
          <div
            role="button"
            tabIndex={0}
            aria-disabled={busy}
            aria-describedby="image-import-hint"
            onClick={() => !busy && input.current?.click()}
            onKeyDown={(event) => {
              if ((event.key === 'Enter' || event.key === ' ') && !busy) {
                event.preventDefault();
                input.current?.click();
              }
            }}
            onDragOver={(event) => {
              event.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={onDrop}
            style={{
              border: `2px dashed var(--mantine-color-${dragging ? 'blue-6' : 'gray-4'})`,
              borderRadius: 8,
              padding: 24,
              textAlign: 'center',
              cursor: busy ? 'not-allowed' : 'pointer',
              background: dragging ? 'var(--mantine-color-blue-light)' : undefined,
            }}
          >
            <Stack gap={4} align="center">
              <IconPhotoUp size={36} aria-hidden />
              <Text fw={500}>{t('imageImport.dropTitle')}</Text>
              <Text size="sm" c="dimmed" id="image-import-hint">
                {t('imageImport.dropHint')}
              </Text>
            </Stack>
          </div>
          <input
            ref={input}
            type="file"
            multiple
            accept={IMAGE_ACCEPT}
            hidden
            aria-label={t('imageImport.dropTitle')}
            onChange={(event) => {
              void add(event.currentTarget.files);
              event.currentTarget.value = '';
            }}
          />

          {rejected.length > 0 && (
            <Alert color="orange" title={t('imageImport.rejectedTitle')} role="alert">
              <List size="sm">
                {rejected.map((r) => (
                  <List.Item key={r.name}>{t(r.key, { name: r.name })}</List.Item>
                ))}
              </List>
            </Alert>
          )}

          {files.length > 0 && (
            <Group justify="space-between">
              <Text size="sm">{t('imageImport.selected', { count: files.length })}</Text>
              <Group gap="xs">
                <Button variant="default" disabled={busy} onClick={() => setFiles([])}>
                  {t('imageImport.clear')}
                </Button>
                <WorkingButton busy={busy} leftSection={<IconUpload size={16} />} onClick={() => void upload()}>
                  {t('imageImport.upload')}
                </WorkingButton>
              </Group>
            </Group>
          )}

          {progress && (
            <Stack gap={4} aria-live="polite">
              <Text size="sm">{t('imageImport.uploading', { done: progress.done, total: progress.total })}</Text>
              <Progress
                value={percent}
                animated
                aria-label={t('imageImport.uploading', { done: progress.done, total: progress.total })}
              />
            </Stack>
          )}
        </Stack>
      </Paper>

      {failed && (
        <Alert color="red" role="alert">
          {t('imageImport.uploadError')}
        </Alert>
      )}

      {results && results.length > 0 && (
        <Paper withBorder p="md">
          <Stack gap="sm">
            <Group gap="sm">
              <Title order={2} size="h4">
                {t('imageImport.resultTitle')}
              </Title>
              <Badge color="teal" variant="light">
                {t('imageImport.pairedCount', { count: paired.length })}
              </Badge>
              <Badge color={notPaired.length ? 'orange' : 'gray'} variant="light">
                {t('imageImport.notPairedCount', { count: notPaired.length })}
              </Badge>
            </Group>
            <Table striped withTableBorder aria-label={t('imageImport.resultTitle')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('imageImport.file')}</Table.Th>
                  <Table.Th>{t('imageImport.result')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {[...notPaired, ...paired].map((r) => (
                  <Table.Tr key={r.seq}>
                    <Table.Td>{r.imageName}</Table.Td>
                    <Table.Td c={r.paired ? 'teal.8' : 'orange.8'}>
                      {r.paired
                        ? t(r.by === 'bc' ? 'imageImport.pairedByBc' : 'imageImport.pairedByName', {
                            who: r.accreditations.map((a) => a.name).join(', '),
                          })
                        : t(`imageImport.reasons.${r.reason}`)}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}
