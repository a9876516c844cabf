import { Center, Loader } from '@mantine/core';
import {
  IconAddressBook,
  IconBuildingCommunity,
  IconCloudDataConnection,
  IconDatabaseExport,
  IconFileImport,
  IconFileText,
  IconInbox,
  IconKey,
  IconLayoutDashboard,
  IconPaw,
  IconReceipt2,
  IconSettings,
  IconSquareRoundedPlus,
  type TablerIcon,
} from '@tabler/icons-react';
import { Component, type ComponentType, lazy, type ReactNode, Suspense } from 'react';
import { CodeLoadFailure } from '../components/code-load-failure';
import { PetsScreen } from '../pets/pets-screen';

/** Shown in a screen's place while its code loads (the first visit to it, for a moment). */
function ScreenLoading() {
  return (
    <Center py="xl">
      <Loader size="sm" aria-label="Loading the screen" />
    </Center>
  );
}

/**
 * A screen whose code could not be loaded (the desk was updated while this window stayed open, or the host stopped
 * answering) says so and offers a reload, instead of leaving the window blank.
 */
class ScreenLoadFailure extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return <CodeLoadFailure title="This screen could not be loaded" m="md" />;
  }
}

/**
 * Where a screen is shown. Each route mounts its own (routes are keyed), so the screen it replaces is gone at once,
 * never kept hidden (and still listening, to a scroll it no longer has) while a lazy screen's code loads.
 */
export function ScreenBoundary({ children }: { children: ReactNode }) {
  return (
    <ScreenLoadFailure>
      <Suspense fallback={<ScreenLoading />}>{children}</Suspense>
    </ScreenLoadFailure>
  );
}

/**
 * A screen whose code loads the first time it is shown, in a chunk of its own: the first screen (Pets) and the frame
 * load with the app, and a new tab does not wait for charts, editors or printing it does not show.
 */
export function lazyScreen(load: () => Promise<ComponentType>): ComponentType {
  return lazy(async () => ({ default: await load() }));
}

export interface Section {
  /** Hash route, e.g. `/pets` (URL `#/pets`). */
  path: string;
  /** Navigation label; also the accessible name of the nav link. */
  label: string;
  /** One line under the label in the navigation. */
  hint: string;
  icon: TablerIcon;
  screen: ComponentType;
  /** Shown in the lower navigation group (setup rather than daily work). */
  secondary?: boolean;
}

/** The app's sections, in navigation order. To add a screen: add one entry here. */
export const SECTIONS: readonly Section[] = [
  {
    path: '/overview',
    label: 'Overview',
    hint: 'Your shelter at a glance',
    icon: IconLayoutDashboard,
    screen: lazyScreen(async () => (await import('../dashboard/dashboard-screen')).DashboardScreen),
  },
  { path: '/pets', label: 'Pets', hint: 'Animals in your care', icon: IconPaw, screen: PetsScreen },
  {
    path: '/intake',
    label: 'Intake',
    hint: 'Record a new arrival',
    icon: IconSquareRoundedPlus,
    screen: lazyScreen(async () => (await import('../intake/intake-screen')).IntakeScreen),
  },
  {
    path: '/people',
    label: 'People',
    hint: 'Adopters and fosters',
    icon: IconAddressBook,
    screen: lazyScreen(async () => (await import('../people/people-screen')).PeopleScreen),
  },
  {
    path: '/applications',
    label: 'Applications',
    hint: 'Waiting for a decision',
    icon: IconInbox,
    screen: lazyScreen(async () => (await import('../shelter/applications-screen')).ApplicationsScreen),
  },
  {
    path: '/fees',
    label: 'Fees',
    hint: 'Adoption fee rules',
    icon: IconReceipt2,
    screen: lazyScreen(async () => (await import('../fees/fees-screen')).FeesScreen),
  },
  {
    path: '/contracts',
    label: 'Contracts',
    hint: 'Agreement texts',
    icon: IconFileText,
    screen: lazyScreen(async () => (await import('../contracts/contracts-screen')).ContractsScreen),
  },
  {
    path: '/shelter',
    label: 'Shelter',
    hint: 'Statuses, fields, contracts',
    icon: IconBuildingCommunity,
    screen: lazyScreen(
      async () => (await import('../shelter/shelter-settings-screen')).ShelterSettingsScreen,
    ),
    secondary: true,
  },
  {
    path: '/keys',
    label: 'Keys and sharing',
    hint: 'API keys, other desks',
    icon: IconKey,
    screen: lazyScreen(async () => (await import('../shelter/keys-screen')).KeysScreen),
    secondary: true,
  },
  {
    path: '/backup',
    label: 'Backup',
    hint: 'Copies of the records',
    icon: IconDatabaseExport,
    screen: lazyScreen(async () => (await import('../shelter/backup-screen')).BackupScreen),
    secondary: true,
  },
  {
    path: '/import',
    label: 'Import',
    hint: 'From a spreadsheet or system',
    icon: IconFileImport,
    screen: lazyScreen(async () => (await import('../import/import-screen')).ImportScreen),
    secondary: true,
  },
  {
    path: '/sync',
    label: 'Sync',
    hint: 'Connection to your server',
    icon: IconCloudDataConnection,
    screen: lazyScreen(async () => (await import('../sync/sync-screen')).SyncScreen),
    secondary: true,
  },
  {
    path: '/settings',
    label: 'Settings',
    hint: 'This desk',
    icon: IconSettings,
    screen: lazyScreen(async () => (await import('../settings/settings-screen')).SettingsScreen),
    secondary: true,
  },
];

export const HOME_PATH = '/pets';
