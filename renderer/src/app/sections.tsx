import {
  IconAddressBook,
  IconBuildingCommunity,
  IconCloudDataConnection,
  IconDatabaseExport,
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
import type { ComponentType } from 'react';
import { ContractsScreen } from '../contracts/contracts-screen';
import { DashboardScreen } from '../dashboard/dashboard-screen';
import { FeesScreen } from '../fees/fees-screen';
import { IntakeScreen } from '../intake/intake-screen';
import { PeopleScreen } from '../people/people-screen';
import { PetsScreen } from '../pets/pets-screen';
import { SettingsScreen } from '../settings/settings-screen';
import { ApplicationsScreen } from '../shelter/applications-screen';
import { BackupScreen } from '../shelter/backup-screen';
import { KeysScreen } from '../shelter/keys-screen';
import { ShelterSettingsScreen } from '../shelter/shelter-settings-screen';
import { SyncScreen } from '../sync/sync-screen';

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
    screen: DashboardScreen,
  },
  { path: '/pets', label: 'Pets', hint: 'Animals in your care', icon: IconPaw, screen: PetsScreen },
  {
    path: '/intake',
    label: 'Intake',
    hint: 'Record a new arrival',
    icon: IconSquareRoundedPlus,
    screen: IntakeScreen,
  },
  {
    path: '/people',
    label: 'People',
    hint: 'Adopters and fosters',
    icon: IconAddressBook,
    screen: PeopleScreen,
  },
  {
    path: '/applications',
    label: 'Applications',
    hint: 'Waiting for a decision',
    icon: IconInbox,
    screen: ApplicationsScreen,
  },
  { path: '/fees', label: 'Fees', hint: 'Adoption fee rules', icon: IconReceipt2, screen: FeesScreen },
  {
    path: '/contracts',
    label: 'Contracts',
    hint: 'Agreement texts',
    icon: IconFileText,
    screen: ContractsScreen,
  },
  {
    path: '/shelter',
    label: 'Shelter',
    hint: 'Statuses, fields, contracts',
    icon: IconBuildingCommunity,
    screen: ShelterSettingsScreen,
    secondary: true,
  },
  {
    path: '/keys',
    label: 'Keys and sharing',
    hint: 'API keys, other desks',
    icon: IconKey,
    screen: KeysScreen,
    secondary: true,
  },
  {
    path: '/backup',
    label: 'Backup',
    hint: 'Copies of the records',
    icon: IconDatabaseExport,
    screen: BackupScreen,
    secondary: true,
  },
  {
    path: '/sync',
    label: 'Sync',
    hint: 'Connection to your server',
    icon: IconCloudDataConnection,
    screen: SyncScreen,
    secondary: true,
  },
  {
    path: '/settings',
    label: 'Settings',
    hint: 'This desk',
    icon: IconSettings,
    screen: SettingsScreen,
    secondary: true,
  },
];

export const HOME_PATH = '/pets';
