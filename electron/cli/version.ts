/** The package's version, written in by the command line's build (scripts/lib/cli-build.mjs); absent when run from source. */
declare const __SHELTER_DESK_VERSION__: string | undefined;

/** Shelter Desk's version: the built command line's own, else npm's for the package it runs in (tests, tsx). */
export function cliVersion(): string {
  const built = typeof __SHELTER_DESK_VERSION__ === 'string' ? __SHELTER_DESK_VERSION__ : undefined;
  return built ?? process.env.npm_package_version ?? 'unknown';
}
