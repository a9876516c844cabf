/** The generic update feed, replaced at build time (electron.vite.config.ts `define`); absent under vitest. */
declare const __SHELTER_DESK_UPDATE_URL__: string | undefined;
