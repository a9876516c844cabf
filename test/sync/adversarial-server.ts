import { createHash, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Person, Pet } from '../../shared/contract';
import { makePerson, makePet } from './fixtures';

/**
 * A deliberately hostile implementation of the list/fetch/metadata endpoints, for sync tests. It keeps only what
 * the spec promises (inclusive `updated_since`, offset pages, ETags, rate-limit headers) and breaks everything else:
 * arbitrary list order, records changed between page requests, repeated timestamps, a clock far from the desk's,
 * random 429/500 answers, dropped connections, and records that fail validation.
 */
export interface AdversarialOptions {
  apiKey?: string;
  /**
   * List order: by updated_at (like our server), a fixed arbitrary order (hash of id), newest first, or a new
   * random order on every request (`shuffle`).
   */
  order?: 'updated' | 'arbitrary' | 'newest-first' | 'shuffle';
  /**
   * Changes one random pet before every list page request (a busy shelter); `'offset-pages'`: only before a page
   * with `offset > 0`, and only a public pet, so the pages of one walk shift under it.
   */
  changeBeforeEveryPage?: boolean | 'offset-pages';
  /** Timestamps in whole seconds, so many records share one `updated_at`. */
  secondPrecision?: boolean;
  /**
   * A misbehaving server: `hasMore` for ever, a `total` that is off, empty pages that claim more follow, a body
   * that never ends, a body that is not JSON, or a 150 MB body (list requests only).
   */
  misbehave?: 'endless-has-more' | 'lying-total' | 'empty-pages' | 'endless-body' | 'not-json' | 'huge-body';
  /** Server clock = desk clock + this. */
  clockOffsetMs?: number;
  /** The server's clock (ms), set by the test instead of following the desk's (`clockOffsetMs` is then ignored). */
  clock?: () => number;
  /**
   * A clock of the server's own instead of the desk's: it starts at the desk's time plus `clockOffsetMs` and moves
   * this many milliseconds with every request, whatever the machine's speed, so a seed replays which requests fall
   * in which second.
   */
  clockTickMs?: number;
  /**
   * Record stamps run this far ahead of the clock the server reports in `X-Generated-At` (a database on another
   * clock, or a burst of writes whose stamps were bumped past each other).
   */
  stampLeadMs?: number;
  /** Share of requests answered 500 / 429 (Retry-After 0) / with a dropped connection. */
  failRate?: number;
  rateLimitRate?: number;
  dropRate?: number;
  /**
   * Faults answered to the first requests, in this order, before the random ones: a test that must see each kind
   * gets it whatever the number of requests its run makes.
   */
  firstFaults?: Array<'drop' | 'error' | 'rate-limit'>;
  /** Seed of the fault generator, so a failing run can be replayed. */
  seed?: number;
  /** Hourly request limit reported (and enforced) per endpoint. */
  limitPerHour?: number;
  /** Serves at most this many records per list page, whatever limit was asked (clamps below the spec's 100). */
  maxPageSize?: number;
  /**
   * Called before each list page is answered (after faults): mutate data between page requests here. Returning
   * `'fail'` answers that request 500.
   */
  beforeListPage?: (info: {
    path: string;
    type: string | null;
    since: string | null;
    offset: number;
    requestNo: number;
    pageNo: number;
  }) => undefined | 'fail';
}

/** What the server held at one moment, with every version written after it (see `AdversarialServer.snapshot`). */
export interface ServerSnapshot {
  pets: Map<string, { pet: Pet; public: boolean; deleted: boolean }>;
  people: Map<string, Person>;
  /** Versions written since the snapshot, by record id, oldest first. */
  later: Map<string, Array<Pet | Person>>;
  /** Pets taken off the public list since the snapshot: hidden (with a new version or without) or deleted. */
  left: Set<string>;
}

interface StoredPet {
  pet: Pet;
  hidden: boolean;
  deleted: boolean;
}

