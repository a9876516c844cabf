import { IconReceipt2 } from '@tabler/icons-react';
import { EmptyState } from '../components/empty-state';
import { ScreenHeader } from '../components/screen-header';

export function FeesScreen() {
  return (
    <>
      <ScreenHeader
        title="Adoption fees"
        description="The fee rules your shelter uses: a base fee per species, adjusted by age, size and other traits."
      />
      <EmptyState
        icon={IconReceipt2}
        title="No fee rules yet"
        action={{ label: 'Connect to your shelter', href: '/sync' }}
      >
        Fee rules are set up by your shelter and arrive with the first sync. Pets without their own fee then
        show the fee these rules give them.
      </EmptyState>
    </>
  );
}
