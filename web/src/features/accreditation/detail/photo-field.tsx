import {
  Alert,
  Button,
  Center,
  FileInput,
  Group,
  Image,
  Input,
  Loader,
  Modal,
  Pagination,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPhoto } from '@tabler/icons-react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { actionApi, type GalleryImage } from '../../../api/action';
import { notifyError } from '../../../app/notify';
import { checkImageFile, IMAGE_ACCEPT, readAsDataUrl, readHead, sniffImage } from '../../gallery/gallery-constants';

const PAGE_SIZE = 8;
/** Spec §9: the gallery search is debounced 600 ms. */
const SEARCH_DEBOUNCE_MS = 600;

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
 * gif, one file, at most 2 MB, checked before sending) or a gallery image, or cleared.
 */
export function PhotoField({ value, onChange, current, error, onFileError }: PhotoFieldProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [opened, setOpened] = useState(false);
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
      <GalleryModal
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

function GalleryModal({
  opened,
  onClose,
  onPick,
}: {
  opened: boolean;
  onClose: () => void;
  onPick: (image: GalleryImage) => void;
}) {
  const { t } = useTranslation();
  const [phrase, setPhrase] = useState('');
  const [debounced] = useDebouncedValue(phrase.trim(), SEARCH_DEBOUNCE_MS);
  const [page, setPage] = useState(1);
  const images = useQuery({
    queryKey: ['admin', 'image', 'all', { page, pageSize: PAGE_SIZE, phrase: debounced }],
    queryFn: ({ signal }) => actionApi.images({ page, pageSize: PAGE_SIZE, type: null, phrase: debounced }, signal),
    enabled: opened,
    placeholderData: keepPreviousData,
  });
  const failed = images.isError;
  useEffect(() => {
    if (failed) notifyError('accreditationDetail.cannotLoadFromGallery');
  }, [failed]);
  const pages = Math.max(1, Math.ceil((images.data?.max ?? 0) / PAGE_SIZE));

  let body: ReactNode;
  if (images.isPending) {
    body = (
      <Center py="lg" role="status">
        <Loader size="sm" mr="sm" />
        <Text size="sm">{t('basics.loading')}</Text>
      </Center>
    );
  } else if (images.isError) {
    body = (
      <Alert color="red" role="alert">
        {t('accreditationDetail.cannotLoadFromGallery')}
      </Alert>
    );
  } else if (images.data.data.length === 0) {
    body = (
      <Text size="sm" c="dimmed" ta="center" py="lg">
        {t('basics.noData')}
      </Text>
    );
  } else {
    body = (
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
        {images.data.data.map((img) => (
          <UnstyledButton
            key={img.id}
            onClick={() => onPick(img)}
            aria-label={`${t('accreditationDetail.pickImage')}: ${img.name}`}
            p={4}
            style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 4 }}
          >
            <Image src={img.path} alt="" h={80} fit="contain" />
            <Text size="xs" truncate mt={4}>
              {img.name}
            </Text>
          </UnstyledButton>
        ))}
      </SimpleGrid>
    );
  }

  return (
    <Modal opened={opened} onClose={onClose} title={t('accreditationDetail.fromGallery')} size="lg">
      <Stack gap="sm">
        <TextInput
          label={t('accreditationDetail.gallerySearch')}
          value={phrase}
          onChange={(event) => {
            setPhrase(event.currentTarget.value);
            setPage(1);
          }}
        />
        {body}
        {pages > 1 && (
          <Group justify="center">
            <Pagination
              size="sm"
              total={pages}
              value={page}
              onChange={setPage}
              aria-label={t('basics.pagination')}
              getItemProps={(p) => ({ 'aria-label': t('basics.pageNumber', { page: p }) })}
              getControlProps={(control) => ({ 'aria-label': t(`basics.page_${control}`) })}
            />
          </Group>
        )}
      </Stack>
    </Modal>
  );
}
