import type { RequestedPage } from './page-store';

/**
 * The distinct records one reading of a list (a pull, a removal check) has seen in the list's own pages, and what
 * that proves: once a fresh `total` of the same query is no more than `size`, every record the list shows was seen
 * during the reading, at its version then or a later one.
 *
 * Once the reading has paged by offset (or a keyset walk lost its overlap), a `total` lower than the one before means a record left the list while it
 * was read: pages may have shifted past a record never seen, and the records seen so far may include the one that
 * left, so counting them would prove nothing; the count starts again from what is read from then on. (A keyset walk
 * checks each page's overlap instead. A record that left while another joined between the same two requests shows
 * no drop: the removal check after a pull, and the next sync, are what find that.)
 */
export class ListSighting {
  private readonly ids = new Set<string>();
  private lastTotal: number | null = null;
  private pagedByOffset = false;

  get size(): number {
    return this.ids.size;
  }

  has(id: string): boolean {
    return this.ids.has(id);
  }

  /** A page of the reading; `ofQuery`: asked with the reading's own query (so its total counts the same records). */
  notePage(page: RequestedPage, byOffset: boolean, ofQuery: boolean): void {
    // A keyset walk that found its overlap missing goes on by offset from a later query (`ofQuery` false): from then
    // on the drops of the reading's own total count too.
    if (byOffset) this.pagedByOffset = true;
    if (ofQuery) this.noteTotal(page.facts.total, byOffset);
    for (const id of page.facts.ids) this.ids.add(id);
  }

  /** A `total` of the reading's own query, from a page asked by offset or from a fresh count. */
  noteTotal(total: number, byOffset = false): void {
    if (byOffset) this.pagedByOffset = true;
    if (this.pagedByOffset && this.lastTotal !== null && total < this.lastTotal) this.ids.clear();
    this.lastTotal = total;
  }
}
