import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { petListResponseSchema } from '../../../../shared/contract';
import { DeskCallError, parseConnectionCode } from '../../../../shared/desk-api';
import {
  type ApiClient,
  ApiError,
  createApiClient,
  type Paired,
  pairWithShelter,
  pairWithTypedCode,
} from '../../client';
import type { ConnectionManager } from '../../sync';
import type { HandlerRegistry } from '../handler-registry';
import type { DeskSessions } from '../sessions';

/**
 * Whether the key may save changes, asked without changing anything: a PATCH with no fields to a pet that does not
 * exist. The API refuses a read key such a request for the endpoint (403) before it looks at it; a write key gets
 * the request's own answer (400: no fields, or 404). Undefined when the server says neither.
 */
async function keyMaySave(client: ApiClient): Promise<boolean | undefined> {
  try {
    const answer = await client.send({
      method: 'PATCH',
      path: `/api/pets/${randomUUID()}`,
      body: '{}',
      idempotencyKey: randomUUID(),
    });
    return answer.status === 400 || answer.status === 404 ? true : undefined;
  } catch (error) {
    return error instanceof ApiError && error.status === 403 ? false : undefined;
  }
}

/** What the connection refused (a bad address, no key, a shelter not answering) as the bridge's invalid input. */
async function refusedAsInput<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof DeskCallError) throw error;
    throw new DeskCallError({ code: 'invalid_input', message: (error as Error).message });
  }
}

/** The names a pairing may fill in the desk's settings (see `registerConnectionHandlers`). */
export interface PairingNames {
  get(): { deskName: string; shelterName: string };
  fill(names: { deskName?: string; shelterName?: string }): void;
}

/**
 * `sync.connection.*`: the connection settings (the key stays in the secret store). Setting another connection
 * switches the desk's session: the old connection's mirror and waiting changes stay in its folder for when the desk
 * switches back. Also `sync.watch` (which windows show the status), which outlives a switch.
 */
export function registerConnectionHandlers(
  registry: HandlerRegistry,
  connections: ConnectionManager,
  sessions: DeskSessions,
  /**
   * This desk's and the shelter's names in its settings ('' when none was given: the host name stands in for the
   * desk's), and how a pairing fills those still empty: the desk's name typed while pairing, so the next pairing and
   * Settings show it, and the shelter's name its own desk has, for this desk's prints.
   */
  names: PairingNames = { get: () => ({ deskName: '', shelterName: '' }), fill: () => undefined },
): void {
  // With why what was entered with no connection did not go through, when it did not.
  const summary = async () => {
    const carryProblem = sessions.carryProblem();
    return { ...(await connections.summary()), ...(carryProblem !== undefined && { carryProblem }) };
  };
  registry.handle('sync.connection.get', summary);
  registry.handle('sync.watch', ({ visible, watcher }) => {
    sessions.watch(watcher, visible);
    return null;
  });
  registry.handle('sync.connection.test', async ({ remote, apiKey }) => {
    const plan = await refusedAsInput(connections.planRemote(remote, apiKey));
    // One short try: a person is waiting for the answer, and nothing here is kept.
    const current = connections.read();
    const pin = current?.mode === 'remote' && current.remote === plan.remote ? current.pin : plan.moved?.pin;
    const client = createApiClient({
      baseUrl: plan.remote,
      apiKey: plan.apiKey,
      pin,
      maxAttempts: 1,
      deadlineMs: 15_000,
    });
    try {
      const page = await client.get('/api/pets?limit=1', { schema: petListResponseSchema });
      if (page.status !== 200) {
        throw new DeskCallError({ code: 'invalid_response', message: 'The server gave no list of pets.' });
      }
      const writes = await keyMaySave(client);
      return { server: plan.remote, pets: page.body.total, ...(writes !== undefined && { writes }) };
    } finally {
      await client.close();
    }
  });
  registry.handle('sync.connection.plan', async ({ remote, pin }) => {
    const plan = await refusedAsInput(connections.locateRemote(remote, pin));
    const current = connections.read();
    const sameConnection = current?.mode === 'remote' && plan.id === connections.activeId();
    const movedFrom = sameConnection && current.remote !== plan.remote ? current.remote : null;
    return { sameConnection, movedFrom };
  });
  registry.handle('sync.connection.pair', async ({ code: text, deskName: given }) => {
    const code = parseConnectionCode(text);
    if (!code) {
      throw new DeskCallError({
        code: 'invalid_input',
        message:
          'This is not a pairing code: copy the whole code (shelterdesk:…) from the shelter desk, or type its address and eight-letter code as the sharing card shows them (192.168.1.20:8787 K7QM-4TXP).',
      });
    }
    if (code.kind === 'key') {
      await sessions.setConnection({ mode: 'remote', remote: code.remote, apiKey: code.apiKey });
      return summary();
    }
    const name = given || names.get().deskName || os.hostname() || 'Shelter Desk';
    let paired: Paired & { fingerprint: string };
    try {
      paired =
        code.kind === 'typed'
          ? await pairWithTypedCode({ remote: code.remote, code: code.code, deskName: name })
          : {
              ...(await pairWithShelter({
                remote: code.remote,
                fingerprint: code.fingerprint,
                secret: code.secret,
                deskName: name,
              })),
              fingerprint: code.fingerprint,
            };
    } catch (error) {
      if (error instanceof ApiError) throw new DeskCallError(error.toDeskError());
      throw error;
    }
    await sessions.setConnection({
      mode: 'remote',
      remote: code.remote,
      apiKey: paired.key,
      pin: paired.fingerprint,
      paired: true,
    });
    const kept = names.get();
    names.fill({
      ...(given && !kept.deskName && { deskName: given }),
      ...(paired.shelterName && !kept.shelterName && { shelterName: paired.shelterName }),
    });
    return summary();
  });
  registry.handle('sync.connection.acknowledgeTls', () => {
    connections.acknowledgeTls();
    return summary();
  });
  registry.handle('sync.connection.set', async (input) => {
    await refusedAsInput(sessions.setConnection(input));
    return summary();
  });
}
