import { startPosition, type WalkResult } from './list-walk';
import {
  commit,
  currentTotal,
  type ListPullResult,
  type Pull,
  stopForInvalid,
  stopIncomplete,
  walk,
} from './pull-steps';

/** Repair rounds of one pull (re-reading what may have shifted) before it gives up for this run. */
export const MAX_REPAIR_ROUNDS = 12;

/** Whole walks in a row that brought no record not seen before, after which the pull gives up for this run. */
const MAX_STALLED_ROUNDS = 5;

/**
 * Reads again until the pull has proved it holds the list, then commits; after a bounded number of rounds it stops
 * and says why, with the checkpoint where it was.
 *
 * The proof: a fresh `total` for the pull's query is at most the number of distinct records this pull saw in its
 * list pages. Every record the list shows at that moment was then seen by this pull, so at the version the server
 * had when the pull began or a later one (records only move forward, and nothing read is thrown away). It holds
 * whatever the list's order and however its pages shifted, where counting the mirror's rows would not: a walk in a
 * shuffled order can leave the right number of rows with stale contents, and records that left the list since the
 * last sync can hide as many that were skipped. (A record seen and then taken off the list during the pull is
 * counted too; the removal check that follows the pull reads the whole list again when that happens.)
 *
 * Each round reads again what may have been skipped: first the end of the list (on a server that lists in updated
 * order, records edited meanwhile go there), then the whole query. Every page read is kept.
 */
export async function repairUntilConverged(
  pull: Pull,
  lastWhole: WalkResult | undefined,
): Promise<ListPullResult> {
  const { collection, since, result } = pull;
  // Reading only the end of the list helps when the server lists in updated order (edited records go there).
  const inUpdatedOrder = lastWhole?.position.keyset ?? true;
  let requestId: string | undefined;
  let total = 0;
  let stalled = 0;
  let seenBefore = pull.seen.size;
  let lastReadTailOnly = false;
  for (let round = 0; ; round += 1) {
    const current = await currentTotal(pull);
    requestId = current.requestId;
    total = current.total;
    if (pull.seen.size >= total && !result.problem) {
      if (since === null) result.listTotal = total;
      return commit(pull);
    }
    // Only a whole read that found nothing new counts as stalled: a short tail read that finds nothing says little.
    if (pull.seen.size > seenBefore) stalled = 0;
    else if (round > 0 && !lastReadTailOnly) stalled += 1;
    seenBefore = pull.seen.size;
    if (round >= MAX_REPAIR_ROUNDS || stalled >= MAX_STALLED_ROUNDS) break;
    result.repairs += 1;
    pull.stage = 'repairing';
    result.problem = undefined;
    // A whole read pages by offset: the order the last one relied on did not prove the list complete.
    const tailOnly = inUpdatedOrder && round % 2 === 0;
    lastReadTailOnly = tailOnly;
    const walked = await walk(pull, startPosition(tailOnly ? pull.maxSeen : since, tailOnly), false);
    if (walked.invalid.length > 0) return stopForInvalid(pull);
  }
  stopIncomplete(pull, result.problem ? 'empty-page' : 'unconverged');
  const where = requestId ? ` (request id ${requestId})` : '';
  result.problem ??= `The server's ${collection.name} list kept changing while the desk read it: after ${result.repairs} repairs the desk had seen ${pull.seen.size} of the ${total} records of the list's total${where}. The mirror may be behind; what was read is kept and the next sync goes on from there.`;
  return result;
}
