/** Where an entry sits in the tab's history, kept in its state: a refused move is undone by that many steps. */
export const DEPTH = 'shelterDeskDepth';

/** The depth an entry's state holds, if any. */
export function depthOf(state: unknown): number | undefined {
  const depth = (state as Record<string, unknown> | null)?.[DEPTH];
  return typeof depth === 'number' ? depth : undefined;
}
