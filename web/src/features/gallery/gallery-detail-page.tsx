import { hasRight, PHOTO_MAX_BYTES, requiredString } from '@accredo/domain';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  Grid,
  Group,
  NumberInput,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  IconArrowBackUp,
  IconCrop,
  IconFlipHorizontal,
  IconFlipVertical,
  IconRefresh,
  IconRotate2,
  IconRotateClockwise2,
} from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { type PointerEvent as ReactPointerEvent, useCallback, useEffect, useRef, useState } from 'react';
import { type Resolver, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { z } from 'zod';
import { ApiError } from '../../api/client';
import { galleryApi, type ImageDto } from '../../api/gallery';
import { useAdminSession } from '../../app/admin-session';
import { notifySuccess } from '../../app/notify';
import { FormShell, useFieldError } from '../../components/form';
import { LoadingState } from '../../components/loading-state';
import { DeleteRecordButton } from '../../components/delete-record-button';
import { PageHeader } from '../../components/page-header';
import { useDetailQuery } from '../../components/use-detail-query';
import { clampRect, copyCanvas, crop, flip, paint, type Rect, rectBetween, rotate } from './canvas-ops';
import { dataUrlBytes, formatBytes } from './gallery-constants';
import { IMAGES_KEY } from './gallery-list-page';

const editorSchema = z.object({ name: requiredString(), edits: z.number().int().min(0) });
interface EditorValues {
  name: string;
  /** how many picture edits are not saved yet (makes the form dirty and the save send `data`) */
  edits: number;
}
const resolver = zodResolver(editorSchema) as unknown as Resolver<EditorValues, unknown, EditorValues>;

/** `/gallery/detail/:id`: the image editor (spec §2: crop, flip, rotate, name). */
export function GalleryDetailPage() {
  const id = Number(useParams().id);
  const query = useDetailQuery({
    queryKey: [...IMAGES_KEY, id],
    queryFn: () => galleryApi.get(id),
    listPath: '/gallery',
    errorKey: 'gallery.loadError',
  });
  if (!query.data) return <LoadingState />;
  return <ImageEditor key={id} image={query.data} />;
}

type LoadState = 'loading' | 'ready' | 'error';

function ImageEditor({ image }: { image: ImageDto }) {
  const { t } = useTranslation();
  const session = useAdminSession();
  const canEdit = hasRight(session, 'image', 'update');
  const queryClient = useQueryClient();
  const form = useForm<EditorValues, unknown, EditorValues>({
    resolver,
    defaultValues: { name: image.name, edits: 0 },
  });
  const fieldError = useFieldError(form.formState.errors);
  const edits = useWatch({ control: form.control, name: 'edits' });

  const canvasRef = useRef<HTMLCanvasElement>(null);
  /** the picture as last saved (or loaded) */
  const baseRef = useRef<HTMLCanvasElement | null>(null);
  /** the states before each unsaved edit, for undo */
  const historyRef = useRef<HTMLCanvasElement[]>([]);
  const [loadState, setLoadState] = useState<LoadState>('loading');
  const [size, setSize] = useState({ w: image.width, h: image.height });
  const [selection, setSelection] = useState<Rect | null>(null);
  const dragStart = useRef<{ x: number; y: number } | null>(null);
  const [saved, setSaved] = useState(image);

  const show = useCallback((source: HTMLCanvasElement | HTMLImageElement) => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    paint(canvas, source);
    setSize({ w: canvas.width, h: canvas.height });
  }, []);

  // Load the picture from its (same-origin) path into the canvas.
  // biome-ignore lint/correctness/useExhaustiveDependencies: loaded once per editor; later versions are already drawn
  useEffect(() => {
    let cancelled = false;
    const img = new window.Image();
    img.onload = () => {
      if (cancelled) return;
      try {
        baseRef.current = copyCanvas(img);
        show(baseRef.current);
        setLoadState('ready');
      } catch {
        setLoadState('error');
      }
    };
    img.onerror = () => {
      if (!cancelled) setLoadState('error');
    };
    img.src = image.path;
    return () => {
      cancelled = true;
    };
  }, []);

  // Discarding the changes (edits back to 0) shows the saved picture again.
  useEffect(() => {
    if (edits === 0 && historyRef.current.length > 0 && baseRef.current) {
      historyRef.current = [];
      show(baseRef.current);
      setSelection(null);
    }
  }, [edits, show]);

  const clearDataError = () => form.clearErrors('data' as never);

  const apply = (operation: (source: HTMLCanvasElement) => HTMLCanvasElement) => {
    const canvas = canvasRef.current;
    if (!canvas || loadState !== 'ready') return;
    const before = copyCanvas(canvas);
    show(operation(before));
    historyRef.current.push(before);
    setSelection(null);
    clearDataError();
    form.setValue('edits', historyRef.current.length, { shouldDirty: true });
  };

  const undo = () => {
    const previous = historyRef.current.pop();
    if (!previous) return;
    show(previous);
    setSelection(null);
    clearDataError();
    form.setValue('edits', historyRef.current.length, { shouldDirty: true });
  };

  const resetAll = () => {
    if (!baseRef.current || historyRef.current.length === 0) return;
    historyRef.current = [];
    show(baseRef.current);
    setSelection(null);
    clearDataError();
    form.setValue('edits', 0, { shouldDirty: true });
  };

  // Drag over the picture to select the crop area (in picture pixels).
  const toPicture = (event: ReactPointerEvent) => {
    const canvas = canvasRef.current;
    if (!canvas) return { x: 0, y: 0 };
    const rect = canvas.getBoundingClientRect();
    const sx = rect.width ? canvas.width / rect.width : 1;
    const sy = rect.height ? canvas.height / rect.height : 1;
    return {
      x: Math.min(canvas.width, Math.max(0, (event.clientX - rect.left) * sx)),
      y: Math.min(canvas.height, Math.max(0, (event.clientY - rect.top) * sy)),
    };
  };
  const onPointerDown = (event: ReactPointerEvent<HTMLDivElement>) => {
    if (!canEdit || loadState !== 'ready' || event.button !== 0) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture?.(event.pointerId);
    dragStart.current = toPicture(event);
    setSelection(null);
  };
  const onPointerMove = (event: ReactPointerEvent<HTMLDivElement>) => {
    if (!dragStart.current) return;
    setSelection(rectBetween(dragStart.current, toPicture(event)));
  };
  const onPointerUp = (event: ReactPointerEvent<HTMLDivElement>) => {
    if (!dragStart.current) return;
    const rect = rectBetween(dragStart.current, toPicture(event));
    dragStart.current = null;
    setSelection(rect.w >= 2 && rect.h >= 2 ? clampRect(rect, size.w, size.h) : null);
  };

  const setSelectionField = (key: keyof Rect, value: number | string) => {
    const current = selection ?? { x: 0, y: 0, w: size.w, h: size.h };
    setSelection(clampRect({ ...current, [key]: Number(value) || 0 }, size.w, size.h));
  };

  const save = async (values: EditorValues) => {
    let data: string | undefined;
    if (values.edits > 0 && canvasRef.current) {
      data = canvasRef.current.toDataURL('image/png');
      // Spec §9: at most 2 MB; told before sending.
      if (dataUrlBytes(data) > PHOTO_MAX_BYTES)
        throw new ApiError('VALIDATION_ERROR', 400, 'too large', [{ path: 'data', key: 'photo.chooseToolTipOnline' }]);
    }
    const result = await galleryApi.update(image.id, { name: values.name, ...(data ? { data } : {}) });
    if (canvasRef.current && data) baseRef.current = copyCanvas(canvasRef.current);
    historyRef.current = [];
    setSaved(result);
    queryClient.setQueryData([...IMAGES_KEY, image.id], result);
    void queryClient.invalidateQueries({ queryKey: [...IMAGES_KEY, 'list'] });
    notifySuccess('gallery.saved');
    return { values: { name: result.name, edits: 0 } };
  };

  const ready = loadState === 'ready' && canEdit;
  const pct = (value: number, total: number) => `${(value / Math.max(1, total)) * 100}%`;

  return (
    <FormShell form={form} onSave={save} saveErrorKey="gallery.saveError">
      <PageHeader title={`${t('gallery.detail')}: ${saved.name}`}>
        {saved && (
          <DeleteRecordButton
            page="image"
            name={saved.name}
            remove={() => galleryApi.remove(saved.id)}
            listPath="/gallery"
            queryKey={[...IMAGES_KEY, 'list']}
            recordKey={[...IMAGES_KEY, saved.id]}
          />
        )}
      </PageHeader>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <Stack gap="sm">
            <Group gap="xs" role="toolbar" aria-label={t('gallery.tools')}>
              <Button
                variant="default"
                size="xs"
                leftSection={<IconRotate2 size={16} />}
                disabled={!ready}
                onClick={() => apply((c) => rotate(c, -1))}
              >
                {t('gallery.rotateLeft')}
              </Button>
              <Button
                variant="default"
                size="xs"
                leftSection={<IconRotateClockwise2 size={16} />}
                disabled={!ready}
                onClick={() => apply((c) => rotate(c, 1))}
              >
                {t('gallery.rotateRight')}
              </Button>
              <Button
                variant="default"
                size="xs"
                leftSection={<IconFlipVertical size={16} />}
                disabled={!ready}
                onClick={() => apply((c) => flip(c, 'horizontal'))}
              >
                {t('gallery.flipHorizontal')}
              </Button>
              <Button
                variant="default"
                size="xs"
                leftSection={<IconFlipHorizontal size={16} />}
                disabled={!ready}
                onClick={() => apply((c) => flip(c, 'vertical'))}
              >
                {t('gallery.flipVertical')}
              </Button>
              <Button
                variant="default"
                size="xs"
                leftSection={<IconArrowBackUp size={16} />}
                disabled={!ready || edits === 0}
                onClick={undo}
              >
                {t('gallery.undo')}
              </Button>
              <Button
                variant="default"
                size="xs"
                leftSection={<IconRefresh size={16} />}
                disabled={!ready || edits === 0}
                onClick={resetAll}
              >
                {t('gallery.resetEdits')}
              </Button>
            </Group>
            {loadState === 'loading' && <LoadingState />}
            {loadState === 'error' && (
              <Alert color="red" role="alert">
                {t('gallery.imageLoadError')}
              </Alert>
            )}
            <Box
              style={{
                display: loadState === 'ready' ? 'inline-block' : 'none',
                position: 'relative',
                lineHeight: 0,
                alignSelf: 'flex-start',
                maxWidth: '100%',
                cursor: ready ? 'crosshair' : undefined,
                touchAction: 'none',
                backgroundColor: 'var(--mantine-color-default-hover)',
              }}
              onPointerDown={onPointerDown}
              onPointerMove={onPointerMove}
              onPointerUp={onPointerUp}
            >
              <canvas
                ref={canvasRef}
                role="img"
                aria-label={saved.name}
                style={{ display: 'block', maxWidth: '100%', maxHeight: '65vh', width: 'auto', height: 'auto' }}
              />
              {selection && (
                <div
                  data-testid="crop-selection"
                  style={{
                    position: 'absolute',
                    left: pct(selection.x, size.w),
                    top: pct(selection.y, size.h),
                    width: pct(selection.w, size.w),
                    height: pct(selection.h, size.h),
                    outline: '2px dashed var(--mantine-primary-color-filled)',
                    boxShadow: '0 0 0 9999px rgba(0, 0, 0, 0.35)',
                    pointerEvents: 'none',
                  }}
                />
              )}
            </Box>
            {fieldError('data') && (
              <Alert color="red" role="alert">
                {fieldError('data')}
              </Alert>
            )}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <Stack gap="md">
            <TextInput
              label={t('basics.name')}
              required
              readOnly={!canEdit}
              {...form.register('name')}
              error={fieldError('name')}
            />
            <Paper withBorder p="md" component="section" aria-labelledby="crop-title">
              <Title order={2} size="h5" id="crop-title" mb={4}>
                {t('gallery.crop')}
              </Title>
              <Text size="sm" c="dimmed" mb="sm">
                {t('gallery.cropHint')}
              </Text>
              <SimpleGrid cols={2} spacing="xs">
                {(
                  [
                    ['x', 'gallery.cropX'],
                    ['y', 'gallery.cropY'],
                    ['w', 'gallery.cropWidth'],
                    ['h', 'gallery.cropHeight'],
                  ] as const
                ).map(([key, label]) => (
                  <NumberInput
                    key={key}
                    label={t(label)}
                    size="xs"
                    min={key === 'w' || key === 'h' ? 1 : 0}
                    max={key === 'x' || key === 'w' ? size.w : size.h}
                    allowDecimal={false}
                    allowNegative={false}
                    disabled={!ready}
                    value={selection ? selection[key] : ''}
                    onChange={(value) => setSelectionField(key, value)}
                  />
                ))}
              </SimpleGrid>
              <Group gap="xs" mt="sm">
                <Button
                  size="xs"
                  leftSection={<IconCrop size={16} />}
                  disabled={!ready || !selection}
                  onClick={() => selection && apply((c) => crop(c, selection))}
                >
                  {t('gallery.applyCrop')}
                </Button>
                <Button size="xs" variant="subtle" disabled={!selection} onClick={() => setSelection(null)}>
                  {t('gallery.clearSelection')}
                </Button>
              </Group>
            </Paper>
            <Paper withBorder p="md" component="section" aria-labelledby="image-info-title">
              <Title order={2} size="h5" id="image-info-title" mb="xs">
                {t('gallery.info')}
              </Title>
              <Stack gap={4}>
                <Group gap="xs">
                  <Text size="sm" c="dimmed">
                    {t('gallery.type')}:
                  </Text>
                  <Badge size="sm" variant="light">
                    {t(`gallery.type${saved.type}`)}
                  </Badge>
                </Group>
                <Text size="sm">
                  {t('gallery.dimensions')}: {saved.width}×{saved.height}
                  {edits > 0 && ` → ${size.w}×${size.h}`}
                </Text>
                <Text size="sm">
                  {t('gallery.size')}: {formatBytes(saved.size)}
                </Text>
                <Text size="sm">
                  {t('gallery.version')}: {saved.version}
                </Text>
                <Anchor href={saved.path} target="_blank" rel="noreferrer" size="sm">
                  {t('gallery.openOriginal')}
                </Anchor>
                <Text size="xs" c="dimmed" mt="xs">
                  {t('gallery.newVersionHint')}
                </Text>
              </Stack>
            </Paper>
          </Stack>
        </Grid.Col>
      </Grid>
    </FormShell>
  );
}
