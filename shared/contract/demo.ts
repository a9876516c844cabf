/**
 * A demo shelter announced: Shelter Desk's server running the demo's made-up pets and people adds this name to
 * EXTENSIONS_HEADER, so a desk connected to it marks them as a demo too (electron/server/API.md, "Headers on every
 * response"). Not an endpoint: a fact about the shelter's records.
 */
export const DEMO_SHELTER_EXTENSION = 'demo-shelter';
