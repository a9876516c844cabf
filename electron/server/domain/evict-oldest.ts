/**
 * Drops the `count` oldest entries of a Map in one pass. Evicting one entry per insert instead would make
 * `keys().next()` walk over the deleted slots at the front of the Map each time (quadratic under churn).
 */
export function evictOldest<K, V>(map: Map<K, V>, count: number): void {
  let left = count;
  for (const key of map.keys()) {
    if (left-- <= 0) break;
    map.delete(key);
  }
}
