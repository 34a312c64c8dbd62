import { Button, Group, Image, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { actionApi } from '../../api/action';
import { GalleryPickerModal } from '../../components/gallery-picker-modal';

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
        labels={{
          title: 'action.chooseLogo',
          search: 'action.gallerySearch',
          pick: 'action.pickImage',
          error: 'action.galleryError',
        }}
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
