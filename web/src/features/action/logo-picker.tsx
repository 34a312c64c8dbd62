import {
  Alert,
  Button,
  Center,
  Group,
  Image,
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
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { actionApi, type GalleryImage } from '../../api/action';

const PAGE_SIZE = 8;
/** Spec §9: the gallery search is debounced 600 ms. */
const SEARCH_DEBOUNCE_MS = 600;

/** The preview logo (spec §2 Preview): an image chosen from the gallery, or none. */
export function LogoPicker({ value, onChange }: { value: number | null; onChange: (id: number | null) => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [opened, setOpened] = useState(false);
  const image = useQuery({
    queryKey: ['admin', 'image', value],
    queryFn: () => actionApi.image(value as number),
    enabled: value !== null,
  });

  return (
    <Stack gap="xs">
      <Text size="sm" fw={500}>
        {t('action.logo')}
      </Text>
      {value === null && (
        <Text size="sm" c="dimmed">
          {t('action.noLogo')}
        </Text>
      )}
      {value !== null && image.data && (
        <Image src={image.data.path} alt={image.data.name} h={80} w="auto" fit="contain" maw={240} />
      )}
      {value !== null && image.isError && (
        <Text size="sm" c="red">
          {t('action.logoLoadError')}
        </Text>
      )}
      <Group gap="sm">
        <Button variant="default" onClick={() => setOpened(true)}>
          {value === null ? t('action.chooseLogo') : t('action.changeLogo')}
        </Button>
        {value !== null && (
          <Button variant="subtle" color="red" onClick={() => onChange(null)}>
            {t('action.removeLogo')}
          </Button>
        )}
      </Group>
      <GalleryPickerModal
        opened={opened}
        onClose={() => setOpened(false)}
        onPick={(picked) => {
          queryClient.setQueryData(['admin', 'image', picked.id], picked);
          onChange(picked.id);
          setOpened(false);
        }}
      />
    </Stack>
  );
}

function GalleryPickerModal({
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
  const pages = Math.max(1, Math.ceil((images.data?.max ?? 0) / PAGE_SIZE));

  let body: React.ReactNode;
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
        {t('action.galleryError')}
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
            aria-label={`${t('action.pickImage')}: ${img.name}`}
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
    <Modal opened={opened} onClose={onClose} title={t('action.chooseLogo')} size="lg">
      <Stack gap="sm">
        <TextInput
          label={t('action.gallerySearch')}
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
