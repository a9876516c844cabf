import { useMantineColorScheme } from '@mantine/core';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useState } from 'react';
import type { DeskSettings, DeskSettingsPatch } from '../../../shared/desk-api';
import { DEFAULT_CURRENCY } from '../../../shared/wording/money';
import { useDesk, useDeskEvent, useDeskQuery } from './hooks';

interface SettingsValue {
  settings: DeskSettings | undefined;
  /** Saves a change; rejects with the desk's error (shown by the caller). */
  update(patch: DeskSettingsPatch): Promise<DeskSettings>;
}

const SettingsContext = createContext<SettingsValue>({
  settings: undefined,
  update: () => Promise.reject(new Error('SettingsProvider is missing')),
});

/**
 * Keeps the desk settings for the whole UI, follows `settings` events (another window may change
 * them), and applies the colour scheme to Mantine.
 */
export function SettingsProvider({ children }: { children: ReactNode }) {
  const api = useDesk();
  const query = useDeskQuery('settings.get');
  const [pushed, setPushed] = useState<DeskSettings>();
  useDeskEvent('settings', (event) => setPushed(event.settings));
  const settings = pushed ?? query.data;
  const { setColorScheme } = useMantineColorScheme();

  useEffect(() => {
    if (settings) setColorScheme(settings.colorScheme);
  }, [settings, setColorScheme]);

  const update = useCallback(
    async (patch: DeskSettingsPatch) => {
      const next = await api.call('settings.update', patch);
      setPushed(next);
      return next;
    },
    [api],
  );
  return <SettingsContext.Provider value={{ settings, update }}>{children}</SettingsContext.Provider>;
}

export function useSettings(): SettingsValue {
  return useContext(SettingsContext);
}

/** The shelter's currency (ISO 4217) for every amount of money the screens show. */
export function useCurrency(): string {
  return useContext(SettingsContext).settings?.currency ?? DEFAULT_CURRENCY;
}
