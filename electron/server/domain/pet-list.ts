import type Database from 'better-sqlite3';
import { type SqlBool, sql } from 'kysely';
import type { PetListQuery } from '../../../shared/contract';
import { PreparedQueries, queryBuilder, slot } from '../db/prepared-queries';
import { evictOldest } from './evict-oldest';
import { pageOf, queryPage } from './paging';
import type { PetFacets } from './pet-facets';
import { foldAscii, viewKey } from './pet-views';
import {
  identifierForms,
  matchCondition,
  planSearch,
  type SearchPlan,
  type SearchTarget,
  type SearchVocabulary,
  searchOrder,
  searchShape,
  searchValues,
  shortWordConditions,
} from './search';

const PET_SEARCH: SearchTarget = {
  table: 'pets',
  fts: 'pets_fts',
  weights: [10, 4, 1],
  columns: ['name', 'breed', 'description'],
};

/** Searches whose ranked matches are remembered (each a list of seqs; a few MB at most). */
const RANKED_CACHE_SIZE = 200;

export interface PetPage {
  /** The page's pets, in order (their stored responses: `PetStore.bodiesOf`). */
  seqs: readonly number[];
  total: number;
  /**
   * What the page's bytes depend on: for a list view, the view and its version (other views' writes leave it
   * alone); for a ranked search, the version of every pet's facets. The bytes stay the same as long as this does,
   * so it can key a response cache. Absent for searches run as SQL (short words).
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
  private readonly queries: PreparedQueries;
  private readonly ranked = new Map<string, number[]>();
  private readonly byCustomIds = new Map<number, Database.Statement>();
  private rankedVersion = -1;

  constructor(
    private readonly sqlite: Database.Database,
    private readonly facets: PetFacets,
    private readonly vocabulary: SearchVocabulary,
  ) {
    this.queries = new PreparedQueries(sqlite);
    this.matchSeqs = sqlite.prepare('SELECT rowid FROM pets_fts WHERE pets_fts MATCH ?').pluck();
  }

  /** One page of the public list, ordered by `updated_at`, or by relevance when searching. */
  list(query: PetListQuery): PetPage {
    const plan = query.search === undefined ? null : planSearch(query.search, this.vocabulary);
    if (plan === null) return this.fromView(query);
    const named = query.search === undefined ? [] : this.customIdSeqs(query.search);
    if (named.length > 0 || (plan.match && plan.shortWords.length === 0))
      return this.search(query, plan, named);
    return this.fromSql(query, plan);
  }

  private fromView(query: PetListQuery): PetPage {
    // While the facets load in steps after a start, the same page (same pets, same order) comes from SQL.
    if (this.facets.warming && !this.facets.warm) return this.fromSql(query, null);
    this.facets.refresh();
    const status = query.status === undefined ? undefined : foldAscii(query.status.trim());
    const key = viewKey(query.species, status);
    const views = this.facets.views;
    const { seqs, version } = views.view(key);
    const start = query.updated_since ? views.firstSince(seqs, sinceOf(query.updated_since)) : 0;
    const page = pageOf(seqs, query.offset, query.limit, start);
    return { seqs: page.items, total: page.total, version: `${key}\u0000${version}` };
  }

  /**
   * Search: the trigram index finds the matching pets, the in-memory facets filter them (public, species,
   * status, updated_since) and rank them: per query word, a match in the name counts 3, in a breed 2, in the
   * description 1, plus a half point when the word itself (not a typo alternative) matches the name or breed;
   * ties by `updated_at`. A pet whose `custom_id` is the whole search (`RAR-000199`, any case) comes first.
   */
  private search(query: PetListQuery, plan: SearchPlan, named: number[]): PetPage {
    const facets = this.facets;
    facets.refresh();
    // The ranked matches, kept until any pet changes: pages of one search, and the same search from other
    // clients, then cost a slice.
    const key = JSON.stringify([
      plan.match,
      plan.groups,
      named,
      query.species,
      query.status,
      query.updated_since,
    ]);
    if (this.rankedVersion !== facets.version) {
      this.ranked.clear();
      this.rankedVersion = facets.version;
    }
    let seqs = this.ranked.get(key);
    if (!seqs) {
      seqs = this.rank(query, plan, named);
      if (this.ranked.size >= RANKED_CACHE_SIZE) evictOldest(this.ranked, RANKED_CACHE_SIZE / 4);
      this.ranked.set(key, seqs);
    }
    const page = pageOf(seqs, query.offset, query.limit);
    return { seqs: page.items, total: page.total, version: `search\u0000${facets.version}` };
  }

