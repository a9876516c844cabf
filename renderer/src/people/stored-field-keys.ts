import { useEffect, useState } from 'react';
import { useDesk, useDeskQuery } from '../bridge/hooks';
import type { StoredKeys } from '../lib/custom-field-rows';

const NONE: StoredKeys = new Map();

/**
 * Where a person's custom values are stored (public key → internal key) on a desk that runs its shelter, read from
 * the shelter's field settings; an empty map on a connected desk (see `StoredKeys`).
 */
export function useStoredFieldKeys(entity: 'adopter' | 'foster'): StoredKeys {
  const api = useDesk();
  const overview = useDeskQuery('shelter.overview');
  const standalone = overview.data?.role === 'standalone';
  const [keys, setKeys] = useState<StoredKeys>(NONE);
  useEffect(() => {
    if (!standalone) return setKeys(NONE);
    let current = true;
    api.call('shelter.settings.get').then(
      (settings) => {
        if (!current) return;
        const pairs = settings.fields
          .filter((field) => field.entity === entity && field.publicKey)
          .map((field): [string, string] => [field.publicKey as string, field.fieldKey]);
        setKeys(new Map(pairs));
      },
      // Without the settings the cf_ convention still labels most fields.
      () => current && setKeys(NONE),
    );
    return () => {
      current = false;
    };
  }, [api, entity, standalone]);
  return keys;
}
