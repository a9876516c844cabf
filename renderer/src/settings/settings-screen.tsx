import {
  Card,
  Code,
  Group,
  Loader,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconDeviceDesktop, IconMoon, IconSun } from '@tabler/icons-react';
import { type FormEvent, useEffect, useState } from 'react';
import { COLOR_SCHEMES, type DateOrder, type DeskError, type DeskSettings } from '../../../shared/desk-api';
import { capitalized } from '../../../shared/wording/humanize';
import { formatMoney } from '../../../shared/wording/money';
import { useDeskQuery } from '../bridge/hooks';
import { useSettings } from '../bridge/settings';
import { BusyButton } from '../components/busy-button';
import { DeskErrorAlert } from '../components/desk-error-alert';
import { SavedLine } from '../components/saved-line';
import { ScreenHeader } from '../components/screen-header';
import { localeDayFirst } from '../lib/dates';
import { toDeskError } from '../lib/desk-error';
import { ConnectionCard } from './connection-card';

/** Every currency the runtime can write, as "EUR · Euro", for the currency picker. */
function currencyOptions(): Array<{ value: string; label: string }> {
  const names = new Intl.DisplayNames(undefined, { type: 'currency' });
  return Intl.supportedValuesOf('currency').map((code) => ({
    value: code,
    label: `${code} · ${names.of(code) ?? code}`,
  }));
}

const CURRENCY_OPTIONS = currencyOptions();

const SCHEME_WORDS: Record<(typeof COLOR_SCHEMES)[number], { label: string; icon: typeof IconSun }> = {
  auto: { label: 'Match system', icon: IconDeviceDesktop },
  light: { label: 'Light', icon: IconSun },
  dark: { label: 'Dark', icon: IconMoon },
};

export function SettingsScreen() {
  const { settings } = useSettings();
  return (
    <>
      <ScreenHeader
        title="Settings"
        description="How this desk connects to your shelter, and its own preferences. Changing either keeps every record on this desk."
      />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Stack gap="lg">
          <ConnectionCard />
          {settings ? <PreferencesCard settings={settings} /> : <Loader aria-label="Loading settings" />}
        </Stack>
        <AboutCard />
      </SimpleGrid>
    </>
  );
}

/** What the Preferences card's saved line names, by the setting saved (the line sits under all of them). */
const PREFERENCE_NAMES: Record<string, string> = {
  colorScheme: 'Appearance',
  currency: 'Currency',
  dateOrder: 'Typed dates',
  shelterName: 'Shelter name',
  deskName: 'This desk’s name',
};

function PreferencesCard({ settings }: { settings: DeskSettings }) {
  const { update } = useSettings();
  const [error, setError] = useState<DeskError>();
  /** The name of the setting the last save saved, once it is done. */
  const [saved, setSaved] = useState<string>();
  const [saving, setSaving] = useState(false);

  async function save(patch: Parameters<typeof update>[0]): Promise<void> {
    setSaving(true);
    setError(undefined);
    setSaved(undefined);
    try {
      await update(patch);
      setSaved(
        Object.keys(patch)
          .map((key) => PREFERENCE_NAMES[key] ?? key)
          .join(', '),
      );
    } catch (caught) {
      setError(toDeskError(caught));
    } finally {
      setSaving(false);
    }
  }

  return (
    <Card withBorder radius="lg" p="lg">
      <Title order={3} size="h4" mb="md">
        Preferences
      </Title>
      <Stack gap="lg">
        <Stack gap={6}>
          <Text fw={500} size="sm" id="color-scheme-label">
            Appearance
          </Text>
          <SegmentedControl
            aria-labelledby="color-scheme-label"
            value={settings.colorScheme}
            onChange={(value) => void save({ colorScheme: value as DeskSettings['colorScheme'] })}
            data={COLOR_SCHEMES.map((scheme) => {
              const { label, icon: Icon } = SCHEME_WORDS[scheme];
              return {
                value: scheme,
                label: (
                  <Group gap={6} justify="center" wrap="nowrap">
                    <Icon aria-hidden size={16} />
                    <span>{label}</span>
                  </Group>
                ),
              };
            })}
            fullWidth
          />
        </Stack>
        <Select
          label="Currency"
          description={`Adoption fees on the screens, kennel cards and contracts: ${formatMoney(150, settings.currency)}.`}
          data={CURRENCY_OPTIONS}
          value={settings.currency}
          onChange={(value) => value && value !== settings.currency && void save({ currency: value })}
          searchable
          allowDeselect={false}
          nothingFoundMessage="No currency with that code or name"
          maxDropdownHeight={260}
        />
        <Select
          label="Typed dates"
          description="How a date typed with numbers only, such as 03/04/2026, is read on every form: 3 April or 4 March. The field shows the day it read."
          data={[
            {
              value: 'auto',
              label: `As this computer writes dates (${localeDayFirst(Intl.DateTimeFormat().resolvedOptions().locale) ? 'day first' : 'month first'})`,
            },
            { value: 'day-first', label: 'Day first: 31/12/2026' },
            { value: 'month-first', label: 'Month first: 12/31/2026' },
          ]}
          value={settings.dateOrder}
          onChange={(value) =>
            value && value !== settings.dateOrder && void save({ dateOrder: value as DateOrder })
          }
          allowDeselect={false}
        />
        <NameSetting
          label="Shelter name"
          description="Shown in the header, and printed on kennel cards and agreements."
          placeholder="e.g. Riverside Animal Rescue"
          blankMessage="Please enter the shelter name: kennel cards and agreements print it. The name saved before stays."
          maxLength={80}
          saveLabel="Save shelter name"
          value={settings.shelterName}
          saving={saving}
          onSave={(shelterName) => void save({ shelterName })}
          onBlank={() => setSaved(undefined)}
        />
        <NameSetting
          label="This desk’s name"
          description="When this desk pairs with a shelter on your network, its key is listed there under this name (empty: the computer’s name)."
          placeholder="e.g. Front desk"
          maxLength={60}
          saveLabel="Save desk name"
          value={settings.deskName}
          saving={saving}
          onSave={(deskName) => void save({ deskName })}
        />
        {saved && !error && <SavedLine>{saved} saved</SavedLine>}
        {error && <DeskErrorAlert error={error} title="Not saved" />}
      </Stack>
    </Card>
  );
}

