import { callEarly } from '../bridge/early-calls';
import { FIRST_PET_FILTERS, petListQuery } from './pet-list-query';
import { LIST_PAGE_SIZE } from './use-list-pages';

/**
 * A new tab on the Pets list asks for its first rows as soon as the desk's bridge is loaded: `main.tsx` imports this
 * module before the app's own modules, so the desk answers while they run, and the first render can show the rows
 * (see `useListPages`). In the built bundle the modules it needs (the bridge, and React through `use-list-pages`) run
 * before it.
 */
if (window.location.hash === '#/pets') {
  callEarly('mirror.pets.list', { ...petListQuery(FIRST_PET_FILTERS), limit: LIST_PAGE_SIZE, offset: 0 });
}
