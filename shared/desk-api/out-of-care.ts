/**
 * Statuses that mean the animal has left the shelter's care. Every other status, custom labels included, counts as in
 * care (a custom "Meet and greet" or "Behavior hold" animal is still in a kennel or a foster home).
 */
export const OUT_OF_CARE_STATUSES = [
  'adopted',
  'archived',
  'deceased',
  'escaped',
  'euthanized',
  'lost',
  'returnedToOwner',
  'transferred',
] as const;

const OUT_OF_CARE = new Set<string>(OUT_OF_CARE_STATUSES.map((status) => status.toLowerCase()));

/** Whether a pet of this status has left the shelter's care (any case: servers send `Adopted` too). */
export function isOutOfCare(status: string): boolean {
  return OUT_OF_CARE.has(status.toLowerCase());
}
