import { Button, FileInput, Group, Image, Input, Stack } from '@mantine/core';
import { IconCamera, IconPhoto } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { checkImageFile, IMAGE_ACCEPT, readAsDataUrl, readHead, sniffImage } from '../gallery/gallery-constants';

/** The camera dialog is loaded when first opened, not with the form (issue 15, a light first load). */
const WebcamCapture = lazy(async () => ({ default: (await import('../../components/webcam-capture')).WebcamCapture }));

/**
 * The visitor's photo (spec §5 Online registration, §9): one png, jpg, jpeg or gif file of at most
 * 2 MB, checked before anything is sent, or a webcam picture (PNG); shown, replaceable, removable.
 */
export function OnlinePhoto({
  className,
  value,
  required,
  error,
  onChange,
  onFileError,
}: {
  className?: string;
  value: string | null;
  required: boolean;
  error?: string;
  onChange: (dataUrl: string | null) => void;
  /** reports the message key of a refused file */
  onFileError: (key: string) => void;
}) {
  const { t } = useTranslation();
  const [camera, setCamera] = useState(false);
  const [cameraWanted, setCameraWanted] = useState(false);
  if (camera && !cameraWanted) setCameraWanted(true);
  const [reading, setReading] = useState(false);

  const onFile = async (file: File | null) => {
    if (!file) return;
    const key = checkImageFile(file);
    if (key) {
      onFileError(key === 'photo.chooseToolTipOnline' ? 'online.photoTooLarge' : 'online.photoType');
      return;
    }
    setReading(true);
    try {
      if (!sniffImage(await readHead(file))) onFileError('online.photoType');
      else onChange(await readAsDataUrl(file));
    } catch {
      onFileError('online.photoType');
    } finally {
      setReading(false);
    }
  };

  return (
    <Input.Wrapper
      className={className}
      label={t('online.photo')}
      description={t('online.photoHint')}
      required={required}
      error={error}
    >
      <Stack gap="xs" mt={4}>
        {value && <Image src={value} alt={t('online.photo')} h={140} w="auto" fit="contain" maw={220} />}
        <FileInput
          aria-label={t('online.photoUpload')}
          placeholder={reading ? t('basics.working') : t('online.photoUpload')}
          accept={IMAGE_ACCEPT}
          leftSection={<IconPhoto size={16} />}
          value={null}
          disabled={reading}
          onChange={(file) => void onFile(file)}
          error={Boolean(error)}
        />
        <Group gap="xs">
          <Button variant="default" leftSection={<IconCamera size={14} />} onClick={() => setCamera(true)}>
            {t('online.photoCamera')}
          </Button>
          {value && (
            <Button variant="subtle" color="red" onClick={() => onChange(null)}>
              {t('online.photoRemove')}
            </Button>
          )}
        </Group>
      </Stack>
      {cameraWanted && (
        <Suspense fallback={null}>
          <WebcamCapture
            opened={camera}
            onClose={() => setCamera(false)}
            onCapture={(dataUrl) => {
              onChange(dataUrl);
              setCamera(false);
            }}
          />
        </Suspense>
      )}
    </Input.Wrapper>
  );
}
