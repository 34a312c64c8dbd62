import { hasRight } from '@accredo/domain';
import {
  Alert,
  Badge,
  Button,
  Card,
  Center,
  Group,
  Image,
  Pagination,
  Select,
  SimpleGrid,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { galleryApi, type ImageDto } from '../../api/gallery';
import { useAdminSession } from '../../app/admin-session';
import { LoadingState } from '../../components/loading-state';
import { PageHeader } from '../../components/page-header';
import { formatBytes, GALLERY_PAGE_SIZE, GALLERY_SEARCH_DEBOUNCE_MS, imageTypeData } from './gallery-constants';

export const IMAGES_KEY = ['admin', 'image'] as const;

function ImageCard({ image }: { image: ImageDto }) {
  const { t } = useTranslation();
  return (
    <Card withBorder padding="xs" component={Link} to={`/gallery/detail/${image.id}`}>
      {/* named by its visible text (name, type, size), so the image says nothing more */}
      <Card.Section bg="var(--mantine-color-default-hover)">
        <Image src={image.path} alt="" h={140} fit="contain" loading="lazy" />
      </Card.Section>
      <Text size="sm" fw={500} mt="xs" truncate title={image.name}>
        {image.name}
      </Text>
      <Group justify="space-between" gap={4} mt={4}>
        <Badge size="xs" variant="light">
          {t(`gallery.type${image.type}`)}
        </Badge>
        <Text size="xs" c="dimmed">
          {image.width}×{image.height} · {formatBytes(image.size)}
        </Text>
      </Group>
    </Card>
  );
}

/** `/gallery` (spec §2, §7 Images, §9): the images in pages of 24, type filter, debounced name search. */
export function GalleryListPage() {
  const { t } = useTranslation();
  const session = useAdminSession();
  const [params, setParams] = useSearchParams();
  const requestedType = params.get('type') ?? '0';
  const type = ['0', '1', '2', '3'].includes(requestedType) ? requestedType : '0';
  const phrase = params.get('q') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);

  const [phraseInput, setPhraseInput] = useState(phrase);
  const [debouncedPhrase] = useDebouncedValue(phraseInput, GALLERY_SEARCH_DEBOUNCE_MS);

  const update = useCallback(
    (patch: Record<string, string | null>) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const [key, value] of Object.entries(patch)) {
            if (
              value === null ||
              value === '' ||
              (key === 'type' && value === '0') ||
              (key === 'page' && value === '1')
            )
              next.delete(key);
            else next.set(key, value);
          }
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );

  // Only the debounced input drives the search; the address is read at that moment.
  const phraseRef = useRef(phrase);
  phraseRef.current = phrase;
  useEffect(() => {
    const trimmed = debouncedPhrase.trim();
    if (trimmed !== phraseRef.current) update({ q: trimmed, page: '1' });
  }, [debouncedPhrase, update]);

  const query = useQuery({
    queryKey: [...IMAGES_KEY, 'list', { page, type, phrase }],
    queryFn: ({ signal }) =>
      galleryApi.list({ page, pageSize: GALLERY_PAGE_SIZE, type: Number(type) || null, phrase }, signal),
    placeholderData: keepPreviousData,
  });
  const images = query.data?.data ?? [];
  const pages = Math.max(1, Math.ceil((query.data?.max ?? 0) / GALLERY_PAGE_SIZE));

  useEffect(() => {
    if (query.data && page > pages) update({ page: String(pages) });
  }, [pages, page, query.data, update]);

  let body: ReactNode;
  if (query.isPending) body = <LoadingState />;
  else if (query.isError)
    body = (
      <Alert color="red" role="alert">
        {t('gallery.loadListError')}
      </Alert>
    );
  else if (images.length === 0)
    body = (
      <Text c="dimmed" ta="center" py="xl">
        {phrase || type !== '0' ? t('gallery.emptyFiltered') : t('gallery.empty')}
      </Text>
    );
  else
    body = (
      <SimpleGrid cols={{ base: 2, sm: 3, md: 4, lg: 6 }} spacing="sm" aria-busy={query.isFetching || undefined}>
        {images.map((image) => (
          <ImageCard key={image.id} image={image} />
        ))}
      </SimpleGrid>
    );

  return (
    <>
      <PageHeader title={t('gallery.title')}>
        {hasRight(session, 'image', 'create') && (
          <Button component={Link} to="/gallery/add" leftSection={<IconPlus size={16} />}>
            {t('gallery.add')}
          </Button>
        )}
      </PageHeader>
      <Group mb="md" gap="sm" align="flex-end" role="search">
        <Select
          label={t('gallery.type')}
          w={200}
          allowDeselect={false}
          data={[{ value: '0', label: t('gallery.allTypes') }, ...imageTypeData(t)]}
          value={type}
          onChange={(value) => update({ type: value ?? '0', page: '1' })}
        />
        <TextInput
          label={t('gallery.search')}
          w={280}
          leftSection={<IconSearch size={16} />}
          value={phraseInput}
          onChange={(event) => setPhraseInput(event.currentTarget.value)}
        />
        {query.data && (
          <Text size="sm" c="dimmed" aria-live="polite">
            {t('basics.total', { count: query.data.max })}
          </Text>
        )}
      </Group>
      {body}
      {pages > 1 && (
        <Center mt="md">
          <Pagination
            total={pages}
            value={Math.min(page, pages)}
            onChange={(p) => update({ page: String(p) })}
            aria-label={t('basics.pagination')}
            getItemProps={(p) => ({ 'aria-label': t('basics.pageNumber', { page: p }) })}
            getControlProps={(control) => ({ 'aria-label': t(`basics.page_${control}`) })}
          />
        </Center>
      )}
    </>
  );
}
