import { Drawer, Text } from '@mantine/core';
import { useLeaveGuard } from '../components/leave-guard';
import { useDrawerClose } from '../lib/drawer-close';
import { useDrawerHistory } from '../lib/drawer-history';
import { PersonDetail } from './person-detail';

/**
 * A person's page in a drawer over the screen that opened it (People, Applications). An edit holding typing asks
 * before it closes; the drawer is an entry in the tab's history (see `useDrawerHistory`).
 */
export function PersonDrawer({
  id,
  onClose,
  onOpen,
  zIndex,
}: {
  id: string | null;
  onClose(): void;
  /** Opens the drawer of a person again (Forward, or Back onto the screen while it showed that person). */
  onOpen(id: string): void;
  /** Above the default: shown over another drawer (a sign-up's duplicate warning opens the person it names). */
  zIndex?: number | undefined;
}) {
  const editGuard = useLeaveGuard('this edit');
  const close = useDrawerClose(id !== null, editGuard.guard(onClose));
  useDrawerHistory('person', id, close, onOpen);
  return (
    <>
      <Drawer
        opened={id !== null}
        onClose={close}
        position="right"
        size="lg"
        title={<Text fw={600}>Person details</Text>}
        zIndex={zIndex}
      >
        {id !== null && <PersonDetail key={id} id={id} editGuard={editGuard} />}
      </Drawer>
      {editGuard.modal}
    </>
  );
}
