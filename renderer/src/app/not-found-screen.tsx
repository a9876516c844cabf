import { IconMapSearch } from '@tabler/icons-react';
import { EmptyState } from '../components/empty-state';

export function NotFoundScreen() {
  return (
    <EmptyState
      icon={IconMapSearch}
      title="This page does not exist"
      action={{ label: 'Go to Pets', href: '/pets' }}
    >
      The link may be from an older version of Shelter Desk. Pick a section on the left.
    </EmptyState>
  );
}
