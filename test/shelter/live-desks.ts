import type { DeskCore } from '../../electron/desk/api';

/**
 * Two desks on 127.0.0.1: A runs the shelter and shares it over HTTPS, B pairs with A's code. Both are started
 * (their schedules run, so B follows A's change stream). Returns them and a pet both have, by its server id.
 * The caller sets SHELTER_DESK_LAN_HOST / SHELTER_DESK_LAN_PORT and owns the cores (closing them).
 */
export async function pairedDesks(open: (name: string) => Promise<DeskCore>) {
  const deskA = await open('a');
  await deskA.registry.invoke('shelter.setup', { choice: 'standalone' });
  const sharing = await deskA.registry.invoke('shelter.lan.set', { enabled: true });
  if (!sharing.code) throw new Error(`A does not share: ${sharing.problem}`);
  const deskB = await open('b');
  await deskB.registry.invoke('sync.connection.pair', { code: sharing.code, deskName: 'Desk B' });
  await deskA.registry.invoke('outbox.createPet', {
    fields: {
      name: 'Live Rex',
      species: 'dog',
      age_category: 'adult',
      sex: 'male',
      size: 'medium',
      status: 'available',
      health: 'good',
    },
  });
  await deskA.registry.invoke('sync.now');
  const onA = await deskA.registry.invoke('mirror.pets.list', { search: 'Live Rex' });
  const petId = onA.items[0]?.record.id;
  if (!petId) throw new Error('the pet did not reach the shelter');
  await deskB.registry.invoke('sync.now');
  return { deskA, deskB, petId };
}

/**
 * Changes the pet's status on A and resolves with the milliseconds until B's mirror shows it and B has told its
 * screens (`mirror-changed` for pets), with no sync asked for on B: only the change stream brings it.
 */
export function statusChangeReaches(
  deskA: DeskCore,
  deskB: DeskCore,
  petId: string,
  status: string,
  timeoutMs = 10_000,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let done = false;
    const timer = setTimeout(
      () => finish(new Error(`B did not show ${status} within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const finish = (error?: Error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      stop();
      if (error) reject(error);
      else resolve(performance.now() - started);
    };
    const stop = deskB.events.subscribe((event) => {
      if (event.type !== 'mirror-changed' || !event.collections.includes('pets')) return;
      void deskB.registry.invoke('mirror.pets.get', { id: petId }).then((pet) => {
        if (pet.record.status === status) finish();
      }, finish);
    });
    deskA.registry.invoke('outbox.updatePet', { id: petId, fields: { status } }).catch(finish);
  });
}
