import { Alert, Box } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import { useLocation } from 'wouter';
import type { DeskProcessEvent, MenuCommand } from '../../../shared/desk-api';
import { useDesk, useDeskEvent } from '../bridge/hooks';

/** The screen a menu command opens (Find and Print act on the current screen instead). */
const COMMAND_PATHS: Partial<Record<MenuCommand, string>> = {
  'new-intake': '/intake',
  settings: '/settings',
};

/** Focuses the current screen's search field; false when it has none. */
function focusSearch(): boolean {
  const label = [...document.querySelectorAll<HTMLLabelElement>('main label')].find((candidate) =>
    /^\s*search/i.test(candidate.textContent ?? ''),
  );
  const field = label?.control ?? document.querySelector<HTMLInputElement>('main input[type="search"]');
  if (!(field instanceof HTMLElement)) return false;
  field.focus();
  if (field instanceof HTMLInputElement) field.select();
  return true;
}

/**
 * The desktop shell's events (browser mode never sends them): menu commands and their shortcuts become
 * navigation and actions here, and the core's process restarts are shown where staff will see them.
 */
export function DesktopShellEvents() {
  const desk = useDesk();
  const [, navigate] = useLocation();
  const [coreProcess, setCoreProcess] = useState<DeskProcessEvent>();

  useDeskEvent('menu-command', ({ command }) => {
    const path = COMMAND_PATHS[command];
    if (path) navigate(path);
    else if (command === 'print') window.print();
    else if (command === 'sync-now') desk.call('sync.now').catch(() => undefined);
    else if (command === 'find' && !focusSearch()) {
      // No search here: open Pets and focus its search once it is on screen (bounded: about half a second).
      navigate('/pets');
      let frames = 30;
      const retry = () => {
        if (!focusSearch() && --frames > 0) requestAnimationFrame(retry);
      };
      requestAnimationFrame(retry);
    }
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
        icon={failed ? <IconAlertTriangle /> : restarting ? <IconRefresh /> : <IconCircleCheck />}
        title={failed ? 'The desk stopped' : restarting ? 'Restarting the desk…' : 'The desk restarted'}
        withCloseButton={!restarting}
        onClose={() => setCoreProcess(undefined)}
      >
        {coreProcess.message}
      </Alert>
    </Box>
  );
}
