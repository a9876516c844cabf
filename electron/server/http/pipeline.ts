import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import {
  API_VERSION,
  DEMO_SHELTER_EXTENSION,
  type ErrorBody,
  GET_CACHE_CONTROL,
  OFF_LIST_PET_RECORDS_EXTENSION,
  OFF_LIST_PETS_EXTENSION,
  PHOTOS_EXTENSION,
  WRITE_CACHE_CONTROL,
} from '../../../shared/contract';
import { createStorageErrorReporter } from '../../platform/database-integrity';
import { commitThenSyncOffThread } from '../../platform/durable-commit';
import type { Logger } from '../../platform/log';
import { ApiError } from '../domain/api-error';
import { AuthThrottle } from '../domain/auth-throttle';
import { strongEtag } from '../domain/entity-tag';
import { IDEMPOTENCY_KEY_SHAPE, requestFingerprint } from '../domain/idempotency-store';
import type { EndpointId, FixedWindowRateLimiter, RateState } from '../domain/rate-limit';
import { SERVER_DATABASE_REMEDY, type ServerContext } from '../server-context';
import { isEmptyBody, parseJsonObject, readBody } from './body';
import { CHANGE_STREAM_HEADER, CHANGE_STREAM_PATH, type ChangeFeed } from './change-feed';
import { ifNoneMatchMatches } from './etag';
import { parseQueryString, type Route, type RouteResult, type Router } from './route';
import { storageError } from './storage-errors';
import { TurnAdmission } from './turn-admission';

/** Counter bucket for requests that present no valid key (401s, the OpenAPI document). */
const ANONYMOUS = 'anonymous';
/** Rate headers of requests that match no endpoint. */
const UNMATCHED: EndpointId = 'GET /api/pets';

const EMPTY_QUERY = new URLSearchParams();

/**
 * Announces this server's extensions of the API on every response, so a client can tell it takes photos and lists
 * the pets off the public list.
 */
const EXTENSIONS_HEADER_NAME = 'X-Shelter-Desk-Extensions';
const EXTENSIONS = [PHOTOS_EXTENSION, OFF_LIST_PETS_EXTENSION, OFF_LIST_PET_RECORDS_EXTENSION];

/** The header's value: the extensions, and `demo-shelter` when the server runs the demo shelter. */
export const announcedExtensions = (options: { demo?: boolean | undefined }): string =>
  [...EXTENSIONS, ...(options.demo ? [DEMO_SHELTER_EXTENSION] : [])].join(', ');

interface Exchange {
  requestId: string;
  rate: RateState | undefined;
  endpoint: EndpointId;
}

function tooManyFailures(waitSeconds: number): ApiError {
  return new ApiError(
    429,
    'rate_limited',
    `Too many wrong API keys from this address; retry after ${waitSeconds} s.`,
    {
      hint: 'Check the key in the desk settings; each further wrong key doubles the wait.',
      headers: { 'Retry-After': String(waitSeconds) },
    },
  );
}

