import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { readStorage, STORAGE_KEYS, writeStorage } from '../api/storage';

export type Shade = 'light' | 'dark';

/** The appearance chosen in the settings drawer (spec §2 Layout), remembered in the browser. */
export interface LayoutSettings {
  background: Shade;
  navbar: Shade;
  sidebar: Shade;
  smallSidebar: boolean;
}

export type LayoutPreset = 'light' | 'dark' | 'smallSidebar' | 'darkSidebar' | 'darkNavbar';
export const LAYOUT_PRESETS: LayoutPreset[] = ['light', 'dark', 'smallSidebar', 'darkSidebar', 'darkNavbar'];

export const DEFAULT_LAYOUT: LayoutSettings = {
  background: 'light',
  navbar: 'light',
  sidebar: 'light',
  smallSidebar: false,
};

export function presetSettings(preset: LayoutPreset): LayoutSettings {
  switch (preset) {
    case 'dark':
      return { background: 'dark', navbar: 'dark', sidebar: 'dark', smallSidebar: false };
    case 'smallSidebar':
      return { ...DEFAULT_LAYOUT, smallSidebar: true };
    case 'darkSidebar':
      return { ...DEFAULT_LAYOUT, sidebar: 'dark' };
    case 'darkNavbar':
      return { ...DEFAULT_LAYOUT, navbar: 'dark' };
    default:
      return DEFAULT_LAYOUT;
  }
}

const shade = (value: unknown): Shade => (value === 'dark' ? 'dark' : 'light');

export function readLayoutSettings(): LayoutSettings {
  try {
    const raw = JSON.parse(readStorage(STORAGE_KEYS.layout) ?? '{}') as Partial<Record<keyof LayoutSettings, unknown>>;
    return {
      background: shade(raw.background),
      navbar: shade(raw.navbar),
      sidebar: shade(raw.sidebar),
      smallSidebar: raw.smallSidebar === true,
    };
  } catch {
    return DEFAULT_LAYOUT;
  }
}

interface LayoutSettingsContextValue {
  settings: LayoutSettings;
  update: (patch: Partial<LayoutSettings>) => void;
}

const LayoutSettingsContext = createContext<LayoutSettingsContextValue>({ settings: DEFAULT_LAYOUT, update: () => {} });

export function LayoutSettingsProvider({ children }: { children: ReactNode }) {
  const [settings, setSettings] = useState<LayoutSettings>(readLayoutSettings);
  const update = useCallback((patch: Partial<LayoutSettings>) => {
    setSettings((current) => {
      const next = { ...current, ...patch };
      writeStorage(STORAGE_KEYS.layout, JSON.stringify(next));
      return next;
    });
  }, []);
  const value = useMemo(() => ({ settings, update }), [settings, update]);
  return <LayoutSettingsContext.Provider value={value}>{children}</LayoutSettingsContext.Provider>;
}

export const useLayoutSettings = () => useContext(LayoutSettingsContext);
