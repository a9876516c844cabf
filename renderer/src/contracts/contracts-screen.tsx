import { Anchor, Badge, Button, Card, Group, Loader, Paper, Tabs, Text, ThemeIcon } from '@mantine/core';
import { IconFileText, IconPrinter } from '@tabler/icons-react';
import { CONTRACT_TYPES, type ContractType } from '../../../shared/contract';
import { DeskErrorAlert } from '../components/desk-error-alert';
import { MarkdownText } from '../components/markdown-text';
import { ScreenHeader } from '../components/screen-header';
import { useStandalone } from '../lib/connection';
import { formatMomentDate } from '../lib/dates';
import { openShelterSettings } from '../shelter/shelter-tab';
import { CONTRACT_WORDS, UnwrittenAgreement, useAgreement } from './agreement-text';

export function ContractsScreen() {
  const standalone = useStandalone();
  return (
    <>
      <div data-print="hide">
        <ScreenHeader
          title="Contracts"
          description="Your shelter’s agreement texts, ready to read out or print even when the internet is down."
          actions={
            <Button
              variant="default"
              leftSection={<IconPrinter aria-hidden size={18} />}
              onClick={() => window.print()}
            >
              Print
            </Button>
          }
        />
        {standalone && (
          <Text size="sm" c="dimmed" mb="md">
            Written by this shelter.{' '}
            <Anchor href="#/shelter" size="sm" onClick={() => openShelterSettings('contracts')}>
              Edit them under Shelter, Contracts
            </Anchor>
            .
          </Text>
        )}
      </div>
      <Tabs defaultValue="adopter" variant="outline" radius="md" keepMounted={false}>
        <Tabs.List data-print="hide">
          {CONTRACT_TYPES.map((type) => (
            <Tabs.Tab key={type} value={type} leftSection={<IconFileText aria-hidden size={16} />}>
              {CONTRACT_WORDS[type].title}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {CONTRACT_TYPES.map((type) => (
          <Tabs.Panel key={type} value={type} pt="md">
            <ContractPanel type={type} />
          </Tabs.Panel>
        ))}
      </Tabs>
    </>
  );
}

function ContractPanel({ type }: { type: ContractType }) {
  const { contract, state } = useAgreement(type);
  if (contract.error) return <DeskErrorAlert error={contract.error} title="This contract did not load" />;
  if (state === 'loading') return <Loader aria-label="Loading contract" />;
  if (state !== 'written' || !contract.data) {
    const unwritten = state === 'unwritten';
    return (
      <Card withBorder radius="lg" p="lg">
        <Group justify="space-between" mb="xs" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <ThemeIcon variant="light" size="lg" radius="md">
              <IconFileText aria-hidden size={20} />
            </ThemeIcon>
            <Text fw={600}>{unwritten ? 'Nothing written yet' : 'Not on this desk yet'}</Text>
          </Group>
          <Badge variant="light" color={unwritten ? 'yellow' : 'gray'}>
            {unwritten ? 'No text' : 'Arrives with sync'}
          </Badge>
        </Group>
        <Text size="sm" c="dimmed" mb={unwritten ? 'xs' : 0}>
          {CONTRACT_WORDS[type].text}
          {!unwritten && ' The text comes from your shelter’s server with the first sync.'}
        </Text>
        {unwritten && <UnwrittenAgreement type={type} />}
      </Card>
    );
  }
  return (
    <Paper withBorder radius="lg" p="xl" aria-label={CONTRACT_WORDS[type].title}>
      <Text size="xs" c="dimmed" mb="sm" data-print="hide">
        {CONTRACT_WORDS[type].text}
        {contract.data.updated_at && ` Last changed ${formatMomentDate(contract.data.updated_at)}.`}
      </Text>
      <MarkdownText>{contract.data.content}</MarkdownText>
    </Paper>
  );
}