/** The parameters after the `?` at `queryAt` (-1: none). */
function queryOf(url: string, queryAt: number): URLSearchParams {
  return queryAt === -1 ? EMPTY_QUERY : parseQueryString(url.slice(queryAt + 1));
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The request pipeline of the embedded server: request id and metadata headers, routing, auth, rate limit,
 * body reading, idempotency, the handler inside a SQLite transaction, ETag and conditional GET, errors.
 * Every response, error or not, carries the six metadata headers.
 */
export function createRequestListener(
  app: ServerContext,
  router: Router,
  limiter: FixedWindowRateLimiter,
  throttle: AuthThrottle = new AuthThrottle(),
  /** The desk's log (standalone desk): one line per request with its id; none when headless. */
  log?: Logger,
  /** The change stream (a Shelter Desk extension), announced on every answer when present. */
  changes?: ChangeFeed,
  /** `X-Shelter-Desk-Extensions` (see `announcedExtensions`). */
  extensions = announcedExtensions({}),
): (req: IncomingMessage, res: ServerResponse) => void {
  const reportStorageError = createStorageErrorReporter(app.sqlite.name, SERVER_DATABASE_REMEDY);
  // Many clients at once: the requests of one poll start over several turns, with timers and I/O in between.
  const admission = new TurnAdmission();
  // Many responses a millisecond: the time's text is made once for each.
  let generatedMs = Number.NaN;
  let generatedText = '';
  const generatedAt = (): string => {
    const now = app.now();
    if (now !== generatedMs) {
      generatedMs = now;
      generatedText = new Date(now).toISOString();
    }
    return generatedText;
  };
  const metadataHeaders = (exchange: Exchange): Record<string, string> => {
    const rate = exchange.rate ?? limiter.peek(ANONYMOUS, exchange.endpoint, app.now());
    return {
      'X-Request-Id': exchange.requestId,
      'X-Api-Version': API_VERSION,
      'X-Generated-At': generatedAt(),
      'X-RateLimit-Limit': String(rate.limit),
      'X-RateLimit-Remaining': String(rate.remaining),
      'X-RateLimit-Reset': String(rate.reset),
      [EXTENSIONS_HEADER_NAME]: extensions,
    };
  };

  const sendError = (res: ServerResponse, exchange: Exchange, error: ApiError) => {
    const body: ErrorBody = { error: error.message, code: error.code, request_id: exchange.requestId };
    if (error.extras.errors) body.errors = error.extras.errors;
    if (error.extras.details !== undefined) body.details = error.extras.details;
    if (error.extras.hint) body.hint = error.extras.hint;
    const bytes = Buffer.from(JSON.stringify(body));
    res.writeHead(error.status, {
      ...metadataHeaders(exchange),
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(bytes.length),
      'Cache-Control': WRITE_CACHE_CONTROL,
      ...error.extras.headers,
    });
    res.end(bytes);
  };

  /**
   * Routes, authenticates, counts and answers one request. A read runs synchronously, from the check for other
   * processes' commits to the handler, in one read transaction; a write reads its body first, so it returns a
   * promise.
   */
  const run = (req: IncomingMessage, res: ServerResponse, exchange: Exchange): Promise<void> | undefined => {
    const url = req.url ?? '/';
    const queryAt = url.indexOf('?');
    let pathname = queryAt === -1 ? url : url.slice(0, queryAt);
    if (pathname.length > 1 && pathname.endsWith('/')) pathname = pathname.slice(0, -1);
    const method = req.method ?? 'GET';
    const match = router.match(method, pathname);
    if (!match.route) {
      if (match.allowed.length > 0) {
        throw new ApiError(405, 'method_not_allowed', `${method} is not supported on ${pathname}.`, {
          hint: `Use ${match.allowed.join(' or ')}.`,
          headers: { Allow: match.allowed.join(', ') },
        });
      }
      throw new ApiError(404, 'not_found', `No endpoint at ${pathname}.`, {
        hint: 'Endpoints live under /api; see /api/openapi.json.',
      });
    }
    const route = match.route;
    exchange.endpoint = route.endpoint;
    if (route.stream) {
      if (!changes) throw new ApiError(404, 'not_found', `No endpoint at ${pathname}.`);
      const keyId = app.read(() => admit(req, route, exchange));
      changes.open(req, res, keyId, metadataHeaders(exchange));
      return undefined;
    }
    if (!route.write) {
      // What another process committed (a key, a pet, a setting) counts from this request on.
      const result = app.read(() => {
        admit(req, route, exchange);
        return route.handle({
          app,
          params: match.params,
          query: queryOf(url, queryAt),
          body: undefined,
          idempotencyKey: undefined,
        });
      });
      send(req, res, exchange, route, result);
      return undefined;
    }
    app.catchUp();
    const keyId = admit(req, route, exchange);
    return runWrite(req, route, match.params, queryOf(url, queryAt), keyId, url).then((result) =>
      send(req, res, exchange, route, result),
    );
  };

  /**
   * The key check and the rate limit: returns the id the request is counted under. Keyless endpoints (the
   * OpenAPI document) are counted per client address instead of per key.
   */
  const admit = (req: IncomingMessage, route: Route, exchange: Exchange): string => {
    const address = req.socket.remoteAddress ?? 'unknown';
    let keyId = `address:${address}`;
    if (route.access !== 'public') {
      const presented = header(req, 'x-api-key');
      if (presented === undefined || presented === '') {
        throw new ApiError(401, 'api_key_required', 'An API key is required in the x-api-key header.', {
          hint: 'Create a key on the shelter’s desk under Keys and sharing, or with: npm run cli -- keys create --read --name NAME.',
        });
      }
      // An address that guessed wrong too often waits before any key of it is looked at again.
      const wait = throttle.waitSeconds(address, app.now());
      if (wait > 0) throw tooManyFailures(wait);
      const key = app.keys.authenticate(presented);
      if (!key) {
        const waitNow = throttle.fail(address, app.now());
        if (waitNow > 0) throw tooManyFailures(waitNow);
        throw new ApiError(401, 'invalid_api_key', 'The API key is not valid or has been revoked.');
      }
      keyId = key.id;
      if (route.access === 'write' && key.access !== 'write') {
        exchange.rate = limiter.peek(keyId, route.endpoint, app.now());
        throw new ApiError(
          403,
          'forbidden',
          'This API key can only read; creating and updating needs a write key.',
        );
      }
    }
    const rate = limiter.hit(keyId, route.endpoint, app.now());
    exchange.rate = rate;
    if (!rate.allowed) {
      throw new ApiError(
        429,
        'rate_limited',
        `Rate limit of ${rate.limit} requests per hour for ${route.endpoint} reached; retry after ${rate.retryAfter} s.`,
        { headers: { 'Retry-After': String(rate.retryAfter) } },
      );
    }
    return keyId;
  };

  const runWrite = async (
    req: IncomingMessage,
    route: Route,
    params: Record<string, string>,
    query: URLSearchParams,
    keyId: string,
    url: string,
  ): Promise<RouteResult & { replay?: boolean }> => {
    const idempotencyKey = header(req, 'idempotency-key');
    if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY_SHAPE.test(idempotencyKey)) {
      throw new ApiError(
        400,
        'invalid_parameter',
        'Invalid request: Idempotency-Key must be 1 to 255 visible ASCII characters',
        {
          errors: [{ field: 'Idempotency-Key', message: 'must be 1 to 255 visible ASCII characters' }],
        },
      );
    }
    const tracked = route.write?.idempotent === true && idempotencyKey !== undefined;
    if (tracked && !app.idempotency.begin(keyId, idempotencyKey)) {
      throw new ApiError(
        409,
        'idempotency_request_in_progress',
        'A request with this Idempotency-Key is still being processed.',
        { hint: 'Wait for the first request to finish, then retry with the same key to get its result.' },
      );
    }
    try {
      const bytes = await readBody(req, route.upload?.maxBytes);
      const fingerprint = tracked ? requestFingerprint(req.method ?? '', url, keyId, bytes) : '';
      if (tracked) {
        const stored = app.idempotency.lookup(keyId, idempotencyKey);
        if (stored) {
          if (stored.fingerprint !== fingerprint) {
            throw new ApiError(
              409,
              'idempotency_key_reused',
              'This Idempotency-Key was already used for a different request.',
              { hint: 'Use a new Idempotency-Key for each distinct create or update.' },
            );
          }
          return { status: stored.status, body: stored.body, replay: true };
        }
      }
      const contentType = header(req, 'content-type');
      // An upload's slow work (decoding, scaling) happens here, before the write transaction and its lock.
      const upload = route.upload ? await route.upload.prepare(bytes, contentType) : undefined;
      const body = route.upload || isEmptyBody(bytes) ? undefined : parseJsonObject(bytes, contentType);
      const host = header(req, 'host');
      const socket = req.socket as TLSSocket;
      const scheme = socket.encrypted === true ? 'https' : 'http';
      const localAddress = req.socket.localAddress;
      const remoteAddress = req.socket.remoteAddress;
      const localCertificate = () => {
        const shown = socket.encrypted === true ? socket.getCertificate() : null;
        const raw = shown && 'raw' in shown ? (shown.raw as Buffer) : undefined;
        return raw ? createHash('sha256').update(raw).digest('base64url') : undefined;
      };
      // The transaction catches up again under the write lock: a commit of another process may have landed while
      // the body was read. The answer waits until the commit is on the disk; the event loop does not (a write's
      // fsync waited 70 ms while a restore copied its backup).
      let refusal: ApiError | undefined;
      const result = await commitThenSyncOffThread(app.sqlite, () => {
        let result: RouteResult;
        try {
          result = route.handle({
            app,
            params,
            query,
            body,
            idempotencyKey,
            upload,
            host,
            scheme,
            localAddress,
            remoteAddress,
            localCertificate,
          });
        } catch (error) {
          // A refusal that counts (a wrong pairing code) keeps what the handler wrote: committed, then answered.
          if (!(error instanceof ApiError && error.extras.commitWrites)) throw error;
          refusal = error;
          return undefined;
        }
        app.keys.flushUses();
        if (tracked && result.status === 200) {
          app.idempotency.record(keyId, idempotencyKey, fingerprint, result.status, result.body.toString());
        }
        return result;
      });
      if (refusal || !result) throw refusal;
      return result;
    } finally {
      if (tracked) app.idempotency.end(keyId, idempotencyKey);
    }
  };

  const send = (
    req: IncomingMessage,
    res: ServerResponse,
    exchange: Exchange,
    route: Route,
    result: RouteResult & { replay?: boolean },
  ) => {
    const body = result.body;
    const rate = exchange.rate ?? limiter.peek(ANONYMOUS, exchange.endpoint, app.now());
    // A flat [name, value, ...] list: the cheapest form for node:http on the hot path.
    const headers = [
      'X-Request-Id',
      exchange.requestId,
      'X-Api-Version',
      API_VERSION,
      'X-Generated-At',
      generatedAt(),
      'X-RateLimit-Limit',
      String(rate.limit),
      'X-RateLimit-Remaining',
      String(rate.remaining),
      'X-RateLimit-Reset',
      String(rate.reset),
      EXTENSIONS_HEADER_NAME,
      extensions,
    ];
    if (changes) headers.push(CHANGE_STREAM_HEADER, CHANGE_STREAM_PATH);
    if (route.method === 'GET') {
      const etag = result.etag ?? strongEtag(body);
      headers.push('ETag', etag, 'Cache-Control', result.cacheControl ?? GET_CACHE_CONTROL);
      if (result.status === 200 && ifNoneMatchMatches(header(req, 'if-none-match'), etag)) {
        res.writeHead(304, headers);
        res.end();
        return;
      }
    } else {
      headers.push('Cache-Control', WRITE_CACHE_CONTROL);
      if (result.replay) headers.push('Idempotency-Replay', 'true');
    }
    const length = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
    headers.push(
      'Content-Type',
      result.contentType ?? 'application/json; charset=utf-8',
      'Content-Length',
      String(length),
    );
    if (result.contentType) headers.push('X-Content-Type-Options', 'nosniff');
    res.writeHead(result.status, headers);
    // A text body leaves in one write with the head (node joins them); a buffer in a second one.
    res.end(body);
  };

  const fail = (res: ServerResponse, exchange: Exchange, error: unknown) => {
    if (res.headersSent || !res.socket || res.socket.destroyed) {
      // The client went away (or the response already started): nothing left to tell it.
      res.destroy();
      return;
    }
    if (error instanceof ApiError) {
      sendError(res, exchange, error);
      return;
    }
    const storage = storageError(error);
    if (storage) {
      // Damage or a full disk: said once in the log (naming the file and the way out); this request fails
      // with a 503 and its code, everything that works keeps serving.
      reportStorageError(error);
      sendError(res, exchange, storage);
      return;
    }
    // Only the message and request id: no stack, SQL or key material reaches the client or the log.
    const message = error instanceof Error ? error.message : String(error);
    console.error(`[server] internal error ${exchange.requestId}: ${message}`);
    log?.error('api internal error', { requestId: exchange.requestId, endpoint: exchange.endpoint });
    sendError(
      res,
      exchange,
      new ApiError(
        500,
        'internal_error',
        'The server failed unexpectedly; the request id identifies it in the log.',
      ),
    );
  };

  const handle = (req: IncomingMessage, res: ServerResponse, exchange: Exchange) => {
    try {
      run(req, res, exchange)?.catch((error: unknown) => fail(res, exchange, error));
    } catch (error) {
      fail(res, exchange, error);
    }
  };

  return (req, res) => {
    const exchange: Exchange = { requestId: randomUUID(), rate: undefined, endpoint: UNMATCHED };
    // The endpoint's name, never the URL: a search query can hold a person's name.
    if (log)
      res.once('finish', () =>
        log.info('api request', {
          requestId: exchange.requestId,
          endpoint: exchange.endpoint,
          status: res.statusCode,
        }),
      );
    admission.admit(() => handle(req, res, exchange));
  };
}
