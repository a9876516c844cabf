import type { SyncProgress } from '../../../shared/desk-api';
import { useDeskStatus } from '../bridge/hooks';
import { fillingProgress } from './filling-progress';

/** `fillingProgress` of the desk's current status. */
export function useFillingProgress(collection: 'pets' | 'adopters' | 'fosters'): SyncProgress | undefined {
  return fillingProgress(useDeskStatus().status, collection);
}
