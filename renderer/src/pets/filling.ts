import { useDeskStatus } from '../bridge/hooks';
import { type Filling, fillingProgress } from './filling-progress';

/** `fillingProgress` of the desk's current status. */
export function useFillingProgress(collection: 'pets' | 'adopters' | 'fosters'): Filling | undefined {
  return fillingProgress(useDeskStatus().status, collection);
}