/** Small deterministic PRNG (mulberry32). */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class AdversarialServer {
  readonly pets = new Map<string, StoredPet>();
  readonly people = new Map<string, Person>();
  /** Ids served with a field that breaks the contract. */
  readonly corruptIds = new Set<string>();
  readonly log: Array<{ method: string; url: string; status: number }> = [];
  options: AdversarialOptions;
  private server: http.Server | undefined;
  private random: () => number;
  /**
   * With a seed, record ids come from it too (their own stream): with shared stamps the list is ordered by id. Without
   * one, ids are random, so two servers of one test hold different records.
   */
  private readonly idRandom: (() => number) | undefined;
  private requestNo = 0;
  private lastStamp = 0;
  /** Where a `clockTickMs` clock starts. */
  private readonly clockStart: number;
  private readonly listRequests = new Map<string, number>();
  /** Open trickling responses, ended on close. */
  private readonly trickles = new Set<NodeJS.Timeout>();
  private readonly windows = new Map<string, { start: number; used: number }>();
  private readonly snapshots: ServerSnapshot[] = [];
  origin = '';

  constructor(options: AdversarialOptions = {}) {
    this.options = options;
    this.random = prng(options.seed ?? 1);
    this.idRandom = options.seed === undefined ? undefined : prng(options.seed ^ 0x1d5eed);
    this.clockStart = Date.now() + (options.clockOffsetMs ?? 0);
  }

  /** The server's clock (ms). */
  now(): number {
    const { clock, clockTickMs, clockOffsetMs = 0 } = this.options;
    if (clock) return clock();
    if (clockTickMs !== undefined) return this.clockStart + this.requestNo * clockTickMs;
    return Date.now() + clockOffsetMs;
  }

  /** A fresh, strictly increasing server timestamp (ms precision). */
  stamp(): string {
    if (this.options.secondPrecision) {
      // Whole seconds, never going back: records edited in the same second share their stamp.
      this.lastStamp = Math.max(Math.floor(this.now() / 1000) * 1000, this.lastStamp);
      return new Date(this.lastStamp).toISOString().replace('.000Z', 'Z');
    }
    this.lastStamp = Math.max(this.now() + (this.options.stampLeadMs ?? 0), this.lastStamp + 1);
    return new Date(this.lastStamp).toISOString();
  }

  /** The server's public list of pets (what GET /api/pets lists, in no order). */
  publicPets(): Pet[] {
    return [...this.pets.values()]
      .filter((s) => !s.hidden && !s.deleted && s.pet.show_public)
      .map((s) => s.pet);
  }

  /** Changes one random pet (random from the fault generator, so a seed replays it); a public one with `publicOnly`. */
  changeRandomPet(publicOnly = false): void {
    const ids = publicOnly ? this.publicPets().map((pet) => pet.id) : [...this.pets.keys()];
    const id = ids[Math.floor(this.random() * ids.length)];
    if (id) this.updatePet(id, { description: `changed at request ${this.requestNo}` });
  }

  /** A version 4 UUID drawn from the seed, so a seed replays which record a list page shows where. */
  private nextId(): string {
    const draw = this.idRandom;
    if (!draw) return randomUUID();
    const hex = Array.from({ length: 4 }, () =>
      Math.floor(draw() * 2 ** 32)
        .toString(16)
        .padStart(8, '0'),
    ).join('');
    const variant = ((Number.parseInt(hex[16] as string, 16) & 0x3) | 0x8).toString(16);
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  }

  /** Adds pets; with `sharedTimestamp`, all of them get the same `updated_at`. */
  addPets(count: number, sharedTimestamp = false, overrides: Partial<Pet> = {}): Pet[] {
    const shared = sharedTimestamp ? this.stamp() : undefined;
    const added: Pet[] = [];
    for (let i = 0; i < count; i += 1) {
      const at = shared ?? this.stamp();
      const pet = makePet({
        id: this.nextId(),
        name: `Pet ${this.pets.size + 1}`,
        created_at: at,
        updated_at: at,
        ...overrides,
      });
      this.pets.set(pet.id, { pet, hidden: false, deleted: false });
      added.push(pet);
    }
    return added;
  }

  addPeople(count: number, type: 'adopter' | 'foster', sharedTimestamp = false): Person[] {
    const shared = sharedTimestamp ? this.stamp() : undefined;
    const added: Person[] = [];
    for (let i = 0; i < count; i += 1) {
      const at = shared ?? this.stamp();
      const person = makePerson({
        id: this.nextId(),
        type,
        name: `${type} ${this.people.size + 1}`,
        created_at: at,
        updated_at: at,
      });
      this.people.set(person.id, person);
      added.push(person);
    }
    return added;
  }

  /** Changes a pet as a staff member would (updated_at moves forward). */
  updatePet(id: string, changes: Partial<Pet>): Pet {
    const stored = this.pets.get(id);
    if (!stored) throw new Error(`no pet ${id}`);
    const wasPublic = stored.pet.show_public;
    stored.pet = { ...stored.pet, ...changes, updated_at: this.stamp() };
    this.noteVersion(stored.pet);
    if (wasPublic && !stored.pet.show_public) this.noteLeft(id);
    return stored.pet;
  }

  /**
   * What the server holds now; every version written afterwards is noted in it, so a test can tell whether the desk
   * holds each record at the version it had then or a later one.
   */
  snapshot(): ServerSnapshot {
    const snapshot: ServerSnapshot = {
      pets: new Map(
        [...this.pets.values()].map((s) => [
          s.pet.id,
          { pet: s.pet, public: !s.hidden && !s.deleted && s.pet.show_public, deleted: s.deleted },
        ]),
      ),
      people: new Map(this.people),
      later: new Map(),
      left: new Set(),
    };
    this.snapshots.push(snapshot);
    return snapshot;
  }

  private noteVersion(record: Pet | Person): void {
    for (const snapshot of this.snapshots) {
      const versions = snapshot.later.get(record.id) ?? [];
      versions.push(record);
      snapshot.later.set(record.id, versions);
    }
  }

  updatePerson(id: string, changes: Partial<Person>): Person {
    const person = this.people.get(id);
    if (!person) throw new Error(`no person ${id}`);
    const next = { ...person, ...changes, updated_at: this.stamp() };
    this.people.set(id, next);
    this.noteVersion(next);
    return next;
  }

  /**
   * Takes a pet off the public list (non-public custom status): no tombstone, `updated_at` unchanged unless
   * `touch` (a status change made by staff, which moves it).
   */
  hidePet(id: string, hidden = true, touch = false): void {
    const stored = this.pets.get(id);
    if (!stored) return;
    stored.hidden = hidden;
    if (hidden) this.noteLeft(id);
    if (!touch) return;
    stored.pet = { ...stored.pet, updated_at: this.stamp() };
    this.noteVersion(stored.pet);
  }

  private noteLeft(id: string): void {
    for (const snapshot of this.snapshots) snapshot.left.add(id);
  }

  deletePet(id: string): void {
    const stored = this.pets.get(id);
    if (!stored) return;
    stored.deleted = true;
    this.noteLeft(id);
  }

  /** What GET /api/pets/{id} would return for every pet that is not deleted. */
  knownPets(): Pet[] {
    return [...this.pets.values()].filter((stored) => !stored.deleted).map((stored) => stored.pet);
  }

  /** Listens on 127.0.0.1 (port 0 = any; pass the old port to come back after `close`). */
  async start(port = 0): Promise<string> {
    this.server = http.createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve) => this.server?.listen(port, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.origin;
  }

  async close(): Promise<void> {
    for (const timer of this.trickles) clearInterval(timer);
    this.trickles.clear();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  private send(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    status: number,
    body: unknown,
    extra: Record<string, string> = {},
  ): void {
    const requestId = randomUUID();
    const headers: Record<string, string> = {
      'x-request-id': requestId,
      'x-api-version': '1.5.0',
      'x-generated-at': new Date(this.now()).toISOString(),
      ...this.rateHeaders(req),
      ...extra,
    };
    this.log.push({ method: req.method ?? 'GET', url: req.url ?? '', status });
    if (status >= 400) {
      res.writeHead(status, { ...headers, 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: String(body), code: `e${status}`, request_id: requestId }));
      return;
    }
    const text = JSON.stringify(body);
    const etag = `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`;
    if (req.headers['if-none-match'] === etag) {
      this.log[this.log.length - 1] = { method: req.method ?? 'GET', url: req.url ?? '', status: 304 };
      res.writeHead(304, { ...headers, etag });
      res.end();
      return;
    }
    res.writeHead(200, { ...headers, etag, 'content-type': 'application/json' });
    res.end(text);
  }

  private bucket(req: http.IncomingMessage): string {
    const path = (req.url ?? '').split('?')[0] ?? '';
    return path.replace(/^(\/api\/(?:pets|people))\/(?!custom-fields$)[^/]+$/, '$1/:id');
  }

  private rateHeaders(req: http.IncomingMessage): Record<string, string> {
    const limit = this.options.limitPerHour ?? 100_000;
    const window = this.windows.get(this.bucket(req)) ?? { start: this.now(), used: 0 };
    return {
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': String(Math.max(0, limit - window.used)),
      'x-ratelimit-reset': String(Math.ceil((window.start + 3_600_000) / 1000)),
    };
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    this.requestNo += 1;
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.headers['x-api-key'] !== (this.options.apiKey ?? 'key')) {
      this.send(req, res, 401, 'Invalid API key');
      return;
    }
    const bucket = this.bucket(req);
    const window = this.windows.get(bucket) ?? { start: this.now(), used: 0 };
    window.used += 1;
    this.windows.set(bucket, window);
    if (window.used > (this.options.limitPerHour ?? 100_000)) {
      this.send(req, res, 429, 'Rate limited', { 'retry-after': '3600' });
      return;
    }
    const fail = this.options.failRate ?? 0;
    const limited = this.options.rateLimitRate ?? 0;
    const drop = this.options.dropRate ?? 0;
    const scripted = this.options.firstFaults?.[this.requestNo - 1];
    const roll = scripted ? { drop: 0, error: drop, 'rate-limit': drop + fail }[scripted] : this.random();
    if (roll < drop) {
      this.log.push({ method: 'GET', url: req.url ?? '', status: 0 });
      req.socket.destroy();
      return;
    }
    if (roll < drop + fail) {
      this.send(req, res, 500, 'Unexpected failure');
      return;
    }
    if (roll < drop + fail + limited) {
      this.send(req, res, 429, 'Slow down', { 'retry-after': '0' });
      return;
    }
    const path = url.pathname;
    if (path === '/api/pets' || path === '/api/people') {
      const key = `${path}?${url.searchParams.get('type') ?? ''}`;
      const pageNo = this.listRequests.get(key) ?? 0;
      this.listRequests.set(key, pageNo + 1);
      const change = this.options.changeBeforeEveryPage;
      if (change === true) this.changeRandomPet();
      else if (change === 'offset-pages' && Number(url.searchParams.get('offset') ?? 0) > 0) {
        this.changeRandomPet(true);
      }
      const before = this.options.beforeListPage?.({
        path,
        type: url.searchParams.get('type'),
        since: url.searchParams.get('updated_since'),
        offset: Number(url.searchParams.get('offset') ?? 0),
        requestNo: this.requestNo,
        pageNo,
      });
      if (before === 'fail') {
        this.send(req, res, 500, 'Unexpected failure');
        return;
      }
      if (this.misbehaveBody(req, res)) return;
      this.list(req, res, url);
      return;
    }
    const petMatch = /^\/api\/pets\/([^/]+)$/.exec(path);
    if (petMatch && petMatch[1] !== 'custom-fields') {
      const stored = this.pets.get(petMatch[1] ?? '');
      if (!stored || stored.deleted) this.send(req, res, 404, 'Pet not found');
      else this.send(req, res, 200, this.serve(stored.pet));
      return;
    }
    const personMatch = /^\/api\/people\/([^/]+)$/.exec(path);
    if (personMatch && personMatch[1] !== 'custom-fields') {
      const person = this.people.get(personMatch[1] ?? '');
      if (!person) this.send(req, res, 404, 'Person not found');
      else this.send(req, res, 200, this.serve(person));
      return;
    }
    if (path === '/api/pets/custom-fields') {
      this.send(req, res, 200, { custom_fields: [] });
      return;
    }
    if (path === '/api/people/custom-fields') {
      this.send(req, res, 200, { type: url.searchParams.get('type'), custom_fields: [] });
      return;
    }
    if (path === '/api/adoption-fees') {
      this.send(req, res, 200, {
        fees: [{ species: 'dog', attribute_type: 'base', attribute_value: '', adjustment: 100 }],
      });
      return;
    }
    if (path === '/api/contracts') {
      this.send(req, res, 200, {
        type: url.searchParams.get('type'),
        content: '# Contract',
        updated_at: null,
      });
      return;
    }
    this.send(req, res, 404, 'Not found');
  }

  /** The body-level misbehaviours; true when the response was taken over. */
  private misbehaveBody(req: http.IncomingMessage, res: http.ServerResponse): boolean {
    const mode = this.options.misbehave;
    const headers = { 'x-request-id': randomUUID(), 'x-generated-at': new Date(this.now()).toISOString() };
    if (mode === 'not-json') {
      this.log.push({ method: 'GET', url: req.url ?? '', status: 200 });
      res.writeHead(200, { ...headers, 'content-type': 'application/json' });
      res.end('<html>Service temporarily unavailable</html>');
      return true;
    }
    if (mode === 'endless-body') {
      this.log.push({ method: 'GET', url: req.url ?? '', status: 200 });
      res.writeHead(200, { ...headers, 'content-type': 'application/json' });
      res.write('{"pets":[');
      // One byte at a time, never finishing: only a total deadline ends it.
      const timer = setInterval(() => res.write(' '), 100);
      this.trickles.add(timer);
      res.on('close', () => {
        clearInterval(timer);
        this.trickles.delete(timer);
      });
      return true;
    }
    if (mode === 'huge-body') {
      this.log.push({ method: 'GET', url: req.url ?? '', status: 200 });
      res.writeHead(200, { ...headers, 'content-type': 'application/json' });
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      let sent = 0;
      const pump = () => {
        while (sent < 150 && !res.destroyed) {
          sent += 1;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        if (!res.destroyed) res.end();
      };
      res.write('{"pets":[');
      pump();
      return true;
    }
    return false;
  }

  private serve<T extends { id: string }>(record: T): T {
    return this.corruptIds.has(record.id) ? ({ ...record, species: 'dragon', type: 'alien' } as T) : record;
  }

  private list(req: http.IncomingMessage, res: http.ServerResponse, url: URL): void {
    const since = url.searchParams.get('updated_since');
    const sinceMs = since ? Date.parse(since) : Number.NEGATIVE_INFINITY;
    const limit = Math.min(
      this.options.maxPageSize ?? 100,
      Math.max(1, Number(url.searchParams.get('limit') ?? 20)),
    );
    const offset = Math.max(0, Number(url.searchParams.get('offset') ?? 0));
    const isPets = url.pathname === '/api/pets';
    const records: Array<{ id: string; updated_at: string }> = isPets
      ? [...this.pets.values()].filter((s) => !s.hidden && !s.deleted && s.pet.show_public).map((s) => s.pet)
      : [...this.people.values()].filter((p) => p.type === url.searchParams.get('type'));
    const selected = records.filter((record) => Date.parse(record.updated_at) >= sinceMs);
    const order = this.options.order ?? 'updated';
    const hash = (id: string) => createHash('md5').update(id).digest('hex');
    const shuffled = new Map(selected.map((record) => [record.id, this.random()]));
    selected.sort((a, b) => {
      if (order === 'shuffle') return (shuffled.get(a.id) ?? 0) - (shuffled.get(b.id) ?? 0);
      if (order === 'arbitrary') return hash(a.id) < hash(b.id) ? -1 : 1;
      const diff = Date.parse(a.updated_at) - Date.parse(b.updated_at);
      const base = diff !== 0 ? diff : a.id < b.id ? -1 : 1;
      return order === 'newest-first' ? -base : base;
    });
    const mode = this.options.misbehave;
    // An endless list wraps around and serves its records again at every offset.
    const start = mode === 'endless-has-more' && selected.length > 0 ? offset % selected.length : offset;
    const page =
      mode === 'empty-pages' && limit > 1
        ? []
        : selected.slice(start, start + limit).map((record) => this.serve(record));
    const total = mode === 'lying-total' ? selected.length + 7 : selected.length;
    const envelope = {
      ...(isPets ? { pets: page } : { type: url.searchParams.get('type'), people: page }),
      total,
      limit,
      offset,
      hasMore:
        mode === 'endless-has-more' || (mode === 'empty-pages' && limit > 1)
          ? true
          : offset + page.length < selected.length,
    };
    this.send(req, res, 200, envelope);
  }
}
