import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { type Dispatcher, request } from 'undici';
import { storedPhotoHash } from '../../../shared/contract';
import { pinnedAgent } from '../client/pinned-connect';

/** A photo as the desk keeps it: its bytes and their media type. */
export interface CachedPhoto {
  mime: string;
  bytes: Buffer;
}

export interface PhotoCacheOptions {
  /** Folder of the cached files (`<dataDir>/photos`). */
  dir: string;
  /** Total size kept; past it the photos seen longest ago are dropped. */
  maxBytes?: number;
  /** Largest single photo accepted. */
  maxPhotoBytes?: number;
  /** Limit of one download (headers and body). */
  timeoutMs?: number;
  /** How long an address that failed is answered from memory before it is tried again. */
  retryAfterMs?: number;
  /**
   * The origin of the server the desk is connected to now. A photo a Shelter Desk server stores is named by its
   * content (`/api/photos/<sha256>.jpg`), so it is fetched from this server whatever host and port its address was
   * written with: a standalone desk's own server gets a new port at each start. With the `pin` of a shelter paired
   * over the LAN, that server is reached through the same pinned TLS as the sync (its certificate is self-signed).
   */
  currentServer?: () => Promise<{ origin: string; pin?: string | undefined } | undefined>;
}

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/avif': 'avif',
  'image/svg+xml': 'svg',
};
const MIME_OF = Object.fromEntries(Object.entries(EXTENSIONS).map(([mime, ext]) => [ext, mime]));

/** The cache folder of a desk's data folder. */
export function photoCacheDir(dataDir: string): string {
  return path.join(dataDir, 'photos');
}

const keyOf = (url: string) => createHash('sha256').update(url).digest('hex').slice(0, 40);

/** The cached file of an address, if the desk has it (any known extension). */
function findFile(dir: string, url: string): { file: string; mime: string } | undefined {
  const key = keyOf(url);
  for (const [ext, mime] of Object.entries(MIME_OF)) {
    const file = path.join(dir, `${key}.${ext}`);
    if (fs.existsSync(file)) return { file, mime };
  }
  return undefined;
}