function AboutCard() {
  const info = useDeskQuery('app.info');
  return (
    <Card withBorder radius="lg" p="lg">
      <Title order={3} size="h4" mb="md">
        About this desk
      </Title>
      {info.error && <DeskErrorAlert error={info.error} title="The desk did not answer" />}
      {info.loading && !info.data && <Loader aria-label="Loading app info" />}
      {info.data && (
        <Table variant="vertical" layout="fixed" withRowBorders={false} aria-label="About this desk">
          <Table.Tbody>
            <Table.Tr>
              <Table.Th w={130}>Version</Table.Th>
              <Table.Td>{info.data.version}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>Mode</Table.Th>
              <Table.Td>
                {info.data.mode === 'desktop' ? 'Desktop app' : 'Browser mode'}
                {info.data.modeReason && (
                  <Text size="xs" c="dimmed">
                    {capitalized(info.data.modeReason)}
                  </Text>
                )}
              </Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>Data folder</Table.Th>
              <Table.Td>
                <Code style={{ overflowWrap: 'anywhere' }}>{info.data.dataDir}</Code>
              </Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>Platform</Table.Th>
              <Table.Td>
                {info.data.platform}, Node {info.data.versions.node}
                {info.data.versions.electron && `, Electron ${info.data.versions.electron}`}
              </Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
      )}
    </Card>
  );
}

/** One name of the settings (the shelter's, this desk's): a field and its own Save, enabled once it differs. */
function NameSetting(props: {
  label: string;
  description: string;
  placeholder: string;
  maxLength: number;
  saveLabel: string;
  /** Said instead of saving an empty name, for a name that must not be cleared. */
  blankMessage?: string;
  /** Told when an empty name was not saved (the line under the preferences no longer speaks of an earlier save). */
  onBlank?(): void;
  value: string;
  saving: boolean;
  onSave(value: string): void;
}) {
  const [value, setValue] = useState(props.value);
  const [blank, setBlank] = useState(false);
  useEffect(() => setValue(props.value), [props.value]);
  function submit(event: FormEvent) {
    event.preventDefault();
    if (props.blankMessage && value.trim() === '') {
      setBlank(true);
      props.onBlank?.();
      return;
    }
    props.onSave(value);
  }
  return (
    <form onSubmit={submit}>
      <Group align="flex-end" wrap="nowrap">
        <TextInput
          label={props.label}
          description={props.description}
          placeholder={props.placeholder}
          value={value}
          onChange={(event) => {
            setValue(event.currentTarget.value);
            setBlank(false);
          }}
          error={blank && props.blankMessage}
          maxLength={props.maxLength}
          style={{ flex: 1 }}
        />
        <BusyButton
          type="submit"
          loading={props.saving}
          disabled={value.trim() === props.value}
          aria-label={props.saveLabel}
        >
          Save
        </BusyButton>
      </Group>
    </form>
  );
}
