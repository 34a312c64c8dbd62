import { hasRight, type WebChannel } from '@accredo/domain';
import { Button, FileInput, Image, Paper, Stack, Text, Title } from '@mantine/core';
import { IconPhoto, IconUpload } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { actionApi } from '../../api/action';
import { galleryApi } from '../../api/gallery';
import { useAdminSession } from '../../app/admin-session';
import { GalleryPickerModal } from '../../components/gallery-picker-modal';
import { checkImageFile, IMAGE_ACCEPT, readAsDataUrl, readHead, sniffImage } from '../gallery/gallery-constants';
import type { ChannelForm } from './web-channel-detail-page';

/** Spec §3 Image: a logo uploaded here goes to the gallery as 'other' (type 3). */
const LOGO_IMAGE_TYPE = 3;

/**
 * The channel's logo (spec §2 'logo side panel', §4 Logo or photo): kept, replaced by a gallery
 * image or a new upload (which is added to the gallery), or cleared. Saved with the channel.
 */
export function LogoPanel({ form, channel }: { form: ChannelForm; channel?: WebChannel }) {
  const { t } = useTranslation();
  const session = useAdminSession();
  const queryClient = useQueryClient();
  const imageId = useWatch({ control: form.control, name: 'imageId' });
  const [opened, setOpened] = useState(false);
  const [uploading, setUploading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const stored = channel?.image && channel.image.id === imageId ? channel.image : null;
  const image = useQuery({
    queryKey: ['admin', 'image', imageId],
    queryFn: () => actionApi.image(imageId as number),
    enabled: imageId !== null && !stored,
  });
  const src = stored?.path ?? image.data?.path ?? null;

  const setLogo = (id: number | null) => {
    form.setValue('imageId', id, { shouldDirty: true });
    setError(null);
  };

  const upload = async (file: File | null) => {
    if (!file) return;
    const key = checkImageFile(file);
    if (key) {
      setError(key);
      return;
    }
    setUploading(true);
    try {
      if (!sniffImage(await readHead(file))) {
        setError('photo.invalidType');
        return;
      }
      const created = await galleryApi.create({
        type: LOGO_IMAGE_TYPE,
        name: file.name.replace(/\.[^.]+$/, ''),
        baseData: await readAsDataUrl(file),
      });
      queryClient.setQueryData(['admin', 'image', created.id], created);
      setLogo(created.id);
    } catch {
      setError('webChannel.logoUploadError');
    } finally {
      setUploading(false);
    }
  };

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="channel-logo-title">
      <Stack gap="sm">
        <Title order={2} size="h5" id="channel-logo-title">
          {t('webChannel.logo')}
        </Title>
        {imageId === null ? (
          <Text size="sm" c="dimmed">
            {t('webChannel.noLogo')}
          </Text>
        ) : src ? (
          <Image src={src} alt={t('webChannel.logo')} h={120} w="auto" fit="contain" />
        ) : (
          <Text size="sm" c={image.isError ? 'red' : 'dimmed'}>
            {image.isError ? t('webChannel.logoLoadError') : t('basics.loading')}
          </Text>
        )}
        {hasRight(session, 'image', 'get') && (
          <Button variant="default" leftSection={<IconPhoto size={16} />} onClick={() => setOpened(true)}>
            {t('webChannel.logoFromGallery')}
          </Button>
        )}
        {hasRight(session, 'image', 'create') && (
          <FileInput
            aria-label={t('webChannel.logoUpload')}
            placeholder={uploading ? t('basics.working') : t('webChannel.logoUpload')}
            accept={IMAGE_ACCEPT}
            leftSection={<IconUpload size={16} />}
            value={null}
            disabled={uploading}
            onChange={(file) => void upload(file)}
          />
        )}
        {error && (
          <Text size="sm" c="red" role="alert">
            {t(error)}
          </Text>
        )}
        {imageId !== null && (
          <Button variant="subtle" color="red" onClick={() => setLogo(null)}>
            {t('webChannel.removeLogo')}
          </Button>
        )}
      </Stack>
      <GalleryPickerModal
        labels={{
          title: 'webChannel.logoFromGallery',
          search: 'webChannel.gallerySearch',
          pick: 'webChannel.pickImage',
          error: 'webChannel.galleryLoadError',
        }}
        opened={opened}
        onClose={() => setOpened(false)}
        onPick={(picked) => {
          queryClient.setQueryData(['admin', 'image', picked.id], picked);
          setLogo(picked.id);
          setOpened(false);
        }}
      />
    </Paper>
  );
}
