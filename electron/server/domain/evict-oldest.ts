/**
 * Drops the `count` oldest entries of a Map (or Set) in one pass. Evicting one entry per insert instead would make
 * `keys().next()` walk over the deleted slots at the front of the Map each time (quadratic under churn).
 */
export function evictOldest<K>(map: { keys(): Iterable<K>; delete(key: K): boolean }, count: number): void {
  let left = count;
  for (const key of map.keys()) {
    if (left-- <= 0) break;
    map.delete(key);
  }
}
