import { Card, Group, Paper, SimpleGrid, Tabs, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { CONTRACT_TYPES, type ContractType } from '../../../shared/contract';
import { useDesk } from '../bridge/hooks';
import { BusyButton } from '../components/busy-button';
import { DeskErrorAlert } from '../components/desk-error-alert';
import { useUnsavedGuard } from '../components/leave-guard';
import { MarkdownText } from '../components/markdown-text';
import { useAction } from './use-shelter';

const TITLES: Record<ContractType, string> = {
  adopter: 'Adoption agreement',
  foster: 'Foster agreement',
  volunteer: 'Volunteer agreement',
  surrender: 'Surrender form',
};

/** The four contracts in Markdown, edited beside a live preview. */
export function ContractsPanel({
  contracts,
  onChange,
}: {
  contracts: Array<{ type: ContractType; content: string }>;
  onChange(): void;
}) {
  return (
    // Hidden, not held by Activity: an unsaved contract keeps asking while another one is shown (see Shelter settings).
    <Tabs defaultValue="adopter" variant="pills" radius="md" keepMountedMode="display-none">
      <Tabs.List mb="md">
        {CONTRACT_TYPES.map((type) => (
          <Tabs.Tab key={type} value={type}>
            {TITLES[type]}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      {CONTRACT_TYPES.map((type) => (
        <Tabs.Panel key={type} value={type}>
          <ContractEditor
            type={type}
            initial={contracts.find((contract) => contract.type === type)?.content ?? ''}
            onChange={onChange}
          />
        </Tabs.Panel>
      ))}
    </Tabs>
  );
}

function ContractEditor({
  type,
  initial,
  onChange,
}: {
  type: ContractType;
  initial: string;
  onChange(): void;
}) {
  const api = useDesk();
  const action = useAction();
  const [text, setText] = useState(initial);
  const [savedText, setSavedText] = useState(initial);
  const [saved, setSaved] = useState(false);
  const leaveQuestion = useUnsavedGuard(`the ${TITLES[type].toLowerCase()}`, text !== savedText);

  async function save() {
    const done = await action.run(() => api.call('shelter.contracts.set', { type, content: text }));
    if (done !== undefined) {
      setSavedText(text);
      setSaved(true);
      onChange();
    }
  }

  return (
    <Card withBorder radius="lg" p="lg">
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Textarea
          label={`${TITLES[type]} (Markdown)`}
          description="# Heading, **bold**, - list items. Raw HTML is not shown. The printed agreement adds the person, the pets and fees, and signature and date lines for both sides."
          autosize
          minRows={16}
          maxRows={28}
          value={text}
          onChange={(event) => {
            setText(event.currentTarget.value);
            setSaved(false);
          }}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 } }}
        />
        <div>
          <Text size="sm" fw={500} mb={4}>
            Preview
          </Text>
          <Paper
            withBorder
            radius="md"
            p="md"
            mah={560}
            style={{ overflow: 'auto' }}
            // A scrolling region: reachable and scrollable by keyboard, named for screen readers.
            role="region"
            tabIndex={0}
            aria-label="Contract preview"
          >
            {text.trim() === '' ? (
              <Text c="dimmed">Nothing written yet.</Text>
            ) : (
              <MarkdownText>{text}</MarkdownText>
            )}
          </Paper>
        </div>
      </SimpleGrid>
      <Group mt="md">
        <BusyButton onClick={() => void save()} loading={action.busy} disabled={text === savedText}>
          Save {TITLES[type].toLowerCase()}
        </BusyButton>
        {text !== savedText && (
          <Text size="sm" c="dimmed">
            Unsaved changes
          </Text>
        )}
        {saved && (
          <Text size="sm" c="dimmed" role="status">
            Saved.
          </Text>
        )}
      </Group>
      {action.error && <DeskErrorAlert error={action.error} title="Contract not saved" />}
      {leaveQuestion}
    </Card>
  );
}
