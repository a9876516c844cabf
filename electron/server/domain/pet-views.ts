/** What a pet contributes to the public list views: absent when it is not public. */
export interface ViewEntry {
  species: string;
  /** The status label folded like SQLite's NOCASE (ASCII letters only), as the list's status filter compares. */
  status: string;
  updatedAt: number;
}

/** A pet whose entry changed: its entry before and after (undefined: not in the public list). */
export interface ViewChange {
  seq: number;
  before: ViewEntry | undefined;
  after: ViewEntry | undefined;
}

/** Below this many changes at once, entries are moved one by one; above, the touched views are rebuilt. */
const SPLICE_LIMIT = 16;

/** ASCII-only lower case, as SQLite's NOCASE collation compares. */
export function foldAscii(text: string): string {
  return text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/** The view keys an entry belongs to: the whole list, by species, by status, by species and status. */
function keysOf(entry: ViewEntry): string[] {
  return [
    '',
    `s\u0000${entry.species}`,
    `t\u0000${entry.status}`,
    `st\u0000${entry.species}\u0000${entry.status}`,
  ];
}

/** The view answering a list filter. */
export function viewKey(species: string | undefined, status: string | undefined): string {
  if (species !== undefined && status !== undefined) return `st\u0000${species}\u0000${status}`;
  if (species !== undefined) return `s\u0000${species}`;
  if (status !== undefined) return `t\u0000${status}`;
  return '';
}

/**
 * The public pet list in its API order (`updated_at`), held in memory once per filter the API has (all,
 * species, status, species and status) as arrays of `seq`. An offset is an array index and `total` an array
 * length, so every page costs the same wherever it is; `updated_since` is a binary search. Each view has a
 * version that changes only when a pet enters, leaves or moves in it, so cached pages of other views survive
 * a write.
 */
export class PetListViews {
  private readonly views = new Map<string, number[]>();
  private readonly versions = new Map<string, number>();
  private nextVersion = 1;

  constructor(private readonly updatedAtOf: (seq: number) => number) {}

  /** Adds a pet after every pet in its views (the first load, in `updated_at` order); see `bumpAll`. */
  append(seq: number, entry: ViewEntry): void {
    for (const key of keysOf(entry)) {
      const view = this.views.get(key);
      if (view) view.push(seq);
      else this.views.set(key, [seq]);
    }
  }

  /** A new version for every view (after the first load). */
  bumpAll(): void {
    for (const key of this.views.keys()) this.bump(key);
  }

  /** The seqs of a view (do not modify), and its version. */
  view(key: string): { seqs: readonly number[]; version: number } {
    return { seqs: this.views.get(key) ?? [], version: this.versions.get(key) ?? 0 };
  }

  /** Index of the first seq in `seqs` whose `updated_at` is at least `since`. */
  firstSince(seqs: readonly number[], since: number): number {
    let low = 0;
    let high = seqs.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.updatedAtOf(seqs[middle] as number) < since) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /**
   * Applies changed pets. Must be called after the facets hold the new `updated_at` values; `before` carries
   * the old ones (needed to find a pet's old place).
   */
  apply(changes: ViewChange[]): void {
    if (changes.length === 0) return;
    if (changes.length <= SPLICE_LIMIT) {
      // All removals first, so that inserting never compares against a pet still at its old place.
      for (const change of changes) this.remove(change);
      const arriving = changes.filter((change) => change.after !== undefined);
      arriving.sort((a, b) => (a.after as ViewEntry).updatedAt - (b.after as ViewEntry).updatedAt);
      for (const change of arriving) this.insert(change.seq, change.after as ViewEntry);
      return;
    }
    this.rebuildTouched(changes);
  }

  private remove({ seq, before }: ViewChange): void {
    if (!before) return;
    for (const key of keysOf(before)) {
      const view = this.views.get(key);
      if (!view) continue;
      const at = this.indexOf(view, seq, before.updatedAt);
      if (at !== -1) {
        view.splice(at, 1);
        this.bump(key);
      }
    }
  }

  private insert(seq: number, after: ViewEntry): void {
    for (const key of keysOf(after)) {
      let view = this.views.get(key);
      if (!view) {
        view = [];
        this.views.set(key, view);
      }
      // Writes take the newest stamp, so the usual place is the end.
      const last = view[view.length - 1];
      if (last === undefined || this.updatedAtOf(last) < after.updatedAt) view.push(seq);
      else view.splice(this.firstSince(view, after.updatedAt), 0, seq);
      this.bump(key);
    }
  }

  /**
   * Linear in the touched views, without allocating: every changed seq is dropped in place (one pass, the
   * survivors shifted down), then the changed entries go back in order. Writes take the newest stamps, so
   * they usually all go after the survivors (an append); otherwise one merge.
   */
  private rebuildTouched(changes: ViewChange[]): void {
    let maxSeq = 0;
    for (const { seq } of changes) if (seq > maxSeq) maxSeq = seq;
    const changed = new Uint8Array(maxSeq + 1);
    const incoming = new Map<string, number[]>();
    for (const { seq, before, after } of changes) {
      changed[seq] = 1;
      if (before) for (const key of keysOf(before)) if (!incoming.has(key)) incoming.set(key, []);
      if (after) {
        for (const key of keysOf(after)) {
          const list = incoming.get(key);
          if (list) list.push(seq);
          else incoming.set(key, [seq]);
        }
      }
    }
    const stamp = (seq: number) => this.updatedAtOf(seq);
    for (const [key, added] of incoming) {
      added.sort((a, b) => stamp(a) - stamp(b));
      let view = this.views.get(key);
      if (!view) {
        view = [];
        this.views.set(key, view);
      }
      let kept = 0;
      for (let i = 0; i < view.length; i++) {
        const seq = view[i] as number;
        if (seq > maxSeq || changed[seq] === 0) view[kept++] = seq;
      }
      view.length = kept;
      const lastKept = view[kept - 1];
      const firstAdded = added[0];
      if (firstAdded === undefined || lastKept === undefined || stamp(lastKept) < stamp(firstAdded)) {
        for (const seq of added) view.push(seq);
      } else {
        this.views.set(key, mergeByStamp(view, added, stamp));
      }
      this.bump(key);
    }
  }

  /** Position of `seq` in a view, found by its (old) `updated_at`; -1 when absent. */
  private indexOf(view: number[], seq: number, updatedAt: number): number {
    let low = 0;
    let high = view.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const candidate = view[middle] as number;
      // The facets already hold the new stamp for `seq` itself: compare it by its old one.
      const at = candidate === seq ? updatedAt : this.updatedAtOf(candidate);
      if (at < updatedAt) low = middle + 1;
      else high = middle;
    }
    for (let i = low; i < view.length; i++) {
      if (view[i] === seq) return i;
      const at = this.updatedAtOf(view[i] as number);
      if (at > updatedAt) break;
    }
    return view.indexOf(seq);
  }

  private bump(key: string): void {
    this.versions.set(key, this.nextVersion++);
  }
}

/** Two seq lists each in `updated_at` order, merged into one. */
function mergeByStamp(kept: number[], added: number[], stamp: (seq: number) => number): number[] {
  const merged: number[] = new Array(kept.length + added.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < kept.length && j < added.length) {
    merged[k++] =
      stamp(kept[i] as number) <= stamp(added[j] as number) ? (kept[i++] as number) : (added[j++] as number);
  }
  while (i < kept.length) merged[k++] = kept[i++] as number;
  while (j < added.length) merged[k++] = added[j++] as number;
  return merged;
}
