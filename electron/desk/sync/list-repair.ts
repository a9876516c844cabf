import { countListed, listedIds, toMs } from '../mirror';
import { startPosition, type WalkResult } from './list-walk';
import { commit, currentTotal, type ListPullResult, type Pull, stopForInvalid, walk } from './pull-steps';
import { checkByIds } from './reconcile';

/** Repair rounds of one pull (re-reading what may have shifted) before it gives up for this run. */
export const MAX_REPAIR_ROUNDS = 12;

/** Rounds in a row that did not bring the counts closer, after which the pull stops repairing for this run. */
const MAX_STALLED_ROUNDS = 5;

/** Records asked about by id in one pull (records the list stopped showing, or listed records it never showed). */
const MAX_CHECKS_BY_ID = 500;

/**
 * Compares the server's count with the mirror's and repairs until they agree:
 * - a shortfall reads again what may have shifted (first the end of the list, where edited records go on a server
 *   that lists in updated order, then the whole query);
 * - a surplus asks by id about the records the last whole walk did not show (they left the list);
 * - once the counts agree after a walk that paged by offset, listed records the pull never saw (the mirror may count
 *   an older copy of them) are fetched by id, or the list is walked again when there are too many.
 * Each round keeps what it read, so a busy server that reorders on every request still lets the pull finish.
 */
export async function repairUntilConverged(
  pull: Pull,
  lastWhole: WalkResult | undefined,
): Promise<ListPullResult> {
  const { db, collection, since, result } = pull;
  const scope = { entityType: collection.entityType, personType: collection.personType };
  const sinceMs = since === null ? undefined : toMs(since);
  // Reading only the end of the list helps when the server lists in updated order (edited records go there).
  const tailHelps = lastWhole?.position.keyset ?? true;
  let whole = lastWhole;
  let checkedById = 0;
  let requestId: string | undefined;
  let counts = { server: 0, mirror: 0 };
  let gap = Number.POSITIVE_INFINITY;
  let stalled = 0;
  let lastReadTailOnly = false;
  const checkById = async (ids: string[], presence: 'unlisted' | 'keep') => {
    checkedById += ids.length;
    await checkByIds(db, pull.client, collection, ids, pull.options.signal, result.reconciled, presence);
    result.requests += ids.length;
    for (const id of ids) pull.seen.add(id);
  };
  for (let round = 0; ; round += 1) {
    const current = await currentTotal(pull);
    requestId = current.requestId;
    counts = { server: current.total, mirror: countListed(db, scope, sinceMs) };
    if (counts.server === counts.mirror && !result.problem) {
      const unseen = unseenListed(pull, sinceMs);
      if (unseen.length === 0) {
        if (since === null) result.listTotal = counts.server;
        return commit(pull);
      }
      if (round >= MAX_REPAIR_ROUNDS) break;
      result.repairs += 1;
      pull.stage = 'repairing';
      if (unseen.length <= MAX_CHECKS_BY_ID - checkedById) await checkById(unseen, 'keep');
      else await walk(pull, startPosition(since, false), false);
      continue;
    }
    const nowGap = Math.abs(counts.server - counts.mirror);
    // Only a whole read that left the gap as it was counts as stalled: on a server that reorders on every request
    // an offset walk is a sample, and a short tail read that finds nothing says little.
    if (nowGap < gap) stalled = 0;
    else if (!lastReadTailOnly) stalled += 1;
    gap = Math.min(gap, nowGap);
    if (round >= MAX_REPAIR_ROUNDS || stalled >= MAX_STALLED_ROUNDS) break;
    result.repairs += 1;
    pull.stage = 'repairing';
    result.problem = undefined;
    if (counts.mirror > counts.server && whole) {
      const seen = whole.seen;
      const unseen = listedIds(db, scope, sinceMs).filter((id) => !seen.has(id));
      const batch = unseen.slice(0, Math.max(0, MAX_CHECKS_BY_ID - checkedById));
      if (batch.length > 0) {
        await checkById(batch, 'unlisted');
        whole = undefined;
        lastReadTailOnly = false;
        continue;
      }
    }
    const tailOnly = tailHelps && counts.mirror < counts.server && round % 2 === 0;
    lastReadTailOnly = tailOnly;
    const walked = await walk(pull, startPosition(tailOnly ? pull.maxSeen : since, tailOnly), false);
    if (walked.invalid.length > 0) return stopForInvalid(pull);
    if (!tailOnly) whole = walked;
    else for (const id of walked.seen) whole?.seen.add(id);
  }
  result.incompleteReason = result.problem ? 'empty-page' : 'unconverged';
  const where = requestId ? ` (request id ${requestId})` : '';
  result.problem ??=
    counts.server === counts.mirror
      ? `The server's ${collection.name} kept changing faster than the desk could read them after ${result.repairs} repairs${where}; what was read is kept and the next sync goes on from there.`
      : `The server's ${collection.name} total (${counts.server}) still differs from the ${counts.mirror} records it listed after ${result.repairs} repairs${where}; what was read is kept and the next sync goes on from there.`;
  return result;
}

/**
 * Listed records in the pull's range that it never saw, when that matters: after a walk that paged by offset the
 * counts can agree while the mirror counts an older copy of a record the walk skipped. A pull resumed from an earlier
 * run did not see the pages stored then, so there the counts alone decide.
 */
function unseenListed(pull: Pull, sinceMs: number | undefined): string[] {
  if (pull.offsetWalkStartedAt === null || pull.resumed) return [];
  const { collection } = pull;
  const scope = { entityType: collection.entityType, personType: collection.personType };
  return listedIds(pull.db, scope, sinceMs).filter((id) => !pull.seen.has(id));
}
