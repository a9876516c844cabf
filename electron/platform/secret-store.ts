import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { moveAside, writeFileAtomic } from './atomic-file';

/**
 * Where the desk keeps secrets (API keys, standalone server keys). The desktop app's store encrypts
 * with Electron's safeStorage; headless runs use `FileSecretStore` (owner-only file). Values must never
 * be logged or sent to the renderer.
 */
export interface SecretStore {
  get(name: string): Promise<string | undefined>;
  set(name: string, value: string): Promise<void>;
  delete(name: string): Promise<void>;
  /** How values are protected at rest, for the settings screen. */
  readonly protection: 'encrypted' | 'owner-only-file';
}

/** Turns a value into what is written to disk and back (e.g. safeStorage encryption). */
export interface SecretCodec {
  encode(value: string): string;
  decode(stored: string): string;
}

const plainCodec: SecretCodec = { encode: (value) => value, decode: (stored) => stored };

const secretNameSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9._-]{0,63}$/i, { error: 'Secret names are 1-64 letters, digits, dots, dashes.' });
const secretFileSchema = z.record(z.string(), z.string());

export interface FileSecretStoreOptions {
  /** Default `secrets.json`. */
  fileName?: string;
  codec?: SecretCodec;
  protection?: SecretStore['protection'];
}

/**
 * Secrets in one JSON file in the data folder, readable and writable only by its owner (mode 0600),
 * written atomically. With a codec (safeStorage) the values on disk are encrypted.
 */
export class FileSecretStore implements SecretStore {
  readonly protection: SecretStore['protection'];
  readonly filename: string;
  private readonly codec: SecretCodec;

  constructor(dataDir: string, options: FileSecretStoreOptions = {}) {
    this.filename = path.join(dataDir, options.fileName ?? 'secrets.json');
    this.codec = options.codec ?? plainCodec;
    this.protection = options.protection ?? 'owner-only-file';
  }

  async get(name: string): Promise<string | undefined> {
    const stored = this.read()[secretNameSchema.parse(name)];
    return stored === undefined ? undefined : this.codec.decode(stored);
  }

  async set(name: string, value: string): Promise<void> {
    const all = this.read();
    all[secretNameSchema.parse(name)] = this.codec.encode(z.string().min(1).parse(value));
    this.write(all);
  }

  async delete(name: string): Promise<void> {
    const all = this.read();
    const key = secretNameSchema.parse(name);
    if (!(key in all)) return;
    delete all[key];
    this.write(all);
  }

  private read(): Record<string, string> {
    let text: string;
    try {
      text = fs.readFileSync(this.filename, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw error;
    }
    // A file another tool left group- or world-readable is tightened before use.
    if (process.platform !== 'win32' && (fs.statSync(this.filename).mode & 0o077) !== 0) {
      fs.chmodSync(this.filename, 0o600);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      moveAside(this.filename, 'not JSON');
      return {};
    }
    const parsed = secretFileSchema.safeParse(json);
    if (!parsed.success) {
      moveAside(this.filename, 'not a table of secrets');
      return {};
    }
    return { ...parsed.data };
  }

  private write(all: Record<string, string>): void {
    writeFileAtomic(this.filename, `${JSON.stringify(all, null, 2)}\n`, 0o600);
  }
}
