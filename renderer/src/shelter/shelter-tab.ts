import { rememberForScreen } from '../lib/remembered';

/** Where Shelter settings keeps the tab it shows (`useRememberedState`). */
export const SHELTER_TAB_KEY = 'shelter.tab';

/** Opens Shelter settings on one of its tabs (the Fees and Contracts screens lead to their editors). */
export function openShelterSettings(tab: 'fees' | 'contracts'): void {
  rememberForScreen('shelter', { tab });
}
