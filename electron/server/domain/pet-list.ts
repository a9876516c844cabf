import type Database from 'better-sqlite3';
import type { PetListQuery } from '../../../shared/contract';
import type { PetBodies } from './pet-bodies';
import type { PetFacets } from './pet-facets';
import { foldAscii, viewKey } from './pet-views';
import { planSearch, type SearchPlan, type SearchTarget, type SearchVocabulary, searchSql } from './search';

const PET_SEARCH: SearchTarget = {
  table: 'pets',
  fts: 'pets_fts',
  weights: [10, 4, 1],
  columns: ['name', 'breed', 'description'],
};

export interface PetPage {
  /** The page's stored Pet responses, in order. */
  items: Buffer[];
  total: number;
  /**
   * For pages read from a list view: the view and its version. The page's bytes stay the same as long as
   * this does, so it can key a response cache that other views' writes leave alone.
   */
  version?: string;
}

/**
 * Reads the public pet list. Plain pages (with any filter and `updated_since`) come from the in-memory views:
 * an offset is an index, the total a length, the pets their stored responses. Searches rank FTS matches on
 * the in-memory facets; searches with words too short for the trigram index run as SQL.
 */
export class PetLister {
  private readonly matchSeqs: Database.Statement<[string]>;
  private readonly statements = new Map<string, Database.Statement>();

  constructor(
    private readonly sqlite: Database.Database,
    private readonly facets: PetFacets,
    private readonly bodies: PetBodies,
    private readonly vocabulary: SearchVocabulary,
  ) {
    this.matchSeqs = sqlite.prepare('SELECT rowid FROM pets_fts WHERE pets_fts MATCH ?').pluck();
  }

  /** One page of the public list, ordered by `updated_at`, or by relevance when searching. */
  list(query: PetListQuery): PetPage {
    const plan = query.search === undefined ? null : planSearch(query.search, this.vocabulary);
    if (plan === null) return this.fromView(query);
    if (plan.match && plan.shortWords.length === 0) return this.search(query, plan);
    return this.searchBySql(query, plan);
  }

  private fromView(query: PetListQuery): PetPage {
    this.facets.refresh();
    const status = query.status === undefined ? undefined : foldAscii(query.status.trim());
    const key = viewKey(query.species, status);
    const views = this.facets.views;
    const { seqs, version } = views.view(key);
    const start = query.updated_since ? views.firstSince(seqs, sinceOf(query.updated_since)) : 0;
    const from = start + query.offset;
    return {
      items: this.render(from < seqs.length ? seqs.slice(from, from + query.limit) : []),
      total: seqs.length - start,
      version: `${key}\u0000${version}`,
    };
  }

  /**
   * Search: the trigram index finds the matching pets, the in-memory facets filter them (public, species,
   * status, updated_since) and rank them: per query word, a match in the name counts 3, in a breed 2, in the
   * description 1, plus a half point when the word itself (not a typo alternative) matches the name or breed;
   * ties by `updated_at`.
   */
  private search(query: PetListQuery, plan: SearchPlan): PetPage {
    const seqs = this.matchSeqs.all(plan.match as string) as number[];
    const facets = this.facets;
    facets.refresh();
    const status = query.status?.trim().toLowerCase();
    const since = query.updated_since ? sinceOf(query.updated_since) : undefined;
    const hits: Array<{ seq: number; score: number; updatedAt: number }> = [];
    for (const seq of seqs) {
      if (!facets.isPublicSeq(seq)) continue;
      if (query.species && facets.speciesOf(seq) !== query.species) continue;
      if (status !== undefined && facets.statusLabelOf(seq) !== status) continue;
      const updatedAt = facets.updatedAtOf(seq);
      if (since !== undefined && updatedAt < since) continue;
      const name = facets.nameOf(seq);
      const breed = facets.breedOf(seq);
      let score = 0;
      for (const options of plan.groups) {
        let best = 1;
        for (const option of options) {
          if (name.includes(option)) best = 3;
          else if (best < 2 && breed.includes(option)) best = 2;
        }
        const exact = options[0] as string;
        score += best + (name.includes(exact) || breed.includes(exact) ? 0.5 : 0);
      }
      hits.push({ seq, score, updatedAt });
    }
    hits.sort((a, b) => b.score - a.score || a.updatedAt - b.updatedAt);
    const page = hits.slice(query.offset, query.offset + query.limit);
    return { items: this.render(page.map((hit) => hit.seq)), total: hits.length };
  }

  /** Searches with one- or two-letter words: LIKE on the searched columns (with the FTS match when any). */
  private searchBySql(query: PetListQuery, plan: SearchPlan): PetPage {
    const search = searchSql(plan, PET_SEARCH);
    const where = [...search.where, 'p.is_public = 1'];
    const params: unknown[] = [...search.params];
    if (query.species) {
      where.push('p.species = ?');
      params.push(query.species);
    }
    if (query.status) {
      where.push('p.status_label = ? COLLATE NOCASE');
      params.push(query.status.trim());
    }
    if (query.updated_since) {
      where.push('p.updated_at >= ?');
      params.push(sinceOf(query.updated_since));
    }
    const { from, order } = search;
    const whereSql = where.join(' AND ');
    const seqs = this.statement(
      `SELECT p.seq FROM ${from} WHERE ${whereSql} ORDER BY ${order} LIMIT ? OFFSET ?`,
    )
      .pluck()
      .all(...params, query.limit, query.offset) as number[];
    const total = this.statement(`SELECT COUNT(*) FROM ${from} WHERE ${whereSql}`)
      .pluck()
      .get(...params) as number;
    return { items: this.render(seqs), total };
  }

  private render(seqs: readonly number[]): Buffer[] {
    const items: Buffer[] = [];
    for (const seq of seqs) {
      const body = this.bodies.bySeq(seq);
      if (body) items.push(body);
    }
    return items;
  }

  private statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.sqlite.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}

/** `updated_since` as the inclusive lower bound on `updated_at` (ms). */
function sinceOf(updatedSince: string): number {
  return Math.ceil(Date.parse(updatedSince));
}
