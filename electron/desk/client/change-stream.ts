import { Agent, type Dispatcher, request } from 'undici';
import { API_KEY_HEADER } from '../../../shared/contract';
import { pinnedAgent } from './pinned-connect';
import { httpsRequiredCause, tlsGuardConnector } from './tls-probe';

/** The header a Shelter Desk server sends on its answers when it offers the change stream (its path). */
export const CHANGE_STREAM_HEADER = 'x-shelter-desk-changes';

export interface ChangeStreamOptions {
  /** The server's base address (no `/api`), as the API client has it. */
  baseUrl: string;
  /** The stream's path as the server announced it (`/api/changes`). */
  path: string;
  apiKey: string;
  /** The pinned certificate of a paired shelter. */
  pin?: string | undefined;
  /** Something changed on the server: run the ordinary pull. */
  onChange: () => void;
  /** The stream is back after a gap (a restart, a sleep, the Wi-Fi): run one ordinary sync to catch up. */
  onReconnect: () => void;
  /**
   * The server refused the key, has no stream, or wants https (426): the stream stops (the sync reports why, or
   * moves to https, and may start it again).
   */
  onRefused?: (status: number) => void;
  /** No byte for this long (heartbeats come every 15 s) means the connection is dead. Default 45 s. */
  silenceMs?: number;
  /** First wait before reconnecting, doubled (with jitter) up to `maxBackoffMs`. Defaults 500 ms and 30 s. */
  backoffMs?: number;
  maxBackoffMs?: number;
  random?: () => number;
}

/** A line longer than this is not one a Shelter Desk server sends: the stream is dropped and opened again. */
const MAX_LINE_BYTES = 4096;

/**
 * The desk's end of the change stream: one long-lived request per desk, read line by line with a bounded buffer;
 * each `change` event asks for an ordinary pull (never data from the stream). A silent or broken connection is
 * replaced with backoff, and after a gap the first `ready` asks for one sync to catch up on what was missed.
 */
export class ChangeStream {
  private readonly dispatcher: Dispatcher;
  private controller: AbortController | undefined;
  private stopped = false;
  private failures = 0;
  private everConnected = false;
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: ChangeStreamOptions) {
    const agentOptions = { connections: 1, keepAliveTimeout: 1000, bodyTimeout: 0, headersTimeout: 15_000 };
    this.dispatcher = options.pin
      ? pinnedAgent(options.pin, { ...agentOptions, connectTimeoutMs: 10_000 })
      : new Agent({ ...agentOptions, connect: tlsGuardConnector(10_000) });
  }

  /** Opens the stream (and keeps it open until `stop`). */
  start(): void {
    if (this.stopped || this.controller) return;
    void this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.controller?.abort();
    await this.dispatcher.close().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const controller = new AbortController();
    this.controller = controller;
    let silence: NodeJS.Timeout | undefined;
    const quiet = () => {
      clearTimeout(silence);
      silence = setTimeout(() => controller.abort(), this.options.silenceMs ?? 45_000);
      silence.unref();
    };
    try {
      quiet();
      const response = await request(`${this.options.baseUrl}${this.options.path}`, {
        method: 'GET',
        dispatcher: this.dispatcher,
        headers: {
          accept: 'text/event-stream',
          'user-agent': 'ShelterDesk',
          [API_KEY_HEADER]: this.options.apiKey,
        },
        signal: controller.signal,
      });
      if (response.statusCode !== 200) {
        await response.body.dump().catch(() => undefined);
        if ([401, 403, 404, 426].includes(response.statusCode)) {
          this.stopped = true;
          this.options.onRefused?.(response.statusCode);
          return;
        }
        throw new Error(`The change stream answered ${response.statusCode}.`);
      }
      let pending = '';
      let event = '';
      for await (const chunk of response.body as AsyncIterable<Buffer>) {
        quiet();
        pending += chunk.toString('utf8');
        let newline = pending.indexOf('\n');
        while (newline !== -1) {
          const line = pending.slice(0, newline).replace(/\r$/, '');
          pending = pending.slice(newline + 1);
          if (line === '') {
            this.dispatch(event);
            event = '';
          } else if (line.startsWith('event:')) event = line.slice(6).trim();
          newline = pending.indexOf('\n');
        }
        if (pending.length > MAX_LINE_BYTES) throw new Error('The change stream sent a line too long.');
      }
    } catch (error) {
      // The address speaks TLS now (nothing was sent): as a 426, the sync moves the desk to https.
      if (httpsRequiredCause(error)) {
        this.stopped = true;
        this.options.onRefused?.(426);
        return;
      }
      // Aborted (silence, stop) or broken: replaced below unless stopped.
    } finally {
      clearTimeout(silence);
      if (this.controller === controller) this.controller = undefined;
    }
    this.planRetry();
  }

  private dispatch(event: string): void {
    if (event === 'ready') {
      this.failures = 0;
      if (this.everConnected) this.options.onReconnect();
      this.everConnected = true;
    } else if (event === 'change') this.options.onChange();
  }

  private planRetry(): void {
    if (this.stopped) return;
    this.failures += 1;
    const base = this.options.backoffMs ?? 500;
    const cap = this.options.maxBackoffMs ?? 30_000;
    const ceiling = Math.min(cap, base * 2 ** (this.failures - 1));
    const wait = ceiling / 2 + (this.options.random ?? Math.random)() * (ceiling / 2);
    this.retryTimer = setTimeout(() => void this.connect(), wait);
    this.retryTimer.unref();
  }
}
