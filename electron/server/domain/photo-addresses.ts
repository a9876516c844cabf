import type Database from 'better-sqlite3';
import { storedPhotoHash, storedPhotoUrl } from '../../../shared/contract';
import type { PetRow } from '../db/rows';
import type { PetStore } from './pet-store';

const SETTING = 'photo_public_origin';

/** Where a request came in: what an upload's answer falls back on when no public address is set. */
export interface RequestOrigin {
  scheme: 'http' | 'https';
  /** The `Host` header, already checked to be a host and optional port. */
  host: string;
  /** The address of this end of the connection (for a Host that names the unspecified address). */
  localAddress: string | undefined;
}

/** The address every interface, not one a client can be sent to: a bind address leaking into a Host header. */
function unspecifiedHost(hostname: string): boolean {
  return hostname === '0.0.0.0' || hostname === '[::]' || hostname === '[::0]';
}

/** `http://HOST:PORT` of a request, with an unspecified host replaced by the address the connection reached. */
export function requestOrigin(request: RequestOrigin): string {
  const url = new URL(`${request.scheme}://${request.host}`);
  if (unspecifiedHost(url.hostname)) {
    const local = request.localAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1';
    url.hostname = local.includes(':') ? `[${local}]` : local;
  }
  return url.origin;
}

/**
 * The origin stored photos' addresses name. The shelter's "public address for photos" when set (Settings, or
 * `npm run serve -- --public-url`); else the LAN sharing address while sharing is on (the one other machines can
 * reach, on a port that stays the same between starts); else the origin the uploading request reached, with its
 * own scheme. Setting the public address rewrites the pets that name the shelter's stored photos elsewhere.
 */
export class PhotoAddresses {
  /** The LAN sharing listener's origin while it is open (the server sets and clears it). */
  lanOrigin: string | undefined;
  private readonly read: Database.Statement;
  private readonly stored: Database.Statement;

  constructor(
    private readonly sqlite: Database.Database,
    private readonly pets: PetStore,
  ) {
    this.read = sqlite.prepare(`SELECT value FROM server_settings WHERE name = '${SETTING}'`).pluck();
    this.stored = sqlite.prepare('SELECT 1 FROM photos WHERE sha256 = ?').pluck();
  }

  /** The public address for photos when the shelter set one. */
  publicOrigin(): string | undefined {
    return (this.read.get() as string | undefined) ?? undefined;
  }

  /** The origin an upload arriving as `request` answers with. */
  originFor(request: RequestOrigin): string {
    return this.publicOrigin() ?? this.lanOrigin ?? requestOrigin(request);
  }

  /**
   * Sets (or with undefined, clears) the public address, an origin as photoPublicOriginSchema makes it, and points
   * every pet naming one of the shelter's stored photos under another origin at the new one, bumping its
   * `updated_at` so desks and listings pick the change up. Call in one write transaction; returns how many pets
   * were updated (none when the address is cleared: the addresses they name still answer).
   */
  setPublicOrigin(origin: string | undefined): number {
    if (origin === undefined) {
      this.sqlite.prepare(`DELETE FROM server_settings WHERE name = '${SETTING}'`).run();
      return 0;
    }
    this.sqlite
      .prepare(
        `INSERT INTO server_settings (name, value) VALUES ('${SETTING}', ?)
         ON CONFLICT (name) DO UPDATE SET value = excluded.value`,
      )
      .run(origin);
    return this.rewritePets(origin);
  }

  /**
   * A pet write with the shelter's stored photos named under the public address, when one is set: a desk that
   * uploaded before the address was set (or replays an upload's first answer) still publishes the stable one.
   */
  published<T extends { image_urls?: string[] | undefined }>(write: T): T {
    if (write.image_urls === undefined || write.image_urls.length === 0) return write;
    const origin = this.publicOrigin();
    if (origin === undefined) return write;
    const urls = this.rewritten(write.image_urls, origin);
    return urls ? { ...write, image_urls: urls } : write;
  }

  /** `urls` with each of this shelter's stored photos under `origin`, or undefined when none changes. */
  private rewritten(urls: readonly string[], origin: string): string[] | undefined {
    let changed = false;
    const result = urls.map((url) => {
      const hash = storedPhotoHash(url);
      // Only this shelter's own photos: an address of another server that happens to have the same shape stays.
      if (hash === undefined || this.stored.get(hash) === undefined) return url;
      const wanted = storedPhotoUrl(origin, hash);
      if (wanted !== url) changed = true;
      return wanted;
    });
    return changed ? result : undefined;
  }

  private rewritePets(origin: string): number {
    const candidates = this.sqlite
      .prepare(
        `SELECT seq, image_urls FROM pets WHERE deleted_at IS NULL AND image_urls LIKE '%/api/photos/%' ORDER BY seq`,
      )
      .all() as Array<Pick<PetRow, 'seq' | 'image_urls'>>;
    const bySeq = this.sqlite.prepare('SELECT * FROM pets WHERE seq = ?');
    let updated = 0;
    for (const candidate of candidates) {
      const rewritten = this.rewritten(JSON.parse(candidate.image_urls) as string[], origin);
      if (!rewritten) continue;
      this.pets.writeColumns(bySeq.get(candidate.seq) as PetRow, { image_urls: JSON.stringify(rewritten) });
      updated += 1;
    }
    return updated;
  }
}
