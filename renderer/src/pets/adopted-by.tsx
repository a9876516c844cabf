import { Anchor, Text } from '@mantine/core';
import { useLocation } from 'wouter';
import { useDeskQuery } from '../bridge/hooks';
import { unlessTypingHeld } from '../components/leave-guard';
import { requestOpen } from '../lib/open-record';

/** Who adopted a pet: the person's name, linked to their page, or what is known when the desk does not hold them. */
export function AdoptedBy({ personId }: { personId: string }) {
  const person = useDeskQuery('mirror.people.get', { id: personId });
  const [, navigate] = useLocation();
  if (person.data) {
    const { record } = person.data;
    const open = () =>
      unlessTypingHeld(() => {
        navigate('/people');
        requestOpen({ kind: 'person', id: record.id, personType: record.type });
      });
    return (
      <Anchor component="button" type="button" size="sm" onClick={open}>
        {record.name}
      </Anchor>
    );
  }
  if (person.loading)
    return (
      <Text span size="sm">
        …
      </Text>
    );
  return (
    <Text span size="sm">
      A person not on this desk{' '}
      <Text span size="xs" c="dimmed">
        ({personId})
      </Text>
    </Text>
  );
}
