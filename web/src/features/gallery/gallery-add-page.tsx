import { imageTypeSchema, requiredString } from '@accredo/domain';
import { zodResolver } from '@hookform/resolvers/zod';
import { FileInput, Image, Paper, Stack, Text, TextInput } from '@mantine/core';
import { IconPhoto } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Controller, type Resolver, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { ApiError } from '../../api/client';
import { galleryApi } from '../../api/gallery';
import { notifySuccess } from '../../app/notify';
import { FormShell, useFieldError, SelectField } from '../../components/form';
import { PageHeader } from '../../components/page-header';
import {
  checkImageFile,
  formatBytes,
  IMAGE_ACCEPT,
  imageTypeData,
  readAsDataUrl,
  readHead,
  sniffImage,
} from './gallery-constants';
import { IMAGES_KEY } from './gallery-list-page';

/** Spec §5 Gallery add: type and one image file required (png, jpg, jpeg, gif, at most 2 MB). */
const addSchema = z.object({
  type: imageTypeSchema,
  name: requiredString(),
  file: z.custom<File | null>().superRefine((file, ctx) => {
    const key = checkImageFile(file);
    if (key) ctx.addIssue({ code: 'custom', message: key });
  }),
});

export interface GalleryAddValues {
  type: string;
  name: string;
  file: File | null;
}
type GalleryAddOutput = z.output<typeof addSchema>;

const resolver = zodResolver(addSchema) as unknown as Resolver<GalleryAddValues, unknown, GalleryAddOutput>;

const fileError = (key: string) => new ApiError('VALIDATION_ERROR', 400, key, [{ path: 'file', key }]);

/** `/gallery/add`: uploads one image, read in the browser as a data URL and sent as `baseData`. */
export function GalleryAddPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const form = useForm<GalleryAddValues, unknown, GalleryAddOutput>({
    resolver,
    defaultValues: { type: '3', name: '', file: null },
  });
  const fieldError = useFieldError(form.formState.errors);
  const file = useWatch({ control: form.control, name: 'file' });

  const [preview, setPreview] = useState<string | null>(null);
  useEffect(() => {
    if (!file || checkImageFile(file) || typeof URL.createObjectURL !== 'function') {
      setPreview(null);
      return;
    }
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  const save = async (values: GalleryAddOutput) => {
    const chosen = values.file as File;
    // By content too (spec §5): a renamed text file is refused before it is sent.
    if (!sniffImage(await readHead(chosen))) throw fileError('photo.invalidType');
    const baseData = await readAsDataUrl(chosen).catch(() => {
      throw fileError('photo.invalidData');
    });
    try {
      const created = await galleryApi.create({ type: values.type, name: values.name, baseData });
      notifySuccess('gallery.created');
      void queryClient.invalidateQueries({ queryKey: IMAGES_KEY });
      return { navigateTo: `/gallery/detail/${created.id}` };
    } catch (error) {
      // The server reports the file as `baseData`; show it on the file input.
      if (error instanceof ApiError && error.fields.some((f) => f.path === 'baseData'))
        throw new ApiError(
          error.code,
          error.status,
          error.message,
          error.fields.map((f) => (f.path === 'baseData' ? { ...f, path: 'file' } : f)),
        );
      throw error;
    }
  };

  return (
    <FormShell form={form} onSave={save} saveErrorKey="gallery.saveError">
      <PageHeader title={t('gallery.add')} />
      <Stack gap="sm" maw={520}>
        <SelectField
          control={form.control}
          name="type"
          label={t('gallery.type')}
          required
          allowDeselect={false}
          data={imageTypeData(t)}
          error={fieldError('type')}
        />
        <Controller
          control={form.control}
          name="file"
          render={({ field }) => (
            <FileInput
              label={t('gallery.file')}
              description={t('gallery.fileHint')}
              placeholder={t('gallery.chooseFile')}
              required
              clearable
              accept={IMAGE_ACCEPT}
              leftSection={<IconPhoto size={16} />}
              value={field.value}
              onChange={(chosen) => {
                field.onChange(chosen);
                if (chosen && !form.getValues('name').trim()) {
                  form.setValue('name', chosen.name.replace(/\.[^.]+$/, ''), { shouldDirty: true });
                }
                // Tell at once what is wrong with the file (spec §5: clear errors before sending).
                if (chosen) void form.trigger('file');
                else form.clearErrors('file');
              }}
              onBlur={field.onBlur}
              ref={field.ref}
              error={fieldError('file')}
            />
          )}
        />
        {file && !fieldError('file') && (
          <Text size="sm" c="dimmed">
            {file.name} · {formatBytes(file.size)}
          </Text>
        )}
        <TextInput label={t('basics.name')} required {...form.register('name')} error={fieldError('name')} />
        {preview && (
          <Paper withBorder p="xs">
            <Image src={preview} alt={t('gallery.preview')} mah={240} fit="contain" />
          </Paper>
        )}
      </Stack>
    </FormShell>
  );
}
