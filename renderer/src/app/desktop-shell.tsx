import { Alert, Box } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import { useLocation } from 'wouter';
import type { DeskProcessEvent, MenuCommand } from '../../../shared/desk-api';
import { useDesk, useDeskEvent } from '../bridge/hooks';
import { startIntake } from '../intake/focus-request';
import { openSpotlight } from './desk-spotlight';

/** The screen a menu command opens (Find opens the desk-wide search, as Ctrl+K does in the page). */
const COMMAND_PATHS: Partial<Record<MenuCommand, string>> = {
  settings: '/settings',
};

/**
 * The desktop shell's events (browser mode never sends them): menu commands and their shortcuts become
 * navigation and actions here, and the core's process restarts are shown where staff will see them.
 */
export function DesktopShellEvents() {
  const desk = useDesk();
  const [location, navigate] = useLocation();
  const [coreProcess, setCoreProcess] = useState<DeskProcessEvent>();

  useDeskEvent('menu-command', ({ command }) => {
    const path = COMMAND_PATHS[command];
    if (command === 'new-intake') startIntake(navigate, location);
    else if (path) navigate(path);
    else if (command === 'print') window.print();
    else if (command === 'sync-now') desk.call('sync.now').catch(() => undefined);
    else if (command === 'find') openSpotlight();
  });
  useDeskEvent('desk-process', setCoreProcess);

  if (!coreProcess) return null;
  const restarting = coreProcess.state === 'restarting';
  const failed = coreProcess.state === 'failed';
  return (
    <Box mb="md">
      <Alert
        role={failed ? 'alert' : 'status'}
        color={failed ? 'red' : restarting ? 'yellow' : 'teal'}
        icon={
          failed ? (
            <IconAlertTriangle aria-hidden />
          ) : restarting ? (
            <IconRefresh aria-hidden />
          ) : (
            <IconCircleCheck aria-hidden />
          )
        }
        title={failed ? 'The desk stopped' : restarting ? 'Restarting the desk…' : 'The desk restarted'}
        withCloseButton={!restarting}
        onClose={() => setCoreProcess(undefined)}
      >
        {coreProcess.message}
      </Alert>
    </Box>
  );
}
