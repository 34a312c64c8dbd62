import { Button, Drawer, Input, SegmentedControl, SimpleGrid, Stack, Switch, Title } from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import {
  LAYOUT_PRESETS,
  type LayoutPreset,
  type LayoutSettings,
  presetSettings,
  type Shade,
  useLayoutSettings,
} from '../../app/layout-settings';

const PRESET_LABELS: Record<LayoutPreset, string> = {
  light: 'layout.presetLight',
  dark: 'layout.presetDark',
  smallSidebar: 'layout.presetSmallSidebar',
  darkSidebar: 'layout.presetDarkSidebar',
  darkNavbar: 'layout.presetDarkNavbar',
};

function ShadeChoice({ label, value, onChange }: { label: string; value: Shade; onChange: (value: Shade) => void }) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <Input.Wrapper label={label} id={id} labelElement="div">
      <SegmentedControl
        fullWidth
        aria-labelledby={`${id}-label`}
        value={value}
        onChange={(v) => onChange(v === 'dark' ? 'dark' : 'light')}
        data={[
          { value: 'light', label: t('layout.light') },
          { value: 'dark', label: t('layout.dark') },
        ]}
      />
    </Input.Wrapper>
  );
}

/** The right settings sidebar (spec §2 Layout): presets and light/dark per area, kept in accredo.layout. */
export function LayoutSettingsDrawer({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { settings, update } = useLayoutSettings();
  const set = (key: keyof Omit<LayoutSettings, 'smallSidebar'>) => (value: Shade) => update({ [key]: value });
  return (
    <Drawer opened={opened} onClose={onClose} position="right" title={t('layout.settings')} size="sm">
      <Stack gap="lg">
        <div>
          <Title order={5} mb="xs">
            {t('layout.presets')}
          </Title>
          <SimpleGrid cols={2} spacing="xs">
            {LAYOUT_PRESETS.map((preset) => (
              <Button key={preset} variant="default" onClick={() => update(presetSettings(preset))}>
                {t(PRESET_LABELS[preset])}
              </Button>
            ))}
          </SimpleGrid>
        </div>
        <ShadeChoice label={t('layout.background')} value={settings.background} onChange={set('background')} />
        <ShadeChoice label={t('layout.navbar')} value={settings.navbar} onChange={set('navbar')} />
        <ShadeChoice label={t('layout.sidebar')} value={settings.sidebar} onChange={set('sidebar')} />
        <Switch
          label={t('layout.presetSmallSidebar')}
          checked={settings.smallSidebar}
          onChange={(event) => update({ smallSidebar: event.currentTarget.checked })}
        />
      </Stack>
    </Drawer>
  );
}
