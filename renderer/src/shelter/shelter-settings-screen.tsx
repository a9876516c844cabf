import { Alert, Button, Group, Loader, Modal, Stack, Tabs, Text } from '@mantine/core';
import {
  IconCategory,
  IconFileText,
  IconForms,
  IconPhoto,
  IconReceipt2,
  IconSparkles,
  IconStethoscope,
  IconTemplate,
} from '@tabler/icons-react';
import { useState } from 'react';
import { useDesk, useDeskQuery } from '../bridge/hooks';
import { BusyButton } from '../components/busy-button';
import { DeskErrorAlert } from '../components/desk-error-alert';
import { reloadDiscardingTyping } from '../components/leave-guard';
import { ScreenHeader } from '../components/screen-header';
import { useRememberedState } from '../lib/remembered';
import { ContractsPanel } from './contracts-panel';
import { FeesPanel } from './fees-panel';
import { FieldsPanel } from './fields-panel';
import { PhotosPanel } from './photos-panel';
import { SHELTER_TAB_KEY } from './shelter-tab';
import { StatusesPanel } from './statuses-panel';
import { TemplatesPanel } from './templates-panel';
import { StandaloneOnly, useAction } from './use-shelter';
import { VetsPanel } from './vets-panel';

/** The standalone shelter's own settings: what the API serves to every desk and tool. */
export function ShelterSettingsScreen() {
  return (
    <>
      <ScreenHeader
        title="Shelter settings"
        description="Statuses, form fields, fees, contracts, vets, templates and the photos' public address of your shelter. Every desk picks up a change with its next sync; this one at once."
      />
      <StandaloneOnly what="the shelter’s settings">
        {(overview) => <Settings demo={overview.demo} />}
      </StandaloneOnly>
    </>
  );
}

function Settings({ demo }: { demo: boolean }) {
  const settings = useDeskQuery('shelter.settings.get');
  const [tab, setTab] = useRememberedState(SHELTER_TAB_KEY, 'statuses');
  if (settings.error) return <DeskErrorAlert error={settings.error} title="The settings did not load" />;
  if (!settings.data) return <Loader aria-label="Loading settings" />;
  const data = settings.data;
  return (
    <Stack gap="lg">
      {demo && <DemoCard />}
      {/*
        Kept mounted and only hidden: a fee rule or a contract typed and not saved is still there after a look at
        another tab, and still asks before the screen is left (hidden by React's Activity, Mantine's default, a panel's
        effects stop, and with them its leave question).
      */}
      <Tabs
        value={tab}
        onChange={(value) => setTab(value ?? 'statuses')}
        variant="outline"
        radius="md"
        keepMountedMode="display-none"
      >
        <Tabs.List>
          <Tabs.Tab value="statuses" leftSection={<IconCategory aria-hidden size={16} />}>
            Statuses
          </Tabs.Tab>
          <Tabs.Tab value="fields" leftSection={<IconForms aria-hidden size={16} />}>
            Form fields
          </Tabs.Tab>
          <Tabs.Tab value="fees" leftSection={<IconReceipt2 aria-hidden size={16} />}>
            Fees
          </Tabs.Tab>
          <Tabs.Tab value="contracts" leftSection={<IconFileText aria-hidden size={16} />}>
            Contracts
          </Tabs.Tab>
          <Tabs.Tab value="vets" leftSection={<IconStethoscope aria-hidden size={16} />}>
            Veterinarians
          </Tabs.Tab>
          <Tabs.Tab value="templates" leftSection={<IconTemplate aria-hidden size={16} />}>
            Pet templates
          </Tabs.Tab>
          <Tabs.Tab value="photos" leftSection={<IconPhoto aria-hidden size={16} />}>
            Photos
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="statuses" pt="md">
          <StatusesPanel statuses={data.statuses} onChange={settings.reload} />
        </Tabs.Panel>
        <Tabs.Panel value="fields" pt="md">
          <FieldsPanel settings={data} onChange={settings.reload} />
        </Tabs.Panel>
        <Tabs.Panel value="fees" pt="md">
          <FeesPanel rules={data.feeRules} onChange={settings.reload} />
        </Tabs.Panel>
        <Tabs.Panel value="contracts" pt="md">
          <ContractsPanel contracts={data.contracts} onChange={settings.reload} />
        </Tabs.Panel>
        <Tabs.Panel value="vets" pt="md">
          <VetsPanel vets={data.veterinarians} onChange={settings.reload} />
        </Tabs.Panel>
        <Tabs.Panel value="templates" pt="md">
          <TemplatesPanel templates={data.templates} onChange={settings.reload} />
        </Tabs.Panel>
        <Tabs.Panel value="photos" pt="md">
          <PhotosPanel origin={data.photoPublicOrigin} onChange={settings.reload} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

function DemoCard() {
  const api = useDesk();
  const [confirming, setConfirming] = useState(false);
  const action = useAction();
  async function remove() {
    const done = await action.run(() => api.call('shelter.demo.remove'));
    // The demo's records are gone, and with them whatever was typed about them.
    if (done) reloadDiscardingTyping();
  }
  return (
    <Alert color="grape" variant="light" icon={<IconSparkles aria-hidden />} title="This is the demo shelter">
      <Group justify="space-between" align="flex-end">
        <Text size="sm" maw={640}>
          Its pets and people are made up. When you are ready to use Shelter Desk for real, remove them and
          start with an empty shelter (a backup of the demo is kept).
        </Text>
        <Button color="grape" variant="light" onClick={() => setConfirming(true)}>
          Remove the demo…
        </Button>
      </Group>
      <Modal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title="Remove the demo shelter?"
        centered
      >
        <Stack gap="sm">
          <Text size="sm">
            Every demo pet, person, application, setting and key is removed from this desk, and the shelter
            starts empty. Desks connected to it must be connected again.
          </Text>
          {action.error && <DeskErrorAlert error={action.error} title="The demo was not removed" />}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              Keep it
            </Button>
            <BusyButton color="grape" onClick={() => void remove()} loading={action.busy}>
              Remove and start empty
            </BusyButton>
          </Group>
        </Stack>
      </Modal>
    </Alert>
  );
}
