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
      try {
        response = await fetch(`${DESK_HTTP_CALL_PREFIX}${encodeURIComponent(method)}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [DESK_TOKEN_HEADER]: token },
          ...(input !== undefined && { body: JSON.stringify(input) }),
          credentials: 'same-origin',
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
