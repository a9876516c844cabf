import type { IncomingMessage, ServerResponse } from 'node:http';
import { atEveryWriteTransaction } from '../../platform/write-lock';
import { ApiError } from '../domain/api-error';
import type { ServerContext } from '../server-context';

/** The response header on every answer that tells a client this server offers the change stream, and where. */
export const CHANGE_STREAM_HEADER = 'X-Shelter-Desk-Changes';
export const CHANGE_STREAM_PATH = '/api/changes';

export interface ChangeFeedOptions {
  /** A comment line this often keeps idle streams open through NATs and tells clients the server is there. */
  heartbeatMs?: number;
  /** How often the feed looks for commits while anyone listens (a counter and one PRAGMA: about a microsecond). */
  checkMs?: number;
  /** Streams open at once, in all and per key (the oldest of a key is closed for a new one). */
  maxStreams?: number;
  maxStreamsPerKey?: number;
}

interface Stream {
  keyId: string;
  res: ServerResponse;
  /** A change came while the socket was full: one event is written at the next drain (a poke says no more). */
  owed: boolean;
}

/**
 * The change stream (a Shelter Desk extension, like CouchDB's `_changes` feed used as a doorbell): each listening
 * desk is told "something changed" within a fraction of a second of any commit (this server's writes, or another
 * process's such as the command line), and then runs its ordinary pull. No data goes down the stream, so nothing
 * is buffered per change: a stream whose socket is full owes at most one event.
 */
export class ChangeFeed {
  private readonly streams = new Set<Stream>();
  private readonly dataVersion: () => number;
  private writes = 0;
  private seen = '';
  private checkTimer: NodeJS.Timeout | undefined;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private readonly heartbeatMs: number;
  private readonly checkMs: number;
  private readonly maxStreams: number;
  private readonly maxStreamsPerKey: number;

  constructor(app: ServerContext, options: ChangeFeedOptions = {}) {
    const statement = app.sqlite.prepare('PRAGMA data_version').pluck();
    this.dataVersion = () => statement.get() as number;
    this.heartbeatMs = options.heartbeatMs ?? 15_000;
    this.checkMs = options.checkMs ?? 100;
    this.maxStreams = options.maxStreams ?? 64;
    this.maxStreamsPerKey = options.maxStreamsPerKey ?? 4;
    // better-sqlite3 runs a transaction within one turn, so by the next check it has committed.
    atEveryWriteTransaction(app.sqlite, () => {
      this.writes += 1;
    });
  }

  get size(): number {
    return this.streams.size;
  }

  /** Starts an event stream on `res` for a request whose key was checked (counted under `keyId`). */
  open(req: IncomingMessage, res: ServerResponse, keyId: string, headers: Record<string, string>): void {
    if (this.streams.size >= this.maxStreams) {
      throw new ApiError(
        503,
        'too_many_streams',
        'The server has as many change streams open as it allows.',
        {
          hint: 'Keep syncing on the usual schedule; try the stream again later.',
          headers: { 'Retry-After': '30' },
        },
      );
    }
    const ofKey = [...this.streams].filter((stream) => stream.keyId === keyId);
    if (ofKey.length >= this.maxStreamsPerKey) this.end(ofKey[0] as Stream);
    res.writeHead(200, {
      ...headers,
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Accel-Buffering': 'no',
    });
    const stream: Stream = { keyId, res, owed: false };
    this.streams.add(stream);
    res.write(`retry: 2000\nevent: ready\ndata: {}\n\n`);
    res.on('drain', () => {
      if (stream.owed) this.poke(stream);
    });
    const forget = () => {
      this.streams.delete(stream);
      if (this.streams.size === 0) this.stopTimers();
    };
    res.once('close', forget);
    req.once('close', forget);
    this.startTimers();
  }

  /** Ends every stream at once (the server or its listener is closing; desks reconnect with backoff). */
  closeAll(): void {
    for (const stream of [...this.streams]) this.end(stream);
    this.stopTimers();
  }

  private end(stream: Stream): void {
    this.streams.delete(stream);
    stream.res.end();
    stream.res.socket?.destroySoon();
  }

  private token(): string {
    return `${this.writes}:${this.dataVersion()}`;
  }

  private startTimers(): void {
    if (this.checkTimer) return;
    this.seen = this.token();
    this.checkTimer = setInterval(() => this.check(), this.checkMs);
    this.checkTimer.unref();
    this.heartbeatTimer = setInterval(() => {
      for (const stream of this.streams) if (!stream.res.writableNeedDrain) stream.res.write(': ping\n\n');
    }, this.heartbeatMs);
    this.heartbeatTimer.unref();
  }

  private stopTimers(): void {
    clearInterval(this.checkTimer);
    clearInterval(this.heartbeatTimer);
    this.checkTimer = undefined;
    this.heartbeatTimer = undefined;
  }

  private check(): void {
    let token: string;
    try {
      token = this.token();
    } catch {
      // The database is closing or damaged: the requests that need it report it; the stream only stays quiet.
      return;
    }
    if (token === this.seen) return;
    this.seen = token;
    for (const stream of this.streams) this.poke(stream);
  }

  private poke(stream: Stream): void {
    if (stream.res.writableNeedDrain) {
      stream.owed = true;
      return;
    }
    stream.owed = false;
    stream.res.write(`event: change\ndata: {"at":"${new Date().toISOString()}"}\n\n`);
  }
}
