import {
  DESK_HTTP_CALL_PREFIX,
  DESK_HTTP_EVENTS,
  DESK_TOKEN_HEADER,
  DESK_TOKEN_META,
  type DeskResult,
  type DeskTransport,
} from '../../../shared/desk-api';

function unreachable(message: string): DeskResult {
  return { ok: false, error: { code: 'transport_failed', message } };
}

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

  return {
    async call(method, input) {
      let response: Response;
      const body = input === undefined ? undefined : JSON.stringify(input);
      try {
        response = await fetch(`${DESK_HTTP_CALL_PREFIX}${encodeURIComponent(method)}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [DESK_TOKEN_HEADER]: token },
          ...(body !== undefined && { body }),
          credentials: 'same-origin',
          // A form's typing written as the page goes (a reload) must outlive the page; the browser allows such
          // requests 64 KB in all.
          keepalive: method.startsWith('drafts.') && (body?.length ?? 0) < KEEPALIVE_MAX_CHARS,
        });
      } catch {
        return unreachable(
          'Shelter Desk is not answering. Is "npm start" still running? Then reload this page.',
        );
      }
      try {
        return (await response.json()) as unknown;
      } catch {
        return unreachable(`Shelter Desk answered ${response.status} without a readable reply.`);
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      if (!source) {
        source = new EventSource(DESK_HTTP_EVENTS);
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
}
