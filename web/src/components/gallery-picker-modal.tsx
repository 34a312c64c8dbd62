import {
  Alert,
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
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { actionApi, type GalleryImage } from '../api/action';

const PAGE_SIZE = 8;
const SEARCH_DEBOUNCE_MS = 600;

export interface GalleryPickerLabels {
  /** i18n keys: the modal's title, the search input, the pick button prefix, the load error */
  title: string;
  search: string;
  pick: string;
  error: string;
}

/**
 * Choose an image from the gallery (spec §9: 8 per page, search debounced 600 ms): the action's
 * preview logo and an accreditation's photo both pick with it.
 */
export function GalleryPickerModal({
  opened,
  onClose,
  onPick,
  labels,
}: {
  opened: boolean;
  onClose: () => void;
  onPick: (image: GalleryImage) => void;
  labels: GalleryPickerLabels;
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
        {t(labels.error)}
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
            aria-label={`${t(labels.pick)}: ${img.name}`}
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
    <Modal opened={opened} onClose={onClose} title={t(labels.title)} size="lg">
      <Stack gap="sm">
        <TextInput
          label={t(labels.search)}
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
