import { Button, Card, Group, Stack, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useDesk } from '../bridge/hooks';
import { BusyButton } from '../components/busy-button';
import { DeskErrorAlert } from '../components/desk-error-alert';
import { SavedLine } from '../components/saved-line';
import { useAction } from './use-shelter';

/**
 * The public address for photos: the origin adoption listings link the shelter's stored photos under. Saving it
 * moves every pet naming a stored photo to it, and says how many pets that was.
 */
export function PhotosPanel({ origin, onChange }: { origin: string | null; onChange(): void }) {
  const api = useDesk();
  const action = useAction();
  const [text, setText] = useState(origin ?? '');
  const [outcome, setOutcome] = useState<string>();

  async function save(value: string | null) {
    setOutcome(undefined);
    const done = await action.run(() => api.call('shelter.photos.setPublicOrigin', { origin: value }));
    if (done === undefined) return;
    setText(done.origin ?? '');
    setOutcome(
      done.origin === null
        ? 'Cleared: new photos name the address they were sent to.'
        : `Saved: new photos name ${done.origin}; ${done.petsUpdated} ${done.petsUpdated === 1 ? 'pet was' : 'pets were'} updated to name it.`,
    );
    onChange();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    void save(text.trim() === '' ? null : text);
  }

  return (
    <Card withBorder radius="lg" p="lg" maw={720}>
      <form onSubmit={submit}>
        <Stack gap="sm">
          <TextInput
            label="Public address for photos"
            description="Where adoption listings find the photos taken at this desk: the web address of this shelter's server as the internet reaches it (a reverse proxy or tunnel), e.g. https://photos.example-shelter.org. Empty: photos name the address they were sent to (the LAN sharing address while sharing is on), which may change when this PC restarts."
            placeholder="https://photos.example-shelter.org"
            value={text}
            onChange={(event) => {
              setText(event.currentTarget.value);
              setOutcome(undefined);
              action.clear();
            }}
            error={action.error ? true : undefined}
            spellCheck={false}
          />
          <Group>
            <BusyButton type="submit" loading={action.busy} disabled={text.trim() === (origin ?? '')}>
              Save public address
            </BusyButton>
            {origin !== null && (
              <Button variant="default" onClick={() => void save(null)} disabled={action.busy}>
                Clear
              </Button>
            )}
          </Group>
          {outcome && !action.error && <SavedLine>{outcome}</SavedLine>}
          {action.error && <DeskErrorAlert error={action.error} title="Public address not saved" />}
        </Stack>
      </form>
    </Card>
  );
}
