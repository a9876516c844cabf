import {
  DESK_HTTP_CALL_PREFIX,
  DESK_HTTP_EVENTS,
  DESK_SECRET_REFUSED,
  DESK_TOKEN_HEADER,
  DESK_TOKEN_META,
  type DeskTransport,
} from '../../../shared/desk-api/channels';
import type { DeskResult } from '../../../shared/desk-api/desk-call-error';
import { DESK_AWAY_MESSAGE, markDeskAway } from './desk-away';
import { markPageOutdated, PAGE_OUTDATED_MESSAGE } from './page-outdated';

function unreachable(message: string): DeskResult {
  return { ok: false, error: { code: 'transport_failed', message } };
}

/** Whether a reply is the host's refusal with `code`. */
function refusedAs(result: unknown, code: string): boolean {
  const error = (result as { error?: { code?: unknown } } | null)?.error;
  return typeof error === 'object' && error !== null && error.code === code;
}

/** `EventSource.OPEN`, named where no EventSource exists yet (tests under Node). */
const STREAM_OPEN = 1;

/** The largest body sent with `keepalive` (the browser's budget for all of them is 64 KB). */
const KEEPALIVE_MAX_CHARS = 48_000;

/**
 * The browser-mode transport: calls go to the local host as `POST /desk/call/<method>` with the
 * per-launch secret the host put in a `<meta>` of index.html; events come as Server-Sent Events
 * (authorised by the host's HttpOnly cookie). One EventSource serves every subscriber.
 */
export function createHttpTransport(doc: Document = document): DeskTransport {
  const token = doc.querySelector<HTMLMetaElement>(`meta[name="${DESK_TOKEN_META}"]`)?.content ?? '';
  const listeners = new Set<(event: unknown) => void>();
  let source: EventSource | undefined;

  const transport: DeskTransport = {
    async call(method, input) {
      let response: Response;
      const body = input === undefined ? undefined : JSON.stringify(input);
      // A form's typing written as the page goes (a reload) must outlive the page; the browser allows such requests
      // 64 KB in all.
      const keepalive = method.startsWith('drafts.') && (body?.length ?? 0) < KEEPALIVE_MAX_CHARS;
      try {
        response = await fetch(`${DESK_HTTP_CALL_PREFIX}${encodeURIComponent(method)}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [DESK_TOKEN_HEADER]: token },
          ...(body !== undefined && { body }),
          credentials: 'same-origin',
          keepalive,
        });
      } catch {
        // The desk is away only when its event stream is down too: a keepalive write over the browser's budget, or
        // one cut off by the page going, fails with the desk well.
        if (!keepalive && source?.readyState !== STREAM_OPEN) markDeskAway(true);
        return unreachable(DESK_AWAY_MESSAGE);
      }
      markDeskAway(false);
      let result: unknown;
      try {
        result = await response.json();
      } catch {
        return unreachable(`Shelter Desk answered ${response.status} without a readable reply.`);
      }
      // The host refuses the secret of a page opened before it was started again: only a reload gets the new one.
      if (response.status === 403 && refusedAs(result, DESK_SECRET_REFUSED)) {
        markPageOutdated();
        return unreachable(PAGE_OUTDATED_MESSAGE);
      }
      return result;
    },
    subscribe(listener) {
      listeners.add(listener);
      if (!source) {
        source = new EventSource(DESK_HTTP_EVENTS);
        // The stream breaks as soon as the desk stops: a call then tells whether it is away (no answer at all) or
        // answers otherwise. EventSource tries again by itself while the desk is away; it gives up (closed) when the
        // host answers other than with the stream: its session refused (a page opened before the desk was started
        // again), or a failure. Only a refused secret marks the page out of date.
        source.onerror = () => void transport.call('app.info', undefined);
        source.onopen = () => markDeskAway(false);
        source.onmessage = (message: MessageEvent<string>) => {
          let payload: unknown;
          try {
            payload = JSON.parse(message.data);
          } catch {
            return;
          }
          for (const each of [...listeners]) each(payload);
        };
      }
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) {
          source?.close();
          source = undefined;
        }
      };
    },
  };
  return transport;
}