  private rank(query: PetListQuery, plan: SearchPlan, named: number[]): number[] {
    const byText =
      plan.match && plan.shortWords.length === 0 ? (this.matchSeqs.all(plan.match) as number[]) : [];
    const seqs = named.length === 0 ? byText : [...new Set([...named, ...byText])];
    const namedSet = new Set(named);
    const facets = this.facets;
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
      if (namedSet.has(seq)) score += 1000;
      hits.push({ seq, score, updatedAt });
    }
    hits.sort((a, b) => b.score - a.score || a.updatedAt - b.updatedAt);
    return hits.map((hit) => hit.seq);
  }

  /** Pets (not deleted) whose `custom_id` is the whole search, through the custom_id index. */
  private customIdSeqs(search: string): number[] {
    const forms = identifierForms(search);
    if (forms.length === 0) return [];
    let statement = this.byCustomIds.get(forms.length);
    if (!statement) {
      statement = this.sqlite
        .prepare(
          `SELECT seq FROM pets WHERE custom_id IN (${forms.map(() => '?').join(', ')}) AND deleted_at IS NULL`,
        )
        .pluck();
      this.byCustomIds.set(forms.length, statement);
    }
    return statement.all(...forms) as number[];
  }

  /**
   * Searches with one- or two-letter words: LIKE on the searched columns (with the FTS match when any); without a
   * search (`plan` null) the plain list in `updated_at` order. SQL composed with kysely from the filters present,
   * compiled once per shape and run prepared.
   */
  private fromSql(query: PetListQuery, plan: SearchPlan | null): PetPage {
    const has = {
      species: query.species !== undefined,
      status: query.status !== undefined,
      since: query.updated_since !== undefined,
    };
    const shape = `${searchShape(plan)}|${has.species}|${has.status}|${has.since}`;
    const build = () => {
      let q = queryBuilder
        .selectFrom('pets as p')
        .$if(plan !== null && plan.match !== null, (qb) =>
          qb.innerJoin('pets_fts as f', 'f.rowid', 'p.seq').where(matchCondition(PET_SEARCH)),
        )
        .where('p.is_public', '=', 1)
        .$if(has.species, (qb) => qb.where('p.species', '=', slot('species')))
        .$if(has.status, (qb) => qb.where(sql<SqlBool>`p.status_label = ${slot('status')} COLLATE NOCASE`))
        .$if(has.since, (qb) => qb.where('p.updated_at', '>=', slot<number>('since')));
      for (const condition of shortWordConditions(plan, PET_SEARCH)) q = q.where(condition);
      return q;
    };
    const values = {
      ...searchValues(plan),
      species: query.species,
      status: query.status?.trim(),
      since: has.since ? sinceOf(query.updated_since as string) : undefined,
      limit: query.limit,
      offset: query.offset,
    };
    const page = queryPage<{ seq: number }>(
      this.queries,
      shape,
      {
        rows: () => build().select('p.seq').orderBy(searchOrder(plan, PET_SEARCH)),
        count: () => build().select((eb) => eb.fn.countAll<number>().as('total')),
      },
      values,
    );
    return { seqs: page.items.map((row) => row.seq), total: page.total };
  }
}

/** `updated_since` as the inclusive lower bound on `updated_at` (ms). */
function sinceOf(updatedSince: string): number {
  return Math.ceil(Date.parse(updatedSince));
}
