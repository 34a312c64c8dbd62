import { Button, FileInput, Group, Image, Input, Stack, Text } from '@mantine/core';
import { IconCamera, IconPhoto } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { actionApi } from '../../../api/action';
import { GalleryPickerModal } from '../../../components/gallery-picker-modal';
import { WebcamCapture } from '../../../components/webcam-capture';
import { checkImageFile, IMAGE_ACCEPT, readAsDataUrl, readHead, sniffImage } from '../../gallery/gallery-constants';

export interface PhotoValue {
  imageId: number | null;
  imageData: string | null;
}

export interface PhotoFieldProps {
  value: PhotoValue;
  onChange: (value: PhotoValue) => void;
  /** the stored photo of the accreditation, shown while its id is kept */
  current: { id: number; path: string } | null;
  /** the translated error */
  error?: string;
  /** reports a message key of a refused file (null clears it) */
  onFileError: (key: string | null) => void;
}

/**
 * The photo (spec §4 Logo or photo, §5 Image upload): kept, replaced by an upload (png, jpg, jpeg,
 * gif, one file, at most 2 MB, checked before sending), a gallery image or a webcam photo (PNG,
 * at most 2 MB), or cleared.
 */
export function PhotoField({ value, onChange, current, error, onFileError }: PhotoFieldProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [opened, setOpened] = useState(false);
  const [camera, setCamera] = useState(false);
  const [reading, setReading] = useState(false);
  const galleryId = value.imageData ? null : value.imageId;
  const needsLoad = galleryId !== null && galleryId !== current?.id;
  const image = useQuery({
    queryKey: ['admin', 'image', galleryId],
    queryFn: () => actionApi.image(galleryId as number),
    enabled: needsLoad,
  });

  let src: string | null = null;
  if (value.imageData) src = value.imageData;
  else if (galleryId !== null && galleryId === current?.id) src = current.path;
  else if (galleryId !== null) src = image.data?.path ?? null;

  const onFile = async (file: File | null) => {
    if (!file) return;
    const key = checkImageFile(file);
    if (key) {
      onFileError(key);
      return;
    }
    setReading(true);
    try {
      if (!sniffImage(await readHead(file))) {
        onFileError('photo.invalidType');
        return;
      }
      onChange({ imageId: null, imageData: await readAsDataUrl(file) });
      onFileError(null);
    } catch {
      onFileError('photo.invalidData');
    } finally {
      setReading(false);
    }
  };

  return (
    <Input.Wrapper
      label={t('accreditationDetail.photo')}
      description={t('accreditationDetail.photoHint')}
      error={error}
    >
      <Stack gap="xs" mt={4}>
        {src ? (
          <Image src={src} alt={t('accreditationDetail.photo')} h={160} w="auto" fit="contain" maw={240} />
        ) : (
          <Text size="sm" c="dimmed">
            {needsLoad && image.isError ? t('accreditationDetail.photoLoadError') : t('accreditationDetail.noPhoto')}
          </Text>
        )}
        <Group gap="sm" align="flex-end">
          <FileInput
            aria-label={t('accreditationDetail.uploadPhoto')}
            placeholder={reading ? t('basics.working') : t('accreditationDetail.uploadPhoto')}
            accept={IMAGE_ACCEPT}
            leftSection={<IconPhoto size={16} />}
            value={null}
            onChange={(file) => void onFile(file)}
            w={240}
            disabled={reading}
          />
          <Button variant="default" onClick={() => setOpened(true)}>
            {t('accreditationDetail.fromGallery')}
          </Button>
          <Button variant="default" leftSection={<IconCamera size={16} />} onClick={() => setCamera(true)}>
            {t('accreditationDetail.fromCamera')}
          </Button>
          {(value.imageId !== null || value.imageData) && (
            <Button
              variant="subtle"
              color="red"
              onClick={() => {
                onChange({ imageId: null, imageData: null });
                onFileError(null);
              }}
            >
              {t('accreditationDetail.removePhoto')}
            </Button>
          )}
        </Group>
      </Stack>
      <WebcamCapture
        opened={camera}
        onClose={() => setCamera(false)}
        onCapture={(dataUrl) => {
          onChange({ imageId: null, imageData: dataUrl });
          onFileError(null);
          setCamera(false);
        }}
      />
      <GalleryPickerModal
        labels={{
          title: 'accreditationDetail.fromGallery',
          search: 'accreditationDetail.gallerySearch',
          pick: 'accreditationDetail.pickImage',
          error: 'accreditationDetail.cannotLoadFromGallery',
        }}
        opened={opened}
        onClose={() => setOpened(false)}
        onPick={(picked) => {
          queryClient.setQueryData(['admin', 'image', picked.id], picked);
          onChange({ imageId: picked.id, imageData: null });
          onFileError(null);
          setOpened(false);
        }}
      />
    </Input.Wrapper>
  );
}
