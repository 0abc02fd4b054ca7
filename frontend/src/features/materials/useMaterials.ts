import { useCallback, useEffect, useState } from 'react';
import type { Lot, MaterialSettings } from '@alignerflow/domain';
import { errorMessage } from '../../api/errorMessage';
import { materialsApi } from '../../api/materialsApi';

/** The lots register and the lab's materials settings, loaded when the screen or dialog opens. */
export function useMaterials() {
  const [lots, setLots] = useState<Lot[] | null>(null);
  const [settings, setSettings] = useState<MaterialSettings | null>(null);
  const [error, setError] = useState<string | null>(null);

  const reload = useCallback(async () => {
    try {
      const [loadedLots, loadedSettings] = await Promise.all([materialsApi.lots(), materialsApi.settings()]);
      setLots(loadedLots);
      setSettings(loadedSettings);
      setError(null);
    } catch (failure) {
      setError(errorMessage(failure));
    }
  }, []);

  useEffect(() => {
    void reload();
  }, [reload]);

  return { lots, settings, error, reload, setSettings };
}
