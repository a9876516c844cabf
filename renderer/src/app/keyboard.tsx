import { Group, Kbd, Modal, Stack, Table, Text } from '@mantine/core';
import { useDisclosure, useHotkeys, useOs } from '@mantine/hooks';
import { useLocation } from 'wouter';
import { startIntake } from '../intake/focus-request';
import { openSpotlight } from './desk-spotlight';

/**
 * The key that modifies shortcuts here: ⌘ on a Mac, else Ctrl. Read on the first render (the desk never renders on
 * a server): Mantine's default reads it in a layout effect, which renders the header again before the first frame.
 */
export function useModifierKey(): '⌘' | 'Ctrl' {
  return useOs({ getValueInEffect: false }) === 'macos' ? '⌘' : 'Ctrl';
}

/** Saves the form being worked on: the one holding the focus, else the last one open on screen (a drawer's). */
function submitOpenForm(): void {
  const active = document.activeElement;
  const focused = active instanceof HTMLElement ? active.closest('form') : null;
  const forms = [...document.querySelectorAll('form')].filter((form) => form.offsetParent !== null);
  const form = focused ?? forms.at(-1);
  form?.requestSubmit();
}

/**
 * The desk's keyboard: Ctrl+K search, Ctrl+N (or Alt+N, which browsers leave to the page) a new intake, Ctrl+S
 * saves the open form, `?` lists the shortcuts; Esc closes drawers and dialogs (Mantine's own behaviour).
 */
export function KeyboardShortcuts() {
  const [opened, { open, close }] = useDisclosure(false);
  const [location, navigate] = useLocation();
  const mod = useModifierKey();
  const newIntake = () => startIntake(navigate, location);
  useHotkeys(
    [
      ['mod+N', newIntake],
      ['alt+N', newIntake],
      ['mod+S', submitOpenForm],
    ],
    [],
  );
  useHotkeys([['shift+?', open]]);

  const rows: Array<[string[], string]> = [
    [[mod, 'K'], 'Find a pet, a person or something to do'],
    [[mod, 'N'], 'New intake (Alt + N in a browser, which keeps Ctrl + N for itself)'],
    [[mod, 'S'], 'Save the form you are working on'],
    [['Esc'], 'Close a drawer, a dialog or the search'],
    [['?'], 'Show this list'],
    [['Tab'], 'Move to the next field; the first Tab offers “Skip to main content”'],
  ];
  return (
    <Modal opened={opened} onClose={close} title="Keyboard shortcuts" centered size="lg">
      <Stack gap="sm">
        <Table aria-label="Keyboard shortcuts" verticalSpacing="xs">
          <Table.Tbody>
            {rows.map(([keys, what]) => (
              <Table.Tr key={what}>
                <Table.Td w={140}>
                  <Group gap={4} wrap="nowrap">
                    {keys.map((key, index) => (
                      <span key={key}>
                        {index > 0 && ' + '}
                        <Kbd>{key}</Kbd>
                      </span>
                    ))}
                  </Group>
                </Table.Td>
                <Table.Td>{what}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Text size="sm" c="dimmed">
          Shortcuts with {mod} work inside text fields too; ? works anywhere except while typing.
        </Text>
      </Stack>
    </Modal>
  );
}

/** Opens the search from a button (the header's search field). */
export function openSearch(): void {
  openSpotlight();
}