/** A cached photo read and marked as seen now, or undefined when its file is gone (dropped meanwhile). */
async function readAndTouch(found: { file: string; mime: string }): Promise<CachedPhoto | undefined> {
  try {
    const now = new Date();
    await fs.promises.utimes(found.file, now, now);
    return { mime: found.mime, bytes: await fs.promises.readFile(found.file) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * A photo the desk has kept, read from the cache only (never the network): for kennel cards and other printing
 * that must work offline. Undefined when the desk has never shown this photo (or dropped it as the oldest).
 */
export function readCachedPhoto(url: string, dataDir: string): CachedPhoto | undefined {
  const found = findFile(photoCacheDir(dataDir), url);
  if (!found) return undefined;
  try {
    return { mime: found.mime, bytes: fs.readFileSync(found.file) };
  } catch {
    return undefined;
  }
}

/** Why a photo could not be given: the UI shows a placeholder either way. */
export class PhotoUnavailableError extends Error {
  override name = 'PhotoUnavailableError';
}

/**
 * Photos seen once are kept on the desk so they show offline: the first look downloads them (bounded in time and
 * size, images only), later looks read the file. The folder stays under `maxBytes`: each read marks a photo as
 * recently seen (its file time), and the photos seen longest ago are dropped first.
 */
export class PhotoCache {
  private readonly dir: string;
  private readonly maxBytes: number;
  private readonly maxPhotoBytes: number;
  private readonly timeoutMs: number;
  private readonly inFlight = new Map<string, Promise<CachedPhoto>>();
  /** Addresses that just failed, with when they may be tried again (a broken or unreachable host is not asked again
   * for every row that shows it). */
  private readonly failedUntil = new Map<string, { until: number; message: string }>();
  /** The eviction under way: one at a time (each reads the whole folder). */
  private evicting: Promise<void> = Promise.resolve();
  private readonly retryAfterMs: number;
  private readonly currentServer: PhotoCacheOptions['currentServer'];
  /** The pinned agent of the paired shelter connected now (made again when the pin changes). */
  private pinned: { pin: string; agent: Dispatcher } | undefined;

  constructor(options: PhotoCacheOptions) {
    this.currentServer = options.currentServer;
    this.dir = options.dir;
    this.maxBytes = options.maxBytes ?? 200 * 1024 * 1024;
    this.maxPhotoBytes = options.maxPhotoBytes ?? 8 * 1024 * 1024;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.retryAfterMs = options.retryAfterMs ?? 60_000;
    fs.mkdirSync(this.dir, { recursive: true });
  }

  /** The photo at `url`: from the cache, else downloaded and kept. Throws PhotoUnavailableError. */
  async get(url: string): Promise<CachedPhoto> {
    const found = findFile(this.dir, url);
    const cached = found && (await readAndTouch(found));
    if (cached) return cached;
    const failed = this.failedUntil.get(url);
    if (failed && failed.until > Date.now()) throw new PhotoUnavailableError(failed.message);
    let pending = this.inFlight.get(url);
    if (!pending) {
      pending = this.download(url)
        .catch((error: unknown) => {
          if (error instanceof PhotoUnavailableError) {
            if (this.failedUntil.size > 5000) this.failedUntil.clear();
            this.failedUntil.set(url, { until: Date.now() + this.retryAfterMs, message: error.message });
          }
          throw error;
        })
        .finally(() => this.inFlight.delete(url));
      this.inFlight.set(url, pending);
    }
    return pending;
  }

  /**
   * Keeps a photo the desk already has the bytes of (one taken here, once the server gave it an address), so it
   * shows and prints offline without a download.
   */
  async put(url: string, mime: string, bytes: Buffer): Promise<void> {
    const ext = EXTENSIONS[mime];
    if (!ext) return;
    await this.store(url, ext, bytes);
    this.failedUntil.delete(url);
  }

  private async store(url: string, ext: string, bytes: Buffer): Promise<void> {
    const file = path.join(this.dir, `${keyOf(url)}.${ext}`);
    const temporary = `${file}.${process.pid}.tmp`;
    // Asynchronous file work throughout: a photo of up to `maxPhotoBytes` and a folder of thousands of them never
    // hold up the core's event loop (the bridge, a sync).
    await fs.promises.writeFile(temporary, bytes);
    await fs.promises.rename(temporary, file);
    const evicted = this.evicting.then(() => this.evict(file));
    this.evicting = evicted.catch(() => undefined);
    await evicted;
  }

  /** Closes the paired shelter's connections, if any (the desk is closing). */
  async close(): Promise<void> {
    const pinned = this.pinned;
    this.pinned = undefined;
    await pinned?.agent.close();
  }

  /**
   * Where to fetch `url` from: a stored photo of a Shelter Desk server from the server connected now (through its
   * pinned agent when paired over the LAN), any other address as it is.
   */
  private async sourceOf(url: string): Promise<{ source: URL; dispatcher?: Dispatcher }> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new PhotoUnavailableError('The photo address is not a valid address.');
    }
    const hash = storedPhotoHash(url);
    if (!hash || !this.currentServer) return { source: parsed };
    const server = await this.currentServer().catch(() => undefined);
    if (!server) return { source: parsed };
    const source = new URL(`/api/photos/${hash}.jpg`, server.origin);
    if (!server.pin) return { source };
    if (this.pinned?.pin !== server.pin) {
      void this.pinned?.agent.close();
      this.pinned = { pin: server.pin, agent: pinnedAgent(server.pin, { connectTimeoutMs: this.timeoutMs }) };
    }
    return { source, dispatcher: this.pinned.agent };
  }

  private async download(url: string): Promise<CachedPhoto> {
    const { source: parsed, dispatcher } = await this.sourceOf(url);
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
      throw new PhotoUnavailableError('Only http and https photo addresses are fetched.');
    }
    let response: Awaited<ReturnType<typeof request>>;
    try {
      response = await request(parsed, {
        ...(dispatcher && { dispatcher }),
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new PhotoUnavailableError(`The photo could not be downloaded: ${(error as Error).message}`);
    }
    const mime = String(response.headers['content-type'] ?? '')
      .split(';')[0]
      ?.trim()
      .toLowerCase();
    const ext = mime ? EXTENSIONS[mime] : undefined;
    if (response.statusCode !== 200 || !ext) {
      await response.body.dump();
      throw new PhotoUnavailableError(
        response.statusCode !== 200
          ? `The photo address answered ${response.statusCode}.`
          : 'The photo address did not give an image.',
      );
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      size += (chunk as Buffer).length;
      if (size > this.maxPhotoBytes) {
        response.body.destroy();
        throw new PhotoUnavailableError('The photo is larger than the desk keeps.');
      }
      chunks.push(chunk as Buffer);
    }
    const bytes = Buffer.concat(chunks);
    await this.store(url, ext, bytes);
    return { mime: mime as string, bytes };
  }

  /** Drops the photos seen longest ago until the folder fits its budget (never the one just stored). */
  private async evict(keep: string): Promise<void> {
    const names = (await fs.promises.readdir(this.dir)).filter((name) => !name.endsWith('.tmp'));
    const files: Array<{ file: string; size: number; seen: number }> = [];
    for (const name of names) {
      const file = path.join(this.dir, name);
      try {
        const stat = await fs.promises.stat(file);
        files.push({ file, size: stat.size, seen: stat.mtimeMs });
      } catch (error) {
        // Dropped meanwhile (another desk process sharing the folder): nothing to count.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    files.sort((a, b) => a.seen - b.seen);
    let total = files.reduce((sum, entry) => sum + entry.size, 0);
    for (const entry of files) {
      if (total <= this.maxBytes) break;
      if (entry.file === keep) continue;
      await fs.promises.rm(entry.file, { force: true });
      total -= entry.size;
    }
  }
}
