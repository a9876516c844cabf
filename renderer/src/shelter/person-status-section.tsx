import { Button, Group } from '@mantine/core';
import { IconUserCog } from '@tabler/icons-react';
import { useState } from 'react';
import type { MirrorPerson } from '../../../shared/desk-api';
import { useDeskQuery } from '../bridge/hooks';
import { PersonStatusModal } from './person-status-modal';

/** "Change status…" on a person's record, on a desk that runs the shelter (a staff decision with notes). */
export function PersonStatusSection({ person }: { person: MirrorPerson }) {
  const overview = useDeskQuery('shelter.overview');
  const [open, setOpen] = useState(false);
  if (overview.data?.role !== 'standalone' || person.presence === 'local') return null;
  const { record } = person;
  return (
    <Group justify="flex-end">
      <Button
        variant="light"
        leftSection={<IconUserCog aria-hidden size={16} />}
        onClick={() => setOpen(true)}
      >
        Change status…
      </Button>
      {open && (
        <PersonStatusModal
          person={{ id: record.id, name: record.name, status: record.status }}
          onClose={() => setOpen(false)}
          onSaved={() => undefined}
        />
      )}
    </Group>
  );
}
