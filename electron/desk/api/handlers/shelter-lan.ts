import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { formatPairingCode, formatTypedConnection, type LanSharing } from '../../../../shared/desk-api';
import { writeFileAtomic } from '../../../platform/atomic-file';
import {
  type ExtraListener,
  type RunningApiServer,
  readShelterCertificate,
  type StaffOperations,
  shelterCertificate,
} from '../../../server';

/** Beside `shelter.json` while the LAN listener is open: where it listens, for `share status|code` in scripts. */
export const LAN_LISTENING_FILE = 'lan-listening.json';

const listeningSchema = z.object({ address: z.string(), pid: z.number().int() });

/** The PC's first non-internal IPv4 address (what other desks on the LAN reach), or undefined. */
export function lanAddress(): string | undefined {
  for (const addresses of Object.values(os.networkInterfaces())) {
    for (const address of addresses ?? []) {
      if (address.family === 'IPv4' && !address.internal) return address.address;
    }
  }
  return undefined;
}

/** The host sharing binds: `SHELTER_DESK_LAN_HOST`, else the PC's LAN address. */
export function lanHost(env: NodeJS.ProcessEnv): string | undefined {
  return env.SHELTER_DESK_LAN_HOST || lanAddress();
}

/** The port sharing binds: `SHELTER_DESK_LAN_PORT`, else the one in `shelter.json`. */
export function lanPort(env: NodeJS.ProcessEnv, configured: number): number {
  const fromEnv = z.coerce.number().int().min(0).max(65535).safeParse(env.SHELTER_DESK_LAN_PORT);
  return env.SHELTER_DESK_LAN_PORT && fromEnv.success ? fromEnv.data : configured;
}

/** Whether a process with this id runs (on this PC). */
function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The address a running desk's LAN listener answers on, or undefined when none of its desks shares now. */
export function listeningAddress(dataDir: string): string | undefined {
  try {
    const parsed = listeningSchema.safeParse(
      JSON.parse(fs.readFileSync(path.join(dataDir, LAN_LISTENING_FILE), 'utf8')),
    );
    return parsed.success && processRuns(parsed.data.pid) ? parsed.data.address : undefined;
  } catch {
    return undefined;
  }
}

/** The fingerprint of a shelter's certificate (base64url), or undefined before sharing was first turned on. */
export function sharedFingerprint(serverDataDir: string): string | undefined {
  return readShelterCertificate(serverDataDir)?.fingerprint;
}

interface LanShareDeps {
  dataDir: string;
  serverDataDir: string;
  env: NodeJS.ProcessEnv;
  server(): RunningApiServer | undefined;
  staff(): StaffOperations;
  configuredPort(): number;
}

/**
 * LAN sharing of a standalone shelter: a second listener on the PC's LAN address that speaks HTTPS only, with the
 * shelter's own certificate (made on first use, kept in its data folder), and the pairing code shown on the
 * sharing card: address, the certificate's fingerprint and a one-time secret (15 minutes, one desk), and the same
 * code's typed form (address and eight letters and digits). A code that
 * was used or expired is replaced by a new one when the card next asks.
 */
export class LanShare {
  private listener: ExtraListener | undefined;
  private fingerprint: string | undefined;
  private problem: string | null = null;
  private code: { secret: string; typedCode: string; expiresAt: string } | undefined;

  constructor(private readonly deps: LanShareDeps) {}

  get open(): boolean {
    return this.listener !== undefined;
  }

  get lastProblem(): string | null {
    return this.problem;
  }

  private get listeningFile(): string {
    return path.join(this.deps.dataDir, LAN_LISTENING_FILE);
  }

  async start(): Promise<void> {
    const server = this.deps.server();
    if (!server || this.listener) return;
    const host = lanHost(this.deps.env);
    const port = lanPort(this.deps.env, this.deps.configuredPort());
    if (!host) {
      this.problem = 'This PC has no network address: connect it to the shelter’s network first.';
      return;
    }
    try {
      const certificate = await shelterCertificate(this.deps.serverDataDir);
      this.listener = await server.listenAlso(host, port, { tls: certificate });
      this.fingerprint = certificate.fingerprint;
      this.problem = null;
      writeFileAtomic(
        this.listeningFile,
        `${JSON.stringify({ address: `${this.listener.origin}/api`, pid: process.pid })}\n`,
        0o600,
      );
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      this.problem =
        code === 'EADDRINUSE'
          ? `Port ${port} is already used by another program on this PC.`
          : `Could not listen on ${host}: ${(error as Error).message}`;
    }
  }

  /** Closes the listener and every connection on it at once. */
  async stop(options: { keepProblem?: boolean } = {}): Promise<void> {
    const listener = this.listener;
    this.listener = undefined;
    if (!options.keepProblem) this.problem = null;
    fs.rmSync(this.listeningFile, { force: true });
    await listener?.close();
  }

  /** What the sharing card shows; a fresh pairing code when the last one was used or has expired. */
  state(enabled: boolean): LanSharing {
    if (!enabled || !this.listener || !this.fingerprint) {
      return {
        enabled,
        address: null,
        code: null,
        typed: null,
        expiresAt: null,
        fingerprint: this.fingerprint ?? null,
        problem: enabled ? this.problem : null,
      };
    }
    const staff = this.deps.staff();
    if (!this.code || !staff.pairingCodeOpen(this.code.secret)) {
      this.code = staff.createPairingCode(this.fingerprint);
    }
    const address = `${this.listener.origin}/api`;
    return {
      enabled,
      address,
      code: formatPairingCode(address, this.fingerprint, this.code.secret),
      typed: formatTypedConnection(address, this.code.typedCode),
      expiresAt: this.code.expiresAt,
      fingerprint: this.fingerprint,
      problem: null,
    };
  }

  /** Ends the code on the card (if no desk used it yet) and makes another. */
  newCode(enabled: boolean): LanSharing {
    if (this.code) this.deps.staff().cancelPairingCode(this.code.secret);
    this.code = undefined;
    return this.state(enabled);
  }
}
